// SPDX-License-Identifier: GPL-2.0
/*
 * An AF_XDP zero-copy forwarder for xsk_fwd.sh:
 *
 *	xsk_fwd [-c] [-d] [-e] [-f FRAME] IFNAME QUEUE PROG.bpf.o
 *
 * attaches PROG (xsk_fwd_prog.c) in native mode, binds one socket with
 * XDP_ZEROCOPY (-c: XDP_COPY) and need_wakeup to queue QUEUE, and sends
 * every frame it receives back out of the same queue from the same UMEM
 * frame, its Ethernet addresses swapped: no copy anywhere. With -d it
 * drops them instead (their frames straight back to the fill ring): the
 * benchmark's receiver (tools/testing/bench/xsk-zc.sh). The UMEM has
 * 4096 frames of FRAME bytes (2048, or 4096 with -f 4096). With -e it
 * first sends two descriptors in one go: a 60-byte frame to a MAC address
 * no port has, then a whole UMEM frame, longer than the port's MTU, which
 * the device cannot send (the driver completes it unsent, counting it in
 * tx_xsk_err). SIGUSR1 swaps the program for a fresh copy of it on the
 * same XSKMAP (XDP_FLAGS_REPLACE, no moment without a program); SIGTERM
 * ends the run. At the end it waits up to 2 s for the device to complete
 * what was sent, then prints what it
 * did and the socket's XDP_STATISTICS, one "key value" per line:
 *
 *	rx, tx, completed (frames), outstanding (sent, never completed),
 *	swaps, rx_dropped, rx_invalid_descs, tx_invalid_descs, rx_ring_full,
 *	rx_fill_ring_empty_descs, tx_ring_empty_descs
 *
 * Exit status 0, or 1 with the reason on stderr.
 */
#include <errno.h>
#include <stdbool.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/xsk.h>

#define NUM_FRAMES	4096
#define RING_SIZE	2048
#define BATCH		64

static volatile sig_atomic_t stop, swap;
static bool drop, bad;
static unsigned int frame_size = 2048;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		swap = 1;
	else
		stop = 1;
}

struct fwd {
	struct xsk_ring_prod fq, tx;
	struct xsk_ring_cons cq, rx;
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	void *area;
	__u64 free[NUM_FRAMES];
	unsigned int nfree;
	unsigned long rx_frames, tx_frames, completed, swaps;
	struct bpf_object *obj;
	int ifindex, prog_fd, map_fd;
};

static int die(const char *what, int err)
{
	fprintf(stderr, "xsk_fwd: %s: %s\n", what, strerror(err < 0 ? -err : err));
	return 1;
}

/*
 * Load a copy of the program; with a map already there (a swap), the copy
 * uses it: the socket stays in it.
 */
static struct bpf_object *load_prog(const char *path, int map_fd, int *prog_fd,
				    int *new_map_fd)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *prog;
	struct bpf_map *map;

	if (!obj)
		return NULL;
	map = bpf_object__find_map_by_name(obj, "xsks");
	if (!map || (map_fd >= 0 && bpf_map__reuse_fd(map, map_fd)) ||
	    bpf_object__load(obj)) {
		bpf_object__close(obj);
		return NULL;
	}
	prog = bpf_object__find_program_by_name(obj, "xsk_fwd");
	*prog_fd = bpf_program__fd(prog);
	*new_map_fd = bpf_map__fd(map);
	return obj;
}

static int swap_prog(struct fwd *f, const char *path)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, opts, .old_prog_fd = f->prog_fd);
	struct bpf_object *obj;
	int fd, map_fd, err;

	obj = load_prog(path, f->map_fd, &fd, &map_fd);
	if (!obj)
		return -EINVAL;
	err = bpf_xdp_attach(f->ifindex, fd,
			     XDP_FLAGS_DRV_MODE | XDP_FLAGS_REPLACE, &opts);
	if (err) {
		bpf_object__close(obj);
		return err;
	}
	/* The map lives on in the new object, its fd with it. */
	bpf_object__close(f->obj);
	f->obj = obj;
	f->prog_fd = fd;
	f->map_fd = map_fd;
	f->swaps++;
	return 0;
}

/* Free frames into the fill ring, as many as it takes. */
static void refill(struct fwd *f)
{
	unsigned int n = f->nfree, i;
	__u32 idx;

	/* Reserving takes all it is asked or nothing. */
	if (n > xsk_prod_nb_free(&f->fq, n))
		n = xsk_prod_nb_free(&f->fq, n);
	if (!n)
		return;
	n = xsk_ring_prod__reserve(&f->fq, n, &idx);
	for (i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(&f->fq, idx + i) = f->free[--f->nfree];
	xsk_ring_prod__submit(&f->fq, n);
}

static void complete(struct fwd *f)
{
	unsigned int n, i;
	__u32 idx;

	n = xsk_ring_cons__peek(&f->cq, RING_SIZE, &idx);
	for (i = 0; i < n; i++)
		f->free[f->nfree++] = *xsk_ring_cons__comp_addr(&f->cq, idx + i);
	xsk_ring_cons__release(&f->cq, n);
	f->completed += n;
}

static void kick_tx(struct fwd *f)
{
	if (xsk_ring_prod__needs_wakeup(&f->tx))
		sendto(xsk_socket__fd(f->xsk), NULL, 0, MSG_DONTWAIT, NULL, 0);
}

/* Received frames sent back, their addresses swapped. */
static void forward(struct fwd *f)
{
	__u32 idx_rx, idx_tx;
	unsigned int n, i;

	n = xsk_ring_cons__peek(&f->rx, BATCH, &idx_rx);
	if (!n)
		return;
	if (drop) {
		for (i = 0; i < n; i++)
			f->free[f->nfree++] =
				xsk_ring_cons__rx_desc(&f->rx, idx_rx + i)->addr;
		xsk_ring_cons__release(&f->rx, n);
		f->rx_frames += n;
		return;
	}
	while (xsk_ring_prod__reserve(&f->tx, n, &idx_tx) != n) {
		complete(f);
		kick_tx(f);
		if (stop)
			return;
	}
	for (i = 0; i < n; i++) {
		const struct xdp_desc *rd = xsk_ring_cons__rx_desc(&f->rx, idx_rx + i);
		struct xdp_desc *td = xsk_ring_prod__tx_desc(&f->tx, idx_tx + i);
		unsigned char *p = xsk_umem__get_data(f->area, rd->addr), t[6];

		memcpy(t, p, 6);
		memcpy(p, p + 6, 6);
		memcpy(p + 6, t, 6);
		td->addr = rd->addr;
		td->len = rd->len;
		td->options = 0;
	}
	xsk_ring_prod__submit(&f->tx, n);
	xsk_ring_cons__release(&f->rx, n);
	f->rx_frames += n;
	f->tx_frames += n;
	kick_tx(f);
}

/* A good descriptor, then one longer than the MTU, taken in one poll. */
static void send_bad(struct fwd *f)
{
	static const unsigned char dst[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	__u64 good = f->free[--f->nfree], big = f->free[--f->nfree];
	unsigned char *p = xsk_umem__get_data(f->area, good);
	struct xdp_desc *d;
	__u32 idx = 0;

	memset(p, 0, 60);
	memcpy(p, dst, sizeof(dst));
	memcpy(xsk_umem__get_data(f->area, big), p, 60);
	/* The ring is empty: it takes them. */
	xsk_ring_prod__reserve(&f->tx, 2, &idx);
	d = xsk_ring_prod__tx_desc(&f->tx, idx);
	d->addr = good;
	d->len = 60;
	d->options = 0;
	d = xsk_ring_prod__tx_desc(&f->tx, idx + 1);
	d->addr = big;
	d->len = frame_size;
	d->options = 0;
	xsk_ring_prod__submit(&f->tx, 2);
	f->tx_frames += 2;
	sendto(xsk_socket__fd(f->xsk), NULL, 0, MSG_DONTWAIT, NULL, 0);
}

static int run(struct fwd *f, const char *path)
{
	struct pollfd pfd = { .fd = xsk_socket__fd(f->xsk), .events = POLLIN };
	struct timespec t0, t;

	while (!stop) {
		if (swap) {
			int err = swap_prog(f, path);

			swap = 0;
			if (err)
				return die("program swap", err);
		}
		complete(f);
		refill(f);
		if (xsk_ring_prod__needs_wakeup(&f->fq))
			poll(&pfd, 1, 10);
		forward(f);
	}
	/* What was sent completes before the socket goes. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		complete(f);
		if (f->completed == f->tx_frames)
			break;
		kick_tx(f);
		usleep(1000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < 2);
	return 0;
}

int main(int argc, char **argv)
{
	struct xsk_umem_config ucfg = {
		.fill_size = RING_SIZE, .comp_size = RING_SIZE,
		.frame_headroom = 0,
	};
	struct xsk_socket_config scfg = {
		.rx_size = RING_SIZE, .tx_size = RING_SIZE,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.xdp_flags = XDP_FLAGS_DRV_MODE,
		.bind_flags = XDP_ZEROCOPY | XDP_USE_NEED_WAKEUP,
	};
	struct xdp_statistics st = {};
	socklen_t len = sizeof(st);
	static struct fwd f;
	int queue, err, i, opt;

	while ((opt = getopt(argc, argv, "cdef:")) != -1) {
		if (opt == 'e')
			bad = true;
		else if (opt == 'c')
			scfg.bind_flags = XDP_COPY | XDP_USE_NEED_WAKEUP;
		else if (opt == 'd')
			drop = true;
		else if (opt == 'f' && (atoi(optarg) == 2048 || atoi(optarg) == 4096))
			frame_size = atoi(optarg);
		else
			return 2;
	}
	argv += optind - 1;
	argc -= optind - 1;
	if (argc != 4) {
		fprintf(stderr, "usage: xsk_fwd [-c] [-d] [-e] [-f 2048|4096] IFNAME QUEUE PROG.bpf.o\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	f.ifindex = if_nametoindex(argv[1]);
	if (!f.ifindex)
		return die(argv[1], errno);
	queue = atoi(argv[2]);
	f.obj = load_prog(argv[3], -1, &f.prog_fd, &f.map_fd);
	if (!f.obj)
		return die("loading the program", EINVAL);
	err = bpf_xdp_attach(f.ifindex, f.prog_fd, XDP_FLAGS_DRV_MODE, NULL);
	if (err)
		return die("attaching the program", err);

	ucfg.frame_size = frame_size;
	f.area = mmap(NULL, (size_t)NUM_FRAMES * frame_size,
		      PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (f.area == MAP_FAILED)
		return die("mmap", errno);
	err = xsk_umem__create(&f.umem, f.area, (__u64)NUM_FRAMES * frame_size,
			       &f.fq, &f.cq, &ucfg);
	if (err)
		return die("xsk_umem__create", err);
	err = xsk_socket__create(&f.xsk, argv[1], queue, f.umem, &f.rx, &f.tx,
				 &scfg);
	if (err) {
		bpf_xdp_detach(f.ifindex, XDP_FLAGS_DRV_MODE, NULL);
		return die("binding the socket", err);
	}
	err = xsk_socket__update_xskmap(f.xsk, f.map_fd);
	if (err)
		return die("xsk_socket__update_xskmap", err);
	for (i = 0; i < NUM_FRAMES; i++)
		f.free[f.nfree++] = (__u64)i * frame_size;
	signal(SIGUSR1, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (bad)
		send_bad(&f);
	printf("ready\n");

	err = run(&f, argv[3]);
	if (getsockopt(xsk_socket__fd(f.xsk), SOL_XDP, XDP_STATISTICS, &st, &len))
		err = die("XDP_STATISTICS", errno);
	printf("rx %lu\ntx %lu\ncompleted %lu\noutstanding %lu\nswaps %lu\n",
	       f.rx_frames, f.tx_frames, f.completed,
	       f.tx_frames - f.completed, f.swaps);
	printf("rx_dropped %llu\nrx_invalid_descs %llu\ntx_invalid_descs %llu\n"
	       "rx_ring_full %llu\nrx_fill_ring_empty_descs %llu\n"
	       "tx_ring_empty_descs %llu\n",
	       st.rx_dropped, st.rx_invalid_descs, st.tx_invalid_descs,
	       st.rx_ring_full, st.rx_fill_ring_empty_descs,
	       st.tx_ring_empty_descs);
	xsk_socket__delete(f.xsk);
	xsk_umem__delete(f.umem);
	bpf_xdp_detach(f.ifindex, XDP_FLAGS_DRV_MODE, NULL);
	bpf_object__close(f.obj);
	return err;
}
