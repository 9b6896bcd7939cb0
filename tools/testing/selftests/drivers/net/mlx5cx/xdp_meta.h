/* SPDX-License-Identifier: GPL-2.0 */
/* What xdp_meta_prog.c records of a frame, xdp_meta_load.c prints. */
#ifndef XDP_META_H
#define XDP_META_H

#include <linux/types.h>

#define XDP_META_PORT	9000	/* UDP destination port of the frames */
#define XDP_META_RING	256	/* slots: the last so many frames */

struct xdp_meta_rec {
	__u64 seq;		/* the frame's number, from 0 */
	__u64 ts;		/* bpf_xdp_metadata_rx_timestamp() */
	__u32 hash;		/* bpf_xdp_metadata_rx_hash() */
	__u32 hash_type;	/* enum xdp_rss_hash_type */
	__s32 hash_err;		/* what each kfunc returned */
	__s32 ts_err;
	__s32 vlan_err;
	__u32 len;		/* bpf_xdp_get_buff_len() */
	__u32 linear;		/* bytes of its linear part */
	__u16 vlan_proto;	/* bpf_xdp_metadata_rx_vlan_tag(), host order */
	__u16 vlan_tci;
	__u16 frame_tci;	/* a tag left in the frame, else 0 */
	__u16 sport;
	__u16 dport;
	__u16 pad;
};

#endif
