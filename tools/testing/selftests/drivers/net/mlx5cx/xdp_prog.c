// SPDX-License-Identifier: GPL-2.0
/*
 * An XDP program returning one action, for xdp.sh and xdp_mb.sh where
 * xdp-bench (which keeps its own program attached while it runs, and loads
 * no frags-aware one) does not fit: swapping programs with ip link,
 * frags-aware programs for multi-buffer XDP. Built by the Makefile (one
 * object per option set, TEST_GEN_FILES) and, for an ifindex known only at
 * run time, by the test: clang -target bpf -DACTION=XDP_PASS [-DFRAGS]
 * [-DSWAP_MACS [-DREFLECT]] [-DSHRINK=N] [-DREDIRECT_IFINDEX=N]; with
 * SWAP_MACS the Ethernet addresses are swapped first (for XDP_TX; with
 * REFLECT too, an IPv4 UDP frame's addresses and ports, sending it back to
 * its sender), with SHRINK the frame loses its last N bytes
 * (bpf_xdp_adjust_tail(), which frees the fragments it empties), with
 * REDIRECT_IFINDEX every frame goes out of that netdev (bpf_redirect, its
 * ndo_xdp_xmit) instead of ACTION.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>

#define SEC(name) __attribute__((section(name), used))

#ifdef REDIRECT_IFINDEX
static long (*bpf_redirect)(__u32 ifindex, __u64 flags) =
	(void *)BPF_FUNC_redirect;
#endif
#ifdef SHRINK
static long (*bpf_xdp_adjust_tail)(struct xdp_md *ctx, int delta) =
	(void *)BPF_FUNC_xdp_adjust_tail;
#endif

#ifdef FRAGS
SEC("xdp.frags")
#else
SEC("xdp")
#endif
int xdp_prog(struct xdp_md *ctx)
{
#ifdef SWAP_MACS
	unsigned char *p = (void *)(long)ctx->data;
	unsigned char tmp[ETH_ALEN];

	if ((void *)(p + ETH_HLEN) > (void *)(long)ctx->data_end)
		return XDP_DROP;
	__builtin_memcpy(tmp, p, ETH_ALEN);
	__builtin_memcpy(p, p + ETH_ALEN, ETH_ALEN);
	__builtin_memcpy(p + ETH_ALEN, tmp, ETH_ALEN);
#ifdef REFLECT
	{
		/* IPv4 without options, then UDP: addresses and ports
		 * swapped, which leaves both checksums as they are.
		 */
		__u32 a;
		__u16 port;

		if ((void *)(p + ETH_HLEN + 20 + 8) > (void *)(long)ctx->data_end ||
		    p[12] != 0x08 || p[13] != 0x00 || p[14] != 0x45 || p[23] != 17)
			return XDP_PASS;
		__builtin_memcpy(&a, p + 26, 4);
		__builtin_memcpy(p + 26, p + 30, 4);
		__builtin_memcpy(p + 30, &a, 4);
		__builtin_memcpy(&port, p + 34, 2);
		__builtin_memcpy(p + 34, p + 36, 2);
		__builtin_memcpy(p + 36, &port, 2);
	}
#endif
#endif
#ifdef SHRINK
	if (bpf_xdp_adjust_tail(ctx, -(SHRINK)))
		return XDP_ABORTED;
#endif
#ifdef REDIRECT_IFINDEX
	return bpf_redirect(REDIRECT_IFINDEX, 0);
#else
	return ACTION;
#endif
}

char _license[] SEC("license") = "GPL";
