// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5_core: PCI driver for NVIDIA ConnectX-5 and newer adapters.
 *
 * Probe order: devlink instance (owns the device state), PCI resources,
 * init segment, wait for firmware, register devlink. Remove runs it backwards.
 */

#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <net/devlink.h>

#include "mlx5_core.h"

/* Physical functions, ConnectX-5 and newer. */
static const struct pci_device_id mlx5_pci_table[] = {
	{ PCI_VDEVICE(MELLANOX, 0x1017) },	/* ConnectX-5 */
	{ PCI_VDEVICE(MELLANOX, 0x1019) },	/* ConnectX-5 Ex */
	{ PCI_VDEVICE(MELLANOX, 0x101b) },	/* ConnectX-6 */
	{ PCI_VDEVICE(MELLANOX, 0x101d) },	/* ConnectX-6 Dx */
	{ PCI_VDEVICE(MELLANOX, 0x101f) },	/* ConnectX-6 Lx */
	{ PCI_VDEVICE(MELLANOX, 0x1021) },	/* ConnectX-7 */
	{ PCI_VDEVICE(MELLANOX, 0x1023) },	/* ConnectX-8 */
	{ }
};
MODULE_DEVICE_TABLE(pci, mlx5_pci_table);

static int mlx5_pci_enable(struct mlx5_core_dev *dev)
{
	struct pci_dev *pdev = dev->pdev;
	int err;

	err = pci_enable_device_mem(pdev);
	if (err) {
		dev_err(dev->device, "cannot enable PCI device: %d\n", err);
		return err;
	}

	if (!(pci_resource_flags(pdev, 0) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, 0) < MLX5_BAR0_MIN_SIZE) {
		dev_err(dev->device, "BAR0 missing or smaller than %u MiB\n",
			MLX5_BAR0_MIN_SIZE / SZ_1M);
		err = -ENODEV;
		goto err_disable;
	}

	err = pci_request_mem_regions(pdev, MLX5_DRIVER_NAME);
	if (err) {
		dev_err(dev->device, "cannot claim BAR0: %d\n", err);
		goto err_disable;
	}

	err = dma_set_mask_and_coherent(dev->device, DMA_BIT_MASK(64));
	if (err) {
		dev_err(dev->device, "no usable 64-bit DMA: %d\n", err);
		goto err_release;
	}

	pci_set_master(pdev);

	dev->iseg = ioremap(pci_resource_start(pdev, 0), sizeof(*dev->iseg));
	if (!dev->iseg) {
		dev_err(dev->device, "cannot map the init segment\n");
		err = -ENOMEM;
		goto err_clear_master;
	}
	return 0;

err_clear_master:
	pci_clear_master(pdev);
err_release:
	pci_release_mem_regions(pdev);
err_disable:
	pci_disable_device(pdev);
	return err;
}

static void mlx5_pci_disable(struct mlx5_core_dev *dev)
{
	iounmap(dev->iseg);
	pci_clear_master(dev->pdev);
	pci_release_mem_regions(dev->pdev);
	pci_disable_device(dev->pdev);
}

static int mlx5_check_cmdif(struct mlx5_core_dev *dev)
{
	mlx5_iseg_read_versions(dev);
	if (dev->cmdif_rev != MLX5_CMDIF_REV) {
		dev_err(dev->device,
			"command interface revision %u, driver supports %u\n",
			dev->cmdif_rev, MLX5_CMDIF_REV);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int mlx5_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct mlx5_core_dev *dev;
	struct devlink *devlink;
	int err;

	devlink = mlx5_devlink_alloc(&pdev->dev);
	if (!devlink)
		return -ENOMEM;

	dev = devlink_priv(devlink);
	dev->pdev = pdev;
	dev->device = &pdev->dev;
	pci_set_drvdata(pdev, dev);

	err = mlx5_pci_enable(dev);
	if (err)
		goto err_free;

	err = mlx5_check_cmdif(dev);
	if (err)
		goto err_disable;

	err = mlx5_iseg_wait_fw_init(dev, MLX5_FW_INIT_TIMEOUT_MS);
	if (err)
		goto err_disable;

	/* Read again: the revision is only final once the firmware is up. */
	mlx5_iseg_read_versions(dev);
	dev_info(dev->device,
		 "firmware version %u.%u.%04u, command interface revision %u\n",
		 dev->fw.major, dev->fw.minor, dev->fw.subminor,
		 dev->cmdif_rev);

	devlink_register(devlink);
	return 0;

err_disable:
	mlx5_pci_disable(dev);
err_free:
	pci_set_drvdata(pdev, NULL);
	mlx5_devlink_free(devlink);
	return err;
}

static void mlx5_pci_remove(struct pci_dev *pdev)
{
	struct mlx5_core_dev *dev = pci_get_drvdata(pdev);
	struct devlink *devlink = priv_to_devlink(dev);

	devlink_unregister(devlink);
	mlx5_pci_disable(dev);
	pci_set_drvdata(pdev, NULL);
	mlx5_devlink_free(devlink);
}

static struct pci_driver mlx5_pci_driver = {
	.name		= MLX5_DRIVER_NAME,
	.id_table	= mlx5_pci_table,
	.probe		= mlx5_pci_probe,
	.remove		= mlx5_pci_remove,
};
module_pci_driver(mlx5_pci_driver);

MODULE_DESCRIPTION("NVIDIA ConnectX-5+ core and Ethernet driver");
MODULE_LICENSE("Dual BSD/GPL");
