/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim: the kernel's mlx5 layouts, usable from userspace.
 *
 * Include this instead of <linux/mlx5/device.h>.  Build with
 *	-I<cxsim>/shim -idirafter <linux-headers-common>/include
 * (or with a directory holding copies of linux/mlx5/{device,mlx5_ifc,
 * mlx5_ifc_fpga}.h in place of the second).  Nothing here re-types a
 * layout: the structs and field positions are the kernel's own.
 */
#ifndef CX_KSHIM_H
#define CX_KSHIM_H

#include <linux/types.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <linux/mlx5/device.h>
#include <linux/mlx5/mlx5_ifc.h>
#pragma GCC diagnostic pop

#endif /* CX_KSHIM_H */
