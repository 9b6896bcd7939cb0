// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The VXLAN UDP port table, kept as upstream mlx5 keeps it: a copy of
 * the device's, changed by commands under a mutex and read without a
 * lock by ndo_features_check (a port being deleted may be seen a little
 * longer, which the device's own table still holds until the command).
 */
#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/vxlan.h>

#include "vxlan.h"

/**
 * struct mlx5_vxlan - the ports the device parses as VXLAN
 * @mdev: the device
 * @lock: serialises changes (and their commands)
 * @nports: slots in @ports (mlx5_vxlan_max_udp_ports())
 * @ports: the ports, 0 in a free slot
 */
struct mlx5_vxlan {
	struct mlx5_core_dev *mdev;
	struct mutex lock; /* changes of @ports */
	unsigned int nports;
	u16 ports[] __counted_by(nports);
};

static int mlx5_vxlan_cmd_add(struct mlx5_core_dev *mdev, u16 port)
{
	u32 in[MLX5_ST_SZ_DW(add_vxlan_udp_dport_in)] = {};

	MLX5_SET(add_vxlan_udp_dport_in, in, opcode,
		 MLX5_CMD_OP_ADD_VXLAN_UDP_DPORT);
	MLX5_SET(add_vxlan_udp_dport_in, in, vxlan_udp_port, port);
	return mlx5_cmd_exec_in(mdev, add_vxlan_udp_dport, in);
}

static int mlx5_vxlan_cmd_del(struct mlx5_core_dev *mdev, u16 port)
{
	u32 in[MLX5_ST_SZ_DW(delete_vxlan_udp_dport_in)] = {};

	MLX5_SET(delete_vxlan_udp_dport_in, in, opcode,
		 MLX5_CMD_OP_DELETE_VXLAN_UDP_DPORT);
	MLX5_SET(delete_vxlan_udp_dport_in, in, vxlan_udp_port, port);
	return mlx5_cmd_exec_in(mdev, delete_vxlan_udp_dport, in);
}

static int mlx5_vxlan_slot(struct mlx5_vxlan *vxlan, u16 port)
{
	unsigned int i;

	for (i = 0; i < vxlan->nports; i++)
		if (READ_ONCE(vxlan->ports[i]) == port)
			return i;
	return -1;
}

bool mlx5_vxlan_lookup_port(struct mlx5_vxlan *vxlan, u16 port)
{
	if (!mlx5_vxlan_allowed(vxlan) || !port)
		return false;
	return mlx5_vxlan_slot(vxlan, port) >= 0;
}

int mlx5_vxlan_add_port(struct mlx5_vxlan *vxlan, u16 port)
{
	int slot, err;

	if (!port)
		return -EINVAL;
	mutex_lock(&vxlan->lock);
	err = 0;
	if (mlx5_vxlan_slot(vxlan, port) >= 0)
		goto out;	/* there already (and in the device) */
	slot = mlx5_vxlan_slot(vxlan, 0);
	if (slot < 0) {
		err = -ENOSPC;
		goto out;
	}
	err = mlx5_vxlan_cmd_add(vxlan->mdev, port);
	if (err) {
		dev_warn(vxlan->mdev->device, "VXLAN port %u not added: %d\n",
			 port, err);
		goto out;
	}
	WRITE_ONCE(vxlan->ports[slot], port);
out:
	mutex_unlock(&vxlan->lock);
	return err;
}

int mlx5_vxlan_del_port(struct mlx5_vxlan *vxlan, u16 port)
{
	int slot, err = 0;

	mutex_lock(&vxlan->lock);
	slot = port ? mlx5_vxlan_slot(vxlan, port) : -1;
	if (slot < 0) {
		err = -ENOENT;
		goto out;
	}
	/* Gone from ours whatever the device says: nothing to retry. */
	WRITE_ONCE(vxlan->ports[slot], 0);
	mlx5_vxlan_cmd_del(vxlan->mdev, port);
out:
	mutex_unlock(&vxlan->lock);
	return err;
}

/**
 * mlx5_vxlan_create() - the table of a device that parses VXLAN
 * @mdev: the device
 *
 * IANA's port is programmed too, though the device has it from reset, as
 * upstream does.
 *
 * Return: the table; ERR_PTR(-EOPNOTSUPP) without tunnel_stateless_vxlan,
 * or -ENOMEM.
 */
struct mlx5_vxlan *mlx5_vxlan_create(struct mlx5_core_dev *mdev)
{
	unsigned int n = mlx5_vxlan_max_udp_ports(mdev);
	struct mlx5_vxlan *vxlan;

	if (!MLX5_CAP_ETH(mdev, tunnel_stateless_vxlan))
		return ERR_PTR(-EOPNOTSUPP);
	vxlan = kzalloc(struct_size(vxlan, ports, n), GFP_KERNEL);
	if (!vxlan)
		return ERR_PTR(-ENOMEM);
	vxlan->mdev = mdev;
	vxlan->nports = n;
	mutex_init(&vxlan->lock);
	mlx5_vxlan_add_port(vxlan, IANA_VXLAN_UDP_PORT);
	return vxlan;
}

void mlx5_vxlan_destroy(struct mlx5_vxlan *vxlan)
{
	if (!mlx5_vxlan_allowed(vxlan))
		return;
	mlx5_vxlan_del_port(vxlan, IANA_VXLAN_UDP_PORT);
	mutex_destroy(&vxlan->lock);
	kfree(vxlan);
}

/*
 * Before the device goes away (a reset, a suspend): the ports the stack
 * gave are deleted, IANA's kept, as the device's table is after a reset.
 * udp_tunnel_nic_reset_ntf() gives them again once it is back.
 */
void mlx5_vxlan_reset_to_default(struct mlx5_vxlan *vxlan)
{
	unsigned int i;
	u16 port;

	if (!mlx5_vxlan_allowed(vxlan))
		return;
	for (i = 0; i < vxlan->nports; i++) {
		port = READ_ONCE(vxlan->ports[i]);
		if (port && port != IANA_VXLAN_UDP_PORT)
			mlx5_vxlan_del_port(vxlan, port);
	}
}
