// SPDX-License-Identifier: GPL-2.0
/*
 * A device-bound XDP program for xdp_meta.sh: for every IPv4 UDP frame
 * to port XDP_META_PORT (802.1Q-tagged or not) it calls the XDP metadata
 * kfuncs (bpf_xdp_metadata_rx_hash, _rx_timestamp, _rx_vlan_tag) and
 * stores what they returned, with the frame's ports, lengths and tag, in
 * the next slot of a ring the loader (xdp_meta_load.c) prints; then
 * XDP_PASS. Built by the Makefile (TEST_GEN_FILES): clang -target bpf -g
 * [-DFRAGS] (an xdp.frags program, for multi-buffer frames).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "xdp_meta.h"

/* As the kernel's (include/net/xdp.h): the kfunc's argument type. */
enum xdp_rss_hash_type {
	XDP_RSS_TYPE_NONE = 0,
};

extern int bpf_xdp_metadata_rx_hash(const struct xdp_md *ctx, __u32 *hash,
				    enum xdp_rss_hash_type *rss_type) __ksym;
extern int bpf_xdp_metadata_rx_timestamp(const struct xdp_md *ctx,
					 __u64 *timestamp) __ksym;
extern int bpf_xdp_metadata_rx_vlan_tag(const struct xdp_md *ctx,
					__be16 *vlan_proto,
					__u16 *vlan_tci) __ksym;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, XDP_META_RING);
	__type(key, __u32);
	__type(value, struct xdp_meta_rec);
} recs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} count SEC(".maps");

#ifdef FRAGS
SEC("xdp.frags")
#else
SEC("xdp")
#endif
int xdp_meta(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	enum xdp_rss_hash_type type = 0;
	struct xdp_meta_rec *r;
	__u8 eth[ETH_HLEN + 4];
	__u16 proto, tag = 0;
	__u32 key = 0, l3 = ETH_HLEN;
	struct {
		struct iphdr ip;
		struct udphdr udp;
	} h;
	__u64 *n, i;
	__be16 vp = 0;

	/* The headers may be in a fragment (a multi-buffer frame's linear
	 * part holds what the driver put there, maybe nothing): copied.
	 */
	if (bpf_xdp_load_bytes(ctx, 0, eth, sizeof(eth)))
		return XDP_PASS;
	proto = eth[12] << 8 | eth[13];
	if (proto == ETH_P_8021Q) {
		tag = eth[14] << 8 | eth[15];
		proto = eth[16] << 8 | eth[17];
		l3 += 4;
	}
	if (proto != ETH_P_IP || bpf_xdp_load_bytes(ctx, l3, &h, sizeof(h)) ||
	    h.ip.ihl != 5 || h.ip.protocol != IPPROTO_UDP ||
	    h.udp.dest != bpf_htons(XDP_META_PORT))
		return XDP_PASS;

	n = bpf_map_lookup_elem(&count, &key);
	if (!n)
		return XDP_PASS;
	i = __sync_fetch_and_add(n, 1);
	key = i % XDP_META_RING;
	r = bpf_map_lookup_elem(&recs, &key);
	if (!r)
		return XDP_PASS;
	r->seq = i;
	r->sport = bpf_ntohs(h.udp.source);
	r->dport = bpf_ntohs(h.udp.dest);
	r->len = bpf_xdp_get_buff_len(ctx);
	r->linear = end - data;
	r->frame_tci = tag;
	r->hash = 0;
	r->hash_err = bpf_xdp_metadata_rx_hash(ctx, &r->hash, &type);
	r->hash_type = type;
	r->ts = 0;
	r->ts_err = bpf_xdp_metadata_rx_timestamp(ctx, &r->ts);
	r->vlan_tci = 0;
	r->vlan_err = bpf_xdp_metadata_rx_vlan_tag(ctx, &vp, &r->vlan_tci);
	r->vlan_proto = bpf_ntohs(vp);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
