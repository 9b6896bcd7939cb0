/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: XDP headroom (as <uapi/linux/bpf.h>). */
#ifndef UNIT_SHIM_LINUX_BPF_H
#define UNIT_SHIM_LINUX_BPF_H
#define XDP_PACKET_HEADROOM	256
#endif
