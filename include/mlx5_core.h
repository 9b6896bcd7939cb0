/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The API between the device core (core/) and the Ethernet netdev (en/).
 *
 * Hardware layouts come from <linux/mlx5/device.h> and <linux/mlx5/mlx5_ifc.h>;
 * the distribution driver's own <linux/mlx5/driver.h> is deliberately not used.
 */
#ifndef __MLX5_CORE_H__
#define __MLX5_CORE_H__

#include <linux/mlx5/device.h>
#include <linux/pci.h>
#include <linux/sizes.h>
#include <linux/types.h>

#define MLX5_DRIVER_NAME	KBUILD_MODNAME

/* The command interface revision this driver speaks. */
#define MLX5_CMDIF_REV		5

/* BAR0 carries the init segment and the UAR pages. */
#define MLX5_BAR0_MIN_SIZE	SZ_32M

/* Time the firmware may take to clear the initializing bit after reset. */
#define MLX5_FW_INIT_TIMEOUT_MS	120000
#define MLX5_FW_INIT_WARN_MS	5000

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
 * struct mlx5_core_dev - one PCI function driven by mlx5_core
 * @pdev: the PCI function
 * @device: &pdev->dev, for logging and DMA
 * @iseg: the init segment, mapped from the start of BAR0
 * @fw: firmware version read at probe
 * @cmdif_rev: command interface revision read at probe
 *
 * Allocated as the private area of the function's devlink instance.
 */
struct mlx5_core_dev {
	struct pci_dev *pdev;
	struct device *device;
	struct mlx5_init_seg __iomem *iseg;
	struct mlx5_fw_version fw;
	u16 cmdif_rev;
};

/* core/iseg.c */
void mlx5_iseg_read_versions(struct mlx5_core_dev *dev);
int mlx5_iseg_wait_fw_init(struct mlx5_core_dev *dev, unsigned int timeout_ms);

/* core/devlink.c */
struct devlink *mlx5_devlink_alloc(struct device *device);
void mlx5_devlink_free(struct devlink *devlink);

#endif /* __MLX5_CORE_H__ */
