/* SPDX-License-Identifier: GPL-2.0 */
#ifndef UNIT_SHIM_LINUX_MINMAX_H
#define UNIT_SHIM_LINUX_MINMAX_H
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#endif
