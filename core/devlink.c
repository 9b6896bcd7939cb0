// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * devlink: device information, the driverinit parameter num_doorbells and
 * reload (driver_reinit), which takes the function down and up again.
 */

#include <net/devlink.h>

#include "priv.h"

enum mlx5_devlink_param_id {
	MLX5_DEVLINK_PARAM_ID_BASE = DEVLINK_PARAM_GENERIC_ID_MAX,
	MLX5_DEVLINK_PARAM_ID_NUM_DOORBELLS,
};

static int mlx5_devlink_info_get(struct devlink *devlink,
				 struct devlink_info_req *req,
				 struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *dev = devlink_priv(devlink);
	char ver[32];
	int err;

	/* The PSID names the board's firmware flavour, as upstream says it. */
	if (dev->board_id[0]) {
		err = devlink_info_version_fixed_put(req,
						     DEVLINK_INFO_VERSION_GENERIC_FW_PSID,
						     dev->board_id);
		if (err)
			return err;
	}

	snprintf(ver, sizeof(ver), "%u.%u.%04u",
		 dev->fw.major, dev->fw.minor, dev->fw.subminor);
	return devlink_info_version_running_put(req, "fw.version", ver);
}

static int mlx5_devlink_reload_down(struct devlink *devlink, bool netns_change,
				    enum devlink_reload_action action,
				    enum devlink_reload_limit limit,
				    struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *dev = devlink_priv(devlink);

	if (netns_change) {
		NL_SET_ERR_MSG_MOD(extack, "network namespace change not supported");
		return -EOPNOTSUPP;
	}
	if (dev->pci_reset) {
		NL_SET_ERR_MSG_MOD(extack,
				   "a PCI reset of the function is under way");
		return -EBUSY;
	}
	mlx5_unload_one_devl_locked(dev);
	return 0;
}

static int mlx5_devlink_reload_up(struct devlink *devlink,
				  enum devlink_reload_action action,
				  enum devlink_reload_limit limit,
				  u32 *actions_performed,
				  struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *dev = devlink_priv(devlink);
	int err;

	*actions_performed = BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT);
	err = mlx5_load_one_devl_locked(dev);
	if (err)
		NL_SET_ERR_MSG_MOD(extack, "bringing the function up failed");
	return err;
}

static const struct devlink_ops mlx5_devlink_ops = {
	.info_get = mlx5_devlink_info_get,
	.reload_actions = BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT),
	.reload_down = mlx5_devlink_reload_down,
	.reload_up = mlx5_devlink_reload_up,
};

static int mlx5_devlink_num_doorbells_validate(struct devlink *devlink, u32 id,
					       union devlink_param_value val,
					       struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *dev = devlink_priv(devlink);
	unsigned int max = mlx5_doorbells_max(dev);

	if (val.vu32 > max) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "num_doorbells must be between 0 and %u",
				       max);
		return -ERANGE;
	}
	return 0;
}

static const struct devlink_param mlx5_devlink_params[] = {
	DEVLINK_PARAM_DRIVER(MLX5_DEVLINK_PARAM_ID_NUM_DOORBELLS,
			     "num_doorbells", DEVLINK_PARAM_TYPE_U32,
			     BIT(DEVLINK_PARAM_CMODE_DRIVERINIT), NULL, NULL,
			     mlx5_devlink_num_doorbells_validate),
};

/**
 * mlx5_devlink_params_register() - register parameters with their defaults
 * @devlink: the instance, locked
 *
 * Return: 0 or a negative errno.
 */
int mlx5_devlink_params_register(struct devlink *devlink)
{
	union devlink_param_value val;
	int err;

	err = devl_params_register(devlink, mlx5_devlink_params,
				   ARRAY_SIZE(mlx5_devlink_params));
	if (err)
		return err;

	/* As upstream: 8, of which the pool takes no more than channels. */
	val.vu32 = MLX5_DEFAULT_DOORBELLS;
	devl_param_driverinit_value_set(devlink,
					MLX5_DEVLINK_PARAM_ID_NUM_DOORBELLS,
					val);
	return 0;
}

void mlx5_devlink_params_unregister(struct devlink *devlink)
{
	devl_params_unregister(devlink, mlx5_devlink_params,
			       ARRAY_SIZE(mlx5_devlink_params));
}

/**
 * mlx5_devlink_num_doorbells() - the driverinit value of num_doorbells
 * @dev: the device, devlink instance locked
 *
 * Return: the doorbells the channels should spread over (0: the global
 * one only), before the pool caps it at the channels there can be.
 */
unsigned int mlx5_devlink_num_doorbells(struct mlx5_core_dev *dev)
{
	union devlink_param_value val;

	if (devl_param_driverinit_value_get(priv_to_devlink(dev),
					    MLX5_DEVLINK_PARAM_ID_NUM_DOORBELLS,
					    &val))
		return MLX5_DEFAULT_DOORBELLS;
	return val.vu32;
}

/**
 * mlx5_devlink_alloc() - allocate the devlink instance that owns the device
 * @device: the PCI function's device
 *
 * The &struct mlx5_core_dev lives in the devlink private area.
 *
 * Return: the instance, or NULL on allocation failure.
 */
struct devlink *mlx5_devlink_alloc(struct device *device)
{
	return devlink_alloc(&mlx5_devlink_ops, sizeof(struct mlx5_core_priv),
			     device);
}

void mlx5_devlink_free(struct devlink *devlink)
{
	devlink_free(devlink);
}
