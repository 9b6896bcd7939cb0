// SPDX-License-Identifier: GPL-2.0
/*
 * An XDP program returning one action, for xdp.sh where xdp-bench (which
 * keeps its own program attached while it runs) does not fit: swapping
 * programs with ip link, and a frags-aware program for the refusal test.
 * Built by the test: clang -target bpf -DACTION=XDP_PASS [-DFRAGS].
 */
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))

#ifdef FRAGS
SEC("xdp.frags")
#else
SEC("xdp")
#endif
int xdp_prog(struct xdp_md *ctx)
{
	return ACTION;
}

char _license[] SEC("license") = "GPL";
