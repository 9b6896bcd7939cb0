/* SPDX-License-Identifier: GPL-2.0 */
#ifndef UNIT_SHIM_LINUX_MATH_H
#define UNIT_SHIM_LINUX_MATH_H
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ALIGN(x, a)		(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#endif
