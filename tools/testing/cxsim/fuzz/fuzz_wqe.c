// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target over the data path: the send WQE decoder, emission
 * (LSO, checksum offload), RX classification, RSS, CQE building and
 * striding placement.  The input is the guest memory: a 16-byte header
 * picks the SQ geometry and counters, the WQE ring follows, and every
 * address the WQEs name is an offset into the input.
 *
 * Oracles besides the sanitizers: every frame an LSO produces, and every
 * TCP/UDP frame sent with L3+L4 checksum offload, must classify as
 * L3_OK and L4_OK on receive.
 *
 *	make -C tools/testing/cxsim fuzz FUZZ_TARGETS=fuzz_wqe
 */
#include <stdlib.h>
#include <string.h>

#include "cx_kshim_dp.h"
#include "cx_datapath.h"

#define HDR	16

struct fz {
	const uint8_t *data;
	size_t size;
	uint8_t log_wq_sz;
	bool csum;	/* frames carry both checksums: they must verify */
};

/* The tunnels the device parses: VXLAN 4789, GENEVE on RX, GRE, IPIP. */
static const struct cx_tun_ports tun = {
	.vxlan = { 4789 }, .nvxlan = 1, .geneve_rx = true, .gre = true,
	.ipip = true,
};

static uint8_t pktbuf[300 << 10];
static uint8_t scratch[CX_LSO_MAX_HDR + 65536];
static struct cx_wqe w;

static int fz_rd(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct fz *f = ctx;

	if (addr > f->size || len > f->size - addr)
		return -1;
	memcpy(buf, f->data + addr, len);
	return 0;
}

static int fz_map(void *ctx, uint32_t idx, uint64_t *addr)
{
	(void)ctx;
	*addr = HDR + (uint64_t)idx * CX_WQEBB;
	return 0;
}

static void rx_side(const uint8_t *frame, size_t len, bool must_be_ok)
{
	static const uint8_t key[CX_RSS_KEY_LEN] = { 0x6d, 0x5a, 0x56, 0xda };
	struct cx_rss_cfg cfg = { .selected_fields = 0xf };
	struct cx_cqe_rx rx = { 0 };
	struct cx_rx_class rc;
	uint8_t cqe[CX_CQE_SIZE], ht;

	memcpy(cfg.key, key, sizeof(key));
	cx_rx_classify_tun(frame, len, len & 1, &tun, &rc);
	cx_rx_classify(frame, len, len & 1, &rc);
	if (must_be_ok && rc.pkt.l3 != CX_L3_NONE && !rc.pkt.ip_trunc &&
	    !rc.pkt.frag && (rc.pkt.l4 == CX_L4_TCP || rc.pkt.l4 == CX_L4_UDP) &&
	    (rc.hds_ip_ext & (CQE_L3_OK | CQE_L4_OK)) != (CQE_L3_OK | CQE_L4_OK))
		abort();
	cfg.l3_prot_type = rc.pkt.l3 == CX_L3_IPV6;
	cfg.l4_prot_type = rc.pkt.l4 == CX_L4_UDP;
	cfg.symmetric = len & 2;
	rx.rss_hash = cx_rss_hash(&cfg, frame, &rc.pkt, &ht);
	rx.rss_hash_type = ht;
	rx.byte_cnt = (uint32_t)len;
	rx.rc = &rc;
	cx_cqe_rx(cqe, (uint32_t)len, 3, &rx);
}

static void sink(void *ctx, const uint8_t *frame, size_t len)
{
	struct fz *f = ctx;
	static uint8_t copy[70000];
	size_t l = len;
	uint16_t tci;

	rx_side(frame, len, f->csum);
	if (len <= sizeof(copy)) {
		memcpy(copy, frame, len);
		if (cx_rx_vlan_strip(copy, &l, &tci))
			rx_side(copy, l, false);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { .data = data, .size = size };
	struct cx_sq_ring sq = { .rd = fz_rd, .ctx = &f, .map = fz_map };
	struct cx_mpwrq_geom g;
	struct cx_mpwrq_place p;
	uint8_t cqe[CX_CQE_SIZE];
	uint16_t cc, pc;
	int i, ret;

	if (size < HDR)
		return 0;
	sq.log_wq_sz = data[0] & 7;
	sq.max_wqebbs = data[1] & 0x1f;
	sq.mpwqe = !(data[2] & 1);
	sq.max_pkt = data[2] & 2 ? 0 : 2048;
	sq.max_lso = data[2] & 4 ? 0 : 65536;
	sq.no_vlan_insert = data[2] & 0x40;
	sq.min_inline = (data[2] >> 4) & 3;	/* MLX5_INLINE_MODE_* */
	sq.sqn = (uint32_t)data[3] << 8 | data[4];
	if (data[2] & 8)	/* a page list instead of the map callback */
		sq.map = NULL;
	cc = (uint16_t)(data[5] << 8 | data[6]);
	pc = (uint16_t)(cc + (data[7] & 0x3f));
	{
		/* page list: one entry per 64-byte "page" of the ring */
		static uint64_t pas[128];
		uint32_t k;

		for (k = 0; k < 128; k++)
			pas[k] = HDR + (uint64_t)k * 64 + (data[8] & 1) * 7;
		sq.pas = pas;
		sq.npas = data[9] & 0x7f;
		sq.log_page_sz = 6 + (data[10] & 1);
		sq.page_offset = data[11] & 0x40;
	}
	for (i = 0; i < 64; i++) {
		ret = cx_wqe_decode(&sq, cc, pc, pktbuf, data[12] & 1 ?
				    sizeof(pktbuf) : 200, &w);
		if (ret == CX_WQE_EMPTY)
			break;
		if (ret < 0) {
			cx_cqe_tx_err(cqe, (uint32_t)i, 2, w.syndrome, 0,
				      w.opcode, w.wqe_index, sq.sqn);
			break;
		}
		if (w.wqebbs < 1 || w.wqebbs > CX_WQE_MAX_WQEBBS)
			abort();
		f.csum = (w.cs_flags & (MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM)) ==
			 (MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM);
		w.tun = data[2] & 0x80 ? &tun : NULL;
		cx_tx_emit(&w, pktbuf, scratch, sizeof(scratch), sink, &f);
		if (w.cqe_req)
			cx_cqe_tx(cqe, (uint32_t)i, 2, w.opcode, w.wqe_index,
				  sq.sqn, 0);
		cc = (uint16_t)(cc + w.wqebbs);
	}
	/* the raw input as a super-packet and as a received frame */
	f.csum = true;
	cx_lso_segment(data + HDR, size - HDR, (uint16_t)(data[13] << 4 | 1),
		       MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM,
		       scratch, sizeof(scratch), sink, &f);
	f.csum = false;		/* an outer UDP checksum is left as given */
	cx_lso_segment_tun(data + HDR, size - HDR, (uint16_t)(data[13] << 4 | 1),
			   MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L3_INNER_CSUM |
			   MLX5_ETH_WQE_L4_INNER_CSUM, &tun, scratch,
			   sizeof(scratch), sink, &f);
	sink(&f, data + HDR, size - HDR);
	if (size - HDR <= sizeof(pktbuf)) {
		memcpy(pktbuf, data + HDR, size - HDR);
		f.csum = true;
		if (!cx_csum_tx(pktbuf, size - HDR, MLX5_ETH_WQE_L3_CSUM |
						    MLX5_ETH_WQE_L4_CSUM))
			sink(&f, pktbuf, size - HDR);
	}
	g.log_num_strides = data[14] & 0x1f;
	g.log_stride_sz = data[15] & 0xf;
	cx_mpwrq_place(&g, data[13] * 64u, (uint32_t)(size * 13), &p);
	return 0;
}
