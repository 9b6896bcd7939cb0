// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the cxsim device core, against a fake host: a flat
 * buffer for guest memory and a clock the test moves by hand.
 * Output is TAP.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cx_kshim.h"
#include "cx_core.h"

#define FAKE_MEM_SIZE	(4 << 20)
#define MS		1000000ULL
#define ISEG(field)	offsetof(struct mlx5_init_seg, field)

struct fake_host {
	uint8_t mem[FAKE_MEM_SIZE];
	uint64_t now;
	unsigned int notifies;
	unsigned int frames;
	unsigned int logs;
	unsigned int vec_notifies[CX_MSIX_VECTORS];
	uint64_t masked_vecs;		/* bit v: vector v masked */
	uint64_t timer_deadline;
	char last_log[256];
};

static struct fake_host fh;
static struct cx_core core;
static unsigned int test_nr;
static int failures;

static int fake_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
	struct fake_host *h = opaque;

	if (addr > FAKE_MEM_SIZE || len > FAKE_MEM_SIZE - addr)
		return -1;
	memcpy(buf, h->mem + addr, len);
	return 0;
}

static int fake_dma_write(void *opaque, uint64_t addr, const void *buf,
			  size_t len)
{
	struct fake_host *h = opaque;

	if (addr > FAKE_MEM_SIZE || len > FAKE_MEM_SIZE - addr)
		return -1;
	memcpy(h->mem + addr, buf, len);
	return 0;
}

static void fake_msix_notify(void *opaque, unsigned int vector)
{
	struct fake_host *h = opaque;

	h->notifies++;
	if (vector < CX_MSIX_VECTORS)
		h->vec_notifies[vector]++;
}

static bool fake_msix_masked(void *opaque, unsigned int vector)
{
	struct fake_host *h = opaque;

	return vector < 64 && (h->masked_vecs >> vector & 1);
}

static void fake_send_frame(void *opaque, unsigned int port, const void *buf,
			    size_t len)
{
	struct fake_host *h = opaque;

	(void)port;
	(void)buf;
	(void)len;
	h->frames++;
}

static uint64_t fake_now_ns(void *opaque)
{
	return ((struct fake_host *)opaque)->now;
}

static void fake_log(void *opaque, const char *fmt, ...)
{
	struct fake_host *h = opaque;

	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->last_log, sizeof(h->last_log), fmt, ap);
	va_end(ap);
	h->logs++;
}

static void fake_timer_mod(void *opaque, uint64_t deadline)
{
	((struct fake_host *)opaque)->timer_deadline = deadline;
}

static void setup(void)
{
	struct cx_host host = {
		.opaque = &fh,
		.dma_read = fake_dma_read,
		.dma_write = fake_dma_write,
		.msix_notify = fake_msix_notify,
		.msix_masked = fake_msix_masked,
		.send_frame = fake_send_frame,
		.now_ns = fake_now_ns,
		.timer_mod = fake_timer_mod,
		.log = fake_log,
	};
	struct cx_params params;

	cx_core_fini(&core);
	memset(&fh, 0, sizeof(fh));
	fh.now = 1000 * MS;
	cx_core_default_params(&params);
	cx_core_init(&core, &host, &params);
}

/* What ioread32be() returns for the register at @off. */
static uint32_t rd32be(uint64_t off)
{
	return __builtin_bswap32((uint32_t)cx_core_bar0_read(&core, off, 4));
}

/* iowrite32be(@val) to the register at @off. */
static void wr32be(uint64_t off, uint32_t val)
{
	cx_core_bar0_write(&core, off, __builtin_bswap32(val), 4);
}

static void ok(int cond, const char *name)
{
	test_nr++;
	printf("%sok %u - %s\n", cond ? "" : "not ", test_nr, name);
	if (!cond)
		failures++;
}

static void test_fw_rev(void)
{
	uint32_t rev, sub;

	setup();
	rev = rd32be(ISEG(fw_rev));
	sub = rd32be(ISEG(cmdif_rev_fw_sub));
	/* Decoded as mlx5's fw_rev_maj/min/sub and cmdif_rev do. */
	ok((rev & 0xffff) == 16, "fw_rev major is 16");
	ok((rev >> 16) == 35, "fw_rev minor is 35");
	ok((sub & 0xffff) == 4030, "fw_rev subminor is 4030");
	ok((sub >> 16) == 5, "cmdif_rev is 5");
}

static void test_initializing(void)
{
	setup();
	ok(rd32be(ISEG(initializing)) >> 31, "initializing set after reset");
	fh.now += 49 * MS;
	ok(rd32be(ISEG(initializing)) >> 31, "initializing still set at 49 ms");
	fh.now += 2 * MS;
	ok(rd32be(ISEG(initializing)) == 0, "initializing clear after 50 ms");
	cx_core_reset(&core);
	ok(rd32be(ISEG(initializing)) >> 31, "initializing set again by reset");
	fh.now -= 500 * MS;
	ok(rd32be(ISEG(initializing)) >> 31,
	   "clock stepping back keeps it initializing, no wrap");
}

static void test_health_counter(void)
{
	uint32_t prev, cur;
	int i, increasing = 1;

	setup();
	prev = rd32be(ISEG(health_counter));
	for (i = 0; i < 50; i++) {
		fh.now += CX_HEALTH_TICK_NS;
		cur = rd32be(ISEG(health_counter));
		if (cur <= prev)
			increasing = 0;
		prev = cur;
	}
	ok(increasing, "health counter strictly increases every tick");
	ok(rd32be(offsetof(struct mlx5_init_seg, health) +
		  offsetof(struct health_buffer, synd)) == 0,
	   "health buffer has no syndrome");
	ok(rd32be(ISEG(health.fw_ver)) == 0, "health fw_ver is not all-ones");
}

static void test_cmdq_regs(void)
{
	uint32_t l;

	setup();
	l = rd32be(ISEG(cmdq_addr_l_sz));
	ok((l >> 4 & 0xf) == 5 && (l & 0xf) == 6,
	   "cmdq log_sz 5, log_stride 6 after reset");
	ok(((l >> MLX5_NIC_IFC_OFFSET) & 7) ==
	   MLX5_INITIAL_SEG_NIC_INTERFACE_FULL_DRIVER, "nic interface full driver");

	wr32be(ISEG(cmdq_addr_h), 0x12345678);
	wr32be(ISEG(cmdq_addr_l_sz), 0x9abcd000);
	ok(rd32be(ISEG(cmdq_addr_h)) == 0x12345678, "cmdq_addr_h round-trips");
	ok(rd32be(ISEG(cmdq_addr_l_sz)) == (0x9abcd000 | 5 << 4 | 6),
	   "cmdq_addr_l round-trips with size bits");

	l = rd32be(ISEG(cmdq_addr_l_sz));
	wr32be(ISEG(cmdq_addr_l_sz), (l & 0xfffff000) |
	       MLX5_INITIAL_SEG_NIC_INTERFACE_DISABLED << MLX5_NIC_IFC_OFFSET);
	l = rd32be(ISEG(cmdq_addr_l_sz));
	ok(((l >> MLX5_NIC_IFC_OFFSET) & 7) ==
	   MLX5_INITIAL_SEG_NIC_INTERFACE_DISABLED &&
	   (l & 0xfffff000) == 0x9abcd000, "nic interface state is writable");

	cx_core_reset(&core);
	ok(rd32be(ISEG(cmdq_addr_h)) == 0 &&
	   (rd32be(ISEG(cmdq_addr_l_sz)) & 0xfffff000) == 0,
	   "reset clears the cmdq address");

	wr32be(ISEG(cmd_dbell), 1);
	ok(core.stats.cmd_doorbells == 1, "command doorbell reaches the hook");
}

static void test_timer(void)
{
	uint64_t t;

	setup();
	fh.now = 0x123456789abcULL;
	t = (uint64_t)rd32be(ISEG(internal_timer_h)) << 32 |
	    rd32be(ISEG(internal_timer_l));
	ok(t == fh.now, "internal timer follows the clock");
}

static void test_byte_lanes(void)
{
	uint64_t q;

	setup();
	/* fw_rev = 0x0023_0010 is stored big-endian: 00 23 00 10. */
	ok(cx_core_bar0_read(&core, ISEG(fw_rev) + 1, 1) == 0x23,
	   "byte read sees big-endian byte order");
	ok(cx_core_bar0_read(&core, ISEG(fw_rev) + 2, 2) == 0x1000,
	   "halfword read sees big-endian byte order");
	q = cx_core_bar0_read(&core, ISEG(fw_rev), 8);
	ok(q == ((uint64_t)__builtin_bswap32(rd32be(ISEG(cmdif_rev_fw_sub))) << 32 |
		 __builtin_bswap32(rd32be(ISEG(fw_rev)))),
	   "qword read spans two registers");
	ok(cx_core_bar0_read(&core, ISEG(fw_rev) + 3, 4) ==
	   (0x10u | (uint32_t)cx_core_bar0_read(&core, ISEG(cmdif_rev_fw_sub), 4) << 8),
	   "unaligned dword read straddles registers");
}

static void test_out_of_range(void)
{
	static const uint64_t offs[] = {
		0x3000, 0x100000, CX_CORE_MMIO_SIZE - 8, CX_CORE_MMIO_SIZE - 1,
		CX_CORE_MMIO_SIZE, CX_BAR0_SIZE - 1, CX_BAR0_SIZE,
		~0ULL, ~0ULL - 3, 1ULL << 63,
	};
	static const unsigned int sizes[] = { 0, 1, 2, 3, 4, 5, 7, 8, 16, ~0u };
	unsigned int i, j;
	int zero = 1;

	setup();
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
			cx_core_bar0_write(&core, offs[i], ~0ULL, sizes[j]);
			if (cx_core_bar0_read(&core, offs[i], sizes[j]))
				zero = 0;
		}
	}
	ok(zero, "reads outside the init segment return 0");
	ok(core.stats.bad_accesses > 0 && fh.logs > 0,
	   "bad accesses are counted and logged");

	for (i = 0; i < 3; i++)
		wr32be(ISEG(initializing) + 4 * i, ~0u);
	cx_core_bar0_write(&core, ISEG(cmdq_addr_h), ~0ULL, 1);
	cx_core_bar0_write(&core, ISEG(cmdq_addr_h) + 1, ~0ULL, 4);
	ok(rd32be(ISEG(cmdq_addr_h)) == 0,
	   "sub-dword and unaligned writes are ignored");
	ok(rd32be(ISEG(health.synd)) == 0 && rd32be(ISEG(fw_rev)) != ~0u,
	   "read-only registers ignore writes");
	fh.now += 100 * MS;
	ok(rd32be(ISEG(initializing)) == 0,
	   "writing initializing does not stick");
}

static void test_receive(void)
{
	uint8_t frame[64] = { 0 };

	setup();
	ok(cx_core_receive(&core, frame, sizeof(frame)) == sizeof(frame) &&
	   core.stats.rx_drops == 1, "received frames are dropped and counted");
}

static void test_models(void)
{
	enum cx_model m;

	ok(!cx_model_parse("cx5", &m) && cx_model_device_id(m) == 0x1017,
	   "model cx5 is 15b3:1017");
	ok(!cx_model_parse("cx6dx", &m) && cx_model_device_id(m) == 0x101d,
	   "model cx6dx is 15b3:101d");
	ok(!cx_model_parse("cx7", &m) && cx_model_device_id(m) == 0x1021,
	   "model cx7 is 15b3:1021");
	ok(cx_model_parse("cx4", &m) < 0 && cx_model_parse(NULL, &m) < 0,
	   "unknown models are rejected");
}

#include "test_cmd.c"
#include "test_eth.c"
#include "test_dp.c"
#include "test_sqerr.c"
#include "test_report.c"
#include "test_merr.c"

int main(void)
{
	test_fw_rev();
	test_initializing();
	test_health_counter();
	test_cmdq_regs();
	test_timer();
	test_byte_lanes();
	test_out_of_range();
	test_receive();
	test_models();
	test_cmd_all();
	test_eth_all();
	test_dp_all();
	test_sqerr_all();
	test_report_all();
	test_merr_all();
	cx_core_fini(&core);
	printf("1..%u\n", test_nr);
	return failures ? 1 : 0;
}
