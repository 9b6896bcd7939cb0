// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * devlink: the device's management face (info, later params and reload).
 */

#include <net/devlink.h>

#include "mlx5_core.h"

static int mlx5_devlink_info_get(struct devlink *devlink,
				 struct devlink_info_req *req,
				 struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *dev = devlink_priv(devlink);
	char ver[32];

	snprintf(ver, sizeof(ver), "%u.%u.%04u",
		 dev->fw.major, dev->fw.minor, dev->fw.subminor);
	return devlink_info_version_running_put(req, "fw.version", ver);
}

static const struct devlink_ops mlx5_devlink_ops = {
	.info_get = mlx5_devlink_info_get,
};

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
	return devlink_alloc(&mlx5_devlink_ops, sizeof(struct mlx5_core_dev),
			     device);
}

void mlx5_devlink_free(struct devlink *devlink)
{
	devlink_free(devlink);
}
