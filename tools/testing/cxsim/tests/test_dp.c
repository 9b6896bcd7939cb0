// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Data path integration tests, included by test_core.c after test_eth.c:
 * doorbells, SQ -> frames and CQEs, error CQEs and the SQ error state,
 * steering root -> TIR -> RQT -> RQ, cyclic and striding RQs (UMR
 * mapping, filler CQEs), drops, CQ arming and completion EQEs.
 */

#include "cx_kshim_dp.h"
#include "cx_dp.h"
#include "cx_datapath.h"

#define DP_BUF		0x3a0000ULL	/* packet buffers */
#define DP_TXCQ		0x390000ULL
#define DP_RXCQ		0x394000ULL
#define DP_RXPAGES	0x100000ULL	/* 16 pages mapped through UMR */

static uint8_t dp_frames[8][2048];
static size_t dp_frame_len[8];
static unsigned int dp_nframes;

static void dp_capture(void *opaque, unsigned int port, const void *buf,
		       size_t len)
{
	(void)opaque;
	(void)port;
	if (dp_nframes < 8) {
		dp_frame_len[dp_nframes] = len;
		memcpy(dp_frames[dp_nframes], buf, len < 2048 ? len : 2048);
	}
	dp_nframes++;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void dp_link_up(void)
{
	uint8_t reg[MLX5_ST_SZ_BYTES(paos_reg)];

	memset(reg, 0, sizeof(reg));
	MLX5_SET(paos_reg, reg, local_port, 1);
	MLX5_SET(paos_reg, reg, admin_status, 1);
	MLX5_SET(paos_reg, reg, ase, 1);
	access_reg(0x5006, true, reg, sizeof(reg));
}

/* PMTU: the port MTU (FCS included), as the driver sets it. */
static void dp_port_mtu(uint16_t mtu)
{
	uint8_t reg[MLX5_ST_SZ_BYTES(pmtu_reg)];

	memset(reg, 0, sizeof(reg));
	MLX5_SET(pmtu_reg, reg, local_port, 1);
	MLX5_SET(pmtu_reg, reg, admin_mtu, mtu);
	access_reg(0x5003, true, reg, sizeof(reg));
}

/* PPCNT group @grp: the 64-bit counter at byte @off of its counter set. */
static uint64_t dp_ppcnt(uint8_t grp, unsigned int off)
{
	uint8_t reg[MLX5_ST_SZ_BYTES(ppcnt_reg)];
	uint8_t *set = (uint8_t *)MLX5_ADDR_OF(ppcnt_reg, reg, counter_set);

	memset(reg, 0, sizeof(reg));
	MLX5_SET(ppcnt_reg, reg, local_port, 1);
	MLX5_SET(ppcnt_reg, reg, grp, grp);
	if (access_reg(0x5008, false, reg, sizeof(reg)))
		return ~0ull;
	return (uint64_t)be32toh(*(uint32_t *)(set + off)) << 32 |
	       be32toh(*(uint32_t *)(set + off + 4));
}

#define DP_FRAME_TOO_LONG	\
	(__mlx5_bit_off(eth_802_3_cntrs_grp_data_layout, a_frame_too_long_errors_high) / 8)
#define DP_IF_OUT_ERRORS	\
	(__mlx5_bit_off(eth_2863_cntrs_grp_data_layout, if_out_errors_high) / 8)
/* Byte offsets of PPCNT counters (their _high half) in a group's set. */
#define DP_802_3(name)	\
	(__mlx5_bit_off(eth_802_3_cntrs_grp_data_layout, name##_high) / 8)
#define DP_2863(name)	\
	(__mlx5_bit_off(eth_2863_cntrs_grp_data_layout, name##_high) / 8)
#define DP_2819(name)	\
	(__mlx5_bit_off(eth_2819_cntrs_grp_data_layout, name##_high) / 8)
#define DP_IEEE		MLX5_IEEE_802_3_COUNTERS_GROUP
#define DP_RFC2863	MLX5_RFC_2863_COUNTERS_GROUP
#define DP_RFC2819	MLX5_RFC_2819_COUNTERS_GROUP

/* A test frame: dmac @dst, IPv4/TCP, @len bytes. */
static size_t dp_make_frame(uint8_t *f, const uint8_t *dst, size_t len,
			    uint8_t seed)
{
	size_t i;

	memset(f, 0, len);
	memcpy(f, dst, 6);
	memcpy(f + 6, "\x02\x99\x99\x99\x99\x01", 6);
	f[12] = 0x08;
	f[13] = 0x00;
	f[14] = 0x45;
	put_be16(f + 16, (uint16_t)(len - 14));
	f[22] = 64;
	f[23] = 6;
	memcpy(f + 26, "\xc6\x12\x00\x01\xc6\x12\x00\x02", 8);
	put_be16(f + 34, 1000 + seed);
	put_be16(f + 36, 5201);
	f[46] = 0x50;
	for (i = 54; i < len; i++)
		f[i] = (uint8_t)(i + seed);
	cx_csum_tx(f, len, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM);
	return len;
}

/* Ring the SQ: producer counter @pc in the record, 64-bit BlueFlame write. */
static void dp_sq_ring(uint32_t uar, uint16_t pc, const uint8_t *ctrl)
{
	uint64_t v;

	put_be32(fh.mem + DBR_BASE + 0x80 + 4, pc);
	memcpy(&v, ctrl, 8);
	cx_core_bar0_write(&core, (uint64_t)uar * 4096 + 0x800, v, 8);
}

static uint8_t *dp_wqebb(uint32_t i)
{
	return fh.mem + Q_BASE + 0x10000 + (i & 127) * 64;
}

/* ctrl segment: opcode, index, sqn, ds count, CQ update. */
static void dp_ctrl(uint8_t *w, uint8_t opcode, uint16_t idx, uint32_t sqn,
		    uint8_t ds, bool ce)
{
	memset(w, 0, 16);
	put_be32(w, (uint32_t)idx << 8 | opcode);
	put_be32(w + 4, sqn << 8 | ds);
	w[11] = ce ? MLX5_WQE_CTRL_CQ_UPDATE : 0;
}

static void dp_dseg(uint8_t *d, uint32_t len, uint32_t lkey, uint64_t addr)
{
	put_be32(d, len);
	put_be32(d + 4, lkey);
	cx_put_be64(d + 8, addr);
}

static const uint8_t dp_mac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

/*
 * A TX path as the driver sets one up: the port up, frames captured, a
 * zeroed CQ at DP_TXCQ and an SQ on it moved to RDY.
 */
static bool dp_tx_setup(struct eth_env *e, uint32_t *cqn, uint32_t *sqn)
{
	bool good = eth_setup(e, dp_mac);

	core.host.send_frame = dp_capture;
	dp_nframes = 0;
	dp_link_up();
	memset(fh.mem + DP_TXCQ, 0, 64 * 64);
	good &= create_cq(e, DP_TXCQ, 6, e->comp_eq, cqn) == 0;
	good &= create_sq(e, *cqn, e->tis, sqn) == 0;
	good &= modify_q(true, *sqn, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) == 0;
	return good;
}

static struct mlx5_cqe64 *dp_cqe(uint64_t cqbuf, uint32_t i)
{
	return (struct mlx5_cqe64 *)(fh.mem + cqbuf + i * 64);
}

/* WQE 0 of a fresh SQ: a SEND of one 100-byte frame, CQE requested, rung. */
static uint8_t *dp_post_send(struct eth_env *e, uint32_t sqn)
{
	uint8_t *w;

	dp_make_frame(fh.mem + DP_BUF, (const uint8_t *)"\x02\x11\x22\x33\x44\x66",
		      100, 1);
	w = dp_wqebb(0);
	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_SEND, 0, sqn, 3, true);
	dp_dseg(w + 32, 100, e->mkey, DP_BUF);
	dp_sq_ring(e->uar, 1, w);
	return w;
}

/* A fresh report contains @str. */
static bool report_has(const char *str)
{
	report_val("hca_state");
	return strstr(core.report, str) != NULL;
}

/* SEND WQE @idx (pc idx + 1), rung with an 8-byte write at @off of @uar. */
static void dp_send_at(struct eth_env *e, uint32_t sqn, uint16_t idx,
		       uint32_t uar, uint32_t off)
{
	uint8_t *w = dp_wqebb(idx);
	uint64_t v;

	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_SEND, idx, sqn, 3, true);
	dp_dseg(w + 32, 100, e->mkey, DP_BUF);
	put_be32(fh.mem + DBR_BASE + 0x80 + 4, (uint16_t)(idx + 1));
	memcpy(&v, w, 8);
	cx_core_bar0_write(&core, (uint64_t)uar * 4096 + off, v, 8);
}

/* The arm sequence number a driver counting the CQ's events sends. */
static uint32_t dp_arm_sn(uint32_t cqn)
{
	struct cx_cq *cq = cx_cq_lookup(&core, cqn);

	return cq ? (cq->events & 3) << 28 : 0;
}

static void dp_cq_arm_at(uint32_t uar, uint32_t cqn, uint32_t ci)
{
	uint8_t db[8];
	uint64_t v;

	put_be32(db, dp_arm_sn(cqn) | ci);
	put_be32(db + 4, cqn);
	memcpy(&v, db, 8);
	cx_core_bar0_write(&core, (uint64_t)uar * 4096 + 0x20, v, 8);
}

/*
 * Every send doorbell register of the SQ's page rings it, each counted
 * apart; a doorbell or a CQ arm on another page is dropped and counted
 * apart from sq.doorbells_bad.
 */
static void test_dp_uar_regs(struct eth_env *e, uint32_t cqn, uint32_t sqn)
{
	static const uint32_t offs[] = { 0x800, 0xa00, 0xb00, 0xc00, 0xe00 };
	uint32_t n0 = dp_nframes, other, i, arms0;
	char key[64], line[96];
	long bad0, r1;
	bool good = true;

	/* The SQ's pc is 2 (WQEs 0 and 1 ran). */
	for (i = 0; i < 5; i++)
		dp_send_at(e, sqn, (uint16_t)(2 + i), e->uar, offs[i]);
	snprintf(key, sizeof(key), "doorbell.sq.%u.0xa00", e->uar);
	r1 = report_val(key);
	snprintf(key, sizeof(key), "doorbell.sq.%u.0xe00", e->uar);
	ok(dp_nframes == n0 + 5 && r1 == 2 && report_val(key) == 1,
	   "every register of the page rings the SQ (0xa00 twice: both halves)");
	snprintf(line, sizeof(line), "sq.%u uar=%u regs=0xf ", sqn, e->uar);
	ok(report_has(line), "sq line: the SQ's UAR page, the registers it rang");

	/* The rest of a blue-flame write is no doorbell. */
	dp_send_at(e, sqn, 7, e->uar, 0x808);
	ok(dp_nframes == n0 + 5, "a qword inside a register is not a doorbell");

	/* Another page: dropped, counted as wrong UAR, not as bad. */
	good &= alloc_uar(&other) == 0;
	bad0 = report_val("sq.doorbells_bad");
	dp_send_at(e, sqn, 7, other, 0x800);
	snprintf(key, sizeof(key), "doorbell.sq.%u.0x800", other);
	ok(good && dp_nframes == n0 + 5 &&
	   report_val("sq.doorbells_wrong_uar") == 1 &&
	   report_val("sq.doorbells_bad") == bad0 && report_val(key) == 1,
	   "SQ doorbell on another page: dropped, counted apart from bad");
	dp_send_at(e, sqn, 7, e->uar, 0x800);
	ok(dp_nframes == n0 + 6, "the same WQE rung on its own page runs");

	/* CQ arm on another page: ignored; on its own page: armed. */
	arms0 = (uint32_t)report_val("cq.arms");
	cx_cq_lookup(&core, cqn)->armed = false;
	dp_cq_arm_at(other, cqn, cx_cq_lookup(&core, cqn)->prod);
	snprintf(key, sizeof(key), "doorbell.cq_arm.%u", other);
	ok(!cx_cq_lookup(&core, cqn)->armed &&
	   report_val("cq.arms_wrong_uar") == 1 && report_val(key) == 1 &&
	   report_val("cq.arms") == arms0,
	   "CQ arm on another page: ignored, counted");
	dp_cq_arm_at(e->uar, cqn, cx_cq_lookup(&core, cqn)->prod);
	snprintf(line, sizeof(line), "cq.%u uar=%u ", cqn, e->uar);
	ok(cx_cq_lookup(&core, cqn)->armed && report_has(line) &&
	   report_val("cq.arms") == arms0 + 1,
	   "CQ arm on its page arms it; cq line: its UAR page");
	snprintf(key, sizeof(key), "doorbell.eq.%u", e->uar);
	ok(report_val(key) >= 1, "EQ doorbells counted per page, apart");
	ok(dealloc_uar(other) == 0, "the other page freed");
}

static void test_dp_tx(void)
{
	struct eth_env e;
	uint32_t cqn, sqn, i;
	struct cx_sq *sq;
	struct mlx5_cqe64 *c;
	uint8_t *w;
	bool good;
	long eqe0;

	good = dp_tx_setup(&e, &cqn, &sqn);
	ok(good && core.func.nic->port.oper_up, "TX: CQ, SQ ready, link up");

	/* Arm the CQ: ci 0, REQ_NOT. */
	{
		uint8_t db[8];
		uint64_t v;

		put_be32(db, 0);
		put_be32(db + 4, cqn);
		memcpy(&v, db, 8);
		cx_core_bar0_write(&core, (uint64_t)e.uar * 4096 + 0x20, v, 8);
	}
	ok(cx_cq_lookup(&core, cqn)->armed, "CQ doorbell at UAR 0x20 arms the CQ");
	eqe0 = report_val("eqe.comp");

	/* WQE 0: SEND of 100 bytes, CQE requested. */
	w = dp_post_send(&e, sqn);
	c = dp_cqe(DP_TXCQ, 0);
	ok(dp_nframes == 1 && dp_frame_len[0] == 100 &&
	   !memcmp(dp_frames[0], fh.mem + DP_BUF, 100),
	   "SEND WQE: the frame goes out as gathered");
	ok((c->op_own >> 4) == MLX5_CQE_REQ && (c->op_own & 1) == 0 &&
	   be16toh(c->wqe_counter) == 0 &&
	   (be32toh(c->sop_drop_qpn) & 0xffffff) == sqn,
	   "SEND: TX CQE with wqe_counter 0, owner 0, the SQN");
	ok(report_val("eqe.comp") == eqe0 + 1 &&
	   !cx_cq_lookup(&core, cqn)->armed,
	   "armed CQ: one completion EQE, then disarmed");
	ok(report_val("wqe.SEND") == 1 && report_val("dp.desc_bytes") == 64 &&
	   report_val("dp.payload_bytes") == 100 &&
	   report_val("tx.packets") == 1 && report_val("tx.bytes") == 100 &&
	   report_val("cqe.tx") == 1, "report: WQEs, bus bytes, packets, CQEs");
	ok(core.func.nic->vcnt.tx_ucast_pkts == 1, "vport counter: unicast TX");

	/* WQE 1: ENHANCED_MPSW with 3 packets, then a NOP without CQE. */
	for (i = 0; i < 3; i++)
		dp_make_frame(fh.mem + DP_BUF + 0x1000 * (i + 1),
			      (const uint8_t *)"\x02\x11\x22\x33\x44\x66",
			      200 + i, (uint8_t)(10 + i));
	w = dp_wqebb(1);
	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_ENHANCED_MPSW, 1, sqn, 5, true);
	for (i = 0; i < 3; i++)
		dp_dseg(w + 32 + 16 * i, 200 + i, e.mkey,
			DP_BUF + 0x1000 * (i + 1));
	memset(dp_wqebb(2), 0, 64);
	for (i = 0; i < 3; i++)		/* 5 DS: the WQE spans WQEBBs 1-2 */
		dp_dseg(dp_wqebb(1) + 32 + 16 * i, 200 + i, e.mkey,
			DP_BUF + 0x1000 * (i + 1));
	w = dp_wqebb(3);
	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_NOP, 3, sqn, 1, false);
	dp_sq_ring(e.uar, 4, w);
	c = dp_cqe(DP_TXCQ, 1);
	ok(dp_nframes == 4 && dp_frame_len[1] == 200 && dp_frame_len[3] == 202 &&
	   !memcmp(dp_frames[2], fh.mem + DP_BUF + 0x2000, 201),
	   "ENHANCED_MPSW: three frames");
	ok((c->op_own >> 4) == MLX5_CQE_REQ && be16toh(c->wqe_counter) == 1 &&
	   cx_cq_lookup(&core, cqn)->prod == 2,
	   "MPWQE: one CQE; NOP without CQ_UPDATE: none");
	ok(report_val("wqe.ENHANCED_MPSW") == 1 && report_val("wqe.NOP") == 1 &&
	   core.func.nic->sq.slot[sqn - core.func.nic->sq.base] &&
	   cx_sq_lookup(&core, sqn)->cc == 4 &&
	   cx_sq_lookup(&core, sqn)->doorbells == 2,
	   "MPWQE and NOP counted; cc 4; 2 doorbells on the SQ");
	ok(cx_sq_lookup(&core, sqn)->mpw_wqes == 1 &&
	   cx_sq_lookup(&core, sqn)->wqebbs == 4 &&
	   report_val("dp.wqebbs") == 4 &&
	   report_val("dp.desc_bytes") == 4 * 64,
	   "per SQ: 1 MPWQE session, 4 WQEBBs fetched (SEND 1, MPWQE 2, NOP 1)");

	/* WQE 4: ds_cnt 0 -> error CQE, SQ in error. */
	w = dp_wqebb(4);
	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_SEND, 4, sqn, 0, false);
	dp_sq_ring(e.uar, 5, w);
	sq = cx_sq_lookup(&core, sqn);
	{
		struct mlx5_err_cqe *ec = (struct mlx5_err_cqe *)dp_cqe(DP_TXCQ, 2);

		ok((ec->op_own >> 4) == MLX5_CQE_REQ_ERR &&
		   ec->syndrome == MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR &&
		   be16toh(ec->wqe_counter) == 4 && sq->state == MLX5_SQC_STATE_ERR,
		   "malformed WQE: error CQE (always), SQ in error");
	}
	/* Doorbells on an SQ in error do nothing. */
	w = dp_wqebb(5);
	dp_ctrl(w, MLX5_OPCODE_SEND, 5, sqn, 3, true);
	dp_dseg(w + 32, 100, e.mkey, DP_BUF);
	dp_sq_ring(e.uar, 6, w);
	ok(dp_nframes == 4 && report_val("sq.doorbells_bad") == 1,
	   "SQ in error: doorbell ignored");
	good = modify_q(true, sqn, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST) == 0 &&
	       modify_q(true, sqn, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) == 0;
	w = dp_wqebb(0);
	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_SEND, 0, sqn, 3, true);
	dp_dseg(w + 32, 100, e.mkey, DP_BUF);
	dp_sq_ring(e.uar, 1, w);
	ok(good && dp_nframes == 5 && cx_cq_lookup(&core, cqn)->prod == 4 &&
	   be16toh(dp_cqe(DP_TXCQ, 3)->wqe_counter) == 0,
	   "ERR -> RST -> RDY: the SQ sends again from WQE 0");

	/* Link down: frames dropped, WQEs still complete. */
	cx_core_set_link(&core, false);
	w = dp_wqebb(1);
	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_SEND, 1, sqn, 3, true);
	dp_dseg(w + 32, 100, e.mkey, DP_BUF);
	dp_sq_ring(e.uar, 2, w);
	ok(dp_nframes == 5 && report_val("tx.drops.link_down") == 1 &&
	   cx_cq_lookup(&core, cqn)->prod == 5 &&
	   !core.func.nic->port.oper_up,
	   "link down: no frame, the WQE completes");
	cx_core_set_link(&core, true);
	ok(core.func.nic->port.oper_up, "link back up");

	test_dp_uar_regs(&e, cqn, sqn);
}

/* Root table on dmac -> TIR (RSS) -> RQT -> RQ. */
static bool dp_rx_steering(struct eth_env *e, const uint32_t *rqns, int n)
{
	uint32_t rqt, tir, ft, fg;
	bool good = true;

	good &= create_rqt(rqns, n, 4, &rqt) == 0;
	good &= create_tir(e, rqt, 0, &tir) == 0;
	good &= create_ft(0, 4, 0, &ft) == 0;
	good &= create_fg(ft, 0, 3, true, &fg) == 0;
	good &= set_fte(ft, fg, 0, dp_mac, 0,
			MLX5_IFC_FLOW_DESTINATION_TYPE_TIR, tir) == 0;
	{
		void *in = eth_cmd(MLX5_CMD_OP_SET_FLOW_TABLE_ROOT,
				   MLX5_ST_SZ_BYTES(set_flow_table_root_in));

		MLX5_SET(set_flow_table_root_in, in, table_id, ft);
		good &= eth_exec(MLX5_ST_SZ_BYTES(set_flow_table_root_in)) == 0;
	}
	return good;
}

static void test_dp_rx_cyclic(void)
{
	struct eth_env e;
	uint32_t cqn, rqn;
	struct mlx5_cqe64 *c;
	uint8_t frame[300];
	uint32_t pi;
	bool good;

	good = eth_setup(&e, dp_mac);
	dp_link_up();
	good &= create_cq(&e, DP_RXCQ, 6, e.comp_eq, &cqn) == 0;
	good &= create_rq(&e, cqn, false, &rqn) == 0;
	good &= dp_rx_steering(&e, &rqn, 1);
	good &= modify_q(false, rqn, MLX5_RQC_STATE_RST, MLX5_RQC_STATE_RDY) == 0;
	ok(good, "RX: CQ, cyclic RQ, RQT, TIR, root table");

	/* No WQE posted yet: dropped. */
	dp_make_frame(frame, dp_mac, sizeof(frame), 3);
	cx_core_receive(&core, frame, sizeof(frame));
	ok(report_val("rx.drops.no_wqe") == 1 &&
	   cx_qcnt_lookup(&core, e.qc)->out_of_buffer == 1,
	   "no RX WQE: dropped, rx.drops.no_wqe and out_of_buffer count it");

	/* Post WQEs 0 and 1 (16-byte WQEs: one data segment each). */
	dp_dseg(fh.mem + Q_BASE + 0x20000, 2048, e.mkey, DP_BUF + 0x8000);
	dp_dseg(fh.mem + Q_BASE + 0x20010, 2048, e.mkey, DP_BUF + 0x9000);
	put_be32(fh.mem + DBR_BASE + 0xc0, 2);
	cx_core_receive(&core, frame, sizeof(frame));
	c = dp_cqe(DP_RXCQ, 0);
	ok(!memcmp(fh.mem + DP_BUF + 0x8000, frame, sizeof(frame)),
	   "frame scattered into WQE 0's buffer");
	ok((c->op_own >> 4) == MLX5_CQE_RESP_SEND && (c->op_own & 1) == 0 &&
	   be32toh(c->byte_cnt) == sizeof(frame) &&
	   be16toh(c->wqe_counter) == 0 &&
	   (be32toh(c->flags_rqpn) & 0xffffff) == rqn && c->rss_hash_result &&
	   (c->hds_ip_ext & CQE_L3_OK) && (c->hds_ip_ext & CQE_L4_OK),
	   "RX CQE: RESP_SEND, byte count, wqe_counter, RQN, RSS hash, csum ok");
	/* Another MAC: the root table misses. */
	frame[5] = 0x56;
	cx_core_receive(&core, frame, sizeof(frame));
	ok(report_val("rx.drops.steering") == 1 &&
	   cx_cq_lookup(&core, cqn)->prod == 1,
	   "unknown dmac: steering drop, no CQE");
	frame[5] = 0x55;
	cx_core_receive(&core, frame, sizeof(frame));
	c = dp_cqe(DP_RXCQ, 1);
	ok((c->op_own >> 4) == MLX5_CQE_RESP_SEND && be16toh(c->wqe_counter) == 1 &&
	   report_val("rx.packets") == 2 && report_val("rx.bytes") == 600 &&
	   core.func.nic->vcnt.rx_ucast_pkts == 3,
	   "second frame into WQE 1; rx.packets/bytes; the vport counts the out-of-buffer one too");
	cx_core_receive(&core, frame, sizeof(frame));
	ok(report_val("rx.drops.no_wqe") == 2, "ring consumed: dropped again");
	/* 300 bytes + FCS over a 303-byte port MTU: the MAC drops it. */
	dp_port_mtu(303);
	cx_core_receive(&core, frame, sizeof(frame));
	ok(report_val("rx.drops.mtu") == 1 && report_val("rx.drops.no_wqe") == 2 &&
	   core.func.nic->vcnt.rx_ucast_pkts == 4 &&
	   dp_ppcnt(MLX5_IEEE_802_3_COUNTERS_GROUP, DP_FRAME_TOO_LONG) == 1,
	   "RX over the port MTU: dropped first, rx.drops.mtu and PPCNT a_frame_too_long_errors");
	dp_port_mtu(304);
	cx_core_receive(&core, frame, sizeof(frame));
	ok(report_val("rx.drops.mtu") == 1 && report_val("rx.drops.no_wqe") == 3,
	   "RX at the port MTU: taken (no WQE: out of buffer)");
	/* 6 frames reached the MAC within the MTU, steered or not. */
	ok(dp_ppcnt(DP_IEEE, DP_802_3(a_frames_received_ok)) == 6 &&
	   dp_ppcnt(DP_IEEE, DP_802_3(a_octets_received_ok)) == 6 * 304 &&
	   dp_ppcnt(DP_IEEE, DP_802_3(a_multicast_frames_received_ok)) == 0 &&
	   dp_ppcnt(DP_RFC2863, DP_2863(if_in_ucast_pkts)) == 6 &&
	   dp_ppcnt(DP_RFC2863, DP_2863(if_in_errors)) == 1 &&
	   dp_ppcnt(DP_RFC2819, DP_2819(ether_stats_pkts256to511octets)) == 6 &&
	   dp_ppcnt(DP_RFC2819, DP_2819(ether_stats_pkts)) == 6 &&
	   dp_ppcnt(DP_RFC2819, DP_2819(ether_stats_oversize_pkts)) == 1 &&
	   dp_ppcnt(DP_IEEE, DP_802_3(a_frames_transmitted_ok)) == 0,
	   "PPCNT: frames/octets (FCS counted) received OK, 256-511 bucket, oversize apart");
	dp_port_mtu(1522);
	ok(report_val("pcie.rx.wr_req") == 2 && report_val("pcie.rx.wr_bytes") == 600 &&
	   report_val("pcie.cqe.wr_req") == 2 && report_val("pcie.cqe.wr_bytes") == 128 &&
	   report_val("pcie.cqe.wr_tlps") == 2 &&
	   report_val("pcie.eqe.wr_req") == report_val("eqe.posted") &&
	   report_val("pcie.eqe.wr_bytes") == 64 * report_val("eqe.posted") &&
	   report_val("pcie.cmd.wr_req") >= 2 * report_val("cmd.total") &&
	   report_val("pcie.other.wr_req") == 0 &&
	   report_val("pcie.wr_req") == report_val("pcie.rx.wr_req") +
		report_val("pcie.cqe.wr_req") + report_val("pcie.eqe.wr_req") +
		report_val("pcie.cmd.wr_req"),
	   "DMA writes by purpose: 2 frames, 2 CQEs (one request each), EQEs, command outputs");
	/* A counter more than a ring ahead: none of it is taken. */
	put_be32(fh.mem + DBR_BASE + 0xc0,
		 2 + (1u << cx_rq_lookup(&core, rqn)->wq.log_sz) + 1);
	cx_core_receive(&core, frame, sizeof(frame));
	ok(report_val("rq.overposted") == 1 && report_val("rx.drops.no_wqe") == 4 &&
	   cx_rq_lookup(&core, rqn)->wqe_cc == 2,
	   "RQ counter past the ring: nothing taken, the frame dropped, counted");
	put_be32(fh.mem + DBR_BASE + 0xc0, 2);
	ok(report_val("pcie.rx.wr_pages") == 2 && report_val("pcie.cqe.wr_pages") == 1,
	   "pages entered: frames in two pages, both CQEs in one");
	cx_core_set_link(&core, false);
	put_be32(fh.mem + DBR_BASE + 0xc0, 3);
	cx_core_receive(&core, frame, sizeof(frame));
	ok(report_val("rx.drops.link_down") == 1, "link down: nothing received");

	/* Test port: the next frame completes in error, the RQ goes to ERR. */
	cx_core_set_link(&core, true);
	dp_dseg(fh.mem + Q_BASE + 0x20020, 2048, e.mkey, DP_BUF + 0xa000);
	dp_dseg(fh.mem + Q_BASE + 0x20030, 2048, e.mkey, DP_BUF + 0xb000);
	put_be32(fh.mem + DBR_BASE + 0xc0, 4);
	core.faults.err_cqe_rqn = 0xffffff;
	cx_core_receive(&core, frame, sizeof(frame));
	c = dp_cqe(DP_RXCQ, 2);
	ok((c->op_own >> 4) == MLX5_CQE_RESP_ERR &&
	   ((struct mlx5_err_cqe *)c)->syndrome == MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR &&
	   be16toh(c->wqe_counter) == 2 && !core.faults.err_cqe_rqn &&
	   cx_rq_lookup(&core, rqn)->state == MLX5_RQC_STATE_ERR &&
	   report_val("rq.errors_injected") == 1,
	   "injected RX error: RESP_ERR CQE for WQE 2, one-shot, RQ in ERR");
	cx_core_receive(&core, frame, sizeof(frame));
	ok(cx_cq_lookup(&core, cqn)->prod == 3, "RQ in ERR: the next frame dropped, no CQE");
	ok(modify_q(false, rqn, MLX5_RQC_STATE_ERR, MLX5_RQC_STATE_RST) == 0 &&
	   modify_q(false, rqn, MLX5_RQC_STATE_RST, MLX5_RQC_STATE_RDY) == 0 &&
	   cx_rq_lookup(&core, rqn)->wqe_cc == 0,
	   "ERR -> RST -> RDY: the RQ's counter from zero");
	/* A 42-byte broadcast (ARP): 64 bytes on the wire, padded. */
	memset(frame, 0xff, 6);
	core.func.nic->port.rx_pause_frames = 3;
	cx_core_receive(&core, frame, 42);
	ok(dp_ppcnt(DP_IEEE, DP_802_3(a_broadcast_frames_received_ok)) == 1 &&
	   dp_ppcnt(DP_RFC2863, DP_2863(if_in_broadcast_pkts)) == 1 &&
	   dp_ppcnt(DP_RFC2819, DP_2819(ether_stats_broadcast_pkts)) == 1 &&
	   dp_ppcnt(DP_RFC2819, DP_2819(ether_stats_pkts64octets)) == 1 &&
	   dp_ppcnt(DP_IEEE, DP_802_3(a_pause_mac_ctrl_frames_received)) == 3 &&
	   dp_ppcnt(DP_IEEE, DP_802_3(a_mac_control_frames_received)) == 3,
	   "PPCNT: a short broadcast padded into the 64-byte bucket; pause frames");

	/* BAD_RX_CQE: byte_cnt lies on a legacy RQ; striding kinds wait. */
	dp_make_frame(frame, dp_mac, sizeof(frame), 3);
	pi = cx_cq_lookup(&core, cqn)->prod;
	tp_wr(CX_TP_BAD_RX_CQE, CX_TP_BAD_CQE_WQE_ID << 28 | rqn);
	cx_core_receive(&core, frame, sizeof(frame));
	ok(cx_cq_lookup(&core, cqn)->prod == pi + 1 &&
	   be32toh(dp_cqe(DP_RXCQ, pi)->byte_cnt) == sizeof(frame) &&
	   core.faults.bad_rx_cqe && report_val("rx.bad_cqe_injected") == 0,
	   "BAD_RX_CQE wqe_id on a legacy RQ: not taken, the CQE true");
	tp_wr(CX_TP_BAD_RX_CQE, CX_TP_BAD_CQE_BYTE_CNT << 28 | rqn);
	cx_core_receive(&core, frame, sizeof(frame));
	ok(cx_cq_lookup(&core, cqn)->prod == pi + 2 &&
	   be32toh(dp_cqe(DP_RXCQ, pi + 1)->byte_cnt) == sizeof(frame) + 0x10000 &&
	   !core.faults.bad_rx_cqe && report_val("rx.bad_cqe_injected") == 1,
	   "BAD_RX_CQE byte_cnt: the CQE counts 64 KiB more, one-shot");
}

/* A TCP ACK segment of @plen payload bytes at @seq (PSH with @psh). */
static size_t dp_lro_seg(uint8_t *f, uint32_t plen, uint32_t seq, bool psh)
{
	size_t len = dp_make_frame(f, dp_mac, 54 + plen, 3);

	put_be32(f + 38, seq);
	put_be32(f + 42, 500);
	f[47] = psh ? 0x18 : 0x10;
	put_be16(f + 48, 4000);
	cx_csum_tx(f, len, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM);
	return len;
}

/*
 * LRO on the striding RQ (WQE 1 in use, 141 strides consumed): three
 * segments in order make one CQE when an out-of-order one arrives, which
 * opens the next session; that one closes when its timeout runs out.
 */
static void dp_rx_lro(uint32_t cqn, uint32_t rqn)
{
	static uint8_t f[2048], whole[4096];
	struct cx_tab *t = &core.func.nic->tir;
	uint32_t prod = cx_cq_lookup(&core, cqn)->prod, i, seq = 7000;
	struct mlx5_cqe64 *c;
	size_t len;

	for (i = 0; i < t->cap; i++) {
		struct cx_tir *tir = t->slot[i];

		if (tir) {
			tir->lro_mask = MLX5_TIRC_PACKET_MERGE_MASK_IPV4_LRO;
			tir->lro_timeout_us = 32;
			tir->lro_max_payload = 0xff00;
		}
	}
	for (i = 0; i < 3; i++) {
		len = dp_lro_seg(f, 1000 + i, seq, false);
		if (!i)
			memcpy(whole, f, len);
		else
			memcpy(whole + 54 + 1000 * i + (i - 1), f + 54, 1000 + i);
		cx_core_receive(&core, f, len);
		seq += 1000 + i;
	}
	ok(cx_cq_lookup(&core, cqn)->prod == prod &&
	   cx_rq_lookup(&core, rqn)->lro.nseg == 3,
	   "LRO: three segments in order, no CQE yet");
	len = dp_lro_seg(f, 100, seq + 1, false);
	cx_core_receive(&core, f, len);
	c = dp_cqe(DP_RXCQ, prod & 63);
	ok(cx_cq_lookup(&core, cqn)->prod == prod + 1 &&
	   (be32toh(c->byte_cnt) & 0xffff) == 54 + 3003 &&
	   be16toh(c->wqe_counter) == 141 &&
	   (be32toh(c->byte_cnt) >> 16 & 0x7fff) == (54 + 3003 + 63) / 64 &&
	   be32toh(c->srqn) >> 24 == 3 && c->lro.ack_seq_num == htobe32(500) &&
	   /* mkey page 10 (offset 832) is page 5 */
	   !memcmp(fh.mem + DP_RXPAGES + 5 * 4096 + 832,
		   whole, 54 + 3003),
	   "LRO: out of order closes it: one CQE of 3 segments, the payloads in a row");
	fh.now += 31 * 1000;
	cx_core_timer(&core);
	ok(cx_cq_lookup(&core, cqn)->prod == prod + 1,
	   "LRO: the next session waits for its timeout");
	fh.now += 1000;
	cx_core_timer(&core);
	c = dp_cqe(DP_RXCQ, (prod + 1) & 63);
	ok(cx_cq_lookup(&core, cqn)->prod == prod + 2 &&
	   be32toh(c->srqn) >> 24 == 1 && report_val("rx.lro_timeouts") == 1 &&
	   report_val("rx.lro_segs") == 4,
	   "LRO: at 32 us it closes with its one segment");
	for (i = 0; i < t->cap; i++) {
		struct cx_tir *tir = t->slot[i];

		if (tir)
			tir->lro_mask = 0;
	}
}

static void test_dp_rx_striding(void)
{
	struct eth_env e;
	uint32_t cqn, rqn, txcq, sqn, umr;
	static uint8_t frame[9000];
	struct mlx5_cqe64 *c;
	uint8_t *w;
	bool good;
	int i;

	good = eth_setup(&e, dp_mac);
	dp_link_up();
	good &= create_cq(&e, DP_RXCQ, 6, e.comp_eq, &cqn) == 0;
	good &= create_cq(&e, DP_TXCQ, 6, e.comp_eq, &txcq) == 0;
	good &= create_rq(&e, cqn, true, &rqn) == 0;
	good &= create_sq(&e, txcq, e.tis, &sqn) == 0;
	/* The ICOSQ's reg_umr (create_sq does not set it). */
	cx_sq_lookup(&core, sqn)->reg_umr = true;
	good &= modify_q(true, sqn, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) == 0;
	good &= dp_rx_steering(&e, &rqn, 1);
	good &= modify_q(false, rqn, MLX5_RQC_STATE_RST, MLX5_RQC_STATE_RDY) == 0;
	{
		/* UMR mkey: MTT, 16 entries (8 octwords), free. */
		size_t len = MLX5_ST_SZ_BYTES(create_mkey_in) + 16 * 8;
		void *in = eth_cmd(MLX5_CMD_OP_CREATE_MKEY, len);
		void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);

		MLX5_SET(mkc, mkc, free, 1);
		MLX5_SET(mkc, mkc, umr_en, 1);
		MLX5_SET(mkc, mkc, lw, 1);
		MLX5_SET(mkc, mkc, lr, 1);
		MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_MTT);
		MLX5_SET(mkc, mkc, qpn, 0xffffff);
		MLX5_SET(mkc, mkc, pd, e.pd);
		MLX5_SET64(mkc, mkc, len, 16 * 4096);
		MLX5_SET(mkc, mkc, translations_octword_size, 8);
		MLX5_SET(mkc, mkc, log_page_size, 12);
		MLX5_SET(create_mkey_in, in, translations_octword_actual_size, 8);
		good &= eth_exec(len) == 0;
		umr = OUT(create_mkey_out, mkey_index) << 8;
	}
	ok(good, "striding RQ, ICOSQ, UMR mkey");

	/* UMR WQE: 16 MTTs -> pages DP_RXPAGES + i * 4 KiB, in reverse. */
	w = dp_wqebb(0);
	memset(w, 0, 3 * 64);
	dp_ctrl(w, MLX5_OPCODE_UMR, 0, sqn, (128 + 128) / 16, true);
	put_be32(w + 12, umr);
	w[16] = MLX5_UMR_INLINE | MLX5_UMR_TRANSLATION_OFFSET_EN;
	put_be16(w + 20, 8);
	put_be16(w + 22, 0);
	cx_put_be64(w + 24, MLX5_MKEY_MASK_FREE);
	for (i = 0; i < 16; i++)
		cx_put_be64(w + 128 + 8 * i,
			    (DP_RXPAGES + (15 - i) * 4096ull) | 3);
	dp_sq_ring(e.uar, 4, w);
	ok(report_val("wqe.UMR") == 1 && !cx_mkey_lookup(&core, umr)->free &&
	   (dp_cqe(DP_TXCQ, 0)->op_own >> 4) == MLX5_CQE_REQ &&
	   cx_sq_lookup(&core, sqn)->cc == 4,
	   "UMR WQE on the ICOSQ: translations written, CQE");

	/* Two linked-list WQEs of 512 x 64-byte strides (32 KiB) each. */
	w = fh.mem + Q_BASE + 0x20000;
	memset(w, 0, 128);
	put_be16(w + 2, 1);
	dp_dseg(w + 16, 32768, umr, 0);
	put_be16(w + 64 + 2, 2);
	dp_dseg(w + 64 + 16, 32768, umr, 32768);
	put_be32(fh.mem + DBR_BASE + 0xc0, 2);

	dp_make_frame(frame, dp_mac, 1000, 7);
	cx_core_receive(&core, frame, 1000);
	c = dp_cqe(DP_RXCQ, 0);
	ok(!memcmp(fh.mem + DP_RXPAGES + 15 * 4096, frame, 1000),
	   "striding: frame placed through the UMR translation");
	ok((c->op_own >> 4) == MLX5_CQE_RESP_SEND && be16toh(c->wqe_id) == 0 &&
	   be16toh(c->wqe_counter) == 0 &&
	   (be32toh(c->byte_cnt) >> 16 & 0x7fff) == 16 &&
	   (be32toh(c->byte_cnt) & 0xffff) == 1000,
	   "striding CQE: wqe_id 0, stride 0, 16 strides, 1000 bytes");
	/* 3 x 9000 bytes: strides 16.. 439; the 4th needs 141 > 73 left. */
	dp_port_mtu(9022);
	for (i = 0; i < 4; i++) {
		dp_make_frame(frame, dp_mac, sizeof(frame), (uint8_t)i);
		cx_core_receive(&core, frame, sizeof(frame));
	}
	c = dp_cqe(DP_RXCQ, 4);
	ok((c->op_own >> 4) == MLX5_CQE_RESP_SEND && be16toh(c->wqe_id) == 0 &&
	   (be32toh(c->byte_cnt) & 0x80000000u) &&
	   (be32toh(c->byte_cnt) >> 16 & 0x7fff) == 73 &&
	   be16toh(c->wqe_counter) == 439,
	   "filler CQE retires WQE 0 (73 strides from 439)");
	c = dp_cqe(DP_RXCQ, 5);
	ok(be16toh(c->wqe_id) == 1 && be16toh(c->wqe_counter) == 0 &&
	   (be32toh(c->byte_cnt) >> 16 & 0x7fff) == 141 &&
	   !memcmp(fh.mem + DP_RXPAGES + 7 * 4096, frame, 4096),
	   "the frame lands at stride 0 of WQE 1");
	ok(report_val("cqe.filler") == 1 && report_val("rx.packets") == 5 &&
	   cx_rq_lookup(&core, rqn)->wqe_cc == 1 &&
	   cx_rq_lookup(&core, rqn)->ll_cur == 1,
	   "one filler, five frames, one WQE consumed");
	ok(report_val("umr.entries") == 16 &&
	   cx_rq_lookup(&core, rqn)->strides == 16 + 3 * 141 + 141 &&
	   cx_rq_lookup(&core, rqn)->filler_strides == 73 &&
	   report_val("dp.rx_wqe_bytes") == 2 * 64 &&
	   /* PCIe WQE reads: the RX WQEs' and the UMR WQEs' (dp.desc_bytes) */
	   report_val("pcie.wqe.rd_bytes") - report_val("dp.desc_bytes") == 2 * 64,
	   "counted: 16 UMR entries, strides of frames and filler, each WQE fetched once (on PCIe too)");
	dp_rx_lro(cqn, rqn);

	/* CQ overrun: the RX CQ has 64 entries and ci stays 0. */
	for (i = 0; i < 70; i++) {
		dp_make_frame(frame, dp_mac, 64, (uint8_t)i);
		cx_core_receive(&core, frame, 64);
	}
	ok(report_val("cq.overruns") == 1 && report_val("cqe.dropped") >= 6 &&
	   cx_cq_lookup(&core, cqn)->prod == 64,
	   "CQ overrun: CQEs dropped, not overwritten; CQ_ERROR once");

	/* The test port's RX error on a striding RQ: WQE retired, RQ in ERR. */
	{
		uint32_t cc0 = cx_rq_lookup(&core, rqn)->wqe_cc;

		core.faults.err_cqe_rqn = rqn;
		dp_make_frame(frame, dp_mac, 64, 1);
		cx_core_receive(&core, frame, 64);
		ok(!core.faults.err_cqe_rqn &&
		   cx_rq_lookup(&core, rqn)->state == MLX5_RQC_STATE_ERR &&
		   cx_rq_lookup(&core, rqn)->wqe_cc == cc0 + 1 &&
		   report_val("rq.errors_injected") == 1,
		   "striding RQ: injected error CQE retires the WQE, RQ in error");
	}
}

/*
 * A free MTT mkey of @pages 4 KiB pages that UMR WQEs may map (umr_en),
 * its key in *@umr. Return: whether CREATE_MKEY succeeded.
 */
static bool dp_umr_mkey(const struct eth_env *e, uint32_t pages, uint32_t *umr)
{
	size_t len = MLX5_ST_SZ_BYTES(create_mkey_in);
	void *in = eth_cmd(MLX5_CMD_OP_CREATE_MKEY, len);
	void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);

	MLX5_SET(mkc, mkc, free, 1);
	MLX5_SET(mkc, mkc, umr_en, 1);
	MLX5_SET(mkc, mkc, lw, 1);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_MTT);
	MLX5_SET(mkc, mkc, pd, e->pd);
	MLX5_SET64(mkc, mkc, len, (uint64_t)pages * 4096);
	/* Two 8-byte MTT entries an octword. */
	MLX5_SET(mkc, mkc, translations_octword_size, pages / 2);
	MLX5_SET(mkc, mkc, log_page_size, 12);
	if (eth_exec(len))
		return false;
	*umr = OUT(create_mkey_out, mkey_index) << 8;
	return true;
}

/* A UMR WQE at ICOSQ counter @pc: 16 MTT entries from @octw * 2 -> @pages. */
static void dp_umr(uint32_t sqn, uint32_t umr, uint16_t pc, uint16_t octw,
		   uint64_t pages)
{
	uint8_t *w = dp_wqebb(pc);
	int i;

	memset(w, 0, 4 * 64);
	dp_ctrl(w, MLX5_OPCODE_UMR, pc, sqn, (128 + 128) / 16, true);
	put_be32(w + 12, umr);
	w[16] = MLX5_UMR_INLINE | MLX5_UMR_TRANSLATION_OFFSET_EN;
	put_be16(w + 20, 8);
	put_be16(w + 22, octw);
	cx_put_be64(w + 24, MLX5_MKEY_MASK_FREE);
	for (i = 0; i < 16; i++)
		cx_put_be64(w + 128 + 8 * i, (pages + i * 4096ull) | 3);
}

/* The RQ's latest CQE. */
static struct mlx5_cqe64 *dp_last_rx_cqe(uint32_t cqn)
{
	return dp_cqe(DP_RXCQ, (cx_cq_lookup(&core, cqn)->prod - 1) & 63);
}

/*
 * A striding RQ as the driver's AF_XDP zero-copy RQ uses it: strides of
 * 4 KiB, each a page of its own (MTT entries of scattered pages, here in
 * reverse order), the WQE's address past a 256-byte headroom. A frame
 * lands at its stride plus the headroom, in that stride's page; one
 * longer than a stride less the headroom takes two strides and goes on
 * into the next stride's page, as the device writes the WQE's range of
 * the mkey whatever the pages behind it.
 */
static void test_dp_rx_striding_pages(void)
{
	static uint8_t frame[4000];
	struct eth_env e;
	uint32_t cqn, rqn, txcq, sqn, umr;
	struct mlx5_cqe64 *c;
	uint8_t *w, *pg;
	bool good;
	int i;

	good = eth_setup(&e, dp_mac);
	dp_link_up();
	memset(fh.mem + DP_RXCQ, 0, 64 * 64);
	memset(fh.mem + DP_TXCQ, 0, 64 * 64);
	memset(fh.mem + DP_RXPAGES, 0, 16 * 4096);
	good &= create_cq(&e, DP_RXCQ, 6, e.comp_eq, &cqn) == 0;
	good &= create_cq(&e, DP_TXCQ, 6, e.comp_eq, &txcq) == 0;
	good &= create_rq_geom(&e, cqn, true, 3, 12, &rqn) == 0;
	good &= create_sq(&e, txcq, e.tis, &sqn) == 0;
	cx_sq_lookup(&core, sqn)->reg_umr = true;
	good &= modify_q(true, sqn, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) == 0;
	good &= dp_rx_steering(&e, &rqn, 1);
	good &= modify_q(false, rqn, MLX5_RQC_STATE_RST, MLX5_RQC_STATE_RDY) == 0;
	good &= dp_umr_mkey(&e, 16, &umr);
	ok(good, "page strides: striding RQ of 8 x 4 KiB strides, ICOSQ, UMR mkey");

	/* 16 MTT entries: mkey page i -> DP_RXPAGES page 15 - i. */
	dp_umr(sqn, umr, 0, 0, 0);
	w = dp_wqebb(0);
	for (i = 0; i < 16; i++)
		cx_put_be64(w + 128 + 8 * i,
			    (DP_RXPAGES + (15 - i) * 4096ull) | 3);
	dp_sq_ring(e.uar, 4, w);
	/* One WQE: the mkey's first 8 pages, from the headroom on. */
	w = fh.mem + Q_BASE + 0x20000;
	memset(w, 0, 64);
	dp_dseg(w + 16, 8 * 4096, umr, 256);
	put_be32(fh.mem + DBR_BASE + 0xc0, 1);

	dp_make_frame(frame, dp_mac, 1500, 1);
	cx_core_receive(&core, frame, 1500);
	c = dp_last_rx_cqe(cqn);
	pg = fh.mem + DP_RXPAGES + 15 * 4096;
	ok(!memcmp(pg + 256, frame, 1500) && pg[255] == 0 &&
	   (c->op_own >> 4) == MLX5_CQE_RESP_SEND &&
	   mpwrq_get_cqe_stride_index(c) == 0 &&
	   mpwrq_get_cqe_consumed_strides(c) == 1 &&
	   mpwrq_get_cqe_byte_cnt(c) == 1500,
	   "1500 bytes: stride 0, one stride, at the headroom of its page");
	dp_make_frame(frame, dp_mac, 1500, 2);
	cx_core_receive(&core, frame, 1500);
	c = dp_last_rx_cqe(cqn);
	pg = fh.mem + DP_RXPAGES + 14 * 4096;
	ok(!memcmp(pg + 256, frame, 1500) && pg[255] == 0 &&
	   mpwrq_get_cqe_stride_index(c) == 1 &&
	   mpwrq_get_cqe_consumed_strides(c) == 1,
	   "the next: stride 1, in the page the second MTT entry names");
	/* 4000 bytes from stride 2's headroom: 3840 in its page, 160 on. */
	dp_port_mtu(9022);
	dp_make_frame(frame, dp_mac, 4000, 3);
	cx_core_receive(&core, frame, 4000);
	c = dp_last_rx_cqe(cqn);
	pg = fh.mem + DP_RXPAGES + 13 * 4096;
	ok(!memcmp(pg + 256, frame, 3840) &&
	   !memcmp(fh.mem + DP_RXPAGES + 12 * 4096, frame + 3840, 160) &&
	   mpwrq_get_cqe_stride_index(c) == 2 &&
	   mpwrq_get_cqe_consumed_strides(c) == 1 &&
	   mpwrq_get_cqe_byte_cnt(c) == 4000,
	   "4000 bytes: one stride counted, the bytes past it in the next stride's page");
	ok(cx_rq_lookup(&core, rqn)->strides == 3 && report_val("umr.entries") == 16,
	   "page strides: three consumed, 16 UMR entries");
}

/*
 * The test port's UMR faults and memory protection: a held UMR neither
 * writes its translations nor completes, and an RX WQE used meanwhile is
 * caught (umr.early_use) and, its mkey still free, refused with a
 * LOCAL_PROT_ERR CQE, never written through to guest address 0; a timed
 * hold ends on the host timer; UMR_FAIL fails a UMR on its SQ; unknown
 * keys and never-written entries are refused; BAD_RX_CQE makes one CQE
 * lie; two_byte_shift_en is refused.
 */
static void test_dp_umr_faults(void)
{
	static uint8_t zero_page[4096], frame[1000];
	struct eth_env e;
	uint32_t cqn, rqn, txcq, sqn, umr, bad;
	struct mlx5_cqe64 *c;
	uint8_t *w;
	bool good;

	good = eth_setup(&e, dp_mac);
	dp_link_up();
	memset(fh.mem + DP_RXCQ, 0, 64 * 64);
	memset(fh.mem + DP_TXCQ, 0, 64 * 64);
	memset(fh.mem, 0, sizeof(zero_page));
	good &= create_cq(&e, DP_RXCQ, 6, e.comp_eq, &cqn) == 0;
	good &= create_cq(&e, DP_TXCQ, 6, e.comp_eq, &txcq) == 0;
	good &= create_rq(&e, cqn, true, &rqn) == 0;
	good &= create_sq(&e, txcq, e.tis, &sqn) == 0;
	cx_sq_lookup(&core, sqn)->reg_umr = true;
	good &= modify_q(true, sqn, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) == 0;
	good &= dp_rx_steering(&e, &rqn, 1);
	good &= modify_q(false, rqn, MLX5_RQC_STATE_RST, MLX5_RQC_STATE_RDY) == 0;
	good &= dp_umr_mkey(&e, 32, &umr);
	ok(good, "UMR faults: striding RQ, ICOSQ, a free UMR mkey of 32 pages");

	/* Held until released: nothing written, no CQE, the SQ stops. */
	tp_wr(CX_TP_UMR_HOLD, CX_TP_ALWAYS);
	tp_wr(CX_TP_UMR_HOLD_COUNT, CX_TP_ALWAYS);
	dp_umr(sqn, umr, 0, 0, DP_RXPAGES);
	dp_sq_ring(e.uar, 4, dp_wqebb(0));
	ok(report_val("wqe.UMR") == 0 && report_val("umr.held") == 1 &&
	   report_val("umr.holds") == 1 && cx_cq_lookup(&core, txcq)->prod == 0 &&
	   cx_mkey_lookup(&core, umr)->free && cx_sq_lookup(&core, sqn)->cc == 0,
	   "held UMR: no translation, no CQE, its SQ stopped at it");

	/* More posted behind it waits; no second hold. */
	dp_sq_ring(e.uar, 4, dp_wqebb(0));
	ok(report_val("umr.holds") == 1 && cx_sq_lookup(&core, sqn)->umr_held &&
	   cx_sq_lookup(&core, sqn)->cc == 0,
	   "a doorbell while held: still the one hold");

	/* A driver that publishes the RX WQE now is caught. */
	w = fh.mem + Q_BASE + 0x20000;
	memset(w, 0, 128);
	put_be16(w + 2, 1);
	dp_dseg(w + 16, 32768, umr, 0);
	put_be16(w + 64 + 2, 2);
	dp_dseg(w + 64 + 16, 32768, umr, 32768);
	put_be32(fh.mem + DBR_BASE + 0xc0, 2);
	dp_make_frame(frame, dp_mac, sizeof(frame), 1);
	cx_core_receive(&core, frame, sizeof(frame));
	c = dp_last_rx_cqe(cqn);
	ok(report_val("umr.early_use") == 1 && report_val("rx.prot_errors") == 1 &&
	   (c->op_own >> 4) == MLX5_CQE_RESP_ERR &&
	   ((struct mlx5_err_cqe *)c)->syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR &&
	   cx_rq_lookup(&core, rqn)->state == MLX5_RQC_STATE_ERR &&
	   !memcmp(fh.mem, zero_page, sizeof(zero_page)),
	   "RX WQE used before its UMR completed: umr.early_use, LOCAL_PROT_ERR CQE, RQ in error, nothing at address 0");

	tp_wr(CX_TP_UMR_RELEASE, 1);
	ok(report_val("wqe.UMR") == 1 && report_val("umr.held") == 0 &&
	   cx_cq_lookup(&core, txcq)->prod == 1 &&
	   (dp_cqe(DP_TXCQ, 0)->op_own >> 4) == MLX5_CQE_REQ &&
	   !cx_mkey_lookup(&core, umr)->free && !core.faults.umr_hold_ms &&
	   cx_sq_lookup(&core, sqn)->cc == 4,
	   "UMR_RELEASE: translations written, CQE, hold disarmed");

	/* RQ reset; the frame lands through the translation. */
	good = modify_q(false, rqn, MLX5_RQC_STATE_ERR, MLX5_RQC_STATE_RST) == 0 &&
	       modify_q(false, rqn, MLX5_RQC_STATE_RST, MLX5_RQC_STATE_RDY) == 0;
	memset(w, 0, 128);
	put_be16(w + 2, 1);
	dp_dseg(w + 16, 32768, umr, 0);
	put_be32(fh.mem + DBR_BASE + 0xc0, 1);
	cx_core_receive(&core, frame, sizeof(frame));
	ok(good && !memcmp(fh.mem + DP_RXPAGES, frame, sizeof(frame)) &&
	   (dp_last_rx_cqe(cqn)->op_own >> 4) == MLX5_CQE_RESP_SEND,
	   "after the reset: the frame lands through the UMR's translation");

	/* A timed hold: old translation used meanwhile, ends on the timer. */
	tp_wr(CX_TP_UMR_HOLD, 5);
	tp_wr(CX_TP_UMR_HOLD_COUNT, 1);
	dp_umr(sqn, umr, 4, 0, DP_RXPAGES + 16 * 4096);
	dp_sq_ring(e.uar, 8, dp_wqebb(4));
	ok(report_val("umr.held") == 1 && fh.timer_deadline == fh.now + 5 * MS &&
	   core.faults.umr_hold_count == 0,
	   "timed hold: the host timer set 5 ms ahead");
	dp_make_frame(frame, dp_mac, sizeof(frame), 2);
	cx_core_receive(&core, frame, sizeof(frame));
	ok(report_val("umr.early_use") == 2 && report_val("rx.prot_errors") == 1 &&
	   !memcmp(fh.mem + DP_RXPAGES + 1024, frame, sizeof(frame)),
	   "early use through an old translation: counted, written where it pointed");
	fh.now += 5 * MS;
	cx_core_timer(&core);
	ok(report_val("umr.held") == 0 && report_val("wqe.UMR") == 2 &&
	   cx_cq_lookup(&core, txcq)->prod == 2 &&
	   cx_mkey_lookup(&core, umr)->mtt[0] == ((DP_RXPAGES + 16 * 4096) | 3),
	   "timed hold over: UMR executed and completed");
	dp_umr(sqn, umr, 8, 0, DP_RXPAGES + 16 * 4096);
	dp_sq_ring(e.uar, 12, dp_wqebb(8));
	ok(report_val("wqe.UMR") == 3 && report_val("umr.holds") == 2,
	   "hold count used up: the next UMR runs at once");

	/* BAD_RX_CQE: the next CQE names the next WQE, then the next stride. */
	tp_wr(CX_TP_BAD_RX_CQE, CX_TP_BAD_CQE_WQE_ID << 28 | rqn);
	cx_core_receive(&core, frame, sizeof(frame));
	c = dp_last_rx_cqe(cqn);
	ok(be16toh(c->wqe_id) == 1 && be16toh(c->wqe_counter) == 32 &&
	   !core.faults.bad_rx_cqe && report_val("rx.bad_cqe_injected") == 1,
	   "BAD_RX_CQE wqe_id: the CQE names WQE 1 (WQE 0 in use), one-shot");
	tp_wr(CX_TP_BAD_RX_CQE, CX_TP_BAD_CQE_STRIDE << 28 | CX_TP_ANY_RQ);
	cx_core_receive(&core, frame, sizeof(frame));
	c = dp_last_rx_cqe(cqn);
	ok(be16toh(c->wqe_id) == 0 && be16toh(c->wqe_counter) == 49 &&
	   report_val("rx.bad_cqe_injected") == 2,
	   "BAD_RX_CQE stride: the CQE names stride 49 (48 in use)");

	/* An unknown key in the WQE: refused, nothing written. */
	bad = umr + 0x1000;
	dp_dseg(w + 16, 32768, bad, 0);
	/* Rewritten in place: the device still holds the old copy. */
	cx_core_receive(&core, frame, sizeof(frame));
	c = dp_last_rx_cqe(cqn);
	ok((c->op_own >> 4) == MLX5_CQE_RESP_SEND &&
	   report_val("rx.prot_errors") == 1,
	   "a WQE in use rewritten in place: the device uses the copy it fetched");
	cx_rq_lookup(&core, rqn)->fetched = false;	/* as if fetched anew */
	memset(fh.mem + DP_RXPAGES, 0xee, 4096);
	cx_core_receive(&core, frame, sizeof(frame));
	c = dp_last_rx_cqe(cqn);
	ok((c->op_own >> 4) == MLX5_CQE_RESP_ERR &&
	   ((struct mlx5_err_cqe *)c)->syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR &&
	   report_val("rx.prot_errors") == 2 &&
	   cx_rq_lookup(&core, rqn)->state == MLX5_RQC_STATE_ERR,
	   "RX through an unknown mkey: LOCAL_PROT_ERR CQE, RQ in error");

	/* Entries past the UMRs' (never written) are refused. */
	good = modify_q(false, rqn, MLX5_RQC_STATE_ERR, MLX5_RQC_STATE_RST) == 0 &&
	       modify_q(false, rqn, MLX5_RQC_STATE_RST, MLX5_RQC_STATE_RDY) == 0;
	memset(w, 0, 128);
	put_be16(w + 2, 1);
	dp_dseg(w + 16, 32768, umr, 32 * 4096 - 32768);	/* entries 24..31 */
	put_be32(fh.mem + DBR_BASE + 0xc0, 1);
	cx_core_receive(&core, frame, sizeof(frame));
	c = dp_last_rx_cqe(cqn);
	ok(good && (c->op_own >> 4) == MLX5_CQE_RESP_ERR &&
	   report_val("rx.prot_errors") == 3 &&
	   !memcmp(fh.mem, zero_page, sizeof(zero_page)),
	   "RX through an MTT entry never written: LOCAL_PROT_ERR, nothing at address 0");

	/* UMR_FAIL: an error CQE on the ICOSQ, which goes to error. */
	tp_wr(CX_TP_UMR_FAIL, 1);
	dp_umr(sqn, umr, 12, 0, DP_RXPAGES);
	dp_sq_ring(e.uar, 16, dp_wqebb(12));
	c = dp_cqe(DP_TXCQ, 3);
	ok((c->op_own >> 4) == MLX5_CQE_REQ_ERR &&
	   ((struct mlx5_err_cqe *)c)->syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR &&
	   cx_sq_lookup(&core, sqn)->state == MLX5_SQC_STATE_ERR &&
	   report_val("umr.fail_injected") == 1 && !core.faults.umr_fail,
	   "UMR_FAIL: the UMR fails with LOCAL_PROT_ERR, its SQ in error");

	/* A hold dropped by the SQ leaving RDY. */
	good = modify_q(true, sqn, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST) == 0 &&
	       modify_q(true, sqn, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) == 0;
	tp_wr(CX_TP_UMR_HOLD, CX_TP_ALWAYS);
	tp_wr(CX_TP_UMR_HOLD_COUNT, 1);
	dp_umr(sqn, umr, 0, 0, DP_RXPAGES);
	dp_sq_ring(e.uar, 4, dp_wqebb(0));
	good &= report_val("umr.held") == 1;
	good &= modify_q(true, sqn, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_RST) == 0;
	tp_wr(CX_TP_UMR_RELEASE, 1);
	ok(good && report_val("umr.held") == 0 && report_val("wqe.UMR") == 3,
	   "an SQ reset drops its held UMR: never executed");

	/* TX through a destroyed (freed) mkey: LOCAL_PROT_ERR on the SQ. */
	good = modify_q(true, sqn, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) == 0 &&
	       destroy_obj(MLX5_CMD_OP_DESTROY_MKEY, umr >> 8) == 0;
	w = dp_wqebb(0);
	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_SEND, 0, sqn, 3, true);
	dp_dseg(w + 32, 100, umr, 0);
	dp_sq_ring(e.uar, 1, w);
	c = dp_cqe(DP_TXCQ, (cx_cq_lookup(&core, txcq)->prod - 1) & 63);
	ok(good && (c->op_own >> 4) == MLX5_CQE_REQ_ERR &&
	   ((struct mlx5_err_cqe *)c)->syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR &&
	   cx_sq_lookup(&core, sqn)->state == MLX5_SQC_STATE_ERR &&
	   !memcmp(fh.mem, zero_page, sizeof(zero_page)),
	   "TX through a destroyed mkey: LOCAL_PROT_ERR CQE, SQ in error");

	/* two_byte_shift_en: refused. */
	{
		size_t len = MLX5_ST_SZ_BYTES(create_rq_in) + 8 * 2;
		void *in = eth_cmd(MLX5_CMD_OP_CREATE_RQ, len);
		void *wq = MLX5_ADDR_OF(rqc, MLX5_ADDR_OF(create_rq_in, in, ctx), wq);

		MLX5_SET(rqc, MLX5_ADDR_OF(create_rq_in, in, ctx), cqn, cqn);
		MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_LINKED_LIST_STRIDING_RQ);
		MLX5_SET(wq, wq, pd, e.pd);
		MLX5_SET64(wq, wq, dbr_addr, DBR_BASE + 0xc0);
		MLX5_SET(wq, wq, log_wq_stride, 6);
		MLX5_SET(wq, wq, log_wq_sz, 3);
		MLX5_SET(wq, wq, two_byte_shift_en, 1);
		MLX5_ARRAY_SET64(create_rq_in, in, ctx.wq.pas, 0, Q_BASE + 0x20000);
		MLX5_ARRAY_SET64(create_rq_in, in, ctx.wq.pas, 1, Q_BASE + 0x21000);
		ok(eth_exec(len) == MLX5_CMD_STAT_BAD_PARAM_ERR,
		   "CREATE_RQ with two_byte_shift_en: BAD_PARAM");
	}
}

static void dp_cq_arm(struct eth_env *e, uint32_t cqn, uint32_t ci)
{
	uint8_t db[8];
	uint64_t v;

	put_be32(db, dp_arm_sn(cqn) | (ci & 0xffffff));
	put_be32(db + 4, cqn);
	memcpy(&v, db, 8);
	cx_core_bar0_write(&core, (uint64_t)e->uar * 4096 + 0x20, v, 8);
}

static int dp_modify_cq(uint32_t cqn, uint32_t sel, uint32_t period,
			uint32_t count, uint32_t mode, uint8_t op_mod)
{
	void *in = eth_cmd(MLX5_CMD_OP_MODIFY_CQ, MLX5_ST_SZ_BYTES(modify_cq_in));

	MLX5_SET(modify_cq_in, in, op_mod, op_mod);
	MLX5_SET(modify_cq_in, in, cqn, cqn);
	MLX5_SET(modify_cq_in, in,
		 modify_field_select_resize_field_select.modify_field_select.modify_field_select,
		 sel);
	MLX5_SET(modify_cq_in, in, cq_context.cq_period, period);
	MLX5_SET(modify_cq_in, in, cq_context.cq_max_count, count);
	MLX5_SET(modify_cq_in, in, cq_context.cq_period_mode, mode);
	return eth_exec(MLX5_ST_SZ_BYTES(modify_cq_in));
}

/*
 * CQ moderation: an armed CQ's EQE waits for cq_max_count CQEs or the end
 * of cq_period (on the host's clock, through the host timer).
 */
static void test_dp_moderation(void)
{
	struct eth_env e;
	uint8_t img[64];
	uint32_t cqn, sqn, i;
	struct cx_cq *cq;
	long eqe0;

	memset(img, 0, sizeof(img));
	ok(dp_tx_setup(&e, &cqn, &sqn), "moderation: a CQ");
	cq = cx_cq_lookup(&core, cqn);
	ok(dp_modify_cq(cqn, 0x13, 100, 4, MLX5_CQ_PERIOD_MODE_START_FROM_CQE, 0) == 0 &&
	   cq->period == 100 && cq->max_count == 4 && cq->period_mode == 1,
	   "MODIFY_CQ: period 100 us, count 4, from the CQE");
	ok(dp_modify_cq(cqn, 0x10, 0, 0, 2, 0) == MLX5_CMD_STAT_BAD_PARAM_ERR &&
	   cq->period_mode == 1, "MODIFY_CQ with period mode 2: BAD_PARAM, unchanged");
	ok(dp_modify_cq(cqn, 0x3, 1, 1, 0, 1) == MLX5_CMD_STAT_BAD_PARAM_ERR &&
	   cq->period == 100 && cq->max_count == 4,
	   "MODIFY_CQ resize (op_mod 1): BAD_PARAM, unchanged");
	ok(dp_modify_cq(cqn + 77, 0x3, 1, 1, 0, 0) == MLX5_CMD_STAT_BAD_RES_ERR,
	   "MODIFY_CQ of no CQ: BAD_RES");

	dp_cq_arm(&e, cqn, 0);
	eqe0 = report_val("eqe.comp");
	for (i = 0; i < 3; i++)
		cx_cq_write(&core, cq, img);
	ok(report_val("eqe.comp") == eqe0 && cq->armed &&
	   fh.timer_deadline == fh.now + 100 * 1000,
	   "3 CQEs of 4: no EQE yet, the timer set 100 us ahead");
	cx_cq_write(&core, cq, img);
	ok(report_val("eqe.comp") == eqe0 + 1 && !cq->armed &&
	   report_val("eqe.comp.mod_count") == 1 && !cq->mod_deadline,
	   "the 4th CQE: one EQE (count), disarmed");

	/* Consumed all four; armed again, one CQE, the period runs out. */
	put_be32(fh.mem + DBR_BASE + 0x40, 4);
	dp_cq_arm(&e, cqn, 4);
	cx_cq_write(&core, cq, img);
	fh.now += 99 * 1000;
	cx_core_timer(&core);
	ok(report_val("eqe.comp") == eqe0 + 1 && cq->armed,
	   "1 CQE, 99 us later: still waiting");
	fh.now += 1000;
	cx_core_timer(&core);
	ok(report_val("eqe.comp") == eqe0 + 2 && !cq->armed &&
	   report_val("eqe.comp.mod_timer") == 1 &&
	   report_val("eqe.comp.mod_waited") == 1 && fh.timer_deadline == 0,
	   "at 100 us: one EQE (period, waited for), the timer cancelled");

	/* Count 0: moderation off, an EQE at each armed CQE. */
	ok(dp_modify_cq(cqn, 0x2, 0, 0, 0, 0) == 0, "MODIFY_CQ: count 0");
	put_be32(fh.mem + DBR_BASE + 0x40, 5);
	dp_cq_arm(&e, cqn, 5);
	cx_cq_write(&core, cq, img);
	ok(report_val("eqe.comp") == eqe0 + 3,
	   "moderation off: the EQE at the first CQE");

	/* An arm with the sequence number of before the last event: stale. */
	{
		uint8_t db[8];
		uint64_t v;

		put_be32(db, ((cq->events - 1) & 3) << 28 | 5);
		put_be32(db + 4, cqn);
		memcpy(&v, db, 8);
		cx_core_bar0_write(&core, (uint64_t)e.uar * 4096 + 0x20, v, 8);
	}
	ok(!cq->armed && report_val("cq.arms_stale") == 1 &&
	   report_val("eqe.comp") == eqe0 + 3,
	   "arm with a stale sequence number: ignored, counted");
	dp_cq_arm(&e, cqn, 5);
	ok(report_val("eqe.comp") == eqe0 + 4,
	   "arm with the events' count as sequence number: taken");

	/*
	 * The period from the CQ's last EQE (mode 0): a CQE 50 us after it
	 * waits for the rest; one long after it goes out at once, still
	 * the period's EQE but not waited for.
	 */
	ok(dp_modify_cq(cqn, 0x13, 100, 4, MLX5_CQ_PERIOD_MODE_START_FROM_EQE, 0) == 0 &&
	   cq->period_mode == 0, "MODIFY_CQ: period 100 us, count 4, from the EQE");
	put_be32(fh.mem + DBR_BASE + 0x40, 6);
	dp_cq_arm(&e, cqn, 6);
	fh.now += 50 * 1000;
	cx_cq_write(&core, cq, img);
	ok(report_val("eqe.comp") == eqe0 + 4 && cq->armed &&
	   fh.timer_deadline == fh.now + 50 * 1000,
	   "from the EQE: a CQE 50 us after it waits 50 us more");
	fh.now += 50 * 1000;
	cx_core_timer(&core);
	ok(report_val("eqe.comp") == eqe0 + 5 &&
	   report_val("eqe.comp.mod_timer") == 2 &&
	   report_val("eqe.comp.mod_waited") == 2,
	   "... its EQE from the timer");
	put_be32(fh.mem + DBR_BASE + 0x40, 7);
	dp_cq_arm(&e, cqn, 7);
	fh.now += 300 * 1000;
	cx_cq_write(&core, cq, img);
	ok(report_val("eqe.comp") == eqe0 + 6 && !cq->armed &&
	   report_val("eqe.comp.mod_timer") == 3 &&
	   report_val("eqe.comp.mod_waited") == 2 && fh.timer_deadline == 0,
	   "from the EQE: a CQE 300 us after it, its EQE at once");
}

/*
 * The port MTU on TX, the minimum inline mode (the vport's, the test
 * port's one-shot) and VLAN insertion without the capability.
 */
static void test_dp_tx_checks(void)
{
	struct eth_env e;
	uint32_t cqn, sqn;
	struct mlx5_cqe64 *c;
	uint8_t *w;

	ok(dp_tx_setup(&e, &cqn, &sqn), "TX checks: CQ, SQ ready");
	dp_port_mtu(103);
	dp_post_send(&e, sqn);
	c = dp_cqe(DP_TXCQ, 0);
	ok(dp_nframes == 0 && (c->op_own >> 4) == MLX5_CQE_REQ &&
	   report_val("tx.drops.mtu") == 1 && report_val("tx.packets") == 0 &&
	   dp_ppcnt(MLX5_RFC_2863_COUNTERS_GROUP, DP_IF_OUT_ERRORS) == 1,
	   "TX over the port MTU: not sent, the WQE completes, PPCNT if_out_errors");
	dp_port_mtu(104);
	dp_send_at(&e, sqn, 1, e.uar, 0x800);
	ok(dp_nframes == 1 && report_val("tx.drops.mtu") == 1 &&
	   report_val("tx.packets") == 1, "TX at the port MTU: sent");
	ok(dp_ppcnt(DP_IEEE, DP_802_3(a_frames_transmitted_ok)) == 1 &&
	   dp_ppcnt(DP_IEEE, DP_802_3(a_octets_transmitted_ok)) == 104 &&
	   dp_ppcnt(DP_RFC2863, DP_2863(if_out_octets)) == 104 &&
	   dp_ppcnt(DP_RFC2863, DP_2863(if_out_errors)) == 1 &&
	   dp_ppcnt(DP_IEEE, DP_802_3(a_frames_received_ok)) == 0,
	   "PPCNT: the frame sent counted with its FCS, the one over the MTU not");

	/* Inline mode L2 on the vport: a SEND inlining nothing fails. */
	core.func.nic->vport.min_inline = MLX5_INLINE_MODE_L2;
	dp_send_at(&e, sqn, 2, e.uar, 0x800);
	c = dp_cqe(DP_TXCQ, 2);
	ok(dp_nframes == 1 && (c->op_own >> 4) == MLX5_CQE_REQ_ERR &&
	   ((struct mlx5_err_cqe *)c)->syndrome == MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR &&
	   report_val("wqe.inline_errors") == 1 &&
	   report_val("wqe.inline_errors_injected") == 0 &&
	   cx_sq_lookup(&core, sqn)->state == MLX5_SQC_STATE_ERR,
	   "inline L2, nothing inlined: LOCAL_QP_OP_ERR, SQ in error");
	core.func.nic->vport.min_inline = MLX5_INLINE_MODE_NONE;

	/* Test port: a stricter mode for one WQE. */
	ok(dp_tx_setup(&e, &cqn, &sqn), "fresh SQ");
	cx_core_testport_write(&core, CX_TP_INLINE_MODE, MLX5_INLINE_MODE_IP, 4);
	dp_post_send(&e, sqn);
	c = dp_cqe(DP_TXCQ, 0);
	ok(dp_nframes == 0 && (c->op_own >> 4) == MLX5_CQE_REQ_ERR &&
	   report_val("wqe.inline_errors_injected") == 1 &&
	   cx_core_testport_read(&core, CX_TP_INLINE_MODE, 4) == 0,
	   "test port INLINE_MODE ip: the next SEND fails, one-shot");

	/* VLAN insertion asked of a device without wqe_vlan_insert. */
	ok(dp_tx_setup(&e, &cqn, &sqn), "fresh SQ, vlan_insert off");
	core.params.vlan_insert = false;
	w = dp_wqebb(0);
	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_SEND, 0, sqn, 3, true);
	put_be16(w + 28, MLX5_ETH_WQE_INSERT_VLAN);
	put_be16(w + 30, 5);
	dp_dseg(w + 32, 100, e.mkey, DP_BUF);
	dp_sq_ring(e.uar, 1, w);
	c = dp_cqe(DP_TXCQ, 0);
	ok(dp_nframes == 0 && (c->op_own >> 4) == MLX5_CQE_REQ_ERR &&
	   report_val("wqe.vlan_insert") == 0,
	   "vlan_insert off: a WQE asking for insertion fails");
	core.params.vlan_insert = true;
	ok(dp_tx_setup(&e, &cqn, &sqn), "fresh SQ, vlan_insert on");
	w = dp_wqebb(0);
	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_SEND, 0, sqn, 3, true);
	put_be16(w + 28, MLX5_ETH_WQE_INSERT_VLAN);
	put_be16(w + 30, 5);
	dp_dseg(w + 32, 100, e.mkey, DP_BUF);
	dp_sq_ring(e.uar, 1, w);
	ok(dp_nframes == 1 && dp_frame_len[0] == 104 &&
	   dp_frames[0][12] == 0x81 && dp_frames[0][15] == 5 &&
	   report_val("wqe.vlan_insert") == 1 && report_val("tx.vlan") == 1,
	   "vlan_insert on: tagged on the wire, wqe.vlan_insert and tx.vlan count it");
}

/* Post SENDs of 100 bytes at WQEs [@from, @from + @n), one doorbell. */
static void dp_post_sends(struct eth_env *e, uint32_t sqn, uint16_t from,
			  uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		uint8_t *w = dp_wqebb(from + i);

		memset(w, 0, 64);
		dp_ctrl(w, MLX5_OPCODE_SEND, from + i, sqn, 3, true);
		dp_dseg(w + 32, 100, e->mkey, DP_BUF);
	}
	dp_sq_ring(e->uar, (uint16_t)(from + n), dp_wqebb(from + n - 1));
}

/* Run the host timer at its deadline; false when none was set. */
static bool dp_fire(void)
{
	if (!fh.timer_deadline)
		return false;
	if (fh.timer_deadline > fh.now)
		fh.now = fh.timer_deadline;
	cx_core_timer(&core);
	return true;
}

/* An asynchronous device: @budget WQEs a step, the wire at @mbps. */
static bool dp_async_setup(struct eth_env *e, uint32_t *cqn, uint32_t *sqn,
			   uint64_t seed, uint32_t budget, uint32_t mbps)
{
	bool good = dp_tx_setup(e, cqn, sqn);

	core.params.latency_ns = 2000;
	core.params.jitter_ns = 1000;
	core.params.seed = seed;
	core.params.sq_budget = budget;
	core.params.speed_mbps = mbps;
	cx_dp_get(&core)->rng = seed;
	fh.timer_deadline = 0;
	return good;
}

/* The deadlines the first @n doorbells of a fresh device with @seed get. */
static void dp_async_deadlines(uint64_t seed, uint64_t *due, int n)
{
	struct eth_env e;
	uint32_t cqn, sqn;
	int i;

	dp_async_setup(&e, &cqn, &sqn, seed, 0, 0);
	for (i = 0; i < n; i++) {
		dp_post_sends(&e, sqn, (uint16_t)i, 1);
		due[i] = fh.timer_deadline - fh.now;
		dp_fire();
	}
}

/*
 * The asynchronous engine: a doorbell only records work, done from the
 * host timer after the latency and a seeded jitter, a budget of WQEs a
 * step, no faster than the wire; CQ arms are applied late too.
 */
static void test_dp_async(void)
{
	uint64_t a[8], b[8], c[8];
	struct eth_env e;
	uint32_t cqn, sqn, n0;
	long dbr0;
	struct mlx5_cqe64 *cqe;
	struct cx_cq *cq;
	uint64_t t0;
	long eqe0;
	int steps;

	ok(dp_async_setup(&e, &cqn, &sqn, 7, 2, 0), "async: a TX path");
	cq = cx_cq_lookup(&core, cqn);
	cqe = dp_cqe(DP_TXCQ, 0);
	t0 = fh.now;
	dp_post_sends(&e, sqn, 0, 1);
	ok(dp_nframes == 0 && report_val("cqe.tx") == 0 &&
	   report_val("async.doorbells") == 1,
	   "async: the doorbell write returns before the frame and the CQE");
	ok(fh.timer_deadline >= t0 + 2000 && fh.timer_deadline <= t0 + 3000,
	   "async: the work is due after the latency, within the jitter");
	fh.now = fh.timer_deadline - 1;
	cx_core_timer(&core);
	ok(dp_nframes == 0, "async: not a nanosecond early");
	ok(dp_fire() && dp_nframes == 1 && (cqe->op_own >> 4) == MLX5_CQE_REQ &&
	   report_val("async.steps") == 1 && !fh.timer_deadline,
	   "async: at the deadline, the frame and its CQE; nothing left");

	/*
	 * Five WQEs, one doorbell, two a step: three steps, the SQ's
	 * doorbell record read by the first only (the CQ's is read before
	 * each CQE).  A sixth WQE whose pc reaches the record meanwhile,
	 * with no doorbell, waits for one.
	 */
	n0 = dp_nframes;
	dbr0 = report_val("pcie.dbr.rd_req");
	dp_post_sends(&e, sqn, 1, 5);
	for (steps = 0; steps < 10 && dp_fire(); steps++) {
		if (steps)
			continue;
		ok(dp_nframes == n0 + 2 && fh.timer_deadline,
		   "async: a step runs its budget, the rest stays due");
		memset(dp_wqebb(6), 0, 64);
		dp_ctrl(dp_wqebb(6), MLX5_OPCODE_SEND, 6, sqn, 3, true);
		dp_dseg(dp_wqebb(6) + 32, 100, e.mkey, DP_BUF);
		put_be32(fh.mem + DBR_BASE + 0x80 + 4, 7);
	}
	ok(steps == 3 && dp_nframes == n0 + 5 &&
	   report_val("async.budget_stops") == 2 && report_val("cqe.tx") == 6 &&
	   report_val("pcie.dbr.rd_req") == dbr0 + 1 + 5,
	   "async: five WQEs in three steps of two, every CQE written; the SQ's doorbell record read once (and the CQ's before each CQE)");
	dp_sq_ring(e.uar, 7, dp_wqebb(6));
	dp_fire();
	ok(dp_nframes == n0 + 6 && report_val("pcie.dbr.rd_req") == dbr0 + 6 + 2,
	   "async: a WQE posted without a doorbell runs at the next one");

	/* Doorbells meanwhile fold into the work already due. */
	dp_post_sends(&e, sqn, 7, 1);
	dp_post_sends(&e, sqn, 8, 1);
	ok(dp_nframes == n0 + 6 && report_val("async.doorbells") == 5,
	   "async: two doorbells, nothing done yet");
	dp_fire();
	ok(dp_nframes == n0 + 8, "async: one step does both, to the newest pc");

	/* An arm is applied late: a CQE pending at arm time, EQE at the step. */
	eqe0 = report_val("eqe.comp");
	dp_cq_arm(&e, cqn, 0);
	ok(!cq->armed && cq->arm_pending && report_val("eqe.comp") == eqe0,
	   "async: the CQ arm is recorded, not yet taken");
	dp_fire();
	ok(!cq->arm_pending && report_val("eqe.comp") == eqe0 + 1 &&
	   report_val("async.arms") == 1,
	   "async: applied once due: the CQEs beyond ci raise the EQE");

	/* An EQ arm with an EQE pending: the interrupt once the arm is due. */
	{
		struct cx_eq *eq = &core.func.eq[e.comp_eq];
		unsigned int irqs = fh.notifies;

		wr32be((uint64_t)e.uar * 4096 + 0x40,
		       e.comp_eq << 24 | ((eq->prod - 1) & 0xffffff));
		ok(eq->arm_pending && !eq->armed && fh.notifies == irqs,
		   "async: EQ arm recorded, no interrupt yet");
		dp_fire();
		ok(!eq->arm_pending && fh.notifies == irqs + 1,
		   "async: EQ arm taken once due: the pending EQE interrupts");
	}

	/* The wire: 10 Mb/s, 124 bytes a frame with overheads: 99.2 us. */
	ok(dp_async_setup(&e, &cqn, &sqn, 7, 0, 10), "wire: a 10 Mb/s port");
	dp_post_sends(&e, sqn, 0, 3);
	dp_fire();
	t0 = fh.now;
	ok(dp_nframes == 1 && report_val("wire.waits") == 1 &&
	   fh.timer_deadline == t0 + 99200,
	   "wire: one frame, then the SQ waits until the wire is free");
	dp_fire();
	ok(dp_nframes == 2 && fh.timer_deadline == t0 + 2 * 99200,
	   "wire: the next frame a frame time later");
	dp_fire();
	ok(dp_nframes == 3 && !fh.timer_deadline, "wire: all three sent");

	/* The partner's PAUSE: nothing leaves until its XON. */
	ok(dp_async_setup(&e, &cqn, &sqn, 7, 0, 0), "pause: a TX path");
	ok(core.func.nic->port.pprx, "pause: global RX pause on out of reset");
	cx_core_testport_write(&core, CX_TP_XOFF, 1, 4);
	dp_post_sends(&e, sqn, 0, 2);
	n0 = report_val("cqe.tx");
	dp_fire();
	ok(dp_nframes == 0 && report_val("cqe.tx") == n0 && !fh.timer_deadline &&
	   report_val("wire.pause_waits") == 1 &&
	   report_val("port.rx_pause_frames") == 1 &&
	   cx_core_testport_read(&core, CX_TP_XOFF, 4) == 1,
	   "pause: XOFF: the SQ holds its WQEs, no CQE, no busy timer");
	cx_core_testport_write(&core, CX_TP_XOFF, 0, 4);
	ok(fh.timer_deadline && dp_fire() && dp_nframes == 2 &&
	   report_val("cqe.tx") == n0 + 2 &&
	   report_val("port.rx_pause_frames") == 2,
	   "pause: XON: both sent and completed");
	core.func.nic->port.pprx = false;
	cx_core_testport_write(&core, CX_TP_XOFF, 1, 4);
	dp_post_sends(&e, sqn, 2, 1);
	dp_fire();
	ok(dp_nframes == 3 && report_val("port.rx_pause_frames") == 3 &&
	   cx_core_testport_read(&core, CX_TP_XOFF, 4) == 0,
	   "pause: RX pause off: the PAUSE frame counted, not honoured");
	cx_core_testport_write(&core, CX_TP_XOFF, 0, 4);

	/* Same seed, same delays; another seed, others. */
	dp_async_deadlines(42, a, 8);
	dp_async_deadlines(42, b, 8);
	dp_async_deadlines(43, c, 8);
	ok(!memcmp(a, b, sizeof(a)) && memcmp(a, c, sizeof(a)),
	   "async: the seed alone decides the delays");

	/* Latency and jitter 0: done inside the doorbell write, as before. */
	ok(dp_async_setup(&e, &cqn, &sqn, 7, 0, 0), "sync: a TX path");
	core.params.latency_ns = 0;
	core.params.jitter_ns = 0;
	dp_post_sends(&e, sqn, 0, 1);
	ok(dp_nframes == 1 && !fh.timer_deadline,
	   "sync: latency 0, jitter 0: the frame inside the write");
}

/* A PA (@mtt false) or 2-page MTT mkey of @pd with the rights given. */
static uint32_t dp_mkey(uint32_t pd, bool lr, bool lw, bool len64,
			uint64_t start, uint64_t len, bool mtt)
{
	size_t sz = MLX5_ST_SZ_BYTES(create_mkey_in) + (mtt ? 16 : 0);
	void *in = eth_cmd(MLX5_CMD_OP_CREATE_MKEY, sz);
	void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	uint8_t *tr = (uint8_t *)in + MLX5_ST_SZ_BYTES(create_mkey_in);

	MLX5_SET(mkc, mkc, access_mode_1_0, mtt ? MLX5_MKC_ACCESS_MODE_MTT :
						  MLX5_MKC_ACCESS_MODE_PA);
	MLX5_SET(mkc, mkc, lr, lr);
	MLX5_SET(mkc, mkc, lw, lw);
	MLX5_SET(mkc, mkc, length64, len64);
	MLX5_SET(mkc, mkc, pd, pd);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET64(mkc, mkc, start_addr, start);
	MLX5_SET64(mkc, mkc, len, len);
	if (mtt) {
		MLX5_SET(mkc, mkc, log_page_size, 12);
		MLX5_SET(mkc, mkc, translations_octword_size, 1);
		MLX5_SET(create_mkey_in, in, translations_octword_actual_size, 1);
		/* page 0 read-only (MLX5_EN_RD), page 1 writable (MLX5_EN_WR) */
		cx_put_be64(tr, DP_BUF | 1);
		cx_put_be64(tr + 8, (DP_BUF + 4096) | 2);
	}
	if (eth_exec(sz))
		return 0;
	return OUT(create_mkey_out, mkey_index) << 8;
}

/*
 * Memory protection on every data access: the key's protection domain
 * must be the queue's, it must grant local read or write, the access must
 * lie within its start and length (unless length64), and an MTT entry
 * must enable the access (MLX5_EN_RD/WR).
 */
static void test_dp_mkey_rights(void)
{
	struct eth_env e;
	uint32_t cqn, sqn, pd2, ro, wo, bounded, mtt, other;
	uint8_t buf[64];
	struct mlx5_cqe64 *c;
	uint8_t *w;

	ok(dp_tx_setup(&e, &cqn, &sqn) &&
	   eth_simple(MLX5_CMD_OP_ALLOC_PD, 16, NULL) == 0,
	   "mkey rights: a TX path and a second PD");
	pd2 = OUT(alloc_pd_out, pd);
	ro = dp_mkey(e.pd, true, false, true, 0, 0, false);
	wo = dp_mkey(e.pd, false, true, true, 0, 0, false);
	bounded = dp_mkey(e.pd, true, true, false, DP_BUF, 4096, false);
	mtt = dp_mkey(e.pd, true, true, true, 0x10000, 0, true);
	other = dp_mkey(pd2, true, true, true, 0, 0, false);
	ok(ro && wo && bounded && mtt && other, "five keys created");
	ok(!cx_mkey_dma(&core, e.pd, ro, DP_BUF, buf, 64, false) &&
	   cx_mkey_dma(&core, e.pd, ro, DP_BUF, buf, 64, true),
	   "local read only: reads, refuses a write");
	ok(!cx_mkey_dma(&core, e.pd, wo, DP_BUF, buf, 64, true) &&
	   cx_mkey_dma(&core, e.pd, wo, DP_BUF, buf, 64, false),
	   "local write only: writes, refuses a read");
	ok(!cx_mkey_dma(&core, e.pd, bounded, DP_BUF + 4096 - 64, buf, 64, false) &&
	   cx_mkey_dma(&core, e.pd, bounded, DP_BUF + 4096 - 63, buf, 64, false) &&
	   cx_mkey_dma(&core, e.pd, bounded, DP_BUF - 1, buf, 64, false),
	   "start and length: inside passes, past the end or before the start fails");
	ok(!cx_mkey_dma(&core, e.pd, mtt, 0x10000, buf, 64, false) &&
	   cx_mkey_dma(&core, e.pd, mtt, 0x10000, buf, 64, true) &&
	   !cx_mkey_dma(&core, e.pd, mtt, 0x11000, buf, 64, true) &&
	   cx_mkey_dma(&core, e.pd, mtt, 0x11000, buf, 64, false),
	   "MTT entries: EN_RD reads only, EN_WR writes only");
	ok(cx_mkey_dma(&core, e.pd, other, DP_BUF, buf, 64, false) &&
	   !cx_mkey_dma(&core, pd2, other, DP_BUF, buf, 64, false),
	   "a key of another protection domain: refused; its own: fine");

	/* A SEND gathering through the other domain's key: error CQE. */
	w = dp_wqebb(0);
	memset(w, 0, 64);
	dp_ctrl(w, MLX5_OPCODE_SEND, 0, sqn, 3, true);
	dp_dseg(w + 32, 100, other, DP_BUF);
	dp_sq_ring(e.uar, 1, w);
	c = dp_cqe(DP_TXCQ, 0);
	ok(dp_nframes == 0 && (c->op_own >> 4) == MLX5_CQE_REQ_ERR &&
	   ((struct mlx5_err_cqe *)c)->syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR &&
	   cx_sq_lookup(&core, sqn)->state == MLX5_SQC_STATE_ERR,
	   "SEND through another domain's key: LOCAL_PROT_ERR, SQ in error");
}


/*
 * Decompress the block whose title is CQE @ci of the 64-entry RX CQ as
 * upstream mlx5e_decompress_cqes_start()/_cont() do into @out (up to
 * @max): returns the number of CQEs, 0 if @ci holds no title.
 */
static uint32_t dp_decompress(uint32_t ci, bool hw_stridx, bool striding,
			      struct mlx5_cqe64 *out, uint32_t max)
{
	struct mlx5_cqe64 title = *dp_cqe(DP_RXCQ, ci & 63);
	struct mlx5_mini_cqe8 arr[8];
	uint32_t n, i, ctr;

	if (((title.op_own >> 2) & 3) != MLX5_COMPRESSED)
		return 0;
	n = be32toh(title.byte_cnt);
	ctr = be16toh(title.wqe_counter);
	for (i = 0; i < n && i < max; i++) {
		if (i == 0 || i % 8 == 0)
			memcpy(arr, dp_cqe(DP_RXCQ, (ci + (i ? i : 1)) & 63),
			       sizeof(arr));
		out[i] = title;
		out[i].byte_cnt = arr[i % 8].byte_cnt;
		out[i].check_sum = arr[i % 8].checksum;
		out[i].op_own = (uint8_t)((title.op_own & 0xf0) |
					  (((ci + i) >> 6) & 1));
		if (hw_stridx) {
			out[i].wqe_counter = arr[i % 8].stridx;
			continue;
		}
		out[i].wqe_counter = htobe16((uint16_t)ctr);
		ctr += striding ? (be32toh(out[i].byte_cnt) >> 16 & 0x7fff) : 1;
	}
	return n;
}

static void test_dp_cqe_comp(void)
{
	static const uint16_t lens[10] = { 60, 100, 200, 300, 400, 500, 600,
					   700, 800, 900 };
	struct mlx5_cqe64 d[16];
	struct eth_env e;
	uint32_t cqn, rqn, n, i;
	uint8_t frame[1000], f2[1000];
	bool good, same;

	good = eth_setup(&e, dp_mac);
	dp_link_up();
	eth_cq_comp_fmt = 2;
	good &= create_cq(&e, DP_RXCQ, 6, e.comp_eq, &cqn) != 0;
	eth_cq_comp_fmt = MLX5_CQE_FORMAT_CSUM;
	good &= create_cq(&e, DP_RXCQ, 6, e.comp_eq, &cqn) == 0;
	eth_cq_comp_fmt = -1;
	good &= create_rq(&e, cqn, false, &rqn) == 0;
	good &= dp_rx_steering(&e, &rqn, 1);
	good &= modify_q(false, rqn, MLX5_RQC_STATE_RST, MLX5_RQC_STATE_RDY) == 0;
	ok(good, "CQE compression: mini CQE format 2 refused, CSUM taken");
	core.params.cqe_comp = false;
	eth_cq_comp_fmt = MLX5_CQE_FORMAT_CSUM;
	ok(create_cq(&e, DP_TXCQ, 6, e.comp_eq, &n) != 0 &&
	   query_cap(MLX5_CAP_GENERAL, 0) == 0 &&
	   !CAP(cmd_hca_cap, cqe_compression) &&
	   !CAP(cmd_hca_cap, mini_cqe_resp_stride_index),
	   "cqe_compression off (property): not announced, cqe_comp_en refused");
	eth_cq_comp_fmt = -1;
	core.params.cqe_comp = true;
	ok(query_cap(MLX5_CAP_GENERAL, 1) == 0 &&
	   CAP(cmd_hca_cap, cqe_compression) &&
	   CAP(cmd_hca_cap, mini_cqe_resp_stride_index) &&
	   !CAP(cmd_hca_cap, enhanced_cqe_compression) &&
	   CAP(cmd_hca_cap, cqe_compression_max_num) == 64,
	   "cqe_compression, mini_cqe_resp_stride_index, max_num announced");

	for (i = 0; i < 32; i++)
		dp_dseg(fh.mem + Q_BASE + 0x20000 + 16 * i, 1024, e.mkey,
			DP_BUF + 0x8000 + 0x400 * i);
	put_be32(fh.mem + DBR_BASE + 0xc0, 32);
	fh.timer_deadline = 0;
	for (i = 0; i < 10; i++) {
		dp_make_frame(frame, dp_mac, lens[i], (uint8_t)i);
		cx_core_receive(&core, frame, lens[i]);
	}
	ok(cx_cq_lookup(&core, cqn)->prod == 0 && fh.timer_deadline &&
	   fh.timer_deadline <= fh.now && report_val("pcie.cqe.wr_req") == 0,
	   "10 frames in one step: CQEs held, the host timer due now");
	dp_fire();
	n = dp_decompress(0, false, false, d, 16);
	same = n == 10;
	for (i = 0; same && i < 10; i++)
		same = be32toh(d[i].byte_cnt) == lens[i] &&
		       be16toh(d[i].wqe_counter) == i &&
		       (d[i].op_own >> 4) == MLX5_CQE_RESP_SEND &&
		       (be32toh(d[i].flags_rqpn) & 0xffffff) == rqn &&
		       (d[i].hds_ip_ext & CQE_L4_OK) && d[i].check_sum;
	ok(same && cx_cq_lookup(&core, cqn)->prod == 10 &&
	   (dp_cqe(DP_RXCQ, 0)->op_own & 1) == 0,
	   "one block: title (owner 0, 10 CQEs), minis give byte counts, WQE counters 0..9");
	ok(report_val("pcie.cqe.wr_req") == 3 &&
	   report_val("pcie.cqe.wr_bytes") == 3 * 64 &&
	   report_val("cqe.comp_blocks") == 1 && report_val("cqe.comp_cqes") == 10 &&
	   report_val("rx.packets") == 10,
	   "10 CQEs in 3 slots written: title and two mini arrays (192 bytes, not 640)");
	for (i = 0; i < 10; i++) {
		dp_make_frame(frame, dp_mac, lens[i], (uint8_t)i);
		if (!memcmp(fh.mem + DP_BUF + 0x8000 + 0x400 * i, frame, lens[i]))
			continue;
		good = false;
	}
	ok(good, "the frames in WQEs 0..9");

	/* A UDP frame between TCP ones: other header types, a new block. */
	dp_make_frame(frame, dp_mac, 200, 1);
	memcpy(f2, frame, 200);
	f2[23] = 17;
	put_be16(f2 + 38, 180);
	cx_core_receive(&core, frame, 200);
	cx_core_receive(&core, frame, 200);
	cx_core_receive(&core, f2, 200);
	cx_core_receive(&core, frame, 200);
	dp_fire();
	n = dp_decompress(10, false, false, d, 16);
	ok(n == 2 && be16toh(d[1].wqe_counter) == 11 &&
	   ((dp_cqe(DP_RXCQ, 12)->op_own >> 2) & 3) == 0 &&
	   ((dp_cqe(DP_RXCQ, 13)->op_own >> 2) & 3) == 0 &&
	   be16toh(dp_cqe(DP_RXCQ, 13)->wqe_counter) == 13 &&
	   report_val("cqe.comp_blocks") == 2,
	   "a CQE that differs in the title's fields ends the block; a block of one is a plain CQE");

	/* BAD_RX_CQE title kinds: the next block's title miscounts, once. */
	n = (uint32_t)report_val("rx.bad_cqe_injected");
	tp_wr(CX_TP_BAD_RX_CQE, CX_TP_BAD_CQE_TITLE_ZERO << 28 | rqn);
	for (i = 0; i < 3; i++)
		cx_core_receive(&core, frame, 200);
	dp_fire();
	ok(cx_cq_lookup(&core, cqn)->prod == 17 &&
	   ((dp_cqe(DP_RXCQ, 14)->op_own >> 2) & 3) == MLX5_COMPRESSED &&
	   dp_cqe(DP_RXCQ, 14)->byte_cnt == 0 && !core.faults.bad_rx_cqe &&
	   report_val("rx.bad_cqe_injected") == n + 1,
	   "BAD_RX_CQE title_zero: the block of 3 written, its title counts 0");
	tp_wr(CX_TP_BAD_RX_CQE, CX_TP_BAD_CQE_TITLE_LONG << 28 | CX_TP_ANY_RQ);
	for (i = 0; i < 2; i++)
		cx_core_receive(&core, frame, 200);
	dp_fire();
	ok(cx_cq_lookup(&core, cqn)->prod == 19 &&
	   be32toh(dp_cqe(DP_RXCQ, 17)->byte_cnt) == 65 &&
	   !core.faults.bad_rx_cqe &&
	   report_val("rx.bad_cqe_injected") == n + 2,
	   "BAD_RX_CQE title_long: the block of 2 written, its title counts 65 (a 64-entry CQ)");
	for (i = 0; i < 2; i++)
		cx_core_receive(&core, frame, 200);
	dp_fire();
	ok(dp_decompress(19, false, false, d, 16) == 2 &&
	   report_val("rx.bad_cqe_injected") == n + 2,
	   "one-shot: the next block counts right");

	/* An error CQE never joins: the held ones go first. */
	cx_core_receive(&core, frame, 200);
	cx_core_receive(&core, frame, 200);
	core.faults.err_cqe_rqn = rqn;
	cx_core_receive(&core, frame, 200);
	ok(cx_cq_lookup(&core, cqn)->prod == 24 &&
	   dp_decompress(21, false, false, d, 16) == 2 &&
	   (dp_cqe(DP_RXCQ, 23)->op_own >> 4) == MLX5_CQE_RESP_ERR &&
	   ((dp_cqe(DP_RXCQ, 23)->op_own >> 2) & 3) == 0,
	   "error CQE: the block before it written first, the error CQE plain");
	dp_fire();
	ok(cx_cq_lookup(&core, cqn)->prod == 24, "nothing left held");
}

static unsigned int dp_nlooped;

/* The host's loop_frame: back into the device, as QEMU's glue does. */
static void dp_loop(void *opaque, unsigned int port, const void *buf,
		    size_t len)
{
	(void)opaque;
	(void)port;
	dp_nlooped++;
	cx_core_receive(&core, buf, len);
}

static int pplr_rw(bool write, uint32_t lb_en, uint32_t *cap, uint32_t *en)
{
	uint8_t reg[MLX5_ST_SZ_BYTES(pplr_reg)];
	int st;

	memset(reg, 0, sizeof(reg));
	MLX5_SET(pplr_reg, reg, local_port, 1);
	MLX5_SET(pplr_reg, reg, lb_en, lb_en);
	st = access_reg(0x5018, write, reg, sizeof(reg));
	if (cap)
		*cap = MLX5_GET(pplr_reg, reg, lb_cap);
	if (en)
		*en = MLX5_GET(pplr_reg, reg, lb_en);
	return st;
}

/* SEND WQE @idx of 100 bytes, rung on its page. */
static void dp_send_one(struct eth_env *e, uint32_t sqn, uint16_t idx)
{
	dp_send_at(e, sqn, idx, e->uar, 0x800);
}

/*
 * Phy local loopback (PPLR): lb_cap, lb_en 0 or phy local only (other
 * loopbacks, two at once, another port: BAD_PARAM, nothing changed); in
 * effect once the link retrains; then a sent frame is counted as sent,
 * goes to the host's loop_frame, not the wire, and comes back in as
 * received; off (after a retrain), back to the wire; a reset clears it.
 */
static void test_dp_loopback(void)
{
	static const uint32_t bad[] = { 0x1, 0x4, 0x80, 0x3, 0x6, 0x10 };
	uint8_t pcam[MLX5_ST_SZ_BYTES(pcam_reg)];
	void *regs = MLX5_ADDR_OF(pcam_reg, pcam,
				  port_access_reg_cap_mask.regs_5000_to_507f);
	struct cx_port *p;
	struct eth_env e;
	uint32_t cqn, sqn, cap = 0, en = 1, i;
	uint64_t rx0, tx0;
	bool good;

	good = dp_tx_setup(&e, &cqn, &sqn);
	core.host.loop_frame = dp_loop;
	dp_nlooped = 0;
	p = &core.func.nic->port;
	memset(pcam, 0, sizeof(pcam));
	good &= access_reg(0x507f, false, pcam, sizeof(pcam)) == 0;
	ok(good && (MLX5_GET(pcam_regs_5000_to_507f, regs,
			     port_access_reg_cap_mask_31_to_13) & 1u << (24 - 13)),
	   "loopback: PCAM lists PPLR (0x5018, bit 24)");
	ok(pplr_rw(false, 0, &cap, &en) == 0 && cap == 0x2 && en == 0,
	   "PPLR: lb_cap phy local only, lb_en 0 out of reset");
	good = true;
	for (i = 0; i < CX_ARRAY_SIZE(bad); i++)
		good &= pplr_rw(true, bad[i], NULL, NULL) ==
			MLX5_CMD_STAT_BAD_PARAM_ERR;
	ok(good && p->lb_admin == 0 && report_val("port.lb_en") == 0,
	   "PPLR: remote, external, LL, two bits, reserved: BAD_PARAM, nothing changed");
	{
		uint8_t reg[MLX5_ST_SZ_BYTES(pplr_reg)];

		memset(reg, 0, sizeof(reg));
		MLX5_SET(pplr_reg, reg, local_port, 2);
		MLX5_SET(pplr_reg, reg, lb_en, 0x2);
		ok(access_reg(0x5018, true, reg, sizeof(reg)) ==
		   MLX5_CMD_STAT_BAD_PARAM_ERR && p->lb_admin == 0,
		   "PPLR of local port 2: BAD_PARAM");
	}

	ok(pplr_rw(true, 0x2, NULL, &en) == 0 && en == 0x2 &&
	   report_val("port.lb_en") == 2 && report_val("port.lb_active") == 0,
	   "PPLR: phy local written; the running link is not looped yet");
	dp_send_one(&e, sqn, 0);
	ok(dp_nframes == 1 && dp_nlooped == 0,
	   "before a retrain the frame still goes to the wire");

	port_toggle();
	rx0 = p->rx.frames;
	tx0 = p->tx.frames;
	dp_send_one(&e, sqn, 1);
	ok(report_val("port.lb_active") == 2 && dp_nframes == 1 &&
	   dp_nlooped == 1 && p->tx.frames == tx0 + 1 &&
	   p->rx.frames == rx0 + 1 && report_val("port.lb_frames") == 1,
	   "retrained: the frame is sent, looped back and received, none on the wire");

	ok(pplr_rw(true, 0, NULL, NULL) == 0, "PPLR: loopback off written");
	dp_send_one(&e, sqn, 2);
	ok(dp_nlooped == 2 && dp_nframes == 1,
	   "still looped until the link retrains");
	port_toggle();
	dp_send_one(&e, sqn, 3);
	ok(dp_nlooped == 2 && dp_nframes == 2 &&
	   report_val("port.lb_active") == 0,
	   "retrained without loopback: back on the wire");

	ok(pplr_rw(true, 0x2, NULL, NULL) == 0, "PPLR: phy local again");
	cx_nic_release_all(&core);
	ok(p->lb_admin == 0 && p->lb_link == 0 && p->lb_frames == 0,
	   "a function reset clears the loopback");
	core.host.loop_frame = NULL;
}

static void test_dp_all(void)
{
	test_dp_tx();
	test_dp_loopback();
	test_dp_tx_checks();
	test_dp_moderation();
	test_dp_rx_cyclic();
	test_dp_rx_striding();
	test_dp_rx_striding_pages();
	test_dp_cqe_comp();
	test_dp_umr_faults();
	test_dp_async();
	test_dp_mkey_rights();
}
