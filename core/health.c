// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Firmware health.
 *
 * From the moment the command interface is up, a poll reads the init
 * segment once a period. Fatal conditions (as upstream's sensors): reads
 * returning all ones (the device fell off the bus), the PCI channel
 * offline, the NIC interface DISABLED or in SW_RESET, a health syndrome
 * with the reset-request bit. Any of them puts the device in internal
 * error at once (commands fail without waiting, waiters return) and
 * reports to the devlink health reporter "fw_fatal", whose recovery
 * reloads the function after resetting it. Firmware that is alive but
 * answers no command shows nothing here: the command interface finds it
 * (core/cmd.c) and takes the same way. A health counter that stops
 * moving, or a syndrome without the reset-request bit, is reported to the
 * reporter "fw", which only reports.
 *
 * The poll and both reports run on the device's own workqueue: devlink
 * calls the recovery from the fatal report, and the recovery stops the
 * poll.
 */

#include <linux/delay.h>
#include <linux/io.h>
#include <net/devlink.h>

#include "priv.h"

#define MLX5_HEALTH_COUNTER_MASK	GENMASK(23, 0)
#define MLX5_HEALTH_RFR			BIT(7)	/* rfr_severity: reset requested */
/* Time between fw_fatal recoveries, as upstream's for a PF. */
#define MLX5_FW_FATAL_GRACE_MS		60000
/* A reset function shows life (its counter moves) within this. */
#define MLX5_HEALTH_VITAL_MS		5000
#define MLX5_HEALTH_VITAL_POLL_MS	50

static const char * const mlx5_sensor_str[] = {
	[MLX5_SENSOR_NO_ERR]		= "none",
	[MLX5_SENSOR_PCI_COMM_ERR]	= "PCI reads return all ones",
	[MLX5_SENSOR_PCI_ERR]		= "PCI channel offline",
	[MLX5_SENSOR_NIC_DISABLED]	= "NIC interface disabled",
	[MLX5_SENSOR_NIC_SW_RESET]	= "NIC interface in SW reset",
	[MLX5_SENSOR_FW_SYND_RFR]	= "firmware syndrome requests a reset",
	[MLX5_SENSOR_FW_MUTE]		= "firmware answers no command",
	[MLX5_SENSOR_PCI_AER]		= "PCI error, recovered by the PCI core",
};

static struct mlx5_core_dev *mlx5_health_to_dev(struct mlx5_health *health)
{
	return &container_of(health, struct mlx5_core_priv, health)->dev;
}

static u32 mlx5_health_counter(struct mlx5_core_dev *dev)
{
	return ioread32be(&dev->iseg->health_counter) &
	       MLX5_HEALTH_COUNTER_MASK;
}

static u8 mlx5_nic_ifc(struct mlx5_core_dev *dev)
{
	return (ioread32be(&dev->iseg->cmdq_addr_l_sz) >> MLX5_NIC_IFC_OFFSET) &
	       7;
}

/**
 * mlx5_health_check_fatal() - is the device beyond commands?
 * @dev: the device, its init segment mapped
 *
 * Return: the first fatal condition found, MLX5_SENSOR_NO_ERR if none.
 */
enum mlx5_sensor mlx5_health_check_fatal(struct mlx5_core_dev *dev)
{
	struct health_buffer __iomem *h = &dev->iseg->health;

	if (ioread32be(&h->fw_ver) == U32_MAX)
		return MLX5_SENSOR_PCI_COMM_ERR;
	if (pci_channel_offline(dev->pdev))
		return MLX5_SENSOR_PCI_ERR;
	switch (mlx5_nic_ifc(dev)) {
	case MLX5_INITIAL_SEG_NIC_INTERFACE_DISABLED:
		return MLX5_SENSOR_NIC_DISABLED;
	case MLX5_INITIAL_SEG_NIC_INTERFACE_SW_RESET:
		return MLX5_SENSOR_NIC_SW_RESET;
	}
	if (ioread8(&h->synd) && (ioread8(&h->rfr_severity) & MLX5_HEALTH_RFR))
		return MLX5_SENSOR_FW_SYND_RFR;
	return MLX5_SENSOR_NO_ERR;
}

/**
 * mlx5_enter_error_state() - the device is dead: stop talking to it
 * @dev: the device
 *
 * New commands fail at once; commands in flight return at once. The
 * health poll, a command timing out and a PCI error may find it at once:
 * one of them makes the change.
 *
 * Return: true when this call put the device in internal error.
 */
bool mlx5_enter_error_state(struct mlx5_core_dev *dev)
{
	if (cmpxchg(&dev->state, MLX5_DEVICE_STATE_UP,
		    MLX5_DEVICE_STATE_INTERNAL_ERROR) != MLX5_DEVICE_STATE_UP)
		return false;
	dev_err(dev->device, "device in internal error: commands fail from now on\n");
	mlx5_cmd_flush(dev);
	return true;
}

static void mlx5_health_log_buffer(struct mlx5_core_dev *dev)
{
	struct health_buffer __iomem *h = &dev->iseg->health;

	dev_err(dev->device,
		"health buffer: synd 0x%x ext_synd 0x%x rfr_severity 0x%x fw_ver 0x%08x time %u\n",
		ioread8(&h->synd), ioread16be(&h->ext_synd),
		ioread8(&h->rfr_severity), ioread32be(&h->fw_ver),
		ioread32be(&h->time));
}

static void mlx5_health_queue(struct mlx5_health *health,
			      struct work_struct *work)
{
	if (!READ_ONCE(health->stopping))
		queue_work(health->wq, work);
}

/**
 * mlx5_health_fatal() - a fatal condition: internal error, then fw_fatal
 * @dev: the device
 * @sensor: what was found
 *
 * Puts the device in internal error and, unless the device is going away,
 * reports to fw_fatal (which recovers). From the health poll, or from a
 * command that found the firmware mute; only the first finding counts.
 */
void mlx5_health_fatal(struct mlx5_core_dev *dev, enum mlx5_sensor sensor)
{
	struct mlx5_health *health = &mlx5_priv(dev)->health;
	u8 synd = ioread8(&dev->iseg->health.synd);

	if (!mlx5_enter_error_state(dev))
		return;
	health->fatal = sensor;
	health->fatal_poll = READ_ONCE(health->polls);
	health->synd = synd;
	dev_err(dev->device, "fatal error detected: %s, syndrome 0x%x (poll %u)\n",
		mlx5_sensor_str[sensor], synd, health->fatal_poll);
	if (sensor != MLX5_SENSOR_PCI_COMM_ERR)
		mlx5_health_log_buffer(dev);
	mlx5_health_queue(health, &health->fatal_report);
}

static void mlx5_health_poll(struct work_struct *work)
{
	struct mlx5_health *health = container_of(to_delayed_work(work),
						  struct mlx5_health, poll);
	struct mlx5_core_dev *dev = mlx5_health_to_dev(health);
	enum mlx5_sensor fatal;
	u32 counter;
	u8 synd;

	health->polls++;
	/*
	 * Reported already; recovery restarts the poll. Mute firmware's
	 * counter runs on: it must not make the device look alive again.
	 */
	if (mlx5_dev_is_dead(dev))
		return;

	fatal = mlx5_health_check_fatal(dev);
	if (fatal) {
		mlx5_health_fatal(dev, fatal);
		return;
	}

	counter = mlx5_health_counter(dev);
	health->miss = counter == health->prev_counter ? health->miss + 1 : 0;
	health->prev_counter = counter;
	if (health->miss == MLX5_HEALTH_MAX_MISS) {
		dev_err(dev->device,
			"firmware health counter stuck at 0x%x for %u polls\n",
			counter, health->miss);
		health->report_msg = "firmware health counter stuck";
		mlx5_health_queue(health, &health->report);
	}

	synd = ioread8(&dev->iseg->health.synd);
	if (synd && synd != health->synd) {
		dev_err(dev->device, "firmware reports syndrome 0x%x, ext 0x%x\n",
			synd, ioread16be(&dev->iseg->health.ext_synd));
		health->report_msg = "firmware syndrome";
		mlx5_health_queue(health, &health->report);
	}
	health->synd = synd;

	queue_delayed_work(health->wq, &health->poll,
			   msecs_to_jiffies(MLX5_HEALTH_POLL_MS));
}

static void mlx5_health_report_work(struct work_struct *work)
{
	struct mlx5_health *health = container_of(work, struct mlx5_health,
						  report);

	devlink_health_report(health->fw_reporter, health->report_msg, NULL);
}

static void mlx5_health_fatal_work(struct work_struct *work)
{
	struct mlx5_health *health = container_of(work, struct mlx5_health,
						  fatal_report);
	struct mlx5_core_dev *dev = mlx5_health_to_dev(health);

	if (devlink_health_report(health->fatal_reporter,
				  "firmware fatal error", NULL) != -ECANCELED)
		return;
	/*
	 * Not recovered (a recovery failed, or the last one is too recent):
	 * let go of the device now rather than at remove, so that nothing
	 * waits on it.
	 */
	dev_err(dev->device,
		"not recovering (grace period or a failed recovery): unloading\n");
	mlx5_unload_one(dev);
}

static int mlx5_fw_reporter_diagnose(struct devlink_health_reporter *reporter,
				     struct devlink_fmsg *fmsg,
				     struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *dev = devlink_health_reporter_priv(reporter);
	struct mlx5_health *health = &mlx5_priv(dev)->health;

	devlink_fmsg_u32_pair_put(fmsg, "health_counter",
				  mlx5_health_counter(dev));
	devlink_fmsg_u32_pair_put(fmsg, "missed_polls", health->miss);
	devlink_fmsg_u32_pair_put(fmsg, "polls", health->polls);
	devlink_fmsg_u8_pair_put(fmsg, "syndrome",
				 ioread8(&dev->iseg->health.synd));
	devlink_fmsg_u32_pair_put(fmsg, "cmd_timeouts",
				  atomic_read(&mlx5_priv(dev)->cmd.timeouts));
	devlink_fmsg_u32_pair_put(fmsg, "cmd_late_answers",
				  atomic_read(&mlx5_priv(dev)->cmd.late));
	devlink_fmsg_u32_pair_put(fmsg, "cmd_eq_recoveries",
				  atomic_read(&mlx5_priv(dev)->cmd.eq_recoveries));
	devlink_fmsg_u32_pair_put(fmsg, "eq_buffers_kept",
				  atomic_read(&dev->eq_bufs_kept));
	devlink_fmsg_bool_pair_put(fmsg, "internal_error",
				   mlx5_dev_is_dead(dev));
	return 0;
}

static int mlx5_fw_reporter_dump(struct devlink_health_reporter *reporter,
				 struct devlink_fmsg *fmsg, void *priv_ctx,
				 struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *dev = devlink_health_reporter_priv(reporter);
	struct health_buffer __iomem *h = &dev->iseg->health;
	char name[16];
	int i;

	devlink_fmsg_obj_nest_start(fmsg);
	for (i = 0; i < ARRAY_SIZE(h->assert_var); i++) {
		snprintf(name, sizeof(name), "assert_var%d", i);
		devlink_fmsg_u32_pair_put(fmsg, name,
					  ioread32be(&h->assert_var[i]));
	}
	devlink_fmsg_u32_pair_put(fmsg, "assert_exit_ptr",
				  ioread32be(&h->assert_exit_ptr));
	devlink_fmsg_u32_pair_put(fmsg, "assert_callra",
				  ioread32be(&h->assert_callra));
	devlink_fmsg_u32_pair_put(fmsg, "time", ioread32be(&h->time));
	devlink_fmsg_u32_pair_put(fmsg, "fw_ver", ioread32be(&h->fw_ver));
	devlink_fmsg_u32_pair_put(fmsg, "hw_id", ioread32be(&h->hw_id));
	devlink_fmsg_u8_pair_put(fmsg, "rfr_severity", ioread8(&h->rfr_severity));
	devlink_fmsg_u8_pair_put(fmsg, "irisc_index", ioread8(&h->irisc_index));
	devlink_fmsg_u8_pair_put(fmsg, "synd", ioread8(&h->synd));
	devlink_fmsg_u32_pair_put(fmsg, "ext_synd", ioread16be(&h->ext_synd));
	devlink_fmsg_u32_pair_put(fmsg, "health_counter",
				  mlx5_health_counter(dev));
	devlink_fmsg_obj_nest_end(fmsg);
	return 0;
}

static const struct devlink_health_reporter_ops mlx5_fw_reporter_ops = {
	.name = "fw",
	.diagnose = mlx5_fw_reporter_diagnose,
	.dump = mlx5_fw_reporter_dump,
};

static int
mlx5_fw_fatal_reporter_diagnose(struct devlink_health_reporter *reporter,
				struct devlink_fmsg *fmsg,
				struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *dev = devlink_health_reporter_priv(reporter);
	struct mlx5_health *health = &mlx5_priv(dev)->health;

	devlink_fmsg_string_pair_put(fmsg, "fatal_error",
				     mlx5_sensor_str[health->fatal]);
	devlink_fmsg_u8_pair_put(fmsg, "syndrome", health->synd);
	devlink_fmsg_u32_pair_put(fmsg, "detected_at_poll", health->fatal_poll);
	devlink_fmsg_u32_pair_put(fmsg, "polls", health->polls);
	devlink_fmsg_bool_pair_put(fmsg, "internal_error",
				   mlx5_dev_is_dead(dev));
	devlink_fmsg_bool_pair_put(fmsg, "loaded", dev->loaded);
	return 0;
}

/* The PCIe FLR capability, when the function offers it. */
static bool mlx5_health_has_flr(struct pci_dev *pdev)
{
	u32 cap = 0;

	if (!pci_is_pcie(pdev) || (pdev->dev_flags & PCI_DEV_FLAGS_NO_FLR_RESET))
		return false;
	pcie_capability_read_dword(pdev, PCI_EXP_DEVCAP, &cap);
	return cap & PCI_EXP_DEVCAP_FLR;
}

/* A running firmware's health counter moves, with no fatal condition. */
static int mlx5_health_wait_vital(struct mlx5_core_dev *dev)
{
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(MLX5_HEALTH_VITAL_MS);
	u32 first = mlx5_health_counter(dev), count;

	do {
		msleep(MLX5_HEALTH_VITAL_POLL_MS);
		count = mlx5_health_counter(dev);
		if (count != first && !mlx5_health_check_fatal(dev))
			return 0;
	} while (time_before(jiffies, deadline));
	return -ETIMEDOUT;
}

/**
 * mlx5_health_reset_function() - make the firmware forget the function
 * @dev: the device, unloaded, its DMA stopped
 *
 * A PCIe FLR, when the function offers one, and its config space back.
 * The firmware drops whatever the function held: enabled state, EQs,
 * queues, the host pages it was given.
 */
void mlx5_health_reset_function(struct mlx5_core_dev *dev)
{
	struct pci_dev *pdev = dev->pdev;
	int err;

	if (!mlx5_health_has_flr(pdev))
		return;
	err = pcie_flr(pdev);
	if (err) {
		dev_warn(dev->device, "function reset failed: %d\n", err);
	} else {
		dev->needs_reset = false;
		mlx5_eq_bufs_release(dev);
	}
	pci_restore_state(pdev);
	pci_save_state(pdev);
}

/**
 * mlx5_health_revive() - reset a dead device's function and wait for life
 * @dev: the device, in internal error, unloaded (its DMA stopped)
 * @reset: reset the function first (not when the PCI core just did)
 *
 * Resets the function (PCIe FLR when offered) so that the firmware drops
 * whatever the dead function held, restores its config space and waits
 * for the health counter to run again. On success the device is UP.
 *
 * Return: 0, or -EIO when the firmware shows no life.
 */
int mlx5_health_revive(struct mlx5_core_dev *dev, bool reset)
{
	int err;

	if (reset)
		mlx5_health_reset_function(dev);
	err = mlx5_health_wait_vital(dev);
	if (err) {
		dev_err(dev->device,
			"firmware shows no sign of life after reset (%s), giving up\n",
			mlx5_sensor_str[mlx5_health_check_fatal(dev)]);
		return -EIO;
	}
	WRITE_ONCE(dev->state, MLX5_DEVICE_STATE_UP);
	return 0;
}

/**
 * mlx5_health_pci_error() - count a PCI error on fw_fatal
 * @dev: the device, in internal error, unloaded, its PCI reset under way
 *	(dev->pci_reset), the devlink lock not held
 *
 * The PCI core's error recovery (AER, DPC) resets and reloads the
 * function, not fw_fatal; an operator still looks at fw_fatal for what
 * took the function down. The report counts the error (and dumps the
 * health buffer); the recovery devlink then asks for is refused while the
 * reset is under way. mlx5_health_pci_recovered() counts the recovery.
 */
void mlx5_health_pci_error(struct mlx5_core_dev *dev)
{
	struct mlx5_health *health = &mlx5_priv(dev)->health;

	health->fatal = MLX5_SENSOR_PCI_AER;
	health->fatal_poll = READ_ONCE(health->polls);
	health->synd = ioread8(&dev->iseg->health.synd);
	devlink_health_report(health->fatal_reporter, "PCI error", NULL);
}

/**
 * mlx5_health_pci_recovered() - the PCI core's recovery loaded the
 *	function again: count it on fw_fatal
 * @dev: the device, loaded (fw_fatal healthy again)
 *
 * A recovery of its own for devlink: it starts fw_fatal's grace period.
 */
void mlx5_health_pci_recovered(struct mlx5_core_dev *dev)
{
	devlink_health_reporter_recovery_done(mlx5_priv(dev)->health.fatal_reporter);
}

/* Called by devlink with the instance lock held. */
static int mlx5_fw_fatal_reporter_recover(struct devlink_health_reporter *reporter,
					  void *priv_ctx,
					  struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *dev = devlink_health_reporter_priv(reporter);
	int err;

	/* The PCI core's reset callback loads the function when it is over. */
	if (dev->pci_reset) {
		NL_SET_ERR_MSG_MOD(extack,
				   "a PCI reset of the function is under way");
		return -EBUSY;
	}
	dev_warn(dev->device, "recovering: resetting and reloading the function\n");
	/* A report may come while the device is fine: make it dead first. */
	mlx5_enter_error_state(dev);
	mlx5_unload_one_devl_locked(dev);
	err = mlx5_load_one_devl_locked(dev);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "reloading the function failed");
		dev_err(dev->device, "recovery failed: %d\n", err);
		return err;
	}
	devlink_health_reporter_state_update(mlx5_priv(dev)->health.fw_reporter,
					     DEVLINK_HEALTH_REPORTER_STATE_HEALTHY);
	dev_info(dev->device, "recovered\n");
	return 0;
}

static const struct devlink_health_reporter_ops mlx5_fw_fatal_reporter_ops = {
	.name = "fw_fatal",
	.diagnose = mlx5_fw_fatal_reporter_diagnose,
	.dump = mlx5_fw_reporter_dump,
	.recover = mlx5_fw_fatal_reporter_recover,
};

/**
 * mlx5_health_wq_init() - the health work items and their workqueue
 * @dev: the device, before probe takes the devlink lock
 *
 * The report work takes the devlink lock to recover, so the workqueue is
 * created and destroyed (which drains it) outside that lock: lockdep
 * rightly sees a deadlock in destroying it under the lock.
 *
 * Return: 0 or -ENOMEM.
 */
int mlx5_health_wq_init(struct mlx5_core_dev *dev)
{
	struct mlx5_health *health = &mlx5_priv(dev)->health;

	INIT_DELAYED_WORK(&health->poll, mlx5_health_poll);
	INIT_WORK(&health->report, mlx5_health_report_work);
	INIT_WORK(&health->fatal_report, mlx5_health_fatal_work);
	/*
	 * No report before probe registers the instance: a recovery would
	 * wait for the devlink lock that probe holds.
	 */
	health->stopping = true;
	/* Not ordered: the poll runs while a recovery reloads. */
	health->wq = alloc_workqueue("mlx5_health-%s", 0, 0,
				     dev_name(dev->device));
	return health->wq ? 0 : -ENOMEM;
}

/**
 * mlx5_health_wq_cleanup() - destroy the health workqueue
 * @dev: the device, its reports flushed, the devlink lock not held
 */
void mlx5_health_wq_cleanup(struct mlx5_core_dev *dev)
{
	destroy_workqueue(mlx5_priv(dev)->health.wq);
}

/**
 * mlx5_health_init() - create the devlink health reporters
 * @dev: the device, its devlink instance allocated and locked
 *
 * Return: 0 or a negative errno.
 */
int mlx5_health_init(struct mlx5_core_dev *dev)
{
	struct devlink *devlink = priv_to_devlink(dev);
	struct mlx5_health *health = &mlx5_priv(dev)->health;
	int err;

	health->fw_reporter = devl_health_reporter_create(devlink,
							  &mlx5_fw_reporter_ops,
							  0, dev);
	if (IS_ERR(health->fw_reporter)) {
		err = PTR_ERR(health->fw_reporter);
		dev_err(dev->device, "creating the fw health reporter failed\n");
		return err;
	}
	health->fatal_reporter =
		devl_health_reporter_create(devlink, &mlx5_fw_fatal_reporter_ops,
					    MLX5_FW_FATAL_GRACE_MS, dev);
	if (IS_ERR(health->fatal_reporter)) {
		err = PTR_ERR(health->fatal_reporter);
		dev_err(dev->device, "creating the fw_fatal health reporter failed\n");
		goto err_fw;
	}
	return 0;

err_fw:
	devl_health_reporter_destroy(health->fw_reporter);
	return err;
}

void mlx5_health_cleanup(struct mlx5_core_dev *dev)
{
	devl_health_reporter_destroy(mlx5_priv(dev)->health.fatal_reporter);
	devl_health_reporter_destroy(mlx5_priv(dev)->health.fw_reporter);
}

/**
 * mlx5_health_start() - start polling, once the command interface is up
 * @dev: the device
 */
void mlx5_health_start(struct mlx5_core_dev *dev)
{
	struct mlx5_health *health = &mlx5_priv(dev)->health;

	health->prev_counter = mlx5_health_counter(dev);
	health->miss = 0;
	health->synd = 0;
	queue_delayed_work(health->wq, &health->poll,
			   msecs_to_jiffies(MLX5_HEALTH_POLL_MS));
}

/**
 * mlx5_health_stop() - stop polling, before the command interface goes
 * @dev: the device
 *
 * May run from the fatal report (through recovery): does not wait for it.
 */
void mlx5_health_stop(struct mlx5_core_dev *dev)
{
	cancel_delayed_work_sync(&mlx5_priv(dev)->health.poll);
}

/**
 * mlx5_health_set_healthy() - a load succeeded: both reporters healthy
 * @dev: the device
 */
void mlx5_health_set_healthy(struct mlx5_core_dev *dev)
{
	devlink_health_reporter_state_update(mlx5_priv(dev)->health.fw_reporter,
					     DEVLINK_HEALTH_REPORTER_STATE_HEALTHY);
	devlink_health_reporter_state_update(mlx5_priv(dev)->health.fatal_reporter,
					     DEVLINK_HEALTH_REPORTER_STATE_HEALTHY);
}

/**
 * mlx5_health_flush() - no more reports; wait for those in progress
 * @dev: the device, before remove, shutdown or a PCI error or reset
 *	handler takes the devlink lock
 */
void mlx5_health_flush(struct mlx5_core_dev *dev)
{
	WRITE_ONCE(mlx5_priv(dev)->health.stopping, true);
	cancel_delayed_work_sync(&mlx5_priv(dev)->health.poll);
	cancel_work_sync(&mlx5_priv(dev)->health.report);
	cancel_work_sync(&mlx5_priv(dev)->health.fatal_report);
}

/**
 * mlx5_health_allow() - reports may be queued again (after a PCI reset)
 * @dev: the device
 */
void mlx5_health_allow(struct mlx5_core_dev *dev)
{
	WRITE_ONCE(mlx5_priv(dev)->health.stopping, false);
}
