// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UAR pages and the doorbell pool.
 *
 * A UAR page is a 4 KiB page of BAR0 that the device hands out by index
 * (ALLOC_UAR). EQ and CQ doorbells live in its first half, send queue
 * doorbell registers in the second, from MLX5_BF_OFFSET. Channels of the
 * netdev spread their send doorbells over the pool's registers, so that
 * queues on different CPUs do not write the same doorbell address, and arm
 * their CQs through the page of theirs; the pool size is the devlink
 * parameter num_doorbells.
 */

#include <linux/cpumask.h>
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
 * mlx5_doorbell_regs_per_uar() - send doorbell registers a pool page gives
 * @dev: the device, capabilities queried
 *
 * The second half of a UAR page holds registers of 2^log_bf_reg_size bytes
 * from MLX5_BF_OFFSET: the first half of them are the ones that take plain
 * 8-byte doorbells (the rest are meant for BlueFlame writes). That is two
 * on every device we know (log_bf_reg_size 9: four registers), and at
 * least one.
 *
 * Return: registers handed out from each pool page.
 */
unsigned int mlx5_doorbell_regs_per_uar(struct mlx5_core_dev *dev)
{
	unsigned int regs = 2;

	if (dev->caps.hca[MLX5_CAP_GENERAL])
		regs = ((MLX5_ADAPTER_PAGE_SIZE - MLX5_BF_OFFSET) >>
			MLX5_CAP_GEN(dev, log_bf_reg_size)) / 2;
	return clamp(regs, 1U, MLX5_DOORBELL_REGS_PER_UAR);
}

/**
 * mlx5_doorbells_max() - the largest value num_doorbells takes
 * @dev: the device
 *
 * Return: the registers of MLX5_MAX_DOORBELL_UARS pool pages.
 */
unsigned int mlx5_doorbells_max(struct mlx5_core_dev *dev)
{
	return MLX5_MAX_DOORBELL_UARS * mlx5_doorbell_regs_per_uar(dev);
}

/**
 * mlx5_doorbells_init() - allocate the doorbell pool
 * @dev: the device, completion EQs created
 * @want: the devlink parameter num_doorbells (0: none, every queue on the
 *	global doorbell)
 *
 * A doorbell is one send doorbell register of a UAR page; pages are filled
 * register by register, so N doorbells take DIV_ROUND_UP(N, registers per
 * page) pages, as upstream does. More doorbells than channels would never
 * be rung: the pool holds at most as many as the function can ever have
 * channels (one per completion vector and online CPU), not as many as are
 * open now, so that ethtool -L can grow the channels over doorbells that
 * are already there.
 *
 * Return: 0 or a negative errno.
 */
int mlx5_doorbells_init(struct mlx5_core_dev *dev, unsigned int want)
{
	struct mlx5_doorbell_pool *pool = &dev->doorbells;
	unsigned int n, nuars;
	int err;

	n = min3(want, (unsigned int)mlx5_comp_vectors(dev),
		 num_online_cpus());
	n = min(n, mlx5_doorbells_max(dev));
	pool->regs_per_uar = mlx5_doorbell_regs_per_uar(dev);
	pool->reg_shift = MLX5_CAP_GEN(dev, log_bf_reg_size);
	pool->n = 0;
	pool->nuars = 0;
	if (!n)
		return 0;

	nuars = DIV_ROUND_UP(n, pool->regs_per_uar);
	pool->uars = kcalloc(nuars, sizeof(*pool->uars), GFP_KERNEL);
	if (!pool->uars)
		return -ENOMEM;

	for (; pool->nuars < nuars; pool->nuars++) {
		err = mlx5_uar_alloc(dev, &pool->uars[pool->nuars]);
		if (err)
			goto err_free;
	}
	pool->n = n;
	return 0;

err_free:
	mlx5_doorbells_cleanup(dev);
	return err;
}

void mlx5_doorbells_cleanup(struct mlx5_core_dev *dev)
{
	struct mlx5_doorbell_pool *pool = &dev->doorbells;

	pool->n = 0;
	while (pool->nuars)
		mlx5_uar_free(dev, &pool->uars[--pool->nuars]);
	kfree(pool->uars);
	pool->uars = NULL;
}

static void mlx5_doorbell_of(const struct mlx5_uar *uar, unsigned int reg,
			     unsigned int shift, struct mlx5_doorbell *db)
{
	db->page = uar->map;
	db->reg = uar->map + MLX5_BF_OFFSET + (reg << shift);
	db->uar_index = uar->index;
}

/**
 * mlx5_doorbell_get() - the doorbell of channel @ix
 * @dev: the device, loaded
 * @ix: channel index
 * @db: filled with the UAR page, its send doorbell register and index
 *
 * Channels take the pool's doorbells round robin: channel @ix rings
 * doorbell @ix modulo the pool size, register (that modulo the registers
 * per page) of page (that divided by them). An empty pool (num_doorbells
 * 0) gives the global doorbell.
 */
void mlx5_doorbell_get(struct mlx5_core_dev *dev, unsigned int ix,
		       struct mlx5_doorbell *db)
{
	const struct mlx5_doorbell_pool *pool = &dev->doorbells;
	unsigned int d;

	if (!pool->n) {
		mlx5_doorbell_global(dev, db);
		return;
	}
	d = ix % pool->n;
	mlx5_doorbell_of(&pool->uars[d / pool->regs_per_uar],
			 d % pool->regs_per_uar, pool->reg_shift, db);
}

/**
 * mlx5_doorbell_global() - the doorbell of queues that belong to no channel
 * @dev: the device, loaded
 * @db: filled with the UAR page of the EQs, its first send doorbell
 *	register and index
 */
void mlx5_doorbell_global(struct mlx5_core_dev *dev, struct mlx5_doorbell *db)
{
	mlx5_doorbell_of(&dev->async_uar, 0, 0, db);
}
