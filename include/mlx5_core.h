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
 * @caps: capability groups, as MLX5_CAP_*() expect them
 * @pcam: in @caps, the port registers and features PCAM lists (zero
 *	without pcam_reg), as MLX5_CAP_PCAM_*() expect them
 * @async_uar: UAR page of the EQ doorbells
 * @doorbells: the channels' send doorbells and their UAR pages
 * @num_comp_eqs: completion EQs (and their vectors)
 * @async_eq: command completions, page requests, port and error events
 * @comp_eqs: completion EQs, one a vector
 * @eq_bufs_kept: EQ buffers kept, since probe, because the device might
 *	still write them (their DESTROY_EQ was not acknowledged), until the
 *	function was reset
 * @events: atomic notifier chain of async events for the netdev
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
 * The Ethernet side's view of the function: the core's own state (command
 * interface, firmware pages, health) is in &struct mlx5_core_priv
 * (core/priv.h), which embeds this one and is allocated as the private area
 * of the function's devlink instance.
 */
struct mlx5_core_dev {
	struct pci_dev *pdev;
	struct device *device;
	struct mlx5_init_seg __iomem *iseg;
	struct mlx5_fw_version fw;
	u16 cmdif_rev;
	struct {
		struct mlx5_hca_cap *hca[MLX5_CAP_NUM];
		u32 pcam[MLX5_ST_SZ_DW(pcam_reg)];
	} caps;
	struct mlx5_uar async_uar;
	struct mlx5_doorbell_pool doorbells;
	int num_comp_eqs;
	struct mlx5_eq async_eq;
	struct mlx5_eq *comp_eqs;
	atomic_t eq_bufs_kept;
	struct atomic_notifier_head events;
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

/* The PTP hardware clock (core/clock.c). */
int mlx5_clock_phc_index(struct mlx5_core_dev *dev);
u64 mlx5_clock_cyc2time(struct mlx5_core_dev *dev, u64 cycles);

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
