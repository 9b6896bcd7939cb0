/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: the power-of-two helpers of <linux/log2.h>. */
#ifndef UNIT_SHIM_LINUX_LOG2_H
#define UNIT_SHIM_LINUX_LOG2_H
#include <linux/types.h>

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (64 - __builtin_clzl(n - 1));
}
#endif
