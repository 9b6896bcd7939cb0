/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cxsim userspace shim: <linux/bitfield.h> is not needed by the layouts. */
#ifndef CXSIM_SHIM_LINUX_BITFIELD_H
#define CXSIM_SHIM_LINUX_BITFIELD_H
#endif
