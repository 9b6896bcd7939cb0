// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5_core: PCI driver for NVIDIA ConnectX-5 and newer adapters.
 *
 * Probe order: devlink instance (owns the device state), PCI resources,
 * init segment, then mlx5_init_one(), then devlink registration; remove
 * runs it backwards.
 *
 * Two lifecycle pairs, as upstream mlx5: mlx5_init_one()/mlx5_uninit_one()
 * run once per probe/remove (devlink parameters, the health reporter, the
 * Ethernet auxiliary device); mlx5_load_one()/mlx5_unload_one() bring the
 * hardware up and down, and are what reload and recovery call: the
 * auxiliary device, and the netdev bound to it, survive them.
 */

#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <net/devlink.h>

#include "priv.h"

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

static void mlx5_log_device(struct mlx5_core_dev *dev)
{
	dev_info(dev->device,
		 "firmware version %u.%u.%04u, cmdif %u, UAR pages %llu, completion EQs %d, doorbells %u in %u UAR pages\n",
		 dev->fw.major, dev->fw.minor, dev->fw.subminor,
		 dev->cmdif_rev,
		 (u64)pci_resource_len(dev->pdev, 0) / MLX5_ADAPTER_PAGE_SIZE,
		 dev->num_comp_eqs, dev->doorbells.n, dev->doorbells.nuars);
}

/*
 * The last commands are done: wait (bounded) for late answers, then stop
 * the function's DMA before the memory it may still write goes back: the
 * command queue and mailboxes here, the firmware pages after. The next
 * mlx5_cmd_init() turns bus mastering on again: a command still
 * unanswered would then be answered into the freed queue, so the next
 * load resets the function first (mlx5_hw_up()).
 */
static void mlx5_function_quiesce(struct mlx5_core_dev *dev)
{
	if (mlx5_cmd_wait_late(dev))
		dev->needs_reset = true;
	pci_clear_master(dev->pdev);
	mlx5_cmd_cleanup(dev);
}

/*
 * The previous load left the device holding host memory: commands never
 * answered (their queue freed), an EQ it never let go of. It cannot write it
 * while bus mastering is off; reset the function (its DMA still off) so
 * that it forgets them before the next load turns DMA on.
 */
static void mlx5_forget_stale(struct mlx5_core_dev *dev)
{
	if (!dev->needs_reset)
		return;
	dev_info(dev->device,
		 "resetting the function: the last unload left it holding host memory\n");
	mlx5_health_reset_function(dev);
}

/* From reset to INIT_HCA: the function owns its firmware resources. */
static int mlx5_function_setup(struct mlx5_core_dev *dev)
{
	int err;

	err = mlx5_iseg_wait_fw_init(dev, MLX5_FW_INIT_TIMEOUT_MS);
	if (err)
		return err;
	mlx5_iseg_read_versions(dev);

	err = mlx5_cmd_init(dev);
	if (err)
		return err;

	/* The firmware initializes again once it has the command queue. */
	err = mlx5_iseg_wait_fw_init(dev, MLX5_FW_INIT_TIMEOUT_MS);
	if (err)
		goto err_cmd;

	/* From here a dead firmware is noticed, and commands stop waiting. */
	mlx5_health_start(dev);

	err = mlx5_cmd_enable_hca(dev);
	if (err)
		goto err_health;

	err = mlx5_cmd_set_issi(dev);
	if (err)
		goto err_disable;

	err = mlx5_satisfy_startup_pages(dev, true);
	if (err)
		goto err_pages;

	err = mlx5_handle_hca_caps(dev);
	if (err)
		goto err_pages;

	err = mlx5_satisfy_startup_pages(dev, false);
	if (err)
		goto err_pages;

	err = mlx5_cmd_init_hca(dev);
	if (err)
		goto err_pages;

	err = mlx5_query_all_caps(dev);
	if (err)
		goto err_teardown;

	/* The board id is informational: a device without it still works. */
	if (mlx5_query_board_id(dev))
		dev->board_id[0] = '\0';
	return 0;

err_teardown:
	mlx5_cmd_teardown_hca(dev);
err_pages:
	mlx5_reclaim_startup_pages(dev);
err_disable:
	mlx5_cmd_disable_hca(dev);
err_health:
	mlx5_health_stop(dev);
err_cmd:
	mlx5_function_quiesce(dev);
	return err;
}

static void mlx5_function_teardown(struct mlx5_core_dev *dev)
{
	int err;

	/* What timed out before may still give something back. */
	mlx5_cmd_wait_late(dev);
	err = mlx5_cmd_teardown_hca(dev);
	if (err)
		dev_warn(dev->device, "TEARDOWN_HCA failed: %d\n", err);
	mlx5_reclaim_startup_pages(dev);
	mlx5_cmd_disable_hca(dev);
	mlx5_health_stop(dev);
	mlx5_function_quiesce(dev);
}

/* Interrupts, EQs, UARs and the PTP clock of an initialised function. */
static int mlx5_load(struct mlx5_core_dev *dev)
{
	int err;

	err = mlx5_uar_alloc(dev, &dev->async_uar);
	if (err)
		return err;

	err = mlx5_irqs_init(dev);
	if (err)
		goto err_uar;

	err = mlx5_eqs_init(dev);
	if (err)
		goto err_irqs;

	err = mlx5_doorbells_init(dev, mlx5_devlink_num_doorbells(dev));
	if (err)
		goto err_eqs;

	/* Not fatal: the function works without a PHC. */
	mlx5_clock_init(dev);
	return 0;

err_eqs:
	mlx5_eqs_cleanup(dev);
err_irqs:
	mlx5_irqs_cleanup(dev);
err_uar:
	mlx5_uar_free(dev, &dev->async_uar);
	return err;
}

static void mlx5_unload(struct mlx5_core_dev *dev)
{
	mlx5_clock_cleanup(dev);
	mlx5_doorbells_cleanup(dev);
	mlx5_eqs_cleanup(dev);
	mlx5_irqs_cleanup(dev);
	mlx5_uar_free(dev, &dev->async_uar);
}

/* Firmware pages, the function, EQs and doorbells, then health polling. */
static int mlx5_hw_up(struct mlx5_core_dev *dev)
{
	int err;

	mlx5_forget_stale(dev);
	err = mlx5_pagealloc_init(dev);
	if (err)
		return err;

	err = mlx5_function_setup(dev);
	if (err)
		goto err_pagealloc;

	err = mlx5_load(dev);
	if (err)
		goto err_teardown;

	mlx5_log_device(dev);
	dev->loaded = true;
	mlx5_health_set_healthy(dev);
	return 0;

err_teardown:
	mlx5_function_teardown(dev);
err_pagealloc:
	mlx5_pagealloc_cleanup(dev);
	return err;
}

static void mlx5_hw_down(struct mlx5_core_dev *dev)
{
	dev->loaded = false;
	mlx5_unload(dev);
	mlx5_function_teardown(dev);
	mlx5_pagealloc_cleanup(dev);
}

/**
 * mlx5_load_one_devl_locked() - bring the hardware up and resume the
 * Ethernet side
 * @dev: the device, not loaded
 *
 * What reload and recovery call; every step unwinds on error, so that the
 * device holds nothing of ours. A loaded function is left as it is; one
 * in a PCI reset is not loaded (-EBUSY): the reset's own callback does.
 *
 * Context: the devlink instance lock is held.
 * Return: 0 or a negative errno.
 */
int mlx5_load_one_devl_locked(struct mlx5_core_dev *dev)
{
	int err;

	devl_assert_locked(priv_to_devlink(dev));
	if (dev->loaded)
		return 0;
	/* The PCI core's reset callback loads it when the reset is over. */
	if (dev->pci_reset)
		return -EBUSY;
	/* After internal error: a function reset and signs of life first. */
	if (mlx5_dev_is_dead(dev)) {
		err = mlx5_health_revive(dev, true);
		if (err)
			return err;
	}
	err = mlx5_hw_up(dev);
	if (err)
		return err;
	mlx5_adev_resume(dev);
	return 0;
}

/**
 * mlx5_unload_one_devl_locked() - suspend the Ethernet side and take the
 * hardware down
 * @dev: the device; nothing is done when it is not loaded
 *
 * Context: the devlink instance lock is held.
 */
void mlx5_unload_one_devl_locked(struct mlx5_core_dev *dev)
{
	devl_assert_locked(priv_to_devlink(dev));
	if (!dev->loaded)
		return;
	/*
	 * A dead device's data path may still run: it writes received frames
	 * into the RX buffers, EQEs into the EQs, and reads firmware pages,
	 * and teardown commands cannot stop it. Stop its DMA before the
	 * Ethernet side gives its buffers back, and before anything else is
	 * freed.
	 */
	if (mlx5_dev_is_dead(dev))
		pci_clear_master(dev->pdev);
	mlx5_adev_suspend(dev);
	mlx5_hw_down(dev);
}

/**
 * mlx5_load_one() - mlx5_load_one_devl_locked(), taking the lock
 * @dev: the device, not loaded
 *
 * Return: 0 or a negative errno.
 */
int mlx5_load_one(struct mlx5_core_dev *dev)
{
	struct devlink *devlink = priv_to_devlink(dev);
	int err;

	devl_lock(devlink);
	err = mlx5_load_one_devl_locked(dev);
	devl_unlock(devlink);
	return err;
}

/**
 * mlx5_unload_one() - mlx5_unload_one_devl_locked(), taking the lock
 * @dev: the device
 */
void mlx5_unload_one(struct mlx5_core_dev *dev)
{
	struct devlink *devlink = priv_to_devlink(dev);

	devl_lock(devlink);
	mlx5_unload_one_devl_locked(dev);
	devl_unlock(devlink);
}

/**
 * mlx5_init_one() - everything a probe sets up once: devlink parameters,
 * the health reporter, the hardware, the Ethernet auxiliary device
 * @dev: the device, PCI resources claimed
 *
 * Context: the devlink instance lock is held.
 * Return: 0 or a negative errno.
 */
int mlx5_init_one(struct mlx5_core_dev *dev)
{
	struct devlink *devlink = priv_to_devlink(dev);
	int err;

	devl_assert_locked(devlink);
	err = mlx5_devlink_params_register(devlink);
	if (err)
		return err;

	err = mlx5_health_init(dev);
	if (err)
		goto err_params;

	err = mlx5_load_one_devl_locked(dev);
	if (err)
		goto err_health;

	err = mlx5_adev_add(dev);
	if (err) {
		dev_err(dev->device, "creating the Ethernet device failed: %d\n",
			err);
		goto err_unload;
	}
	return 0;

err_unload:
	mlx5_unload_one_devl_locked(dev);
err_health:
	mlx5_health_cleanup(dev);
err_params:
	mlx5_devlink_params_unregister(devlink);
	return err;
}

/**
 * mlx5_uninit_one() - undo mlx5_init_one(), whether loaded or not
 * @dev: the device
 *
 * Context: the devlink instance lock is held.
 */
void mlx5_uninit_one(struct mlx5_core_dev *dev)
{
	struct devlink *devlink = priv_to_devlink(dev);

	devl_assert_locked(devlink);
	/* The Ethernet side goes first, while the hardware is still up. */
	mlx5_adev_del(dev);
	mlx5_unload_one_devl_locked(dev);
	mlx5_health_cleanup(dev);
	mlx5_devlink_params_unregister(devlink);
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
	ATOMIC_INIT_NOTIFIER_HEAD(&dev->events);
	INIT_LIST_HEAD(&mlx5_priv(dev)->eq_bufs);
	pci_set_drvdata(pdev, dev);

	err = mlx5_caps_alloc(dev);
	if (err)
		goto err_free;

	err = mlx5_pci_enable(dev);
	if (err)
		goto err_caps;

	err = mlx5_check_cmdif(dev);
	if (err)
		goto err_disable;

	err = mlx5_health_wq_init(dev);
	if (err)
		goto err_disable;

	/*
	 * Registered before anything can report to it: the netdev's health
	 * reporters hang on this instance and report from the moment the
	 * auxiliary device binds, to the moment it is deleted (remove
	 * unregisters last).  Nobody else gets the instance lock meanwhile.
	 */
	devl_lock(devlink);
	err = devl_register(devlink);
	if (err) {
		dev_err(dev->device, "registering with devlink failed: %d\n",
			err);
		goto err_unlock;
	}
	err = mlx5_init_one(dev);
	if (err)
		goto err_unregister;
	devl_unlock(devlink);
	/* What error recovery and function resets restore. */
	pci_save_state(pdev);
	/* Fatal errors may now be reported (and recovered). */
	mlx5_health_allow(dev);
	return 0;

err_unregister:
	devl_unregister(devlink);
err_unlock:
	devl_unlock(devlink);
	mlx5_health_wq_cleanup(dev);
err_disable:
	mlx5_pci_disable(dev);
err_caps:
	mlx5_caps_free(dev);
err_free:
	pci_set_drvdata(pdev, NULL);
	mlx5_devlink_free(devlink);
	return err;
}

/*
 * A function torn down in internal error never told the firmware: it
 * still holds the function (enabled, its EQs and queues, pages of this
 * kernel's memory), and the next driver to turn bus mastering on (after
 * rmmod, or a kexec) would have the device write into memory long freed.
 * Reset it, its DMA already off, so that the firmware forgets it.
 */
static void mlx5_pci_forget(struct mlx5_core_dev *dev)
{
	if (!mlx5_dev_is_dead(dev)) {
		mlx5_forget_stale(dev);
		return;
	}
	dev_info(dev->device, "resetting the function the firmware was not told to let go\n");
	mlx5_health_reset_function(dev);
}

static void mlx5_pci_remove(struct pci_dev *pdev)
{
	struct mlx5_core_dev *dev = pci_get_drvdata(pdev);
	struct devlink *devlink = priv_to_devlink(dev);

	/* Before the lock: a report in progress takes it to recover. */
	mlx5_health_flush(dev);

	devl_lock(devlink);
	mlx5_uninit_one(dev);
	devl_unregister(devlink);
	devl_unlock(devlink);
	mlx5_health_wq_cleanup(dev);
	mlx5_pci_forget(dev);

	mlx5_pci_disable(dev);
	mlx5_caps_free(dev);
	pci_set_drvdata(pdev, NULL);
	mlx5_devlink_free(devlink);
}

/*
 * PCI errors (AER, DPC) and function resets. The device is let go of
 * first (in internal error: no command waits on it), the function comes
 * back after the reset with a full load.
 */
static void mlx5_pci_unload(struct mlx5_core_dev *dev)
{
	struct devlink *devlink = priv_to_devlink(dev);

	/* Before the lock: a recovery in progress takes it. */
	mlx5_health_flush(dev);
	devl_lock(devlink);
	/* No reload or recovery loads it again before the PCI core does. */
	dev->pci_reset = true;
	mlx5_unload_one_devl_locked(dev);
	devl_unlock(devlink);
}

/* The PCI core is done with the function; it may be loaded again. */
static void mlx5_pci_reset_over(struct mlx5_core_dev *dev)
{
	struct devlink *devlink = priv_to_devlink(dev);

	devl_lock(devlink);
	dev->pci_reset = false;
	devl_unlock(devlink);
}

static int mlx5_pci_reload(struct mlx5_core_dev *dev)
{
	struct devlink *devlink = priv_to_devlink(dev);
	int err;

	mlx5_health_allow(dev);
	devl_lock(devlink);
	dev->pci_reset = false;
	/* The function was reset: it forgot what the last load left. */
	dev->needs_reset = false;
	mlx5_eq_bufs_release(dev);
	err = mlx5_load_one_devl_locked(dev);
	devl_unlock(devlink);
	if (err)
		dev_err(dev->device, "loading after the reset failed: %d\n", err);
	else
		dev_info(dev->device, "function back after the reset\n");
	return err;
}

static pci_ers_result_t mlx5_pci_err_detected(struct pci_dev *pdev,
					      pci_channel_state_t state)
{
	struct mlx5_core_dev *dev = pci_get_drvdata(pdev);

	dev_warn(dev->device, "PCI error detected, channel state %d\n", state);
	mlx5_enter_error_state(dev);
	mlx5_pci_unload(dev);
	mlx5_health_pci_error(dev);
	if (state == pci_channel_io_perm_failure)
		return PCI_ERS_RESULT_DISCONNECT;
	/*
	 * Only a fatal error's recovery resets the link before slot_reset;
	 * after a non-fatal one the function still holds what the load gave
	 * it (enabled, its EQs and queues live, our pages), and slot_reset
	 * turns its DMA back on. Make the firmware forget it now, its DMA
	 * off, as the link reset would.
	 */
	if (state == pci_channel_io_normal)
		mlx5_health_reset_function(dev);
	return PCI_ERS_RESULT_NEED_RESET;
}

static pci_ers_result_t mlx5_pci_slot_reset(struct pci_dev *pdev)
{
	struct mlx5_core_dev *dev = pci_get_drvdata(pdev);

	dev_info(dev->device, "PCI slot reset: waiting for the firmware\n");
	pci_restore_state(pdev);
	pci_save_state(pdev);
	pci_set_master(pdev);
	/* The slot was reset: wait for the firmware, do not reset again. */
	if (mlx5_health_revive(dev, false)) {
		/* No resume: left unloaded, a reload may try again. */
		mlx5_pci_reset_over(dev);
		return PCI_ERS_RESULT_DISCONNECT;
	}
	return PCI_ERS_RESULT_RECOVERED;
}

static void mlx5_pci_resume(struct pci_dev *pdev)
{
	struct mlx5_core_dev *dev = pci_get_drvdata(pdev);

	if (!mlx5_pci_reload(dev))
		mlx5_health_pci_recovered(dev);
}

/* A function reset through the PCI core (sysfs reset, VFIO...). */
static void mlx5_pci_reset_prepare(struct pci_dev *pdev)
{
	struct mlx5_core_dev *dev = pci_get_drvdata(pdev);

	dev_info(dev->device, "function reset: unloading\n");
	mlx5_pci_unload(dev);
}

static void mlx5_pci_reset_done(struct pci_dev *pdev)
{
	struct mlx5_core_dev *dev = pci_get_drvdata(pdev);

	if (mlx5_dev_is_dead(dev) && mlx5_health_revive(dev, false)) {
		/* Left unloaded: a reload or recovery may try again. */
		mlx5_pci_reset_over(dev);
		return;
	}
	mlx5_pci_reload(dev);
}

static const struct pci_error_handlers mlx5_pci_err_handler = {
	.error_detected	= mlx5_pci_err_detected,
	.slot_reset	= mlx5_pci_slot_reset,
	.resume		= mlx5_pci_resume,
	.reset_prepare	= mlx5_pci_reset_prepare,
	.reset_done	= mlx5_pci_reset_done,
};

/*
 * Power off, reboot, kexec: quiesce quickly. A live device is torn down,
 * so that the firmware holds no page of this kernel's memory when the
 * next one starts (kexec); a dead one gets no command and its function is
 * reset instead. Either way its DMA is off and its interrupts freed at
 * the end.
 */
static void mlx5_pci_shutdown(struct pci_dev *pdev)
{
	struct mlx5_core_dev *dev = pci_get_drvdata(pdev);

	dev_info(dev->device, "shutdown%s\n",
		 mlx5_dev_is_dead(dev) ? " (device in internal error)" : "");
	mlx5_pci_unload(dev);
	mlx5_pci_forget(dev);
	pci_clear_master(pdev);
}

static struct pci_driver mlx5_pci_driver = {
	.name		= MLX5_DRIVER_NAME,
	.id_table	= mlx5_pci_table,
	.probe		= mlx5_pci_probe,
	.remove		= mlx5_pci_remove,
	.shutdown	= mlx5_pci_shutdown,
	.err_handler	= &mlx5_pci_err_handler,
};

/* debugfs mlx5/: one directory per function (pagealloc.c). */
struct dentry *mlx5_debugfs_root;

static int __init mlx5_init(void)
{
	int err;

	mlx5_debugfs_root = debugfs_create_dir("mlx5", NULL);
	err = mlx5e_init(mlx5_debugfs_root);
	if (err)
		goto err_debugfs;

	err = pci_register_driver(&mlx5_pci_driver);
	if (err)
		goto err_en;
	return 0;

err_en:
	mlx5e_cleanup();
err_debugfs:
	debugfs_remove_recursive(mlx5_debugfs_root);
	return err;
}

static void __exit mlx5_cleanup(void)
{
	pci_unregister_driver(&mlx5_pci_driver);
	mlx5e_cleanup();
	mlx5_adev_ida_cleanup();
	debugfs_remove_recursive(mlx5_debugfs_root);
}

module_init(mlx5_init);
module_exit(mlx5_cleanup);

MODULE_DESCRIPTION("NVIDIA ConnectX-5+ core and Ethernet driver");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(MLX5_DRIVER_VERSION);
