/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cxsim userspace shim: refcount_t lives in the driver.h stand-in. */
#ifndef CXSIM_SHIM_LINUX_REFCOUNT_H
#define CXSIM_SHIM_LINUX_REFCOUNT_H
#include <linux/mlx5/driver.h>
#endif
