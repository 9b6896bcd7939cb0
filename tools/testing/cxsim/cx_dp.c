// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim data path: its state and counters (struct cx_dp, allocated on
 * first use), whether the port passes frames, and the data path's lines
 * of the report.  Calls nothing above the leaf helpers.
 */
#include <stdlib.h>
#include <string.h>

#include "cx_kshim_dp.h"
#include "cx_dp.h"

struct cx_dp *cx_dp_get(struct cx_core *core)
{
	struct cx_dp *dp = core->dp;

	if (dp)
		return dp;
	dp = calloc(1, sizeof(*dp));
	if (!dp)
		return NULL;
	dp->txbuf = malloc(CX_DP_TXBUF);
	dp->scratch = malloc(CX_DP_SCRATCH);
	dp->rxbuf = malloc(CX_DP_RXBUF);
	if (!dp->txbuf || !dp->scratch || !dp->rxbuf) {
		free(dp->txbuf);
		free(dp->scratch);
		free(dp->rxbuf);
		free(dp);
		return NULL;
	}
	dp->rng = core->params.seed;
	core->dp = dp;
	return dp;
}

void cx_dp_fini(struct cx_core *core)
{
	struct cx_dp *dp = core->dp;

	if (!dp)
		return;
	free(dp->txbuf);
	free(dp->scratch);
	free(dp->rxbuf);
	free(dp);
	core->dp = NULL;
}

static uint64_t cx_earliest(uint64_t a, uint64_t b)
{
	return a && (!b || a < b) ? a : b;
}

/*
 * The host has one timer; delayed command completions (core->cmdq), CQ
 * moderation (dp->cq_deadline), the test port's timed UMR holds
 * (dp->umr_deadline) and the asynchronous engine's SQ steps and arms
 * (dp->sq_deadline, dp->arm_deadline) share it: set it to the earliest
 * deadline, or cancel it when none has one.
 */
void cx_timer_rearm(struct cx_core *core)
{
	struct cx_dp *dp = core->dp;
	uint64_t first = 0;
	unsigned int i;

	if (!core->host.timer_mod)
		return;
	if (dp) {
		first = cx_earliest(dp->cq_deadline, dp->umr_deadline);
		first = cx_earliest(first, dp->sq_deadline);
		first = cx_earliest(first, dp->arm_deadline);
		first = cx_earliest(first, dp->comp_deadline);
		first = cx_earliest(first, dp->lro_deadline);
	}
	first = cx_earliest(first, core->eq_arm_deadline);
	for (i = 0; i < CX_CMDQ_ENTRIES; i++)
		if ((core->cmdq.delayed & (1u << i)) &&
		    (!first || core->cmdq.deadline[i] < first))
			first = core->cmdq.deadline[i];
	core->host.timer_mod(core->host.opaque, first);
}

/*
 * Is the device asynchronous (cx_params.latency_ns)?  Then a doorbell only
 * records work, done from the host timer.
 */
bool cx_async(struct cx_core *core)
{
	return core->host.timer_mod && core->host.now_ns &&
	       (core->params.latency_ns || core->params.jitter_ns);
}

/* splitmix64: a small generator whose sequence the seed alone decides. */
static uint64_t cx_rng_next(struct cx_dp *dp)
{
	uint64_t z = (dp->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * When work recorded now is due: the latency plus a jitter in
 * [0, jitter_ns], never now itself (the doorbell write returns first).
 */
uint64_t cx_async_due(struct cx_core *core)
{
	const struct cx_params *p = &core->params;
	uint64_t delay = p->latency_ns;

	if (p->jitter_ns && core->dp)
		delay += cx_rng_next(core->dp) % (p->jitter_ns + 1);
	return cx_now(core) + (delay ? delay : 1);
}

/* Lower @deadline to @due; the host timer follows when it moves earlier. */
void cx_async_deadline(struct cx_core *core, uint64_t due, uint64_t *deadline)
{
	if (!*deadline || due < *deadline) {
		*deadline = due;
		cx_timer_rearm(core);
	}
}

/*
 * Record work of one queue (@pending, due at @due) for later: due after
 * the device's latency, and @deadline, the earliest of its kind, lowered.
 * Work already recorded stays as it was: it takes the newest state.
 */
void cx_async_defer(struct cx_core *core, bool *pending, uint64_t *due,
		    uint64_t *deadline)
{
	if (*pending)
		return;
	*pending = true;
	*due = cx_async_due(core);
	cx_async_deadline(core, *due, deadline);
}

/*
 * In a timer's walk: is a queue's recorded work (@pending, @due) due at
 * @now?  Then it is taken (no longer pending); else @next keeps the
 * earliest due time still ahead.
 */
bool cx_async_take(uint64_t now, bool *pending, uint64_t due, uint64_t *next)
{
	if (!*pending)
		return false;
	if (due > now) {
		if (!*next || due < *next)
			*next = due;
		return false;
	}
	*pending = false;
	return true;
}

bool cx_dp_link_up(struct cx_core *core)
{
	return core->func.state == CX_HCA_INITIALISED && core->func.nic &&
	       core->func.nic->port.oper_up;
}

uint32_t cx_dp_bad_rx_cqe(struct cx_core *core, uint32_t rqn)
{
	uint32_t v = core->faults.bad_rx_cqe, want = v & CX_TP_ANY_RQ;

	if (!v || (want != CX_TP_ANY_RQ && want != rqn))
		return 0;
	return v >> 28;
}

void cx_dp_bad_rx_cqe_taken(struct cx_core *core)
{
	core->faults.bad_rx_cqe = 0;
	core->dp->rx_bad_cqe_injected++;
}

/* The frame's 4-byte FCS, which the model's frames leave out, counts. */
#define CX_FCS_LEN	4

bool cx_frame_over_mtu(struct cx_core *core, size_t len)
{
	uint16_t mtu = core->func.nic->port.oper_mtu;

	return mtu && len + CX_FCS_LEN > mtu;
}

const uint16_t cx_port_hist_max[CX_PORT_HIST_N] = {
	64, 127, 255, 511, 1023, 1518, 2047, 4095, 8191, 10239,
};

/* The shortest frame on the wire, FCS excluded: the MAC pads to it. */
#define CX_ETH_ZLEN	60

void cx_port_count(struct cx_port_wire *w, const uint8_t *frame, size_t len)
{
	static const uint8_t ff[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	size_t wire = (len < CX_ETH_ZLEN ? CX_ETH_ZLEN : len) + CX_FCS_LEN;
	unsigned int i;

	w->frames++;
	w->octets += wire;
	if (len >= 6 && !memcmp(frame, ff, 6))
		w->bcast++;
	else if (len >= 6 && (frame[0] & 1))
		w->mcast++;
	else
		w->ucast++;
	for (i = 0; i < CX_PORT_HIST_N; i++)
		if (wire <= cx_port_hist_max[i]) {
			w->hist[i]++;
			break;
		}
}

/* ---- report ------------------------------------------------------------- */

static const char *cx_sq_state_name(uint8_t state)
{
	switch (state) {
	case MLX5_SQC_STATE_RST:	return "RST";
	case MLX5_SQC_STATE_RDY:	return "RDY";
	case MLX5_SQC_STATE_ERR:	return "ERR";
	default:			return "?";
	}
}

/* SQs stopped at a UMR the test port holds. */
static uint32_t cx_dp_umr_held(struct cx_core *core)
{
	uint32_t i, n = 0;

	if (!core->func.nic)
		return 0;
	for (i = 0; i < core->func.nic->sq.cap; i++) {
		const struct cx_sq *sq = core->func.nic->sq.slot[i];

		n += sq && sq->umr_held;
	}
	return n;
}

void cx_dp_report(struct cx_core *core, struct cx_out *o)
{
	static const struct cx_dp zero;
	const struct cx_dp *dp = core->dp ? core->dp : &zero;
	uint32_t i;

	KV(o, "async.latency_ns", core->params.latency_ns);
	KV(o, "async.jitter_ns", core->params.jitter_ns);
	KV(o, "async.seed", core->params.seed);
	KV(o, "async.doorbells", dp->async_db);
	KV(o, "async.steps", dp->async_steps);
	KV(o, "async.budget_stops", dp->async_budget_stops);
	KV(o, "async.arms", dp->async_arms);
	KV(o, "async.max_lag_ns", dp->async_max_lag_ns);
	KV(o, "wire.speed_mbps", core->params.speed_mbps);
	KV(o, "wire.waits", dp->wire_waits);
	KV(o, "wire.pause_waits", dp->pause_waits);
	KV(o, "wire.xoff", core->faults.xoff);
	KV(o, "port.rx_pause_frames",
	   core->func.nic ? core->func.nic->port.rx_pause_frames : 0);
	KV(o, "dp.desc_bytes", dp->desc_bytes);
	KV(o, "dp.wqebbs", dp->wqebbs);
	KV(o, "dp.payload_bytes", dp->payload_bytes);
	KV(o, "dp.rx_wqe_bytes", dp->rx_wqe_bytes);
	KV(o, "dp.rx_dma_bytes", dp->rx_dma_bytes);
	KV(o, "sq.doorbells", dp->sq_doorbells);
	KV(o, "sq.doorbells_bad", dp->sq_doorbells_bad);
	KV(o, "sq.doorbells_wrong_uar", dp->sq_doorbells_wrong_uar);
	KV(o, "sq.errors", dp->sq_errors);
	KV(o, "sq.errors_injected", dp->sq_err_injected);
	KV(o, "rq.errors_injected", dp->rq_err_injected);
	KV(o, "sq.recoveries", dp->sq_recoveries);
	KV(o, "wqe.flushed", dp->wqe_flushed);
	KV(o, "wqe.SEND", dp->wqe_send);
	KV(o, "wqe.LSO", dp->wqe_lso);
	KV(o, "wqe.ENHANCED_MPSW", dp->wqe_mpw);
	KV(o, "wqe.NOP", dp->wqe_nop);
	KV(o, "wqe.UMR", dp->wqe_umr);
	KV(o, "umr.entries", dp->umr_entries);
	KV(o, "umr.holds", dp->umr_holds);
	KV(o, "umr.held", cx_dp_umr_held(core));
	KV(o, "umr.early_use", dp->umr_early_use);
	KV(o, "umr.fail_injected", dp->umr_fail_injected);
	KV(o, "rx.prot_errors", dp->rx_prot_err);
	KV(o, "rx.bad_cqe_injected", dp->rx_bad_cqe_injected);
	KV(o, "wqe.errors", dp->wqe_err);
	KV(o, "wqe.vlan_insert", dp->wqe_vlan_insert);
	KV(o, "wqe.inline_errors", dp->wqe_inline_err);
	KV(o, "wqe.inline_errors_injected", dp->inline_err_injected);
	KV(o, "cqe.tx", dp->cqe_tx);
	KV(o, "cqe.rx", dp->cqe_rx);
	KV(o, "rx.lro_sessions", dp->lro_sessions);
	KV(o, "rx.lro_segs", dp->lro_segs);
	KV(o, "rx.lro_timeouts", dp->lro_timeouts);
	KV(o, "cqe.filler", dp->cqe_filler);
	KV(o, "cqe.err", dp->cqe_err);
	KV(o, "cqe.dropped", dp->cqe_dropped);
	KV(o, "cqe.comp_blocks", dp->cqe_comp_blocks);
	KV(o, "cqe.comp_cqes", dp->cqe_comp_cqes);
	KV(o, "cq.overruns", dp->cq_overruns);
	KV(o, "cq.doorbells", dp->cq_doorbells);
	KV(o, "cq.arms", dp->cq_arms);
	KV(o, "cq.arms_wrong_uar", dp->cq_arms_wrong_uar);
	KV(o, "cq.arms_stale", dp->cq_arms_stale);
	KV(o, "eqe.comp", dp->eqe_comp);
	KV(o, "eqe.comp.mod_count", dp->cq_mod_count);
	KV(o, "eqe.comp.mod_timer", dp->cq_mod_timer);
	KV(o, "eqe.comp.mod_waited", dp->cq_mod_waited);
	KV(o, "tx.packets", dp->tx_packets);
	KV(o, "tx.bytes", dp->tx_bytes);
	KV(o, "tx.drops.link_down", dp->tx_drops_link);
	KV(o, "tx.drops.mtu", core->func.nic ? core->func.nic->port.tx_oversize : 0);
	KV(o, "tx.vlan", dp->tx_vlan);
	KV(o, "tx.lso_errors", dp->tx_lso_err);
	KV(o, "rx.packets", dp->rx_packets);
	KV(o, "rx.bytes", dp->rx_bytes);
	KV(o, "rx.multicast", dp->rx_mcast);
	KV(o, "rx.broadcast", dp->rx_bcast);
	KV(o, "rx.drops.no_wqe", dp->rx_drops_no_wqe);
	KV(o, "rq.overposted", dp->rq_overposted);
	KV(o, "rx.drops.steering", dp->rx_drops_steering);
	KV(o, "rx.drops.link_down", dp->rx_drops_link);
	KV(o, "rx.drops.too_big", dp->rx_drops_too_big);
	KV(o, "rx.drops.mtu", core->func.nic ? core->func.nic->port.rx_oversize : 0);
	KV(o, "rx.drops.other", dp->rx_drops_other);
	if (!core->func.nic)
		return;
	for (i = 0; i < core->func.nic->sq.cap; i++) {
		const struct cx_sq *sq = core->func.nic->sq.slot[i];

		if (!sq)
			continue;
		/* One line of the report, written in four parts. */
		cx_out(o, "sq.%u uar=%u regs=0x%x doorbells=%llu wrong_uar=%llu wqes=%llu",
		       sq->sqn, sq->wq.uar_page, sq->db_regs,
		       (unsigned long long)sq->doorbells,
		       (unsigned long long)sq->doorbells_wrong_uar,
		       (unsigned long long)sq->wqes);
		cx_out(o, " cc=%u state=%u cqn=%u st=%s errors=%u err_resets=%u",
		       sq->cc, sq->state, sq->cqn, cx_sq_state_name(sq->state),
		       sq->errors, sq->err_resets);
		cx_out(o, " mpwqes=%llu lsos=%llu wqebbs=%llu min_inline=%u",
		       (unsigned long long)sq->mpw_wqes,
		       (unsigned long long)sq->lso_wqes,
		       (unsigned long long)sq->wqebbs, sq->min_inline);
		cx_out(o, " umr=%d umr_held=%d umr_holds=%u\n",
		       sq->reg_umr, sq->umr_held, sq->umr_holds);
	}
	for (i = 0; i < core->func.nic->cq.cap; i++) {
		const struct cx_cq *cq = core->func.nic->cq.slot[i];

		if (cq)
			cx_out(o, "cq.%u uar=%u eqn=%u cqes=%llu arms=%llu arms_wrong_uar=%llu\n",
			       cq->cqn, cq->uar_page, cq->eqn,
			       (unsigned long long)cq->cqes,
			       (unsigned long long)cq->arms,
			       (unsigned long long)cq->arms_wrong_uar);
	}
	for (i = 0; i < core->func.nic->rq.cap; i++) {
		const struct cx_rq *rq = core->func.nic->rq.slot[i];

		if (!rq)
			continue;
		cx_out(o, "rq.%u type=%u packets=%llu drops=%llu wqe_cc=%u state=%u cqn=%u",
		       rq->rqn, rq->wq.type,
		       (unsigned long long)rq->packets,
		       (unsigned long long)rq->drops, rq->wqe_cc,
		       rq->state, rq->cqn);
		cx_out(o, " strides=%llu filler_strides=%llu\n",
		       (unsigned long long)rq->strides,
		       (unsigned long long)rq->filler_strides);
	}
}
