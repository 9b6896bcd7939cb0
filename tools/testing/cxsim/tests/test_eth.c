// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Ethernet control path tests, included by test_core.c after test_cmd.c:
 * the objects a netdev open creates (PD, TD, mkey, counters, CQ, SQ, RQ,
 * TIS, RQT, TIR, flow tables), their state machines, bad references,
 * vport/port commands and events, and leak counts.
 */

#include "cx_obj.h"

#define Q_BASE		0x380000ULL	/* queue buffers, 4 KiB pages */
#define DBR_BASE	0x3f0000ULL

struct eth_env {
	uint32_t uar, async_eq, comp_eq, pd, td, mkey, qc, tis;
};

static uint32_t *eth_in;
static uint32_t eth_out[1024];

/* A zeroed input of @len bytes with the opcode set. */
static void *eth_cmd(uint16_t opcode, size_t len)
{
	free(eth_in);
	eth_in = calloc(1, len);
	MLX5_SET(nop_in, eth_in, opcode, opcode);
	return eth_in;
}

static int eth_exec(size_t inlen)
{
	memset(eth_out, 0, sizeof(eth_out));
	return cmd_status(eth_in, inlen, eth_out, sizeof(eth_out));
}

#define OUT(lay, f)	MLX5_GET(lay, eth_out, f)

static int eth_simple(uint16_t op, size_t len, const char *field_lay, ...)
{
	(void)field_lay;
	eth_cmd(op, len);
	return eth_exec(len);
}

/* CQE compression for the next create_cq(): a mini CQE format, or -1. */
static int eth_cq_comp_fmt = -1;

static int create_cq(struct eth_env *e, uint64_t buf, int log_size,
		     uint32_t eqn, uint32_t *cqn)
{
	size_t len = MLX5_ST_SZ_BYTES(create_cq_in) + 8 * 4;
	void *in = eth_cmd(MLX5_CMD_OP_CREATE_CQ, len);
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	int i, st;

	MLX5_SET(cqc, cqc, log_cq_size, log_size);
	MLX5_SET(cqc, cqc, uar_page, e->uar);
	MLX5_SET(cqc, cqc, c_eqn_or_apu_element, eqn);
	MLX5_SET(cqc, cqc, cq_period, 16);
	MLX5_SET(cqc, cqc, cq_max_count, 64);
	MLX5_SET64(cqc, cqc, dbr_addr, DBR_BASE + 0x40);
	if (eth_cq_comp_fmt >= 0) {
		MLX5_SET(cqc, cqc, cqe_comp_en, 1);
		MLX5_SET(cqc, cqc, mini_cqe_res_format, eth_cq_comp_fmt);
	}
	for (i = 0; i < 4; i++)
		MLX5_ARRAY_SET64(create_cq_in, in, pas, i, buf + i * 4096);
	st = eth_exec(len);
	*cqn = OUT(create_cq_out, cqn);
	return st;
}

static int create_sq(struct eth_env *e, uint32_t cqn, uint32_t tis,
		     uint32_t *sqn)
{
	size_t len = MLX5_ST_SZ_BYTES(create_sq_in) + 8 * 2;
	void *in = eth_cmd(MLX5_CMD_OP_CREATE_SQ, len);
	void *sqc = MLX5_ADDR_OF(create_sq_in, in, ctx);
	void *wq = MLX5_ADDR_OF(sqc, sqc, wq);
	int st;

	MLX5_SET(sqc, sqc, cqn, cqn);
	MLX5_SET(sqc, sqc, tis_lst_sz, 1);
	MLX5_SET(sqc, sqc, tis_num_0, tis);
	MLX5_SET(sqc, sqc, allow_multi_pkt_send_wqe, 1);
	MLX5_SET(sqc, sqc, min_wqe_inline_mode, 0);
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, pd, e->pd);
	MLX5_SET(wq, wq, uar_page, e->uar);
	MLX5_SET64(wq, wq, dbr_addr, DBR_BASE + 0x80);
	MLX5_SET(wq, wq, log_wq_stride, 6);
	MLX5_SET(wq, wq, log_wq_sz, 7);	/* 8 KiB: 2 pages */
	MLX5_ARRAY_SET64(create_sq_in, in, ctx.wq.pas, 0, Q_BASE + 0x10000);
	MLX5_ARRAY_SET64(create_sq_in, in, ctx.wq.pas, 1, Q_BASE + 0x11000);
	st = eth_exec(len);
	*sqn = OUT(create_sq_out, sqn);
	return st;
}

/*
 * An RQ of 8 WQEs (striding: of 2^@log_strides strides of 2^@log_stride_sz
 * bytes; the extended range below 2^9 strides as 10..15) or a legacy one.
 */
static int create_rq_geom(struct eth_env *e, uint32_t cqn, bool striding,
			  int log_strides, int log_stride_sz, uint32_t *rqn)
{
	size_t len = MLX5_ST_SZ_BYTES(create_rq_in) + 8 * 2;
	void *in = eth_cmd(MLX5_CMD_OP_CREATE_RQ, len);
	void *rqc = MLX5_ADDR_OF(create_rq_in, in, ctx);
	void *wq = MLX5_ADDR_OF(rqc, rqc, wq);
	int st;

	MLX5_SET(rqc, rqc, cqn, cqn);
	MLX5_SET(rqc, rqc, counter_set_id, e->qc);
	MLX5_SET(wq, wq, wq_type, striding ? MLX5_WQ_TYPE_LINKED_LIST_STRIDING_RQ :
					     MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, pd, e->pd);
	MLX5_SET64(wq, wq, dbr_addr, DBR_BASE + 0xc0);
	MLX5_SET(wq, wq, log_wq_stride, striding ? 6 : 4);
	MLX5_SET(wq, wq, log_wq_sz, striding ? 3 : 9);	/* 512 B / 8 KiB */
	if (striding) {
		MLX5_SET(wq, wq, log_wqe_num_of_strides,
			 (log_strides - MLX5_MPWQE_LOG_NUM_STRIDES_BASE) & 0xf);
		MLX5_SET(wq, wq, log_wqe_stride_size,
			 log_stride_sz - MLX5_MPWQE_LOG_STRIDE_SZ_BASE);
	}
	MLX5_ARRAY_SET64(create_rq_in, in, ctx.wq.pas, 0, Q_BASE + 0x20000);
	MLX5_ARRAY_SET64(create_rq_in, in, ctx.wq.pas, 1, Q_BASE + 0x21000);
	st = eth_exec(len);
	*rqn = OUT(create_rq_out, rqn);
	return st;
}

/* Striding: 512 strides of 64 bytes. */
static int create_rq(struct eth_env *e, uint32_t cqn, bool striding,
		     uint32_t *rqn)
{
	return create_rq_geom(e, cqn, striding, 9, 6, rqn);
}

static int modify_q(bool sq, uint32_t n, int cur, int next)
{
	size_t len = sq ? MLX5_ST_SZ_BYTES(modify_sq_in) :
			  MLX5_ST_SZ_BYTES(modify_rq_in);
	void *in = eth_cmd(sq ? MLX5_CMD_OP_MODIFY_SQ : MLX5_CMD_OP_MODIFY_RQ,
			   len);

	if (sq) {
		MLX5_SET(modify_sq_in, in, sqn, n);
		MLX5_SET(modify_sq_in, in, sq_state, cur);
		MLX5_SET(modify_sq_in, in, ctx.state, next);
	} else {
		MLX5_SET(modify_rq_in, in, rqn, n);
		MLX5_SET(modify_rq_in, in, rq_state, cur);
		MLX5_SET(modify_rq_in, in, ctx.state, next);
		MLX5_SET64(modify_rq_in, in, modify_bitmask,
			   MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_VSD);
		MLX5_SET(modify_rq_in, in, ctx.vsd, 1);
	}
	return eth_exec(len);
}

static int destroy_obj(uint16_t op, uint32_t n)
{
	/* Every DESTROY_* here has its number at bits 8..31 of dword 2. */
	void *in = eth_cmd(op, 64);

	MLX5_SET(destroy_cq_in, in, cqn, n);
	return eth_exec(64);
}

static int create_rqt(const uint32_t *rqns, int n, int max, uint32_t *rqtn)
{
	size_t len = MLX5_ST_SZ_BYTES(create_rqt_in) + 4 * max;
	void *in = eth_cmd(MLX5_CMD_OP_CREATE_RQT, len);
	void *rqtc = MLX5_ADDR_OF(create_rqt_in, in, rqt_context);
	int i, st;

	MLX5_SET(rqtc, rqtc, rqt_max_size, max);
	MLX5_SET(rqtc, rqtc, rqt_actual_size, n);
	for (i = 0; i < n; i++)
		MLX5_SET(rqtc, rqtc, rq_num[i], rqns[i]);
	st = eth_exec(len);
	*rqtn = OUT(create_rqt_out, rqtn);
	return st;
}

static int create_tir(struct eth_env *e, uint32_t rqtn, int lro,
		      uint32_t *tirn)
{
	size_t len = MLX5_ST_SZ_BYTES(create_tir_in);
	void *in = eth_cmd(MLX5_CMD_OP_CREATE_TIR, len);
	void *tirc = MLX5_ADDR_OF(create_tir_in, in, ctx);
	void *hf = MLX5_ADDR_OF(tirc, tirc, rx_hash_field_selector_outer);
	int st;

	MLX5_SET(tirc, tirc, transport_domain, e->td);
	MLX5_SET(tirc, tirc, disp_type, MLX5_TIRC_DISP_TYPE_INDIRECT);
	MLX5_SET(tirc, tirc, indirect_table, rqtn);
	MLX5_SET(tirc, tirc, rx_hash_fn, MLX5_RX_HASH_FN_TOEPLITZ);
	MLX5_SET(tirc, tirc, self_lb_block, 1);
	memset(MLX5_ADDR_OF(tirc, tirc, rx_hash_toeplitz_key), 0x6d, 40);
	MLX5_SET(rx_hash_field_select, hf, l3_prot_type, MLX5_L3_PROT_TYPE_IPV4);
	MLX5_SET(rx_hash_field_select, hf, l4_prot_type, MLX5_L4_PROT_TYPE_TCP);
	MLX5_SET(rx_hash_field_select, hf, selected_fields, 0xf);
	/* lro 1: IPv4 LRO without a timeout, 2: a full one, 3: SHAMPO */
	if (lro)
		MLX5_SET(tirc, tirc, packet_merge_mask, lro == 3 ? 4 : 1);
	if (lro == 2) {
		MLX5_SET(tirc, tirc, lro_timeout_period_usecs, 32);
		MLX5_SET(tirc, tirc, lro_max_ip_payload_size, 255);
	}
	st = eth_exec(len);
	*tirn = OUT(create_tir_out, tirn);
	return st;
}

static int create_ft(int level, int log_size, uint32_t miss, uint32_t *id)
{
	size_t len = MLX5_ST_SZ_BYTES(create_flow_table_in);
	void *in = eth_cmd(MLX5_CMD_OP_CREATE_FLOW_TABLE, len);
	int st;

	MLX5_SET(create_flow_table_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(create_flow_table_in, in, flow_table_context.level, level);
	MLX5_SET(create_flow_table_in, in, flow_table_context.log_size, log_size);
	if (miss) {
		MLX5_SET(create_flow_table_in, in,
			 flow_table_context.table_miss_action, 1);
		MLX5_SET(create_flow_table_in, in,
			 flow_table_context.table_miss_id, miss);
	}
	st = eth_exec(len);
	*id = OUT(create_flow_table_out, table_id);
	return st;
}

/* A group on the outer dmac (or ethertype) of entries @start..@end. */
static int create_fg(uint32_t ft, int start, int end, bool dmac, uint32_t *id)
{
	size_t len = MLX5_ST_SZ_BYTES(create_flow_group_in);
	void *in = eth_cmd(MLX5_CMD_OP_CREATE_FLOW_GROUP, len);
	void *oh = MLX5_ADDR_OF(create_flow_group_in, in,
				match_criteria.outer_headers);
	int st;

	MLX5_SET(create_flow_group_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(create_flow_group_in, in, table_id, ft);
	MLX5_SET(create_flow_group_in, in, start_flow_index, start);
	MLX5_SET(create_flow_group_in, in, end_flow_index, end);
	MLX5_SET(create_flow_group_in, in, match_criteria_enable,
		 MLX5_MATCH_OUTER_HEADERS);
	if (dmac)
		memset(MLX5_ADDR_OF(fte_match_set_lyr_2_4, oh, dmac_47_16), 0xff, 6);
	else
		MLX5_SET(fte_match_set_lyr_2_4, oh, ethertype, 0xffff);
	st = eth_exec(len);
	*id = OUT(create_flow_group_out, group_id);
	return st;
}

static int set_fte(uint32_t ft, uint32_t fg, int index, const uint8_t *dmac,
		   uint16_t ethertype, int dtype, uint32_t dest)
{
	size_t len = MLX5_ST_SZ_BYTES(set_fte_in) +
		     MLX5_ST_SZ_BYTES(dest_format_struct);
	void *in = eth_cmd(MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY, len);
	void *fc = MLX5_ADDR_OF(set_fte_in, in, flow_context);
	void *oh = MLX5_ADDR_OF(flow_context, fc, match_value.outer_headers);
	void *d = MLX5_ADDR_OF(flow_context, fc, destination);

	MLX5_SET(set_fte_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(set_fte_in, in, table_id, ft);
	MLX5_SET(set_fte_in, in, flow_index, index);
	MLX5_SET(flow_context, fc, group_id, fg);
	MLX5_SET(flow_context, fc, action, MLX5_FLOW_CONTEXT_ACTION_FWD_DEST);
	MLX5_SET(flow_context, fc, destination_list_size, 1);
	if (dmac)
		memcpy(MLX5_ADDR_OF(fte_match_set_lyr_2_4, oh, dmac_47_16), dmac, 6);
	MLX5_SET(fte_match_set_lyr_2_4, oh, ethertype, ethertype);
	MLX5_SET(dest_format_struct, d, destination_type, dtype);
	MLX5_SET(dest_format_struct, d, destination_id, dest);
	return eth_exec(len);
}

static int access_reg(uint16_t reg, bool write, void *data, size_t dlen)
{
	size_t len = MLX5_ST_SZ_BYTES(access_register_in) + dlen;
	void *in = eth_cmd(MLX5_CMD_OP_ACCESS_REG, len);
	int st;

	MLX5_SET(access_register_in, in, op_mod, write ? 0 : 1);
	MLX5_SET(access_register_in, in, register_id, reg);
	memcpy((uint8_t *)in + MLX5_ST_SZ_BYTES(access_register_in), data, dlen);
	st = eth_exec(len);
	memcpy(data, (uint8_t *)eth_out + MLX5_ST_SZ_BYTES(access_register_out),
	       dlen);
	return st;
}

static bool eth_setup(struct eth_env *e, const uint8_t *mac)
{
	bool good = true;

	start_dev();
	if (mac) {
		/* The glue's "mac" property, then a reset to take it. */
		memcpy(core.params.mac, mac, 6);
		cx_core_reset(&core);
		fh.now += 100 * MS;
		wr32be(ISEG(cmdq_addr_h), 0);
		wr32be(ISEG(cmdq_addr_l_sz), (uint32_t)CMDQ_ADDR);
		fh.now += 20 * MS;
	}
	good &= bring_up();
	good &= alloc_uar(&e->uar) == 0;
	good &= create_eq(EQ_BASE, 6, e->uar, 0,
			  1ull << MLX5_EVENT_TYPE_PORT_CHANGE, &e->async_eq) == 0;
	eq_doorbell(e->uar, e->async_eq, 0, 1);
	good &= create_eq(EQ_BASE + 0x10000, 6, e->uar, 1,
			  1ull << MLX5_EVENT_TYPE_COMP, &e->comp_eq) == 0;
	good &= eth_simple(MLX5_CMD_OP_ALLOC_PD, 16, NULL) == 0;
	e->pd = OUT(alloc_pd_out, pd);
	good &= eth_simple(MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN, 16, NULL) == 0;
	e->td = OUT(alloc_transport_domain_out, transport_domain);
	good &= eth_simple(MLX5_CMD_OP_ALLOC_Q_COUNTER, 16, NULL) == 0;
	e->qc = OUT(alloc_q_counter_out, counter_set_id);
	{
		size_t len = MLX5_ST_SZ_BYTES(create_mkey_in);
		void *in = eth_cmd(MLX5_CMD_OP_CREATE_MKEY, len);
		void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);

		MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_PA);
		MLX5_SET(mkc, mkc, lw, 1);
		MLX5_SET(mkc, mkc, lr, 1);
		MLX5_SET(mkc, mkc, length64, 1);
		MLX5_SET(mkc, mkc, pd, e->pd);
		MLX5_SET(mkc, mkc, qpn, 0xffffff);
		MLX5_SET(mkc, mkc, mkey_7_0, 0x42);
		good &= eth_exec(len) == 0;
		e->mkey = OUT(create_mkey_out, mkey_index) << 8 | 0x42;
	}
	{
		size_t len = MLX5_ST_SZ_BYTES(create_tis_in);
		void *in = eth_cmd(MLX5_CMD_OP_CREATE_TIS, len);

		MLX5_SET(create_tis_in, in, ctx.transport_domain, e->td);
		good &= eth_exec(len) == 0;
		e->tis = OUT(create_tis_out, tisn);
	}
	return good;
}

static void test_eth_open_close(void)
{
	static const uint8_t mac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct eth_env e;
	uint32_t dcq, drq, cq, sq, rq, rqt, tir, ft, ft2, fg, fg2, cq2;
	struct mlx5_eqe *eqe = gmem(EQ_BASE);
	uint8_t frame[64] = { 0 };
	struct cx_fs_spec key;
	struct cx_fte *hit;
	uint8_t reg[64];
	bool good = true;

	ok(eth_setup(&e, mac), "driver-like setup: PD, TD, Q counter, PA mkey, TIS");
	ok(cx_mkey_lookup(&core, e.mkey) && cx_mkey_lookup(&core, e.mkey)->length64 &&
	   !cx_mkey_lookup(&core, e.mkey ^ 1), "mkey found by its full value only");

	/* Permanent MAC from the function's property. */
	eth_cmd(MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT,
		MLX5_ST_SZ_BYTES(query_nic_vport_context_in));
	ok(eth_exec(MLX5_ST_SZ_BYTES(query_nic_vport_context_in)) == 0 &&
	   !memcmp((uint8_t *)MLX5_ADDR_OF(query_nic_vport_context_out, eth_out,
					   nic_vport_context.permanent_address) + 2,
		   mac, 6), "QUERY_NIC_VPORT_CONTEXT: permanent MAC");

	/* Drop RQ, RQT, TIR, like mlx5e_open_drop_rq and rx_res. */
	good &= create_cq(&e, Q_BASE, 6, e.comp_eq, &dcq) == 0;
	good &= create_rq(&e, dcq, false, &drq) == 0;
	good &= modify_q(false, drq, MLX5_RQC_STATE_RST, MLX5_RQC_STATE_RDY) == 0;
	good &= create_rqt(&drq, 1, 256, &rqt) == 0;
	good &= create_tir(&e, rqt, 0, &tir) == 0;
	ok(good, "drop RQ (RST->RDY), RQT of 256, Toeplitz TIR");
	ok(cx_tir_lookup(&core, tir) && cx_tir_lookup(&core, tir)->rqtn == rqt &&
	   cx_tir_lookup(&core, tir)->outer.fields == 0xf &&
	   cx_tir_lookup(&core, tir)->key[0] == 0x6d &&
	   cx_rq_lookup(&core, drq)->vsd, "TIR hash and RQ vsd stored");

	/* Steering: L2 table (dmac -> TIR) misses to an ethertype table. */
	good = create_ft(2, 4, 0, &ft2) == 0;
	good &= create_ft(1, 4, ft2, &ft) == 0;
	good &= create_fg(ft, 0, 7, true, &fg) == 0;
	good &= create_fg(ft2, 0, 15, false, &fg2) == 0;
	good &= set_fte(ft, fg, 1, mac, 0, MLX5_IFC_FLOW_DESTINATION_TYPE_TIR, tir) == 0;
	good &= set_fte(ft, fg, 0, bcast, 0, MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE, ft2) == 0;
	good &= set_fte(ft2, fg2, 3, NULL, 0x0800, MLX5_IFC_FLOW_DESTINATION_TYPE_TIR, tir) == 0;
	{
		void *in = eth_cmd(MLX5_CMD_OP_SET_FLOW_TABLE_ROOT,
				   MLX5_ST_SZ_BYTES(set_flow_table_root_in));

		MLX5_SET(set_flow_table_root_in, in, table_id, ft);
		good &= eth_exec(MLX5_ST_SZ_BYTES(set_flow_table_root_in)) == 0;
	}
	ok(good && core.func.nic->root_ft == ft, "tables, groups, entries, root");

	memcpy(frame, mac, 6);
	frame[12] = 0x08;
	frame[14] = 0x45;
	frame[23] = 6;
	ok(!cx_fs_parse_frame(frame, sizeof(frame), &key) && key.ip_version == 4 &&
	   key.ip_protocol == 6 && key.ethertype == 0x0800, "frame parsed");
	hit = cx_fs_match(&core, cx_ft_lookup(&core, ft), &key);
	ok(hit && hit->index == 1 && hit->dest[0].type == MLX5_IFC_FLOW_DESTINATION_TYPE_TIR &&
	   hit->dest[0].id == tir, "own dmac matches entry 1 -> TIR");
	frame[0] = 0x04;
	cx_fs_parse_frame(frame, sizeof(frame), &key);
	ok(!cx_fs_match(&core, cx_ft_lookup(&core, ft), &key) &&
	   cx_ft_lookup(&core, ft)->miss_id == ft2 &&
	   cx_fs_match(&core, cx_ft_lookup(&core, ft2), &key)->index == 3,
	   "other dmac misses to the next table, matched by ethertype");

	/* Flow steering errors. */
	ok(create_fg(ft, 4, 9, true, &fg2) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "overlapping flow group: BAD_PARAM");
	ok(set_fte(ft, fg, 9, mac, 0, 2, tir) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "entry outside its group: BAD_PARAM");
	ok(set_fte(ft, fg, 2, mac, 0, 2, 0x7777) == MLX5_CMD_STAT_BAD_RES_ERR,
	   "entry to a TIR that does not exist: BAD_RES");
	ok(set_fte(ft, fg, 1, mac, 0, 2, tir) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "entry set twice: BAD_PARAM");
	ok(set_fte(ft, fg, 2, mac, 0, 0, 0) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "vport destination without an e-switch: BAD_PARAM");
	{
		void *in = eth_cmd(MLX5_CMD_OP_DESTROY_FLOW_TABLE,
				   MLX5_ST_SZ_BYTES(destroy_flow_table_in));

		MLX5_SET(destroy_flow_table_in, in, table_id, ft);
		ok(eth_exec(MLX5_ST_SZ_BYTES(destroy_flow_table_in)) ==
		   MLX5_CMD_STAT_BAD_RES_STATE_ERR,
		   "destroying a table with groups: BAD_RES_STATE");
		in = eth_cmd(MLX5_CMD_OP_CREATE_FLOW_TABLE,
			     MLX5_ST_SZ_BYTES(create_flow_table_in));
		MLX5_SET(create_flow_table_in, in, table_type,
			 MLX5_FLOW_TABLE_TYPE_NIC_TX);
		ok(eth_exec(MLX5_ST_SZ_BYTES(create_flow_table_in)) ==
		   MLX5_CMD_STAT_BAD_PARAM_ERR, "NIC TX table (not announced): BAD_PARAM");
	}

	/* A channel: CQs, SQ, striding RQ; RQT switched to it. */
	good = create_cq(&e, Q_BASE + 0x4000, 6, e.comp_eq, &cq) == 0;
	good &= create_cq(&e, Q_BASE + 0x8000, 6, e.comp_eq, &cq2) == 0;
	good &= create_sq(&e, cq, e.tis, &sq) == 0;
	good &= modify_q(true, sq, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) == 0;
	good &= create_rq(&e, cq2, true, &rq) == 0;
	good &= modify_q(false, rq, MLX5_RQC_STATE_RST, MLX5_RQC_STATE_RDY) == 0;
	{
		size_t len = MLX5_ST_SZ_BYTES(modify_rqt_in) + 4;
		void *in = eth_cmd(MLX5_CMD_OP_MODIFY_RQT, len);

		MLX5_SET(modify_rqt_in, in, rqtn, rqt);
		MLX5_SET(modify_rqt_in, in, bitmask.rqn_list, 1);
		MLX5_SET(modify_rqt_in, in, ctx.rqt_actual_size, 1);
		MLX5_SET(modify_rqt_in, in, ctx.rq_num[0], rq);
		good &= eth_exec(len) == 0;
	}
	ok(good, "channel: CQs, SQ and striding RQ to RDY, RQT redirected");
	{
		struct cx_sq *s = cx_sq_lookup(&core, sq);
		struct cx_rq *r = cx_rq_lookup(&core, rq);
		struct cx_cq *c = cx_cq_lookup(&core, cq);

		ok(s && s->state == MLX5_SQC_STATE_RDY && s->cqn == cq &&
		   s->tisn == e.tis && s->allow_mpwqe && s->wq.log_sz == 7 &&
		   s->wq.pas.n == 2 && s->wq.dbr_addr == DBR_BASE + 0x80 &&
		   s->wq.uar_page == e.uar, "SQ context stored for the data path");
		ok(r && r->wq.type == MLX5_WQ_TYPE_LINKED_LIST_STRIDING_RQ &&
		   r->wq.log_num_strides == 9 && r->wq.log_stride_bytes == 6 &&
		   r->counter_set_id == e.qc && r->refs == 1,
		   "striding RQ decoded: 512 strides of 64 bytes");
		ok(c && c->log_size == 6 && c->eqn == e.comp_eq && c->pas.n == 1 &&
		   c->period == 16 && c->max_count == 64 && c->refs == 1,
		   "CQ context stored");
	}

	/* State machine and references. */
	ok(modify_q(true, sq, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) ==
	   MLX5_CMD_STAT_BAD_RES_STATE_ERR, "MODIFY_SQ naming the wrong state: BAD_RES_STATE");
	ok(modify_q(true, sq, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_ERR) == 0 &&
	   modify_q(true, sq, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RDY) ==
	   MLX5_CMD_STAT_BAD_RES_STATE_ERR &&
	   modify_q(true, sq, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST) == 0 &&
	   modify_q(true, sq, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY) == 0,
	   "SQ RDY->ERR, ERR->RDY refused, ERR->RST->RDY (recovery)");
	ok(create_sq(&e, 0x7777, e.tis, &sq) == MLX5_CMD_STAT_BAD_RES_ERR,
	   "CREATE_SQ on a CQ that does not exist: BAD_RES");
	ok(create_sq(&e, cq, 0x7777, &sq) == MLX5_CMD_STAT_BAD_RES_ERR,
	   "CREATE_SQ on a TIS that does not exist: BAD_RES");
	ok(create_cq(&e, Q_BASE, 6, 50, &dcq) == MLX5_CMD_STAT_BAD_RES_ERR ||
	   create_cq(&e, Q_BASE, 6, 50, &dcq) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "CREATE_CQ on an EQ that does not exist: refused");
	ok(destroy_obj(MLX5_CMD_OP_DESTROY_CQ, cq) == MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	   "DESTROY_CQ with an SQ on it: BAD_RES_STATE");
	ok(destroy_obj(MLX5_CMD_OP_DESTROY_RQ, rq) == MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	   "DESTROY_RQ named by an RQT: BAD_RES_STATE");
	ok(create_tir(&e, rqt, 1, &tir) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "TIR with LRO without a timeout: BAD_PARAM");
	ok(create_tir(&e, rqt, 3, &tir) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "TIR with SHAMPO (not announced): BAD_PARAM");
	ok(create_tir(&e, rqt, 2, &tir) == 0 &&
	   cx_tir_lookup(&core, tir)->lro_mask == 1 &&
	   cx_tir_lookup(&core, tir)->lro_timeout_us == 32 &&
	   cx_tir_lookup(&core, tir)->lro_max_payload == 255 << 8 &&
	   destroy_obj(MLX5_CMD_OP_DESTROY_TIR, tir) == 0,
	   "TIR with LRO: mask, timeout and payload limit stored");
	ok(create_tir(&e, 0x9999, 0, &tir) == MLX5_CMD_STAT_BAD_RES_ERR,
	   "TIR on an RQT that does not exist: BAD_RES");
	tir = cx_tab_get(&core.func.nic->tir, 0x1100) ? 0x1100 : tir;
	ok(report_val("obj.cq") == 3 && report_val("obj.sq") == 1 &&
	   report_val("obj.rq") == 2 && report_val("obj.tir") == 1 &&
	   report_val("obj.fte") == 3 && report_val("obj.ft") == 2 &&
	   report_val("obj.fg") == 2, "report counts objects per type");

	/* Port: PMTU, PAOS up -> PORT_CHANGE active, vport state up. */
	memset(reg, 0, sizeof(reg));
	MLX5_SET(pmtu_reg, reg, local_port, 1);
	ok(access_reg(0x5003, false, reg, MLX5_ST_SZ_BYTES(pmtu_reg)) == 0 &&
	   MLX5_GET(pmtu_reg, reg, max_mtu) == 9978, "PMTU max_mtu 9978");
	MLX5_SET(pmtu_reg, reg, admin_mtu, 9022);
	ok(access_reg(0x5003, true, reg, MLX5_ST_SZ_BYTES(pmtu_reg)) == 0 &&
	   MLX5_GET(pmtu_reg, reg, oper_mtu) == 9022, "PMTU write sets oper_mtu");
	MLX5_SET(pmtu_reg, reg, admin_mtu, 10000);
	ok(access_reg(0x5003, true, reg, MLX5_ST_SZ_BYTES(pmtu_reg)) ==
	   MLX5_CMD_STAT_BAD_PARAM_ERR, "PMTU beyond max: BAD_PARAM");
	memset(reg, 0, sizeof(reg));
	MLX5_SET(paos_reg, reg, local_port, 1);
	MLX5_SET(paos_reg, reg, admin_status, 1);
	MLX5_SET(paos_reg, reg, ase, 1);
	ok(access_reg(0x5006, true, reg, MLX5_ST_SZ_BYTES(paos_reg)) == 0 &&
	   eqe[0].type == MLX5_EVENT_TYPE_PORT_CHANGE &&
	   eqe[0].sub_type == MLX5_PORT_CHANGE_SUBTYPE_ACTIVE &&
	   (eqe[0].data.port.port >> 4) == 1 && fh.vec_notifies[0] >= 1,
	   "PAOS admin up: PORT_CHANGE active on the async EQ, MSI-X");
	eth_cmd(MLX5_CMD_OP_QUERY_VPORT_STATE, MLX5_ST_SZ_BYTES(query_vport_state_in));
	ok(eth_exec(MLX5_ST_SZ_BYTES(query_vport_state_in)) == 0 &&
	   OUT(query_vport_state_out, state) == 1, "QUERY_VPORT_STATE: up");
	tp_wr(CX_TP_LINK_DOWN, 1);
	ok(eqe[1].sub_type == MLX5_PORT_CHANGE_SUBTYPE_DOWN && !core.func.nic->port.oper_up,
	   "test port link down: PORT_CHANGE down");
	tp_wr(CX_TP_LINK_DOWN, 0);
	ok(eqe[2].sub_type == MLX5_PORT_CHANGE_SUBTYPE_ACTIVE, "and back up");
	memset(reg, 0, sizeof(reg));
	MLX5_SET(ptys_reg, reg, local_port, 1);
	MLX5_SET(ptys_reg, reg, proto_mask, 1 << 2);
	ok(access_reg(0x5004, false, reg, MLX5_ST_SZ_BYTES(ptys_reg)) == 0 &&
	   MLX5_GET(ptys_reg, reg, eth_proto_oper) == 1u << 20,
	   "PTYS: 100GBASE-CR4 operational");
	memset(reg, 0, sizeof(reg));
	MLX5_SET(ppcnt_reg, reg, local_port, 1);
	{
		uint32_t reads = core.stats.reg_reads[5];

		ok(access_reg(0x5008, false, reg, 64) == 0, "PPCNT reads");
		ok(!strcmp(cx_reg_name(5), "PPCNT") &&
		   core.stats.reg_reads[5] == reads + 1,
		   "the report counts the PPCNT read (reg.PPCNT.reads)");
	}
	ok(access_reg(0x5041, false, reg, 16) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "PCMR (not in PCAM): BAD_PARAM");
	{
		size_t len = MLX5_ST_SZ_BYTES(modify_nic_vport_context_in) + 2 * 8;
		void *in = eth_cmd(MLX5_CMD_OP_MODIFY_NIC_VPORT_CONTEXT, len);
		void *ctx = MLX5_ADDR_OF(modify_nic_vport_context_in, in,
					 nic_vport_context);

		MLX5_SET(modify_nic_vport_context_in, in, field_select.mtu, 1);
		MLX5_SET(modify_nic_vport_context_in, in, field_select.addresses_list, 1);
		MLX5_SET(modify_nic_vport_context_in, in, field_select.promisc, 1);
		MLX5_SET(nic_vport_context, ctx, mtu, 9022);
		MLX5_SET(nic_vport_context, ctx, promisc_mc, 1);
		MLX5_SET(nic_vport_context, ctx, allowed_list_type, MLX5_NVPRT_LIST_TYPE_MC);
		MLX5_SET(nic_vport_context, ctx, allowed_list_size, 2);
		memcpy((uint8_t *)MLX5_ADDR_OF(nic_vport_context, ctx,
					       current_uc_mac_address[1]) + 2, bcast, 6);
		ok(eth_exec(len) == 0 && core.func.nic->vport.mtu == 9022 &&
		   core.func.nic->vport.nmc == 2 && core.func.nic->vport.promisc_mc &&
		   !memcmp(core.func.nic->vport.mc[1], bcast, 6),
		   "MODIFY_NIC_VPORT_CONTEXT: MTU, MC list, promisc");
		MLX5_SET(modify_nic_vport_context_in, in, other_vport, 1);
		ok(eth_exec(len) == MLX5_CMD_STAT_BAD_PARAM_ERR,
		   "other vport without an e-switch: BAD_PARAM");
	}
	{
		void *in = eth_cmd(MLX5_CMD_OP_MODIFY_CQ, MLX5_ST_SZ_BYTES(modify_cq_in));

		MLX5_SET(modify_cq_in, in, cqn, cq);
		MLX5_SET(modify_cq_in, in,
			 modify_field_select_resize_field_select.modify_field_select.modify_field_select,
			 3);
		MLX5_SET(modify_cq_in, in, cq_context.cq_period, 8);
		MLX5_SET(modify_cq_in, in, cq_context.cq_max_count, 32);
		ok(eth_exec(MLX5_ST_SZ_BYTES(modify_cq_in)) == 0 &&
		   cx_cq_lookup(&core, cq)->period == 8 &&
		   cx_cq_lookup(&core, cq)->max_count == 32, "MODIFY_CQ moderation");
	}

	/* Leak: disable with objects held. */
	fh.logs = 0;
	ok(simple_cmd(MLX5_CMD_OP_DISABLE_HCA, 0) == 0 &&
	   report_val("leak.obj.cq") == 3 && report_val("leak.obj.fte") == 3 &&
	   report_val("leak.obj.sq") == 1 && report_val("obj.cq") == 0 &&
	   report_val("obj.fte") == 0 && fh.logs == 1 &&
	   !core.func.nic->port.oper_up && core.func.nic->vport.nmc == 0,
	   "DISABLE_HCA with objects held: per-type leak report, all freed");
}

/* Open, then close in the driver's order: nothing left. */
static void test_eth_clean_close(void)
{
	struct eth_env e;
	uint32_t cq, sq, rq, rqt, tir, ft, fg;
	bool good;
	uint8_t mac[6] = { 2, 0, 0, 0, 0, 1 };

	good = eth_setup(&e, NULL);
	good &= create_cq(&e, Q_BASE, 6, e.comp_eq, &cq) == 0;
	good &= create_sq(&e, cq, e.tis, &sq) == 0;
	good &= create_rq(&e, cq, false, &rq) == 0;
	good &= create_rqt(&rq, 1, 4, &rqt) == 0;
	good &= create_tir(&e, rqt, 0, &tir) == 0;
	good &= create_ft(0, 2, 0, &ft) == 0;
	good &= create_fg(ft, 0, 3, true, &fg) == 0;
	good &= set_fte(ft, fg, 0, mac, 0, 2, tir) == 0;
	ok(good, "second open");
	{
		void *in = eth_cmd(MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY,
				   MLX5_ST_SZ_BYTES(delete_fte_in));

		MLX5_SET(delete_fte_in, in, table_id, ft);
		MLX5_SET(delete_fte_in, in, flow_index, 0);
		good = eth_exec(MLX5_ST_SZ_BYTES(delete_fte_in)) == 0;
		in = eth_cmd(MLX5_CMD_OP_DESTROY_FLOW_GROUP,
			     MLX5_ST_SZ_BYTES(destroy_flow_group_in));
		MLX5_SET(destroy_flow_group_in, in, table_id, ft);
		MLX5_SET(destroy_flow_group_in, in, group_id, fg);
		good &= eth_exec(MLX5_ST_SZ_BYTES(destroy_flow_group_in)) == 0;
		in = eth_cmd(MLX5_CMD_OP_DESTROY_FLOW_TABLE,
			     MLX5_ST_SZ_BYTES(destroy_flow_table_in));
		MLX5_SET(destroy_flow_table_in, in, table_id, ft);
		good &= eth_exec(MLX5_ST_SZ_BYTES(destroy_flow_table_in)) == 0;
	}
	good &= destroy_obj(MLX5_CMD_OP_DESTROY_TIR, tir) == 0;
	good &= destroy_obj(MLX5_CMD_OP_DESTROY_RQT, rqt) == 0;
	good &= destroy_obj(MLX5_CMD_OP_DESTROY_RQ, rq) == 0;
	good &= destroy_obj(MLX5_CMD_OP_DESTROY_SQ, sq) == 0;
	good &= destroy_obj(MLX5_CMD_OP_DESTROY_CQ, cq) == 0;
	good &= destroy_obj(MLX5_CMD_OP_DESTROY_TIS, e.tis) == 0;
	good &= destroy_obj(MLX5_CMD_OP_DESTROY_MKEY, e.mkey >> 8) == 0;
	{
		void *in = eth_cmd(MLX5_CMD_OP_DEALLOC_Q_COUNTER, 16);

		MLX5_SET(dealloc_q_counter_in, in, counter_set_id, e.qc);
		good &= eth_exec(16) == 0;
		in = eth_cmd(MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, 16);
		MLX5_SET(dealloc_transport_domain_in, in, transport_domain, e.td);
		good &= eth_exec(16) == 0;
		in = eth_cmd(MLX5_CMD_OP_DEALLOC_PD, 16);
		MLX5_SET(dealloc_pd_in, in, pd, e.pd);
		good &= eth_exec(16) == 0;
	}
	good &= destroy_eq(e.comp_eq) == 0 && destroy_eq(e.async_eq) == 0 &&
		dealloc_uar(e.uar) == 0;
	ok(good, "close in the driver's order: every destroy OK");
	ok(destroy_obj(MLX5_CMD_OP_DESTROY_CQ, cq) == MLX5_CMD_STAT_BAD_RES_ERR,
	   "destroying twice: BAD_RES");
	ok(report_val("obj.cq") == 0 && report_val("obj.pd") == 0 &&
	   report_val("obj.q_counter") == 0 && report_val("obj.mkey") == 0 &&
	   report_val("obj.ft") == 0 && report_val("obj.fte") == 0,
	   "nothing left");
	simple_cmd(MLX5_CMD_OP_TEARDOWN_HCA, 0);
	while (take_pages(64, NULL) > 0)
		;
	ok(simple_cmd(MLX5_CMD_OP_DISABLE_HCA, 0) == 0 &&
	   report_val("leak.objects") == 0 && report_val("leak.pages") == 0,
	   "DISABLE_HCA: leak report zero");
}

/* A fresh report has the line "@key @val". */
static bool report_kv(const char *key, const char *val)
{
	char line[128];

	report_val(key);
	snprintf(line, sizeof(line), "\n%s %s\n", key, val);
	return strstr(core.report, line);
}

static int pplm_rw(bool write, void *reg)
{
	MLX5_SET(pplm_reg, reg, local_port, 1);
	return access_reg(0x5023, write, reg, MLX5_ST_SZ_BYTES(pplm_reg));
}

/* PAOS admin down then up: the link retrains. */
static void port_toggle(void)
{
	uint32_t reg[MLX5_ST_SZ_DW(paos_reg)];
	int up;

	for (up = 0; up < 2; up++) {
		memset(reg, 0, sizeof(reg));
		MLX5_SET(paos_reg, reg, local_port, 1);
		MLX5_SET(paos_reg, reg, admin_status, up ? 1 : 2);
		MLX5_SET(paos_reg, reg, ase, 1);
		access_reg(0x5006, true, reg, sizeof(reg));
	}
}

static uint64_t ppcnt_get(uint8_t grp, unsigned int bit_off)
{
	uint32_t reg[MLX5_ST_SZ_DW(ppcnt_reg)] = { 0 };
	uint8_t *set;
	uint64_t v = 0;
	unsigned int i;

	MLX5_SET(ppcnt_reg, reg, local_port, 1);
	MLX5_SET(ppcnt_reg, reg, grp, grp);
	if (access_reg(0x5008, false, reg, sizeof(reg)))
		return ~0ull;
	set = (uint8_t *)MLX5_ADDR_OF(ppcnt_reg, reg, counter_set) + bit_off / 8;
	for (i = 0; i < 8; i++)
		v = v << 8 | set[i];
	return v;
}

#define PHYS(f)	ppcnt_get(MLX5_PHYSICAL_LAYER_COUNTERS_GROUP, \
			  __mlx5_bit_off(phys_layer_cntrs, f##_high))

/*
 * FEC: PCAM announces PPLM and the statistical group; PPLM's caps per
 * speed, admin writes (auto, one mode the speed can run) and refusals, the
 * active mode following the admin one only once the link retrains; the
 * test port's blocks in PPCNT's physical layer groups, by mode.
 */
static void test_eth_fec(void)
{
	uint32_t reg[MLX5_ST_SZ_DW(ppcnt_reg)];
	struct eth_env e;

	ok(eth_setup(&e, NULL), "FEC: a function up");
	memset(reg, 0, sizeof(reg));
	ok(access_reg(0x507f, false, reg, MLX5_ST_SZ_BYTES(pcam_reg)) == 0 &&
	   MLX5_GET(pcam_reg, reg, port_access_reg_cap_mask.regs_5000_to_507f.pplm) &&
	   MLX5_GET(pcam_reg, reg, port_access_reg_cap_mask.regs_5000_to_507f.ppcnt) &&
	   !MLX5_GET(pcam_reg, reg, port_access_reg_cap_mask.regs_5000_to_507f.pbmc) &&
	   MLX5_GET(pcam_reg, reg, feature_cap_mask.enhanced_features.ppcnt_statistical_group) &&
	   !MLX5_GET(pcam_reg, reg, feature_cap_mask.enhanced_features.fec_50G_per_lane_in_pplm),
	   "PCAM: PPLM, PPCNT and its statistical group; no FEC per 50G lane");
	MLX5_SET(pcam_reg, reg, feature_group, 1);
	ok(access_reg(0x507f, false, reg, MLX5_ST_SZ_BYTES(pcam_reg)) ==
	   MLX5_CMD_STAT_BAD_PARAM_ERR, "PCAM of another feature group: BAD_PARAM");

	memset(reg, 0, sizeof(reg));
	ok(pplm_rw(false, reg) == 0 &&
	   MLX5_GET(pplm_reg, reg, fec_override_cap_10g_40g) == 0x3 &&
	   MLX5_GET(pplm_reg, reg, fec_override_cap_25g) == 0x7 &&
	   MLX5_GET(pplm_reg, reg, fec_override_cap_50g) == 0x7 &&
	   MLX5_GET(pplm_reg, reg, fec_override_cap_56g) == 0 &&
	   MLX5_GET(pplm_reg, reg, fec_override_cap_100g) == 0x5 &&
	   MLX5_GET(pplm_reg, reg, fec_override_admin_100g) == 0 &&
	   MLX5_GET(pplm_reg, reg, fec_mode_active) == 0,
	   "PPLM: caps per speed (no BASE-R at 100G), admin auto, link down: none active");
	port_toggle();
	memset(reg, 0, sizeof(reg));
	ok(pplm_rw(false, reg) == 0 &&
	   MLX5_GET(pplm_reg, reg, fec_mode_active) == 1u << 2 &&
	   report_kv("port.fec_active", "rs"),
	   "link up at 100G, auto: RS active");

	MLX5_SET(pplm_reg, reg, fec_override_admin_100g, 1u << 1);
	ok(pplm_rw(true, reg) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "PPLM: BASE-R at 100G (not in its cap): BAD_PARAM");
	MLX5_SET(pplm_reg, reg, fec_override_admin_100g, 0x5);
	ok(pplm_rw(true, reg) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "PPLM: two modes at once: BAD_PARAM");
	MLX5_SET(pplm_reg, reg, fec_override_admin_100g, 0);
	MLX5_SET(pplm_reg, reg, fec_override_admin_50g_1x, 1u << 7);
	ok(pplm_rw(true, reg) == MLX5_CMD_STAT_BAD_PARAM_ERR &&
	   report_kv("port.fec_admin.100g", "auto"),
	   "PPLM: FEC per 50G lane (not announced): BAD_PARAM, nothing changed");
	memset(reg, 0, sizeof(reg));
	MLX5_SET(pplm_reg, reg, fec_override_admin_10g_40g, 1u << 1);
	MLX5_SET(pplm_reg, reg, fec_override_admin_100g, 1u << 0);
	ok(pplm_rw(true, reg) == 0 &&
	   MLX5_GET(pplm_reg, reg, fec_override_admin_100g) == 1 &&
	   MLX5_GET(pplm_reg, reg, fec_override_admin_10g_40g) == 2 &&
	   MLX5_GET(pplm_reg, reg, fec_mode_active) == 1u << 2 &&
	   report_kv("port.fec_admin.100g", "off") &&
	   report_kv("port.fec_admin.10g_40g", "baser"),
	   "PPLM: admin off at 100G, BASE-R at 10G/40G: written, RS still active");

	tp_wr(CX_TP_FEC_CORRECTED, 7);
	tp_wr(CX_TP_FEC_UNCORRECTABLE, 2);
	ok(PHYS(rs_fec_corrected_blocks) == 7 &&
	   PHYS(rs_fec_uncorrectable_blocks) == 2 &&
	   PHYS(fc_fec_corrected_blocks_lane0) == 0 &&
	   ppcnt_get(MLX5_PHYSICAL_LAYER_STATISTICAL_GROUP,
		     __mlx5_bit_off(phys_layer_statistical_cntrs,
				    phy_corrected_bits_high)) == 7 &&
	   tp_rd(CX_TP_FEC_CORRECTED) == 7 &&
	   report_val("port.fec_corrected") == 7 &&
	   report_val("port.fec_uncorrectable") == 2,
	   "test port: 7 corrected, 2 uncorrectable RS blocks in PPCNT (phys layer, corrected bits)");

	port_toggle();
	memset(reg, 0, sizeof(reg));
	ok(pplm_rw(false, reg) == 0 &&
	   MLX5_GET(pplm_reg, reg, fec_mode_active) == 1u << 0 &&
	   ppcnt_get(MLX5_PHYSICAL_LAYER_COUNTERS_GROUP,
		     __mlx5_bit_off(phys_layer_cntrs, link_down_events)) >> 32 == 1,
	   "retrained: no FEC active; link down events counted");
	tp_wr(CX_TP_FEC_CORRECTED, 5);
	ok(PHYS(rs_fec_corrected_blocks) == 7 &&
	   report_val("port.fec_uncounted") == 5,
	   "no FEC running: blocks not counted");

	/* 10G only (PTYS), BASE-R there: counted per lane. */
	memset(reg, 0, sizeof(reg));
	MLX5_SET(ptys_reg, reg, local_port, 1);
	MLX5_SET(ptys_reg, reg, proto_mask, 1 << 2);
	MLX5_SET(ptys_reg, reg, eth_proto_admin, 1u << 12);
	ok(access_reg(0x5004, true, reg, MLX5_ST_SZ_BYTES(ptys_reg)) == 0,
	   "PTYS: 10GBASE-CR only");
	port_toggle();
	tp_wr(CX_TP_FEC_CORRECTED, 6);
	tp_wr(CX_TP_FEC_UNCORRECTABLE, 1);
	ok(report_kv("port.fec_active", "baser") &&
	   PHYS(fc_fec_corrected_blocks_lane0) == 2 &&
	   PHYS(fc_fec_corrected_blocks_lane1) == 2 &&
	   PHYS(fc_fec_corrected_blocks_lane2) == 1 &&
	   PHYS(fc_fec_corrected_blocks_lane3) == 1 &&
	   PHYS(fc_fec_uncorrectable_blocks_lane0) == 1 &&
	   PHYS(fc_fec_uncorrectable_blocks_lane1) == 0 &&
	   PHYS(rs_fec_corrected_blocks) == 7,
	   "BASE-R at 10G: 6 corrected blocks over 4 lanes (2 2 1 1), 1 uncorrectable on lane 0");
	ok(simple_cmd(MLX5_CMD_OP_DISABLE_HCA, 0) == 0, "FEC: function disabled");
}

static int vxlan_port(bool add, uint16_t port)
{
	void *in;

	if (add) {
		in = eth_cmd(MLX5_CMD_OP_ADD_VXLAN_UDP_DPORT,
			     MLX5_ST_SZ_BYTES(add_vxlan_udp_dport_in));
		MLX5_SET(add_vxlan_udp_dport_in, in, vxlan_udp_port, port);
		return eth_exec(MLX5_ST_SZ_BYTES(add_vxlan_udp_dport_in));
	}
	in = eth_cmd(MLX5_CMD_OP_DELETE_VXLAN_UDP_DPORT,
		     MLX5_ST_SZ_BYTES(delete_vxlan_udp_dport_in));
	MLX5_SET(delete_vxlan_udp_dport_in, in, vxlan_udp_port, port);
	return eth_exec(MLX5_ST_SZ_BYTES(delete_vxlan_udp_dport_in));
}

static void test_eth_vxlan(void)
{
	struct cx_tun_ports *t;
	struct eth_env e;
	bool good;

	ok(eth_setup(&e, NULL), "VXLAN: a function up");
	t = &core.func.nic->tun;
	ok(t->nvxlan == 1 && cx_tun_port_known(t, 4789),
	   "VXLAN port table: 4789 from reset");
	good = vxlan_port(false, 4789) == 0 && t->nvxlan == 0 &&
	       vxlan_port(true, 4789) == 0 && vxlan_port(true, 4789) == 0 &&
	       t->nvxlan == 1 && cx_tun_port_known(t, 4789);
	ok(good, "4789 deleted, then added twice: one entry");
	good = vxlan_port(true, 1000) == 0 && vxlan_port(true, 1001) == 0 &&
	       vxlan_port(true, 1002) == 0 &&
	       vxlan_port(true, 1003) == MLX5_CMD_STAT_LIM_ERR &&
	       !cx_tun_port_known(t, 1003);
	ok(good, "a fifth port: LIM_ERR, max_vxlan_udp_ports is 4");
	good = vxlan_port(false, 1001) == 0 && !cx_tun_port_known(t, 1001) &&
	       cx_tun_port_known(t, 1002) &&
	       vxlan_port(false, 1001) == MLX5_CMD_STAT_BAD_PARAM_ERR &&
	       vxlan_port(true, 1003) == 0;
	ok(good, "DELETE_VXLAN_UDP_DPORT: gone; again, or unknown: BAD_PARAM");
	cx_nic_release_all(&core);
	ok(t->nvxlan == 1 && cx_tun_port_known(t, 4789),
	   "the function's release returns the table to 4789 alone");
}

static void test_eth_all(void)
{
	test_eth_open_close();
	test_eth_clean_close();
	test_eth_fec();
	test_eth_vxlan();
	free(eth_in);
	eth_in = NULL;
}
