/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The device core's own prototypes: what core/ files call of each other.
 * The Ethernet side never includes this header; it uses only the public
 * include/mlx5_core.h.
 */
#ifndef __MLX5_CORE_PRIV_H__
#define __MLX5_CORE_PRIV_H__

#ifdef MLX5_EN_SIDE
#error "core/priv.h is the core's own: the Ethernet side uses include/mlx5_core.h"
#endif

#include <linux/build_bug.h>
#include <linux/container_of.h>
#include <linux/ptp_clock_kernel.h>
#include <linux/seqlock.h>
#include <linux/timecounter.h>

#include "mlx5_core.h"

/* The command interface revision this driver speaks. */
#define MLX5_CMDIF_REV		5

/* BAR0 carries the init segment and the UAR pages. */
#define MLX5_BAR0_MIN_SIZE	SZ_32M

/* Time the firmware may take to clear the initializing bit after reset. */
#define MLX5_FW_INIT_TIMEOUT_MS	120000
#define MLX5_FW_INIT_WARN_MS	5000

/* The header every command input and output starts with. */
struct mlx5_ifc_mbox_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_mbox_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

/*
 * Command execution timeout when the init segment states none, and the
 * most it may state: upstream's default.
 */
#define MLX5_CMD_TIMEOUT_MS	60000
/*
 * Commands timed out in a row, with no answer from the device between
 * them, that make the firmware mute (see core/cmd.c): as many as the
 * health polls a stuck counter may miss.
 */
#define MLX5_CMD_MUTE_TIMEOUTS	3
#define MLX5_CMD_MAX_SLOTS	32

struct mlx5_cmd_mbox;

/**
 * enum mlx5_cmd_slot_state - life of a command queue entry
 * @MLX5_CMD_SLOT_FREE: nobody uses it
 * @MLX5_CMD_SLOT_TAKEN: a command is being written into it
 * @MLX5_CMD_SLOT_POSTED: handed to the device; its caller waits
 * @MLX5_CMD_SLOT_DONE: the device answered; its caller reads the output
 * @MLX5_CMD_SLOT_ABANDONED: its caller gave up (timeout, internal error)
 *	while the device still owns it; the device's late answer, or the
 *	queue's cleanup, frees it
 */
enum mlx5_cmd_slot_state {
	MLX5_CMD_SLOT_FREE,
	MLX5_CMD_SLOT_TAKEN,
	MLX5_CMD_SLOT_POSTED,
	MLX5_CMD_SLOT_DONE,
	MLX5_CMD_SLOT_ABANDONED,
};

/**
 * struct mlx5_cmd_slot - one entry of the command queue
 * @state: see &enum mlx5_cmd_slot_state; changes under &mlx5_cmd.lock
 * @flushed: completed by the internal error flush, not by the device
 * @done: completed when the device answers (or the flush)
 * @token: token of the command in flight, echoed in its mailboxes
 * @opcode: opcode of the command in flight, for log lines
 * @in: input mailboxes of the command in flight
 * @out: output mailboxes of the command in flight
 */
struct mlx5_cmd_slot {
	enum mlx5_cmd_slot_state state;
	bool flushed;
	struct completion done;
	u8 token;
	u16 opcode;
	struct mlx5_cmd_mbox *in;
	struct mlx5_cmd_mbox *out;
};

/**
 * struct mlx5_cmd - the firmware command interface
 * @queue: the entries, one adapter page of DMA memory
 * @queue_dma: bus address of @queue
 * @pool: mailbox blocks of this queue (a new queue has a new pool)
 * @log_sz: log2 of the number of entries, as the device reports it
 * @log_stride: log2 of the entry size, as the device reports it
 * @nslots: number of entries; the last one is reserved for MANAGE_PAGES
 * @lock: protects the entries' state and @token
 * @slot_wq: woken when an entry becomes free or the device dies
 * @mode_sem: held for reading by every command in flight, for writing by
 *	the switch between polling and events, which so drains them
 * @token: last token handed out
 * @use_events: completions arrive as EQEs (else the driver polls)
 * @up: commands may be posted
 * @timeout_ms: how long a command may take
 * @timeout_capped: the init segment stated more than MLX5_CMD_TIMEOUT_MS
 *	(logged once)
 * @timeouts: commands that timed out since probe
 * @unanswered: commands that timed out in a row since the device last
 *	answered one; under @lock, kept across queues (a new queue is no
 *	answer)
 * @unanswered_since: since when the device answered nothing (jiffies):
 *	its last answer, or the post of the first of @unanswered if later
 * @late: late answers that freed an abandoned entry, since probe
 * @eq_recoveries: commands completed by polling the EQ after a lost
 *	interrupt, since probe
 * @slot: per-entry state
 */
struct mlx5_cmd {
	void *queue;
	dma_addr_t queue_dma;
	struct dma_pool *pool;
	u8 log_sz;
	u8 log_stride;
	unsigned int nslots;
	spinlock_t lock; /* entries' state and tokens */
	wait_queue_head_t slot_wq;
	struct rw_semaphore mode_sem;
	u8 token;
	bool use_events;
	bool up;
	unsigned int timeout_ms;
	bool timeout_capped;
	atomic_t timeouts;
	unsigned int unanswered;
	unsigned long unanswered_since;
	atomic_t late;
	atomic_t eq_recoveries;
	struct mlx5_cmd_slot slot[MLX5_CMD_MAX_SLOTS];
};

/**
 * struct mlx5_pages - firmware pages given to the device
 * @tree: page of each given bus address (by adapter page number)
 * @count: pages the device holds
 * @lock: serialises give and take
 * @wq: runs page requests from the async EQ
 * @req_work: gives or takes the pages of @pending
 * @give_pending: pages the device asked for, not yet given
 * @take_pending: pages the device offered back, not yet taken
 * @refuse_pending: requests refused, the device not yet told
 * @req_func: function of the latest request
 * @bad_returns: addresses the device handed back that were never given
 * @bad_return_warned: the first of them was warned about
 * @refused: requests refused for asking too many pages
 * @dbg: debugfs directory of the device
 */
struct mlx5_pages {
	struct xarray tree;
	int count;
	struct mutex lock; /* give/take */
	struct workqueue_struct *wq;
	struct work_struct req_work;
	atomic_t give_pending;
	atomic_t take_pending;
	atomic_t refuse_pending;
	u16 req_func;
	u32 bad_returns;
	bool bad_return_warned;
	u32 refused;
	struct dentry *dbg;
};

/**
 * enum mlx5_sensor - fatal conditions the health poll looks for
 * @MLX5_SENSOR_NO_ERR: none
 * @MLX5_SENSOR_PCI_COMM_ERR: reads of the init segment return all ones
 * @MLX5_SENSOR_PCI_ERR: the PCI channel is offline (AER/DPC)
 * @MLX5_SENSOR_NIC_DISABLED: the NIC interface is disabled
 * @MLX5_SENSOR_NIC_SW_RESET: the NIC interface is in SW reset
 * @MLX5_SENSOR_FW_SYND_RFR: a health syndrome that requests a reset
 * @MLX5_SENSOR_FW_MUTE: the firmware answers no command (found by the
 *	command interface, not by the poll)
 * @MLX5_SENSOR_PCI_AER: the PCI core reported an error of the function
 *	(AER, DPC) and recovers it (not a poll's finding)
 */
enum mlx5_sensor {
	MLX5_SENSOR_NO_ERR,
	MLX5_SENSOR_PCI_COMM_ERR,
	MLX5_SENSOR_PCI_ERR,
	MLX5_SENSOR_NIC_DISABLED,
	MLX5_SENSOR_NIC_SW_RESET,
	MLX5_SENSOR_FW_SYND_RFR,
	MLX5_SENSOR_FW_MUTE,
	MLX5_SENSOR_PCI_AER,
};

/**
 * struct mlx5_health - firmware health monitoring
 * @wq: the device's health workqueue (poll, reports, recovery)
 * @poll: periodic check of the init segment
 * @report: reports a non-fatal failure to @fw_reporter
 * @fatal_report: reports a fatal failure to @fatal_reporter (which recovers)
 * @fw_reporter: the devlink health reporter "fw" (reports only)
 * @fatal_reporter: the devlink health reporter "fw_fatal" (recovers)
 * @report_msg: what @report says
 * @prev_counter: health counter at the previous poll
 * @miss: consecutive polls without the counter moving
 * @synd: syndrome at the last poll (or of the fatal failure)
 * @fatal: the fatal condition found, &enum mlx5_sensor
 * @polls: polls done since probe
 * @fatal_poll: value of @polls when the fatal condition was found
 * @stopping: no new report work may be queued
 */
struct mlx5_health {
	struct workqueue_struct *wq;
	struct delayed_work poll;
	struct work_struct report;
	struct work_struct fatal_report;
	struct devlink_health_reporter *fw_reporter;
	struct devlink_health_reporter *fatal_reporter;
	const char *report_msg;
	u32 prev_counter;
	unsigned int miss;
	u8 synd;
	enum mlx5_sensor fatal;
	u32 polls;
	u32 fatal_poll;
	bool stopping;
};

#define MLX5_HEALTH_POLL_MS	1000
#define MLX5_HEALTH_MAX_MISS	3

/**
 * struct mlx5_clock - the PTP hardware clock over the internal timer
 * @lock: writers of @tc and @cycles.mult (set, adjust, overflow check)
 *	against lockless readers
 * @cycles: the free-running internal timer as a cyclecounter (its low
 *	bits, in @cycles.mask), scaled by @cycles.mult >> @cycles.shift
 * @tc: the clock's nanoseconds: the timer's cycles scaled, plus an offset
 * @nominal_mult: @cycles.mult at the frequency the device reports
 * @overflow_period: jiffies between two overflow checks: less than a
 *	third of a wrap of @cycles, and short enough that cycles times
 *	@cycles.mult stays within 63 bits
 * @info: the PHC's operations and limits
 * @ptp: the registered PHC, or NULL (no PTP support in the kernel, no
 *	frequency reported, or not loaded)
 * @index: the PHC's index, N of /dev/ptpN, while @ptp is set
 *
 * Set up on every load, torn down on every unload (core/clock.c).
 */
struct mlx5_clock {
	seqlock_t lock;
	struct cyclecounter cycles;
	struct timecounter tc;
	u32 nominal_mult;
	unsigned long overflow_period;
	struct ptp_clock_info info;
	struct ptp_clock *ptp;
	int index;
};

/**
 * struct mlx5_core_priv - the core's view of one PCI function
 * @dev: what the Ethernet side sees (first: the devlink instance's private
 *	area starts with it)
 * @cmd: the firmware command interface
 * @pages: firmware pages
 * @health: firmware health monitoring
 * @eq_bufs: EQ buffers kept because the device may still write them (their
 *	DESTROY_EQ was not acknowledged); freed once the function is reset
 * @clock: the PTP hardware clock
 */
struct mlx5_core_priv {
	struct mlx5_core_dev dev;
	struct mlx5_cmd cmd;
	struct mlx5_pages pages;
	struct mlx5_health health;
	struct list_head eq_bufs;
	struct mlx5_clock clock;
};

static_assert(offsetof(struct mlx5_core_priv, dev) == 0);

static inline struct mlx5_core_priv *mlx5_priv(struct mlx5_core_dev *dev)
{
	return container_of(dev, struct mlx5_core_priv, dev);
}

/* core/iseg.c */
void mlx5_iseg_read_versions(struct mlx5_core_dev *dev);
int mlx5_iseg_wait_fw_init(struct mlx5_core_dev *dev, unsigned int timeout_ms);

/* core/cmd.c */
int mlx5_cmd_init(struct mlx5_core_dev *dev);
void mlx5_cmd_disable(struct mlx5_core_dev *dev);
void mlx5_cmd_cleanup(struct mlx5_core_dev *dev);
void mlx5_cmd_use_events(struct mlx5_core_dev *dev);
void mlx5_cmd_use_polling(struct mlx5_core_dev *dev);
void mlx5_cmd_comp_handler(struct mlx5_core_dev *dev, u32 vector);
void mlx5_cmd_flush(struct mlx5_core_dev *dev);
int mlx5_cmd_wait_late(struct mlx5_core_dev *dev);

/* core/fw.c */
int mlx5_cmd_enable_hca(struct mlx5_core_dev *dev);
int mlx5_cmd_disable_hca(struct mlx5_core_dev *dev);
int mlx5_cmd_set_issi(struct mlx5_core_dev *dev);
int mlx5_cmd_init_hca(struct mlx5_core_dev *dev);
int mlx5_cmd_teardown_hca(struct mlx5_core_dev *dev);
int mlx5_caps_alloc(struct mlx5_core_dev *dev);
void mlx5_caps_free(struct mlx5_core_dev *dev);
int mlx5_query_caps(struct mlx5_core_dev *dev, enum mlx5_cap_type type);
int mlx5_handle_hca_caps(struct mlx5_core_dev *dev);
int mlx5_query_all_caps(struct mlx5_core_dev *dev);
int mlx5_query_board_id(struct mlx5_core_dev *dev);

/* core/main.c */
extern struct dentry *mlx5_debugfs_root;

/* core/pagealloc.c */
int mlx5_pagealloc_init(struct mlx5_core_dev *dev);
void mlx5_pagealloc_cleanup(struct mlx5_core_dev *dev);
int mlx5_satisfy_startup_pages(struct mlx5_core_dev *dev, bool boot);
int mlx5_reclaim_startup_pages(struct mlx5_core_dev *dev);
void mlx5_pages_request(struct mlx5_core_dev *dev, u16 func_id, s32 npages);

/* core/uar.c */
int mlx5_uar_alloc(struct mlx5_core_dev *dev, struct mlx5_uar *uar);
void mlx5_uar_free(struct mlx5_core_dev *dev, struct mlx5_uar *uar);
int mlx5_doorbells_init(struct mlx5_core_dev *dev, unsigned int want);
unsigned int mlx5_doorbell_regs_per_uar(struct mlx5_core_dev *dev);
unsigned int mlx5_doorbells_max(struct mlx5_core_dev *dev);
void mlx5_doorbells_cleanup(struct mlx5_core_dev *dev);

/* core/eq.c */
int mlx5_irqs_init(struct mlx5_core_dev *dev);
void mlx5_irqs_cleanup(struct mlx5_core_dev *dev);
int mlx5_eqs_init(struct mlx5_core_dev *dev);
void mlx5_eqs_cleanup(struct mlx5_core_dev *dev);
int mlx5_eq_cmd_recover(struct mlx5_core_dev *dev);
void mlx5_eq_bufs_release(struct mlx5_core_dev *dev);

/* core/health.c */
int mlx5_health_wq_init(struct mlx5_core_dev *dev);
void mlx5_health_wq_cleanup(struct mlx5_core_dev *dev);
int mlx5_health_init(struct mlx5_core_dev *dev);
void mlx5_health_cleanup(struct mlx5_core_dev *dev);
void mlx5_health_start(struct mlx5_core_dev *dev);
void mlx5_health_stop(struct mlx5_core_dev *dev);
void mlx5_health_flush(struct mlx5_core_dev *dev);
void mlx5_health_set_healthy(struct mlx5_core_dev *dev);
enum mlx5_sensor mlx5_health_check_fatal(struct mlx5_core_dev *dev);
bool mlx5_enter_error_state(struct mlx5_core_dev *dev);
void mlx5_health_fatal(struct mlx5_core_dev *dev, enum mlx5_sensor sensor);
int mlx5_health_revive(struct mlx5_core_dev *dev, bool reset);
void mlx5_health_reset_function(struct mlx5_core_dev *dev);
void mlx5_health_allow(struct mlx5_core_dev *dev);
void mlx5_health_pci_error(struct mlx5_core_dev *dev);
void mlx5_health_pci_recovered(struct mlx5_core_dev *dev);

/* core/clock.c */
void mlx5_clock_init(struct mlx5_core_dev *dev);
void mlx5_clock_cleanup(struct mlx5_core_dev *dev);

/* core/main.c */
int mlx5_init_one(struct mlx5_core_dev *dev);
void mlx5_uninit_one(struct mlx5_core_dev *dev);
int mlx5_load_one(struct mlx5_core_dev *dev);
void mlx5_unload_one(struct mlx5_core_dev *dev);
int mlx5_load_one_devl_locked(struct mlx5_core_dev *dev);
void mlx5_unload_one_devl_locked(struct mlx5_core_dev *dev);

/* core/dev.c */
int mlx5_adev_add(struct mlx5_core_dev *dev);
void mlx5_adev_del(struct mlx5_core_dev *dev);
void mlx5_adev_suspend(struct mlx5_core_dev *dev);
void mlx5_adev_resume(struct mlx5_core_dev *dev);
void mlx5_adev_ida_cleanup(void);

/* core/devlink.c */
struct devlink *mlx5_devlink_alloc(struct device *device);
void mlx5_devlink_free(struct devlink *devlink);
int mlx5_devlink_params_register(struct devlink *devlink);
void mlx5_devlink_params_unregister(struct devlink *devlink);
unsigned int mlx5_devlink_num_doorbells(struct mlx5_core_dev *dev);

#endif /* __MLX5_CORE_PRIV_H__ */
