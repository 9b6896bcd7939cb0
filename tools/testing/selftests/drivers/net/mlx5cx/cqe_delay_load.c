// SPDX-License-Identifier: GPL-2.0
/*
 * Load cqe_delay_prog.c's object, attach its "delay" program to the kprobe
 * of FUNC and its "poll" program to that of POLL ("-": none), both acting
 * on CPU only, and with XMIT its "xmit" program to that of XMIT (the
 * delay is then paced: the next xmit or DELAY_NS, whichever comes first);
 * say "attached" and wait for SIGTERM or SIGINT; then detach and print
 * what the programs counted, one "name value" line each.
 *
 * Usage: cqe_delay_load OBJECT FUNC POLL CPU DELAY_NS RING [XMIT]
 * Built by the Makefile (TEST_GEN_FILES), against libbpf.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cqe_delay.h"

static struct bpf_link *attach(struct bpf_object *obj, const char *prog,
			       const char *func)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, prog);
	struct bpf_link *link;

	if (!p) {
		fprintf(stderr, "no program %s\n", prog);
		return NULL;
	}
	link = bpf_program__attach_kprobe(p, false, func);
	if (!link)
		fprintf(stderr, "kprobe %s: %s\n", func, strerror(errno));
	return link;
}

int main(int argc, char **argv)
{
	struct cqe_delay_state st = {};
	struct bpf_link *delay, *poll = NULL, *xmit = NULL;
	struct bpf_object *obj;
	__u32 key = 0;
	int fd, err, sig;
	sigset_t set;

	if (argc != 7 && argc != 8) {
		fprintf(stderr,
			"usage: %s OBJECT FUNC POLL CPU DELAY_NS RING [XMIT]\n",
			argv[0]);
		return 2;
	}
	st.cpu = strtoul(argv[4], NULL, 0);
	st.delay_ns = strtoull(argv[5], NULL, 0);
	st.ring = strtoul(argv[6], NULL, 0);
	st.paced = argc == 8;

	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		perror(argv[1]);
		return 1;
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "load: %s\n", strerror(-err));
		return 1;
	}
	fd = bpf_map__fd(bpf_object__find_map_by_name(obj, "state"));
	if (bpf_map_update_elem(fd, &key, &st, BPF_ANY)) {
		perror("state");
		return 1;
	}
	/* Taken by sigwait() only, once attached. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (st.paced) {
		xmit = attach(obj, "xmit", argv[7]);
		if (!xmit)
			return 1;
	}
	if (strcmp(argv[3], "-")) {
		poll = attach(obj, "poll", argv[3]);
		if (!poll)
			return 1;
	}
	delay = attach(obj, "delay", argv[2]);
	if (!delay)
		return 1;
	printf("attached\n");
	fflush(stdout);
	sigwait(&set, &sig);

	bpf_link__destroy(delay);
	bpf_link__destroy(poll);
	bpf_link__destroy(xmit);
	if (bpf_map_lookup_elem(fd, &key, &st)) {
		perror("state");
		return 1;
	}
	printf("calls %llu\nspun_us %llu\npolls %llu\nmax_in_poll %llu\n"
	       "long_polls %llu\nxmits %llu\ntimeouts %llu\n",
	       (unsigned long long)st.calls,
	       (unsigned long long)(st.spun_ns / 1000),
	       (unsigned long long)st.polls,
	       (unsigned long long)st.max_in_poll,
	       (unsigned long long)st.long_polls,
	       (unsigned long long)st.xmits,
	       (unsigned long long)st.timeouts);
	bpf_object__close(obj);
	return 0;
}
