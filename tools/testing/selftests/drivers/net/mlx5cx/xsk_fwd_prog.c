// SPDX-License-Identifier: GPL-2.0
/*
 * xsk_fwd.sh's XDP program: frames of the test's EtherType (0x88b5, local
 * experimental) go to the AF_XDP socket bound to their queue, if there is
 * one (else they are dropped); every other frame to the stack. Loaded and
 * swapped by xsk_fwd.c, each copy of it on the same XSKMAP. With -DXSK_ALL
 * (xsk_fwd_all.bpf.o, the benchmark's) every frame goes to the socket.
 * With -DXSK_TX (xsk_fwd_tx.bpf.o) the program sends every eighth frame of
 * the test's back itself, its addresses swapped as the forwarder swaps
 * them (XDP_TX): those whose number (xsk_fwd_gen.py: the first 4 bytes
 * after the Ethernet header, big endian) is 7 modulo 8.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define XSK_FWD_ETHERTYPE	0x88b5

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u32);
} xsks SEC(".maps");

SEC("xdp")
int xsk_fwd(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = (void *)(long)ctx->data;

#ifndef XSK_ALL
	if ((void *)(eth + 1) > data_end ||
	    eth->h_proto != bpf_htons(XSK_FWD_ETHERTYPE))
		return XDP_PASS;
#endif
#ifdef XSK_TX
	{
		__u8 *num = (void *)(eth + 1), mac[ETH_ALEN];

		if ((void *)(num + 4) > data_end)
			return XDP_DROP;
		if ((num[3] & 7) == 7) {
			__builtin_memcpy(mac, eth->h_dest, ETH_ALEN);
			__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
			__builtin_memcpy(eth->h_source, mac, ETH_ALEN);
			return XDP_TX;
		}
	}
#endif
	return bpf_redirect_map(&xsks, ctx->rx_queue_index, XDP_DROP);
}

char _license[] SEC("license") = "GPL";
