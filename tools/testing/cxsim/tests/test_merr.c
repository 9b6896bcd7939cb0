// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Included by test_core.c after test_sqerr.c: model errors.  Each kind a
 * driver can cause is counted under its name in the report, once per
 * occurrence, and shown to the host; a correct driver's path and the test
 * port's injected faults count none; the counts survive a reset; the test
 * port's DMA_PROBE goes through the DMA path like any write.
 */

static unsigned int merr_hooks;
static char merr_last_kind[64];

static void merr_hook(void *opaque, const char *kind, const char *msg)
{
	(void)opaque;
	(void)msg;
	merr_hooks++;
	snprintf(merr_last_kind, sizeof(merr_last_kind), "%s", kind);
}

static int merr_blocked_write(void *opaque, uint64_t addr, const void *buf,
			      size_t len)
{
	(void)opaque;
	(void)addr;
	(void)buf;
	(void)len;
	return CX_DMA_BLOCKED;
}

/* model_error.<kind> of a fresh report, or -1 when the line is missing. */
static long merr(const char *kind)
{
	char key[96];

	snprintf(key, sizeof(key), "model_error.%s", kind);
	return report_val(key);
}

/* Every kind has its line; they add up to model_errors. */
static bool merr_lines_add_up(void)
{
	long sum = 0, v;
	unsigned int i;

	for (i = 0; i < CX_MERR_NKINDS; i++) {
		v = merr(cx_merr_name(i));
		if (v < 0 || !strcmp(cx_merr_name(i), "unknown"))
			return false;
		sum += v;
	}
	return sum == report_val("model_errors");
}

static void merr_probe(uint64_t addr)
{
	tp_wr(CX_TP_DMA_PROBE_HI, (uint32_t)(addr >> 32));
	tp_wr(CX_TP_DMA_PROBE, (uint32_t)addr);
}

static void test_merr_probe(void)
{
	setup();
	core.host.model_error = merr_hook;
	merr_hooks = 0;
	ok(report_val("model_errors") == 0 && merr_lines_add_up() &&
	   tp_rd(CX_TP_DMA_PROBE) == 0,
	   "fresh: model_errors 0, a line for every kind, no probe yet");

	merr_probe(0x1000);
	ok(tp_rd(CX_TP_DMA_PROBE) == CX_TP_DMA_PROBE_DONE &&
	   !memcmp(fh.mem + 0x1000, "cxsimdma", 8) &&
	   report_val("model_errors") == 0 && merr_hooks == 0,
	   "DMA_PROBE to memory: 8 bytes written, no model error");

	merr_probe(0x7f00000000ULL);
	ok(tp_rd(CX_TP_DMA_PROBE) == CX_TP_DMA_PROBE_FAILED &&
	   (uint32_t)tp_rd(CX_TP_DMA_PROBE_HI) == 0x7f &&
	   merr("dma.fail.wr.other") == 1 && report_val("model_errors") == 1,
	   "DMA_PROBE where the host refuses: dma.fail.wr.other 1, model_errors 1");
	ok(merr_hooks == 1 && !strcmp(merr_last_kind, "dma.fail.wr.other") &&
	   strstr(fh.last_log, "DMA write of 8 bytes at 0x7f00000000 refused"),
	   "the host's model_error hook and log are told, with the kind");
	ok(report_val("pcie.other.wr_req") == 2,
	   "the probes are counted as PCIe writes like any other");

	core.host.dma_write = merr_blocked_write;
	merr_probe(0x2000);
	ok(tp_rd(CX_TP_DMA_PROBE) == CX_TP_DMA_PROBE_BLOCKED &&
	   report_val("dma.blocked") == 1 && report_val("model_errors") == 1,
	   "bus mastering off: not sent, dma.blocked 1, no model error");
	core.host.dma_write = fake_dma_write;

	cx_core_reset(&core);
	ok(report_val("model_errors") == 1 && merr("dma.fail.wr.other") == 1,
	   "a function reset keeps the counts");
	core.host.model_error = NULL;
}

static void test_merr_doorbells(void)
{
	struct eth_env e;
	uint32_t cqn, sqn, uar2, cqn_uar;
	bool good;

	good = dp_tx_setup(&e, &cqn, &sqn);
	dp_post_send(&e, sqn);
	ok(good && dp_nframes == 1 && report_val("model_errors") == 0,
	   "a driver's bring-up and one SEND: no model error");

	/* Unallocated UAR page. */
	wr32be(4000ULL * 4096 + 0x40, 0);
	ok(merr("uar.unallocated") == 1 && report_val("model_errors") == 1,
	   "write to an unallocated UAR page: uar.unallocated");

	good = alloc_uar(&uar2) == 0;
	/* SQ: no such SQ; the SQ's own, on another page. */
	dp_send_at(&e, sqn + 100, 1, e.uar, 0x800);
	ok(merr("doorbell.unknown_sq") == 1, "SQ doorbell for no SQ: doorbell.unknown_sq");
	dp_send_at(&e, sqn, 1, uar2, 0x800);
	ok(good && merr("doorbell.wrong_uar_sq") == 1 && dp_nframes == 1,
	   "SQ doorbell on another UAR page: doorbell.wrong_uar_sq, dropped");
	/* CQ arms. */
	dp_cq_arm_at(e.uar, cqn + 100, 0);
	ok(merr("doorbell.unknown_cq") == 1, "CQ arm for no CQ: doorbell.unknown_cq");
	cqn_uar = cqn;
	dp_cq_arm_at(uar2, cqn_uar, 1);
	ok(merr("doorbell.wrong_uar_cq") == 1,
	   "CQ arm on another UAR page: doorbell.wrong_uar_cq");
	/* EQs. */
	eq_doorbell(e.uar, 60, 0, 1);
	ok(merr("doorbell.unknown_eq") == 1, "EQ doorbell for no EQ: doorbell.unknown_eq");
	eq_doorbell(uar2, e.comp_eq, 0, 1);
	ok(merr("doorbell.wrong_uar_eq") == 1,
	   "EQ doorbell on another UAR page: doorbell.wrong_uar_eq");
	eq_doorbell(e.uar, e.comp_eq, 1000, 0);
	ok(merr("eq.ci_ahead") == 1,
	   "EQ consumer index past the producer: eq.ci_ahead");
	/* BAR0 accesses the device refuses. */
	cx_core_bar0_write(&core, ISEG(cmdq_addr_h) + 1, 0, 4);
	ok(merr("bar.bad_access") == 1, "unaligned BAR0 write: bar.bad_access");
	ok(report_val("model_errors") == 9 && merr_lines_add_up(),
	   "model_errors is their sum (9)");
}

static void test_merr_wqes(void)
{
	struct eth_env e;
	uint32_t cqn, sqn, i;
	struct cx_sq *sq;
	uint8_t *w;
	bool good;

	/* Injected: the test port's error CQE is not a model error. */
	good = dp_tx_setup(&e, &cqn, &sqn);
	sq = cx_sq_lookup(&core, sqn);
	tp_wr(CX_TP_ERR_CQE_SQN, sqn);
	dp_post_send(&e, sqn);
	ok(good && sq->state == MLX5_SQC_STATE_ERR &&
	   report_val("sq.errors_injected") == 1 && report_val("model_errors") == 0,
	   "injected error CQE: SQ in error, no model error");
	good = modify_q(true, sqn, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST) == 0 &&
	       modify_q(true, sqn, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) == 0;

	/* A data segment through a key the function does not own. */
	sqerr_send(0, sqn, 0x7700);
	dp_sq_ring(e.uar, 1, dp_wqebb(0));
	ok(good && sq->state == MLX5_SQC_STATE_ERR && merr("sq.error_cqe") == 1 &&
	   report_val("model_errors") == 1,
	   "a WQE through an unknown lkey: error CQE, sq.error_cqe 1");
	good = modify_q(true, sqn, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST) == 0 &&
	       modify_q(true, sqn, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) == 0;

	/* Gather from where the host has no memory: a DMA read fails. */
	w = dp_wqebb(0);
	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_SEND, 0, sqn, 3, true);
	dp_dseg(w + 32, 100, e.mkey, 0x7f00000000ULL);
	dp_sq_ring(e.uar, 1, w);
	ok(good && merr("dma.fail.rd.payload") == 1,
	   "a gather the host refuses: dma.fail.rd.payload 1");
	ok(merr_lines_add_up(), "the kinds add up to model_errors");

	/* CQ overrun: 70 CQEs on a 64-entry CQ nobody consumes. */
	good = dp_tx_setup(&e, &cqn, &sqn);
	for (i = 0; i < 70; i++)
		sqerr_send(i, sqn, e.mkey);
	dp_sq_ring(e.uar, 70, dp_wqebb(69));
	ok(good && merr("cq.overrun") == 1 && report_val("cq.overruns") == 1,
	   "CQ overrun (64 entries, 70 CQEs): cq.overrun once per episode");
}

static void test_merr_eq_overrun(void)
{
	struct eth_env e;
	unsigned int i;
	bool good = eth_setup(&e, NULL);

	/* The async EQ (64 entries, PORT_CHANGE) never consumed. */
	dp_link_up();
	for (i = 0; i < 40; i++) {
		tp_wr(CX_TP_LINK_DOWN, 1);
		tp_wr(CX_TP_LINK_DOWN, 0);
	}
	ok(good && merr("eq.overrun") > 0 &&
	   merr("eq.overrun") == report_val("eq.overruns"),
	   "EQ overrun: eq.overrun, one per event dropped");
}

static void test_merr_all(void)
{
	test_merr_probe();
	test_merr_doorbells();
	test_merr_wqes();
	test_merr_eq_overrun();
}
