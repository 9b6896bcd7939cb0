/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Cyclic work queues and completion queues: a ring of fixed-size entries in
 * one coherent DMA buffer, followed by its doorbell record. The device reads
 * the page list (PAS) of the buffer from the create command and the
 * producer (WQ) or consumer (CQ) counter from the doorbell record. Nothing
 * here knows what the entries mean.
 */
#ifndef __MLX5_LIB_WQ_H__
#define __MLX5_LIB_WQ_H__

#include <linux/types.h>
#include <linux/device.h>
#include <linux/mlx5/device.h>

/* CQE op_own: bit 0 owner, bits 7..4 opcode (15: never written). */
#define MLX5_CQE_OWNER_BIT	0x1
#define MLX5_CQE_OPCODE_INVALID	0xf

/**
 * struct mlx5_wq_buf - a ring buffer and its doorbell record in DMA memory
 * @buf: the entries
 * @dma: bus address of @buf
 * @size: bytes of @buf (whole adapter pages)
 * @db: doorbell record (two big-endian words)
 * @db_dma: bus address of @db
 */
struct mlx5_wq_buf {
	void *buf;
	dma_addr_t dma;
	size_t size;
	__be32 *db;
	dma_addr_t db_dma;
};

/* Which word of its doorbell record a work queue's counter goes in. */
enum mlx5_wq_dbr {
	MLX5_WQ_DBR_RCV = 0,
	MLX5_WQ_DBR_SND = 1,
};

/**
 * struct mlx5_wq_cyc - a cyclic work queue
 * @wqb: its memory
 * @db: the word of the doorbell record the producer counter goes in
 * @sz_m1: number of entries minus one (a power of two minus one)
 * @log_stride: log2 of the entry size
 * @log_sz: log2 of the number of entries
 */
struct mlx5_wq_cyc {
	struct mlx5_wq_buf wqb;
	__be32 *db;
	u16 sz_m1;
	u8 log_stride;
	u8 log_sz;
};

/**
 * struct mlx5_cqwq - a completion queue ring of 64-byte CQEs
 * @wqb: its memory
 * @sz_m1: number of CQEs minus one
 * @log_sz: log2 of the number of CQEs
 * @cc: consumer counter (counting laps: the owner bit is bit @log_sz)
 */
struct mlx5_cqwq {
	struct mlx5_wq_buf wqb;
	u32 sz_m1;
	u8 log_sz;
	u32 cc;
};

int mlx5_wq_cyc_create(struct device *dma_dev, u8 log_sz, u8 log_stride,
		       enum mlx5_wq_dbr dbr, struct mlx5_wq_cyc *wq);
void mlx5_wq_cyc_destroy(struct device *dma_dev, struct mlx5_wq_cyc *wq);
int mlx5_cqwq_create(struct device *dma_dev, u8 log_sz, struct mlx5_cqwq *cq);
void mlx5_cqwq_destroy(struct device *dma_dev, struct mlx5_cqwq *cq);
void mlx5_wq_fill_pas(const struct mlx5_wq_buf *wqb, __be64 *pas);

/* Number of adapter (4 KiB) pages of a ring, for the PAS array. */
static inline unsigned int mlx5_wq_npages(const struct mlx5_wq_buf *wqb)
{
	return wqb->size >> MLX5_ADAPTER_PAGE_SHIFT;
}

static inline u16 mlx5_wq_cyc_ctr2ix(const struct mlx5_wq_cyc *wq, u16 ctr)
{
	return ctr & wq->sz_m1;
}

static inline void *mlx5_wq_cyc_get_wqe(const struct mlx5_wq_cyc *wq, u16 ix)
{
	return wq->wqb.buf + ((size_t)ix << wq->log_stride);
}

static inline u16 mlx5_wq_cyc_size(const struct mlx5_wq_cyc *wq)
{
	return wq->sz_m1 + 1;
}

/* Entries from @ix to the end of the ring (a WQE may not wrap). */
static inline u16 mlx5_wq_cyc_contig_to_end(const struct mlx5_wq_cyc *wq,
					    u16 ix)
{
	return wq->sz_m1 + 1 - ix;
}

/* Publish the producer counter to the device (after the WQEs are written). */
static inline void mlx5_wq_cyc_update_db(struct mlx5_wq_cyc *wq, u16 pc)
{
	*wq->db = cpu_to_be32(pc);
}

/**
 * mlx5_cqwq_get_cqe() - the CQE at the consumer counter if software owns it
 * @cq: the ring
 *
 * Return: the CQE, its contents readable (dma_rmb() done), or NULL.
 */
static inline struct mlx5_cqe64 *mlx5_cqwq_get_cqe(struct mlx5_cqwq *cq)
{
	struct mlx5_cqe64 *cqe = cq->wqb.buf + ((size_t)(cq->cc & cq->sz_m1) << 6);
	u8 sw_owner = (cq->cc >> cq->log_sz) & 1;
	u8 op_own = READ_ONCE(cqe->op_own);

	if ((op_own & MLX5_CQE_OWNER_BIT) != sw_owner ||
	    (op_own >> 4) == MLX5_CQE_OPCODE_INVALID)
		return NULL;
	/* Read the rest of the CQE only after the ownership check. */
	dma_rmb();
	return cqe;
}

static inline void mlx5_cqwq_pop(struct mlx5_cqwq *cq)
{
	cq->cc++;
}

/* Tell the device how far software consumed the ring. */
static inline void mlx5_cqwq_update_db(struct mlx5_cqwq *cq)
{
	*cq->wqb.db = cpu_to_be32(cq->cc & 0xffffff);
}

#endif /* __MLX5_LIB_WQ_H__ */
