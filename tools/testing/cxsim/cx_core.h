/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim device core: a ConnectX (mlx5) function, independent of QEMU.
 *
 * The core sees the outside world only through struct cx_host.  The QEMU
 * glue (cxsim.c) and the unit tests (tests/) each provide one.
 */
#ifndef CX_CORE_H
#define CX_CORE_H

#include <stddef.h>
#include <stdint.h>

/* Total size of BAR0, and the part of it the core decodes. */
#define CX_BAR0_SIZE		(64ULL << 20)
#define CX_CORE_MMIO_SIZE	(32ULL << 20)

/* MSI-X lives in BAR0 above the core's area, where no UAR page can be. */
#define CX_MSIX_VECTORS		64
#define CX_MSIX_TABLE_OFFSET	CX_CORE_MMIO_SIZE
#define CX_MSIX_PBA_OFFSET	(CX_CORE_MMIO_SIZE + 0x10000)

/* Command interface revision the driver insists on. */
#define CX_CMDIF_REV		5

/* Command queue geometry reported in cmdq_addr_l_sz. */
#define CX_CMDQ_LOG_SZ		5	/* 32 entries */
#define CX_CMDQ_LOG_STRIDE	6	/* 64-byte entries */

/* The health counter advances once per this many ns. */
#define CX_HEALTH_TICK_NS	100000000ULL

struct cx_host {
	void *opaque;
	/* Guest memory access; return 0 on success, negative on error. */
	int (*dma_read)(void *opaque, uint64_t addr, void *buf, size_t len);
	int (*dma_write)(void *opaque, uint64_t addr, const void *buf,
			 size_t len);
	void (*msix_notify)(void *opaque, unsigned int vector);
	/* Transmit one frame on physical port @port (1-based). */
	void (*send_frame)(void *opaque, unsigned int port, const void *buf,
			   size_t len);
	/* Monotonic time in ns. */
	uint64_t (*now_ns)(void *opaque);
	/* Guest errors and model limits; may be NULL. */
	void (*log)(void *opaque, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
};

enum cx_model {
	CX_MODEL_CX5,
	CX_MODEL_CX6DX,
	CX_MODEL_CX7,
};

struct cx_params {
	enum cx_model model;
	uint16_t fw_major;
	uint16_t fw_minor;
	uint16_t fw_subminor;
	/* How long the 'initializing' bit stays set after a reset. */
	uint64_t init_delay_ns;
};

struct cx_iseg_state {
	uint64_t reset_ns;
	uint32_t cmdq_addr_h;
	uint32_t cmdq_addr_l;		/* bits 31:12 only */
	uint8_t nic_ifc;		/* MLX5_INITIAL_SEG_NIC_INTERFACE_* */
};

/* What crossed the bus; read by tests and, later, by benchmarks. */
struct cx_stats {
	uint64_t bar_reads;
	uint64_t bar_writes;
	uint64_t bad_accesses;
	uint64_t cmd_doorbells;
	uint64_t rx_frames;
	uint64_t rx_drops;
};

struct cx_core {
	struct cx_host host;
	struct cx_params params;
	struct cx_iseg_state iseg;
	struct cx_stats stats;
};

/* PCI device id of a model. */
uint16_t cx_model_device_id(enum cx_model model);
/* Parse "cx5", "cx6dx" or "cx7"; return 0 or -1 for an unknown name. */
int cx_model_parse(const char *name, enum cx_model *model);

void cx_core_default_params(struct cx_params *params);
void cx_core_init(struct cx_core *core, const struct cx_host *host,
		  const struct cx_params *params);
void cx_core_reset(struct cx_core *core);

/*
 * BAR0 access.  @value carries the bytes of the access in little-endian
 * order (byte at @offset in bits 7:0), as QEMU hands them over for a
 * DEVICE_LITTLE_ENDIAN region.  Any @offset and @size are accepted: what
 * the model does not decode reads as 0 and ignores writes.
 */
uint64_t cx_core_bar0_read(struct cx_core *core, uint64_t offset,
			   unsigned int size);
void cx_core_bar0_write(struct cx_core *core, uint64_t offset,
			uint64_t value, unsigned int size);

/* A frame from the wire; returns the number of bytes consumed. */
size_t cx_core_receive(struct cx_core *core, const void *buf, size_t len);

#endif /* CX_CORE_H */
