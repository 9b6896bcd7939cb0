// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: the command interface.
 *
 * The command queue is a page of 32 entries (struct mlx5_cmd_layout) at
 * cmdq_addr in guest memory.  Ringing the doorbell with bit i set hands
 * entry i to the device: the model reads it, gathers the input (16 inline
 * bytes, then a chain of struct mlx5_cmd_prot_block mailboxes with 512
 * data bytes each), runs the command, scatters the output the same way and
 * gives the entry back by clearing the ownership bit, with a delivery
 * status in bits 7:1.  Then, if an EQ is subscribed to command events, it
 * posts an EQE naming the entry.
 *
 * Mailboxes must be 1 KiB aligned (what both drivers allocate and what the
 * delivery statuses "bad input/output pointer", IN/OUT_PTR_ALIGN_ERR in
 * upstream cmd.c, report).  Signatures are not checked: drivers turn
 * cmdif_checksum off.  The common header of every input and output is
 * read and written through the layouts of NOP (opcode, op_mod; status,
 * syndrome), the shortest command that has exactly it.  Every length and chain is bounded by
 * CX_CMD_MAX_MSG, so a looping or endless chain ends in a delivery error.
 */
#include <stdlib.h>
#include <string.h>

#include "cx_kshim.h"
#include "cx_priv.h"
#include "cx_dp.h"

#define CX_CMD_INLINE		16
#define CX_CMD_HDR_LEN		8
#define CX_CMD_BLOCK_DATA	MLX5_CMD_DATA_BLOCK_SIZE
#define CX_CMD_MBOX_ALIGN	1024u
#define CX_CMD_XPORT_PCI	7
#define CX_CMD_MAX_BLOCKS	(CX_CMD_MAX_MSG / CX_CMD_BLOCK_DATA + 1)

/* Delivery statuses (bits 7:1 of status_own), as upstream cmd.c names them. */
enum {
	CX_DS_OK		= 0x0,
	CX_DS_TOKEN		= 0x2,
	CX_DS_BAD_BLOCK_NUM	= 0x3,
	CX_DS_BAD_OUT_PTR	= 0x4,
	CX_DS_BAD_IN_PTR	= 0x5,
	CX_DS_INTERNAL		= 0x6,
	CX_DS_IN_LEN		= 0x7,
	CX_DS_OUT_LEN		= 0x8,
	CX_DS_BAD_TYPE		= 0x10,
};

/* HCA states a command may run in. */
#define ST_DIS		(1u << CX_HCA_DISABLED)
#define ST_EN		(1u << CX_HCA_ENABLED)
#define ST_INIT		(1u << CX_HCA_INITIALISED)
#define ST_UP		(ST_EN | ST_INIT)
#define ST_ANY		(ST_DIS | ST_EN | ST_INIT)

struct cx_cmd_desc {
	uint16_t opcode;
	const char *name;
	cx_cmd_handler handler;		/* NULL: named but not modelled */
	uint32_t min_inlen;
	uint32_t min_outlen;
	uint32_t states;
};

#define CMD(op, fn, lay, st)						\
	{ MLX5_CMD_OP_##op, #op, fn, MLX5_ST_SZ_BYTES(lay##_in),	\
	  MLX5_ST_SZ_BYTES(lay##_out), st }
#define NAME(op)	{ MLX5_CMD_OP_##op, #op, NULL, 0, 0, 0 }

/* Every command the model knows, and names of some it does not model. */
static const struct cx_cmd_desc cx_cmds[] = {
	CMD(QUERY_HCA_CAP,	cx_hca_query_cap,	query_hca_cap,	ST_UP),
	CMD(QUERY_ADAPTER,	cx_hca_query_adapter,	query_adapter,	ST_UP),
	CMD(INIT_HCA,		cx_hca_init,		init_hca,	ST_ANY),
	CMD(TEARDOWN_HCA,	cx_hca_teardown,	teardown_hca,	ST_ANY),
	CMD(ENABLE_HCA,		cx_hca_enable,		enable_hca,	ST_ANY),
	CMD(DISABLE_HCA,	cx_hca_disable,		disable_hca,	ST_ANY),
	CMD(QUERY_PAGES,	cx_pages_query,		query_pages,	ST_UP),
	CMD(MANAGE_PAGES,	cx_pages_manage,	manage_pages,	ST_UP),
	CMD(SET_HCA_CAP,	cx_hca_set_cap,		set_hca_cap,	ST_EN),
	CMD(QUERY_ISSI,		cx_hca_query_issi,	query_issi,	ST_UP),
	CMD(SET_ISSI,		cx_hca_set_issi,	set_issi,	ST_EN),
	CMD(CREATE_EQ,		cx_eq_create,		create_eq,	ST_INIT),
	CMD(DESTROY_EQ,		cx_eq_destroy,		destroy_eq,	ST_INIT),
	CMD(QUERY_EQ,		cx_eq_query,		query_eq,	ST_INIT),
	CMD(ALLOC_UAR,		cx_uar_alloc,		alloc_uar,	ST_INIT),
	CMD(DEALLOC_UAR,	cx_uar_dealloc,		dealloc_uar,	ST_INIT),
	CMD(ACCESS_REG,		cx_hca_access_reg,	access_register, ST_UP),
	NAME(SET_DRIVER_VERSION),
	CMD(QUERY_SPECIAL_CONTEXTS, cx_query_special_contexts,
	    query_special_contexts, ST_INIT),
	CMD(ALLOC_PD,		cx_pd_alloc,		alloc_pd,	ST_INIT),
	CMD(DEALLOC_PD,		cx_pd_dealloc,		dealloc_pd,	ST_INIT),
	CMD(ALLOC_TRANSPORT_DOMAIN, cx_td_alloc, alloc_transport_domain, ST_INIT),
	CMD(DEALLOC_TRANSPORT_DOMAIN, cx_td_dealloc, dealloc_transport_domain,
	    ST_INIT),
	CMD(CREATE_MKEY,	cx_mkey_create,		create_mkey,	ST_INIT),
	CMD(DESTROY_MKEY,	cx_mkey_destroy,	destroy_mkey,	ST_INIT),
	CMD(QUERY_MKEY,		cx_mkey_query,		query_mkey,	ST_INIT),
	CMD(ALLOC_Q_COUNTER,	cx_qcnt_alloc,		alloc_q_counter, ST_INIT),
	CMD(DEALLOC_Q_COUNTER,	cx_qcnt_dealloc,	dealloc_q_counter, ST_INIT),
	CMD(QUERY_Q_COUNTER,	cx_qcnt_query,		query_q_counter, ST_INIT),
	CMD(CREATE_CQ,		cx_cq_create,		create_cq,	ST_INIT),
	CMD(DESTROY_CQ,		cx_cq_destroy,		destroy_cq,	ST_INIT),
	CMD(QUERY_CQ,		cx_cq_query,		query_cq,	ST_INIT),
	CMD(MODIFY_CQ,		cx_cq_modify,		modify_cq,	ST_INIT),
	CMD(CREATE_SQ,		cx_sq_create,		create_sq,	ST_INIT),
	CMD(MODIFY_SQ,		cx_sq_modify,		modify_sq,	ST_INIT),
	CMD(DESTROY_SQ,		cx_sq_destroy,		destroy_sq,	ST_INIT),
	CMD(QUERY_SQ,		cx_sq_query,		query_sq,	ST_INIT),
	CMD(CREATE_RQ,		cx_rq_create,		create_rq,	ST_INIT),
	CMD(MODIFY_RQ,		cx_rq_modify,		modify_rq,	ST_INIT),
	CMD(DESTROY_RQ,		cx_rq_destroy,		destroy_rq,	ST_INIT),
	CMD(QUERY_RQ,		cx_rq_query,		query_rq,	ST_INIT),
	CMD(CREATE_TIS,		cx_tis_create,		create_tis,	ST_INIT),
	CMD(MODIFY_TIS,		cx_tis_modify,		modify_tis,	ST_INIT),
	CMD(DESTROY_TIS,	cx_tis_destroy,		destroy_tis,	ST_INIT),
	CMD(CREATE_TIR,		cx_tir_create,		create_tir,	ST_INIT),
	CMD(MODIFY_TIR,		cx_tir_modify,		modify_tir,	ST_INIT),
	CMD(DESTROY_TIR,	cx_tir_destroy,		destroy_tir,	ST_INIT),
	CMD(CREATE_RQT,		cx_rqt_create,		create_rqt,	ST_INIT),
	CMD(MODIFY_RQT,		cx_rqt_modify,		modify_rqt,	ST_INIT),
	CMD(DESTROY_RQT,	cx_rqt_destroy,		destroy_rqt,	ST_INIT),
	CMD(CREATE_FLOW_TABLE,	cx_ft_create,		create_flow_table, ST_INIT),
	CMD(DESTROY_FLOW_TABLE,	cx_ft_destroy,		destroy_flow_table, ST_INIT),
	CMD(MODIFY_FLOW_TABLE,	cx_ft_modify,		modify_flow_table, ST_INIT),
	CMD(SET_FLOW_TABLE_ROOT, cx_ft_set_root,	set_flow_table_root, ST_INIT),
	CMD(CREATE_FLOW_GROUP,	cx_fg_create,		create_flow_group, ST_INIT),
	CMD(DESTROY_FLOW_GROUP,	cx_fg_destroy,		destroy_flow_group, ST_INIT),
	CMD(SET_FLOW_TABLE_ENTRY, cx_fte_set,		set_fte,	ST_INIT),
	CMD(DELETE_FLOW_TABLE_ENTRY, cx_fte_delete,	delete_fte,	ST_INIT),
	CMD(ALLOC_FLOW_COUNTER,	cx_fc_alloc,		alloc_flow_counter, ST_INIT),
	CMD(DEALLOC_FLOW_COUNTER, cx_fc_dealloc,	dealloc_flow_counter, ST_INIT),
	CMD(QUERY_FLOW_COUNTER,	cx_fc_query,		query_flow_counter, ST_INIT),
	CMD(QUERY_VPORT_STATE,	cx_vport_query_state,	query_vport_state, ST_INIT),
	CMD(MODIFY_VPORT_STATE,	cx_vport_modify_state,	modify_vport_state, ST_INIT),
	CMD(QUERY_NIC_VPORT_CONTEXT, cx_vport_query_nic, query_nic_vport_context,
	    ST_INIT),
	CMD(MODIFY_NIC_VPORT_CONTEXT, cx_vport_modify_nic,
	    modify_nic_vport_context, ST_INIT),
	CMD(ADD_VXLAN_UDP_DPORT, cx_vxlan_add_port,	add_vxlan_udp_dport,
	    ST_INIT),
	CMD(DELETE_VXLAN_UDP_DPORT, cx_vxlan_del_port,	delete_vxlan_udp_dport,
	    ST_INIT),
	CMD(QUERY_VPORT_COUNTER, cx_vport_query_counter, query_vport_counter,
	    ST_INIT),
	NAME(CREATE_QP), NAME(DESTROY_QP),
	NAME(QUERY_ESW_VPORT_CONTEXT), NAME(MODIFY_ESW_VPORT_CONTEXT),
	NAME(QUERY_ROCE_ADDRESS), NAME(SET_ROCE_ADDRESS),
	NAME(QUERY_HCA_VPORT_CONTEXT),
	NAME(CONFIG_INT_MODERATION), NAME(ATTACH_TO_MCG), NAME(DETACH_FROM_MCG),
	NAME(QUERY_CONG_STATUS), NAME(SET_L2_TABLE_ENTRY),
	NAME(DELETE_L2_TABLE_ENTRY),
	NAME(CREATE_RMP), NAME(QUERY_FLOW_TABLE), NAME(QUERY_FLOW_TABLE_ENTRY),
	NAME(ALLOC_PACKET_REFORMAT_CONTEXT),
	NAME(ALLOC_MODIFY_HEADER_CONTEXT), NAME(CREATE_GENERAL_OBJECT),
	NAME(QUERY_GENERAL_OBJECT), NAME(DESTROY_GENERAL_OBJECT),
	NAME(MODIFY_GENERAL_OBJECT), NAME(NOP), NAME(QUERY_LAG),
	NAME(CREATE_LAG), NAME(QUERY_VHCA_STATE), NAME(MODIFY_VHCA_STATE),
	NAME(SET_MAD_DEMUX), NAME(QUERY_MAD_DEMUX),
	NAME(SET_DELAY_DROP_PARAMS),
	NAME(CREATE_SCHEDULING_ELEMENT), NAME(DESTROY_SCHEDULING_ELEMENT),
	NAME(QUERY_SCHEDULING_ELEMENT), NAME(MODIFY_SCHEDULING_ELEMENT),
	NAME(ALLOC_SF), NAME(DEALLOC_SF), NAME(SYNC_STEERING),
};

static const struct cx_cmd_desc *cx_cmd_lookup(uint16_t opcode)
{
	unsigned int i;

	for (i = 0; i < CX_ARRAY_SIZE(cx_cmds); i++)
		if (cx_cmds[i].opcode == opcode)
			return &cx_cmds[i];
	return NULL;
}

const char *cx_cmd_name(uint16_t opcode)
{
	const struct cx_cmd_desc *d = cx_cmd_lookup(opcode);

	return d ? d->name : NULL;
}

/* A message: the inline 16 bytes plus the data of a mailbox chain. */
struct cx_msg {
	uint8_t *buf;
	size_t len;
	uint64_t blocks[CX_CMD_MAX_BLOCKS];
	unsigned int nblocks;
};

/*
 * Walk the chain from @ptr for @len bytes past the inline part: check every
 * block's number and token, remember its address and, when @data, copy its
 * data to @data.  Bounded by the length, hence by CX_CMD_MAX_MSG.
 */
static int cx_cmd_walk(struct cx_core *core, uint64_t ptr, size_t len,
		       uint8_t token, struct cx_msg *msg, uint8_t *data,
		       int bad_ptr)
{
	struct mlx5_cmd_prot_block blk;
	unsigned int n = 0;

	msg->nblocks = 0;
	while (len) {
		size_t chunk = len < CX_CMD_BLOCK_DATA ? len : CX_CMD_BLOCK_DATA;

		if (!ptr || (ptr & (CX_CMD_MBOX_ALIGN - 1)) ||
		    n >= CX_CMD_MAX_BLOCKS)
			return bad_ptr;
		if (cx_dma_read_as(core, CX_DMA_CMD, ptr, &blk, sizeof(blk)))
			return bad_ptr;
		if (__builtin_bswap32(blk.block_num) != n)
			return CX_DS_BAD_BLOCK_NUM;
		if (blk.token != token)
			return CX_DS_TOKEN;
		if (data) {
			memcpy(data, blk.data, chunk);
			data += chunk;
		}
		msg->blocks[n++] = ptr;
		msg->nblocks = n;
		len -= chunk;
		ptr = __builtin_bswap64(blk.next);
	}
	return CX_DS_OK;
}

static int cx_cmd_scatter(struct cx_core *core, const struct cx_msg *msg,
			  const uint8_t *data, size_t len)
{
	unsigned int i;

	for (i = 0; i < msg->nblocks && len; i++) {
		size_t chunk = len < CX_CMD_BLOCK_DATA ? len : CX_CMD_BLOCK_DATA;

		if (cx_dma_write_as(core, CX_DMAW_CMD, msg->blocks[i] +
				 offsetof(struct mlx5_cmd_prot_block, data),
				 data, chunk))
			return CX_DS_BAD_OUT_PTR;
		data += chunk;
		len -= chunk;
	}
	return CX_DS_OK;
}

static void cx_cmd_count(struct cx_core *core, uint16_t opcode)
{
	core->stats.cmds++;
	if (opcode < CX_NR_OPCODES)
		core->stats.cmd_count[opcode]++;
	else
		core->stats.cmd_other++;
}

/* An injected failure for @opcode, if one is armed. */
static int cx_cmd_fault(struct cx_core *core, struct cx_cmd *cmd)
{
	struct cx_faults *f = &core->faults;

	if (!f->fail_opcode || f->fail_opcode != cmd->opcode || !f->fail_count)
		return 0;
	if (f->fail_count != CX_TP_ALWAYS)
		f->fail_count--;
	core->stats.cmd_faults++;
	cmd->syndrome = f->fail_syndrome;
	return 1;
}

/* Run a gathered command; fills the output header. */
static void cx_cmd_run(struct cx_core *core, struct cx_cmd *cmd)
{
	const struct cx_cmd_desc *d = cx_cmd_lookup(cmd->opcode);
	uint8_t status;

	cx_cmd_count(core, cmd->opcode);
	if (cx_cmd_fault(core, cmd)) {
		status = core->faults.fail_status;
	} else if (!d || !d->handler) {
		cx_log(core, "cxsim: unsupported command %s (0x%x) op_mod 0x%x\n",
		       d ? d->name : "?", cmd->opcode, cmd->op_mod);
		status = MLX5_CMD_STAT_BAD_OP_ERR;
		cmd->syndrome = CX_SYND_BAD_OP;
	} else if (cmd->inlen < d->min_inlen) {
		status = MLX5_CMD_STAT_BAD_INP_LEN_ERR;
		cmd->syndrome = CX_SYND_INLEN;
	} else if (cmd->outlen < d->min_outlen) {
		status = MLX5_CMD_STAT_BAD_OUTP_LEN_ERR;
		cmd->syndrome = CX_SYND_OUTLEN;
	} else if (!(d->states & (1u << core->func.state))) {
		status = MLX5_CMD_STAT_BAD_SYS_STATE_ERR;
		cmd->syndrome = CX_SYND_BAD_STATE;
	} else {
		status = d->handler(cmd);
	}
	if (status != MLX5_CMD_STAT_OK) {
		core->stats.cmd_errors++;
		/* A failed command returns nothing but its header. */
		memset(cmd->out, 0, cmd->outlen);
	} else {
		cmd->syndrome = 0;
	}
	MLX5_SET(nop_out, cmd->out, status, status);
	MLX5_SET(nop_out, cmd->out, syndrome, cmd->syndrome);
}

static uint64_t cx_cmdq_base(struct cx_core *core)
{
	return (uint64_t)core->iseg.cmdq_addr_h << 32 | core->iseg.cmdq_addr_l;
}

static uint64_t cx_cmd_entry_addr(struct cx_core *core, unsigned int idx)
{
	return cx_cmdq_base(core) + ((uint64_t)idx << CX_CMDQ_LOG_STRIDE);
}

static void cx_cmd_complete(struct cx_core *core, unsigned int idx,
			    uint64_t addr, int ds,
			    const struct mlx5_cmd_layout *ent, int cmd_eq)
{
	uint8_t own = (uint8_t)(ds << 1);
	struct mlx5_eqe eqe;

	if (ds != CX_DS_OK) {
		core->stats.cmd_errors++;
		core->stats.cmd_delivery_errors++;
	} else if (cx_dma_write_as(core, CX_DMAW_CMD, addr + offsetof(struct mlx5_cmd_layout, out),
				ent->out, sizeof(ent->out))) {
		core->stats.cmd_delivery_errors++;
		return;
	}
	/* Ownership back to software, after the output. */
	if (cx_dma_write_as(core, CX_DMAW_CMD, addr + offsetof(struct mlx5_cmd_layout,
					       status_own), &own, 1)) {
		core->stats.cmd_delivery_errors++;
		return;
	}
	/* Only an EQ that existed when the command started reports it. */
	if (cmd_eq < 0 || !core->func.eq[cmd_eq].valid)
		return;
	memset(&eqe, 0, sizeof(eqe));
	eqe.type = MLX5_EVENT_TYPE_CMD;
	eqe.data.cmd.vector = __builtin_bswap32(1u << idx);
	cx_eq_post(core, cmd_eq, &eqe);
}

/* Gather, run, scatter: returns the delivery status. */
static int cx_cmd_deliver(struct cx_core *core, struct mlx5_cmd_layout *ent)
{
	struct cx_msg *in = NULL, *out = NULL;
	uint32_t inlen = __builtin_bswap32(ent->inlen);
	uint32_t outlen = __builtin_bswap32(ent->outlen);
	uint8_t *inbuf = NULL, *outbuf = NULL;
	struct cx_cmd cmd;
	int ds;

	if (ent->type != CX_CMD_XPORT_PCI)
		return CX_DS_BAD_TYPE;
	/* Room for the common header (opcode, op_mod; status, syndrome). */
	if (inlen < CX_CMD_HDR_LEN || inlen > CX_CMD_MAX_MSG)
		return CX_DS_IN_LEN;
	if (outlen < CX_CMD_HDR_LEN || outlen > CX_CMD_MAX_MSG)
		return CX_DS_OUT_LEN;

	in = calloc(1, sizeof(*in));
	out = calloc(1, sizeof(*out));
	inbuf = calloc(1, inlen);
	outbuf = calloc(1, outlen > CX_CMD_INLINE ? outlen : CX_CMD_INLINE);
	if (!in || !out || !inbuf || !outbuf) {
		ds = CX_DS_INTERNAL;
		goto out;
	}
	memcpy(inbuf, ent->in, inlen < CX_CMD_INLINE ? inlen : CX_CMD_INLINE);
	ds = CX_DS_OK;
	if (inlen > CX_CMD_INLINE)
		ds = cx_cmd_walk(core, __builtin_bswap64(ent->in_ptr),
				 inlen - CX_CMD_INLINE, ent->token, in,
				 inbuf + CX_CMD_INLINE, CX_DS_BAD_IN_PTR);
	/* The output chain is checked before the command has any effect. */
	if (ds == CX_DS_OK && outlen > CX_CMD_INLINE)
		ds = cx_cmd_walk(core, __builtin_bswap64(ent->out_ptr),
				 outlen - CX_CMD_INLINE, ent->token, out, NULL,
				 CX_DS_BAD_OUT_PTR);
	if (ds != CX_DS_OK)
		goto out;

	memset(&cmd, 0, sizeof(cmd));
	cmd.core = core;
	cmd.in = inbuf;
	cmd.inlen = inlen;
	cmd.out = outbuf;
	cmd.outlen = outlen;
	cmd.opcode = MLX5_GET(nop_in, inbuf, opcode);
	cmd.op_mod = MLX5_GET(nop_in, inbuf, op_mod);
	cmd.name = cx_cmd_name(cmd.opcode);
	cx_cmd_run(core, &cmd);

	memcpy(ent->out, outbuf, CX_CMD_INLINE);
	if (outlen > CX_CMD_INLINE)
		ds = cx_cmd_scatter(core, out, outbuf + CX_CMD_INLINE,
				    outlen - CX_CMD_INLINE);
out:
	free(in);
	free(out);
	free(inbuf);
	free(outbuf);
	return ds;
}

/* Run entry @idx, at @addr: where it was rung. */
static void cx_cmd_execute(struct cx_core *core, unsigned int idx,
			   uint64_t addr)
{
	struct mlx5_cmd_layout ent;
	int cmd_eq = cx_eq_find(core, MLX5_EVENT_TYPE_CMD);
	int ds;

	if (cx_dma_read_as(core, CX_DMA_CMD, addr, &ent, sizeof(ent))) {
		core->stats.cmd_delivery_errors++;
		cx_log(core, "cxsim: cannot read command entry %u\n", idx);
		return;
	}
	ds = cx_cmd_deliver(core, &ent);
	if (ds != CX_DS_OK)
		cx_model_error(core, CX_MERR_CMD_DELIVERY,
			       "cxsim: command entry %u: delivery status 0x%x\n",
			       idx, ds);
	cx_cmd_complete(core, idx, addr, ds, &ent, cmd_eq);
}

/* The opcode of the command in entry @idx, or -1 if it cannot be read. */
static int cx_cmd_peek_opcode(struct cx_core *core, unsigned int idx)
{
	uint8_t in[CX_CMD_INLINE];

	if (cx_dma_read_as(core, CX_DMA_CMD, cx_cmd_entry_addr(core, idx) +
			offsetof(struct mlx5_cmd_layout, in), in, sizeof(in)))
		return -1;
	return MLX5_GET(nop_in, in, opcode);
}

/*
 * A command was rung: the MSI-X message the test port armed for the next
 * CREATE_EQ goes now, before the command runs (CX_TP_MSIX_RAISE).
 */
static void cx_cmd_arrived(struct cx_core *core, unsigned int idx)
{
	struct cx_faults *f = &core->faults;
	uint32_t raise = f->msix_on_create_eq;

	if (!raise || cx_cmd_peek_opcode(core, idx) != MLX5_CMD_OP_CREATE_EQ)
		return;
	f->msix_on_create_eq = 0;
	cx_msix(core, raise & CX_TP_MSIX_VECTOR_MASK);
}

/* Should the command in entry @idx complete late?  Peeks at its opcode. */
static int cx_cmd_should_delay(struct cx_core *core, unsigned int idx)
{
	struct cx_faults *f = &core->faults;
	int opcode;

	if (!f->delay_count || !f->delay_ms)
		return 0;
	opcode = cx_cmd_peek_opcode(core, idx);
	if (opcode < 0)
		return 0;
	if (f->delay_opcode && f->delay_opcode != (uint32_t)opcode)
		return 0;
	if (f->delay_count != CX_TP_ALWAYS)
		f->delay_count--;
	return 1;
}

static void cx_cmd_arm_timer(struct cx_core *core)
{
	cx_timer_rearm(core);
}

void cx_cmd_doorbell(struct cx_core *core, uint32_t vector)
{
	unsigned int idx;

	core->stats.cmd_doorbells++;
	cx_pcie_break(core);
	if (!cx_cmdq_base(core)) {
		cx_model_error(core, CX_MERR_CMD_NO_QUEUE,
			       "cxsim: command doorbell 0x%x without a queue\n",
			       vector);
		return;
	}
	/* Dead firmware executes nothing and never answers. */
	if (core->fw_dead & CX_TP_FW_DEAD_ON) {
		core->stats.cmd_dead++;
		return;
	}
	/* Mute firmware runs, but takes no command from the queue. */
	if (core->fw_dead & CX_TP_FW_MUTE) {
		core->stats.cmd_muted++;
		return;
	}
	/* Rung before the firmware said it was ready: lost. */
	if (cx_iseg_busy(core)) {
		core->stats.cmd_early++;
		cx_model_error(core, CX_MERR_CMD_EARLY,
			       "cxsim: command doorbell 0x%x while initializing\n",
			       vector);
		return;
	}
	for (idx = 0; idx < CX_CMDQ_ENTRIES; idx++) {
		if (!(vector & (1u << idx)))
			continue;
		if (core->cmdq.delayed & (1u << idx)) {
			/* Still executing: the entry is the firmware's. */
			core->stats.cmd_busy++;
			cx_model_error(core, CX_MERR_CMD_BUSY,
				       "cxsim: command doorbell for entry %u, still executing\n",
				       idx);
			continue;
		}
		cx_cmd_arrived(core, idx);
		if (core->host.timer_mod && cx_cmd_should_delay(core, idx)) {
			core->stats.cmd_delays++;
			core->cmdq.delayed |= 1u << idx;
			core->cmdq.deadline[idx] = cx_now(core) +
				(uint64_t)core->faults.delay_ms * 1000000ULL;
			core->cmdq.entry[idx] = cx_cmd_entry_addr(core, idx);
			continue;
		}
		cx_cmd_execute(core, idx, cx_cmd_entry_addr(core, idx));
	}
	cx_cmd_arm_timer(core);
}

void cx_cmd_timer(struct cx_core *core)
{
	uint64_t now = cx_now(core);
	unsigned int idx;

	for (idx = 0; idx < CX_CMDQ_ENTRIES; idx++) {
		if (!(core->cmdq.delayed & (1u << idx)) ||
		    core->cmdq.deadline[idx] > now)
			continue;
		core->cmdq.delayed &= ~(1u << idx);
		/* Firmware that died or went mute meanwhile never answers. */
		if (core->fw_dead & (CX_TP_FW_DEAD_ON | CX_TP_FW_MUTE))
			continue;
		cx_cmd_execute(core, idx, core->cmdq.entry[idx]);
	}
	cx_cmd_arm_timer(core);
}

void cx_cmd_reset(struct cx_core *core)
{
	int armed = core->cmdq.delayed != 0;

	memset(&core->cmdq, 0, sizeof(core->cmdq));
	if (armed)
		cx_timer_rearm(core);
}
