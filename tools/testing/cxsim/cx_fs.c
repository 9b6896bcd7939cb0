// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: flow steering of the NIC receive side.
 *
 * Flow tables (level, size, miss action), flow groups (an index range of
 * a table and a match mask), flow table entries (a match value, an action
 * and destinations: TIRs, other tables, counters), the root table, and
 * flow counters.  Only the NIC RX table type is announced (no NIC TX, no
 * FDB, no RDMA, no sniffer tables): other types answer BAD_PARAM.
 *
 * Matching works on the outer L2-L4 headers (struct cx_fs_spec): group
 * masks and entry values are decoded from fte_match_set_lyr_2_4; a frame
 * is decoded the same way by cx_fs_parse_frame() and matched with
 * cx_fs_match().  Criteria outside the outer headers (misc, inner) are
 * stored as "unmodelled" and counted; the Ethernet driver does not use
 * them without tunnel or e-switch capabilities.
 */
#include <stdlib.h>
#include <string.h>

#include "cx_kshim.h"
#include "cx_obj.h"

#define CX_MAX_FT_LEVEL		255	/* = max_ft_level (cx_hca.c) */
#define CX_LOG_MAX_FT_SIZE	16
#define CX_FT_MISS_DEFAULT	0
#define CX_FT_MISS_FWD		1
#define CX_FTE_OPMOD_SET	0
#define CX_FTE_OPMOD_MODIFY	1
#define CX_FS_ACTIONS		(MLX5_FLOW_CONTEXT_ACTION_ALLOW |	\
				 MLX5_FLOW_CONTEXT_ACTION_DROP |	\
				 MLX5_FLOW_CONTEXT_ACTION_FWD_DEST |	\
				 MLX5_FLOW_CONTEXT_ACTION_COUNT)

/* ---- match specs ------------------------------------------------------- */

static void cx_spec_get(const void *h, struct cx_fs_spec *s)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->smac, MLX5_ADDR_OF(fte_match_set_lyr_2_4, h, smac_47_16), 6);
	memcpy(s->dmac, MLX5_ADDR_OF(fte_match_set_lyr_2_4, h, dmac_47_16), 6);
	s->ethertype = MLX5_GET(fte_match_set_lyr_2_4, h, ethertype);
	s->first_vid = MLX5_GET(fte_match_set_lyr_2_4, h, first_vid);
	s->first_prio = MLX5_GET(fte_match_set_lyr_2_4, h, first_prio);
	s->first_cfi = MLX5_GET(fte_match_set_lyr_2_4, h, first_cfi);
	s->cvlan_tag = MLX5_GET(fte_match_set_lyr_2_4, h, cvlan_tag);
	s->svlan_tag = MLX5_GET(fte_match_set_lyr_2_4, h, svlan_tag);
	s->ip_version = MLX5_GET(fte_match_set_lyr_2_4, h, ip_version);
	s->ip_protocol = MLX5_GET(fte_match_set_lyr_2_4, h, ip_protocol);
	s->ip_dscp = MLX5_GET(fte_match_set_lyr_2_4, h, ip_dscp);
	s->ip_ecn = MLX5_GET(fte_match_set_lyr_2_4, h, ip_ecn);
	s->frag = MLX5_GET(fte_match_set_lyr_2_4, h, frag);
	s->ttl = MLX5_GET(fte_match_set_lyr_2_4, h, ttl_hoplimit);
	s->tcp_flags = MLX5_GET(fte_match_set_lyr_2_4, h, tcp_flags);
	s->tcp_sport = MLX5_GET(fte_match_set_lyr_2_4, h, tcp_sport);
	s->tcp_dport = MLX5_GET(fte_match_set_lyr_2_4, h, tcp_dport);
	s->udp_sport = MLX5_GET(fte_match_set_lyr_2_4, h, udp_sport);
	s->udp_dport = MLX5_GET(fte_match_set_lyr_2_4, h, udp_dport);
	memcpy(s->src_ip, MLX5_ADDR_OF(fte_match_set_lyr_2_4, h,
				       src_ipv4_src_ipv6.ipv6_layout.ipv6), 16);
	memcpy(s->dst_ip, MLX5_ADDR_OF(fte_match_set_lyr_2_4, h,
				       dst_ipv4_dst_ipv6.ipv6_layout.ipv6), 16);
}

static void cx_spec_and(struct cx_fs_spec *v, const struct cx_fs_spec *m)
{
	uint8_t *a = (uint8_t *)v;
	const uint8_t *b = (const uint8_t *)m;
	size_t i;

	for (i = 0; i < sizeof(*v); i++)
		a[i] &= b[i];
}

static bool cx_spec_match(const struct cx_fs_spec *key,
			  const struct cx_fs_spec *val,
			  const struct cx_fs_spec *mask)
{
	const uint8_t *k = (const uint8_t *)key, *v = (const uint8_t *)val;
	const uint8_t *m = (const uint8_t *)mask;
	size_t i;

	for (i = 0; i < sizeof(*key); i++)
		if ((k[i] ^ v[i]) & m[i])
			return false;
	return true;
}

/* Whether a match param has non-zero bytes outside its outer headers. */
static bool cx_param_beyond_outer(const void *param, uint8_t enable)
{
	const uint8_t *p = param;
	size_t off = MLX5_ST_SZ_BYTES(fte_match_set_lyr_2_4);
	size_t len = MLX5_ST_SZ_BYTES(fte_match_param);
	size_t i;

	if (!(enable & ~MLX5_MATCH_OUTER_HEADERS))
		return false;
	for (i = off; i < len; i++)
		if (p[i])
			return true;
	return false;
}

struct cx_fte *cx_fs_match(struct cx_core *core, struct cx_ft *ft,
			   const struct cx_fs_spec *key)
{
	struct cx_fte *e;

	for (e = ft->ftes; e; e = e->next) {
		struct cx_fg *fg = cx_fg_lookup(core, e->group_id);

		if (fg && cx_spec_match(key, &e->value, &fg->mask))
			return e;
	}
	return NULL;
}

int cx_fs_parse_frame(const void *frame, size_t len, struct cx_fs_spec *k)
{
	const uint8_t *p = frame;
	size_t off = 14;
	uint16_t et;
	uint8_t proto = 0;
	bool first_frag = true;

	memset(k, 0, sizeof(*k));
	if (len < 14)
		return -1;
	memcpy(k->dmac, p, 6);
	memcpy(k->smac, p + 6, 6);
	et = cx_get_be16(p + 12);
	if ((et == 0x8100 || et == 0x88a8) && len >= off + 4) {
		uint16_t tci = cx_get_be16(p + off);

		if (et == 0x8100)
			k->cvlan_tag = 1;
		else
			k->svlan_tag = 1;
		k->first_prio = tci >> 13;
		k->first_cfi = tci >> 12 & 1;
		k->first_vid = tci & 0xfff;
		et = cx_get_be16(p + off + 2);
		off += 4;
		/* A second tag: skip it, as the first one names the VLAN. */
		if ((et == 0x8100 || et == 0x88a8) && len >= off + 4) {
			et = cx_get_be16(p + off + 2);
			off += 4;
		}
	}
	k->ethertype = et;
	if (et == 0x0800 && len >= off + 20) {
		const uint8_t *ip = p + off;
		size_t ihl = (ip[0] & 0xf) * 4u;
		uint16_t fo = cx_get_be16(ip + 6);

		k->ip_version = 4;
		k->ip_dscp = ip[1] >> 2;
		k->ip_ecn = ip[1] & 3;
		k->ttl = ip[8];
		proto = ip[9];
		k->frag = (fo & 0x3fff) != 0;
		first_frag = (fo & 0x1fff) == 0;
		memcpy(k->src_ip + 12, ip + 12, 4);
		memcpy(k->dst_ip + 12, ip + 16, 4);
		off += ihl < 20 ? 20 : ihl;
	} else if (et == 0x86dd && len >= off + 40) {
		const uint8_t *ip = p + off;

		k->ip_version = 6;
		k->ip_dscp = (uint8_t)((cx_get_be16(ip) >> 6) & 0x3f);
		k->ip_ecn = (ip[1] >> 4) & 3;
		k->ttl = ip[7];
		proto = ip[6];
		memcpy(k->src_ip, ip + 8, 16);
		memcpy(k->dst_ip, ip + 24, 16);
		off += 40;
	} else {
		return 0;
	}
	k->ip_protocol = proto;
	if (!first_frag)
		return 0;
	if (proto == 6 && len >= off + 14) {
		k->tcp_sport = cx_get_be16(p + off);
		k->tcp_dport = cx_get_be16(p + off + 2);
		k->tcp_flags = cx_get_be16(p + off + 12) & 0x1ff;
	} else if (proto == 17 && len >= off + 4) {
		k->udp_sport = cx_get_be16(p + off);
		k->udp_dport = cx_get_be16(p + off + 2);
	}
	return 0;
}

/* ---- flow tables ------------------------------------------------------- */

static void cx_ft_free_obj(struct cx_core *core, struct cx_ft *ft)
{
	struct cx_fte *e, *n;

	if (!ft)
		return;
	for (e = ft->ftes; e; e = n) {
		n = e->next;
		free(e);
		cx_obj_put(core, CX_OBJ_FTE);
	}
	free(ft);
}

/* Common checks of a flow steering command's table type and vport. */
static uint8_t cx_fs_check_type(struct cx_cmd *cmd, uint32_t type,
				uint32_t other_vport)
{
	if (other_vport)
		return CX_BAD_PARAM(cmd, "other_vport without an e-switch");
	if (type != MLX5_FLOW_TABLE_TYPE_NIC_RX)
		return CX_BAD_PARAM(cmd, "table type %u not announced", type);
	return MLX5_CMD_STAT_OK;
}

/* The table a command names, after the common checks; NULL sets @st. */
static struct cx_ft *cx_fs_table(struct cx_cmd *cmd, uint32_t type,
				 uint32_t other_vport, uint32_t id, uint8_t *st)
{
	struct cx_ft *ft;

	*st = cx_fs_check_type(cmd, type, other_vport);
	if (*st)
		return NULL;
	ft = cx_ft_lookup(cmd->core, id);
	*st = ft ? MLX5_CMD_STAT_OK : CX_BAD_RES(cmd, "flow table 0x%x", id);
	return ft;
}

/* The same, from the fields every flow steering input @ifc carries. */
#define cx_fs_check_in(cmd, ifc)					\
	cx_fs_check_type(cmd, MLX5_GET(ifc, (cmd)->in, table_type),	\
			 MLX5_GET(ifc, (cmd)->in, other_vport))
#define cx_fs_table_in(cmd, ifc, st)					\
	cx_fs_table(cmd, MLX5_GET(ifc, (cmd)->in, table_type),		\
		    MLX5_GET(ifc, (cmd)->in, other_vport),		\
		    MLX5_GET(ifc, (cmd)->in, table_id), st)

static uint8_t cx_ft_miss(struct cx_cmd *cmd, const void *ftc,
			  struct cx_ft *ft)
{
	uint32_t act = MLX5_GET(flow_table_context, ftc, table_miss_action);
	uint32_t id = MLX5_GET(flow_table_context, ftc, table_miss_id);
	struct cx_ft *next;

	if (act == CX_FT_MISS_DEFAULT) {
		ft->miss_action = act;
		ft->miss_id = 0;
		return MLX5_CMD_STAT_OK;
	}
	if (act != CX_FT_MISS_FWD)
		return CX_BAD_PARAM(cmd, "table_miss_action %u", act);
	next = cx_ft_lookup(cmd->core, id);
	if (!next || next == ft)
		return CX_BAD_RES(cmd, "miss table 0x%x", id);
	if (next->level <= ft->level)
		cx_log(cmd->core, "cxsim: flow table 0x%x (level %u) misses to 0x%x at level %u\n",
		       ft->id, ft->level, id, next->level);
	ft->miss_action = act;
	ft->miss_id = id;
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_ft_create(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	const void *ftc = MLX5_ADDR_OF(create_flow_table_in, cmd->in,
				       flow_table_context);
	struct cx_ft *ft;
	uint32_t id;
	uint8_t st;

	st = cx_fs_check_in(cmd, create_flow_table_in);
	if (st)
		return st;
	if (MLX5_GET(flow_table_context, ftc, reformat_en) ||
	    MLX5_GET(flow_table_context, ftc, decap_en) ||
	    MLX5_GET(flow_table_context, ftc, sw_owner) ||
	    MLX5_GET(flow_table_context, ftc, termination_table))
		return CX_BAD_PARAM(cmd, "reformat/decap/sw_owner/termination not announced");
	if (MLX5_GET(flow_table_context, ftc, level) > CX_MAX_FT_LEVEL)
		return CX_BAD_PARAM(cmd, "level %u",
				    MLX5_GET(flow_table_context, ftc, level));
	if (MLX5_GET(flow_table_context, ftc, log_size) > CX_LOG_MAX_FT_SIZE)
		return CX_BAD_PARAM(cmd, "log_size %u",
				    MLX5_GET(flow_table_context, ftc, log_size));
	ft = calloc(1, sizeof(*ft));
	if (!ft) {
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_NO_RES_ERR;
	}
	ft->type = CX_FS_NIC_RX;
	ft->level = MLX5_GET(flow_table_context, ftc, level);
	ft->log_size = MLX5_GET(flow_table_context, ftc, log_size);
	st = cx_ft_miss(cmd, ftc, ft);
	if (st) {
		free(ft);
		return st;
	}
	if (cx_tab_add(core, &core->func.nic->ft, ft, &id)) {
		free(ft);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	ft->id = id;
	MLX5_SET(create_flow_table_out, cmd->out, table_id, id);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_ft_destroy(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	uint32_t id = MLX5_GET(destroy_flow_table_in, cmd->in, table_id);
	struct cx_ft *ft;
	uint8_t st;

	ft = cx_fs_table_in(cmd, destroy_flow_table_in, &st);
	if (!ft)
		return st;
	if (ft->ngroups || ft->ftes)
		return CX_BAD_STATE(cmd, "flow table 0x%x still has %u groups",
				    id, ft->ngroups);
	if (core->func.nic->root_ft == id)
		core->func.nic->root_ft = 0;
	cx_tab_del(core, &core->func.nic->ft, id);
	cx_ft_free_obj(core, ft);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_ft_modify(struct cx_cmd *cmd)
{
	uint32_t sel = MLX5_GET(modify_flow_table_in, cmd->in,
				modify_field_select);
	const void *ftc = MLX5_ADDR_OF(modify_flow_table_in, cmd->in,
				       flow_table_context);
	struct cx_ft *ft;
	uint8_t st;

	ft = cx_fs_table_in(cmd, modify_flow_table_in, &st);
	if (!ft)
		return st;
	if (sel & ~MLX5_MODIFY_FLOW_TABLE_MISS_TABLE_ID)
		return CX_BAD_PARAM(cmd, "modify_field_select 0x%x", sel);
	if (sel & MLX5_MODIFY_FLOW_TABLE_MISS_TABLE_ID)
		return cx_ft_miss(cmd, ftc, ft);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_ft_set_root(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	uint32_t id = MLX5_GET(set_flow_table_root_in, cmd->in, table_id);
	uint8_t st;

	st = cx_fs_check_in(cmd, set_flow_table_root_in);
	if (st)
		return st;
	if (MLX5_GET(set_flow_table_root_in, cmd->in, underlay_qpn) ||
	    MLX5_GET(set_flow_table_root_in, cmd->in, table_of_other_vport) ||
	    MLX5_GET(set_flow_table_root_in, cmd->in,
		     table_eswitch_owner_vhca_id_valid))
		return CX_BAD_PARAM(cmd, "underlay/other vport root not supported");
	/* op_mod 1 disconnects the root (table_id ignored). */
	if (cmd->op_mod == 1) {
		core->func.nic->root_ft = 0;
		return MLX5_CMD_STAT_OK;
	}
	if (!cx_fs_table_in(cmd, set_flow_table_root_in, &st))
		return st;
	core->func.nic->root_ft = id;
	return MLX5_CMD_STAT_OK;
}

/* ---- flow groups ------------------------------------------------------- */

uint8_t cx_fg_create(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	struct cx_nic *nic = core->func.nic;
	uint32_t tid = MLX5_GET(create_flow_group_in, cmd->in, table_id);
	uint32_t start = MLX5_GET(create_flow_group_in, cmd->in,
				  start_flow_index);
	uint32_t end = MLX5_GET(create_flow_group_in, cmd->in, end_flow_index);
	uint8_t en = MLX5_GET(create_flow_group_in, cmd->in,
			      match_criteria_enable);
	const void *crit = MLX5_ADDR_OF(create_flow_group_in, cmd->in,
					match_criteria);
	struct cx_ft *ft;
	struct cx_fg *fg;
	uint32_t i, id;
	uint8_t st;

	ft = cx_fs_table_in(cmd, create_flow_group_in, &st);
	if (!ft)
		return st;
	if (MLX5_GET(create_flow_group_in, cmd->in, group_type) ||
	    MLX5_GET(create_flow_group_in, cmd->in, match_definer_id))
		return CX_BAD_PARAM(cmd, "hash-split/definer groups not announced");
	if (start > end || end >= (1u << ft->log_size))
		return CX_BAD_PARAM(cmd, "range %u..%u of a table of %u", start,
				    end, 1u << ft->log_size);
	for (i = 0; i < nic->fg.cap; i++) {
		struct cx_fg *o = nic->fg.slot[i];

		if (o && o->ft == tid && start <= o->end && o->start <= end)
			return CX_BAD_PARAM(cmd, "range %u..%u overlaps group 0x%x",
					    start, end, o->id);
	}
	if (cx_param_beyond_outer(crit, en))
		cx_log(core, "cxsim: CREATE_FLOW_GROUP: criteria beyond the outer headers (enable 0x%x) are not matched\n",
		       en);
	fg = calloc(1, sizeof(*fg));
	if (!fg || cx_tab_add(core, &nic->fg, fg, &id)) {
		free(fg);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	fg->id = id;
	fg->ft = tid;
	fg->start = start;
	fg->end = end;
	fg->criteria_enable = en;
	if (en & MLX5_MATCH_OUTER_HEADERS)
		cx_spec_get(MLX5_ADDR_OF(fte_match_param, crit, outer_headers),
			    &fg->mask);
	ft->ngroups++;
	MLX5_SET(create_flow_group_out, cmd->out, group_id, id);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_fg_destroy(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	uint32_t tid = MLX5_GET(destroy_flow_group_in, cmd->in, table_id);
	uint32_t gid = MLX5_GET(destroy_flow_group_in, cmd->in, group_id);
	struct cx_fg *fg = cx_fg_lookup(core, gid);
	struct cx_ft *ft;
	uint8_t st;

	ft = cx_fs_table_in(cmd, destroy_flow_group_in, &st);
	if (!ft)
		return st;
	if (!fg || fg->ft != tid)
		return CX_BAD_RES(cmd, "group 0x%x of table 0x%x", gid, tid);
	if (fg->nftes)
		return CX_BAD_STATE(cmd, "group 0x%x still has %u entries", gid,
				    fg->nftes);
	cx_tab_del(core, &core->func.nic->fg, gid);
	free(fg);
	ft->ngroups--;
	return MLX5_CMD_STAT_OK;
}

/* ---- flow table entries ------------------------------------------------ */

static struct cx_fte **cx_fte_slot(struct cx_ft *ft, uint32_t index)
{
	struct cx_fte **pp = &ft->ftes;

	while (*pp && (*pp)->index < index)
		pp = &(*pp)->next;
	return pp;
}

/* Decode the flow context of SET_FLOW_TABLE_ENTRY into @e. */
static uint8_t cx_fte_parse(struct cx_cmd *cmd, const struct cx_fg *fg,
			    uint32_t tid, struct cx_fte *e)
{
	struct cx_core *core = cmd->core;
	const void *fc = MLX5_ADDR_OF(set_fte_in, cmd->in, flow_context);
	size_t dst_off = MLX5_BYTE_OFF(set_fte_in, flow_context.destination);
	size_t stride = MLX5_ST_SZ_BYTES(dest_format_struct);
	uint32_t ndest = MLX5_GET(flow_context, fc, destination_list_size);
	uint32_t ncnt = MLX5_GET(flow_context, fc, flow_counter_list_size);
	uint32_t action = MLX5_GET(flow_context, fc, action);
	const uint8_t *d;
	uint32_t i;

	if (action & ~CX_FS_ACTIONS)
		return CX_BAD_PARAM(cmd, "action 0x%x not announced", action);
	if (MLX5_GET(flow_context, fc, extended_destination) ||
	    MLX5_GET(flow_context, fc, encrypt_decrypt_type) ||
	    MLX5_GET(flow_context, fc, packet_reformat_id) ||
	    MLX5_GET(flow_context, fc, modify_header_id))
		return CX_BAD_PARAM(cmd, "extended destinations/reformat/modify header not announced");
	if ((action & MLX5_FLOW_CONTEXT_ACTION_DROP) &&
	    (action & MLX5_FLOW_CONTEXT_ACTION_FWD_DEST))
		return CX_BAD_PARAM(cmd, "drop and forward");
	if (ndest > CX_FS_MAX_DEST || ncnt > CX_FS_MAX_DEST)
		return CX_BAD_PARAM(cmd, "%u destinations, %u counters", ndest,
				    ncnt);
	if (!(action & MLX5_FLOW_CONTEXT_ACTION_FWD_DEST) != !ndest)
		return CX_BAD_PARAM(cmd, "forward with %u destinations", ndest);
	if (!(action & MLX5_FLOW_CONTEXT_ACTION_COUNT) != !ncnt)
		return CX_BAD_PARAM(cmd, "count with %u counters", ncnt);
	if (cmd->inlen < dst_off || (cmd->inlen - dst_off) / stride < ndest + ncnt)
		return CX_BAD_PARAM(cmd, "input shorter than its destinations");
	memset(e, 0, sizeof(*e));
	e->action = action;
	e->flow_tag = MLX5_GET(flow_context, fc, flow_tag);
	e->group_id = fg->id;
	d = (const uint8_t *)cmd->in + dst_off;
	for (i = 0; i < ndest; i++, d += stride) {
		uint32_t type = MLX5_GET(dest_format_struct, d, destination_type);
		uint32_t id = MLX5_GET(dest_format_struct, d, destination_id);

		if (MLX5_GET(dest_format_struct, d, packet_reformat) ||
		    MLX5_GET(dest_format_struct, d,
			     destination_eswitch_owner_vhca_id_valid))
			return CX_BAD_PARAM(cmd, "destination %u: reformat/vhca", i);
		switch (type) {
		case MLX5_IFC_FLOW_DESTINATION_TYPE_TIR:
			if (!cx_tir_lookup(core, id))
				return CX_BAD_RES(cmd, "destination TIR 0x%x", id);
			break;
		case MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE: {
			struct cx_ft *to = cx_ft_lookup(core, id);

			if (!to || to->id == tid)
				return CX_BAD_RES(cmd, "destination table 0x%x", id);
			break;
		}
		default:
			/* Vports, uplink, samplers: e-switch features. */
			return CX_BAD_PARAM(cmd, "destination type 0x%x", type);
		}
		e->dest[i].type = type;
		e->dest[i].id = id;
	}
	e->ndest = ndest;
	for (i = 0; i < ncnt; i++, d += stride) {
		uint32_t id = MLX5_GET(flow_counter_list, d, flow_counter_id);

		if (!cx_fc_lookup(core, id))
			return CX_BAD_RES(cmd, "flow counter 0x%x", id);
		e->counter[i] = id;
	}
	e->ncounter = ncnt;
	if (fg->criteria_enable & MLX5_MATCH_OUTER_HEADERS)
		cx_spec_get(MLX5_ADDR_OF(flow_context, fc,
					 match_value.outer_headers), &e->value);
	cx_spec_and(&e->value, &fg->mask);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_fte_set(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	uint32_t tid = MLX5_GET(set_fte_in, cmd->in, table_id);
	uint32_t index = MLX5_GET(set_fte_in, cmd->in, flow_index);
	uint32_t gid = MLX5_GET(set_fte_in, cmd->in, flow_context.group_id);
	struct cx_fg *fg = cx_fg_lookup(core, gid);
	struct cx_fte **pp, *e, tmp;
	struct cx_ft *ft;
	uint8_t st;

	ft = cx_fs_table_in(cmd, set_fte_in, &st);
	if (!ft)
		return st;
	if (cmd->op_mod != CX_FTE_OPMOD_SET && cmd->op_mod != CX_FTE_OPMOD_MODIFY)
		return CX_BAD_PARAM(cmd, "op_mod %u", cmd->op_mod);
	if (!fg || fg->ft != tid)
		return CX_BAD_RES(cmd, "group 0x%x of table 0x%x", gid, tid);
	if (index < fg->start || index > fg->end)
		return CX_BAD_PARAM(cmd, "index %u outside group 0x%x (%u..%u)",
				    index, gid, fg->start, fg->end);
	pp = cx_fte_slot(ft, index);
	e = *pp && (*pp)->index == index ? *pp : NULL;
	if (cmd->op_mod == CX_FTE_OPMOD_SET && e)
		return CX_BAD_PARAM(cmd, "entry %u of table 0x%x exists", index,
				    tid);
	if (cmd->op_mod == CX_FTE_OPMOD_MODIFY && !e)
		return CX_BAD_RES(cmd, "no entry %u in table 0x%x", index, tid);
	st = cx_fte_parse(cmd, fg, tid, &tmp);
	if (st)
		return st;
	tmp.index = index;
	if (e) {
		/* Modify: the driver sends the whole context again. */
		tmp.next = e->next;
		*e = tmp;
		return MLX5_CMD_STAT_OK;
	}
	e = malloc(sizeof(*e));
	if (!e) {
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_NO_RES_ERR;
	}
	*e = tmp;
	e->next = *pp;
	*pp = e;
	ft->nftes++;
	fg->nftes++;
	cx_obj_get(core, CX_OBJ_FTE);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_fte_delete(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	uint32_t tid = MLX5_GET(delete_fte_in, cmd->in, table_id);
	uint32_t index = MLX5_GET(delete_fte_in, cmd->in, flow_index);
	struct cx_fte **pp, *e;
	struct cx_fg *fg;
	struct cx_ft *ft;
	uint8_t st;

	ft = cx_fs_table_in(cmd, delete_fte_in, &st);
	if (!ft)
		return st;
	pp = cx_fte_slot(ft, index);
	e = *pp;
	if (!e || e->index != index)
		return CX_BAD_RES(cmd, "no entry %u in table 0x%x", index, tid);
	*pp = e->next;
	fg = cx_fg_lookup(core, e->group_id);
	if (fg && fg->nftes)
		fg->nftes--;
	ft->nftes--;
	free(e);
	cx_obj_put(core, CX_OBJ_FTE);
	return MLX5_CMD_STAT_OK;
}

/* ---- flow counters ----------------------------------------------------- */

uint8_t cx_fc_alloc(struct cx_cmd *cmd)
{
	struct cx_fc *fc;
	uint32_t id;

	/* Bulk allocation (flow_counter_bulk_alloc) is not announced. */
	if (MLX5_GET(alloc_flow_counter_in, cmd->in, flow_counter_bulk) ||
	    MLX5_GET(alloc_flow_counter_in, cmd->in, flow_counter_bulk_log_size))
		return CX_BAD_PARAM(cmd, "bulk allocation not announced");
	fc = calloc(1, sizeof(*fc));
	if (!fc || cx_tab_add(cmd->core, &cmd->core->func.nic->fc, fc, &id)) {
		free(fc);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	fc->id = id;
	MLX5_SET(alloc_flow_counter_out, cmd->out, flow_counter_id, id);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_fc_dealloc(struct cx_cmd *cmd)
{
	uint32_t id = MLX5_GET(dealloc_flow_counter_in, cmd->in,
			       flow_counter_id);
	struct cx_fc *fc = cx_tab_del(cmd->core, &cmd->core->func.nic->fc, id);

	if (!fc)
		return CX_BAD_RES(cmd, "flow counter 0x%x", id);
	free(fc);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_fc_query(struct cx_cmd *cmd)
{
	uint32_t id = MLX5_GET(query_flow_counter_in, cmd->in, flow_counter_id);
	uint32_t n = MLX5_GET(query_flow_counter_in, cmd->in, num_of_counters);
	size_t off = MLX5_BYTE_OFF(query_flow_counter_out, flow_statistics);
	size_t sz = MLX5_ST_SZ_BYTES(traffic_counter);
	bool clear = MLX5_GET(query_flow_counter_in, cmd->in, clear);
	uint32_t i;

	if (!n)
		n = 1;
	if (cmd->outlen < off || (cmd->outlen - off) / sz < n)
		return CX_BAD_PARAM(cmd, "output too short for %u counters", n);
	for (i = 0; i < n; i++) {
		struct cx_fc *fc = cx_fc_lookup(cmd->core, id + i);
		uint8_t *o = (uint8_t *)cmd->out + off + i * sz;

		if (!fc)
			return CX_BAD_RES(cmd, "flow counter 0x%x", id + i);
		MLX5_SET64(traffic_counter, o, packets, fc->packets);
		MLX5_SET64(traffic_counter, o, octets, fc->octets);
		if (clear)
			fc->packets = fc->octets = 0;
	}
	return MLX5_CMD_STAT_OK;
}

static void cx_free_ft(struct cx_core *c, void *o)
{
	cx_ft_free_obj(c, o);
}

void cx_fs_release_all(struct cx_core *core)
{
	cx_tab_clear(core, &core->func.nic->ft, cx_free_ft);	/* and their FTEs */
	cx_tab_clear(core, &core->func.nic->fg, NULL);
	cx_tab_clear(core, &core->func.nic->fc, NULL);
	core->func.nic->root_ft = 0;
}
