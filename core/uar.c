// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UAR pages and the doorbell pool.
 *
 * A UAR page is a 4 KiB page of BAR0 that the device hands out by index
 * (ALLOC_UAR). EQ and CQ doorbells live in its first half, the send queue
 * doorbell register at MLX5_BF_OFFSET. Channels of the netdev spread their
 * send doorbells over the pool's pages, so that queues on different CPUs do
 * not write the same doorbell address; the pool size is the devlink
 * parameter num_doorbells.
 */

#include <linux/io.h>
#include <linux/mlx5/doorbell.h>
#include <linux/slab.h>

#include "priv.h"

static int mlx5_cmd_alloc_uar(struct mlx5_core_dev *dev, u32 *index)
{
	u32 out[MLX5_ST_SZ_DW(alloc_uar_out)] = {};
	u32 in[MLX5_ST_SZ_DW(alloc_uar_in)] = {};
	int err;

	MLX5_SET(alloc_uar_in, in, opcode, MLX5_CMD_OP_ALLOC_UAR);
	err = mlx5_cmd_exec_inout(dev, alloc_uar, in, out);
	if (!err)
		*index = MLX5_GET(alloc_uar_out, out, uar);
	return err;
}

static void mlx5_cmd_dealloc_uar(struct mlx5_core_dev *dev, u32 index)
{
	u32 in[MLX5_ST_SZ_DW(dealloc_uar_in)] = {};

	MLX5_SET(dealloc_uar_in, in, opcode, MLX5_CMD_OP_DEALLOC_UAR);
	MLX5_SET(dealloc_uar_in, in, uar, index);
	mlx5_cmd_exec_in(dev, dealloc_uar, in);
}

/**
 * mlx5_uar_alloc() - allocate a UAR page from the device and map it
 * @dev: the device
 * @uar: filled with the page's index and mapping
 *
 * Return: 0 or a negative errno.
 */
int mlx5_uar_alloc(struct mlx5_core_dev *dev, struct mlx5_uar *uar)
{
	resource_size_t bar_len = pci_resource_len(dev->pdev, 0);
	resource_size_t off;
	int err;

	err = mlx5_cmd_alloc_uar(dev, &uar->index);
	if (err)
		return err;

	off = (resource_size_t)uar->index * MLX5_ADAPTER_PAGE_SIZE;
	if (!uar->index || off + MLX5_ADAPTER_PAGE_SIZE > bar_len) {
		dev_err(dev->device, "device gave UAR %u outside BAR0\n",
			uar->index);
		err = -EINVAL;
		goto err_dealloc;
	}
	uar->map = ioremap(pci_resource_start(dev->pdev, 0) + off,
			   MLX5_ADAPTER_PAGE_SIZE);
	if (!uar->map) {
		err = -ENOMEM;
		goto err_dealloc;
	}
	return 0;

err_dealloc:
	mlx5_cmd_dealloc_uar(dev, uar->index);
	return err;
}

void mlx5_uar_free(struct mlx5_core_dev *dev, struct mlx5_uar *uar)
{
	iounmap(uar->map);
	mlx5_cmd_dealloc_uar(dev, uar->index);
	uar->map = NULL;
}

/**
 * mlx5_doorbells_init() - allocate the doorbell pool
 * @dev: the device
 * @n: number of UAR pages, within the devlink parameter's range
 *
 * Return: 0 or a negative errno.
 */
int mlx5_doorbells_init(struct mlx5_core_dev *dev, unsigned int n)
{
	struct mlx5_doorbell_pool *pool = &dev->doorbells;
	int err;

	pool->uars = kcalloc(n, sizeof(*pool->uars), GFP_KERNEL);
	if (!pool->uars)
		return -ENOMEM;

	for (pool->n = 0; pool->n < n; pool->n++) {
		err = mlx5_uar_alloc(dev, &pool->uars[pool->n]);
		if (err)
			goto err_free;
	}
	return 0;

err_free:
	mlx5_doorbells_cleanup(dev);
	return err;
}

void mlx5_doorbells_cleanup(struct mlx5_core_dev *dev)
{
	struct mlx5_doorbell_pool *pool = &dev->doorbells;

	while (pool->n)
		mlx5_uar_free(dev, &pool->uars[--pool->n]);
	kfree(pool->uars);
	pool->uars = NULL;
}

static void mlx5_doorbell_of(const struct mlx5_uar *uar,
			     struct mlx5_doorbell *db)
{
	db->page = uar->map;
	db->reg = uar->map + MLX5_BF_OFFSET;
	db->uar_index = uar->index;
}

/**
 * mlx5_doorbell_get() - the doorbell of channel @ix
 * @dev: the device, loaded
 * @ix: channel index
 * @db: filled with the UAR page, its send doorbell register and index
 *
 * Channels take the pool's pages round robin.
 */
void mlx5_doorbell_get(struct mlx5_core_dev *dev, unsigned int ix,
		       struct mlx5_doorbell *db)
{
	mlx5_doorbell_of(&dev->doorbells.uars[ix % dev->doorbells.n], db);
}

/**
 * mlx5_doorbell_global() - the doorbell of queues that belong to no channel
 * @dev: the device, loaded
 * @db: filled with the UAR page of the EQs, its send doorbell register and
 *	index
 */
void mlx5_doorbell_global(struct mlx5_core_dev *dev, struct mlx5_doorbell *db)
{
	mlx5_doorbell_of(&dev->async_uar, db);
}
