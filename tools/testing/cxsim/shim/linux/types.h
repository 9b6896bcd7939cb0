/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim userspace shim: the kernel-internal part of <linux/types.h>.
 *
 * The mlx5 headers (<linux/mlx5/device.h>, <linux/mlx5/mlx5_ifc.h>) are
 * kernel headers.  This directory shadows the few kernel headers they pull
 * in so that the layouts can be used, unmodified, from userspace and QEMU.
 * The UAPI part (__u32, __be32, ...) comes from the system's header.
 */
#ifndef CXSIM_SHIM_LINUX_TYPES_H
#define CXSIM_SHIM_LINUX_TYPES_H

#include_next <linux/types.h>
#include <linux/stddef.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <endian.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cxsim shim: only little-endian hosts are supported"
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef BIT
#define BIT(nr)		(1UL << (nr))
#endif
#ifndef BIT_ULL
#define BIT_ULL(nr)	(1ULL << (nr))
#endif
#ifndef __packed
#define __packed	__attribute__((__packed__))
#endif
#ifndef __aligned
#define __aligned(x)	__attribute__((__aligned__(x)))
#endif
#ifndef __always_unused
#define __always_unused	__attribute__((__unused__))
#endif

#define cpu_to_be16(x)	((__be16)__builtin_bswap16(x))
#define cpu_to_be32(x)	((__be32)__builtin_bswap32(x))
#define cpu_to_be64(x)	((__be64)__builtin_bswap64(x))
#define be16_to_cpu(x)	((u16)__builtin_bswap16((u16)(x)))
#define be32_to_cpu(x)	((u32)__builtin_bswap32((u32)(x)))
#define be64_to_cpu(x)	((u64)__builtin_bswap64((u64)(x)))

#ifndef GENMASK
#define GENMASK(h, l)	(((~0UL) << (l)) & (~0UL >> (63 - (h))))
#endif
#ifndef GENMASK_ULL
#define GENMASK_ULL(h, l) (((~0ULL) << (l)) & (~0ULL >> (63 - (h))))
#endif
#ifndef DECLARE_FLEX_ARRAY
#define DECLARE_FLEX_ARRAY(TYPE, NAME)	__DECLARE_FLEX_ARRAY(TYPE, NAME)
#endif

/*
 * The guest kernel's page size, which device.h folds into a few UAR
 * constants.  x86-64 guests use 4 KiB pages.
 */
#ifndef PAGE_SHIFT
#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#endif

#ifndef BUILD_BUG_ON
#define BUILD_BUG_ON(cond)	((void)sizeof(char[1 - 2 * !!(cond)]))
#endif

#endif /* CXSIM_SHIM_LINUX_TYPES_H */
