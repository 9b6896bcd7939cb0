/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim userspace shim for <rdma/ib_verbs.h>.
 *
 * <linux/mlx5/device.h> only needs struct ib_grh, as one member of
 * union mlx5_ext_cqe next to a u8[64] that fixes the union's size.  The
 * model never looks inside it, so an opaque 40-byte stand-in is enough and
 * leaves every mlx5 layout unchanged.
 */
#ifndef CXSIM_SHIM_RDMA_IB_VERBS_H
#define CXSIM_SHIM_RDMA_IB_VERBS_H

#include <linux/types.h>

struct ib_grh {
	u8 opaque[40];
};

#endif /* CXSIM_SHIM_RDMA_IB_VERBS_H */
