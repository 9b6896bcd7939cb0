// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target over the command interface: the core behind a fake
 * host whose guest memory is built from the input.
 *
 * Input: byte 0 picks the mode.
 *   mode & 1: "driver" mode.  The rest is a list of commands, each
 *     [inlen:2 BE][outlen:2 BE][inlen bytes]; the harness builds the
 *     entry and the mailbox chains (1 KiB aligned, block numbers, token)
 *     the way mlx5 does, rings the doorbell of entry 0, and then moves
 *     the clock and runs the core's timer (delayed completions).
 *   otherwise: "raw" mode.  The bytes after the first 3 are copied over
 *     the command queue page and the mailbox area as they are; bytes 1-2
 *     give the doorbell vector, rung twice.
 * Either way the test port and BAR0 outside the init segment see a few
 * accesses too.
 *
 *	make -C tools/testing/cxsim fuzz FUZZ_TARGETS=fuzz_cmd
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cx_kshim.h"
#include "cx_core.h"

#define MEM_SIZE	(1 << 20)
#define CMDQ		0x1000ULL
#define MBOX		0x10000ULL
#define ISEG(f)		offsetof(struct mlx5_init_seg, f)

static uint8_t mem[MEM_SIZE];
static uint64_t now_ns;
static struct cx_core core;

static int h_rd(void *o, uint64_t addr, void *buf, size_t len)
{
	(void)o;
	if (addr > MEM_SIZE || len > MEM_SIZE - addr)
		return -1;
	memcpy(buf, mem + addr, len);
	return 0;
}

static int h_wr(void *o, uint64_t addr, const void *buf, size_t len)
{
	(void)o;
	if (addr > MEM_SIZE || len > MEM_SIZE - addr)
		return -1;
	memcpy(mem + addr, buf, len);
	return 0;
}

static void h_msix(void *o, unsigned int v) { (void)o; (void)v; }
static void h_send(void *o, unsigned int port, const void *b, size_t l)
{
	(void)o; (void)port; (void)b; (void)l;
}
static uint64_t h_now(void *o) { (void)o; return now_ns; }
static void h_timer(void *o, uint64_t d) { (void)o; (void)d; }
static void h_log(void *o, const char *fmt, ...)
{
	(void)o;
	(void)fmt;
}

static void wr32be(uint64_t off, uint32_t v)
{
	cx_core_bar0_write(&core, off, __builtin_bswap32(v), 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	uint64_t be = __builtin_bswap64(v);

	memcpy(p, &be, 8);
}

/* A mailbox chain of @len bytes (from @src, or zeros) at @*next. */
static uint64_t chain(const uint8_t *src, size_t len, uint8_t token,
		      uint64_t *next)
{
	uint64_t first = 0, prev = 0;
	uint32_t n = 0;

	while (len && *next + 1024 <= MEM_SIZE) {
		struct mlx5_cmd_prot_block *b = (void *)(mem + *next);
		size_t c = len < 512 ? len : 512;

		memset(b, 0, sizeof(*b));
		if (src) {
			memcpy(b->data, src, c);
			src += c;
		}
		b->block_num = __builtin_bswap32(n++);
		b->token = token;
		if (prev)
			put64(mem + prev + offsetof(struct mlx5_cmd_prot_block,
						    next), *next);
		else
			first = *next;
		prev = *next;
		*next += 1024;
		len -= c;
	}
	return first;
}

static void driver_mode(const uint8_t *d, size_t n)
{
	uint8_t token = 0;
	int cmds = 0;

	while (n >= 4 && cmds++ < 16) {
		size_t inlen = (size_t)d[0] << 8 | d[1];
		size_t outlen = (size_t)d[2] << 8 | d[3];
		struct mlx5_cmd_layout *e = (void *)(mem + CMDQ);
		uint64_t next = MBOX;

		d += 4;
		n -= 4;
		if (inlen > n)
			inlen = n;
		token++;
		memset(e, 0, sizeof(*e));
		e->type = 7;
		e->inlen = __builtin_bswap32((uint32_t)inlen);
		e->outlen = __builtin_bswap32((uint32_t)outlen);
		e->token = token;
		memcpy(e->in, d, inlen < 16 ? inlen : 16);
		if (inlen > 16)
			put64((uint8_t *)&e->in_ptr,
			      chain(d + 16, inlen - 16, token, &next));
		if (outlen > 16)
			put64((uint8_t *)&e->out_ptr,
			      chain(NULL, outlen - 16, token, &next));
		e->status_own = 1;
		d += inlen;
		n -= inlen;
		wr32be(ISEG(cmd_dbell), 1);
		now_ns += 2000000000ULL;
		cx_core_timer(&core);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cx_host host = {
		.dma_read = h_rd, .dma_write = h_wr, .msix_notify = h_msix,
		.send_frame = h_send, .now_ns = h_now, .timer_mod = h_timer,
		.log = h_log,
	};
	struct cx_params params;
	char rep[256];

	if (size < 3)
		return 0;
	memset(mem, 0, 0x10000 + 0x40000);
	now_ns = 1000000000ULL;
	cx_core_default_params(&params);
	cx_core_init(&core, &host, &params);
	now_ns += 1000000000ULL;
	wr32be(ISEG(cmdq_addr_h), 0);
	wr32be(ISEG(cmdq_addr_l_sz), (uint32_t)CMDQ);
	now_ns += 20000000ULL;	/* initializing after the address write */
	if (data[0] & 1) {
		driver_mode(data + 1, size - 1);
	} else {
		size_t n = size - 3;

		if (n > 0x1000)
			memcpy(mem + MBOX, data + 3 + 0x1000,
			       n - 0x1000 > 0x40000 ? 0x40000 : n - 0x1000);
		memcpy(mem + CMDQ, data + 3, n < 0x1000 ? n : 0x1000);
		wr32be(ISEG(cmd_dbell), (uint32_t)data[1] << 8 | data[2]);
		now_ns += 2000000000ULL;
		cx_core_timer(&core);
		wr32be(ISEG(cmd_dbell), (uint32_t)data[2] << 8 | data[1]);
		cx_core_timer(&core);
	}
	/* a few other accesses */
	cx_core_bar0_write(&core, 0x1000 + (data[0] & 0xf8) * 8, 0x12345678, 4);
	cx_core_testport_write(&core, CX_TP_SNAPSHOT, 1, 4);
	(void)cx_core_testport_read(&core, CX_TP_REPORT, 8);
	cx_core_report(&core, rep, sizeof(rep));
	cx_core_reset(&core);
	cx_core_fini(&core);
	return 0;
}
