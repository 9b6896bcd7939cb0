/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim data path integration: doorbells, send queues, completion queues
 * and the receive path on the objects of cx_obj.h.
 *
 *   cx_dp.c  the data path's counters, the link check, the report lines
 *   cx_cq.c  CQE writing (owner bits, 128-byte CQEs, overrun), CQ arming
 *            (UAR 0x20), completion and CQ error EQEs
 *   cx_mkey.c guest memory through an mkey
 *   cx_tx.c  SQ doorbells (UAR 0x800 + k * 512): WQEs from the SQ's cc to the
 *            doorbell record's pc, frames out, CQEs, error state; UMR
 *            WQEs on an ICOSQ (reg_umr) update an mkey's translations
 *   cx_rx.c  a frame from the wire: NIC RX steering from the root table,
 *            TIR (direct or RSS over an RQT), cyclic or striding RQ
 */
#ifndef CX_DP_H
#define CX_DP_H

#include "cx_obj.h"

/* What the data path counts, for the report and for tests. */
struct cx_dp {
	/* bus */
	uint64_t desc_bytes;		/* WQE bytes fetched */
	uint64_t wqebbs;		/* WQEBBs fetched */
	uint64_t payload_bytes;		/* bytes gathered by data segments */
	uint64_t rx_wqe_bytes;		/* RX WQE bytes fetched */
	uint64_t rx_dma_bytes;		/* frame bytes written */
	/* send queues */
	uint64_t sq_doorbells;
	uint64_t sq_doorbells_bad;	/* no such SQ, or not ready */
	uint64_t sq_doorbells_wrong_uar; /* the SQ's, rung on another page */
	uint64_t wqe_send, wqe_lso, wqe_mpw, wqe_nop, wqe_umr, wqe_err;
	uint64_t wqe_vlan_insert;	/* WQEs whose eseg inserted a tag */
	uint64_t wqe_inline_err;	/* SENDs inlining too little */
	uint64_t inline_err_injected;	/* ... of them by the test port */
	uint64_t umr_entries;		/* MTT/KSM entries UMRs wrote */
	uint64_t umr_holds;		/* UMRs held by the test port */
	uint64_t umr_early_use;		/* RX data through a held UMR's range */
	uint64_t umr_fail_injected;	/* UMRs failed by the test port */
	uint64_t umr_deadline;		/* earliest timed hold's end (ns), 0: none */
	bool umr_hold_seen;		/* a hold ever began: look for early use */
	uint64_t rx_prot_err;		/* RX data access refused: error CQE */
	uint64_t rx_bad_cqe_injected;	/* CQEs the test port made lie */
	uint64_t sq_errors;		/* SQs put in the error state */
	uint64_t sq_err_injected;	/* of them by the test port */
	bool err_injected;		/* the error cx_sq_error() reports is */
	uint64_t rq_err_injected;	/* RX error CQEs by the test port */
	uint64_t sq_recoveries;		/* MODIFY_SQ ERR -> RST */
	uint64_t wqe_flushed;		/* WR_FLUSH_ERR CQEs (flush_in_error_en) */
	/* completions */
	uint64_t cqe_tx, cqe_rx, cqe_err, cqe_filler;
	uint64_t cqe_dropped;		/* overrun or DMA failure */
	uint64_t cqe_comp_blocks;	/* compressed blocks written */
	uint64_t cqe_comp_cqes;		/* ... the CQEs they carry */
	uint64_t comp_deadline;		/* CQEs held: flush due (ns), 0: none */
	uint64_t cq_overruns;		/* overrun episodes (CQ_ERROR EQEs) */
	uint64_t cq_doorbells;
	uint64_t cq_arms;
	uint64_t cq_arms_wrong_uar;	/* on a page not the CQ's: ignored */
	uint64_t cq_arms_stale;		/* old sequence number: ignored */
	uint64_t eqe_comp;		/* completion EQEs posted */
	uint64_t cq_mod_count;		/* ... of them when cq_max_count was reached */
	uint64_t cq_mod_timer;		/* ... of them when cq_period ran out */
	uint64_t cq_mod_waited;		/* ... of those, after the CQ waited for it */
	uint64_t lro_deadline;		/* earliest LRO session timeout (ns), 0: none */
	uint64_t lro_sessions;		/* LRO CQEs (sessions closed) */
	uint64_t lro_segs;		/* segments in them */
	uint64_t lro_timeouts;		/* sessions the timer closed */
	uint64_t cq_deadline;		/* earliest moderation deadline (ns), 0: none */
	/* the port (this function's only one) */
	uint64_t tx_packets, tx_bytes;
	uint64_t tx_drops_link;		/* frames not sent: link down */
	uint64_t tx_vlan;		/* frames sent with an 802.1Q/ad tag */
	uint64_t tx_lso_err;
	uint64_t rx_packets, rx_bytes;
	uint64_t rx_drops_no_wqe;
	uint64_t rq_overposted;		/* counters past the ring: dropped */
	uint64_t rx_drops_steering;
	uint64_t rx_drops_link;
	uint64_t rx_drops_too_big;
	uint64_t rx_drops_other;	/* RQ not ready, DMA errors, ... */
	uint64_t rx_mcast, rx_bcast;
	/* the asynchronous engine (cx_params.latency_ns) */
	uint64_t rng;			/* jitter state, from cx_params.seed */
	uint64_t sq_deadline;		/* earliest SQ step due (ns), 0: none */
	uint64_t arm_deadline;		/* earliest CQ/EQ arm due (ns), 0: none */
	uint64_t async_db;		/* doorbells whose work was deferred */
	uint64_t async_steps;		/* SQ steps run from the timer */
	uint64_t async_budget_stops;	/* ... that left work for the next */
	uint64_t async_arms;		/* CQ/EQ arms applied from the timer */
	uint64_t async_max_lag_ns;	/* longest doorbell-to-work delay */
	/* the wire (cx_params.speed_mbps) */
	uint64_t wire_free_ns;		/* busy with sent frames until then */
	uint64_t wire_waits;		/* SQ steps held back by a busy wire */
	uint64_t pause_waits;		/* ... by the partner's XOFF */
	/* scratch buffers */
	uint8_t *txbuf;			/* CX_DP_TXBUF */
	uint8_t *scratch;		/* CX_DP_SCRATCH */
	uint8_t *rxbuf;			/* CX_DP_RXBUF */
};

#define CX_DP_TXBUF	(256u * 1024 + 4096)
#define CX_DP_SCRATCH	(256u + 65536 + 64)
#define CX_DP_RXBUF	(65536u + 64)

/* The data path state of @core, allocated on first use; NULL on ENOMEM. */
struct cx_dp *cx_dp_get(struct cx_core *core);
void cx_dp_fini(struct cx_core *core);
/* Append the data path's report lines. */
struct cx_out;
void cx_dp_report(struct cx_core *core, struct cx_out *o);

/* UAR doorbells (routed by cx_core.c). */
void cx_cq_doorbell(struct cx_core *core, uint32_t uar_page, uint64_t value);
void cx_sq_doorbell(struct cx_core *core, uint32_t uar_page, unsigned int reg,
		    uint64_t value);

/*
 * Write the 64-byte CQE image @img, built for producer counter cq->prod,
 * into @cq; then cq->prod++ and a completion EQE if the CQ is armed.
 * Returns 0, or -1 when it was dropped (CQ overrun: a CQ_ERROR event).
 */
int cx_cq_write(struct cx_core *core, struct cx_cq *cq, const void *img);
/*
 * An RX CQE (not an error, not a filler) of an RQ, @striding or not: on a
 * CQ with compression it is held for a block (cx_cq.c), else written.
 */
int cx_cq_write_rx(struct cx_core *core, struct cx_cq *cq, const void *img,
		   bool striding);
/* Write @cq's held CQEs now (the RQ changes state, ...). */
void cx_cq_comp_flush(struct cx_core *core, struct cx_cq *cq);
/* The step is over: every CQ's held CQEs go out. */
void cx_cq_comp_timer(struct cx_core *core);

/*
 * Guest memory through an mkey: PA mkeys (and keys the model does not
 * know, such as the reserved lkey) are identity; MTT and KSM mkeys
 * translate page by page.  0 or -1.
 */
/* Guest memory through mkey @lkey, for a queue of protection domain @pd. */
int cx_mkey_dma(struct cx_core *core, uint32_t pd, uint32_t lkey,
		uint64_t addr, void *buf, size_t len, bool write);

/* Transmit path (cx_tx.c): run the SQ's posted WQEs. */
void cx_sq_process(struct cx_core *core, struct cx_sq *sq);
/* The partner's XON (test port): the SQs its XOFF held back run on. */
void cx_port_pause_update(struct cx_core *core);
/*
 * The test port's UMR hold: end every hold (UMR_RELEASE), or those whose
 * time ran out (the host timer).
 */
void cx_umr_release_all(struct cx_core *core);
void cx_umr_timer(struct cx_core *core);
/*
 * Does a UMR not yet executed (held, or queued behind a held one) name
 * the entries of mkey @mkey that [@addr, @addr + @len) goes through?
 */
bool cx_umr_pending(struct cx_core *core, uint32_t mkey, uint64_t addr,
		    size_t len);

/* Receive path (cx_rx.c). */
size_t cx_rx_frame(struct cx_core *core, const void *buf, size_t len);

/* Set the host timer to the earliest command or CQ moderation deadline. */
void cx_timer_rearm(struct cx_core *core);
bool cx_async(struct cx_core *core);
uint64_t cx_async_due(struct cx_core *core);
void cx_async_deadline(struct cx_core *core, uint64_t due, uint64_t *deadline);
void cx_async_defer(struct cx_core *core, bool *pending, uint64_t *due,
		    uint64_t *deadline);
bool cx_async_take(uint64_t now, bool *pending, uint64_t due, uint64_t *next);
void cx_sq_timer(struct cx_core *core);
/* The host timer ran out: CQs whose moderation period ended post their EQE. */
void cx_cq_timer(struct cx_core *core);
void cx_cq_arm_timer(struct cx_core *core);
/* The host timer ran out: LRO sessions whose timeout ended close (cx_rx.c). */
void cx_lro_timer(struct cx_core *core);

/* Is the port passing frames? */
bool cx_dp_link_up(struct cx_core *core);
/*
 * The test port's BAD_RX_CQE: what it breaks (CX_TP_BAD_CQE_*) in the
 * next CQE of RQ @rqn, or 0 when it is not armed for that RQ; a kind the
 * caller carries out is then taken (one-shot, counted).
 */
uint32_t cx_dp_bad_rx_cqe(struct cx_core *core, uint32_t rqn);
void cx_dp_bad_rx_cqe_taken(struct cx_core *core);
/*
 * A frame of @len bytes (no FCS) is over the port MTU (PMTU oper_mtu,
 * which counts the FCS); the port must be up (func.nic set).
 */
bool cx_frame_over_mtu(struct cx_core *core, size_t len);
/*
 * Count a frame of @len bytes (no FCS) the port sent or received OK in
 * @w, one direction of its wire.
 */
void cx_port_count(struct cx_port_wire *w, const uint8_t *frame, size_t len);

#endif /* CX_DP_H */
