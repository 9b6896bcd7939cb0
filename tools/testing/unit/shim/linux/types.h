/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: the kernel's integer types. */
#ifndef UNIT_SHIM_LINUX_TYPES_H
#define UNIT_SHIM_LINUX_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
typedef uint16_t __be16;
typedef uint32_t __be32;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
