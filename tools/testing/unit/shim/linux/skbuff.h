/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the skb layout constants of an x86-64 Debian 6.12
 * kernel (64-byte cache lines, NET_IP_ALIGN 0, MAX_SKB_FRAGS 17: a
 * 320-byte struct skb_shared_info).
 */
#ifndef UNIT_SHIM_LINUX_SKBUFF_H
#define UNIT_SHIM_LINUX_SKBUFF_H
#include <stdio.h>
#include <linux/math.h>
#include <linux/types.h>

#define SMP_CACHE_BYTES		64
#define NET_SKB_PAD		64
#define NET_IP_ALIGN		0
#define SKB_DATA_ALIGN(x)	ALIGN(x, SMP_CACHE_BYTES)

struct skb_shared_info {
	unsigned char bytes[320];
};

#define scnprintf(buf, size, ...) \
	({ int __n = snprintf(buf, size, __VA_ARGS__); \
	   __n < 0 ? 0 : (__n >= (int)(size) ? (int)(size) - 1 : __n); })
#endif
