/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim device core: a ConnectX (mlx5) function, independent of QEMU.
 *
 * The core sees the outside world only through struct cx_host.  The QEMU
 * glue (cxsim.c) and the unit tests (tests/) each provide one.
 */
#ifndef CX_CORE_H
#define CX_CORE_H

#include <stdbool.h>
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

/* Command queue entries; the doorbell has one bit per entry. */
#define CX_CMDQ_ENTRIES		(1u << CX_CMDQ_LOG_SZ)
/* Bound of a command's input or output (inline part plus mailboxes). */
#define CX_CMD_MAX_MSG		(1u << 20)
/* Opcodes below this are counted one by one; the rest together. */
#define CX_NR_OPCODES		0x1000
#define CX_NR_REGS		10	/* registers cx_reg.c models */

/* UAR pages: 4 KiB pages of the core's part of BAR0; page 0 is the iseg. */
#define CX_UAR_PAGES		(uint32_t)(CX_CORE_MMIO_SIZE >> 12)
/*
 * Send doorbell registers of a UAR page: from 0x800, one every
 * 2^CX_LOG_BF_REG_SIZE bytes (the log_bf_reg_size capability), each with
 * two halves (the two BlueFlame buffers) that ring it alike.
 */
#define CX_UAR_SQ_BASE		0x800
#define CX_LOG_BF_REG_SIZE	9
#define CX_UAR_SQ_REGS		((4096 - CX_UAR_SQ_BASE) >> CX_LOG_BF_REG_SIZE)
#define CX_MAX_EQS		64
#define CX_LOG_MAX_EQ_SZ	16
/* Firmware pages one function may hold (64 MiB). */
#define CX_MAX_PAGES		16384
/* One capability group as QUERY_HCA_CAP returns it (hca_cap_union). */
#define CX_CAP_BYTES		4096

/*
 * Timeouts the init segment states (cmd_q_init_to, cmd_exec_to): bits
 * 31:29 the unit (0 ms, 1 s, 2 min, 3 h), bits 19:0 the value.
 */
#define CX_ISEG_TO_UNIT_SHIFT	29
#define CX_ISEG_TO_MS		0
#define CX_ISEG_TO_S		1
#define CX_FW_INIT_TO_S		120
#define CX_CMD_EXEC_TO_S	60

/* Firmware pages asked for by QUERY_PAGES (boot, init). */
#define CX_BOOT_PAGES		8
#define CX_INIT_PAGES		64

/* Test port: BAR2, for tests only (not part of the hardware). */
#define CX_TESTPORT_SIZE	0x10000
#define CX_TP_MAGIC		0x000
#define CX_TP_VERSION		0x004
#define CX_TP_SNAPSHOT		0x008
#define CX_TP_FAULT_OPCODE	0x010
#define CX_TP_FAULT_COUNT	0x014
#define CX_TP_FAULT_STATUS	0x018
#define CX_TP_FAULT_SYNDROME	0x01c
#define CX_TP_DELAY_OPCODE	0x020
#define CX_TP_DELAY_MS		0x024
#define CX_TP_DELAY_COUNT	0x028
#define CX_TP_HEALTH_FREEZE	0x030
#define CX_TP_HEALTH_SYND	0x034
#define CX_TP_PAGE_REQUEST	0x038
#define CX_TP_CMD_TIMEOUT	0x03c
#define CX_TP_LINK_DOWN		0x040
/*
 * ERR_CQE_SQN: one-shot fault.  The next WQE executed on the SQ with this
 * number completes with an error CQE (LOCAL_PROT_ERR) and the SQ goes to
 * the error state, as for a malformed WQE (the frame is not sent).  Reads
 * back the armed SQN; 0 disarms.
 */
#define CX_TP_ERR_CQE_SQN	0x044
/*
 * The report is as long as it needs (up to CX_TP_REPORT_MAX); the window
 * at CX_TP_REPORT shows one page of it.  REPORT_LEN (read-only): bytes of
 * the last snapshot, without the NUL.  REPORT_PAGE: which
 * CX_TP_REPORT_SIZE-byte page the window shows; 0 after each snapshot.
 */
#define CX_TP_REPORT_LEN	0x080
#define CX_TP_REPORT_PAGE	0x084
/*
 * FW_DEAD: the firmware stops.  Bit 0: commands rung are never executed
 * nor completed, the health counter stops and the health buffer reports
 * syndrome DEAD_IRISC with the reset-request bit; bit 1 (with bit 0): every
 * read of the init segment returns all ones, as when the device falls off
 * the bus.  Bit 2 (alone): the firmware is mute, alive but deaf to the
 * command queue: commands rung are never executed nor completed, while the
 * health counter runs and no syndrome shows.  A function reset does not
 * revive dead or mute firmware: only writing 0 here does.
 */
#define CX_TP_FW_DEAD		0x048
#define CX_TP_FW_DEAD_ON	0x1
#define CX_TP_FW_DEAD_ALL_ONES	0x2
#define CX_TP_FW_MUTE		0x4
/* DROP_IRQ: the next N MSI-X messages are lost; reads back what is left. */
#define CX_TP_DROP_IRQ		0x04c
/*
 * ERR_CQE_RQN: one-shot fault.  The next frame for the RQ with this
 * number (CX_TP_ANY_RQ: for any RQ) consumes a WQE, completes with an
 * error CQE (LOCAL_LENGTH_ERR) and puts the RQ in the error state, where
 * it drops frames until the driver moves it ERR -> RST -> RDY.  Reads back
 * the armed RQN; 0 disarms.
 */
#define CX_TP_ERR_CQE_RQN	0x050
/*
 * INLINE_MODE: an MLX5_INLINE_MODE_* (1..3) the next SEND WQE of any SQ
 * is checked against besides its own: the first one inlining less fails
 * as one breaking the vport's mode would (error CQE), and the register
 * clears.  A WQE inlining too little, without a driver that writes one.
 */
#define CX_TP_INLINE_MODE	0x054
/*
 * BAD_RX_CQE: one-shot fault.  Bits 23:0 an RQ number (CX_TP_ANY_RQ: any
 * RQ), bits 31:28 what to break (CX_TP_BAD_CQE_*): the next CQE of that
 * striding RQ (a frame's or a filler's) names the WQE after the one in
 * use (WQE_ID) or the stride after the first one consumed (STRIDE); the
 * next CQE of that legacy RQ counts 64 KiB more bytes than the frame
 * (BYTE_CNT); or the title of the next compressed block of that RQ's
 * CQEs (either RQ type) counts no CQE (TITLE_ZERO) or one more than its
 * CQ holds (TITLE_LONG).  The frames are placed and the block's slots
 * written as usual: only the CQE lies, as a device gone wrong would.
 * Reads back the armed value until taken; 0 disarms.
 */
#define CX_TP_BAD_RX_CQE	0x058
#define CX_TP_BAD_CQE_WQE_ID	0x1
#define CX_TP_BAD_CQE_STRIDE	0x2
#define CX_TP_BAD_CQE_TITLE_ZERO 0x3
#define CX_TP_BAD_CQE_TITLE_LONG 0x4
#define CX_TP_BAD_CQE_BYTE_CNT	0x5
/*
 * UMR_HOLD: ms for which a UMR WQE is held (CX_TP_ALWAYS: until
 * UMR_RELEASE); 0 disarms.  A held UMR has neither written its
 * translations nor completed: its SQ stops at it (what follows it waits),
 * and runs on once the hold ends.  UMR_HOLD_COUNT: how many UMRs may
 * still start a hold (CX_TP_ALWAYS: every one; each hold takes one).
 * UMR_RELEASE: writing anything ends every hold now and disarms both.
 */
#define CX_TP_UMR_HOLD		0x05c
#define CX_TP_UMR_HOLD_COUNT	0x060
#define CX_TP_UMR_RELEASE	0x064
/*
 * UMR_FAIL: the next N UMR WQEs (any SQ) fail as if they named an unknown
 * mkey: an error CQE (LOCAL_PROT_ERR) on their SQ, which goes to the error
 * state.  Reads back what is left.
 */
#define CX_TP_UMR_FAIL		0x068
/*
 * DMA_PROBE: writing bits 31:0 of an address (DMA_PROBE_HI holds bits
 * 63:32) makes the device DMA-write 8 bytes there through its normal DMA
 * path.  Only for the VM runner's self-test: behind an IOMMU with no
 * mapping for the address, the write faults and counts as a model error
 * (dma.fail.wr.other).  Reads back how the last probe went
 * (CX_TP_DMA_PROBE_*; 0: none yet).
 */
#define CX_TP_DMA_PROBE		0x06c
#define CX_TP_DMA_PROBE_HI	0x070
#define CX_TP_DMA_PROBE_DONE	1
#define CX_TP_DMA_PROBE_FAILED	2
#define CX_TP_DMA_PROBE_BLOCKED	3	/* bus mastering off: not sent */
/*
 * MSIX_RAISE: an MSI-X message on a vector, as a device that signals
 * whenever it likes would send.  Bits 5:0 the vector; with bit 30
 * (CX_TP_MSIX_NOW) the message goes at once; with bit 31
 * (CX_TP_MSIX_ON_CREATE_EQ) it goes when the next CREATE_EQ is rung,
 * before the model executes it (or delays it: see DELAY_*), and the
 * register clears; with neither, an armed message is disarmed.  Through
 * the function's MSI-X table, as any message of the model: masked, it
 * waits as pending.  Reads back the armed value (0: none).
 */
#define CX_TP_MSIX_RAISE	0x074
#define CX_TP_MSIX_ON_CREATE_EQ	0x80000000u
#define CX_TP_MSIX_NOW		0x40000000u
#define CX_TP_MSIX_VECTOR_MASK	0x3fu
#define CX_TP_ANY_RQ		0xffffff
/*
 * PAGE_OFFSET: while not 0, every page address MANAGE_PAGES(take) hands
 * back carries this in-page offset (bits 11:0), as a device returning
 * what it was given plus an offset would; the page itself is returned.
 */
#define CX_TP_PAGE_OFFSET	0x08c
/*
 * PAGE_BOGUS: the next N addresses MANAGE_PAGES(take) hands back are ones
 * the driver never gave (a held page's address with CX_PAGE_BOGUS_BIT
 * flipped); that page stays with the device for a later take.  Reads
 * back what is left.
 */
#define CX_TP_PAGE_BOGUS	0x090
#define CX_PAGE_BOGUS_BIT	(1ull << 47)
/*
 * EQ_FLOOD: N PORT_CHANGE events (the port's state as it is: nothing
 * changes) posted to the EQ that takes them as fast as the driver
 * consumes them: at the write and at each consumer-index doorbell of that
 * EQ the model tops it up to half its entries (the other half stays free
 * for the device's own events).  Reads back what is left; 0 stops.  The
 * report's eq.flood_ns: how long the last flood has run (to its last
 * event posted), on the device's clock.
 */
#define CX_TP_EQ_FLOOD		0x094
/*
 * XOFF: 1: the link partner holds the port off with PAUSE frames (XOFF,
 * refreshed before its quanta run out); 0: it lets go (XON).  Each write
 * that changes it is one PAUSE frame received.  While held off, and only
 * where global RX pause is on (PFCC pprx), the port sends nothing: SQs
 * that send frames stop at their next WQE, their CQEs wait, the driver's
 * ring fills.  UMR-only work (reg_umr SQs) goes on, as on hardware.  A
 * PAUSE frame is honoured or not as it arrives: PFCC changes take effect
 * at the next one.  Reads back whether the port is held off.
 */
#define CX_TP_XOFF		0x098
/*
 * INIT_PAGES: while not 0, QUERY_PAGES(init) answers this many pages
 * instead of the model's own figure, as a firmware asking for more than
 * a host can give (10^8) would.  Cleared by a function reset.
 */
#define CX_TP_INIT_PAGES	0x09c
/*
 * FEC_CORRECTED, FEC_UNCORRECTABLE: N more blocks the port's FEC decoder
 * corrected, or found it could not correct (the link partner's noise),
 * counted by the FEC the link runs: BASE-R spreads them over its four
 * lanes (lane 0 first), RS counts them for the port; corrected ones add
 * one corrected bit each.  With the link down or no FEC running none is
 * counted (the report's port.fec_uncounted).  The frames themselves
 * cross intact.  Read back the sum written since the last function
 * reset.
 */
#define CX_TP_FEC_CORRECTED	0x0a0
#define CX_TP_FEC_UNCORRECTABLE	0x0a4
/* HEALTH_SYND: bit 8 also sets the reset-request (RFR) bit: fatal. */
#define CX_TP_HEALTH_SYND_RFR	0x100
#define CX_TP_REPORT		0x8000
#define CX_TP_REPORT_SIZE	(CX_TESTPORT_SIZE - CX_TP_REPORT)
#define CX_TP_REPORT_MAX	(16u << 20)
#define CX_TP_MAGIC_VALUE	0x4d534358u	/* "XCSM" read as LE bytes */
#define CX_TP_VERSION_VALUE	1
#define CX_TP_ALWAYS		0xffffffffu

struct cx_host {
	void *opaque;
	/* Guest memory access; return 0 on success, negative on error. */
	int (*dma_read)(void *opaque, uint64_t addr, void *buf, size_t len);
	int (*dma_write)(void *opaque, uint64_t addr, const void *buf,
			 size_t len);
	void (*msix_notify)(void *opaque, unsigned int vector);
	/*
	 * Would a message on @vector wait (vector or function masked, or
	 * MSI-X off) rather than be delivered now?  Only counted; may be
	 * NULL (never).
	 */
	bool (*msix_masked)(void *opaque, unsigned int vector);
	/* Transmit one frame on physical port @port (1-based). */
	void (*send_frame)(void *opaque, unsigned int port, const void *buf,
			   size_t len);
	/*
	 * Hand one frame port @port transmitted back to its own receiver
	 * (phy local loopback, PPLR): the host gives it to
	 * cx_core_receive() as a frame from the wire, now or soon after.
	 * May be NULL: looped frames are lost.
	 */
	void (*loop_frame)(void *opaque, unsigned int port, const void *buf,
			   size_t len);
	/* Monotonic time in ns. */
	uint64_t (*now_ns)(void *opaque);
	/*
	 * Call cx_core_timer() once the clock reaches @deadline_ns;
	 * 0 cancels.  One timer; a new deadline replaces the old.  May be
	 * NULL: delayed command completions then happen at once.
	 */
	void (*timer_mod)(void *opaque, uint64_t deadline_ns);
	/* Guest errors and model limits; may be NULL. */
	void (*log)(void *opaque, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	/*
	 * A model error (enum cx_merr) was counted: @kind its report name,
	 * @msg the log line (also given to log).  The glue shows the first
	 * ones whatever the log level; may be NULL.
	 */
	void (*model_error)(void *opaque, const char *kind, const char *msg);
};

/*
 * What cx_host.dma_read/dma_write return when the function may not master
 * the bus (PCI_COMMAND_MASTER clear): nothing was transferred, as on
 * hardware, and no error of the guest's (a driver that stops a device's
 * DMA this way does right).  Any other negative value: the access failed
 * (no memory there, or the IOMMU refused it), a model error.
 */
#define CX_DMA_BLOCKED		(-2)

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
	/* Enhanced multi-packet send WQEs (off: like a ConnectX-4). */
	bool mpwqe;
	/* The eseg may ask for a VLAN tag to be inserted (wqe_vlan_insert). */
	bool vlan_insert;
	/* CQE compression (cqe_compression, mini_cqe_resp_stride_index). */
	bool cqe_comp;
	/*
	 * MLX5_INLINE_MODE_*: headers every SEND WQE must inline, announced
	 * through the NIC vport context (NONE: wqe_inline_mode not required).
	 */
	uint8_t min_inline;
	/* Permanent MAC address of the function's port. */
	uint8_t mac[6];
	/*
	 * The asynchronous engine (cx_tx.c, cx_cq.c, cx_eq.c): a doorbell
	 * only records work, which the device does latency_ns plus a seeded
	 * jitter in [0, jitter_ns] later, on the host timer, at most
	 * sq_budget WQEs of an SQ a step.  latency_ns and jitter_ns both 0,
	 * or no host timer: the work is done inside the doorbell write.
	 */
	uint64_t latency_ns;
	uint64_t jitter_ns;
	uint64_t seed;			/* of the jitter; same seed, same delays */
	uint32_t sq_budget;		/* 0: CX_SQ_BUDGET */
	/*
	 * The wire's speed in Mb/s (asynchronous engine only; 0: no limit):
	 * an SQ sends no frame while the wire is still busy with the last.
	 */
	uint32_t speed_mbps;
};

/* WQEs one SQ runs in one step of the asynchronous engine, by default. */
#define CX_SQ_BUDGET		64

struct cx_iseg_state {
	uint64_t reset_ns;
	uint32_t cmdq_addr_h;
	uint32_t cmdq_addr_l;		/* bits 31:12 only */
	uint8_t nic_ifc;		/* MLX5_INITIAL_SEG_NIC_INTERFACE_* */
	bool health_frozen;
	uint32_t health_frozen_value;
	uint8_t health_synd;
	bool health_rfr;		/* reset requested: the syndrome is fatal */
	/* 'initializing' raised again by a command queue address write. */
	uint64_t cmdq_write_ns;
};

enum cx_hca_state {
	CX_HCA_DISABLED,
	CX_HCA_ENABLED,
	CX_HCA_INITIALISED,
};

/* Objects a function creates on the device, for leak accounting. */
enum cx_obj_type {
	CX_OBJ_EQ,
	CX_OBJ_UAR,
	CX_OBJ_PD,
	CX_OBJ_TD,
	CX_OBJ_MKEY,
	CX_OBJ_QCNT,
	CX_OBJ_CQ,
	CX_OBJ_SQ,
	CX_OBJ_RQ,
	CX_OBJ_TIS,
	CX_OBJ_TIR,
	CX_OBJ_RQT,
	CX_OBJ_FT,
	CX_OBJ_FG,
	CX_OBJ_FTE,
	CX_OBJ_FC,
	CX_OBJ_NTYPES,
};

struct cx_nic;
struct cx_dp;

struct cx_eq {
	bool valid;
	uint8_t log_nent;
	uint8_t log_page_size;
	uint16_t intr;
	uint32_t uar_page;
	uint64_t events[4];
	uint64_t *pas;
	uint32_t npas;
	uint32_t prod;		/* EQEs written, free running */
	uint32_t cons;		/* consumer index from the doorbell, 24 bits */
	bool armed;
	bool arm_pending;	/* asynchronous: an arm not yet taken */
	uint64_t arm_due_ns;
	uint64_t posted;
	uint64_t overruns;
};

/* What a function left behind when it was disabled or reset. */
struct cx_leak {
	uint32_t objects[CX_OBJ_NTYPES];
	uint32_t pages;
};

/* Faults injected through the test port. */
struct cx_faults {
	uint32_t fail_opcode;		/* 0: none */
	uint32_t fail_count;		/* CX_TP_ALWAYS: every time */
	uint32_t fail_status;
	uint32_t fail_syndrome;
	uint32_t delay_opcode;		/* 0: every command */
	uint32_t delay_ms;
	uint32_t delay_count;		/* CX_TP_ALWAYS: every time */
	uint32_t cmd_timeout_ms;	/* 0: the default, CX_CMD_EXEC_TO_S */
	uint32_t err_cqe_sqn;		/* 0: none; one-shot TX error CQE */
	uint32_t err_cqe_rqn;		/* 0: none; one-shot RX error CQE */
	uint32_t drop_irqs;		/* MSI-X messages still to lose */
	uint8_t inline_mode;		/* 0: none; one-shot stricter check */
	uint32_t bad_rx_cqe;		/* CX_TP_BAD_RX_CQE; 0: none */
	uint32_t umr_hold_ms;		/* 0: none; CX_TP_ALWAYS: until released */
	uint32_t umr_hold_count;	/* holds left (CX_TP_ALWAYS: no limit) */
	uint32_t umr_fail;		/* UMRs still to fail */
	uint32_t page_offset;		/* CX_TP_PAGE_OFFSET; 0: none */
	uint32_t page_bogus;		/* bogus page returns still to make */
	uint32_t eq_flood;		/* flood events still to post */
	uint8_t eq_flood_subtype;	/* of the flood's PORT_CHANGE EQEs */
	uint64_t eq_flood_start_ns;	/* when the last flood was asked */
	uint64_t eq_flood_end_ns;	/* its last event posted; 0: not yet */
	uint32_t msix_on_create_eq;	/* CX_TP_MSIX_RAISE armed; 0: none */
	bool xoff;			/* CX_TP_XOFF written, and honoured */
	bool xoff_asked;		/* CX_TP_XOFF as last written */
	uint32_t init_pages;		/* CX_TP_INIT_PAGES; 0: CX_INIT_PAGES */
	uint32_t fec_corrected;		/* CX_TP_FEC_CORRECTED written, summed */
	uint32_t fec_uncorrectable;	/* CX_TP_FEC_UNCORRECTABLE, summed */
};

/* The function's firmware-side state. */
struct cx_func {
	enum cx_hca_state state;
	uint8_t issi;
	uint32_t host_endianness;
	uint8_t cap_general_cur[CX_CAP_BYTES];
	uint64_t pages[CX_MAX_PAGES];
	uint32_t npages;
	uint8_t uar_used[CX_UAR_PAGES / 8];
	struct cx_eq eq[CX_MAX_EQS];
	uint32_t alive[CX_OBJ_NTYPES];
	/* Ethernet objects, vport and port (cx_obj.h). */
	struct cx_nic *nic;
};

/* Command queue entries whose completion is delayed. */
struct cx_cmdq {
	uint32_t delayed;		/* bitmap of entries */
	uint64_t deadline[CX_CMDQ_ENTRIES];
	/* where each delayed entry was rung: it answers there */
	uint64_t entry[CX_CMDQ_ENTRIES];
};

/*
 * Why the core reads guest memory: PCIe inbound accounting (cx_priv.h).
 * The data path sets core->dma_purpose around reads it knows the purpose
 * of; everything else counts as OTHER.
 */
enum cx_dma_purpose {
	CX_DMA_OTHER,
	CX_DMA_WQE,		/* send/receive WQE (descriptor) fetch */
	CX_DMA_PAYLOAD,		/* TX data gathered by data segments */
	CX_DMA_DBR,		/* doorbell records (SQ/RQ pc, CQ ci) */
	CX_DMA_CMD,		/* command entries and mailboxes */
	CX_DMA_NPURPOSES,
};

/*
 * Why the core writes guest memory: PCIe outbound accounting.  Writers set
 * core->dma_wpurpose around writes (cx_dma_write_as()); others count as
 * OTHER.
 */
enum cx_dma_wpurpose {
	CX_DMAW_OTHER,
	CX_DMAW_CQE,		/* completion queue entries */
	CX_DMAW_EQE,		/* event queue entries */
	CX_DMAW_RX,		/* received frame data */
	CX_DMAW_CMD,		/* command outputs, mailboxes, ownership */
	CX_DMAW_NPURPOSES,
};

/*
 * Model errors: what the device notices the guest got wrong (a faulted
 * DMA, an overrun queue, a doorbell for nothing, a malformed WQE the test
 * port did not ask for, ...).  Counted by kind (cx_model_error(), cx_err.c),
 * shown in the report as "model_errors N" and "model_error.<kind> N"; the
 * VM runner fails a run that has any it was not told to expect.  Faults the
 * test port injects are not model errors.
 */
enum cx_merr {
	/* A DMA read (CX_MERR_DMA_RD + enum cx_dma_purpose) failed. */
	CX_MERR_DMA_RD,
	/* A DMA write (CX_MERR_DMA_WR + enum cx_dma_wpurpose) failed. */
	CX_MERR_DMA_WR = CX_MERR_DMA_RD + CX_DMA_NPURPOSES,
	CX_MERR_CQ_OVERRUN = CX_MERR_DMA_WR + CX_DMAW_NPURPOSES,
	CX_MERR_EQ_OVERRUN,
	CX_MERR_EQ_CI_AHEAD,		/* EQ consumer index past the producer */
	CX_MERR_DB_UNKNOWN_SQ,		/* doorbell for no such queue */
	CX_MERR_DB_UNKNOWN_CQ,
	CX_MERR_DB_UNKNOWN_EQ,
	CX_MERR_DB_WRONG_UAR_SQ,	/* the queue's, on another UAR page */
	CX_MERR_DB_WRONG_UAR_CQ,
	CX_MERR_DB_WRONG_UAR_EQ,
	CX_MERR_UAR_UNALLOCATED,	/* a write to a UAR page not allocated */
	CX_MERR_BAR_BAD_ACCESS,		/* BAR0 access of a size/offset refused */
	CX_MERR_SQ_ERROR_CQE,		/* a WQE failed (error CQE), not injected */
	CX_MERR_RQ_ERROR_CQE,		/* an RX data access refused, not injected */
	CX_MERR_UMR_EARLY_USE,		/* RX WQE used before its UMR completed */
	CX_MERR_CMD_NO_QUEUE,		/* command doorbell, no queue address */
	CX_MERR_CMD_EARLY,		/* command doorbell while initializing */
	CX_MERR_CMD_DELIVERY,		/* a malformed command entry */
	CX_MERR_CMD_BUSY,		/* doorbell for an entry still executing */
	CX_MERR_PAGES_BAD_GIVE,		/* a firmware page unaligned or given twice */
	CX_MERR_RQ_OVERPOSTED,		/* an RQ counter more than a ring ahead */
	CX_MERR_NKINDS,
};

/* PCIe transaction model (see README "PCIe accounting"). */
#define CX_PCIE_MRRS		512	/* max read request size */
#define CX_PCIE_MPS		256	/* max payload size (completions) */
#define CX_PCIE_BOUNDARY	4096	/* requests never cross it */

struct cx_pcie_rd {
	uint64_t req;		/* DMA reads (contiguous runs, see cx_priv.h) */
	uint64_t bytes;
	uint64_t tlps;		/* read request TLPs (MRRS, 4 KiB) */
	uint64_t cpl_tlps;	/* completion TLPs (MPS per request TLP) */
};

/* Device -> host writes: posted, split at 4 KiB then at MPS. */
struct cx_pcie_wr {
	uint64_t req;		/* DMA writes */
	uint64_t bytes;
	uint64_t tlps;		/* posted write TLPs */
	/*
	 * 4 KiB pages entered: a write to a page other than the last one
	 * written for this purpose.  For received frames, the pages the
	 * driver's buffers take per packet (buffers of one page are
	 * consecutive on both RQ types).
	 */
	uint64_t pages;
	uint64_t last_page;	/* page number + 1; 0: none yet */
};

struct cx_pcie_stats {
	struct cx_pcie_rd rd[CX_DMA_NPURPOSES];
	struct cx_pcie_wr wr[CX_DMAW_NPURPOSES];
	/* Coalescing: where the last read of each purpose started/ended. */
	uint64_t last_start[CX_DMA_NPURPOSES];
	uint64_t last_end[CX_DMA_NPURPOSES];
	/* Host -> device MMIO to BAR0 (posted writes, non-posted reads). */
	uint64_t mmio_writes, mmio_bytes;
	uint64_t mmio_uar_writes, mmio_uar_bytes;	/* UAR doorbells */
	uint64_t mmio_reads, mmio_read_bytes;
};

/* The doorbells one UAR page took, by kind and send doorbell register. */
struct cx_uar_db {
	uint64_t sq[CX_UAR_SQ_REGS];	/* 8-byte writes to each register */
	uint64_t cq_arm;		/* 0x020 */
	uint64_t eq;			/* 0x040 and 0x048 */
};

/* What crossed the bus; read by tests and, later, by benchmarks. */
struct cx_stats {
	uint64_t bar_reads;
	uint64_t bar_writes;
	uint64_t bad_accesses;
	uint64_t cmd_doorbells;
	uint64_t rx_frames;
	uint64_t rx_drops;
	uint64_t cmds;
	uint64_t cmd_errors;		/* delivery errors and bad statuses */
	uint64_t cmd_delivery_errors;
	uint64_t cmd_faults;		/* injected failures */
	uint64_t cmd_delays;		/* injected delays */
	uint64_t cmd_busy;		/* doorbells for entries still executing */
	uint64_t cmd_other;		/* opcodes >= CX_NR_OPCODES */
	uint64_t eqe_posted;
	uint64_t eqe_dropped;		/* no EQ subscribed, or DMA failed */
	uint64_t eq_overruns;
	uint64_t eq_doorbells;
	uint64_t eq_ci_bad;	/* EQ doorbells with a ci past the producer */
	uint64_t eq_flood_posted;	/* EQ_FLOOD events posted */
	uint64_t pages_offset_returns;	/* returned with PAGE_OFFSET */
	uint64_t pages_bogus_returns;	/* PAGE_BOGUS addresses returned */
	uint64_t msix_sent;		/* delivered at once */
	uint64_t msix_masked;		/* found masked (left pending) */
	uint64_t msix_vec_sent[CX_MSIX_VECTORS];
	uint64_t msix_vec_masked[CX_MSIX_VECTORS];
	uint64_t uar_bad_writes;	/* writes to pages not allocated */
	uint64_t teardowns;
	uint64_t enables;
	uint64_t leak_reports;		/* non-zero leak reports */
	uint64_t resets;
	uint64_t irqs_dropped;		/* injected: DROP_IRQ */
	uint64_t cmd_dead;		/* doorbells ignored: firmware dead */
	uint64_t cmd_muted;		/* doorbells ignored: firmware mute */
	uint64_t cmd_early;		/* doorbells while initializing */
	uint64_t dma_blocked;		/* DMAs with bus mastering off */
	uint64_t model_errors;		/* all kinds; never reset */
	uint64_t model_error[CX_MERR_NKINDS];
	uint32_t cmd_count[CX_NR_OPCODES];
	/* ACCESS_REG by register (cx_reg_name()), reads and writes. */
	uint32_t reg_reads[CX_NR_REGS];
	uint32_t reg_writes[CX_NR_REGS];
	uint64_t uar_writes[CX_UAR_PAGES];
	struct cx_uar_db uar_db[CX_UAR_PAGES];
	struct cx_pcie_stats pcie;
};

struct cx_core {
	struct cx_host host;
	struct cx_params params;
	struct cx_iseg_state iseg;
	struct cx_func func;
	struct cx_cmdq cmdq;
	struct cx_faults faults;
	uint32_t fw_dead;		/* CX_TP_FW_DEAD_*; survives resets */
	uint32_t dma_probe;		/* CX_TP_DMA_PROBE_*: the last one */
	uint32_t dma_probe_hi;
	struct cx_leak last_leak;
	struct cx_stats stats;
	struct cx_dp *dp;		/* data path (cx_dp.h), lazily allocated */
	uint64_t eq_arm_deadline;	/* earliest EQ arm due (ns), 0: none */
	enum cx_dma_purpose dma_purpose;	/* of the reads in progress */
	enum cx_dma_wpurpose dma_wpurpose;	/* of the writes in progress */
	/* The last snapshot of the report (test port), NUL-terminated. */
	char *report;
	size_t report_len;
	uint32_t report_page;
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
/* The cable (QEMU set_link): PORT_CHANGE events, no frames while down. */
void cx_core_set_link(struct cx_core *core, bool up);

/* The host timer armed through cx_host.timer_mod expired. */
void cx_core_timer(struct cx_core *core);

/* Test port (BAR2) access: little-endian registers and the report. */
uint64_t cx_core_testport_read(struct cx_core *core, uint64_t offset,
			       unsigned int size);
void cx_core_testport_write(struct cx_core *core, uint64_t offset,
			    uint64_t value, unsigned int size);

/*
 * Write the report ("key value" lines) into @buf of @size bytes,
 * NUL-terminated; returns its length without the NUL.  The last line is
 * "report.truncated N": N lines did not fit (0: complete).
 */
size_t cx_core_report(struct cx_core *core, char *buf, size_t size);
/* A fresh snapshot of the whole report, as the test port shows it. */
const char *cx_core_report_text(struct cx_core *core, size_t *len);

/* Release what the core allocated (page lists, objects, the report). */
void cx_core_fini(struct cx_core *core);

#endif /* CX_CORE_H */
