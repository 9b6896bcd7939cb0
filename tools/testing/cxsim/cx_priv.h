/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cxsim device core: declarations shared between the core's files. */
#ifndef CX_PRIV_H
#define CX_PRIV_H

#include "cx_core.h"

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

/* Read request TLPs of a read of @len bytes at @addr (MRRS, 4 KiB). */
static inline uint64_t cx_pcie_tlps(uint64_t addr, uint64_t len,
				    uint64_t max)
{
	uint64_t n = 0;

	while (len) {
		uint64_t room = CX_PCIE_BOUNDARY - (addr & (CX_PCIE_BOUNDARY - 1));
		uint64_t chunk = len < room ? len : room;

		n += (chunk + max - 1) / max;
		addr += chunk;
		len -= chunk;
	}
	return n;
}

/*
 * Count a read as PCIe traffic.  A read that continues the previous one of
 * the same purpose (the next WQEBB of a WQE, the next WQE of a batch) is
 * the same DMA read to a device, which fetches a contiguous run at once:
 * its TLPs are recounted over the whole run.  cx_pcie_break() ends the
 * runs (a new doorbell).
 */
static inline void cx_pcie_count_read(struct cx_core *core,
				      enum cx_dma_purpose p, uint64_t addr,
				      size_t len)
{
	struct cx_pcie_stats *ps = &core->stats.pcie;
	struct cx_pcie_rd *rd = &ps->rd[p];
	uint64_t start = addr;

	if (!len)
		return;
	if (addr == ps->last_end[p] && ps->last_end[p]) {
		uint64_t old = ps->last_end[p] - ps->last_start[p];

		start = ps->last_start[p];
		rd->tlps -= cx_pcie_tlps(start, old, CX_PCIE_MRRS);
		rd->cpl_tlps -= cx_pcie_tlps(start, old, CX_PCIE_MPS);
	} else {
		rd->req++;
	}
	rd->bytes += len;
	rd->tlps += cx_pcie_tlps(start, addr + len - start, CX_PCIE_MRRS);
	rd->cpl_tlps += cx_pcie_tlps(start, addr + len - start, CX_PCIE_MPS);
	ps->last_start[p] = start;
	ps->last_end[p] = addr + len;
}

static inline void cx_pcie_break(struct cx_core *core)
{
	unsigned int i;

	for (i = 0; i < CX_DMA_NPURPOSES; i++)
		core->stats.pcie.last_end[i] = 0;
}

static inline int cx_dma_read(struct cx_core *core, uint64_t addr, void *buf,
			      size_t len)
{
	enum cx_dma_purpose p = core->dma_purpose;

	if ((unsigned int)p >= CX_DMA_NPURPOSES)
		p = CX_DMA_OTHER;
	cx_pcie_count_read(core, p, addr, len);
	return core->host.dma_read(core->host.opaque, addr, buf, len);
}

/* A read of a known purpose. */
static inline int cx_dma_read_as(struct cx_core *core, enum cx_dma_purpose p,
				 uint64_t addr, void *buf, size_t len)
{
	enum cx_dma_purpose saved = core->dma_purpose;
	int r;

	core->dma_purpose = p;
	r = cx_dma_read(core, addr, buf, len);
	core->dma_purpose = saved;
	return r;
}

static inline int cx_dma_write(struct cx_core *core, uint64_t addr,
			       const void *buf, size_t len)
{
	return core->host.dma_write(core->host.opaque, addr, buf, len);
}

static inline void cx_msix(struct cx_core *core, unsigned int vector)
{
	/* A message lost on the way, injected through the test port. */
	if (core->faults.drop_irqs) {
		core->faults.drop_irqs--;
		core->stats.irqs_dropped++;
		return;
	}
	core->stats.msix_sent++;
	core->host.msix_notify(core->host.opaque, vector);
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
};

typedef uint8_t (*cx_cmd_handler)(struct cx_cmd *cmd);

/* Syndromes the model answers with, to tell its refusals apart. */
#define CX_SYND_BAD_OP		0x0c5a0001u
#define CX_SYND_BAD_STATE	0x0c5a0002u
#define CX_SYND_BAD_PARAM	0x0c5a0003u
#define CX_SYND_INLEN		0x0c5a0004u
#define CX_SYND_OUTLEN		0x0c5a0005u
#define CX_SYND_NO_RES		0x0c5a0006u

/* Generic accessors for big-endian bit fields of a layout. */
void cx_bits_set(void *buf, unsigned int bit_off, unsigned int bit_sz,
		 uint32_t val);
uint32_t cx_bits_get(const void *buf, unsigned int bit_off,
		     unsigned int bit_sz);
uint64_t cx_get_be64(const void *p);
void cx_put_be64(void *p, uint64_t v);

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
/* cx_misc.c */
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
/* cx_queues.c */
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
uint8_t cx_vport_query_nic(struct cx_cmd *cmd);
uint8_t cx_vport_modify_nic(struct cx_cmd *cmd);
uint8_t cx_vport_query_counter(struct cx_cmd *cmd);
/* cx_reg.c: registers other than host endianness. */
uint8_t cx_reg_access(struct cx_cmd *cmd, unsigned int reg, bool write,
		      const uint8_t *data_in, size_t in_len, uint8_t *data_out,
		      size_t out_len);

/* HCA (cx_hca.c). */
void cx_hca_reset(struct cx_core *core);
const char *cx_hca_state_name(enum cx_hca_state state);

/* Pages (cx_pages.c). */
void cx_pages_release_all(struct cx_core *core);

/* UARs (cx_uar.c). */
int cx_uar_allocated(struct cx_core *core, uint32_t index);
void cx_uar_release_all(struct cx_core *core);
void cx_uar_write(struct cx_core *core, uint64_t offset, uint64_t value,
		  unsigned int size);

/* EQs (cx_eq.c). */
/* The first EQ subscribed to @event_type, or -1. */
int cx_eq_find(struct cx_core *core, unsigned int event_type);
/* Post the 64-byte @eqe (owner bit set here) to EQ @eqn; 0 or -1. */
int cx_eq_post(struct cx_core *core, int eqn, void *eqe);
/* Post an event to the first subscribed EQ; 0 or -1 if none. */
int cx_eq_event(struct cx_core *core, unsigned int event_type, void *eqe);
void cx_eq_doorbell(struct cx_core *core, uint32_t uar_page, uint32_t val,
		    bool arm);
void cx_eq_release_all(struct cx_core *core);
int cx_page_request(struct cx_core *core, int32_t npages);

/* Object registry and leak accounting (cx_core.c). */
void cx_obj_get(struct cx_core *core, enum cx_obj_type type);
void cx_obj_put(struct cx_core *core, enum cx_obj_type type);
const char *cx_obj_name(enum cx_obj_type type);
/* Report and free what the function still holds. */
void cx_func_release(struct cx_core *core, const char *why);

/* Report text (cx_testport.c), shared by every part that reports. */
struct cx_out {
	char *buf;
	size_t size;
	size_t len;
};

void cx_out(struct cx_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define KV(o, key, val)	cx_out(o, "%s %llu\n", key, (unsigned long long)(val))

#endif /* CX_PRIV_H */
