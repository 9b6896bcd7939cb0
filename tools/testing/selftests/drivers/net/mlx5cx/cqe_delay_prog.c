// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe programs for the completion-order test (tx_cq_ack.sh): "delay"
 * spins at each call of a function a completion poll calls once per
 * completed WQE (napi_consume_skb() for the TX SQ, xdp_return_frame()
 * for the XDP SQ's ndo_xdp_xmit frames), on the one CPU that runs the
 * queue's NAPI, so that the poll keeps finding CQEs while xmit on the
 * other CPU refills the ring: a fixed time, or (paced) until "xmit", on
 * the driver's xmit, counted the next packet, so that the poll frees
 * slots exactly as fast as xmit takes them. "poll" marks the entry of the
 * poll function, to count the WQEs completed in one poll. chswitch.sh
 * has "delay" hold a channel switch once, on the CPU that makes it, just
 * after the send queues left service. Loaded and attached by
 * cqe_delay_load.c; built by the Makefile (TEST_GEN_FILES).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "cqe_delay.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cqe_delay_state);
} state SEC(".maps");

static struct cqe_delay_state *ours(void)
{
	struct cqe_delay_state *s;
	__u32 key = 0;

	s = bpf_map_lookup_elem(&state, &key);
	if (!s || bpf_get_smp_processor_id() != s->cpu)
		return NULL;
	return s;
}

struct wait {
	__u64 end;		/* bpf_ktime_get_ns() to stop at */
	__u64 xmits;		/* paced: stop once past this count */
	struct cqe_delay_state *s;
};

static long spin(__u64 i, void *ctx)
{
	struct wait *w = ctx;

	/* Read afresh each round: the kernel's loop calls this one. */
	if (w->s->paced && w->s->xmits > w->xmits)
		return 1;
	return bpf_ktime_get_ns() >= w->end;
}

SEC("kprobe")
int delay(void *ctx)
{
	struct cqe_delay_state *s = ours();
	struct wait w;
	__u64 t0, t1;

	if (!s)
		return 0;
	t0 = bpf_ktime_get_ns();
	w.end = t0 + s->delay_ns;
	w.xmits = s->xmits;
	w.s = s;
	bpf_loop(1 << 23, spin, &w, 0);
	t1 = bpf_ktime_get_ns();
	s->spun_ns += t1 - t0;
	if (s->paced && t1 >= w.end)
		s->timeouts++;
	s->calls++;
	if (++s->in_poll > s->max_in_poll)
		s->max_in_poll = s->in_poll;
	if (s->in_poll == (__u64)s->ring + 1)
		s->long_polls++;
	return 0;
}

SEC("kprobe")
int poll(void *ctx)
{
	struct cqe_delay_state *s = ours();

	if (!s)
		return 0;
	s->polls++;
	s->in_poll = 0;
	return 0;
}

SEC("kprobe")
int xmit(void *ctx)
{
	struct cqe_delay_state *s;
	__u32 key = 0;

	s = bpf_map_lookup_elem(&state, &key);
	if (s)
		__sync_fetch_and_add(&s->xmits, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
