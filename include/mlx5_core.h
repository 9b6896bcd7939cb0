/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The API between the device core (core/) and the Ethernet netdev (en/).
 *
 * Hardware layouts come from <linux/mlx5/device.h> and <linux/mlx5/mlx5_ifc.h>;
 * the distribution driver's own <linux/mlx5/driver.h> is deliberately not used.
 */
#ifndef __MLX5_CORE_H__
#define __MLX5_CORE_H__

#include <linux/atomic.h>
#include <linux/auxiliary_bus.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/doorbell.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/wait.h>
#include <linux/spinlock.h>
#include <linux/sizes.h>
#include <linux/types.h>

#define MLX5_DRIVER_NAME	KBUILD_MODNAME
/* The release of this driver, as dkms.conf's PACKAGE_VERSION names it. */
#define MLX5_DRIVER_VERSION	"0.1"
#define MLX5_BOARD_ID_LEN	64

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
 * struct mlx5_hca_cap - one capability group, as queried from the device
 * @cur: current values (what INIT_HCA set up)
 * @max: maximum values (what the device can do)
 *
 * Named as <linux/mlx5/device.h>'s MLX5_CAP_*() accessors expect.
 */
struct mlx5_hca_cap {
	u32 cur[MLX5_UN_SZ_DW(hca_cap_union)];
	u32 max[MLX5_UN_SZ_DW(hca_cap_union)];
};

/**
 * struct mlx5_uar - one UAR page of BAR0
 * @index: the page's index, as the device allocated it
 * @map: its mapping
 */
struct mlx5_uar {
	u32 index;
	void __iomem *map;
};

/**
 * struct mlx5_doorbell - where a queue rings and its CQs are armed
 * @page: the UAR page (CQ arm doorbell at offset MLX5_CQ_DOORBELL)
 * @reg: the send doorbell register of the page (MLX5_BF_OFFSET)
 * @uar_index: the page's index, for the uar_page field of SQ/CQ contexts
 */
struct mlx5_doorbell {
	void __iomem *page;
	void __iomem *reg;
	u32 uar_index;
};

/**
 * struct mlx5_doorbell_pool - send doorbell registers the channels share
 * @uars: the UAR pages that hold them
 * @nuars: how many pages
 * @n: how many doorbells (registers): the devlink parameter num_doorbells,
 *	at most the channels the function can have; 0: the global doorbell
 * @regs_per_uar: doorbells taken from each page
 * @reg_shift: log2 of the distance between registers (log_bf_reg_size)
 */
struct mlx5_doorbell_pool {
	struct mlx5_uar *uars;
	unsigned int nuars;
	unsigned int n;
	unsigned int regs_per_uar;
	unsigned int reg_shift;
};

/* Doorbells (plain 8-byte ones) taken from one UAR page, at most. */
#define MLX5_DOORBELL_REGS_PER_UAR	2U
/* UAR pages the pool may take: bounds num_doorbells. */
#define MLX5_MAX_DOORBELL_UARS		32U
#define MLX5_DEFAULT_DOORBELLS		8
#define MLX5_MAX_COMP_EQS	64

struct mlx5_cq;

/**
 * struct mlx5_eq - an event queue and its interrupt
 * @dev: the device
 * @buf: the EQEs
 * @dma: bus address of @buf
 * @nent: number of EQEs, a power of two
 * @cons_index: consumer index, counting laps
 * @eqn: EQ number from the device
 * @vecidx: MSI-X vector index
 * @irq: Linux IRQ number of @vecidx
 * @cpu: the CPU its interrupt is steered to (completion EQs)
 * @doorbell: consumer index / arm doorbell in the async UAR page
 * @cqs: CQs reporting to this EQ, by CQ number (completion EQs)
 * @lock: serialises the consumers of the async EQ: its interrupt handler
 *	and the recovery of a command whose interrupt was lost (several at
 *	once when commands time out together)
 * @name: IRQ name
 */
struct mlx5_eq {
	struct mlx5_core_dev *dev;
	struct mlx5_eqe *buf;
	dma_addr_t dma;
	u32 nent;
	u32 cons_index;
	u8 eqn;
	u16 vecidx;
	int irq;
	int cpu;
	__be32 __iomem *doorbell;
	struct xarray cqs;
	spinlock_t lock; /* async EQ: cons_index and the EQEs */
	char name[48];
};

/**
 * struct mlx5_cq - what the completion EQ needs to know of a CQ
 * @cqn: CQ number from the device
 * @vector: completion vector whose EQ the CQ reports to
 * @comp: called in hard IRQ context when the CQ has new completions
 *
 * The owner fills it in after CREATE_CQ and calls mlx5_cq_attach() before
 * arming the CQ; mlx5_cq_detach() before DESTROY_CQ.
 */
struct mlx5_cq {
	u32 cqn;
	u16 vector;
	void (*comp)(struct mlx5_cq *cq);
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
 * struct mlx5_fw_version - firmware revision as the init segment reports it
 * @major: major number (product generation: 16 for ConnectX-5)
 * @minor: minor number
 * @subminor: subminor number
 */
struct mlx5_fw_version {
	u16 major;
	u16 minor;
	u16 subminor;
};

/**
 * enum mlx5_device_state - whether the firmware can be talked to
 * @MLX5_DEVICE_STATE_UP: commands are executed
 * @MLX5_DEVICE_STATE_INTERNAL_ERROR: the firmware is dead: commands fail
 *	at once, teardown does not wait for the device
 */
enum mlx5_device_state {
	MLX5_DEVICE_STATE_UP,
	MLX5_DEVICE_STATE_INTERNAL_ERROR,
};

struct mlx5_adev;

/**
 * struct mlx5_core_dev - one PCI function driven by mlx5_core
 * @pdev: the PCI function
 * @device: &pdev->dev, for logging and DMA
 * @iseg: the init segment, mapped from the start of BAR0
 * @fw: firmware version read at probe
 * @cmdif_rev: command interface revision read at probe
 * @cmd: the firmware command interface
 * @caps: capability groups, as MLX5_CAP_*() expect them
 * @pages: firmware pages
 * @async_uar: UAR page of the EQ doorbells
 * @doorbells: the channels' send doorbells and their UAR pages
 * @num_comp_eqs: completion EQs (and their vectors)
 * @async_eq: command completions, page requests, port and error events
 * @comp_eqs: completion EQs, one a vector
 * @eq_bufs_kept: EQ buffers never given back, since probe, because the
 *	device might still write them (their DESTROY_EQ was not acknowledged)
 * @events: atomic notifier chain of async events for the netdev
 * @health: firmware health monitoring
 * @board_id: PSID from QUERY_ADAPTER
 * @state: up, or internal error once the firmware is known dead
 * @loaded: the hardware is up (between load_one and unload_one)
 * @pci_reset: a PCI reset or error recovery of the function is under way
 *	(from reset_prepare or error_detected until the PCI core's callback
 *	loads it again): only that callback may load it
 * @needs_reset: the last unload left the device holding memory the driver
 *	freed (commands never answered, an EQ not destroyed): the function is
 *	reset before its DMA is turned on again, or before it is let go
 * @adev: the auxiliary device the Ethernet side binds to
 *
 * Allocated as the private area of the function's devlink instance.
 */
struct mlx5_core_dev {
	struct pci_dev *pdev;
	struct device *device;
	struct mlx5_init_seg __iomem *iseg;
	struct mlx5_fw_version fw;
	u16 cmdif_rev;
	struct mlx5_cmd cmd;
	struct {
		struct mlx5_hca_cap *hca[MLX5_CAP_NUM];
	} caps;
	struct mlx5_pages pages;
	struct mlx5_uar async_uar;
	struct mlx5_doorbell_pool doorbells;
	int num_comp_eqs;
	struct mlx5_eq async_eq;
	struct mlx5_eq *comp_eqs;
	atomic_t eq_bufs_kept;
	struct atomic_notifier_head events;
	struct mlx5_health health;
	char board_id[MLX5_BOARD_ID_LEN];
	enum mlx5_device_state state;
	bool loaded;
	bool pci_reset;
	bool needs_reset;
	struct mlx5_adev *adev;
};

/**
 * struct mlx5_adev - the auxiliary device of one function's Ethernet side
 * @adev: the auxiliary device, named MLX5_DRIVER_NAME ".eth.<id>"
 * @mdev: the function
 *
 * The bound driver's suspend() runs before the hardware goes down (reload,
 * recovery) and its resume() once it is up again; probe() and remove()
 * run once per PCI probe and remove.
 */
struct mlx5_adev {
	struct auxiliary_device adev;
	struct mlx5_core_dev *mdev;
};

#define MLX5_ADEV_ETH_NAME	"eth"

/* Commands (core/cmd.c). */
int mlx5_cmd_exec(struct mlx5_core_dev *dev, const void *in, int inlen,
		  void *out, int outlen);
const char *mlx5_cmd_opcode_str(u16 opcode);
const char *mlx5_cmd_status_str(u8 status);

#define mlx5_cmd_exec_inout(dev, ifc_cmd, in, out) \
	mlx5_cmd_exec(dev, in, MLX5_ST_SZ_BYTES(ifc_cmd##_in), out, \
		      MLX5_ST_SZ_BYTES(ifc_cmd##_out))

#define mlx5_cmd_exec_in(dev, ifc_cmd, in)				\
	({								\
		u32 __out[MLX5_ST_SZ_DW(ifc_cmd##_out)] = {};		\
		mlx5_cmd_exec_inout(dev, ifc_cmd, in, __out);		\
	})

/* Access registers (core/fw.c). */
int mlx5_access_reg(struct mlx5_core_dev *dev, const void *data_in,
		    int size_in, void *data_out, int size_out, u16 reg_id,
		    int arg, bool write);

/**
 * mlx5_dev_is_dead() - the firmware is known to be dead
 * @dev: the device
 *
 * Return: true once the device is in internal error: commands fail at
 * once and queues must not expect completions.
 */
static inline bool mlx5_dev_is_dead(const struct mlx5_core_dev *dev)
{
	return READ_ONCE(dev->state) == MLX5_DEVICE_STATE_INTERNAL_ERROR;
}

/* Completion vectors, one completion EQ each (core/eq.c). */
int mlx5_comp_vectors(struct mlx5_core_dev *dev);
int mlx5_comp_eqn_get(struct mlx5_core_dev *dev, u16 vector, u8 *eqn);
int mlx5_comp_irqn_get(struct mlx5_core_dev *dev, u16 vector);
int mlx5_comp_vector_cpu(struct mlx5_core_dev *dev, u16 vector);
int mlx5_comp_eq_recover(struct mlx5_core_dev *dev, u16 vector);
int mlx5_cq_attach(struct mlx5_core_dev *dev, struct mlx5_cq *cq);
void mlx5_cq_detach(struct mlx5_core_dev *dev, struct mlx5_cq *cq);

/* Async events for the netdev (core/eq.c). */
int mlx5_notifier_register(struct mlx5_core_dev *dev,
			   struct notifier_block *nb);
int mlx5_notifier_unregister(struct mlx5_core_dev *dev,
			     struct notifier_block *nb);

/* Doorbells (core/uar.c). */
void mlx5_doorbell_get(struct mlx5_core_dev *dev, unsigned int ix,
		       struct mlx5_doorbell *db);
void mlx5_doorbell_global(struct mlx5_core_dev *dev, struct mlx5_doorbell *db);

/*
 * The Ethernet side: an auxiliary driver of this module (en_main.c). The
 * Makefile defines MLX5_CORE_EN when it builds it (CONFIG_MLX5_CORE_EN in
 * a kernel tree; out of tree, the installed kernel's own CONFIG_MLX5_CORE_EN
 * describes its in-tree driver, not this one).
 */
#ifdef MLX5_CORE_EN
int mlx5e_init(struct dentry *dbg_root);
void mlx5e_cleanup(void);
#else
static inline int mlx5e_init(struct dentry *dbg_root)
{
	return 0;
}

static inline void mlx5e_cleanup(void)
{
}
#endif

#endif /* __MLX5_CORE_H__ */
