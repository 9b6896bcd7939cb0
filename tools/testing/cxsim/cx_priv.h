/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cxsim device core: declarations shared between the core's files. */
#ifndef CX_PRIV_H
#define CX_PRIV_H

#include "cx_core.h"
#include "cx_bytes.h"
#include "cx_out.h"
#include "cx_tab.h"
#include "cx_dma.h"

#define CX_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define CX_PAGE_SHIFT		12
#define CX_PAGE_SIZE		(1u << CX_PAGE_SHIFT)

#define cx_log(core, ...)						\
	do {								\
		if ((core)->host.log)					\
			(core)->host.log((core)->host.opaque, __VA_ARGS__); \
	} while (0)

static inline uint64_t cx_now(struct cx_core *core)
{
	return core->host.now_ns(core->host.opaque);
}

/*
 * One command as a handler sees it.  @in holds @inlen bytes (at least the
 * command's layout), @out @outlen bytes zeroed (at least the layout of its
 * output).  A handler returns an MLX5_CMD_STAT_* and may set @syndrome;
 * the header of @out is filled in by cx_cmd.c.
 */
struct cx_cmd {
	struct cx_core *core;
	const void *in;
	size_t inlen;
	void *out;
	size_t outlen;
	uint16_t opcode;
	uint16_t op_mod;
	uint32_t syndrome;
	const char *name;	/* of the opcode, NULL if the model has none */
};

typedef uint8_t (*cx_cmd_handler)(struct cx_cmd *cmd);

/* Syndromes the model answers with, to tell its refusals apart. */
#define CX_SYND_BAD_OP		0x0c5a0001u
#define CX_SYND_BAD_STATE	0x0c5a0002u
#define CX_SYND_BAD_PARAM	0x0c5a0003u
#define CX_SYND_INLEN		0x0c5a0004u
#define CX_SYND_OUTLEN		0x0c5a0005u
#define CX_SYND_NO_RES		0x0c5a0006u


/* Init segment (cx_iseg.c); @off is dword aligned and inside it. */
int cx_iseg_contains(uint64_t off);
void cx_iseg_reset(struct cx_core *core);
uint32_t cx_iseg_read32(struct cx_core *core, uint64_t off);
void cx_iseg_write32(struct cx_core *core, uint64_t off, uint32_t val);
void cx_iseg_health_freeze(struct cx_core *core, bool on);
void cx_iseg_fw_dead(struct cx_core *core, uint32_t val);
bool cx_iseg_busy(struct cx_core *core);

/* Command interface (cx_cmd.c). */
void cx_cmd_doorbell(struct cx_core *core, uint32_t vector);
void cx_cmd_reset(struct cx_core *core);
void cx_cmd_timer(struct cx_core *core);
const char *cx_cmd_name(uint16_t opcode);

/* Handlers, by file. */
uint8_t cx_hca_enable(struct cx_cmd *cmd);
uint8_t cx_hca_disable(struct cx_cmd *cmd);
uint8_t cx_hca_init(struct cx_cmd *cmd);
uint8_t cx_hca_teardown(struct cx_cmd *cmd);
uint8_t cx_hca_query_issi(struct cx_cmd *cmd);
uint8_t cx_hca_set_issi(struct cx_cmd *cmd);
uint8_t cx_hca_query_cap(struct cx_cmd *cmd);
uint8_t cx_hca_set_cap(struct cx_cmd *cmd);
uint8_t cx_hca_query_adapter(struct cx_cmd *cmd);
uint8_t cx_hca_access_reg(struct cx_cmd *cmd);
uint8_t cx_pages_query(struct cx_cmd *cmd);
uint8_t cx_pages_manage(struct cx_cmd *cmd);
uint8_t cx_uar_alloc(struct cx_cmd *cmd);
uint8_t cx_uar_dealloc(struct cx_cmd *cmd);
uint8_t cx_eq_create(struct cx_cmd *cmd);
uint8_t cx_eq_destroy(struct cx_cmd *cmd);
uint8_t cx_eq_query(struct cx_cmd *cmd);
/* cx_pd.c, cx_mkey.c, cx_qcnt.c */
uint8_t cx_pd_alloc(struct cx_cmd *cmd);
uint8_t cx_pd_dealloc(struct cx_cmd *cmd);
uint8_t cx_td_alloc(struct cx_cmd *cmd);
uint8_t cx_td_dealloc(struct cx_cmd *cmd);
uint8_t cx_mkey_create(struct cx_cmd *cmd);
uint8_t cx_mkey_destroy(struct cx_cmd *cmd);
uint8_t cx_mkey_query(struct cx_cmd *cmd);
uint8_t cx_qcnt_alloc(struct cx_cmd *cmd);
uint8_t cx_qcnt_dealloc(struct cx_cmd *cmd);
uint8_t cx_qcnt_query(struct cx_cmd *cmd);
uint8_t cx_query_special_contexts(struct cx_cmd *cmd);
/* cx_cq.c, cx_queues.c */
uint8_t cx_cq_create(struct cx_cmd *cmd);
uint8_t cx_cq_destroy(struct cx_cmd *cmd);
uint8_t cx_cq_query(struct cx_cmd *cmd);
uint8_t cx_cq_modify(struct cx_cmd *cmd);
uint8_t cx_sq_create(struct cx_cmd *cmd);
uint8_t cx_sq_modify(struct cx_cmd *cmd);
uint8_t cx_sq_destroy(struct cx_cmd *cmd);
uint8_t cx_sq_query(struct cx_cmd *cmd);
uint8_t cx_rq_create(struct cx_cmd *cmd);
uint8_t cx_rq_modify(struct cx_cmd *cmd);
uint8_t cx_rq_destroy(struct cx_cmd *cmd);
uint8_t cx_rq_query(struct cx_cmd *cmd);
/* cx_tir.c */
uint8_t cx_tis_create(struct cx_cmd *cmd);
uint8_t cx_tis_modify(struct cx_cmd *cmd);
uint8_t cx_tis_destroy(struct cx_cmd *cmd);
uint8_t cx_tir_create(struct cx_cmd *cmd);
uint8_t cx_tir_modify(struct cx_cmd *cmd);
uint8_t cx_tir_destroy(struct cx_cmd *cmd);
uint8_t cx_rqt_create(struct cx_cmd *cmd);
uint8_t cx_rqt_modify(struct cx_cmd *cmd);
uint8_t cx_rqt_destroy(struct cx_cmd *cmd);
/* cx_fs.c */
uint8_t cx_ft_create(struct cx_cmd *cmd);
uint8_t cx_ft_destroy(struct cx_cmd *cmd);
uint8_t cx_ft_modify(struct cx_cmd *cmd);
uint8_t cx_ft_set_root(struct cx_cmd *cmd);
uint8_t cx_fg_create(struct cx_cmd *cmd);
uint8_t cx_fg_destroy(struct cx_cmd *cmd);
uint8_t cx_fte_set(struct cx_cmd *cmd);
uint8_t cx_fte_delete(struct cx_cmd *cmd);
uint8_t cx_fc_alloc(struct cx_cmd *cmd);
uint8_t cx_fc_dealloc(struct cx_cmd *cmd);
uint8_t cx_fc_query(struct cx_cmd *cmd);
/* cx_vport.c */
uint8_t cx_vport_query_state(struct cx_cmd *cmd);
uint8_t cx_vport_modify_state(struct cx_cmd *cmd);
uint8_t cx_vxlan_add_port(struct cx_cmd *cmd);
uint8_t cx_vxlan_del_port(struct cx_cmd *cmd);
uint8_t cx_vport_query_nic(struct cx_cmd *cmd);
uint8_t cx_vport_modify_nic(struct cx_cmd *cmd);
uint8_t cx_vport_query_counter(struct cx_cmd *cmd);
/* cx_reg.c: registers other than host endianness. */
uint8_t cx_reg_access(struct cx_cmd *cmd, unsigned int reg, bool write,
		      const uint8_t *data_in, size_t in_len, uint8_t *data_out,
		      size_t out_len);
const char *cx_reg_name(unsigned int idx);

/* HCA (cx_hca.c). */
void cx_hca_reset(struct cx_core *core);
const char *cx_hca_state_name(enum cx_hca_state state);

/* Pages (cx_pages.c). */
void cx_pages_release_all(struct cx_core *core);

/* UARs (cx_uar.c). */
int cx_uar_allocated(struct cx_core *core, uint32_t index);
void cx_uar_release_all(struct cx_core *core);

/* EQs (cx_eq.c). */
/* The first EQ subscribed to @event_type, or -1. */
int cx_eq_find(struct cx_core *core, unsigned int event_type);
/* Post the 64-byte @eqe (owner bit set here) to EQ @eqn; 0 or -1. */
int cx_eq_post(struct cx_core *core, int eqn, void *eqe);
/* Post an event to the first subscribed EQ; 0 or -1 if none. */
int cx_eq_event(struct cx_core *core, unsigned int event_type, void *eqe);
void cx_eq_doorbell(struct cx_core *core, uint32_t uar_page, uint32_t val,
		    bool arm);
void cx_eq_timer(struct cx_core *core);
void cx_eq_release_all(struct cx_core *core);
/* A PAGE_REQUEST event for @npages (cx_pages.c); 0, or -1 if no EQ. */
int cx_page_request(struct cx_core *core, int32_t npages);
/* Post what EQ_FLOOD still owes, up to half the EQ's entries. */
void cx_eq_flood(struct cx_core *core);

/* Report and free what the function still holds (cx_hca.c). */
void cx_func_release(struct cx_core *core, const char *why);

#endif /* CX_PRIV_H */
