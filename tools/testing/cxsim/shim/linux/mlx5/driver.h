/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim userspace shim for <linux/mlx5/driver.h>.
 *
 * <linux/mlx5/qp.h> and <linux/mlx5/cq.h> hold the send WQE segments and
 * the CQE opcodes/syndromes the data path needs, but they include the
 * driver's header and carry a few static inline helpers for the driver.
 * This stands in for driver.h with just enough declarations for those
 * helpers to compile; the model never calls them.  No layout the device
 * sees is defined here.
 */
#ifndef CXSIM_SHIM_LINUX_MLX5_DRIVER_H
#define CXSIM_SHIM_LINUX_MLX5_DRIVER_H

#include <linux/types.h>
#include <linux/mlx5/device.h>
#include <rdma/ib_verbs.h>

#ifndef container_of
#define container_of(ptr, type, member)					\
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif
#ifndef __iomem
#define __iomem
#endif
#ifndef wmb
#define wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#endif
#ifndef struct_group
#define struct_group(NAME, MEMBERS...)	__struct_group(, NAME, , MEMBERS)
#endif
#define KERN_WARNING	""
#define DUMP_PREFIX_OFFSET	1

typedef struct { int refs; } refcount_t;
struct completion { int done; };
struct list_head { struct list_head *next, *prev; };
struct ib_ah { void *opaque; };
struct mlx5_rsc_debug;
struct mlx5_eq_comp;

struct mlx5_core_rsc_common {
	int res;
	refcount_t refcount;
	struct completion free;
};

struct mlx5_hca_cap {
	u32 cur[MLX5_UN_SZ_DW(hca_cap_union)];
	u32 max[MLX5_UN_SZ_DW(hca_cap_union)];
};

struct mlx5_core_dev {
	struct {
		struct mlx5_hca_cap *hca[MLX5_CAP_NUM];
	} caps;
};

static inline bool mlx5_get_roce_state(struct mlx5_core_dev *dev)
{
	return MLX5_CAP_GEN(dev, roce);
}

static inline void refcount_inc(refcount_t *r) { r->refs++; }
static inline bool refcount_dec_and_test(refcount_t *r)
{
	return --r->refs == 0;
}
static inline void complete(struct completion *c) { c->done = 1; }
/* Drops its second argument unexpanded (a doorbell.h constant). */
#define mlx5_write64(val, dest)	((void)(val))
static inline void print_hex_dump(const char *level, const char *prefix,
				  int type, int rowsize, int groupsize,
				  const void *buf, size_t len, bool ascii)
{
	(void)level; (void)prefix; (void)type; (void)rowsize;
	(void)groupsize; (void)buf; (void)len; (void)ascii;
}

#endif /* CXSIM_SHIM_LINUX_MLX5_DRIVER_H */
