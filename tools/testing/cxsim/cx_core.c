// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim device core: BAR0 decoding, reset, and the host interface.
 *
 * BAR0 registers are big-endian dwords.  An access of any size and
 * alignment is split into bytes of those dwords, so a guest cannot make
 * the model read or write outside what it decodes.  Pages 1.. of the
 * decoded area are UAR pages: writes to allocated ones are doorbells,
 * routed here to the queue they name:
 *	0x020	CQ doorbell, 64-bit: be32 (sn << 28 | cmd | ci), be32 cqn
 *	0x040	EQ: be32 (eqn << 24) | consumer index, and arm
 *	0x048	EQ: the same without arming
 *	0x800 + k * 2^log_bf_reg_size, k < CX_UAR_SQ_REGS: send doorbell
 *		register k, 64-bit (the first 8 bytes of the ctrl segment),
 *		at either half of the register (the two blue-flame buffers)
 * Every write to a page is counted, per page; doorbells per page by kind,
 * SQ doorbells per register.
 *
 * This file is the top of the core: it calls down into the rest, and
 * nothing below calls it.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cx_kshim.h"
#include "cx_obj.h"
#include "cx_dp.h"

#define CX_ISEG_CMD_DBELL	offsetof(struct mlx5_init_seg, cmd_dbell)
#define CX_UAR_CQ		0x020
#define CX_UAR_EQ_ARM		0x040
#define CX_UAR_EQ_UPDATE	0x048
#define CX_UAR_SQ_HALF		(1u << (CX_LOG_BF_REG_SIZE - 1))

struct cx_model_info {
	const char *name;
	uint16_t device_id;
};

static const struct cx_model_info cx_models[] = {
	[CX_MODEL_CX5]		= { "cx5",	0x1017 },
	[CX_MODEL_CX6DX]	= { "cx6dx",	0x101d },
	[CX_MODEL_CX7]		= { "cx7",	0x1021 },
};

#define CX_NR_MODELS	(sizeof(cx_models) / sizeof(cx_models[0]))

uint16_t cx_model_device_id(enum cx_model model)
{
	if ((unsigned int)model >= CX_NR_MODELS)
		model = CX_MODEL_CX5;
	return cx_models[model].device_id;
}

int cx_model_parse(const char *name, enum cx_model *model)
{
	unsigned int i;

	if (!name)
		return -1;
	for (i = 0; i < CX_NR_MODELS; i++) {
		if (!strcmp(name, cx_models[i].name)) {
			*model = (enum cx_model)i;
			return 0;
		}
	}
	return -1;
}

void cx_core_default_params(struct cx_params *params)
{
	memset(params, 0, sizeof(*params));
	params->model = CX_MODEL_CX5;
	params->fw_major = 16;
	params->fw_minor = 35;
	params->fw_subminor = 4030;
	params->init_delay_ns = 50000000ULL;	/* 50 ms */
	params->mpwqe = true;
	params->vlan_insert = true;
	params->cqe_comp = true;
}

void cx_core_init(struct cx_core *core, const struct cx_host *host,
		  const struct cx_params *params)
{
	memset(core, 0, sizeof(*core));
	core->host = *host;
	core->params = *params;
	cx_nic_init(core);
	cx_core_reset(core);
}

void cx_core_reset(struct cx_core *core)
{
	/* The stated command timeout is the firmware's, not the function's. */
	uint32_t cmd_timeout_ms = core->faults.cmd_timeout_ms;

	core->stats.resets++;
	cx_func_release(core, "reset");
	cx_cmd_reset(core);
	cx_hca_reset(core);
	cx_iseg_reset(core);
	memset(&core->faults, 0, sizeof(core->faults));
	core->faults.fail_status = 0x1;	/* MLX5_CMD_STAT_INT_ERR */
	core->faults.cmd_timeout_ms = cmd_timeout_ms;
}

void cx_core_fini(struct cx_core *core)
{
	cx_nic_release_all(core);
	cx_nic_fini(core);
	cx_eq_release_all(core);
	cx_dp_fini(core);
	free(core->report);
	core->report = NULL;
	core->report_len = 0;
}

void cx_core_timer(struct cx_core *core)
{
	cx_lro_timer(core);
	cx_cq_comp_timer(core);
	cx_cq_timer(core);
	cx_umr_timer(core);
	cx_sq_timer(core);
	cx_cq_arm_timer(core);
	cx_eq_timer(core);
	cx_cmd_timer(core);
}

/* The host-order value of the dword at @off (dword aligned). */
static uint32_t cx_read32(struct cx_core *core, uint64_t off)
{
	if (cx_iseg_contains(off))
		return cx_iseg_read32(core, off);
	return 0;
}

static void cx_write32(struct cx_core *core, uint64_t off, uint32_t val)
{
	if (off == CX_ISEG_CMD_DBELL) {
		cx_cmd_doorbell(core, val);	/* cx_cmd.c */
		return;
	}
	/*
	 * A new command queue: commands still executing go on and answer
	 * in the entry they were rung in, on the old queue: the firmware
	 * does not know the driver gave that memory back.  Only a function
	 * reset drops them.
	 */
	if (cx_iseg_contains(off))
		cx_iseg_write32(core, off, val);
}

static void cx_uar_write(struct cx_core *core, uint64_t offset,
			 uint64_t value, unsigned int size)
{
	uint32_t page = offset >> CX_PAGE_SHIFT;
	uint32_t off = offset & (CX_PAGE_SIZE - 1);
	struct cx_uar_db *db;
	unsigned int reg;

	if (!cx_uar_allocated(core, page)) {
		core->stats.uar_bad_writes++;
		cx_model_error(core, CX_MERR_UAR_UNALLOCATED,
			       "cxsim: write to UAR page %u, not allocated\n",
			       page);
		return;
	}
	core->stats.uar_writes[page]++;
	db = &core->stats.uar_db[page];
	if (size == 8 && off == CX_UAR_CQ) {
		db->cq_arm++;
		cx_cq_doorbell(core, page, value);
		return;
	}
	if (size == 8 && off >= CX_UAR_SQ_BASE && !(off % CX_UAR_SQ_HALF)) {
		/* The rest of a blue-flame write (the WQE's next qwords) is not. */
		reg = (off - CX_UAR_SQ_BASE) >> CX_LOG_BF_REG_SIZE;
		db->sq[reg]++;
		cx_sq_doorbell(core, page, reg, value);
		return;
	}
	if (size != 4)
		return;
	if (off == CX_UAR_EQ_ARM || off == CX_UAR_EQ_UPDATE) {
		db->eq++;
		cx_eq_doorbell(core, page, __builtin_bswap32((uint32_t)value),
			       off == CX_UAR_EQ_ARM);
	}
}

static int cx_is_uar(uint64_t offset)
{
	return offset >= CX_PAGE_SIZE;
}

static int cx_access_ok(uint64_t offset, unsigned int size)
{
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return 0;
	return offset < CX_CORE_MMIO_SIZE &&
	       size <= CX_CORE_MMIO_SIZE - offset;
}

uint64_t cx_core_bar0_read(struct cx_core *core, uint64_t offset,
			   unsigned int size)
{
	uint64_t value = 0;
	uint32_t dword = 0;
	unsigned int i;

	core->stats.bar_reads++;
	core->stats.pcie.mmio_reads++;
	core->stats.pcie.mmio_read_bytes += size;
	if (!cx_access_ok(offset, size)) {
		core->stats.bad_accesses++;
		cx_model_error(core, CX_MERR_BAR_BAD_ACCESS,
			       "cxsim: bad BAR0 read off 0x%llx size %u\n",
			       (unsigned long long)offset, size);
		return 0;
	}
	for (i = 0; i < size; i++) {
		uint64_t off = offset + i;
		unsigned int byte = off & 3;

		if (i == 0 || byte == 0)
			dword = cx_read32(core, off & ~3ULL);
		value |= (uint64_t)((dword >> (24 - 8 * byte)) & 0xff) << (8 * i);
	}
	return value;
}

void cx_core_bar0_write(struct cx_core *core, uint64_t offset,
			uint64_t value, unsigned int size)
{
	core->stats.bar_writes++;
	/* Every write is a posted write TLP host -> device. */
	core->stats.pcie.mmio_writes++;
	core->stats.pcie.mmio_bytes += size;
	if (cx_is_uar(offset)) {
		core->stats.pcie.mmio_uar_writes++;
		core->stats.pcie.mmio_uar_bytes += size;
	}
	/* Registers take whole dwords; a doorbell may be written as a qword. */
	if (!cx_access_ok(offset, size) || size < 4 || (offset & 3)) {
		core->stats.bad_accesses++;
		cx_model_error(core, CX_MERR_BAR_BAD_ACCESS,
			       "cxsim: ignored BAR0 write off 0x%llx size %u\n",
			       (unsigned long long)offset, size);
		return;
	}
	if (cx_is_uar(offset)) {
		cx_uar_write(core, offset, value, size);
		return;
	}
	cx_write32(core, offset, __builtin_bswap32((uint32_t)value));
	if (size == 8)
		cx_write32(core, offset + 4,
			   __builtin_bswap32((uint32_t)(value >> 32)));
}

size_t cx_core_receive(struct cx_core *core, const void *buf, size_t len)
{
	return cx_rx_frame(core, buf, len);	/* data path: cx_rx.c */
}

void cx_core_set_link(struct cx_core *core, bool up)
{
	if (core->func.nic)
		cx_port_set_link(core, up);	/* cx_vport.c */
}
