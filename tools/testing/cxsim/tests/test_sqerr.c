/*
 * Included by test_core.c after test_dp.c: the test port's ERR_CQE_SQN
 * fault (one-shot error CQE, SQ in error, WR_FLUSH_ERR flush of what is
 * behind it, recovery through RST), and the PCIe inbound accounting.
 */

#include "cx_priv.h"

/* The SQ's report line ("sq.<n> ..."), in @out. */
static bool sq_line(uint32_t sqn, char *out, size_t size)
{
	char key[32];
	const char *p;
	size_t klen;

	snprintf(key, sizeof(key), "sq.%u ", sqn);
	klen = strlen(key);
	tp_wr(CX_TP_SNAPSHOT, 1);
	for (p = core.report; *p; ) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (!strncmp(p, key, klen)) {
			snprintf(out, size, "%.*s", (int)n, p);
			return true;
		}
		p += n + (nl ? 1 : 0);
	}
	return false;
}

/* A 100-byte SEND at WQEBB @i, CQE requested. */
static void sqerr_send(uint32_t i, uint32_t sqn, uint32_t mkey)
{
	uint8_t *w = dp_wqebb(i);

	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_SEND, (uint16_t)i, sqn, 3, true);
	dp_dseg(w + 32, 100, mkey, DP_BUF);
}

static void test_sq_err_cqe(void)
{
	struct eth_env e;
	uint32_t cqn, sqn;
	struct mlx5_err_cqe *ec;
	struct cx_sq *sq;
	char line[256];
	bool good;

	good = dp_tx_setup(&e, &cqn, &sqn);
	sq = cx_sq_lookup(&core, sqn);
	/* As the driver creates its TX SQs (mlx5e_create_sq). */
	sq->flush_in_error_en = true;
	dp_make_frame(fh.mem + DP_BUF, (const uint8_t *)"\x02\x11\x22\x33\x44\x66",
		      100, 1);
	ok(good, "err CQE: CQ, SQ ready with flush_in_error_en");
	ok(sq_line(sqn, line, sizeof(line)) && strstr(line, " st=RDY ") &&
	   strstr(line, " errors=0 "), "report: sq.<n> ... st=RDY errors=0");

	/* Armed for another SQ: this one is untouched. */
	tp_wr(CX_TP_ERR_CQE_SQN, sqn + 1);
	sqerr_send(0, sqn, e.mkey);
	dp_sq_ring(e.uar, 1, dp_wqebb(0));
	ok(dp_nframes == 1 && sq->state == MLX5_SQC_STATE_RDY &&
	   (uint32_t)tp_rd(CX_TP_ERR_CQE_SQN) == sqn + 1,
	   "ERR_CQE_SQN of another SQ: this one sends, the fault stays armed");
	/* Armed, then disarmed with 0. */
	tp_wr(CX_TP_ERR_CQE_SQN, sqn);
	tp_wr(CX_TP_ERR_CQE_SQN, 0);
	sqerr_send(1, sqn, e.mkey);
	dp_sq_ring(e.uar, 2, dp_wqebb(1));
	ok(dp_nframes == 2 && sq->state == MLX5_SQC_STATE_RDY &&
	   report_val("sq.errors_injected") == 0, "written 0: disarmed");

	/* Armed: WQEs 2, 3, 4 in one doorbell. */
	tp_wr(CX_TP_ERR_CQE_SQN, sqn);
	ok((uint32_t)tp_rd(CX_TP_ERR_CQE_SQN) == sqn, "ERR_CQE_SQN reads back the SQN");
	sqerr_send(2, sqn, e.mkey);
	sqerr_send(3, sqn, e.mkey);
	sqerr_send(4, sqn, e.mkey);
	dp_sq_ring(e.uar, 5, dp_wqebb(4));
	ec = (struct mlx5_err_cqe *)dp_cqe(DP_TXCQ, 2);
	ok(dp_nframes == 2 && sq->state == MLX5_SQC_STATE_ERR,
	   "armed: nothing sent, SQ in error");
	ok((ec->op_own >> 4) == MLX5_CQE_REQ_ERR &&
	   ec->syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR &&
	   be16toh(ec->wqe_counter) == 2 &&
	   (be32toh(ec->s_wqe_opcode_qpn) & 0xffffff) == sqn &&
	   (be32toh(ec->s_wqe_opcode_qpn) >> 24) == MLX5_OPCODE_SEND,
	   "error CQE: REQ_ERR, LOCAL_PROT_ERR, wqe_counter 2, SQN, opcode");
	ec = (struct mlx5_err_cqe *)dp_cqe(DP_TXCQ, 3);
	good = (ec->op_own >> 4) == MLX5_CQE_REQ_ERR &&
	       ec->syndrome == MLX5_CQE_SYNDROME_WR_FLUSH_ERR &&
	       be16toh(ec->wqe_counter) == 3;
	ec = (struct mlx5_err_cqe *)dp_cqe(DP_TXCQ, 4);
	good &= (ec->op_own >> 4) == MLX5_CQE_REQ_ERR &&
		ec->syndrome == MLX5_CQE_SYNDROME_WR_FLUSH_ERR &&
		be16toh(ec->wqe_counter) == 4;
	ok(good && cx_cq_lookup(&core, cqn)->prod == 5 && sq->cc == 5,
	   "WQEs behind it: WR_FLUSH_ERR CQEs 3, 4; cc reaches pc");
	ok(tp_rd(CX_TP_ERR_CQE_SQN) == 0 &&
	   report_val("sq.errors_injected") == 1 &&
	   report_val("sq.errors") == 1 && report_val("wqe.flushed") == 2 &&
	   report_val("cqe.err") == 3,
	   "one-shot: disarmed; report counts the error and the flush");
	ok(sq_line(sqn, line, sizeof(line)) && strstr(line, " st=ERR ") &&
	   strstr(line, " errors=1 "), "report: sq.<n> ... st=ERR errors=1");

	/* Posted while in error: flushed at the doorbell. */
	sqerr_send(5, sqn, e.mkey);
	dp_sq_ring(e.uar, 6, dp_wqebb(5));
	ec = (struct mlx5_err_cqe *)dp_cqe(DP_TXCQ, 5);
	ok(dp_nframes == 2 && ec->syndrome == MLX5_CQE_SYNDROME_WR_FLUSH_ERR &&
	   be16toh(ec->wqe_counter) == 5 && sq->cc == 6 &&
	   report_val("sq.doorbells_bad") == 0,
	   "doorbell in error: the new WQE is flushed, not sent");

	/* The driver's recovery: ERR -> RST -> RDY, pc and cc from 0. */
	good = modify_q(true, sqn, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST) == 0 &&
	       modify_q(true, sqn, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) == 0;
	sqerr_send(0, sqn, e.mkey);
	dp_sq_ring(e.uar, 1, dp_wqebb(0));
	ok(good && dp_nframes == 3 && sq->state == MLX5_SQC_STATE_RDY &&
	   (dp_cqe(DP_TXCQ, 6)->op_own >> 4) == MLX5_CQE_REQ,
	   "ERR -> RST -> RDY: sends again");
	ok(report_val("sq.recoveries") == 1 && sq_line(sqn, line, sizeof(line)) &&
	   strstr(line, " st=RDY ") && strstr(line, " err_resets=1"),
	   "report: sq.recoveries 1, the SQ's err_resets=1");

	/* Without flush_in_error_en: no flush, doorbells ignored (as before). */
	sq->flush_in_error_en = false;
	tp_wr(CX_TP_ERR_CQE_SQN, sqn);
	sqerr_send(1, sqn, e.mkey);
	sqerr_send(2, sqn, e.mkey);
	dp_sq_ring(e.uar, 3, dp_wqebb(2));
	ok(dp_nframes == 3 && cx_cq_lookup(&core, cqn)->prod == 8 &&
	   sq->state == MLX5_SQC_STATE_ERR && report_val("wqe.flushed") == 3,
	   "no flush_in_error_en: one error CQE, nothing flushed");
}

static long pcie_delta(const char *key, long before)
{
	return report_val(key) - before;
}

static void test_pcie_accounting(void)
{
	struct eth_env e;
	uint32_t cqn, sqn, i;
	long wq_req, wq_b, wq_t, pl_req, pl_b, pl_t, mm_w, mm_b, tot_b, cpl;
	uint8_t *w;
	bool good;

	ok(cx_pcie_tlps(0, 4096, 512) == 8 && cx_pcie_tlps(0, 513, 512) == 2 &&
	   cx_pcie_tlps(4000, 200, 512) == 2 && cx_pcie_tlps(100, 64, 512) == 1 &&
	   cx_pcie_tlps(0, 4096, 256) == 16 && cx_pcie_tlps(0, 0, 512) == 0 &&
	   cx_pcie_tlps(3584, 1024, 512) == 2,
	   "TLPs: ceil over MRRS within 4 KiB-aligned chunks");

	good = dp_tx_setup(&e, &cqn, &sqn);
	ok(good && report_val("pcie.cmd.rd_req") > 0 &&
	   report_val("pcie.cmd.rd_bytes") >= 64 * report_val("cmd.total") &&
	   report_val("pcie.mmio_writes") > 0,
	   "PCIe: command entries and mailboxes counted as cmd reads");

	wq_req = report_val("pcie.wqe.rd_req");
	wq_b = report_val("pcie.wqe.rd_bytes");
	wq_t = report_val("pcie.wqe.rd_tlps");
	pl_req = report_val("pcie.payload.rd_req");
	pl_b = report_val("pcie.payload.rd_bytes");
	mm_w = report_val("pcie.mmio_uar_writes");
	mm_b = report_val("pcie.mmio_uar_bytes");
	tot_b = report_val("pcie.rd_bytes");
	cpl = report_val("pcie.payload.cpl_tlps");

	/* One SEND of 100 bytes, then an MPWQE of 3 x 600 over 2 WQEBBs. */
	w = dp_post_send(&e, sqn);
	ok(pcie_delta("pcie.wqe.rd_req", wq_req) == 1 &&
	   pcie_delta("pcie.wqe.rd_bytes", wq_b) == 64 &&
	   pcie_delta("pcie.payload.rd_req", pl_req) == 1 &&
	   pcie_delta("pcie.payload.rd_bytes", pl_b) == 100 &&
	   pcie_delta("pcie.payload.cpl_tlps", cpl) == 1 &&
	   pcie_delta("pcie.mmio_uar_writes", mm_w) == 1 &&
	   pcie_delta("pcie.mmio_uar_bytes", mm_b) == 8 &&
	   report_val("pcie.dbr.rd_bytes") >= 4,
	   "SEND: one 64-byte WQE read, one 100-byte gather, one 8-byte doorbell");

	for (i = 0; i < 3; i++)
		dp_make_frame(fh.mem + DP_BUF + 0x1000 * (i + 1),
			      (const uint8_t *)"\x02\x11\x22\x33\x44\x66",
			      600, (uint8_t)i);
	w = dp_wqebb(1);
	memset(w, 0, 128);
	dp_ctrl(w, MLX5_OPCODE_ENHANCED_MPSW, 1, sqn, 5, true);
	for (i = 0; i < 3; i++)
		dp_dseg(w + 32 + 16 * i, 600, e.mkey, DP_BUF + 0x1000 * (i + 1));
	wq_req = report_val("pcie.wqe.rd_req");
	wq_b = report_val("pcie.wqe.rd_bytes");
	wq_t = report_val("pcie.wqe.rd_tlps");
	pl_req = report_val("pcie.payload.rd_req");
	pl_b = report_val("pcie.payload.rd_bytes");
	cpl = report_val("pcie.payload.cpl_tlps");
	pl_t = report_val("pcie.payload.rd_tlps");
	tot_b = report_val("pcie.rd_bytes");
	dp_sq_ring(e.uar, 3, w);
	ok(dp_nframes == 4 && pcie_delta("pcie.wqe.rd_req", wq_req) == 1 &&
	   pcie_delta("pcie.wqe.rd_bytes", wq_b) == 128 &&
	   pcie_delta("pcie.wqe.rd_tlps", wq_t) == 1,
	   "MPWQE over 2 WQEBBs: one contiguous 128-byte read, one TLP");
	ok(pcie_delta("pcie.payload.rd_req", pl_req) == 3 &&
	   pcie_delta("pcie.payload.rd_bytes", pl_b) == 1800 &&
	   pcie_delta("pcie.payload.rd_tlps", pl_t) == 6 &&
	   pcie_delta("pcie.payload.cpl_tlps", cpl) == 9,
	   "3 gathers of 600 bytes: 3 reads, 9 completions of <= 256 bytes");
	ok(pcie_delta("pcie.rd_bytes", tot_b) >= 128 + 1800 + 4 &&
	   report_val("pcie.rd_bytes") ==
	   report_val("pcie.other.rd_bytes") + report_val("pcie.wqe.rd_bytes") +
	   report_val("pcie.payload.rd_bytes") + report_val("pcie.dbr.rd_bytes") +
	   report_val("pcie.cmd.rd_bytes") &&
	   report_val("pcie.rd_tlps") >= report_val("pcie.rd_req"),
	   "totals: the sum of the purposes; TLPs >= requests");
}

static void test_sqerr_all(void)
{
	test_sq_err_cqe();
	test_pcie_accounting();
}
