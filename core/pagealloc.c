// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Firmware pages: memory the device asks the driver for (at boot, at init
 * and at run time through page request events) and gives back on request
 * or at teardown. Each is one 4 KiB adapter page, DMA-mapped and tracked by
 * its bus address until the device returns it.
 */

#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "priv.h"

/* QUERY_PAGES op_mod */
#define MLX5_QUERY_PAGES_BOOT		1
#define MLX5_QUERY_PAGES_INIT		2
#define MLX5_QUERY_PAGES_REGULAR	3

/* MANAGE_PAGES op_mod */
#define MLX5_MANAGE_PAGES_ALLOC_FAIL	0
#define MLX5_MANAGE_PAGES_GIVE		1
#define MLX5_MANAGE_PAGES_TAKE		2

/* Pages per MANAGE_PAGES command: bounds the mailbox chain. */
#define MLX5_PAGES_PER_CMD		512

/*
 * The most firmware pages a function may hold: 256 MiB.  A device asking
 * for more (10^8 pages would be 400 GB) is refused, the figure named,
 * rather than allowed to drive the host out of memory.  This driver runs
 * Ethernet alone (no RDMA, no SR-IOV, a few queues per channel), whose
 * firmware memory is counted in MiB, not hundreds of them.
 */
#define MLX5_FW_PAGES_MAX		(SZ_256M / MLX5_ADAPTER_PAGE_SIZE)

static int mlx5_page_alloc_one(struct mlx5_core_dev *dev, u64 *addr)
{
	struct page *page;
	dma_addr_t dma;
	int err;

	BUILD_BUG_ON(PAGE_SIZE < MLX5_ADAPTER_PAGE_SIZE);
	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	dma = dma_map_page(dev->device, page, 0, MLX5_ADAPTER_PAGE_SIZE,
			   DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dev->device, dma)) {
		__free_page(page);
		return -ENOMEM;
	}
	/* The tree's index is the mapping: it must be page aligned. */
	if (WARN_ON_ONCE(dma & (MLX5_ADAPTER_PAGE_SIZE - 1))) {
		dma_unmap_page(dev->device, dma, MLX5_ADAPTER_PAGE_SIZE,
			       DMA_BIDIRECTIONAL);
		__free_page(page);
		return -EINVAL;
	}
	err = xa_insert(&mlx5_priv(dev)->pages.tree, dma >> MLX5_ADAPTER_PAGE_SHIFT, page,
			GFP_KERNEL);
	if (err) {
		dma_unmap_page(dev->device, dma, MLX5_ADAPTER_PAGE_SIZE,
			       DMA_BIDIRECTIONAL);
		__free_page(page);
		return err;
	}
	*addr = dma;
	return 0;
}

/*
 * Unmap and free the page the driver gave at adapter page @addr >> 12.
 * What is unmapped is what was mapped (the tree's index), never the
 * device's @addr, whose low bits it may have set: an IOVA off by an
 * in-page offset unmaps the wrong range.  False for a page never given.
 */
static bool mlx5_page_free_one(struct mlx5_core_dev *dev, u64 addr)
{
	unsigned long idx = addr >> MLX5_ADAPTER_PAGE_SHIFT;
	struct page *page;

	page = xa_erase(&mlx5_priv(dev)->pages.tree, idx);
	if (!page)
		return false;
	dma_unmap_page(dev->device, (dma_addr_t)idx << MLX5_ADAPTER_PAGE_SHIFT,
		       MLX5_ADAPTER_PAGE_SIZE, DMA_BIDIRECTIONAL);
	__free_page(page);
	return true;
}

/* The device handed back @addr, which the driver never gave: refused. */
static void mlx5_page_bad_return(struct mlx5_core_dev *dev, u64 addr)
{
	struct mlx5_pages *pages = &mlx5_priv(dev)->pages;

	pages->bad_returns++;
	if (pages->bad_return_warned)
		return;
	pages->bad_return_warned = true;
	dev_warn(dev->device,
		 "device returned page 0x%llx, which the driver never gave: refused (the next ones are counted in debugfs)\n",
		 addr);
}

static void mlx5_page_alloc_fail(struct mlx5_core_dev *dev, u16 func_id)
{
	u32 in[MLX5_ST_SZ_DW(manage_pages_in)] = {};

	MLX5_SET(manage_pages_in, in, opcode, MLX5_CMD_OP_MANAGE_PAGES);
	MLX5_SET(manage_pages_in, in, op_mod, MLX5_MANAGE_PAGES_ALLOC_FAIL);
	MLX5_SET(manage_pages_in, in, function_id, func_id);
	mlx5_cmd_exec_in(dev, manage_pages, in);
}

/* One MANAGE_PAGES(GIVE) of at most MLX5_PAGES_PER_CMD pages. */
static int mlx5_give_batch(struct mlx5_core_dev *dev, u16 func_id, int n)
{
	int inlen = MLX5_ST_SZ_BYTES(manage_pages_in) +
		    n * MLX5_FLD_SZ_BYTES(manage_pages_in, pas[0]);
	u32 out[MLX5_ST_SZ_DW(manage_pages_out)] = {};
	u64 addr;
	int i, err;
	u32 *in;

	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;

	for (i = 0; i < n; i++) {
		err = mlx5_page_alloc_one(dev, &addr);
		if (err)
			goto err_free;
		MLX5_ARRAY_SET64(manage_pages_in, in, pas, i, addr);
	}

	MLX5_SET(manage_pages_in, in, opcode, MLX5_CMD_OP_MANAGE_PAGES);
	MLX5_SET(manage_pages_in, in, op_mod, MLX5_MANAGE_PAGES_GIVE);
	MLX5_SET(manage_pages_in, in, function_id, func_id);
	MLX5_SET(manage_pages_in, in, input_num_entries, n);
	err = mlx5_cmd_exec(dev, in, inlen, out, sizeof(out));
	if (err) {
		if (err == -ETIMEDOUT) {
			/* The device may hold them: free only at teardown. */
			goto out;
		}
		goto err_free;
	}
	mlx5_priv(dev)->pages.count += n;
	goto out;

err_free:
	while (i-- > 0)
		mlx5_page_free_one(dev, MLX5_GET64(manage_pages_in, in, pas[i]));
	if (err == -ENOMEM)
		mlx5_page_alloc_fail(dev, func_id);
out:
	kvfree(in);
	return err;
}

/* Would @npages more go past MLX5_FW_PAGES_MAX?  Then refuse them. */
static bool mlx5_pages_refused(struct mlx5_core_dev *dev, int npages)
{
	if (npages <= MLX5_FW_PAGES_MAX - mlx5_priv(dev)->pages.count)
		return false;
	mlx5_priv(dev)->pages.refused++;
	dev_err(dev->device,
		"device asked for %d firmware pages, holding %d, more than the %d a function may hold: refused\n",
		npages, mlx5_priv(dev)->pages.count, MLX5_FW_PAGES_MAX);
	return true;
}

static int mlx5_give_pages(struct mlx5_core_dev *dev, u16 func_id, int npages)
{
	int err;

	if (mlx5_pages_refused(dev, npages)) {
		mlx5_page_alloc_fail(dev, func_id);
		return -ENOMEM;
	}

	while (npages > 0) {
		int n = min(npages, MLX5_PAGES_PER_CMD);

		err = mlx5_give_batch(dev, func_id, n);
		if (err) {
			dev_err(dev->device, "giving %d firmware pages failed: %d\n",
				npages, err);
			return err;
		}
		npages -= n;
	}
	return 0;
}

/* One MANAGE_PAGES(TAKE): returns how many pages the device handed back. */
static int mlx5_take_batch(struct mlx5_core_dev *dev, u16 func_id, int n)
{
	int outlen = MLX5_ST_SZ_BYTES(manage_pages_out) +
		     n * MLX5_FLD_SZ_BYTES(manage_pages_out, pas[0]);
	u32 in[MLX5_ST_SZ_DW(manage_pages_in)] = {};
	int i, got, err;
	u32 *out;

	out = kvzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;

	MLX5_SET(manage_pages_in, in, opcode, MLX5_CMD_OP_MANAGE_PAGES);
	MLX5_SET(manage_pages_in, in, op_mod, MLX5_MANAGE_PAGES_TAKE);
	MLX5_SET(manage_pages_in, in, function_id, func_id);
	MLX5_SET(manage_pages_in, in, input_num_entries, n);
	err = mlx5_cmd_exec(dev, in, sizeof(in), out, outlen);
	if (err)
		goto out;

	got = MLX5_GET(manage_pages_out, out, output_num_entries);
	if (got > n) {
		dev_err(dev->device,
			"device returned %d firmware pages, %d asked\n", got, n);
		got = n;
	}
	for (i = 0; i < got; i++) {
		u64 addr = MLX5_GET64(manage_pages_out, out, pas[i]);

		if (mlx5_page_free_one(dev, addr))
			mlx5_priv(dev)->pages.count--;
		else
			mlx5_page_bad_return(dev, addr);
	}
	err = got;
out:
	kvfree(out);
	return err;
}

static int mlx5_reclaim_pages(struct mlx5_core_dev *dev, u16 func_id,
			      int npages)
{
	int got;

	while (npages > 0) {
		got = mlx5_take_batch(dev, func_id,
				      min(npages, MLX5_PAGES_PER_CMD));
		if (got < 0)
			return got;
		if (!got)
			break;
		npages -= got;
	}
	return 0;
}

static void mlx5_page_req_work(struct work_struct *work)
{
	struct mlx5_pages *pages = container_of(work, struct mlx5_pages,
						req_work);
	struct mlx5_core_dev *dev = &container_of(pages, struct mlx5_core_priv,
						  pages)->dev;
	int refuse = atomic_xchg(&pages->refuse_pending, 0);
	int give = atomic_xchg(&pages->give_pending, 0);
	int take = atomic_xchg(&pages->take_pending, 0);

	mutex_lock(&pages->lock);
	if (refuse) {
		pages->refused += refuse;
		/* The device is told, as for pages the host cannot spare. */
		mlx5_page_alloc_fail(dev, pages->req_func);
	}
	if (give)
		mlx5_give_pages(dev, pages->req_func, give);
	if (take)
		mlx5_reclaim_pages(dev, pages->req_func, take);
	mutex_unlock(&pages->lock);
}

/**
 * mlx5_pages_request() - the device asked for (or returns) pages
 * @dev: the device
 * @func_id: function the pages are for
 * @npages: positive: give this many; negative: take this many back
 *
 * Called from the async EQ's interrupt handler. Requests to give and to
 * take add up apart until the work runs, so that neither cancels the
 * other, none is lost and nothing is allocated here.
 */
void mlx5_pages_request(struct mlx5_core_dev *dev, u16 func_id, s32 npages)
{
	struct mlx5_pages *pages = &mlx5_priv(dev)->pages;

	WRITE_ONCE(pages->req_func, func_id);
	if (npages > 0) {
		/* Added up here, bounded in the work: never past INT_MAX. */
		if (npages > MLX5_FW_PAGES_MAX ||
		    atomic_add_return(npages, &pages->give_pending) >
		    MLX5_FW_PAGES_MAX) {
			if (npages <= MLX5_FW_PAGES_MAX)
				atomic_sub(npages, &pages->give_pending);
			atomic_inc(&pages->refuse_pending);
			dev_err_ratelimited(dev->device,
					    "device asked for %d firmware pages, more than the %d a function may hold: refused\n",
					    npages, MLX5_FW_PAGES_MAX);
		}
	} else if (npages < 0) {
		atomic_add(-npages, &pages->take_pending);
	}
	queue_work(pages->wq, &pages->req_work);
}

/**
 * mlx5_satisfy_startup_pages() - give the pages the device needs now
 * @dev: the device
 * @boot: boot pages (before the capabilities are set), else init pages
 *
 * Return: 0 or a negative errno.
 */
int mlx5_satisfy_startup_pages(struct mlx5_core_dev *dev, bool boot)
{
	u32 out[MLX5_ST_SZ_DW(query_pages_out)] = {};
	u32 in[MLX5_ST_SZ_DW(query_pages_in)] = {};
	s32 npages;
	u16 func_id;
	int err;

	MLX5_SET(query_pages_in, in, opcode, MLX5_CMD_OP_QUERY_PAGES);
	MLX5_SET(query_pages_in, in, op_mod,
		 boot ? MLX5_QUERY_PAGES_BOOT : MLX5_QUERY_PAGES_INIT);
	err = mlx5_cmd_exec_inout(dev, query_pages, in, out);
	if (err)
		return err;

	npages = MLX5_GET(query_pages_out, out, num_pages);
	func_id = MLX5_GET(query_pages_out, out, function_id);
	if (npages <= 0)
		return 0;

	mutex_lock(&mlx5_priv(dev)->pages.lock);
	err = mlx5_give_pages(dev, func_id, npages);
	mutex_unlock(&mlx5_priv(dev)->pages.lock);
	return err;
}

/**
 * mlx5_reclaim_startup_pages() - take every page back from the device
 * @dev: the device, after TEARDOWN_HCA
 *
 * Pages the device does not return are freed anyway once it is disabled:
 * see mlx5_pagealloc_cleanup().
 *
 * Return: 0 when the device returned every page.
 */
int mlx5_reclaim_startup_pages(struct mlx5_core_dev *dev)
{
	int err = 0;

	flush_workqueue(mlx5_priv(dev)->pages.wq);
	mutex_lock(&mlx5_priv(dev)->pages.lock);
	/*
	 * Again while pages come back: an address refused (never given)
	 * counts as one handed back but leaves its page with the device.
	 */
	while (!err && mlx5_priv(dev)->pages.count) {
		int held = mlx5_priv(dev)->pages.count;

		err = mlx5_reclaim_pages(dev, 0, held);
		if (mlx5_priv(dev)->pages.count == held)
			break;
	}
	/* A dead device returns nothing: the pages are freed at cleanup. */
	if (!err && mlx5_priv(dev)->pages.count && !mlx5_dev_is_dead(dev)) {
		dev_warn(dev->device, "device kept %d firmware pages\n",
			 mlx5_priv(dev)->pages.count);
		err = -EBUSY;
	}
	mutex_unlock(&mlx5_priv(dev)->pages.lock);
	return err;
}

static int mlx5_fw_pages_get(void *data, u64 *val)
{
	struct mlx5_pages *pages = data;

	*val = READ_ONCE(pages->count);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(mlx5_fw_pages_fops, mlx5_fw_pages_get, NULL,
			 "%llu\n");

/*
 * debugfs mlx5/<BDF>/pages/: fw_pages (held by the device), bad_returns
 * (addresses handed back that the driver never gave), refused (page
 * requests past MLX5_FW_PAGES_MAX).
 */
static void mlx5_pages_debugfs_init(struct mlx5_core_dev *dev)
{
	struct mlx5_pages *pages = &mlx5_priv(dev)->pages;
	struct dentry *dir;

	pages->dbg = debugfs_create_dir(pci_name(dev->pdev), mlx5_debugfs_root);
	dir = debugfs_create_dir("pages", pages->dbg);
	debugfs_create_file_unsafe("fw_pages", 0400, dir, pages,
				   &mlx5_fw_pages_fops);
	debugfs_create_u32("bad_returns", 0400, dir, &pages->bad_returns);
	debugfs_create_u32("refused", 0400, dir, &pages->refused);
}

int mlx5_pagealloc_init(struct mlx5_core_dev *dev)
{
	xa_init(&mlx5_priv(dev)->pages.tree);
	mutex_init(&mlx5_priv(dev)->pages.lock);
	mlx5_priv(dev)->pages.count = 0;
	mlx5_priv(dev)->pages.bad_returns = 0;
	mlx5_priv(dev)->pages.bad_return_warned = false;
	mlx5_priv(dev)->pages.refused = 0;
	atomic_set(&mlx5_priv(dev)->pages.give_pending, 0);
	atomic_set(&mlx5_priv(dev)->pages.take_pending, 0);
	atomic_set(&mlx5_priv(dev)->pages.refuse_pending, 0);
	INIT_WORK(&mlx5_priv(dev)->pages.req_work, mlx5_page_req_work);
	mlx5_priv(dev)->pages.wq = alloc_workqueue("mlx5_pages", WQ_MEM_RECLAIM |
					WQ_UNBOUND, 1);
	if (!mlx5_priv(dev)->pages.wq)
		return -ENOMEM;
	mlx5_pages_debugfs_init(dev);
	return 0;
}

/**
 * mlx5_pagealloc_cleanup() - free whatever pages are still tracked
 * @dev: the device, disabled: it no longer touches its pages
 */
void mlx5_pagealloc_cleanup(struct mlx5_core_dev *dev)
{
	unsigned long idx;
	struct page *page;

	debugfs_remove_recursive(mlx5_priv(dev)->pages.dbg);
	mlx5_priv(dev)->pages.dbg = NULL;
	destroy_workqueue(mlx5_priv(dev)->pages.wq);
	xa_for_each(&mlx5_priv(dev)->pages.tree, idx, page) {
		dma_unmap_page(dev->device, idx << MLX5_ADAPTER_PAGE_SHIFT,
			       MLX5_ADAPTER_PAGE_SIZE, DMA_BIDIRECTIONAL);
		__free_page(page);
	}
	xa_destroy(&mlx5_priv(dev)->pages.tree);
	mutex_destroy(&mlx5_priv(dev)->pages.lock);
}
