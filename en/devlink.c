// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The devlink instance of the Ethernet side: one per mlx5_core.eth
 * auxiliary device (auxiliary/mlx5_core.eth.N), with one port, the
 * netdev's, which carries the health reporters "tx" and "rx".
 *
 * Not the function's instance (core/devlink.c): a reload runs our probe
 * and remove under that instance's lock, but the driver core binding or
 * unbinding us (sysfs bind and unbind) holds only the auxiliary device's
 * lock, and taking the function's lock there would invert the reload's
 * order (devlink lock, then the auxiliary device's). The instance and the
 * port are ours alone: devlink locks them itself, whoever calls.
 * As upstream's, the instance is nested in the function's.
 */
#include <net/devlink.h>

#include "../en.h"

/* <linux/mlx5/vport.h>'s MLX5_VPORT_UPLINK, <linux/mlx5/driver.h>'s MLX5_MAX_PORTS */
#define MLX5E_VPORT_UPLINK	0xffff
#define MLX5E_MAX_PORTS		8

static const struct devlink_ops mlx5e_devlink_ops = {
};

/*
 * The port's index, upstream's: the function's vhca_id above the uplink's
 * vport number (0xffff), so auxiliary/mlx5_core.eth.N/65535 for vhca 0.
 */
static unsigned int mlx5e_devlink_port_index(struct mlx5_core_dev *mdev)
{
	return MLX5_CAP_GEN(mdev, vhca_id) << 16 | MLX5E_VPORT_UPLINK;
}

/* The physical port of a PF: its number the device's, else the PCI function's. */
static u32 mlx5e_devlink_port_number(struct mlx5_core_dev *mdev)
{
	u8 n = MLX5_CAP_GEN(mdev, native_port_num);

	return n >= 1 && n <= MLX5E_MAX_PORTS ? n - 1 : PCI_FUNC(mdev->pdev->devfn);
}

static int mlx5e_devlink_port_register(struct devlink *devlink,
				       struct mlx5_core_dev *mdev)
{
	struct devlink_port *port = devlink_priv(devlink);
	struct devlink_port_attrs attrs = {
		.flavour = DEVLINK_PORT_FLAVOUR_PHYSICAL,
		.phys.port_number = mlx5e_devlink_port_number(mdev),
	};

	devlink_port_attrs_set(port, &attrs);
	return devlink_port_register(devlink, port,
				     mlx5e_devlink_port_index(mdev));
}

/**
 * mlx5e_devlink_create() - the devlink instance and port of the netdev
 * @priv: the netdev's private area, not registered yet
 * @dev: the auxiliary device, the instance's parent
 *
 * Registers the instance, nested in the function's, and its port, which
 * the netdev is then tied to: the netdev must be registered after this.
 *
 * Return: 0 or a negative errno.
 */
int mlx5e_devlink_create(struct mlx5e_priv *priv, struct device *dev)
{
	struct devlink *core_dl = priv_to_devlink(priv->mdev);
	struct devlink *devlink;
	int err;

	devlink = devlink_alloc_ns(&mlx5e_devlink_ops, sizeof(struct devlink_port),
				   devlink_net(core_dl), dev);
	if (!devlink)
		return -ENOMEM;
	/* Only the parent's list of nested instances: no lock of its needed. */
	err = devl_nested_devlink_set(core_dl, devlink);
	if (err)
		goto err_free;
	devlink_register(devlink);
	err = mlx5e_devlink_port_register(devlink, priv->mdev);
	if (err)
		goto err_unregister;
	priv->devlink = devlink;
	SET_NETDEV_DEVLINK_PORT(priv->netdev, devlink_priv(devlink));
	return 0;

err_unregister:
	devlink_unregister(devlink);
err_free:
	devlink_free(devlink);
	return err;
}

/**
 * mlx5e_devlink_destroy() - undo mlx5e_devlink_create()
 * @priv: the netdev's private area, its netdev unregistered and its
 *	reporters destroyed
 */
void mlx5e_devlink_destroy(struct mlx5e_priv *priv)
{
	struct devlink *devlink = priv->devlink;

	devlink_port_unregister(devlink_priv(devlink));
	devlink_unregister(devlink);
	devlink_free(devlink);
	priv->devlink = NULL;
}

/**
 * mlx5e_devlink_port() - the netdev's devlink port
 * @priv: the netdev's private area
 *
 * Return: the port, between mlx5e_devlink_create() and
 *	mlx5e_devlink_destroy().
 */
struct devlink_port *mlx5e_devlink_port(struct mlx5e_priv *priv)
{
	return devlink_priv(priv->devlink);
}
