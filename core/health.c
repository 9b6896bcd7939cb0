// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Firmware health: the firmware increments a counter in the init segment
 * while it runs and writes a syndrome into the health buffer when it fails.
 * A counter that stops moving for a few polls, or a non-zero syndrome, is
 * reported through the devlink health reporter "fw", whose recovery
 * reloads the function.
 *
 * The poll runs as delayed work; the report runs as separate work because
 * devlink calls the recovery from it, and the recovery stops the poll.
 */

#include <linux/io.h>
#include <net/devlink.h>

#include "priv.h"

#define MLX5_HEALTH_COUNTER_MASK	GENMASK(23, 0)

static struct mlx5_core_dev *mlx5_health_to_dev(struct mlx5_health *health)
{
	return container_of(health, struct mlx5_core_dev, health);
}

static u32 mlx5_health_counter(struct mlx5_core_dev *dev)
{
	return ioread32be(&dev->iseg->health_counter) &
	       MLX5_HEALTH_COUNTER_MASK;
}

static void mlx5_health_poll(struct work_struct *work)
{
	struct mlx5_health *health = container_of(to_delayed_work(work),
						  struct mlx5_health, poll);
	struct mlx5_core_dev *dev = mlx5_health_to_dev(health);
	u32 counter = mlx5_health_counter(dev);
	u8 synd = ioread8(&dev->iseg->health.synd);

	health->miss = counter == health->prev_counter ? health->miss + 1 : 0;
	health->prev_counter = counter;

	if (synd || health->miss >= MLX5_HEALTH_MAX_MISS) {
		health->synd = synd;
		health->failed = true;
		if (synd)
			dev_err(dev->device,
				"firmware reports syndrome 0x%x, ext 0x%x\n",
				synd, ioread16be(&dev->iseg->health.ext_synd));
		else
			dev_err(dev->device,
				"firmware health counter stuck at 0x%x for %u polls\n",
				counter, health->miss);
		if (!READ_ONCE(health->stopping))
			schedule_work(&health->report);
		return;
	}
	schedule_delayed_work(&health->poll,
			      msecs_to_jiffies(MLX5_HEALTH_POLL_MS));
}

static void mlx5_health_report_work(struct work_struct *work)
{
	struct mlx5_health *health = container_of(work, struct mlx5_health,
						  report);

	devlink_health_report(health->reporter,
			      health->synd ? "firmware syndrome" :
			      "firmware health counter stuck", NULL);
}

static int mlx5_fw_reporter_diagnose(struct devlink_health_reporter *reporter,
				     struct devlink_fmsg *fmsg,
				     struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *dev = devlink_health_reporter_priv(reporter);
	struct mlx5_health *health = &dev->health;

	devlink_fmsg_u32_pair_put(fmsg, "health_counter",
				  mlx5_health_counter(dev));
	devlink_fmsg_u32_pair_put(fmsg, "missed_polls", health->miss);
	devlink_fmsg_u8_pair_put(fmsg, "syndrome",
				 ioread8(&dev->iseg->health.synd));
	devlink_fmsg_u32_pair_put(fmsg, "cmd_timeouts",
				  atomic_read(&dev->cmd.timeouts));
	devlink_fmsg_bool_pair_put(fmsg, "failed", health->failed);
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

/* Called by devlink with the instance lock held. */
static int mlx5_fw_reporter_recover(struct devlink_health_reporter *reporter,
				    void *priv_ctx,
				    struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *dev = devlink_health_reporter_priv(reporter);
	int err;

	dev_warn(dev->device, "recovering: reloading the function\n");
	mlx5_unload_one_devl_locked(dev);
	err = mlx5_load_one_devl_locked(dev);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "reloading the function failed");
		dev_err(dev->device, "recovery failed: %d\n", err);
		return err;
	}
	dev_info(dev->device, "recovered\n");
	return 0;
}

static const struct devlink_health_reporter_ops mlx5_fw_reporter_ops = {
	.name = "fw",
	.diagnose = mlx5_fw_reporter_diagnose,
	.dump = mlx5_fw_reporter_dump,
	.recover = mlx5_fw_reporter_recover,
};

/**
 * mlx5_health_init() - create the devlink health reporter
 * @dev: the device, its devlink instance allocated
 *
 * Return: 0 or a negative errno.
 */
int mlx5_health_init(struct mlx5_core_dev *dev)
{
	struct devlink *devlink = priv_to_devlink(dev);
	struct mlx5_health *health = &dev->health;

	INIT_DELAYED_WORK(&health->poll, mlx5_health_poll);
	INIT_WORK(&health->report, mlx5_health_report_work);
	health->reporter = devl_health_reporter_create(devlink,
						       &mlx5_fw_reporter_ops,
						       0, dev);
	if (IS_ERR(health->reporter)) {
		dev_err(dev->device, "creating the fw health reporter failed\n");
		return PTR_ERR(health->reporter);
	}
	return 0;
}

void mlx5_health_cleanup(struct mlx5_core_dev *dev)
{
	devl_health_reporter_destroy(dev->health.reporter);
}

/**
 * mlx5_health_start() - start polling, after the function is loaded
 * @dev: the device
 */
void mlx5_health_start(struct mlx5_core_dev *dev)
{
	struct mlx5_health *health = &dev->health;

	health->prev_counter = mlx5_health_counter(dev);
	health->miss = 0;
	health->synd = 0;
	health->failed = false;
	schedule_delayed_work(&health->poll,
			      msecs_to_jiffies(MLX5_HEALTH_POLL_MS));
}

/**
 * mlx5_health_stop() - stop polling, before the function is unloaded
 * @dev: the device
 *
 * May run from the report work (through recovery): does not wait for it.
 */
void mlx5_health_stop(struct mlx5_core_dev *dev)
{
	cancel_delayed_work_sync(&dev->health.poll);
}

/**
 * mlx5_health_flush() - no more reports; wait for one in progress
 * @dev: the device, before remove takes the devlink lock
 */
void mlx5_health_flush(struct mlx5_core_dev *dev)
{
	WRITE_ONCE(dev->health.stopping, true);
	cancel_delayed_work_sync(&dev->health.poll);
	cancel_work_sync(&dev->health.report);
}
