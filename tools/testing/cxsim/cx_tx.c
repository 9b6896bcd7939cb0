// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim data path: send queues.
 *
 * The SQ doorbell is a 64-bit write to a send doorbell register of a UAR
 * page (0x800 + k * 2^log_bf_reg_size, either blue-flame half) of the
 * first 8 bytes of the last WQE's control segment (upstream
 * mlx5e_notify_hw()): opmod_idx_opcode, then qpn_ds, whose bits 31:8 name
 * the SQ.  Any register of the SQ's own UAR page rings it (hardware does
 * not tie a queue to one register); one on another page is dropped and
 * counted apart.  The producer counter that counts
 * is the doorbell record's (be32 at dbr_addr + 4, MLX5_SND_DBR; the
 * driver's pc is 16 bits), so every WQE from the SQ's cc to it runs.
 *
 * The device is asynchronous (cx_async(): the latency and jitter
 * properties): the doorbell only records that the SQ has work and when it
 * is due (the latency plus a seeded jitter, never inside the write), and
 * cx_sq_timer() runs it from the host timer, at most sq_budget WQEs a
 * step, no faster than the wire (the speed property) sends the frames.
 * Doorbells rung before a step fold into it: it reads the newest pc.  The
 * doorbell record is read by the first step after a doorbell only: a step
 * that resumes after the budget, the wire or a pause runs on to the pc it
 * already read (hardware learns of new work from doorbells, not by
 * polling the record).  A reset of the SQ forgets work not yet done.
 *
 * Each WQE: decoded by cx_wqe_decode(), sent by cx_tx_emit() (LSO,
 * checksums), completed with a CQE when it asks (MLX5_WQE_CTRL_CQ_UPDATE).
 * UMR WQEs (on an SQ created with reg_umr: the driver's ICOSQ) write
 * inline MTT/KSM entries into an mkey, which is how the striding RQ maps
 * its pages.  A malformed WQE gets an error CQE (always) and puts the SQ
 * in the error state: its doorbells are ignored until MODIFY_SQ takes it
 * through RST to RDY.  With the link down, frames are dropped and the
 * WQEs complete as usual.
 *
 * The Ethernet segment may have the device insert a VLAN tag
 * (wqe_vlan_insert, the vlan_insert property; without it such a WQE
 * fails).  A SEND WQE must inline the headers the minimum inline mode
 * asks (the vport's, announced through the NIC vport context, or the
 * SQ's min_wqe_inline_mode if more): one inlining less fails with
 * LOCAL_QP_OP_ERR, the syndrome of a WQE the device cannot execute as
 * built (every mlx5e error CQE takes the same recovery, so the driver
 * does not tell).  A frame longer than the port MTU (PMTU oper_mtu, FCS
 * included) is dropped and counted (PPCNT RFC 2863 if_out_errors, what
 * upstream shows as tx_errors_phy); its WQE completes as usual.  Each
 * frame sent counts in the port's TX wire counters (cx_port_count(): PPCNT
 * IEEE 802.3, RFC 2863).
 *
 * An SQ created with flush_in_error_en (the driver's TX SQs) has the WQEs
 * posted behind the failed one, and those posted while it is in error,
 * completed with WR_FLUSH_ERR CQEs, one per WQE, as hardware flushes
 * them; nothing is sent.  The driver's recovery (reporter_tx.c) waits for
 * exactly that (cc == pc) before it resets the SQ.
 *
 * The test port's ERR_CQE_SQN fault fails the next WQE the SQ executes,
 * whatever it is, with LOCAL_PROT_ERR; UMR_FAIL fails the next UMRs as
 * naming an unknown mkey.  UMR_HOLD holds a UMR: its SQ stops at it,
 * neither its translations nor its CQE visible, until the hold ends (its
 * time, on the host timer, or UMR_RELEASE); an RX WQE used meanwhile
 * through the entries it would write uses the old translation, as
 * hardware does, and is counted (umr.early_use): a driver must not hand
 * the device a WQE before its UMR completed.
 */
#include <string.h>

#include "cx_kshim_dp.h"
#include "cx_datapath.h"
#include "cx_dp.h"

/* What the WQE decoder's callbacks see: the device, the SQ's domain. */
struct cx_tx_ctx {
	struct cx_core *core;
	uint32_t pd;
};

static int cx_tx_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct cx_tx_ctx *t = ctx;

	return cx_dma_read_as(t->core, CX_DMA_WQE, addr, buf, len);
}

static int cx_tx_gather(void *ctx, uint32_t lkey, uint64_t addr, void *buf,
			size_t len)
{
	struct cx_tx_ctx *t = ctx;
	struct cx_core *core = t->core;
	enum cx_dma_purpose saved = core->dma_purpose;
	int r;

	core->dma_purpose = CX_DMA_PAYLOAD;
	r = cx_mkey_dma(core, t->pd, lkey, addr, buf, len, false);
	core->dma_purpose = saved;
	return r;
}

static bool cx_mac_is_mcast(const uint8_t *mac)
{
	return mac[0] & 1;
}

static bool cx_mac_is_bcast(const uint8_t *mac)
{
	static const uint8_t ff[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	return !memcmp(mac, ff, 6);
}

/*
 * The wire: a frame keeps it busy for its bytes plus the preamble, the
 * inter-frame gap and the FCS the model leaves out, at the port's speed.
 */
#define CX_WIRE_OVERHEAD	(8 + 12 + 4)

static void cx_wire_take(struct cx_core *core, size_t len)
{
	struct cx_dp *dp = core->dp;
	uint64_t now, start;

	if (!core->params.speed_mbps || !cx_async(core))
		return;
	now = cx_now(core);
	start = dp->wire_free_ns > now ? dp->wire_free_ns : now;
	dp->wire_free_ns = start + (len + CX_WIRE_OVERHEAD) * 8000ull /
				   core->params.speed_mbps;
}

/*
 * Does the link partner's PAUSE hold @sq back?  Not an SQ that may post
 * UMRs: its work does not go to the wire.
 */
static bool cx_wire_paused(struct cx_core *core, const struct cx_sq *sq)
{
	return core->faults.xoff && !sq->reg_umr;
}

/* Is the wire still busy with frames sent earlier? */
static bool cx_wire_busy(struct cx_core *core)
{
	return core->params.speed_mbps && cx_async(core) &&
	       core->dp->wire_free_ns > cx_now(core);
}

/*
 * Phy local loopback (PPLR) in effect: the frame goes from the port's
 * transmitter to its own receiver: the host hands it back to
 * cx_core_receive(), through the receive path as a frame from the wire
 * (port counters, steering, RSS).  The wire gets nothing.
 */
static bool cx_port_looped(struct cx_core *core)
{
	const struct cx_port *p = &core->func.nic->port;

	return p->oper_up && (p->lb_link & CX_PPLR_LB_PHY_LOCAL);
}

static void cx_tx_frame(void *ctx, const uint8_t *frame, size_t len)
{
	struct cx_core *core = ctx;
	struct cx_dp *dp = core->dp;
	struct cx_vport_counters *v = &core->func.nic->vcnt;

	if (!cx_dp_link_up(core)) {
		dp->tx_drops_link++;
		return;
	}
	if (cx_frame_over_mtu(core, len)) {
		core->func.nic->port.tx_oversize++;
		return;
	}
	if (len >= 14 && (cx_get_be16(frame + 12) == 0x8100 ||
			  cx_get_be16(frame + 12) == 0x88a8))
		dp->tx_vlan++;
	dp->tx_packets++;
	dp->tx_bytes += len;
	if (len >= 6 && cx_mac_is_bcast(frame)) {
		v->tx_bcast_pkts++;
		v->tx_bcast_bytes += len;
	} else if (len >= 6 && cx_mac_is_mcast(frame)) {
		v->tx_mcast_pkts++;
		v->tx_mcast_bytes += len;
	} else {
		v->tx_ucast_pkts++;
		v->tx_ucast_bytes += len;
	}
	cx_port_count(&core->func.nic->port.tx, frame, len);
	cx_wire_take(core, len);
	if (cx_port_looped(core)) {
		core->func.nic->port.lb_frames++;
		if (core->host.loop_frame)
			core->host.loop_frame(core->host.opaque, 1, frame, len);
	} else if (core->host.send_frame) {
		core->host.send_frame(core->host.opaque, 1, frame, len);
	}
}

/*
 * A UMR WQE (struct mlx5e_umr_wqe): ctrl (umr_mkey at byte 12), umr ctrl
 * segment at 16 (flags, xlt_octowords, xlt_offset, mkey_mask,
 * xlt_offset_47_16), mkey segment at 64, inline translations at 128.
 * Returns 0 or a CQE syndrome.
 */
static uint8_t cx_umr_exec(struct cx_core *core, const struct cx_sq *sq,
			   const struct cx_wqe *w)
{
	const uint8_t *raw = w->raw;
	uint32_t mkey = cx_get_be32(raw + 12);
	uint8_t flags = raw[16];
	uint32_t octw = cx_get_be16(raw + 20);
	uint64_t off = cx_get_be16(raw + 22);
	uint64_t mask = cx_get_be64(raw + 24);
	struct cx_mkey *mk = cx_mkey_lookup(core, mkey);
	uint32_t i, n, first;

	if (core->faults.umr_fail) {
		/* Test port: as if the mkey were unknown. */
		core->faults.umr_fail--;
		core->dp->umr_fail_injected++;
		core->dp->err_injected = true;
		mk = NULL;
	}
	if (!mk || !mk->umr_en || mk->pd != sq->wq.pd)
		return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
	if (!(flags & MLX5_UMR_INLINE))
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	if (flags & MLX5_UMR_TRANSLATION_OFFSET_EN)
		off |= (uint64_t)cx_get_be32(raw + 32) << 16;
	else
		off = 0;
	if (128 + (uint64_t)octw * 16 > w->raw_len)
		return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
	/* Every mode stores 8-byte words: MTT one per entry, KSM two. */
	n = octw * 2;
	first = (uint32_t)(off * 2);
	if (off * 2 + n > mk->nmtt)
		return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
	for (i = 0; i < n; i++)
		mk->mtt[first + i] = cx_get_be64(raw + 128 + 8 * i);
	core->dp->umr_entries += mk->access_mode == MLX5_MKC_ACCESS_MODE_KSM ?
				 n / 2 : n;
	if (mask & MLX5_MKEY_MASK_FREE)
		mk->free = (raw[64] >> 6) & 1;	/* mkey seg status: free */
	return 0;
}

static void cx_sq_schedule(struct cx_core *core, struct cx_sq *sq);

/* ---- the test port's UMR hold --------------------------------------- */

/* Should the UMR @sq is about to run be held?  Starts the hold if so. */
static bool cx_umr_hold(struct cx_core *core, struct cx_sq *sq)
{
	struct cx_faults *f = &core->faults;
	struct cx_dp *dp = core->dp;

	if (sq->umr_pass || !f->umr_hold_ms || !f->umr_hold_count)
		return false;
	if (f->umr_hold_ms != CX_TP_ALWAYS && !core->host.timer_mod)
		return false;	/* no clock to end it */
	if (f->umr_hold_count != CX_TP_ALWAYS)
		f->umr_hold_count--;
	sq->umr_held = true;
	sq->umr_holds++;
	sq->umr_release_at = 0;
	dp->umr_holds++;
	dp->umr_hold_seen = true;
	if (f->umr_hold_ms != CX_TP_ALWAYS) {
		sq->umr_release_at = cx_now(core) +
				     (uint64_t)f->umr_hold_ms * 1000000ull;
		if (!dp->umr_deadline || sq->umr_release_at < dp->umr_deadline) {
			dp->umr_deadline = sq->umr_release_at;
			cx_timer_rearm(core);
		}
	}
	return true;
}

/* The hold of @sq ends: it runs what was posted (no new hold till then). */
static void cx_umr_unhold(struct cx_core *core, struct cx_sq *sq)
{
	sq->umr_held = false;
	sq->umr_release_at = 0;
	if (sq->state != MLX5_SQC_STATE_RDY)
		return;
	sq->umr_pass = true;
	if (cx_async(core))
		cx_sq_schedule(core, sq);
	else
		cx_sq_process(core, sq);
}

void cx_umr_release_all(struct cx_core *core)
{
	struct cx_nic *nic = core->func.nic;
	uint32_t i;

	core->faults.umr_hold_ms = 0;
	core->faults.umr_hold_count = 0;
	if (!core->dp || !nic)
		return;
	core->dp->umr_deadline = 0;
	for (i = 0; i < nic->sq.cap; i++) {
		struct cx_sq *sq = nic->sq.slot[i];

		if (sq && sq->umr_held)
			cx_umr_unhold(core, sq);
	}
	cx_timer_rearm(core);
}

void cx_umr_timer(struct cx_core *core)
{
	struct cx_nic *nic = core->func.nic;
	struct cx_dp *dp = core->dp;
	uint64_t now = cx_now(core), next = 0;
	uint32_t i;

	if (!dp || !nic || !dp->umr_deadline || dp->umr_deadline > now)
		return;
	for (i = 0; i < nic->sq.cap; i++) {
		struct cx_sq *sq = nic->sq.slot[i];

		if (!sq || !sq->umr_held || !sq->umr_release_at)
			continue;
		if (sq->umr_release_at <= now)
			cx_umr_unhold(core, sq);
		else if (!next || sq->umr_release_at < next)
			next = sq->umr_release_at;
	}
	/* A release may have started a new hold meanwhile. */
	if (!dp->umr_deadline || dp->umr_deadline <= now ||
	    (next && next < dp->umr_deadline))
		dp->umr_deadline = next;
	/* cx_core_timer() rearms the host timer. */
}

/*
 * The entries a UMR WQE at @cc of @sq would write, if it is a UMR on
 * @mkey: [*first, *first + *n) in 8-byte words.  0, or -1 (not one).
 */
static int cx_umr_range(struct cx_core *core, const struct cx_sq *sq,
			uint32_t cc, uint32_t mkey, uint64_t *first,
			uint32_t *n, uint32_t *bbs)
{
	uint32_t mask = (1u << sq->wq.log_sz) - 1;
	uint8_t h[40];
	uint64_t addr, off;

	*bbs = 0;
	if (cx_pas_addr(&sq->wq.pas, (uint64_t)(cc & mask) * CX_WQEBB, &addr) ||
	    /* The model's own look, not the device's: not counted. */
	    core->host.dma_read(core->host.opaque, addr, h, sizeof(h)))
		return -1;
	*bbs = ((h[7] & 0x3f) + 3) / 4;
	if (h[3] != MLX5_OPCODE_UMR || cx_get_be32(h + 12) != mkey)
		return -1;
	off = cx_get_be16(h + 22);
	if (h[16] & MLX5_UMR_TRANSLATION_OFFSET_EN)
		off |= (uint64_t)cx_get_be32(h + 32) << 16;
	else
		off = 0;
	*first = off * 2;
	*n = (uint32_t)cx_get_be16(h + 20) * 2;
	return 0;
}

bool cx_umr_pending(struct cx_core *core, uint32_t mkey, uint64_t addr,
		    size_t len)
{
	struct cx_nic *nic = core->func.nic;
	struct cx_mkey *mk;
	uint64_t lo, hi;
	uint32_t i;

	if (!core->dp || !core->dp->umr_hold_seen || !nic || !len)
		return false;
	mk = cx_mkey_lookup(core, mkey);
	if (!mk || mk->access_mode != MLX5_MKC_ACCESS_MODE_MTT ||
	    addr < mk->start || mk->log_page_size > 63)
		return false;
	lo = (addr - mk->start) >> mk->log_page_size;
	hi = (addr - mk->start + len - 1) >> mk->log_page_size;
	for (i = 0; i < nic->sq.cap; i++) {
		struct cx_sq *sq = nic->sq.slot[i];
		uint32_t cc, left, walked;

		if (!sq || !sq->umr_held)
			continue;
		cc = sq->cc;
		left = (uint16_t)((uint16_t)sq->pc_seen - (uint16_t)cc);
		for (walked = 0; left && walked < (1u << sq->wq.log_sz);) {
			uint64_t first;
			uint32_t n, bbs;
			int r = cx_umr_range(core, sq, cc, mkey, &first, &n,
					     &bbs);

			if (!r && lo < first + n && hi >= first)
				return true;
			if (!bbs || bbs > left)
				break;
			cc += bbs;
			left -= bbs;
			walked += bbs;
		}
	}
	return false;
}

static void cx_sq_flush(struct cx_core *core, struct cx_sq *sq,
			struct cx_cq *cq);

/*
 * WQE @w failed: error CQE (always), SQ in error.  The failed WQE counts
 * as consumed when its size is known, and with flush_in_error_en the WQEs
 * behind it are flushed.
 */
static void cx_sq_error(struct cx_core *core, struct cx_sq *sq,
			struct cx_cq *cq, const struct cx_wqe *w,
			uint8_t syndrome, const char *why)
{
	struct cx_dp *dp = core->dp;
	uint8_t img[CX_CQE_SIZE];

	dp->wqe_err++;
	dp->sq_errors++;
	sq->errors++;
	if (!why)
		why = w->err ? cx_wqe_strerror(w->err) : "bad UMR";
	/* A malformed WQE is the guest's error; an injected one is not. */
	if (dp->err_injected)
		cx_log(core, "cxsim: SQ 0x%x: WQE 0x%x opcode 0x%x: %s (syndrome 0x%x, injected); SQ in error\n",
		       sq->sqn, w->wqe_index, w->opcode, why, syndrome);
	else
		cx_model_error(core, CX_MERR_SQ_ERROR_CQE,
			       "cxsim: SQ 0x%x: WQE 0x%x opcode 0x%x: %s (syndrome 0x%x); SQ in error\n",
			       sq->sqn, w->wqe_index, w->opcode, why, syndrome);
	dp->err_injected = false;
	sq->state = MLX5_SQC_STATE_ERR;
	if (cq) {
		cx_cqe_tx_err(img, cq->prod, cq->log_size, syndrome, 0,
			      w->opcode, w->wqe_index, sq->sqn);
		if (!cx_cq_write(core, cq, img))
			dp->cqe_err++;
	}
	if (w->wqebbs &&
	    (uint16_t)((uint16_t)sq->pc_seen - (uint16_t)sq->cc) >= w->wqebbs)
		sq->cc += w->wqebbs;
	cx_sq_flush(core, sq, cq);
}

static void cx_sq_ring_init(struct cx_core *core, const struct cx_sq *sq,
			    struct cx_sq_ring *ring, struct cx_tx_ctx *ctx)
{
	memset(ring, 0, sizeof(*ring));
	ctx->core = core;
	ctx->pd = sq->wq.pd;
	ring->rd = cx_tx_read;
	ring->ctx = ctx;
	ring->gather = cx_tx_gather;
	ring->pas = sq->wq.pas.addr;
	ring->npas = sq->wq.pas.n;
	ring->log_page_sz = CX_PAGE_SHIFT + sq->wq.pas.log_page_size;
	ring->page_offset = sq->wq.pas.page_offset;
	ring->log_wq_sz = sq->wq.log_sz;
	ring->sqn = sq->sqn;
	/*
	 * mlx5e never sets allow_multi_pkt_send_wqe (6.12): the capability
	 * (enhanced_multi_pkt_send_wqe) is what allows ENHANCED_MPSW.
	 */
	ring->mpwqe = core->params.mpwqe;
	ring->no_vlan_insert = !core->params.vlan_insert;
	/* The vport's mode, the SQ's if it asked for more, the test port's. */
	ring->min_inline = core->func.nic->vport.min_inline;
	if (sq->min_inline > ring->min_inline)
		ring->min_inline = sq->min_inline;
	if (core->faults.inline_mode > ring->min_inline)
		ring->min_inline = core->faults.inline_mode;
}

/*
 * An SQ in error with flush_in_error_en: complete every WQE from cc to the
 * doorbell record's pc with a WR_FLUSH_ERR CQE.  Only the control segment
 * is read (its ds_cnt gives the WQE's size); a WQE whose size cannot be
 * told (ds_cnt 0, past pc, unreadable) stops the flush there.
 */
static void cx_sq_flush(struct cx_core *core, struct cx_sq *sq,
			struct cx_cq *cq)
{
	struct cx_dp *dp = core->dp;
	uint32_t mask = (1u << sq->wq.log_sz) - 1;
	uint8_t rec[4], ctrl[16], img[CX_CQE_SIZE];
	uint16_t pc;

	if (!sq->flush_in_error_en || sq->state != MLX5_SQC_STATE_ERR)
		return;
	if (cx_dma_read_as(core, CX_DMA_DBR, sq->wq.dbr_addr + 4, rec, 4))
		return;
	pc = (uint16_t)cx_get_be32(rec);
	sq->pc_seen = pc;
	while ((uint16_t)sq->cc != pc) {
		uint16_t left = (uint16_t)(pc - (uint16_t)sq->cc);
		uint32_t ds, bbs;
		uint64_t addr;

		if (cx_pas_addr(&sq->wq.pas, (uint64_t)(sq->cc & mask) * CX_WQEBB,
				&addr) ||
		    cx_dma_read_as(core, CX_DMA_WQE, addr, ctrl, sizeof(ctrl)))
			break;
		ds = ctrl[7] & 0x3f;
		bbs = (ds + 3) / 4;
		if (!bbs || bbs > left)
			break;
		if (cq) {
			cx_cqe_tx_err(img, cq->prod, cq->log_size,
				      MLX5_CQE_SYNDROME_WR_FLUSH_ERR, 0,
				      ctrl[3], cx_get_be16(ctrl + 1), sq->sqn);
			if (!cx_cq_write(core, cq, img))
				dp->cqe_err++;
		}
		dp->wqe_flushed++;
		sq->cc += bbs;
	}
}

/* What stopped an SQ's run. */
enum cx_sq_stop {
	CX_SQ_STOP_DONE,		/* caught up with pc, in error, or held */
	CX_SQ_STOP_BUDGET,	/* ran its budget of WQEs: more to do */
	CX_SQ_STOP_WIRE,		/* the wire is busy: more to do */
	CX_SQ_STOP_PAUSED,	/* the partner's XOFF: more to do at XON */
};

/*
 * Run @sq's WQEs from cc to the doorbell record's pc, at most @budget of
 * them (0: no bound).
 */
static enum cx_sq_stop cx_sq_run(struct cx_core *core, struct cx_sq *sq,
				 uint32_t budget)
{
	struct cx_dp *dp = cx_dp_get(core);
	struct cx_cq *cq = cx_cq_lookup(core, sq->cqn);
	struct cx_sq_ring ring;
	struct cx_tx_ctx ctx;
	static struct cx_wqe w;	/* ~1 KiB of raw WQE: not on the stack */
	uint32_t done = 0;
	uint8_t rec[4];
	uint16_t pc;
	int r;

	if (!dp || sq->state != MLX5_SQC_STATE_RDY)
		return CX_SQ_STOP_DONE;
	if (sq->db_fresh) {
		if (cx_dma_read_as(core, CX_DMA_DBR, sq->wq.dbr_addr + 4,
				   rec, 4))
			return CX_SQ_STOP_DONE;
		sq->pc_seen = cx_get_be32(rec);
		sq->db_fresh = false;
	}
	pc = (uint16_t)sq->pc_seen;
	if (sq->umr_held)
		return CX_SQ_STOP_DONE;	/* at a held UMR: runs on at its release */
	cx_sq_ring_init(core, sq, &ring, &ctx);

	for (;; done++) {
		uint8_t img[CX_CQE_SIZE];
		uint8_t synd = 0;
		uint64_t stamp;

		if ((uint16_t)sq->cc == pc)
			break;
		if (budget && done == budget)
			return CX_SQ_STOP_BUDGET;
		if (cx_wire_paused(core, sq))
			return CX_SQ_STOP_PAUSED;
		if (cx_wire_busy(core))
			return CX_SQ_STOP_WIRE;
		/*
		 * The CQE's timestamp: the WQE's first frame going on the
		 * (free) wire, before the peer can receive it.
		 */
		stamp = cx_now(core);
		r = cx_wqe_decode(&ring, (uint16_t)sq->cc, pc, dp->txbuf,
				  CX_DP_TXBUF, &w);
		if (r == CX_WQE_EMPTY)
			break;
		w.tun = &core->func.nic->tun;
		w.swp_ok = sq->allow_swp;
		dp->desc_bytes += w.desc_bytes;
		dp->wqebbs += w.desc_bytes / CX_WQEBB;
		sq->wqebbs += w.desc_bytes / CX_WQEBB;
		dp->payload_bytes += w.payload_bytes;
		if (core->faults.err_cqe_sqn &&
		    core->faults.err_cqe_sqn == sq->sqn &&
		    (r >= 0 || (r == CX_WQE_E_OPCODE &&
				w.opcode == MLX5_OPCODE_UMR && sq->reg_umr))) {
			/* Test port: one-shot, like a bad lkey/address. */
			core->faults.err_cqe_sqn = 0;
			dp->sq_err_injected++;
			dp->err_injected = true;
			cx_sq_error(core, sq, cq, &w,
				    MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				    "injected error CQE");
			return CX_SQ_STOP_DONE;
		}
		if (r == CX_WQE_E_OPCODE && w.opcode == MLX5_OPCODE_UMR &&
		    sq->reg_umr) {
			if (cx_umr_hold(core, sq))
				return CX_SQ_STOP_DONE;	/* fetched again when released */
			synd = cx_umr_exec(core, sq, &w);
			if (synd) {
				cx_sq_error(core, sq, cq, &w, synd, NULL);
				return CX_SQ_STOP_DONE;
			}
			dp->wqe_umr++;
		} else if (r < 0) {
			if (r == CX_WQE_E_INLINE_MODE) {
				dp->wqe_inline_err++;
				if (core->faults.inline_mode) {
					core->faults.inline_mode = 0;
					dp->inline_err_injected++;
					dp->err_injected = true;
				}
			}
			cx_sq_error(core, sq, cq, &w, w.syndrome, NULL);
			return CX_SQ_STOP_DONE;
		} else {
			int n = cx_tx_emit(&w, dp->txbuf, dp->scratch,
					   CX_DP_SCRATCH, cx_tx_frame, core);

			if (n < 0) {
				dp->tx_lso_err++;
				cx_sq_error(core, sq, cq, &w,
					    MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
					    NULL);
				return CX_SQ_STOP_DONE;
			}
			if (w.vlan_insert)
				dp->wqe_vlan_insert++;
			switch (w.opcode) {
			case MLX5_OPCODE_SEND:		dp->wqe_send++; break;
			case MLX5_OPCODE_LSO:
				dp->wqe_lso++;
				sq->lso_wqes++;
				break;
			case MLX5_OPCODE_ENHANCED_MPSW:
				dp->wqe_mpw++;
				sq->mpw_wqes++;
				break;
			case MLX5_OPCODE_NOP:		dp->wqe_nop++; break;
			}
		}
		sq->wqes++;
		if (w.cqe_req && cq) {
			cx_cqe_tx(img, cq->prod, cq->log_size, w.opcode,
				  w.wqe_index, sq->sqn, stamp);
			if (!cx_cq_write(core, cq, img))
				dp->cqe_tx++;
		}
		sq->cc += w.wqebbs;
	}
	sq->umr_pass = false;
	return CX_SQ_STOP_DONE;
}

void cx_sq_process(struct cx_core *core, struct cx_sq *sq)
{
	cx_sq_run(core, sq, 0);
}

/* ---- the asynchronous engine ---------------------------------------- */

static void cx_sq_due(struct cx_core *core, struct cx_sq *sq, uint64_t due)
{
	struct cx_dp *dp = core->dp;

	sq->due_ns = due;
	cx_async_deadline(core, due, &dp->sq_deadline);
}

/* Record a doorbell's work: done by cx_sq_timer() once due. */
static void cx_sq_schedule(struct cx_core *core, struct cx_sq *sq)
{
	core->dp->async_db++;
	if (sq->db_pending)
		return;	/* its next step reads the newest pc anyway */
	sq->db_pending = true;
	sq->rung_ns = cx_now(core);
	cx_sq_due(core, sq, cx_async_due(core));
}

/* One step of @sq's recorded work: true when some is left for another. */
static bool cx_sq_step(struct cx_core *core, struct cx_sq *sq)
{
	uint32_t budget = core->params.sq_budget ? core->params.sq_budget :
			  CX_SQ_BUDGET;
	struct cx_dp *dp = core->dp;
	enum cx_sq_stop stop;

	if (sq->state == MLX5_SQC_STATE_ERR) {
		cx_sq_flush(core, sq, cx_cq_lookup(core, sq->cqn));
		return false;
	}
	stop = cx_sq_run(core, sq, budget);
	if (stop == CX_SQ_STOP_BUDGET) {
		dp->async_budget_stops++;
		cx_sq_due(core, sq, cx_async_due(core));
		return true;
	}
	if (stop == CX_SQ_STOP_WIRE) {
		dp->wire_waits++;
		cx_sq_due(core, sq, dp->wire_free_ns);
		return true;
	}
	if (stop == CX_SQ_STOP_PAUSED) {
		/* Pending with no deadline: cx_port_pause_update() sets one. */
		dp->pause_waits++;
		return true;
	}
	return false;
}

void cx_port_pause_update(struct cx_core *core)
{
	struct cx_nic *nic = core->func.nic;
	struct cx_dp *dp = core->dp;
	uint32_t i;

	if (!dp || !nic || core->faults.xoff)
		return;
	for (i = 0; i < nic->sq.cap; i++) {
		struct cx_sq *sq = nic->sq.slot[i];

		if (!sq)
			continue;
		if (cx_async(core)) {
			if (sq->db_pending)
				cx_sq_due(core, sq, cx_async_due(core));
		} else if (sq->state == MLX5_SQC_STATE_RDY) {
			cx_sq_process(core, sq);
		}
	}
}

void cx_sq_timer(struct cx_core *core)
{
	struct cx_nic *nic = core->func.nic;
	struct cx_dp *dp = core->dp;
	uint64_t now, lag;
	uint32_t i;

	if (!dp || !nic || !dp->sq_deadline)
		return;
	now = cx_now(core);
	if (dp->sq_deadline > now)
		return;
	/* Steps that leave work set the next deadline again. */
	dp->sq_deadline = 0;
	for (i = 0; i < nic->sq.cap; i++) {
		struct cx_sq *sq = nic->sq.slot[i];

		if (!sq || !sq->db_pending)
			continue;
		if (sq->due_ns > now) {
			cx_sq_due(core, sq, sq->due_ns);
			continue;
		}
		lag = now - sq->rung_ns;
		if (lag > dp->async_max_lag_ns)
			dp->async_max_lag_ns = lag;
		dp->async_steps++;
		if (!cx_sq_step(core, sq))
			sq->db_pending = false;
	}
	/* cx_core_timer() rearms the host timer. */
}

void cx_sq_doorbell(struct cx_core *core, uint32_t uar_page, unsigned int reg,
		    uint64_t value)
{
	struct cx_dp *dp = cx_dp_get(core);
	uint32_t qpn_ds = __builtin_bswap32((uint32_t)(value >> 32));
	uint32_t sqn = qpn_ds >> 8;
	struct cx_sq *sq;

	if (!dp || !core->func.nic)
		return;
	dp->sq_doorbells++;
	cx_pcie_break(core);
	sq = cx_sq_lookup(core, sqn);
	if (sq && sq->wq.uar_page != uar_page) {
		/* UAR pages keep their owners apart: hardware drops it. */
		dp->sq_doorbells_wrong_uar++;
		sq->doorbells_wrong_uar++;
		cx_model_error(core, CX_MERR_DB_WRONG_UAR_SQ,
			       "cxsim: SQ doorbell for SQ 0x%x on UAR %u, its UAR is %u\n",
			       sqn, uar_page, sq->wq.uar_page);
		return;
	}
	if (sq) {
		sq->db_regs |= 1u << reg;
		sq->db_fresh = true;
	}
	if (sq && sq->wq.uar_page == uar_page &&
	    sq->state == MLX5_SQC_STATE_ERR && sq->flush_in_error_en) {
		/* Posted while in error: flushed, as hardware does. */
		sq->doorbells++;
		if (cx_async(core))
			cx_sq_schedule(core, sq);
		else
			cx_sq_flush(core, sq, cx_cq_lookup(core, sq->cqn));
		return;
	}
	if (!sq || sq->state != MLX5_SQC_STATE_RDY) {
		dp->sq_doorbells_bad++;
		if (!sq)
			cx_model_error(core, CX_MERR_DB_UNKNOWN_SQ,
				       "cxsim: SQ doorbell for SQ 0x%x on UAR %u: no such SQ\n",
				       sqn, uar_page);
		return;
	}
	sq->doorbells++;
	if (cx_async(core))
		cx_sq_schedule(core, sq);
	else
		cx_sq_process(core, sq);
}
