// SPDX-License-Identifier: GPL-2.0
/*
 * Load xdp_meta_prog.c's object bound to a netdev (prog_ifindex and
 * BPF_F_XDP_DEV_BOUND_ONLY: its XDP metadata kfuncs become the driver's
 * xdp_metadata_ops), attach it in native mode, say "attached", and wait
 * for SIGTERM or SIGINT; then print each recorded frame, one line each,
 * oldest first, and detach.
 *
 * Usage: xdp_meta_load IFNAME OBJECT
 * Built by the Makefile (TEST_GEN_FILES): cc -o xdp_meta_load ... -lbpf
 */
#include <errno.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xdp_meta.h"

#ifndef BPF_F_XDP_DEV_BOUND_ONLY
#define BPF_F_XDP_DEV_BOUND_ONLY	(1U << 6)
#endif

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

int main(int argc, char **argv)
{
	struct bpf_program *prog;
	struct bpf_object *obj;
	int ifindex, recs, cnt, err;
	__u64 n, i, first;
	__u32 key = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s IFNAME OBJECT\n", argv[0]);
		return 2;
	}
	ifindex = if_nametoindex(argv[1]);
	if (!ifindex) {
		perror(argv[1]);
		return 1;
	}
	obj = bpf_object__open_file(argv[2], NULL);
	if (!obj) {
		perror(argv[2]);
		return 1;
	}
	prog = bpf_object__next_program(obj, NULL);
	if (!prog) {
		fprintf(stderr, "%s: no program\n", argv[2]);
		return 1;
	}
	bpf_program__set_ifindex(prog, ifindex);
	bpf_program__set_flags(prog, bpf_program__flags(prog) |
				     BPF_F_XDP_DEV_BOUND_ONLY);
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "load: %s\n", strerror(-err));
		return 1;
	}
	recs = bpf_map__fd(bpf_object__find_map_by_name(obj, "recs"));
	cnt = bpf_map__fd(bpf_object__find_map_by_name(obj, "count"));
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	err = bpf_xdp_attach(ifindex, bpf_program__fd(prog),
			     XDP_FLAGS_DRV_MODE, NULL);
	if (err) {
		fprintf(stderr, "attach: %s\n", strerror(-err));
		return 1;
	}
	printf("attached\n");
	fflush(stdout);
	while (!stop)
		pause();

	err = 0;
	if (bpf_map_lookup_elem(cnt, &key, &n)) {
		perror("count");
		err = 1;
		n = 0;
	}
	printf("frames %llu\n", (unsigned long long)n);
	first = n > XDP_META_RING ? n - XDP_META_RING : 0;
	for (i = first; i < n; i++) {
		struct xdp_meta_rec r;

		key = i % XDP_META_RING;
		if (bpf_map_lookup_elem(recs, &key, &r)) {
			perror("recs");
			err = 1;
			break;
		}
		printf("seq %llu sport %u dport %u len %u linear %u hash_err %d hash 0x%08x hash_type 0x%x ts_err %d ts %llu vlan_err %d vlan_proto 0x%04x vlan_tci %u frame_tci %u\n",
		       (unsigned long long)r.seq, r.sport, r.dport, r.len,
		       r.linear, r.hash_err, r.hash, r.hash_type, r.ts_err,
		       (unsigned long long)r.ts, r.vlan_err, r.vlan_proto,
		       r.vlan_tci, r.frame_tci);
	}
	if (bpf_xdp_detach(ifindex, XDP_FLAGS_DRV_MODE, NULL)) {
		perror("detach");
		err = 1;
	}
	return err;
}
