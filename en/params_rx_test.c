// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the receive buffer sizing (params_rx.c): every MTU from
 * 68 to 9978, 4K and 64K pages, legacy and striding RQ, with and without
 * XDP. Built into the module with CONFIG_MLX5_EN_PARAMS_KUNIT_TEST, and in
 * userspace by make check (tools/testing/unit) against a small shim.
 */
#include <kunit/test.h>
#include <linux/log2.h>
#include <linux/skbuff.h>

#include "params_rx.h"

#define MTU_MIN		68
#define MTU_MAX		9978

static const unsigned int page_shifts[] = { 12, 16 };
static const enum mlx5e_rq_type rq_types[] = {
	MLX5E_RQ_TYPE_LEGACY, MLX5E_RQ_TYPE_STRIDING,
};

struct rx_config {
	unsigned int page_shift;
	enum mlx5e_rq_type type;
	bool xdp;
};

static const struct rx_config rx_configs[] = {
	{ 12, MLX5E_RQ_TYPE_LEGACY, false },
	{ 12, MLX5E_RQ_TYPE_LEGACY, true },
	{ 12, MLX5E_RQ_TYPE_STRIDING, false },
	{ 12, MLX5E_RQ_TYPE_STRIDING, true },
	{ 16, MLX5E_RQ_TYPE_LEGACY, false },
	{ 16, MLX5E_RQ_TYPE_LEGACY, true },
	{ 16, MLX5E_RQ_TYPE_STRIDING, false },
	{ 16, MLX5E_RQ_TYPE_STRIDING, true },
};

/* Every layout holds the frame and is no larger than it must be. */
static void rx_layout_holds_frame(struct kunit *test)
{
	u32 shinfo = SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	unsigned int i;
	u32 mtu;

	for (i = 0; i < ARRAY_SIZE(rx_configs); i++) {
		const struct rx_config *c = &rx_configs[i];
		unsigned int shift = c->page_shift;
		u32 max_stride = mlx5e_rx_max_linear_stride(shift);

		for (mtu = MTU_MIN; mtu <= MTU_MAX; mtu++) {
			struct mlx5e_rx_buf_layout l;
			u32 hw_mtu = MLX5E_SW2HW_MTU(mtu);

			mlx5e_rx_buf_layout(c->type, mtu, c->xdp, shift, &l);
			KUNIT_ASSERT_TRUE_MSG(test, is_power_of_2(l.stride),
					      "mtu %u stride %u", mtu, l.stride);
			KUNIT_ASSERT_LE(test, l.stride, 1U << shift);
			KUNIT_ASSERT_LE(test, l.num_frags, MLX5E_RX_MAX_FRAGS);
			KUNIT_ASSERT_EQ(test, l.linear,
					roundup_pow_of_two(l.linear_sz) <= max_stride);
			if (l.linear) {
				KUNIT_ASSERT_EQ(test, l.headroom, mlx5e_rx_headroom(c->xdp));
				KUNIT_ASSERT_EQ(test, l.frag_size, hw_mtu);
				KUNIT_ASSERT_LE(test, l.headroom + hw_mtu + shinfo,
						l.stride);
				/* The smallest power of two that holds it. */
				KUNIT_ASSERT_LT(test, l.stride / 2, l.linear_sz);
				KUNIT_ASSERT_EQ(test, l.first_frag_size, hw_mtu);
				KUNIT_ASSERT_EQ(test, l.xdp_head_sz, 0U);
			} else if (c->type == MLX5E_RQ_TYPE_LEGACY) {
				u32 rest = (l.num_frags - 1) * l.frag_size;

				KUNIT_ASSERT_EQ(test, l.frag_size, l.stride);
				KUNIT_ASSERT_GE(test, l.first_frag_size + rest, hw_mtu);
				/* No fragment more than the frame needs. */
				KUNIT_ASSERT_LT(test, l.first_frag_size +
						rest - l.frag_size, hw_mtu);
				KUNIT_ASSERT_EQ(test, l.xdp_head_sz, 0U);
				if (c->xdp) {
					/* Multi-buffer XDP: headroom and
					 * skb_shared_info around the first.
					 */
					KUNIT_ASSERT_EQ(test, l.headroom,
							mlx5e_rx_headroom(true));
					KUNIT_ASSERT_EQ(test, l.headroom +
							l.first_frag_size + shinfo,
							l.stride);
				} else {
					KUNIT_ASSERT_EQ(test, l.headroom, 0U);
					KUNIT_ASSERT_EQ(test, l.first_frag_size,
							l.stride);
				}
			} else {
				KUNIT_ASSERT_EQ(test, l.stride, MLX5E_RX_MAX_HEAD);
				KUNIT_ASSERT_EQ(test, l.headroom, 0U);
				if (c->xdp) {
					/* The copied headers' buffer. */
					KUNIT_ASSERT_GE(test, l.xdp_head_sz,
							mlx5e_rx_headroom(true) +
							MLX5E_RX_MAX_HEAD + shinfo);
					KUNIT_ASSERT_LE(test, l.xdp_head_sz,
							1U << shift);
				} else {
					KUNIT_ASSERT_EQ(test, l.xdp_head_sz, 0U);
				}
			}
		}
	}
}

/* Non-linear exactly above the 8 KiB (or page) stride. */
static void rx_layout_linear_limit(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rx_configs); i++) {
		const struct rx_config *c = &rx_configs[i];
		unsigned int shift = c->page_shift;
		u32 max = mlx5e_rx_max_linear_mtu(c->xdp, shift);
		struct mlx5e_rx_buf_layout l;

		mlx5e_rx_buf_layout(c->type, max, c->xdp, shift, &l);
		KUNIT_EXPECT_TRUE(test, l.linear);
		KUNIT_EXPECT_EQ(test, l.stride, mlx5e_rx_max_linear_stride(shift));
		mlx5e_rx_buf_layout(c->type, max + 1, c->xdp, shift, &l);
		KUNIT_EXPECT_FALSE(test, l.linear);
		KUNIT_EXPECT_LE(test, mlx5e_rx_max_linear_stride(shift), 8192U);
	}
}

/* XDP adds headroom, never a page per buffer; strides grow with the MTU. */
static void rx_layout_xdp_shares_pages(struct kunit *test)
{
	unsigned int ps, t;
	u32 mtu;

	for (ps = 0; ps < ARRAY_SIZE(page_shifts); ps++) {
		for (t = 0; t < ARRAY_SIZE(rq_types); t++) {
			struct mlx5e_rx_buf_layout prev = {};

			for (mtu = MTU_MIN; mtu <= MTU_MAX; mtu++) {
				struct mlx5e_rx_buf_layout l, n;

				mlx5e_rx_buf_layout(rq_types[t], mtu, true,
						    page_shifts[ps], &l);
				mlx5e_rx_buf_layout(rq_types[t], mtu, false,
						    page_shifts[ps], &n);
				if (l.linear) {
					KUNIT_ASSERT_EQ(test, l.stride,
							roundup_pow_of_two(l.linear_sz));
					KUNIT_ASSERT_TRUE(test, n.linear);
					KUNIT_ASSERT_LE(test, l.stride, 2 * n.stride);
				}
				if (l.linear && prev.linear)
					KUNIT_ASSERT_GE(test, l.stride, prev.stride);
				prev = l;
			}
		}
	}
}

struct rx_layout_case {
	unsigned int page_shift;
	enum mlx5e_rq_type type;
	bool xdp;
	u32 mtu;
	bool linear;
	u32 stride;
	u8 num_frags;
	u32 bufs_per_page;
};

/* Worked by hand from 64-byte cache lines and a 320-byte skb_shared_info
 * (x86-64): headroom + MTU + 22, aligned, + 320, rounded up.
 */
static const struct rx_layout_case rx_layout_cases[] = {
	{ 12, MLX5E_RQ_TYPE_LEGACY, false, 1000, true, 2048, 1, 2 },
	{ 12, MLX5E_RQ_TYPE_LEGACY, true, 1000, true, 2048, 1, 2 },
	{ 12, MLX5E_RQ_TYPE_STRIDING, false, 1000, true, 2048, 1, 2 },
	{ 12, MLX5E_RQ_TYPE_STRIDING, true, 1000, true, 2048, 1, 2 },
	{ 12, MLX5E_RQ_TYPE_LEGACY, false, 1500, true, 2048, 1, 2 },
	{ 12, MLX5E_RQ_TYPE_LEGACY, true, 1500, true, 4096, 1, 1 },
	{ 12, MLX5E_RQ_TYPE_LEGACY, false, 68, true, 512, 1, 8 },
	{ 12, MLX5E_RQ_TYPE_LEGACY, true, 68, true, 1024, 1, 4 },
	{ 12, MLX5E_RQ_TYPE_LEGACY, false, 4000, false, 4096, 1, 1 },
	{ 12, MLX5E_RQ_TYPE_LEGACY, false, 9000, false, 4096, 3, 0 },
	{ 12, MLX5E_RQ_TYPE_STRIDING, false, 9000, false, 256, 1, 16 },
	{ 16, MLX5E_RQ_TYPE_LEGACY, false, 1500, true, 2048, 1, 32 },
	{ 16, MLX5E_RQ_TYPE_LEGACY, true, 1500, true, 4096, 1, 16 },
	{ 16, MLX5E_RQ_TYPE_STRIDING, true, 1500, true, 4096, 1, 16 },
	{ 16, MLX5E_RQ_TYPE_LEGACY, true, 4000, true, 8192, 1, 8 },
	{ 16, MLX5E_RQ_TYPE_STRIDING, true, 4000, true, 8192, 1, 8 },
	{ 16, MLX5E_RQ_TYPE_LEGACY, false, 9000, false, 8192, 2, 4 },
	/* Multi-buffer XDP: the first fragment keeps 258 bytes of headroom
	 * and 320 of skb_shared_info, 3518 (7614) bytes for the frame.
	 */
	{ 12, MLX5E_RQ_TYPE_LEGACY, true, 4000, false, 4096, 2, 0 },
	{ 12, MLX5E_RQ_TYPE_LEGACY, true, 9000, false, 4096, 3, 0 },
	{ 12, MLX5E_RQ_TYPE_STRIDING, true, 9000, false, 256, 1, 16 },
	{ 16, MLX5E_RQ_TYPE_LEGACY, true, 9000, false, 8192, 2, 4 },
};

static void rx_layout_worked_cases(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rx_layout_cases); i++) {
		const struct rx_layout_case *c = &rx_layout_cases[i];
		struct mlx5e_rx_buf_layout l;

		mlx5e_rx_buf_layout(c->type, c->mtu, c->xdp, c->page_shift, &l);
		KUNIT_EXPECT_EQ_MSG(test, l.linear, c->linear, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, l.stride, c->stride, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, l.num_frags, c->num_frags, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, mlx5e_rx_bufs_per_page(&l, c->page_shift),
				    c->bufs_per_page, "case %u", i);
	}
}

/* The must-show: two buffers or more per 4K page at MTU 1000. */
static void rx_layout_mtu1000_4k(struct kunit *test)
{
	unsigned int t, x;

	for (t = 0; t < ARRAY_SIZE(rq_types); t++) {
		for (x = 0; x < 2; x++) {
			struct mlx5e_rx_buf_layout l;

			mlx5e_rx_buf_layout(rq_types[t], 1000, x, 12, &l);
			KUNIT_EXPECT_GE(test, mlx5e_rx_bufs_per_page(&l, 12), 2U);
			KUNIT_EXPECT_LE(test, mlx5e_rx_pages_per_kpkt(&l, 12, 1000),
					500U);
		}
	}
}

/* The table the report quotes: buffers per page (pages per 1000 frames of
 * the MTU's size) by page size, RQ type, XDP and MTU.
 */
static void rx_layout_table(struct kunit *test)
{
	static const u32 mtus[] = { 68, 1000, 1500, 4000, 9000, 9978 };
	unsigned int i, m;

	for (i = 0; i < ARRAY_SIZE(rx_configs); i++) {
		const struct rx_config *c = &rx_configs[i];
		char line[160];
		int n;

		n = scnprintf(line, sizeof(line), "%2uK %-8s %-6s",
			      1U << (c->page_shift - 10),
			      c->type == MLX5E_RQ_TYPE_LEGACY ? "legacy" : "striding",
			      c->xdp ? "xdp" : "no-xdp");
		for (m = 0; m < ARRAY_SIZE(mtus); m++) {
			struct mlx5e_rx_buf_layout l;

			mlx5e_rx_buf_layout(c->type, mtus[m], c->xdp,
					    c->page_shift, &l);
			n += scnprintf(line + n, sizeof(line) - n, " %u:%u%s(%u)",
				       mtus[m], mlx5e_rx_bufs_per_page(&l, c->page_shift),
				       l.linear ? "" : "s",
				       mlx5e_rx_pages_per_kpkt(&l, c->page_shift,
							       MLX5E_SW2HW_MTU(mtus[m])));
		}
		kunit_info(test, "%s\n", line);
	}
	KUNIT_SUCCEED(test);
}

static struct kunit_case mlx5e_params_rx_cases[] = {
	KUNIT_CASE(rx_layout_holds_frame),
	KUNIT_CASE(rx_layout_linear_limit),
	KUNIT_CASE(rx_layout_xdp_shares_pages),
	KUNIT_CASE(rx_layout_worked_cases),
	KUNIT_CASE(rx_layout_mtu1000_4k),
	KUNIT_CASE(rx_layout_table),
	{}
};

static struct kunit_suite mlx5e_params_rx_suite = {
	.name = "mlx5e_params_rx",
	.test_cases = mlx5e_params_rx_cases,
};

kunit_test_suite(mlx5e_params_rx_suite);
