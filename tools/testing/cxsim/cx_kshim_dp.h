/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim: the kernel's mlx5 data-path layouts (send WQE segments from
 * <linux/mlx5/qp.h>, CQE opcodes and syndromes from <linux/mlx5/cq.h>),
 * usable from userspace through the shim (shim/linux/mlx5/driver.h).
 */
#ifndef CX_KSHIM_DP_H
#define CX_KSHIM_DP_H

#include "cx_kshim.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <linux/mlx5/qp.h>
#include <linux/mlx5/cq.h>
#pragma GCC diagnostic pop

#endif /* CX_KSHIM_DP_H */
