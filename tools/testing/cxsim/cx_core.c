// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim device core: BAR0 decoding, reset, and the host interface.
 *
 * BAR0 registers are big-endian dwords.  An access of any size and
 * alignment is split into bytes of those dwords, so a guest cannot make
 * the model read or write outside what it decodes.
 */
#include <string.h>

#include "cx_priv.h"

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
}

void cx_core_init(struct cx_core *core, const struct cx_host *host,
		  const struct cx_params *params)
{
	memset(core, 0, sizeof(*core));
	core->host = *host;
	core->params = *params;
	cx_core_reset(core);
}

void cx_core_reset(struct cx_core *core)
{
	cx_iseg_reset(core);
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
	if (cx_iseg_contains(off))
		cx_iseg_write32(core, off, val);
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
	if (!cx_access_ok(offset, size)) {
		core->stats.bad_accesses++;
		cx_log(core, "cxsim: bad BAR0 read off 0x%llx size %u\n",
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
	/* Registers take whole dwords; a doorbell may be written as a qword. */
	if (!cx_access_ok(offset, size) || size < 4 || (offset & 3)) {
		core->stats.bad_accesses++;
		cx_log(core, "cxsim: ignored BAR0 write off 0x%llx size %u\n",
		       (unsigned long long)offset, size);
		return;
	}
	cx_write32(core, offset, __builtin_bswap32((uint32_t)value));
	if (size == 8)
		cx_write32(core, offset + 4,
			   __builtin_bswap32((uint32_t)(value >> 32)));
}

size_t cx_core_receive(struct cx_core *core, const void *buf, size_t len)
{
	(void)buf;
	/* No receive queues yet: every frame is dropped. */
	core->stats.rx_frames++;
	core->stats.rx_drops++;
	return len;
}
