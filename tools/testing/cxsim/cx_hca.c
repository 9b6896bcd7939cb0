// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: the function's life cycle and what it tells about itself.
 *
 *	disabled --ENABLE_HCA--> enabled --INIT_HCA--> initialised
 *	disabled <-DISABLE_HCA-- enabled <-TEARDOWN_HCA- initialised
 *
 * ISSI, capabilities (one table), QUERY_ADAPTER, and the one access
 * register a driver writes before INIT_HCA (host endianness).
 */
#include <stdio.h>
#include <string.h>

#include "cx_kshim.h"
#include "cx_obj.h"

/* Numbers from <linux/mlx5/driver.h> and vport.h, which the model avoids. */
#define CX_REG_HOST_ENDIANNESS		0x7004
#define CX_INLINE_MODE_VPORT_CONTEXT	1
#define CX_INLINE_MODE_NOT_REQUIRED	2

#define CX_SUPPORTED_ISSI		0x3	/* ISSI 0 and 1 */
#define CX_PSID				"MT_0000000008"
#define CX_IEEE_VENDOR_ID		0x0002c9

const char *cx_hca_state_name(enum cx_hca_state state)
{
	switch (state) {
	case CX_HCA_DISABLED:		return "disabled";
	case CX_HCA_ENABLED:		return "enabled";
	case CX_HCA_INITIALISED:	return "initialised";
	}
	return "?";
}

/* ---- capabilities ------------------------------------------------------ */

/*
 * One capability field: group, position in the group's layout, and the
 * maximum and default current value.  Fields not listed are 0 in both.
 */
struct cx_cap {
	uint8_t type;
	uint16_t bit_off;
	uint8_t bit_sz;
	uint32_t max;
	uint32_t cur;
};

#define CAPF(t, lay, f, m, c)						\
	{ t, __mlx5_bit_off(lay, f), __mlx5_bit_sz(lay, f), m, c }
#define GEN(f, v)	CAPF(MLX5_CAP_GENERAL, cmd_hca_cap, f, v, v)
#define GEN2(f, m, c)	CAPF(MLX5_CAP_GENERAL, cmd_hca_cap, f, m, c)
#define ETH(f, v)	CAPF(MLX5_CAP_ETHERNET_OFFLOADS,		\
			     per_protocol_networking_offload_caps, f, v, v)
#define FT(f, v)	CAPF(MLX5_CAP_FLOW_TABLE, flow_table_nic_cap,	\
			     flow_table_properties_nic_receive.f, v, v)

/*
 * A ConnectX-5 Ethernet function: one port, no RoCE, no SR-IOV, no
 * e-switch management.  Sizes are modest: they bound the model's tables.
 */
static const struct cx_cap cx_caps[] = {
	GEN(port_type,			MLX5_CAP_PORT_TYPE_ETH),
	GEN(num_ports,			1),
	GEN(cqe_version,		1),
	GEN2(uar_4k,			1, 0),
	GEN(num_of_uars_per_page,	1),
	GEN(log_bf_reg_size,		CX_LOG_BF_REG_SIZE),
	GEN(log_pg_sz,			12),
	GEN(log_max_eq,			6),
	GEN(max_num_eqs,		CX_MAX_EQS),
	GEN(log_max_eq_sz,		CX_LOG_MAX_EQ_SZ),
	GEN(log_max_cq,			12),
	GEN(log_max_cq_sz,		22),
	GEN(log_max_qp,			12),
	GEN(log_max_qp_sz,		15),
	GEN(log_max_sq,			12),
	GEN(log_max_rq,			12),
	GEN(log_max_wq_sz,		16),
	GEN(log_max_tir,		12),
	GEN(log_max_tis,		12),
	GEN(log_max_rqt,		12),
	GEN(log_max_rqt_size,		8),
	GEN(log_max_pd,			16),
	GEN(log_max_transport_domain,	12),
	GEN(log_max_mkey,		16),
	GEN(log_max_msg,		30),
	GEN(log_max_current_uc_list,	7),
	GEN(log_max_current_mc_list,	12),
	GEN(striding_rq,		1),
	GEN(ext_stride_num_range,	1),	/* data path: striding RQ at MTU 1500 */
	GEN(eth_net_offloads,		1),
	GEN(nic_flow_table,		1),
	/* PCAM lists the port registers and features (cx_reg.c). */
	GEN(pcam_reg,			1),
	GEN(log_uar_page_sz,		0),
	/* The internal timer counts nanoseconds (cx_iseg.c): 1 GHz. */
	GEN(device_frequency_khz,	1000000),
	/* CQ moderation, from EQE or from CQE (cx_queues.c); MODIFY_CQ may
	 * change the period mode (cx_cq.c), what net_dim needs.
	 */
	GEN(cq_moderation,		1),
	GEN(cq_period_start_from_cqe,	1),
	GEN(cq_period_mode_modify,	1),
	/*
	 * Basic CQE compression (cx_cq.c), the checksum and stride index
	 * mini CQE formats; a block ends with the device's step, well
	 * within the timeout (us).
	 */
	GEN(cqe_compression,		1),
	GEN(mini_cqe_resp_stride_index,	1),
	GEN(cqe_compression_timeout,	16),
	GEN(cqe_compression_max_num,	CX_CQ_COMP_MAX),
	/* Striding RQ through UMR WQEs on an MTT mkey. */
	GEN(umr_ptr_rlky,		1),
	GEN(max_wqe_sz_sq,		1024),
	GEN(max_wqe_sz_rq,		1024),
	GEN(max_qp_cnt,			32),
	GEN(log_max_vlan_list,		12),
	ETH(csum_cap,			1),
	/*
	 * LRO on IPv4/IPv6 TCP (cx_lro.c), PSH segments aggregated (they
	 * close the session), segments with the timestamp option too, a
	 * ConnectX-5's timer periods (us); no
	 * tunneled LRO; the TIR limits the IP payload.
	 */
	ETH(lro_cap,			1),
	ETH(lro_psh_flag,		1),
	ETH(lro_time_stamp,		1),
	ETH(lro_timer_supported_periods[0], 8),
	ETH(lro_timer_supported_periods[1], 16),
	ETH(lro_timer_supported_periods[2], 32),
	ETH(lro_timer_supported_periods[3], 1024),
	ETH(vlan_cap,			1),
	ETH(self_lb_en_modifiable,	1),
	ETH(reg_umr_sq,			1),
	ETH(max_lso_cap,		16),
	/*
	 * VXLAN: inner checksums and LSO of VXLAN frames on the ports of
	 * the ADD_VXLAN_UDP_DPORT table, the tunneled CQE bit on receive
	 * (cx_csum.c, cx_lso.c, cx_nic.c).
	 */
	ETH(tunnel_stateless_vxlan,	1),
	ETH(max_vxlan_udp_ports,	CX_VXLAN_MAX_PORTS),
	/*
	 * GENEVE: parsed on receive on 6081 (tunneled CQE, inner verdict);
	 * on send only through the eseg's software parser offsets, which
	 * the inner checksums and LSO follow (swp, swp_csum, swp_lso).
	 */
	ETH(tunnel_stateless_geneve_rx,	1),
	/*
	 * GRE (Ethernet, IPv4 or IPv6 inside) and IPv4/IPv6 in IPv4/IPv6:
	 * parsed on send and receive as VXLAN is (cx_csum.c).  A
	 * ConnectX-5 has the one ip_over_ip bit, not its _rx/_tx split.
	 */
	ETH(tunnel_stateless_gre,	1),
	ETH(tunnel_stateless_ip_over_ip, 1),
	ETH(swp,			1),
	ETH(swp_csum,			1),
	ETH(swp_lso,			1),
	ETH(rss_ind_tbl_cap,		8),
	/*
	 * NIC receive tables only, with the chaining capabilities the
	 * driver's namespaces need (fs_core.c FS_CHAINING_CAPS) and enough
	 * levels for its ANCHOR namespace.  No NIC transmit, FDB, RDMA or
	 * sniffer tables.
	 */
	FT(ft_support,			1),
	FT(flow_modify_en,		1),
	FT(modify_root,			1),
	FT(identified_miss_table_mode,	1),
	FT(flow_table_modify,		1),
	FT(log_max_ft_size,		16),
	FT(log_max_ft_num,		8),
	FT(max_ft_level,		255),
	FT(log_max_flow,		16),
	FT(log_max_destination,		6),
};

/* Groups the model answers; the general caps announce no other. */
static int cx_cap_supported(unsigned int type)
{
	return type == MLX5_CAP_GENERAL || type == MLX5_CAP_ETHERNET_OFFLOADS ||
	       type == MLX5_CAP_FLOW_TABLE || type == MLX5_CAP_GENERAL_2;
}

/* Fill @buf (CX_CAP_BYTES) with group @type, maximum or default current. */
static void cx_caps_fill(struct cx_core *core, unsigned int type, int cur,
			 void *buf)
{
	unsigned int i;

	memset(buf, 0, CX_CAP_BYTES);
	for (i = 0; i < CX_ARRAY_SIZE(cx_caps); i++) {
		const struct cx_cap *c = &cx_caps[i];

		if (c->type == type)
			cx_bits_set(buf, c->bit_off, c->bit_sz,
				    cur ? c->cur : c->max);
	}
	/* Properties that change what the model is. */
	if (type == MLX5_CAP_GENERAL && !core->params.cqe_comp) {
		MLX5_SET(cmd_hca_cap, buf, cqe_compression, 0);
		MLX5_SET(cmd_hca_cap, buf, mini_cqe_resp_stride_index, 0);
		MLX5_SET(cmd_hca_cap, buf, cqe_compression_timeout, 0);
		MLX5_SET(cmd_hca_cap, buf, cqe_compression_max_num, 0);
	}
	if (type == MLX5_CAP_ETHERNET_OFFLOADS) {
		MLX5_SET(per_protocol_networking_offload_caps, buf,
			 enhanced_multi_pkt_send_wqe, core->params.mpwqe);
		MLX5_SET(per_protocol_networking_offload_caps, buf,
			 wqe_vlan_insert, core->params.vlan_insert);
		/* A required mode is the NIC vport context's (cx_vport.c). */
		MLX5_SET(per_protocol_networking_offload_caps, buf,
			 wqe_inline_mode,
			 core->params.min_inline ? CX_INLINE_MODE_VPORT_CONTEXT :
						   CX_INLINE_MODE_NOT_REQUIRED);
	}
}

/*
 * General capability fields a driver may set (upstream handle_hca_cap()
 * and ours).  Switches cannot go beyond the maximum; sizes are taken.
 */
struct cx_settable {
	uint16_t bit_off;
	uint8_t bit_sz;
	uint8_t is_switch;
};

#define SETF(f, sw)	{ __mlx5_bit_off(cmd_hca_cap, f),		\
			  __mlx5_bit_sz(cmd_hca_cap, f), sw }

static const struct cx_settable cx_settable[] = {
	SETF(pkey_table_size, 0),
	SETF(log_max_qp, 0),
	SETF(cmdif_checksum, 1),
	SETF(uar_4k, 1),
	SETF(log_uar_page_sz, 0),
	SETF(cache_line_128byte, 1),
	SETF(dct, 1),
	SETF(pci_sync_for_fw_update_event, 1),
	SETF(pci_sync_for_fw_update_with_driver_unload, 1),
	SETF(pcie_reset_using_hotreset_method, 1),
	SETF(num_vhca_ports, 1),
	SETF(release_all_pages, 1),
	SETF(mkey_by_name, 1),
	SETF(num_total_dynamic_vf_msix, 1),
	SETF(roce, 1),
	SETF(log_max_current_uc_list, 0),
	SETF(event_on_vhca_state_teardown_request, 1),
	SETF(event_on_vhca_state_in_use, 1),
	SETF(event_on_vhca_state_active, 1),
	SETF(event_on_vhca_state_allocated, 1),
	SETF(event_on_vhca_state_invalid, 1),
};

/*
 * The function goes away (DISABLE_HCA, reset, FLR): record what it still
 * holds, say so once on the host when that is not nothing, and free it.
 */
void cx_func_release(struct cx_core *core, const char *why)
{
	struct cx_leak *leak = &core->last_leak;
	uint32_t total = 0;
	unsigned int t;

	memset(leak, 0, sizeof(*leak));
	for (t = 0; t < CX_OBJ_NTYPES; t++) {
		leak->objects[t] = core->func.alive[t];
		total += leak->objects[t];
	}
	leak->pages = core->func.npages;
	if (total || leak->pages) {
		core->stats.leak_reports++;
		char list[512];
		size_t n = 0;

		list[0] = '\0';
		for (t = 0; t < CX_OBJ_NTYPES && n < sizeof(list); t++)
			if (leak->objects[t])
				n += snprintf(list + n, sizeof(list) - n, " %s %u",
					      cx_obj_name(t), leak->objects[t]);
		cx_log(core, "cxsim: %s with %u objects (%s ) and %u pages still held\n",
		       why, total, list, leak->pages);
	}
	cx_nic_release_all(core);
	cx_eq_release_all(core);
	cx_uar_release_all(core);
	cx_pages_release_all(core);
	memset(core->func.alive, 0, sizeof(core->func.alive));
}

void cx_hca_reset(struct cx_core *core)
{
	struct cx_func *f = &core->func;

	f->state = CX_HCA_DISABLED;
	f->issi = 0;
	f->host_endianness = 0;
	cx_caps_fill(core, MLX5_CAP_GENERAL, 1, f->cap_general_cur);
}

uint8_t cx_hca_query_cap(struct cx_cmd *cmd)
{
	unsigned int type = cmd->op_mod >> 1;
	int cur = cmd->op_mod & 1;
	void *cap = MLX5_ADDR_OF(query_hca_cap_out, cmd->out, capability);

	if (!cx_cap_supported(type) ||
	    MLX5_GET(query_hca_cap_in, cmd->in, other_function)) {
		cmd->syndrome = CX_SYND_BAD_PARAM;
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	}
	if (type == MLX5_CAP_GENERAL && cur)
		memcpy(cap, cmd->core->func.cap_general_cur, CX_CAP_BYTES);
	else
		cx_caps_fill(cmd->core, type, 0, cap);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_hca_set_cap(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	const void *in = MLX5_ADDR_OF(set_hca_cap_in, cmd->in, capability);
	uint8_t max[CX_CAP_BYTES];
	unsigned int i;

	if (cmd->op_mod >> 1 != MLX5_SET_HCA_CAP_OP_MOD_GENERAL_DEVICE) {
		cmd->syndrome = CX_SYND_BAD_PARAM;
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	}
	cx_caps_fill(core, MLX5_CAP_GENERAL, 0, max);
	for (i = 0; i < CX_ARRAY_SIZE(cx_settable); i++) {
		const struct cx_settable *s = &cx_settable[i];
		uint32_t v = cx_bits_get(in, s->bit_off, s->bit_sz);

		if (s->is_switch && v > cx_bits_get(max, s->bit_off, s->bit_sz))
			v = cx_bits_get(max, s->bit_off, s->bit_sz);
		cx_bits_set(core->func.cap_general_cur, s->bit_off, s->bit_sz, v);
	}
	return MLX5_CMD_STAT_OK;
}

/* ---- life cycle -------------------------------------------------------- */

uint8_t cx_hca_enable(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;

	if (MLX5_GET(enable_hca_in, cmd->in, function_id) ||
	    MLX5_GET(enable_hca_in, cmd->in, embedded_cpu_function)) {
		cmd->syndrome = CX_SYND_BAD_PARAM;
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	}
	if (core->func.state == CX_HCA_INITIALISED) {
		cmd->syndrome = CX_SYND_BAD_STATE;
		return MLX5_CMD_STAT_BAD_SYS_STATE_ERR;
	}
	/* Enabling an enabled function changes nothing. */
	if (core->func.state == CX_HCA_DISABLED) {
		core->stats.enables++;
		core->func.state = CX_HCA_ENABLED;
		/* The firmware (re)started: the health counter runs again. */
		cx_iseg_health_freeze(core, false);
	}
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_hca_disable(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;

	if (MLX5_GET(disable_hca_in, cmd->in, function_id) ||
	    MLX5_GET(disable_hca_in, cmd->in, embedded_cpu_function)) {
		cmd->syndrome = CX_SYND_BAD_PARAM;
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	}
	if (core->func.state == CX_HCA_DISABLED) {
		cmd->syndrome = CX_SYND_BAD_STATE;
		return MLX5_CMD_STAT_BAD_SYS_STATE_ERR;
	}
	cx_func_release(core, "DISABLE_HCA");
	cx_hca_reset(core);
	cx_iseg_health_freeze(core, false);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_hca_init(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;

	if (core->func.state != CX_HCA_ENABLED) {
		cmd->syndrome = CX_SYND_BAD_STATE;
		return MLX5_CMD_STAT_BAD_SYS_STATE_ERR;
	}
	core->func.state = CX_HCA_INITIALISED;
	cx_port_update(core);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_hca_teardown(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	unsigned int profile = MLX5_GET(teardown_hca_in, cmd->in, profile);

	if (profile != MLX5_TEARDOWN_HCA_IN_PROFILE_GRACEFUL_CLOSE) {
		/* force_teardown and fast_teardown are not announced. */
		cmd->syndrome = CX_SYND_BAD_PARAM;
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	}
	if (core->func.state != CX_HCA_INITIALISED) {
		cmd->syndrome = CX_SYND_BAD_STATE;
		return MLX5_CMD_STAT_BAD_SYS_STATE_ERR;
	}
	core->stats.teardowns++;
	core->func.state = CX_HCA_ENABLED;
	cx_port_update(core);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_hca_query_issi(struct cx_cmd *cmd)
{
	MLX5_SET(query_issi_out, cmd->out, current_issi, cmd->core->func.issi);
	MLX5_SET(query_issi_out, cmd->out, supported_issi_dw0,
		 CX_SUPPORTED_ISSI);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_hca_set_issi(struct cx_cmd *cmd)
{
	uint32_t issi = MLX5_GET(set_issi_in, cmd->in, current_issi);

	if (issi > 31 || !(CX_SUPPORTED_ISSI & (1u << issi))) {
		cmd->syndrome = CX_SYND_BAD_PARAM;
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	}
	cmd->core->func.issi = issi;
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_hca_query_adapter(struct cx_cmd *cmd)
{
	void *a = MLX5_ADDR_OF(query_adapter_out, cmd->out,
			       query_adapter_struct);

	MLX5_SET(query_adapter_param_block, a, ieee_vendor_id,
		 CX_IEEE_VENDOR_ID);
	MLX5_SET(query_adapter_param_block, a, vsd_vendor_id, 0x15b3);
	memcpy(MLX5_ADDR_OF(query_adapter_param_block, a, vsd_contd_psid),
	       CX_PSID, sizeof(CX_PSID) - 1);
	return MLX5_CMD_STAT_OK;
}

/*
 * ACCESS_REG: the host endianness register, which upstream writes
 * before INIT_HCA, here; port registers in cx_reg.c.
 */
uint8_t cx_hca_access_reg(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	unsigned int reg = MLX5_GET(access_register_in, cmd->in, register_id);
	size_t hdr_in = MLX5_ST_SZ_BYTES(access_register_in);
	size_t hdr_out = MLX5_ST_SZ_BYTES(access_register_out);
	const uint8_t *data_in = (const uint8_t *)cmd->in + hdr_in;
	uint8_t *data_out = (uint8_t *)cmd->out + hdr_out;

	if (reg != CX_REG_HOST_ENDIANNESS) {
		/* DTOR (0xc00e) is read before INIT_HCA (lib/tout.c). */
		if (core->func.state != CX_HCA_INITIALISED && reg != 0xc00e) {
			cmd->syndrome = CX_SYND_BAD_STATE;
			return MLX5_CMD_STAT_BAD_SYS_STATE_ERR;
		}
		return cx_reg_access(cmd, reg, cmd->op_mod == 0, data_in,
				     cmd->inlen - hdr_in, data_out,
				     cmd->outlen - hdr_out);
	}
	if (cmd->op_mod == 0 && cmd->inlen >= hdr_in + 4)	/* write */
		core->func.host_endianness = cx_get_be32(data_in);
	if (cmd->outlen >= hdr_out + 4) {
		data_out[0] = core->func.host_endianness >> 24;
		data_out[1] = core->func.host_endianness >> 16;
		data_out[2] = core->func.host_endianness >> 8;
		data_out[3] = core->func.host_endianness;
	}
	return MLX5_CMD_STAT_OK;
}
