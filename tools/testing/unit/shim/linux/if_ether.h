/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: Ethernet sizes (as <uapi/linux/if_ether.h>). */
#ifndef UNIT_SHIM_LINUX_IF_ETHER_H
#define UNIT_SHIM_LINUX_IF_ETHER_H
#define ETH_HLEN	14
#define ETH_FCS_LEN	4
#define ETH_MIN_MTU	68
#endif
