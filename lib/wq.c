// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Cyclic work queue and CQ memory: one coherent buffer per ring, sized in
 * whole adapter pages, its doorbell record in a small coherent block of its
 * own. CQEs start invalid and hardware-owned so that the first lap is not
 * mistaken for completions.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>

#include "wq.h"

#define MLX5_DB_REC_SIZE	64

static int mlx5_wq_buf_alloc(struct device *dma_dev, size_t size,
			     struct mlx5_wq_buf *wqb)
{
	wqb->size = ALIGN(size, MLX5_ADAPTER_PAGE_SIZE);
	wqb->buf = dma_alloc_coherent(dma_dev, wqb->size, &wqb->dma, GFP_KERNEL);
	if (!wqb->buf)
		return -ENOMEM;

	wqb->db = dma_alloc_coherent(dma_dev, MLX5_DB_REC_SIZE, &wqb->db_dma,
				     GFP_KERNEL);
	if (!wqb->db) {
		dma_free_coherent(dma_dev, wqb->size, wqb->buf, wqb->dma);
		wqb->buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void mlx5_wq_buf_free(struct device *dma_dev, struct mlx5_wq_buf *wqb)
{
	if (!wqb->buf)
		return;
	dma_free_coherent(dma_dev, MLX5_DB_REC_SIZE, wqb->db, wqb->db_dma);
	dma_free_coherent(dma_dev, wqb->size, wqb->buf, wqb->dma);
	wqb->buf = NULL;
}

/**
 * mlx5_wq_cyc_create() - allocate a cyclic work queue
 * @dma_dev: the device that DMAs the ring
 * @log_sz: log2 of the number of entries
 * @log_stride: log2 of the entry size in bytes
 * @dbr: where its counter goes in the doorbell record (send or receive)
 * @wq: filled in
 *
 * Return: 0 or -ENOMEM.
 */
int mlx5_wq_cyc_create(struct device *dma_dev, u8 log_sz, u8 log_stride,
		       enum mlx5_wq_dbr dbr, struct mlx5_wq_cyc *wq)
{
	int err;

	wq->log_sz = log_sz;
	wq->log_stride = log_stride;
	wq->sz_m1 = (1 << log_sz) - 1;
	err = mlx5_wq_buf_alloc(dma_dev, (size_t)1 << (log_sz + log_stride),
				&wq->wqb);
	if (!err)
		wq->db = &wq->wqb.db[dbr];
	return err;
}

void mlx5_wq_cyc_destroy(struct device *dma_dev, struct mlx5_wq_cyc *wq)
{
	mlx5_wq_buf_free(dma_dev, &wq->wqb);
}

/**
 * mlx5_cqwq_create() - allocate a CQ ring of 64-byte CQEs
 * @dma_dev: the device that DMAs the ring
 * @log_sz: log2 of the number of CQEs
 * @cq: filled in; every CQE invalid and owned by hardware
 *
 * Return: 0 or -ENOMEM.
 */
int mlx5_cqwq_create(struct device *dma_dev, u8 log_sz, struct mlx5_cqwq *cq)
{
	struct mlx5_cqe64 *cqe;
	u32 i;
	int err;

	cq->log_sz = log_sz;
	cq->sz_m1 = (1 << log_sz) - 1;
	cq->cc = 0;
	err = mlx5_wq_buf_alloc(dma_dev, (size_t)sizeof(*cqe) << log_sz,
				&cq->wqb);
	if (err)
		return err;

	for (i = 0, cqe = cq->wqb.buf; i <= cq->sz_m1; i++, cqe++)
		cqe->op_own = MLX5_CQE_OPCODE_INVALID << 4 | MLX5_CQE_OWNER_BIT;
	return 0;
}

void mlx5_cqwq_destroy(struct device *dma_dev, struct mlx5_cqwq *cq)
{
	mlx5_wq_buf_free(dma_dev, &cq->wqb);
}

/**
 * mlx5_wq_fill_pas() - write the physical address list of a ring
 * @wqb: the ring
 * @pas: mlx5_wq_npages() big-endian adapter page addresses
 */
void mlx5_wq_fill_pas(const struct mlx5_wq_buf *wqb, __be64 *pas)
{
	unsigned int i;

	for (i = 0; i < mlx5_wq_npages(wqb); i++)
		pas[i] = cpu_to_be64(wqb->dma + ((u64)i << MLX5_ADAPTER_PAGE_SHIFT));
}
