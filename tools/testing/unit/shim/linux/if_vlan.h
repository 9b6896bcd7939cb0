/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: the VLAN tag size. */
#ifndef UNIT_SHIM_LINUX_IF_VLAN_H
#define UNIT_SHIM_LINUX_IF_VLAN_H
#define VLAN_HLEN	4
#endif
