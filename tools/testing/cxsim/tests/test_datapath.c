// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the cxsim data path helpers (cx_datapath.h), against a
 * flat fake guest memory.  Output is TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cx_kshim_dp.h"
#include "cx_datapath.h"

#define MEM_SIZE	(1 << 20)
#define RING_BASE	0x10000		/* SQ ring: 4 pages, 256 WQEBBs */
#define DATA_BASE	0x40000
#define LOG_WQ_SZ	8
#define SQN		0x1234
#define CX_ARRAY(a)	(sizeof(a) / sizeof((a)[0]))

static uint8_t mem[MEM_SIZE];
static unsigned int test_nr;
static int failures;

static void ok(int cond, const char *name)
{
	test_nr++;
	if (!cond)
		failures++;
	printf("%sok %u - %s\n", cond ? "" : "not ", test_nr, name);
}

static int mem_rd(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (addr > MEM_SIZE || len > MEM_SIZE - addr)
		return -1;
	memcpy(buf, mem + addr, len);
	return 0;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, (uint32_t)v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

/* ---- frames ---- */

static const uint8_t mac_hdr[12] = { 0, 1, 2, 3, 4, 5, 0, 0xa, 0xb, 0xc, 0xd, 0xe };

/*
 * Ethernet [+ VLAN] + IPv4/IPv6 + TCP/UDP with @plen payload bytes.  The
 * checksums are left as the stack leaves them for CHECKSUM_PARTIAL: IPv4
 * header checksum valid, L4 field = pseudo-header sum (or, with @full,
 * valid checksums everywhere).
 */
static size_t build(uint8_t *f, bool v6, bool udp, uint16_t vlan,
		    uint32_t plen, uint8_t tcp_flags, bool full)
{
	size_t o = 12, l3, l4, hl4 = udp ? 8 : 20, len;
	struct cx_pkt pkt;
	uint32_t i;

	memcpy(f, mac_hdr, 12);
	if (vlan) {
		put16(f + o, 0x8100);
		put16(f + o + 2, vlan);
		o += 4;
	}
	put16(f + o, v6 ? 0x86dd : 0x0800);
	l3 = o + 2;
	if (v6) {
		memset(f + l3, 0, 40);
		f[l3] = 0x60;
		put16(f + l3 + 4, (uint16_t)(hl4 + plen));
		f[l3 + 6] = udp ? 17 : 6;
		f[l3 + 7] = 64;
		for (i = 0; i < 16; i++) {
			f[l3 + 8 + i] = (uint8_t)(0x20 + i);
			f[l3 + 24 + i] = (uint8_t)(0x40 + i);
		}
		l4 = l3 + 40;
	} else {
		memset(f + l3, 0, 20);
		f[l3] = 0x45;
		put16(f + l3 + 2, (uint16_t)(20 + hl4 + plen));
		put16(f + l3 + 4, 0x1000);
		put16(f + l3 + 6, 0x4000);
		f[l3 + 8] = 64;
		f[l3 + 9] = udp ? 17 : 6;
		put32(f + l3 + 12, 0x0a000001);
		put32(f + l3 + 16, 0x0a000002);
		put16(f + l3 + 10, (uint16_t)~cx_csum_fold(cx_csum_add(0, f + l3, 20)));
		l4 = l3 + 20;
	}
	memset(f + l4, 0, hl4);
	put16(f + l4, 40000);
	put16(f + l4 + 2, 80);
	if (udp) {
		put16(f + l4 + 4, (uint16_t)(8 + plen));
	} else {
		put32(f + l4 + 4, 0xfffff000u);	/* seq wraps during LSO */
		put32(f + l4 + 8, 77);
		f[l4 + 12] = 5 << 4;
		f[l4 + 13] = tcp_flags;
		put16(f + l4 + 14, 0xffff);
	}
	for (i = 0; i < plen; i++)
		f[l4 + hl4 + i] = (uint8_t)(i * 7 + 3);
	len = l4 + hl4 + plen;
	cx_pkt_parse(f, len, &pkt);
	if (full) {
		cx_csum_tx(f, len, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM);
	} else {
		/* pseudo-header sum without length for TSO, with length else */
		uint16_t ps = cx_csum_fold(cx_csum_pseudo(f, &pkt,
					   (uint32_t)(len - l4)));

		put16(f + l4 + (udp ? 6 : 16), ps);
	}
	return len;
}

static bool l4_valid(const uint8_t *f, size_t len)
{
	struct cx_rx_class rc;

	cx_rx_classify(f, len, false, &rc);
	return (rc.hds_ip_ext & (CQE_L3_OK | CQE_L4_OK)) ==
	       (CQE_L3_OK | CQE_L4_OK);
}

/* ---- checksums ---- */

static void test_csum(void)
{
	static const uint8_t iph[20] = {
		0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
		0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 };
	uint8_t f[2048], g[2048];
	struct cx_rx_class rc;
	size_t len;
	uint32_t s;
	uint16_t c;

	c = cx_csum_fold(cx_csum_add(0, iph, 20));
	ok(c == 0xffff - 0xb861,
	   "IPv4 header checksum of the textbook example is 0xb861");
	s = cx_csum_add(0, "\x01", 1);
	ok(cx_csum_fold(s) == 0x0100, "odd trailing byte is the high octet");

	len = build(f, false, false, 0, 100, 0x18, false);
	ok(!l4_valid(f, len), "partial TCP/IPv4 checksum is not yet valid");
	f[24] ^= 0xff;		/* break the IPv4 header checksum */
	ok(cx_csum_tx(f, len, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM) == 0 &&
	   l4_valid(f, len), "TX offload fills IPv4 and TCP checksums");
	memcpy(g, f, len);
	put16(g + 14 + 20 + 16, 0x1234);	/* garbage in the field */
	cx_csum_tx(g, len, MLX5_ETH_WQE_L4_CSUM);
	ok(!memcmp(f, g, len), "L4 checksum ignores what the field held");
	len = build(f, false, false, 0, 100, 0x18, false);
	f[24] ^= 0xff;
	cx_csum_tx(f, len, MLX5_ETH_WQE_L4_CSUM);
	cx_rx_classify(f, len, false, &rc);
	ok(!(rc.hds_ip_ext & CQE_L3_OK), "without L3 flag the IPv4 checksum is left alone");

	len = build(f, true, true, 100, 333, 0, false);
	ok(cx_csum_tx(f, len, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM) == 0 &&
	   l4_valid(f, len), "TX offload fills UDP/IPv6 behind a VLAN tag");
	len = build(f, true, false, 0, 1, 0x10, false);
	ok(cx_csum_tx(f, len, MLX5_ETH_WQE_L4_CSUM) == 0 && l4_valid(f, len),
	   "TX offload of TCP/IPv6 with an odd payload");
	memset(f, 0, 64);
	put16(f + 12, 0x0806);
	ok(cx_csum_tx(f, 60, MLX5_ETH_WQE_L4_CSUM) == -1,
	   "L4 offload on ARP is refused and leaves the frame");
	ok(cx_csum_tx(f, 60, 0) == 0, "no flags, nothing to do");
	/* inner flags fold onto the outer headers */
	len = build(f, false, true, 0, 10, 0, false);
	cx_csum_tx(f, len, MLX5_ETH_WQE_L3_INNER_CSUM | MLX5_ETH_WQE_L4_INNER_CSUM);
	ok(l4_valid(f, len), "inner checksum flags fill the (only) headers");
}

static void test_rx_class(void)
{
	uint8_t f[2048];
	struct cx_rx_class rc;
	size_t len;
	uint16_t tci;

	len = build(f, false, false, 0, 200, 0x18, true);
	cx_rx_classify(f, len, false, &rc);
	ok(rc.hds_ip_ext == (CQE_L2_OK | CQE_L3_OK | CQE_L4_OK),
	   "good TCP/IPv4: L2, L3 and L4 OK");
	ok(rc.l3_hdr_type == CX_CQE_L3_HDR_IPV4 &&
	   rc.l4_hdr_type == CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA,
	   "TCP/IPv4 with ACK and data: header types");
	ok(rc.check_sum == cx_csum_fold(cx_csum_add(0, f + 14, len - 14)),
	   "check_sum is the sum from the IP header");
	/* a valid TCP/IPv4 packet sums to (pseudo-independent) known value:
	 * the IP header sums to 0xffff, so check_sum == sum of the segment */
	ok(cx_csum_fold(cx_csum_add(rc.check_sum, "", 0)) ==
	   cx_csum_fold(cx_csum_add(0xffff, f + 34, len - 34)),
	   "check_sum covers the IP header and the L4 segment");

	f[60] ^= 1;	/* payload */
	cx_rx_classify(f, len, false, &rc);
	ok(rc.hds_ip_ext == (CQE_L2_OK | CQE_L3_OK), "corrupt payload: L4 not OK");
	f[60] ^= 1;
	f[22] ^= 1;	/* TTL: IPv4 header checksum now wrong */
	cx_rx_classify(f, len, false, &rc);
	ok(rc.hds_ip_ext == CQE_L2_OK, "corrupt IPv4 header: neither L3 nor L4 OK");
	f[22] ^= 1;

	len = build(f, false, false, 0, 0, 0x02, true);	/* SYN */
	cx_rx_classify(f, len, false, &rc);
	ok(rc.l4_hdr_type == CQE_L4_HDR_TYPE_TCP_NO_ACK, "SYN: TCP_NO_ACK");
	len = build(f, false, false, 0, 0, 0x10, true);	/* pure ACK */
	memset(f + len, 0, 60 - len);
	cx_rx_classify(f, 60, false, &rc);
	ok(rc.l4_hdr_type == CQE_L4_HDR_TYPE_TCP_ACK_NO_DATA &&
	   (rc.hds_ip_ext & CQE_L4_OK), "padded pure ACK: ACK_NO_DATA, L4 OK");
	ok(rc.check_sum == cx_csum_fold(cx_csum_add(0, f + 14, 46)),
	   "check_sum includes the padding (mlx5e_skb_csum_fixup removes it)");

	len = build(f, true, true, 5, 99, 0, true);
	cx_rx_classify(f, len, false, &rc);
	ok(rc.hds_ip_ext == (CQE_L2_OK | CQE_L3_OK | CQE_L4_OK) &&
	   rc.l3_hdr_type == CX_CQE_L3_HDR_IPV6 &&
	   rc.l4_hdr_type == CQE_L4_HDR_TYPE_UDP, "tagged UDP/IPv6: OK, types");
	ok(rc.check_sum == cx_csum_fold(cx_csum_add(0, f + 18, len - 18)),
	   "check_sum starts past the VLAN tag");
	cx_rx_classify(f, len, true, &rc);
	ok(rc.check_sum == cx_csum_fold(cx_csum_add(0, f + 14, len - 14)),
	   "csum_full: check_sum starts right after the Ethernet header");
	ok(cx_rx_vlan_strip(f, &len, &tci) && tci == 5 && get16(f + 12) == 0x86dd,
	   "VLAN strip removes the 802.1Q tag");
	ok(l4_valid(f, len), "stripped frame still valid");
	ok(!cx_rx_vlan_strip(f, &len, &tci), "nothing to strip twice");

	/* UDP without checksum over IPv4 */
	len = build(f, false, true, 0, 20, 0, true);
	put16(f + 40, 0);
	cx_rx_classify(f, len, false, &rc);
	ok(rc.hds_ip_ext & CQE_L4_OK, "UDP/IPv4 checksum 0 is OK");
	/* truncated: IP says more than the frame has */
	len = build(f, false, false, 0, 100, 0x10, true);
	cx_rx_classify(f, len - 10, false, &rc);
	ok(!(rc.hds_ip_ext & CQE_L3_OK) && !(rc.hds_ip_ext & CQE_L4_OK),
	   "truncated IPv4: not OK");
	/* non-IP */
	memset(f, 0, 60);
	put16(f + 12, 0x0806);
	cx_rx_classify(f, 60, false, &rc);
	ok(rc.hds_ip_ext == CQE_L2_OK && rc.l3_hdr_type == 0 && rc.l4_hdr_type == 0,
	   "ARP: L2 only, no header types");
	cx_rx_classify(f, 5, false, &rc);
	ok(rc.hds_ip_ext == 0, "runt: nothing OK");
}

/* ---- RSS ---- */

static const uint8_t ms_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa };

struct v4vec {
	uint8_t src[4], dst[4];
	uint16_t sport, dport;
	uint32_t ip, tcp;
};

static const struct v4vec v4vecs[] = {
	{ { 66, 9, 149, 187 }, { 161, 142, 100, 80 }, 2794, 1766,
	  0x323e8fc2, 0x51ccc178 },
	{ { 199, 92, 111, 2 }, { 65, 69, 140, 83 }, 14230, 4739,
	  0xd718262a, 0xc626b0ea },
	{ { 24, 19, 198, 95 }, { 12, 22, 207, 184 }, 12898, 38024,
	  0xd2d0a5de, 0x5c2b394a },
	{ { 38, 27, 205, 30 }, { 209, 142, 163, 6 }, 48228, 2217,
	  0x82989176, 0xafc7327f },
	{ { 153, 39, 163, 191 }, { 202, 188, 127, 2 }, 44251, 1303,
	  0x5d1809c5, 0x10e828a2 },
};

struct v6vec {
	uint8_t src[16], dst[16];
	uint16_t sport, dport;
	uint32_t ip, tcp;
};

static const struct v6vec v6vecs[] = {
	{ { 0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x1f, 0xff, 0, 0, 0, 0, 0, 0, 0, 7 },
	  { 0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x00, 0x03, 0, 0, 0, 0, 0, 0, 0, 1 },
	  2794, 1766, 0x2cc18cd5, 0x40207d3d },
	{ { 0x3f, 0xfe, 0x05, 0x01, 0x00, 0x08, 0, 0, 0x02, 0x60, 0x97, 0xff, 0xfe, 0x40, 0xef, 0xab },
	  { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 },
	  14230, 4739, 0x0f0c461c, 0xdde51bbf },
	{ { 0x3f, 0xfe, 0x19, 0x00, 0x45, 0x45, 0x00, 0x03, 0x02, 0x00, 0xf8, 0xff, 0xfe, 0x21, 0x67, 0xcf },
	  { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0xf8, 0xff, 0xfe, 0x21, 0x67, 0xcf },
	  44251, 38024, 0x4b61e985, 0x02d1feef },
};

static void test_rss(void)
{
	struct cx_rss_cfg cfg = { 0 };
	uint8_t in[36], f[256], ht;
	struct cx_pkt pkt;
	unsigned int i, good_ip = 0, good_tcp = 0, good_frame = 0;
	size_t len;
	uint32_t h, h2;

	memcpy(cfg.key, ms_key, 40);
	for (i = 0; i < CX_ARRAY(v4vecs); i++) {
		const struct v4vec *v = &v4vecs[i];

		memcpy(in, v->src, 4);
		memcpy(in + 4, v->dst, 4);
		put16(in + 8, v->sport);
		put16(in + 10, v->dport);
		good_ip += cx_toeplitz(ms_key, in, 8) == v->ip;
		good_tcp += cx_toeplitz(ms_key, in, 12) == v->tcp;
		/* the same through a frame and a TIR selector */
		len = build(f, false, false, 0, 10, 0x10, true);
		memcpy(f + 26, v->src, 4);
		memcpy(f + 30, v->dst, 4);
		put16(f + 34, v->sport);
		put16(f + 36, v->dport);
		cx_pkt_parse(f, len, &pkt);
		cfg.l3_prot_type = MLX5_L3_PROT_TYPE_IPV4;
		cfg.l4_prot_type = MLX5_L4_PROT_TYPE_TCP;
		cfg.selected_fields = MLX5_HASH_FIELD_SEL_SRC_IP |
				      MLX5_HASH_FIELD_SEL_DST_IP |
				      MLX5_HASH_FIELD_SEL_L4_SPORT |
				      MLX5_HASH_FIELD_SEL_L4_DPORT;
		h = cx_rss_hash(&cfg, f, &pkt, &ht);
		good_frame += h == v->tcp &&
			      ht == (CQE_RSS_IPV4 << 2 | CQE_RSS_L4_TCP << 6);
	}
	ok(good_ip == CX_ARRAY(v4vecs), "Toeplitz: Microsoft IPv4 vectors");
	ok(good_tcp == CX_ARRAY(v4vecs), "Toeplitz: Microsoft IPv4/TCP vectors");
	ok(good_frame == CX_ARRAY(v4vecs), "RSS over frames: IPv4/TCP TIR");
	good_ip = good_tcp = good_frame = 0;
	for (i = 0; i < CX_ARRAY(v6vecs); i++) {
		const struct v6vec *v = &v6vecs[i];

		memcpy(in, v->src, 16);
		memcpy(in + 16, v->dst, 16);
		put16(in + 32, v->sport);
		put16(in + 34, v->dport);
		good_ip += cx_toeplitz(ms_key, in, 32) == v->ip;
		good_tcp += cx_toeplitz(ms_key, in, 36) == v->tcp;
		len = build(f, true, false, 7, 10, 0x10, true);
		memcpy(f + 18 + 8, v->src, 16);
		memcpy(f + 18 + 24, v->dst, 16);
		put16(f + 58, v->sport);
		put16(f + 60, v->dport);
		cx_pkt_parse(f, len, &pkt);
		cfg.l3_prot_type = MLX5_L3_PROT_TYPE_IPV6;
		cfg.selected_fields = MLX5_HASH_FIELD_SEL_SRC_IP |
				      MLX5_HASH_FIELD_SEL_DST_IP;
		h = cx_rss_hash(&cfg, f, &pkt, &ht);
		good_frame += h == v->ip && ht == CQE_RSS_IPV6 << 2;
	}
	ok(good_ip == CX_ARRAY(v6vecs), "Toeplitz: Microsoft IPv6 vectors");
	ok(good_tcp == CX_ARRAY(v6vecs), "Toeplitz: Microsoft IPv6/TCP vectors");
	ok(good_frame == CX_ARRAY(v6vecs), "RSS over tagged frames: IPv6 L3-only TIR");

	/* a TCP TIR seeing UDP hashes the addresses only */
	len = build(f, false, true, 0, 10, 0, true);
	cx_pkt_parse(f, len, &pkt);
	cfg.l3_prot_type = MLX5_L3_PROT_TYPE_IPV4;
	cfg.l4_prot_type = MLX5_L4_PROT_TYPE_TCP;
	cfg.selected_fields = 0xf;
	h = cx_rss_hash(&cfg, f, &pkt, &ht);
	ok(h == cx_toeplitz(ms_key, f + 26, 8) && ht == CQE_RSS_IPV4 << 2,
	   "L4 mismatch: L3 hash and type");
	cfg.l3_prot_type = MLX5_L3_PROT_TYPE_IPV6;
	h = cx_rss_hash(&cfg, f, &pkt, &ht);
	ok(h == 0 && ht == 0, "L3 mismatch: no hash");
	cfg.l3_prot_type = MLX5_L3_PROT_TYPE_IPV4;
	cfg.l4_prot_type = MLX5_L4_PROT_TYPE_UDP;
	cfg.symmetric = true;
	h = cx_rss_hash(&cfg, f, &pkt, &ht);
	memcpy(in, f + 26, 4);
	memcpy(f + 26, f + 30, 4);
	memcpy(f + 30, in, 4);
	memcpy(in, f + 34, 2);
	memcpy(f + 34, f + 36, 2);
	memcpy(f + 36, in, 2);
	h2 = cx_rss_hash(&cfg, f, &pkt, &ht);
	ok(h == h2 && ht == (CQE_RSS_IPV4 << 2 | CQE_RSS_L4_UDP << 6),
	   "symmetric hash: both directions alike");
	cfg.symmetric = false;
	ok(cx_rss_hash(&cfg, f, &pkt, &ht) != h, "asymmetric hash differs");
	/* fragments never hash ports */
	len = build(f, false, false, 0, 10, 0, true);
	put16(f + 20, 0x2000);	/* MF */
	cx_pkt_parse(f, len, &pkt);
	cfg.l4_prot_type = MLX5_L4_PROT_TYPE_TCP;
	cx_rss_hash(&cfg, f, &pkt, &ht);
	ok(pkt.frag && ht == CQE_RSS_IPV4 << 2, "IPv4 fragment: L3 hash only");
}

/* ---- CQEs ---- */

static void test_cqe(void)
{
	/* A 4-entry CQ, initialised the way mlx5e_alloc_cq_common does. */
	uint8_t ring[4][64];
	uint32_t pi, ci = 0, seen = 0, bad = 0;
	struct mlx5_cqe64 *c;
	struct mlx5_err_cqe *e;
	struct cx_cqe_rx rx = { 0 };
	struct cx_rx_class rc;
	uint8_t f[256];
	size_t len;
	int lap;

	for (pi = 0; pi < 4; pi++)
		((struct mlx5_cqe64 *)ring[pi])->op_own = 0xf1;
	ok(cx_cqe_owner(0, 2) == 0 && cx_cqe_owner(3, 2) == 0 &&
	   cx_cqe_owner(4, 2) == 1 && cx_cqe_owner(8, 2) == 0,
	   "owner bit = (pi >> log_cq_sz) & 1");
	/* Two laps, consumer polling like mlx5_cqwq_get_cqe(). */
	pi = 0;
	for (lap = 0; lap < 3; lap++) {
		uint32_t k;

		for (k = 0; k < 4; k++, pi++)
			cx_cqe_tx(ring[cx_cqe_index(pi, 2)], pi, 2,
				  MLX5_OPCODE_SEND, (uint16_t)pi, SQN, pi);
		for (;;) {
			c = (struct mlx5_cqe64 *)ring[ci & 3];
			if ((c->op_own & MLX5_CQE_OWNER_MASK) != ((ci >> 2) & 1))
				break;
			if (get_cqe_opcode(c) != MLX5_CQE_REQ ||
			    be16_to_cpu(c->wqe_counter) != (uint16_t)ci)
				bad++;
			ci++;
			seen++;
		}
	}
	ok(seen == 12 && !bad, "driver-side polling sees every CQE over three laps");
	c = (struct mlx5_cqe64 *)ring[0];
	ok((c->op_own & 1) == 0 && ((struct mlx5_cqe64 *)ring[1])->op_own ==
	   (MLX5_CQE_REQ << 4), "third lap owner 0 again");
	/* nothing new: the stale CQE of the previous lap is not seen */
	c = (struct mlx5_cqe64 *)ring[ci & 3];
	ok((c->op_own & MLX5_CQE_OWNER_MASK) != ((ci >> 2) & 1),
	   "a stale CQE is not consumed");

	cx_cqe_tx(f, 5, 2, MLX5_OPCODE_LSO, 0xbeef, SQN, 0x0102030405060708ULL);
	c = (struct mlx5_cqe64 *)f;
	ok(get_cqe_opcode(c) == MLX5_CQE_REQ && (c->op_own & 1) == 1 &&
	   mlx5_get_cqe_format(c) == 0 && be16_to_cpu(c->wqe_counter) == 0xbeef &&
	   be32_to_cpu(c->sop_drop_qpn) == (MLX5_OPCODE_LSO << 24 | SQN) &&
	   get_cqe_ts(c) == 0x0102030405060708ULL, "TX CQE fields");

	cx_cqe_tx_err(f, 1, 2, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, 0x33,
		      MLX5_OPCODE_SEND, 7, SQN);
	e = (struct mlx5_err_cqe *)f;
	ok(get_cqe_opcode((struct mlx5_cqe64 *)f) == MLX5_CQE_REQ_ERR &&
	   e->syndrome == MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR &&
	   e->vendor_err_synd == 0x33 && be16_to_cpu(e->wqe_counter) == 7 &&
	   be32_to_cpu(e->s_wqe_opcode_qpn) == (MLX5_OPCODE_SEND << 24 | SQN) &&
	   (e->op_own & 1) == 0, "TX error CQE fields");
	cx_cqe_rx_err(f, 4, 2, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, 9, 0x55);
	ok(get_cqe_opcode((struct mlx5_cqe64 *)f) == MLX5_CQE_RESP_ERR &&
	   (e->op_own & 1) == 1 && be16_to_cpu(e->wqe_counter) == 9,
	   "RX error CQE fields");

	len = build(f + 64, false, false, 0, 100, 0x18, true);
	cx_rx_classify(f + 64, len, false, &rc);
	rx.byte_cnt = (uint32_t)len;
	rx.wqe_counter = 42;
	rx.rqn = 0x77;
	rx.flow_tag = 0;
	rx.rss_hash = 0xdeadbeef;
	rx.rss_hash_type = CQE_RSS_IPV4 << 2 | CQE_RSS_L4_TCP << 6;
	rx.rc = &rc;
	rx.vlan_stripped = true;
	rx.vlan_tci = 0x2005;
	cx_cqe_rx(f, 0, 3, &rx);
	c = (struct mlx5_cqe64 *)f;
	ok(get_cqe_opcode(c) == MLX5_CQE_RESP_SEND && (c->op_own & 1) == 0 &&
	   be32_to_cpu(c->byte_cnt) == len && be16_to_cpu(c->wqe_counter) == 42 &&
	   be32_to_cpu(c->rss_hash_result) == 0xdeadbeef &&
	   c->rss_hash_type == rx.rss_hash_type, "RX CQE: counts and hash");
	ok(get_cqe_l4_hdr_type(c) == CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA &&
	   ((c->l4_l3_hdr_type >> 2) & 3) == CX_CQE_L3_HDR_IPV4 &&
	   (c->hds_ip_ext & (CQE_L3_OK | CQE_L4_OK)) == (CQE_L3_OK | CQE_L4_OK),
	   "RX CQE: header types and checksum flags");
	ok(cqe_has_vlan(c) && be16_to_cpu(c->vlan_info) == 0x2005 &&
	   (be32_to_cpu(c->sop_drop_qpn) & 0xffffff) == 0 &&
	   get_cqe_lro_tcppsh(c) == 0 && (be32_to_cpu(c->srqn) >> 24) == 0,
	   "RX CQE: VLAN, no flow tag (skb->mark 0), no LRO");
	/* csum_unfold((__force __sum16)cqe->check_sum) on a LE host */
	ok(c->check_sum == __builtin_bswap16(rc.check_sum) &&
	   be16_to_cpu(c->check_sum) == rc.check_sum,
	   "RX CQE: check_sum in network order");

	memset(&rx, 0, sizeof(rx));
	rx.striding = true;
	rx.byte_cnt = 1500;
	rx.consumed_strides = 24;
	rx.wqe_counter = 100;
	rx.wqe_id = 3;
	rx.rc = &rc;
	cx_cqe_rx(f, 0, 3, &rx);
	ok(mpwrq_get_cqe_byte_cnt(c) == 1500 &&
	   mpwrq_get_cqe_consumed_strides(c) == 24 && !mpwrq_is_filler_cqe(c) &&
	   mpwrq_get_cqe_stride_index(c) == 100 && be16_to_cpu(c->wqe_id) == 3,
	   "striding RX CQE: byte count, strides, stride index, WQE id");
	rx.filler = true;
	rx.consumed_strides = 7;
	cx_cqe_rx(f, 0, 3, &rx);
	ok(mpwrq_is_filler_cqe(c) && mpwrq_get_cqe_consumed_strides(c) == 7 &&
	   mpwrq_get_cqe_byte_cnt(c) == 0 && c->hds_ip_ext == 0,
	   "filler CQE: flag and strides, nothing else");
}

static void test_mpwrq(void)
{
	struct cx_mpwrq_geom g = { .log_num_strides = 6, .log_stride_sz = 6 };
	struct cx_mpwrq_place p;
	uint32_t cur = 0;

	/* 64 strides of 64 bytes */
	ok(cx_mpwrq_place(&g, cur, 1500, &p) == CX_MPWRQ_PLACED &&
	   p.stride == 0 && p.strides == 24 && p.offset == 0 && !p.wqe_done,
	   "1500 bytes take 24 strides at the start");
	cur += p.strides;
	ok(cx_mpwrq_place(&g, cur, 64, &p) == CX_MPWRQ_PLACED &&
	   p.stride == 24 && p.strides == 1 && p.offset == 24 * 64,
	   "exactly one stride");
	cur += p.strides;
	ok(cx_mpwrq_place(&g, cur, 1500, &p) == CX_MPWRQ_PLACED &&
	   p.strides == 24 && p.offset == 25 * 64 && !p.wqe_done,
	   "third frame");
	cur += p.strides;	/* 49 used, 15 left */
	ok(cx_mpwrq_place(&g, cur, 1500, &p) == CX_MPWRQ_FILLER &&
	   p.stride == 49 && p.strides == 15 && p.wqe_done,
	   "no room: filler CQE for the 15 strides left");
	cur = 0;
	ok(cx_mpwrq_place(&g, cur, 1500, &p) == CX_MPWRQ_PLACED && p.stride == 0,
	   "then the frame goes to the next WQE");
	ok(cx_mpwrq_place(&g, 40, 24 * 64, &p) == CX_MPWRQ_PLACED && p.wqe_done,
	   "the frame that fills the last stride exhausts the WQE");
	ok(cx_mpwrq_place(&g, 0, 64 * 64 + 1, &p) == CX_MPWRQ_TOO_BIG,
	   "larger than the WQE: too big");
	ok(cx_mpwrq_place(&g, 64, 10, &p) == CX_MPWRQ_BAD &&
	   cx_mpwrq_place(&g, 0, 0, &p) == CX_MPWRQ_BAD,
	   "stride index past the WQE, or empty frame: bad");
	g.log_stride_sz = 14;
	ok(cx_mpwrq_place(&g, 0, 10, &p) == CX_MPWRQ_BAD, "stride size 16K: bad geometry");
	g.log_stride_sz = 6;
	g.log_num_strides = 16;
	ok(cx_mpwrq_place(&g, 1, 2000, &p) == CX_MPWRQ_PLACED && p.offset == 64,
	   "65536 strides");
	ok(cx_mpwrq_place(&g, 2, 65535, &p) == CX_MPWRQ_PLACED && p.strides == 1024,
	   "64 KiB frame in 1024 strides");
	ok(cx_mpwrq_place(&g, 65535 - 10, 65535, &p) == CX_MPWRQ_FILLER &&
	   p.strides == 11 && p.wqe_done, "small rest: one filler");
	ok(cx_mpwrq_place(&g, 1, 65535, &p) == CX_MPWRQ_PLACED,
	   "fits in the rest");
	ok(cx_mpwrq_place(&g, 65536 - 1000, 0xffff, &p) == CX_MPWRQ_FILLER &&
	   p.strides == 1000 && p.wqe_done && p.offset == (65536 - 1000) * 64,
	   "filler at the end of a 65536-stride WQE");
}

/* ---- send WQEs ---- */

static const uint64_t ring_pas[4] = {
	RING_BASE + 0x3000, RING_BASE, RING_BASE + 0x2000, RING_BASE + 0x1000 };
static uint8_t pktbuf[512 << 10];
static uint8_t scratch[CX_LSO_MAX_HDR + 65536];
#define CSUM_BOTH (MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM)
static struct cx_wqe wq;

static struct cx_sq_ring sq_ring(void)
{
	struct cx_sq_ring sq = {
		.rd = mem_rd, .pas = ring_pas, .npas = 4, .log_page_sz = 12,
		.log_wq_sz = LOG_WQ_SZ, .sqn = SQN, .mpwqe = true,
	};
	return sq;
}

static uint64_t bb_addr(uint32_t ctr)
{
	uint32_t off = (ctr & ((1u << LOG_WQ_SZ) - 1)) * 64;

	return ring_pas[off >> 12] + (off & 0xfff);
}

/* Write @ds segments of @w as the WQE at counter @ctr (wrapping). */
static void post(uint16_t ctr, uint8_t *w, uint8_t opcode, uint8_t ds,
		 uint8_t fm_ce_se)
{
	unsigned int i, bbs = (ds + 3) / 4;

	put32(w, (uint32_t)ctr << 8 | opcode);
	put32(w + 4, SQN << 8 | ds);
	w[11] = fm_ce_se;
	for (i = 0; i < (bbs ? bbs : 1); i++)
		memcpy(mem + bb_addr((uint32_t)ctr + i), w + i * 64, 64);
}

static void dseg(uint8_t *p, uint32_t len, uint64_t addr)
{
	put32(p, len);
	put32(p + 4, 0x100);
	put64(p + 8, addr);
}

/* Collects what cx_tx_emit() sends. */
struct sink {
	unsigned int n;
	size_t len[64];
	uint8_t frame[64][2048];
};
static struct sink sink;

static void sink_frame(void *ctx, const uint8_t *f, size_t len)
{
	struct sink *s = ctx;

	if (s->n < 64 && len <= sizeof(s->frame[0]))
		memcpy(s->frame[s->n], f, len);
	if (s->n < 64)
		s->len[s->n] = len;
	s->n++;
}

static int decode(struct cx_sq_ring *sq, uint16_t cc, uint16_t pc)
{
	return cx_wqe_decode(sq, cc, pc, pktbuf, sizeof(pktbuf), &wq);
}

static void test_send(void)
{
	struct cx_sq_ring sq = sq_ring();
	uint8_t f[2048], w[1024];
	unsigned int n, good = 0, good_emit = 0;
	size_t len;
	uint16_t cc = 10;

	len = build(f, false, false, 0, 300, 0x18, false);
	for (n = 1; n <= 3; n++) {
		size_t rest = len - 18, chunk = rest / n, off = 18;
		unsigned int i, ds = 3 + n;

		memset(w, 0, sizeof(w));
		w[16 + 4] = MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM;
		put16(w + 28, 18);
		memcpy(w + 30, f, 18);
		for (i = 0; i < n; i++) {
			size_t l = i + 1 == n ? len - off : chunk;

			memcpy(mem + DATA_BASE + 0x1000 * i + 5, f + off, l);
			dseg(w + 48 + 16 * i, (uint32_t)l, DATA_BASE + 0x1000 * i + 5);
			off += l;
		}
		post(cc, w, MLX5_OPCODE_SEND, (uint8_t)ds, MLX5_WQE_CTRL_CQ_UPDATE);
		if (decode(&sq, cc, (uint16_t)(cc + 2)) == CX_WQE_OK &&
		    wq.opcode == MLX5_OPCODE_SEND && wq.wqe_index == cc &&
		    wq.qpn == SQN && wq.ds_cnt == ds && wq.wqebbs == (ds + 3) / 4 &&
		    wq.cqe_req && wq.npkts == 1 && wq.pkt[0].len == len &&
		    !memcmp(pktbuf + wq.pkt[0].off, f, len) &&
		    wq.desc_bytes == wq.wqebbs * 64u &&
		    wq.payload_bytes == len - 18 && wq.inline_hdr_sz == 18)
			good++;
		sink.n = 0;
		if (cx_tx_emit(&wq, pktbuf, scratch, sizeof(scratch), sink_frame,
			       &sink) == 1 && sink.n == 1 && sink.len[0] == len &&
		    l4_valid(sink.frame[0], len))
			good_emit++;
		cc = (uint16_t)(cc + wq.wqebbs);
	}
	ok(good == 3, "SEND: inline header + 1, 2, 3 gathers reassemble the frame");
	ok(good_emit == 3, "SEND: checksum offload applied on emit");

	/* no CQE requested; short frame padded to 60 */
	memset(w, 0, sizeof(w));
	memcpy(mem + DATA_BASE, f, 42);
	dseg(w + 32, 42, DATA_BASE);
	post(cc, w, MLX5_OPCODE_SEND, 3, 0);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_OK && !wq.cqe_req &&
	   wq.pkt[0].len == 60 && !memcmp(pktbuf, f, 42) &&
	   !pktbuf[59] && wq.inline_hdr_sz == 0 && wq.payload_bytes == 42,
	   "SEND without inline header: 42 bytes padded to 60, no CQE asked");

	/* VLAN insertion from the eseg */
	memset(w, 0, sizeof(w));
	memcpy(mem + DATA_BASE, f, len);
	dseg(w + 32, (uint32_t)len, DATA_BASE);
	put16(w + 28, MLX5_ETH_WQE_INSERT_VLAN);
	put16(w + 30, 0x3007);
	post(cc, w, MLX5_OPCODE_SEND, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_OK && wq.vlan_insert &&
	   wq.pkt[0].len == len + 4 && get16(pktbuf + 12) == 0x8100 &&
	   get16(pktbuf + 14) == 0x3007 && !memcmp(pktbuf + 16, f + 12, len - 12),
	   "SEND with VLAN insertion: 802.1Q tag after the MACs");
	put16(w + 28, MLX5_ETH_WQE_INSERT_VLAN | MLX5_ETH_WQE_SVLAN);
	post(cc, w, MLX5_OPCODE_SEND, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_OK &&
	   get16(pktbuf + 12) == 0x88a8, "SVLAN insertion: 802.1ad tag");

	/* NOP */
	memset(w, 0, sizeof(w));
	post(cc, w, MLX5_OPCODE_NOP, 1, 0);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_OK && wq.wqebbs == 1 &&
	   wq.npkts == 0 && wq.desc_bytes == 64 && !wq.cqe_req,
	   "NOP: one WQEBB, nothing sent");
	ok(decode(&sq, cc, cc) == CX_WQE_EMPTY, "cc == pc: empty");

	/* a WQE that wraps the ring end: 100-byte inline header, 3 WQEBBs */
	cc = (1u << LOG_WQ_SZ) * 3 - 1;		/* index 255 */
	memset(w, 0, sizeof(w));
	w[20] = MLX5_ETH_WQE_L4_CSUM;
	put16(w + 28, 100);
	memcpy(w + 30, f, 100);
	memcpy(mem + DATA_BASE + 0x800, f + 100, len - 100);
	dseg(w + 32 + 7 * 16, (uint32_t)(len - 100), DATA_BASE + 0x800);
	post(cc, w, MLX5_OPCODE_SEND, 10, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 3)) == CX_WQE_OK && wq.wqebbs == 3 &&
	   wq.pkt[0].len == len && !memcmp(pktbuf, f, len) &&
	   wq.desc_bytes == 192, "WQE wrapping the ring end (255, 0, 1)");
	ok(bb_addr(cc) == RING_BASE + 0x1000 + 0xfc0 && bb_addr(cc + 1) == RING_BASE + 0x3000,
	   "(the ring's pages are scattered)");
	/* 16-bit counter wrap too */
	cc = 0xffff;
	post(cc, w, MLX5_OPCODE_SEND, 10, 8);
	ok(decode(&sq, cc, 2) == CX_WQE_OK && wq.wqe_index == 0xffff &&
	   wq.pkt[0].len == len, "counter wrap 0xffff -> 2");

}

static int ring_map(void *ctx, uint32_t idx, uint64_t *addr)
{
	(void)ctx;
	*addr = bb_addr(idx);
	return idx == 7 ? -1 : 0;
}

static void test_map(void)
{
	struct cx_sq_ring sq = sq_ring();
	uint8_t w[1024] = { 0 };

	sq.map = ring_map;
	sq.pas = NULL;
	post(5, w, MLX5_OPCODE_NOP, 1, 8);
	ok(decode(&sq, 5, 6) == CX_WQE_OK && wq.cqe_req, "map callback fetches WQEs");
	post(6, w, MLX5_OPCODE_NOP, 8, 8);
	ok(decode(&sq, 6, 8) == CX_WQE_E_DMA && wq.wqe_index == 6 &&
	   wq.syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
	   "map failure on the 2nd WQEBB: LOCAL_PROT_ERR");
	ok(decode(&sq, 7, 8) == CX_WQE_E_DMA && wq.wqe_index == 7 && wq.opcode == 0,
	   "map failure on the ctrl WQEBB: wqe_index from cc");
}

static void test_mpwqe(void)
{
	struct cx_sq_ring sq = sq_ring();
	uint8_t f[5][512], w[1024];
	size_t len[5];
	unsigned int i, good = 0;
	uint32_t p = 32, payload = 0;
	uint16_t cc = 40;

	memset(w, 0, sizeof(w));
	w[20] = MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM;
	len[0] = build(f[0], false, false, 0, 200, 0x18, false);
	len[1] = build(f[1], false, true, 0, 18, 0, false);	/* 60 bytes */
	len[2] = build(f[2], true, false, 0, 300, 0x10, false);
	len[3] = build(f[3], true, true, 0, 38, 0, false);	/* 100 bytes */
	len[4] = build(f[4], false, false, 0, 1, 0x10, false);	/* 55: padded */
	for (i = 0; i < 5; i++) {
		if (i == 1 || i == 3) {
			put32(w + p, (uint32_t)len[i] | MLX5_INLINE_SEG);
			memcpy(w + p + 4, f[i], len[i]);
			p += (uint32_t)((4 + len[i] + 15) / 16 * 16);
		} else {
			memcpy(mem + DATA_BASE + 0x1000 * i, f[i], len[i]);
			dseg(w + p, (uint32_t)len[i], DATA_BASE + 0x1000 * i);
			payload += (uint32_t)len[i];
			p += 16;
		}
	}
	post(cc, w, MLX5_OPCODE_ENHANCED_MPSW, (uint8_t)(p / 16), 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 8)) == CX_WQE_OK &&
	   wq.opcode == MLX5_OPCODE_ENHANCED_MPSW && wq.npkts == 5 &&
	   wq.wqebbs == (p / 16 + 3) / 4 && wq.payload_bytes == payload &&
	   wq.desc_bytes == wq.wqebbs * 64u, "MPWQE: 3 data + 2 inline packets");
	for (i = 0; i < 5; i++)
		good += wq.pkt[i].len == (len[i] < 60 ? 60 : len[i]) &&
			!memcmp(pktbuf + wq.pkt[i].off, f[i], len[i]);
	ok(good == 5, "MPWQE: every packet intact, in order, short one padded");
	sink.n = 0;
	good = 0;
	ok(cx_tx_emit(&wq, pktbuf, scratch, sizeof(scratch), sink_frame, &sink) == 5,
	   "MPWQE: five frames emitted");
	for (i = 0; i < 5; i++)
		good += l4_valid(sink.frame[i], sink.len[i]);
	ok(good == 5, "MPWQE: shared eseg checksum flags apply to each packet");

	sq.mpwqe = false;
	ok(decode(&sq, cc, (uint16_t)(cc + 8)) == CX_WQE_E_OPCODE &&
	   wq.syndrome == MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
	   "MPWQE off (ConnectX-4): unsupported opcode");
	sq.mpwqe = true;
	put16(w + 28, 14);
	post(cc, w, MLX5_OPCODE_ENHANCED_MPSW, (uint8_t)(p / 16), 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 8)) == CX_WQE_E_MPW,
	   "MPWQE with an inline header: refused");
	put16(w + 28, 0);
	post(cc, w, MLX5_OPCODE_ENHANCED_MPSW, 2, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 8)) == CX_WQE_E_MPW,
	   "MPWQE without packets: refused");
	put32(w + 32, MLX5_INLINE_SEG);
	post(cc, w, MLX5_OPCODE_ENHANCED_MPSW, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 8)) == CX_WQE_E_LEN,
	   "MPWQE with an empty inline packet: LOCAL_LENGTH_ERR");
	put32(w + 32, MLX5_INLINE_SEG | 200);
	post(cc, w, MLX5_OPCODE_ENHANCED_MPSW, 4, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 8)) == CX_WQE_E_INLINE &&
	   wq.syndrome == MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,
	   "MPWQE inline packet past ds_cnt: LOCAL_LENGTH_ERR");
	put32(w + 32, MLX5_INLINE_SEG | 0x400 | 8);
	post(cc, w, MLX5_OPCODE_ENHANCED_MPSW, 4, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 8)) == CX_WQE_E_INLINE,
	   "inline segment with stray length bits: refused");
}

/*
 * MPWQE as mlx5e's XDP SQ builds it behind (upstream en/xdp.h): inline
 * segments (byte_count | MLX5_INLINE_SEG, the frame, padded to 16 bytes)
 * of up to 252 bytes (16 segments) between data segments, a session of up
 * to 15 WQEBBs; the device may be given one across the ring's end.
 */
static void test_mpwqe_inline(void)
{
	struct cx_sq_ring sq = sq_ring();
	enum { n = 12 };	/* frames: 9 inline, every 4th a data segment */
	static const uint32_t plen[n] = { 18, 19, 210, 18, 40, 18, 18, 18,
					  18, 18, 18, 18 };
	uint8_t f[16][512], w[1024];
	size_t len[16];
	unsigned int i, good = 0;
	uint32_t p = 32, payload = 0, inl = 0;
	uint16_t cc = (1u << LOG_WQ_SZ) - 3;	/* wraps after 3 WQEBBs */

	memset(w, 0xa5, sizeof(w));		/* stale ring bytes in the pads */
	memset(w, 0, 32);
	for (i = 0; i < n; i++) {
		len[i] = build(f[i], false, true, 0, plen[i], 0, false);
		f[i][40] = (uint8_t)i;		/* UDP checksum byte: tells them apart */
		if (i % 4 == 3) {
			memcpy(mem + DATA_BASE + 0x1000 * i, f[i], len[i]);
			dseg(w + p, (uint32_t)len[i], DATA_BASE + 0x1000 * i);
			payload += (uint32_t)len[i];
			p += 16;
		} else {
			put32(w + p, (uint32_t)len[i] | MLX5_INLINE_SEG);
			memcpy(w + p + 4, f[i], len[i]);
			p += (uint32_t)((4 + len[i] + 15) / 16 * 16);
			inl++;
		}
	}
	ok(p / 16 <= 60 && len[2] == 252, "inline session layout fits 15 WQEBBs, a 252-byte frame");
	post(cc, w, MLX5_OPCODE_ENHANCED_MPSW, (uint8_t)(p / 16), 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 15)) == CX_WQE_OK &&
	   wq.npkts == n && wq.payload_bytes == payload &&
	   wq.desc_bytes == wq.wqebbs * 64u,
	   "MPWQE across the ring end: inline and data segments, only the data segments read");
	for (i = 0; i < n && i < wq.npkts; i++)
		good += wq.pkt[i].len == len[i] &&
			!memcmp(pktbuf + wq.pkt[i].off, f[i], len[i]);
	ok(good == n && inl == 9,
	   "MPWQE inline: every frame byte-exact, the next segment after the 16-byte pad");

	/* 252 bytes in 16 segments end at ds_cnt; 253 would need a 17th. */
	memset(w, 0, sizeof(w));
	put32(w + 32, 252 | MLX5_INLINE_SEG);
	memcpy(w + 36, f[2], 252);
	post(cc, w, MLX5_OPCODE_ENHANCED_MPSW, 18, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 8)) == CX_WQE_OK && wq.npkts == 1 &&
	   wq.pkt[0].len == 252 && !memcmp(pktbuf + wq.pkt[0].off, f[2], 252),
	   "MPWQE: a 252-byte inline frame in 16 segments");
	put32(w + 32, 253 | MLX5_INLINE_SEG);
	post(cc, w, MLX5_OPCODE_ENHANCED_MPSW, 18, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 8)) == CX_WQE_E_INLINE &&
	   wq.syndrome == MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,
	   "MPWQE: inline data one byte past ds_cnt: LOCAL_LENGTH_ERR");
}

/*
 * Segment @i of a UDP LSO of @sp (@hlen header bytes, segments of @mss,
 * @nsegs of them): IP length and id, the UDP header as in @sp but its
 * checksum, which must verify, the payload in order.
 */
static bool udp_seg_ok(const uint8_t *s, size_t slen, const uint8_t *sp,
		       bool v6, size_t l3, unsigned int i, unsigned int nsegs,
		       uint16_t mss, size_t hlen, size_t splen)
{
	size_t l4 = l3 + (v6 ? 40 : 20);
	size_t plen = i + 1 < nsegs ? mss : splen - hlen - (size_t)mss * i;

	if (slen != (hlen + plen < 60 ? 60 : hlen + plen))
		return false;
	if (memcmp(s + hlen, sp + hlen + (size_t)mss * i, plen) ||
	    memcmp(s + l4, sp + l4, 6))
		return false;
	if (v6 ? get16(s + l3 + 4) != hlen + plen - l3 - 40 :
		 get16(s + l3 + 2) != hlen + plen - l3 ||
		 get16(s + l3 + 4) != (uint16_t)(get16(sp + l3 + 4) + i))
		return false;
	return get16(s + l4 + 6) && l4_valid(s, slen);
}

/* An LSO WQE of @f (@len bytes): @ihs inline, the rest in one gather. */
static int lso_wqe(struct cx_sq_ring *sq, uint16_t cc, const uint8_t *f,
		   size_t len, uint16_t ihs, uint16_t mss, uint8_t cs_flags)
{
	uint8_t w[256];
	uint8_t ds = (uint8_t)(2 + (ihs - 2 + 15) / 16 + 1);

	memset(w, 0, sizeof(w));
	w[20] = cs_flags;
	put16(w + 22, mss);
	put16(w + 28, ihs);
	memcpy(w + 30, f, ihs);
	memcpy(mem + DATA_BASE, f + ihs, len - ihs);
	dseg(w + (ds - 1) * 16, (uint32_t)(len - ihs), DATA_BASE);
	post(cc, w, MLX5_OPCODE_LSO, ds, 8);
	return decode(sq, cc, (uint16_t)(cc + (ds + 3) / 4));
}

/*
 * UDP segmentation (NETIF_F_GSO_UDP_L4) as mlx5e asks it: the UDP length
 * one segment's, the IP length too (GSO_PARTIAL), only full segments.
 */
static void test_lso_udp(void)
{
	struct cx_sq_ring sq = sq_ring();
	unsigned int i, v6, good;
	struct cx_pkt pkt;
	uint8_t f[8192];
	uint16_t c0, word;
	size_t len, l3 = 14, l4, hlen;

	for (v6 = 0; v6 < 2; v6++) {
		l4 = l3 + (v6 ? 40 : 20);
		hlen = l4 + 8;
		len = build(f, v6, true, 0, 3000, 0, false);
		put16(f + l4 + 4, 1000 + 8);
		put16(f + l3 + (v6 ? 4 : 2), (uint16_t)(1000 + 8 + (v6 ? 0 : 20)));
		ok(lso_wqe(&sq, 70, f, len, (uint16_t)hlen, 1000, CSUM_BOTH) ==
		   CX_WQE_OK && wq.pkt[0].len == len, v6 ?
		   "UDP/IPv6 LSO WQE: super-packet assembled" :
		   "UDP/IPv4 LSO WQE: super-packet assembled");
		sink.n = 0;
		good = cx_tx_emit(&wq, pktbuf, scratch, sizeof(scratch),
				  sink_frame, &sink) == 3 && sink.n == 3;
		for (i = 0; i < 3; i++)
			good += udp_seg_ok(sink.frame[i], sink.len[i], f, v6, l3,
					   i, 3, 1000, hlen, len);
		ok(good == 4, v6 ?
		   "UDP/IPv6 LSO: 3 segments, payload length, UDP length, checksums" :
		   "UDP/IPv4 LSO: 3 segments, total length, id, UDP length, checksums");
	}

	/* a short last segment keeps the replicated UDP length */
	len = build(f, false, true, 0, 2500, 0, false);
	put16(f + 34 + 4, 1000 + 8);
	sink.n = 0;
	ok(cx_lso_segment(f, len, 1000, CSUM_BOTH, scratch, sizeof(scratch),
			  sink_frame, &sink) == 3 &&
	   get16(sink.frame[2] + 16) == 20 + 8 + 500 &&
	   get16(sink.frame[2] + 34 + 4) == 1000 + 8,
	   "UDP LSO: the UDP header is replicated, length included");

	/* no checksum flags: the super-packet's fields go out as they are */
	len = build(f, false, true, 0, 2000, 0, false);
	put16(f + 34 + 4, 1000 + 8);
	sink.n = 0;
	ok(cx_lso_segment(f, len, 1000, 0, scratch, sizeof(scratch),
			  sink_frame, &sink) == 2 &&
	   get16(sink.frame[1] + 24) == get16(f + 24) &&
	   get16(sink.frame[1] + 34 + 6) == get16(f + 34 + 6) &&
	   get16(sink.frame[1] + 18) == 0x1001,
	   "UDP LSO without cs_flags: checksum fields left as given");
	sink.n = 0;
	ok(cx_lso_segment(f, len, 1000, MLX5_ETH_WQE_L4_CSUM, scratch,
			  sizeof(scratch), sink_frame, &sink) == 2 &&
	   get16(sink.frame[1] + 24) == get16(f + 24) &&
	   !cx_pkt_parse(sink.frame[0], sink.len[0], &pkt) &&
	   cx_csum_fold(cx_csum_add(cx_csum_pseudo(sink.frame[0], &pkt, 1008),
				    sink.frame[0] + 34, 1008)) == 0xffff &&
	   get16(sink.frame[1] + 34 + 6) != get16(f + 34 + 6),
	   "UDP LSO with L4_CSUM only: UDP checksum per segment, IPv4's not");

	/* a segment whose UDP checksum computes to 0 sends 0xffff */
	sink.n = 0;
	cx_lso_segment(f, len, 1000, CSUM_BOTH, scratch, sizeof(scratch),
		       sink_frame, &sink);
	c0 = get16(sink.frame[0] + 34 + 6);
	word = cx_csum_fold((uint32_t)get16(f + 42) + c0);
	put16(f + 42, word);
	sink.n = 0;
	ok(cx_lso_segment(f, len, 1000, CSUM_BOTH, scratch, sizeof(scratch),
			  sink_frame, &sink) == 2 &&
	   get16(sink.frame[0] + 34 + 6) == 0xffff &&
	   l4_valid(sink.frame[0], sink.len[0]),
	   "UDP LSO: a checksum of 0 goes out as 0xffff, and verifies");
}

static bool seg_ok(const uint8_t *s, size_t slen, const uint8_t *sp, bool v6,
		   size_t l3, unsigned int i, unsigned int nsegs, uint16_t mss,
		   size_t hlen, size_t splen)
{
	size_t l4 = l3 + (v6 ? 40 : 20);
	size_t plen = i + 1 < nsegs ? mss : splen - hlen - (size_t)mss * i;
	uint8_t fl = sp[l4 + 13];

	if (slen != hlen + plen)
		return false;
	if (memcmp(s + hlen, sp + hlen + (size_t)mss * i, plen))
		return false;
	if (v6 ? get16(s + l3 + 4) != slen - l3 - 40 :
		 get16(s + l3 + 2) != slen - l3 ||
		 get16(s + l3 + 4) != (uint16_t)(get16(sp + l3 + 4) + i))
		return false;
	if (get32(s + l4 + 4) != get32(sp + l4 + 4) + (uint32_t)mss * i)
		return false;
	if (i + 1 < nsegs)
		fl &= ~0x09;
	if (i)
		fl &= ~0x80;
	return s[l4 + 13] == fl && l4_valid(s, slen);
}

static void test_lso(void)
{
	struct cx_sq_ring sq = sq_ring();
	uint8_t f[8192], w[1024];
	unsigned int i, good = 0;
	size_t len;
	uint16_t cc = 60;

	/* IPv4: 54-byte inline header, payload in 2 gathers, 3 segments */
	len = build(f, false, false, 0, 2900, 0x80 | 0x18 | 0x01, false);
	memset(w, 0, sizeof(w));
	w[20] = MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM;
	put16(w + 22, 1000);
	put16(w + 28, 54);
	memcpy(w + 30, f, 54);
	memcpy(mem + DATA_BASE, f + 54, 1500);
	memcpy(mem + DATA_BASE + 0x4000, f + 54 + 1500, len - 54 - 1500);
	dseg(w + 32 + 64, 1500, DATA_BASE);
	dseg(w + 32 + 80, (uint32_t)(len - 54 - 1500), DATA_BASE + 0x4000);
	post(cc, w, MLX5_OPCODE_LSO, 8, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 2)) == CX_WQE_OK &&
	   wq.opcode == MLX5_OPCODE_LSO && wq.mss == 1000 && wq.npkts == 1 &&
	   wq.pkt[0].len == len && wq.payload_bytes == 2900,
	   "LSO WQE: super-packet assembled, MSS read");
	sink.n = 0;
	ok(cx_tx_emit(&wq, pktbuf, scratch, sizeof(scratch), sink_frame, &sink) == 3 &&
	   sink.n == 3, "LSO IPv4: three segments");
	for (i = 0; i < 3; i++)
		good += seg_ok(sink.frame[i], sink.len[i], f, false, 14, i, 3, 1000,
			       54, len);
	ok(good == 3, "LSO IPv4: lengths, ids, seq (wrapping), flags, checksums");

	/* IPv6 with the header gathered and the VLAN inserted by the eseg */
	len = build(f, true, false, 0, 2500, 0x18, false);
	memset(w, 0, sizeof(w));
	w[20] = MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM;
	put16(w + 22, 1220);
	put16(w + 28, MLX5_ETH_WQE_INSERT_VLAN);
	put16(w + 30, 42);
	memcpy(mem + DATA_BASE, f, len);
	dseg(w + 32, (uint32_t)len, DATA_BASE);
	post(cc, w, MLX5_OPCODE_LSO, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_OK &&
	   wq.pkt[0].len == len + 4, "LSO IPv6 WQE with VLAN insertion");
	sink.n = 0;
	ok(cx_tx_emit(&wq, pktbuf, scratch, sizeof(scratch), sink_frame, &sink) == 3,
	   "LSO IPv6: three segments");
	/* compare against the tagged super-packet */
	memcpy(f + 4096, pktbuf, len + 4);
	good = 0;
	for (i = 0; i < 3; i++)
		good += seg_ok(sink.frame[i], sink.len[i], f + 4096, true, 18, i, 3,
			       1220, 78, len + 4) &&
			get16(sink.frame[i] + 14) == 42;
	ok(good == 3, "LSO IPv6: payload length, seq, flags, checksums, tag kept");

	/* header-only super-packet: one frame */
	len = build(f, false, false, 0, 0, 0x11, false);
	sink.n = 0;
	ok(cx_lso_segment(f, len, 1000, CSUM_BOTH, scratch, sizeof(scratch), sink_frame,
			  &sink) == 1 && sink.len[0] == 60 && l4_valid(sink.frame[0], 60),
	   "LSO of a bare header: one padded frame");
	/* BIG TCP: IPv4 total length 0 in the super-packet */
	len = build(f, false, false, 0, 3000, 0x10, false);
	put16(f + 16, 0);
	sink.n = 0;
	ok(cx_lso_segment(f, len, 1448, CSUM_BOTH, scratch, sizeof(scratch), sink_frame,
			  &sink) == 3 && get16(sink.frame[0] + 16) == 1448 + 40 &&
	   l4_valid(sink.frame[2], sink.len[2]),
	   "LSO ignores the super-packet's IP length (BIG TCP)");

	/* what the segmenter refuses */
	memset(f, 0, 200);
	memcpy(f, mac_hdr, 12);
	put16(f + 12, 0x0800);
	f[14] = 0x45;
	put16(f + 16, 100);
	f[23] = 1;	/* ICMP */
	ok(cx_lso_segment(f, 114, 100, CSUM_BOTH, scratch, sizeof(scratch), sink_frame,
			  &sink) == CX_LSO_E_PARSE, "LSO of ICMP: refused");
	put16(f + 12, 0x0806);
	ok(cx_lso_segment(f, 114, 100, CSUM_BOTH, scratch, sizeof(scratch), sink_frame,
			  &sink) == CX_LSO_E_PARSE, "LSO of ARP: refused");
	len = build(f, false, false, 0, 500, 0x10, false);
	put16(f + 20, 0x2000);
	ok(cx_lso_segment(f, len, 100, CSUM_BOTH, scratch, sizeof(scratch), sink_frame,
			  &sink) == CX_LSO_E_FRAG, "LSO of a fragment: refused");
	put16(f + 20, 0);
	ok(cx_lso_segment(f, len, 0, CSUM_BOTH, scratch, sizeof(scratch), sink_frame,
			  &sink) == CX_LSO_E_MSS, "LSO with mss 0: refused");
	ok(cx_lso_segment(f, len, 65500, CSUM_BOTH, scratch, sizeof(scratch), sink_frame,
			  &sink) == CX_LSO_E_MSS, "LSO with headers + mss over 64K: refused");
	ok(cx_lso_segment(f, len, 100, CSUM_BOTH, scratch, 100, sink_frame,
			  &sink) == CX_LSO_E_SCRATCH, "LSO with a small scratch: refused");
	len = build(f, false, false, 0, 2000, 0x10, false);
	ok(cx_lso_segment(f, len, 1, CSUM_BOTH, scratch, sizeof(scratch), sink_frame,
			  &sink) == CX_LSO_E_SEGS, "LSO into 2000 segments: refused");
	/* IPv6 with 240 bytes of destination options: headers over 256 */
	memset(f, 0, 1024);
	memcpy(f, mac_hdr, 12);
	put16(f + 12, 0x86dd);
	f[14] = 0x60;
	put16(f + 18, 240 + 20 + 100);
	f[20] = 60;
	f[54] = 6;
	f[55] = 29;	/* (29 + 1) * 8 = 240 */
	f[54 + 240 + 12] = 5 << 4;
	ok(cx_lso_segment(f, 54 + 240 + 20 + 100, 50, CSUM_BOTH, scratch, sizeof(scratch),
			  sink_frame, &sink) == CX_LSO_E_HDR,
	   "LSO with 314 bytes of headers: refused");
	/* the WQE path reports it as an emit error */
	memset(w, 0, sizeof(w));
	put16(w + 22, 50);
	memcpy(mem + DATA_BASE, f, 414);
	dseg(w + 32, 414, DATA_BASE);
	post(cc, w, MLX5_OPCODE_LSO, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_OK &&
	   cx_tx_emit(&wq, pktbuf, scratch, sizeof(scratch), sink_frame, &sink) ==
	   CX_LSO_E_HDR, "cx_tx_emit returns the segmenter's refusal");
}

/* A SEND of @f (@len bytes) at @cc with @ihs bytes inline, the rest gathered. */
static int send_inline(struct cx_sq_ring *sq, uint16_t cc, const uint8_t *f,
		       size_t len, uint16_t ihs)
{
	uint8_t w[1024];
	uint32_t p = 32;

	memset(w, 0, sizeof(w));
	put16(w + 28, ihs);
	memcpy(w + 30, f, ihs);
	if (ihs > 2)
		p += (ihs - 2 + 15) / 16 * 16;
	memcpy(mem + DATA_BASE, f + ihs, len - ihs);
	dseg(w + p, (uint32_t)(len - ihs), DATA_BASE);
	post(cc, w, MLX5_OPCODE_SEND, (uint8_t)(p / 16 + 1), 0);
	return decode(sq, cc, (uint16_t)(cc + 4));
}

/* The minimum inline mode (none, L2, IP, TCP/UDP) and VLAN insertion. */
static void test_inline_mode(void)
{
	struct cx_sq_ring sq = sq_ring();
	static const uint8_t arp[42] = { [12] = 0x08, [13] = 0x06 };
	uint8_t f[2048], w[1024];
	size_t len4, len6, lenv, lenu;
	uint8_t f6[2048], fv[2048], fu[2048];
	uint16_t cc = 200;

	len4 = build(f, false, false, 0, 100, 0x18, true);
	len6 = build(f6, true, false, 0, 100, 0x18, true);
	lenv = build(fv, false, false, 7, 100, 0x18, true);
	lenu = build(fu, false, true, 0, 100, 0, true);
	ok(cx_inline_needed(f, len4, MLX5_INLINE_MODE_NONE) == 0 &&
	   cx_inline_needed(f, len4, MLX5_INLINE_MODE_L2) == 14 &&
	   cx_inline_needed(f, len4, MLX5_INLINE_MODE_IP) == 34 &&
	   cx_inline_needed(f, len4, MLX5_INLINE_MODE_TCP_UDP) == 54 &&
	   cx_inline_needed(fv, lenv, MLX5_INLINE_MODE_L2) == 18 &&
	   cx_inline_needed(fv, lenv, MLX5_INLINE_MODE_TCP_UDP) == 58 &&
	   cx_inline_needed(f6, len6, MLX5_INLINE_MODE_IP) == 54 &&
	   cx_inline_needed(f6, len6, MLX5_INLINE_MODE_TCP_UDP) == 74 &&
	   cx_inline_needed(fu, lenu, MLX5_INLINE_MODE_TCP_UDP) == 42 &&
	   cx_inline_needed(arp, 42, MLX5_INLINE_MODE_TCP_UDP) == 14 &&
	   cx_inline_needed(f, 20, MLX5_INLINE_MODE_TCP_UDP) == 20 &&
	   cx_inline_needed(f, 5, MLX5_INLINE_MODE_L2) == 5,
	   "inline modes: L2 14 (+4 a tag), IP +20/+40, TCP +20, UDP +8, never past the frame");

	sq.min_inline = MLX5_INLINE_MODE_L2;
	ok(send_inline(&sq, cc, f, len4, 0) == CX_WQE_E_INLINE_MODE &&
	   wq.syndrome == MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR &&
	   wq.inline_needed == 14,
	   "inline L2: a SEND inlining nothing fails (LOCAL_QP_OP_ERR)");
	ok(send_inline(&sq, cc, f, len4, 12) == CX_WQE_E_INLINE_MODE &&
	   send_inline(&sq, cc, fv, lenv, 14) == CX_WQE_E_INLINE_MODE,
	   "inline L2: 12 bytes, or 14 of a tagged frame, are too few");
	ok(send_inline(&sq, cc, f, len4, 14) == CX_WQE_OK &&
	   send_inline(&sq, cc, f, len4, 18) == CX_WQE_OK &&
	   wq.pkt[0].len == len4 && !memcmp(pktbuf, f, len4) &&
	   send_inline(&sq, cc, fv, lenv, 18) == CX_WQE_OK,
	   "inline L2: 14 bytes (18 tagged) and more pass, the frame intact");
	sq.min_inline = MLX5_INLINE_MODE_IP;
	ok(send_inline(&sq, cc, f, len4, 18) == CX_WQE_E_INLINE_MODE &&
	   send_inline(&sq, cc, f, len4, 34) == CX_WQE_OK &&
	   send_inline(&sq, cc, f6, len6, 34) == CX_WQE_E_INLINE_MODE &&
	   send_inline(&sq, cc, f6, len6, 54) == CX_WQE_OK,
	   "inline IP: the IPv4/IPv6 header must be inline");
	put16(f + 20, 0x0010);	/* a later IPv4 fragment */
	sq.min_inline = MLX5_INLINE_MODE_TCP_UDP;
	ok(cx_inline_needed(f, len4, MLX5_INLINE_MODE_TCP_UDP) == 34 &&
	   send_inline(&sq, cc, f, len4, 34) == CX_WQE_OK &&
	   send_inline(&sq, cc, fu, lenu, 34) == CX_WQE_E_INLINE_MODE &&
	   send_inline(&sq, cc, fu, lenu, 42) == CX_WQE_OK,
	   "inline TCP/UDP: the L4 header too, not for a later fragment");

	/* An LSO WQE inlines its headers anyway: the mode is not checked. */
	sq.min_inline = MLX5_INLINE_MODE_TCP_UDP;
	memset(w, 0, sizeof(w));
	put16(w + 22, 1000);
	put16(w + 28, 2);
	memcpy(w + 30, fu, 2);
	memcpy(mem + DATA_BASE, fu + 2, lenu - 2);
	dseg(w + 32, (uint32_t)(lenu - 2), DATA_BASE);
	post(cc, w, MLX5_OPCODE_LSO, 3, 0);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_OK,
	   "inline TCP/UDP: not checked on LSO");

	/* VLAN insertion without wqe_vlan_insert. */
	sq = sq_ring();
	sq.no_vlan_insert = true;
	memset(w, 0, sizeof(w));
	memcpy(mem + DATA_BASE, f, len4);
	dseg(w + 32, (uint32_t)len4, DATA_BASE);
	put16(w + 28, MLX5_ETH_WQE_INSERT_VLAN);
	put16(w + 30, 0x0007);
	post(cc, w, MLX5_OPCODE_SEND, 3, 0);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_VLAN &&
	   wq.syndrome == MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
	   "VLAN insertion not announced: the WQE fails");
	sq.no_vlan_insert = false;
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_OK &&
	   wq.pkt[0].len == len4 + 4 && get16(pktbuf + 12) == 0x8100,
	   "VLAN insertion announced: tagged");
}

static void test_wqe_errors(void)
{
	struct cx_sq_ring sq = sq_ring();
	uint8_t w[1024];
	uint16_t cc = 100;
	uint8_t small[32];
	static const struct { int err; uint8_t synd; } map[] = {
		{ CX_WQE_E_DMA, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR },
		{ CX_WQE_E_DS, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ CX_WQE_E_PAST_PC, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ CX_WQE_E_OPCODE, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ CX_WQE_E_INLINE, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR },
		{ CX_WQE_E_LEN, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR },
		{ CX_WQE_E_MSS, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ CX_WQE_E_MPW, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ CX_WQE_E_SQN, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ CX_WQE_E_INLINE_MODE, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ CX_WQE_E_VLAN, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ CX_WQE_E_INDEX, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
	};
	unsigned int i, good = 0;

	for (i = 0; i < CX_ARRAY(map); i++)
		good += cx_wqe_syndrome(map[i].err) == map[i].synd &&
			strcmp(cx_wqe_strerror(map[i].err), "?");
	ok(good == CX_ARRAY(map), "every decoder error maps to a CQE syndrome");

	memset(w, 0, sizeof(w));
	memset(mem + DATA_BASE, 0x5a, 4096);
	post(cc, w, MLX5_OPCODE_SEND, 0, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_DS && wq.err == CX_WQE_E_DS &&
	   wq.wqe_index == cc && wq.opcode == MLX5_OPCODE_SEND,
	   "ds_cnt 0: LOCAL_QP_OP_ERR, wqe_index and opcode for the CQE");
	post(cc, w, MLX5_OPCODE_SEND, 1, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_DS,
	   "SEND with only a ctrl segment: bad ds_cnt");
	dseg(w + 32, 100, DATA_BASE);
	post(cc, w, MLX5_OPCODE_SEND, 12, 8);
	sq.max_wqebbs = 2;
	ok(decode(&sq, cc, (uint16_t)(cc + 4)) == CX_WQE_E_DS,
	   "3 WQEBBs over a 2-WQEBB limit: bad ds_cnt");
	sq.max_wqebbs = 0;
	ok(decode(&sq, cc, (uint16_t)(cc + 2)) == CX_WQE_E_PAST_PC,
	   "WQE longer than what was posted: past the producer counter");
	ok(decode(&sq, cc, (uint16_t)(cc + 257)) == CX_WQE_E_PAST_PC,
	   "doorbell beyond the ring size: refused");
	post(cc, w, MLX5_OPCODE_SEND, 3, 8);
	put32(mem + bb_addr(cc) + 4, (SQN + 1) << 8 | 3);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_SQN,
	   "ctrl segment of another SQ: refused");
	post(cc, w, MLX5_OPCODE_SEND, 3, 8);
	put32(mem + bb_addr(cc), (uint32_t)(uint16_t)(cc - 64) << 8 |
	      MLX5_OPCODE_SEND);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_INDEX &&
	   wq.wqe_index == (uint16_t)(cc - 64),
	   "ctrl WQE index not the SQ's position (a stale WQE): refused");
	post(cc, w, MLX5_OPCODE_UMR, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_OPCODE &&
	   wq.raw_len == 64 && wq.raw[3] == MLX5_OPCODE_UMR &&
	   wq.syndrome == MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
	   "UMR on this decoder: unsupported opcode, raw WQE kept");
	post(cc, w, 0x77, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_OPCODE,
	   "unknown opcode 0x77: refused");

	memset(w, 0, sizeof(w));
	put16(w + 28, 40);	/* needs 2 + 38 bytes = ds 5 */
	post(cc, w, MLX5_OPCODE_SEND, 4, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_INLINE &&
	   wq.syndrome == MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,
	   "inline header larger than ds_cnt holds: LOCAL_LENGTH_ERR");
	put16(w + 28, 34);	/* exactly ds 4, but no data: fine */
	post(cc, w, MLX5_OPCODE_SEND, 4, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_OK && wq.pkt[0].len == 60,
	   "inline header filling ds_cnt exactly: a packet of its own");
	put16(w + 28, 0);
	post(cc, w, MLX5_OPCODE_SEND, 2, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_LEN,
	   "SEND with nothing to send: LOCAL_LENGTH_ERR");
	dseg(w + 32, 0, DATA_BASE);
	post(cc, w, MLX5_OPCODE_SEND, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_LEN,
	   "zero-length gather: LOCAL_LENGTH_ERR");
	dseg(w + 32, 16385, DATA_BASE);
	post(cc, w, MLX5_OPCODE_SEND, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_LEN,
	   "gather over the packet bound: LOCAL_LENGTH_ERR");
	dseg(w + 32, 0x80000000u - 1, DATA_BASE);
	post(cc, w, MLX5_OPCODE_LSO, 3, 8);
	put16(mem + bb_addr(cc) + 22, 1000);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_LEN,
	   "LSO gather over the super-packet bound: LOCAL_LENGTH_ERR");
	dseg(w + 32, 100, DATA_BASE);
	post(cc, w, MLX5_OPCODE_SEND, 3, 8);
	ok(cx_wqe_decode(&sq, cc, (uint16_t)(cc + 1), small, sizeof(small), &wq) ==
	   CX_WQE_E_LEN, "packet larger than the caller's buffer: LOCAL_LENGTH_ERR");
	dseg(w + 32, 100, MEM_SIZE - 50);
	post(cc, w, MLX5_OPCODE_SEND, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_DMA &&
	   wq.syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR && wq.npkts == 0,
	   "gather outside guest memory: LOCAL_PROT_ERR, no packet");
	dseg(w + 32, 100, ~0ULL - 10);
	post(cc, w, MLX5_OPCODE_SEND, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_DMA,
	   "gather address wrapping 2^64: LOCAL_PROT_ERR");
	dseg(w + 32, 100, DATA_BASE);
	post(cc, w, MLX5_OPCODE_LSO, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_MSS,
	   "LSO with mss 0: LOCAL_QP_OP_ERR");
	post(cc, w, MLX5_OPCODE_SEND, 3, 8);
	sq.npas = 1;	/* index 100 is in the ring's second page */
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_DMA &&
	   wq.wqe_index == cc && wq.desc_bytes == 0,
	   "WQE outside the ring's page list: LOCAL_PROT_ERR");
	sq.npas = 4;
	sq.log_page_sz = 5;
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_DMA,
	   "page size below a WQEBB: refused");
	sq.log_page_sz = 12;
	sq.log_wq_sz = 17;
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_PAST_PC,
	   "ring over 2^16 WQEBBs: refused");
	sq.log_wq_sz = LOG_WQ_SZ;
	/* inline data segment in a SEND past ds_cnt */
	put32(w + 32, MLX5_INLINE_SEG | 40);
	post(cc, w, MLX5_OPCODE_SEND, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_E_INLINE,
	   "SEND inline data segment past ds_cnt: LOCAL_LENGTH_ERR");
	put32(w + 32, MLX5_INLINE_SEG | 12);
	memset(w + 36, 0xab, 12);
	post(cc, w, MLX5_OPCODE_SEND, 3, 8);
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_OK && wq.pkt[0].len == 60 &&
	   pktbuf[11] == 0xab && wq.payload_bytes == 0,
	   "SEND with an inline data segment: carried, not gathered");
	ok(decode(&sq, cc, (uint16_t)(cc + 1)) == CX_WQE_OK &&
	   cx_tx_emit(&wq, pktbuf, scratch, sizeof(scratch), sink_frame, &sink) == 1,
	   "(and emitted)");
	wq.err = CX_WQE_E_LEN;
	ok(cx_tx_emit(&wq, pktbuf, scratch, sizeof(scratch), sink_frame, &sink) == 0,
	   "a failed WQE emits nothing");
}


/* Striding RX CQEs into a compressed block, both mini CQE formats. */
static void test_cqe_comp(void)
{
	static uint8_t img[4][64], arrs[1][64], title[64];
	struct mlx5_mini_cqe8 *m = (struct mlx5_mini_cqe8 *)arrs[0];
	struct mlx5_cqe64 *t = (struct mlx5_cqe64 *)title;
	struct cx_rx_class rc;
	struct cx_cqe_rx rx;
	uint8_t f[256];
	size_t len;
	int i;

	len = build(f, false, false, 0, 100, 0x18, true);
	cx_rx_classify(f, len, false, &rc);
	memset(&rx, 0, sizeof(rx));
	rx.striding = true;
	rx.wqe_id = 5;
	rx.rqn = 0x12;
	rx.rc = &rc;
	for (i = 0; i < 4; i++) {
		rx.byte_cnt = 60 + 10 * i;
		rx.consumed_strides = 2;
		rx.wqe_counter = (uint16_t)(10 + 2 * i);
		rx.rss_hash = 0x1000u + i;
		rx.timestamp = 1000u * i;
		cx_cqe_rx(img[i], 0, 6, &rx);
	}
	ok(cx_cqe_comp_match(img[0], img[0], img[1], CX_CQE_FORMAT_CSUM_STRIDX, true) &&
	   cx_cqe_comp_match(img[0], img[1], img[2], CX_CQE_FORMAT_CSUM, true) &&
	   !cx_cqe_comp_match(img[0], img[1], img[3], CX_CQE_FORMAT_CSUM, true) &&
	   cx_cqe_comp_match(img[0], img[1], img[3], CX_CQE_FORMAT_CSUM_STRIDX, true),
	   "match: hash and timestamp differ; CSUM needs the next stride, CSUM_STRIDX does not");
	((struct mlx5_cqe64 *)img[3])->wqe_id = cpu_to_be16(6);
	((struct mlx5_cqe64 *)img[2])->hds_ip_ext ^= CQE_L4_OK;
	ok(!cx_cqe_comp_match(img[0], img[2], img[3], CX_CQE_FORMAT_CSUM_STRIDX, true) &&
	   !cx_cqe_comp_match(img[0], img[1], img[2], CX_CQE_FORMAT_CSUM_STRIDX, true),
	   "match: another WQE id or checksum status ends the block");
	((struct mlx5_cqe64 *)img[2])->hds_ip_ext ^= CQE_L4_OK;
	cx_cqe_comp_block(title, arrs, (const uint8_t (*)[64])img, 3,
			  CX_CQE_FORMAT_CSUM_STRIDX, 64, 6);
	ok(((t->op_own >> 2) & 3) == MLX5_COMPRESSED && (t->op_own & 1) == 1 &&
	   get_cqe_opcode(t) == MLX5_CQE_RESP_SEND && be32_to_cpu(t->byte_cnt) == 3 &&
	   be16_to_cpu(t->wqe_id) == 5 && be16_to_cpu(t->wqe_counter) == 10,
	   "title: format 3, owner of the second lap, 3 CQEs, WQE id and first stride");
	for (i = 0; i < 3; i++)
		if (be16_to_cpu(m[i].stridx) != 10 + 2 * i ||
		    (be32_to_cpu(m[i].byte_cnt) & 0xffff) != 60u + 10 * i ||
		    (be32_to_cpu(m[i].byte_cnt) >> 16) != 2 ||
		    m[i].checksum != ((struct mlx5_cqe64 *)img[i])->check_sum)
			break;
	ok(i == 3 && !m[3].byte_cnt && !m[7].byte_cnt,
	   "mini CQEs: stride index, strides and bytes, checksum; the rest zero");
	cx_cqe_comp_block(title, arrs, (const uint8_t (*)[64])img, 2,
			  CX_CQE_FORMAT_HASH, 0, 6);
	ok(be32_to_cpu(m[1].rx_hash_result) == 0x1001 && (t->op_own & 1) == 0,
	   "hash format: the mini CQE carries the RSS hash");
}

/* A TCP segment of @plen bytes at @seq, checksums valid. */
static size_t lro_seg(uint8_t *f, bool v6, uint32_t plen, uint32_t seq,
		      uint8_t flags, uint8_t ttl)
{
	size_t len = build(f, v6, false, 0, plen, flags, true);
	size_t l3 = 14, l4 = v6 ? 54 : 34;
	uint32_t i;

	for (i = 0; i < plen; i++)
		f[l4 + 20 + i] = (uint8_t)(seq + i);
	put32(f + l4 + 4, seq);
	put32(f + l4 + 8, seq / 2);	/* the ACK number moves too */
	put16(f + l4 + 14, (uint16_t)(seq & 0xfff));
	if (v6) {
		f[l3 + 7] = ttl;
	} else {
		f[l3 + 8] = ttl;
		put16(f + l3 + 10, 0);
	}
	put16(f + l4 + 16, 0);
	cx_csum_tx(f, len, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM);
	return len;
}

static void lro_class(const uint8_t *f, size_t len, uint8_t mask,
		      struct cx_lro_seg *s)
{
	struct cx_rx_class rc;

	cx_rx_classify(f, len, false, &rc);
	cx_lro_parse(f, len, &rc, mask, s);
}

static void test_lro(void)
{
	const uint8_t both = MLX5_TIRC_PACKET_MERGE_MASK_IPV4_LRO |
			     MLX5_TIRC_PACKET_MERGE_MASK_IPV6_LRO;
	static uint8_t f[4096], stream[8192];
	struct cx_lro_seg s, s2;
	struct cx_lro_sess x;
	struct cx_cqe_rx rx;
	uint32_t seq = 1000, slen;
	size_t len;

	len = lro_seg(f, false, 999, seq, 0x10, 64);
	lro_class(f, len, both, &s);
	ok(s.ok && !s.v6 && s.hlen == 54 && s.plen == 999 && s.seq == seq &&
	   s.ttl == 64 && !s.psh, "LRO: TCP/IPv4 ACK with data qualifies");
	lro_class(f, len, MLX5_TIRC_PACKET_MERGE_MASK_IPV6_LRO, &s2);
	ok(!s2.ok, "LRO: IPv4 on an IPv6-only TIR does not");
	f[70] ^= 1;
	lro_class(f, len, both, &s2);
	ok(!s2.ok, "LRO: a bad TCP checksum does not");
	f[70] ^= 1;

	cx_lro_start(&x, &s, f, 4000);
	memcpy(stream, f + 54, 999);
	slen = 999;
	seq += 999;
	len = lro_seg(f, false, 1001, seq, 0x10, 60);
	lro_class(f, len, both, &s);
	ok(cx_lro_match(&x, &s, false, 0), "LRO: the next segment in order joins");
	ok(!cx_lro_match(&x, &s, true, 5), "LRO: not on another VLAN");
	cx_lro_append(&x, &s, f);
	memcpy(stream + slen, f + 54, 1001);
	slen += 1001;
	seq += 1001;

	len = lro_seg(f, false, 500, seq + 1, 0x10, 64);
	lro_class(f, len, both, &s2);
	ok(s2.ok && !cx_lro_match(&x, &s2, false, 0), "LRO: out of order: no");
	len = lro_seg(f, false, 500, seq, 0x10, 64);
	put16(f + 34, 40001);	/* another source port */
	put16(f + 50, 0);
	cx_csum_tx(f, len, MLX5_ETH_WQE_L4_CSUM);
	lro_class(f, len, both, &s2);
	ok(s2.ok && !cx_lro_match(&x, &s2, false, 0), "LRO: another flow: no");
	len = lro_seg(f, false, 2001, seq, 0x10, 64);
	lro_class(f, len, both, &s2);
	ok(s2.ok && !cx_lro_match(&x, &s2, false, 0),
	   "LRO: not past the TIR's payload limit");

	len = lro_seg(f, false, 1999, seq, 0x18, 62);	/* PSH */
	lro_class(f, len, both, &s);
	ok(s.ok && s.psh && cx_lro_match(&x, &s, false, 0),
	   "LRO: a PSH segment joins (lro_psh_flag)");
	cx_lro_append(&x, &s, f);
	memcpy(stream + slen, f + 54, 1999);
	slen += 1999;
	len = lro_seg(f, false, 10, seq + 1999, 0x10, 64);
	lro_class(f, len, both, &s2);
	ok(!cx_lro_match(&x, &s2, false, 0), "LRO: ... and closes the session");

	memset(&rx, 0, sizeof(rx));
	cx_lro_cqe(&x, &rx);
	ok(rx.byte_cnt == 54 + slen && rx.lro_num_seg == 3 &&
	   rx.lro_flags == CX_LRO_TCPPSH && rx.lro_min_ttl == 60 &&
	   rx.lro_ack_seq == seq / 2 && rx.lro_tcp_win == (seq & 0xfff),
	   "LRO: the CQE: bytes, segments, PSH, lowest TTL, last ACK and window");
	ok(rx.lro_csum == cx_csum_fold(cx_csum_add(0, stream, slen)),
	   "LRO: check_sum is the sum of the payload as one stream (odd parts)");

	len = lro_seg(f, false, 100, seq, 0x11, 64);	/* FIN */
	lro_class(f, len, both, &s);
	ok(!s.ok, "LRO: FIN does not qualify");
	len = lro_seg(f, false, 0, seq, 0x10, 64);
	lro_class(f, len, both, &s);
	ok(!s.ok, "LRO: no payload does not qualify");
	len = build(f, false, true, 0, 100, 0, true);
	lro_class(f, len, both, &s);
	ok(!s.ok, "LRO: UDP does not qualify");
	len = build(f, false, false, 7, 100, 0x10, true);
	lro_class(f, len, both, &s);
	ok(!s.ok, "LRO: a tag left in the frame does not qualify");
	len = lro_seg(f, true, 1200, seq, 0x10, 33);
	lro_class(f, len, MLX5_TIRC_PACKET_MERGE_MASK_IPV6_LRO, &s);
	ok(s.ok && s.v6 && s.hlen == 74 && s.plen == 1200 && s.ttl == 33,
	   "LRO: TCP/IPv6 qualifies on an IPv6 TIR");
	f[54 + 12] = 6 << 4;	/* a TCP option's worth of header */
	lro_class(f, len, MLX5_TIRC_PACKET_MERGE_MASK_IPV6_LRO, &s2);
	ok(!s2.ok || !cx_lro_match(&x, &s2, false, 0),
	   "LRO: other TCP header lengths do not join");
	len = lro_seg(f, false, 100, seq, 0x10, 64);
	f[46] = 8 << 4;	/* 12 bytes of options: NOP, NOP, timestamp */
	put32(f + 54, 0x0101080a);
	put16(f + 50, 0);
	cx_csum_tx(f, len, MLX5_ETH_WQE_L4_CSUM);
	lro_class(f, len, both, &s);
	ok(s.ok && s.hlen == 66 && s.plen == 88,
	   "LRO: the timestamp option qualifies (lro_time_stamp)");
	put32(f + 54, 0x02040400);	/* an MSS option instead */
	put16(f + 50, 0);
	cx_csum_tx(f, len, MLX5_ETH_WQE_L4_CSUM);
	lro_class(f, len, both, &s);
	ok(!s.ok, "LRO: other options do not");
	len = lro_seg(f, false, 100, seq, 0x10, 64);
	f[14] = 0x46;	/* IHL 6: options (the frame's bytes reread as one) */
	lro_class(f, len, both, &s);
	ok(!s.ok, "LRO: IPv4 options do not qualify");
}

/* ---- VXLAN ---- */

/*
 * Outer Ethernet + IPv4 + UDP to @port (checksum 0) + VXLAN around the
 * @ilen bytes of @inner, into @f; returns the frame's length.
 */
static size_t wrap_vxlan(uint8_t *f, const uint8_t *inner, size_t ilen,
			 uint16_t port)
{
	size_t len = 14 + 20 + 8 + 8 + ilen;

	memcpy(f, mac_hdr, 12);
	put16(f + 12, 0x0800);
	memset(f + 14, 0, 36);
	f[14] = 0x45;
	put16(f + 16, (uint16_t)(len - 14));
	put16(f + 18, 0x2000);
	f[22] = 64;
	f[23] = 17;
	put32(f + 26, 0xc0a80001);
	put32(f + 30, 0xc0a80002);
	put16(f + 24, (uint16_t)~cx_csum_fold(cx_csum_add(0, f + 14, 20)));
	put16(f + 34, 50000);
	put16(f + 36, port);
	put16(f + 38, (uint16_t)(len - 34));
	f[42] = 0x08;			/* VXLAN: I flag, VNI 42 */
	put32(f + 46, 42 << 8);
	memcpy(f + 50, inner, ilen);
	return len;
}

static bool ipv4_hdr_valid(const uint8_t *ip)
{
	return cx_csum_fold(cx_csum_add(0, ip, 20)) == 0xffff;
}

/*
 * Segment @i of the three (1000, 1000 and 500 payload bytes) that LSO
 * with MSS 1000 makes of a tunneled TCP super-packet built from @in, its
 * inner IPv4 header at @l3: its length; the outer IPv4 total length, id
 * 0x2000 + i and header checksum; the inner IPv4 total length, id 0x1000
 * + i and header checksum; the inner TCP sequence number, FIN and PSH on
 * the last segment only; the payload.
 */
static bool tun_seg_ok(const uint8_t *s, size_t len, size_t l3,
		       unsigned int i, const uint8_t *in)
{
	size_t n = i < 2 ? 1000 : 500;

	return len == l3 + 20 + 20 + n && get16(s + 16) == len - 14 &&
	       get16(s + 18) == 0x2000 + i && ipv4_hdr_valid(s + 14) &&
	       get16(s + l3 + 2) == len - l3 &&
	       get16(s + l3 + 4) == 0x1000 + i && ipv4_hdr_valid(s + l3) &&
	       get32(s + l3 + 24) == 0xfffff000u + 1000 * i &&
	       (s[l3 + 33] & 0x09) == (i == 2 ? 0x09 : 0) &&
	       !memcmp(s + l3 + 40, in + 54 + 1000 * i, n);
}

static void test_vxlan(void)
{
	static uint8_t in[4096], f[4200], scratch[CX_LSO_MAX_HDR + 2048];
	struct cx_tun_ports t = { .vxlan = { 4789, 8472 }, .nvxlan = 2 };
	const uint8_t inner_flags = MLX5_ETH_WQE_L3_INNER_CSUM |
				    MLX5_ETH_WQE_L4_INNER_CSUM;
	struct cx_rx_class rc;
	struct cx_tun tun;
	size_t ilen, len, i;
	int good;

	ilen = build(in, false, false, 0, 300, 0x18, false);
	len = wrap_vxlan(f, in, ilen, 4789);
	ok(cx_tun_parse(f, len, &t, &tun) && tun.inner_l2_off == 50 &&
	   tun.inner.l3 == CX_L3_IPV4 && tun.inner.l3_off == 64 &&
	   tun.inner.l4 == CX_L4_TCP && tun.inner.l4_off == 84 &&
	   tun.inner.ip_end == len,
	   "VXLAN on a known port: outer and inner headers parsed");
	ok(!cx_tun_parse(f, len, NULL, &tun), "no port table: not a tunnel");
	len = wrap_vxlan(f, in, ilen, 4790);
	ok(!cx_tun_parse(f, len, &t, &tun),
	   "VXLAN on a port not in the table: plain UDP");

	/* TX inner checksums */
	len = wrap_vxlan(f, in, ilen, 8472);
	put16(f + 24, 0);
	ok(cx_csum_tx_tun(f, len, MLX5_ETH_WQE_L3_CSUM | inner_flags, &t) == 0 &&
	   ipv4_hdr_valid(f + 14) && l4_valid(f + 50, ilen) &&
	   get16(f + 40) == 0,
	   "TX VXLAN: inner TCP and outer IPv4 checksums filled, outer UDP 0");
	len = wrap_vxlan(f, in, ilen, 4790);
	cx_csum_tx_tun(f, len, MLX5_ETH_WQE_L3_CSUM | inner_flags, &t);
	ok(!l4_valid(f + 50, ilen),
	   "TX VXLAN on an unknown port: the inner checksum is not filled");
	len = wrap_vxlan(f, in, ilen, 4789);
	cx_csum_tx_tun(f, len, inner_flags | MLX5_ETH_WQE_L4_CSUM, &t);
	ok(l4_valid(f, len) && l4_valid(f + 50, ilen),
	   "TX VXLAN with L4_CSUM: the outer UDP checksum covers the inner");

	/* RX: tunneled bit, inner verdict */
	cx_rx_classify_tun(f, len, false, &t, &rc);
	ok(rc.tunneled && rc.hds_ip_ext == (CQE_L2_OK | CQE_L3_OK | CQE_L4_OK) &&
	   rc.l4_hdr_type == CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA,
	   "RX VXLAN: tunneled, inner L3/L4 OK, inner header types");
	f[len - 1] ^= 0x55;
	put16(f + 40, 0);	/* outer UDP checksum off */
	cx_rx_classify_tun(f, len, false, &t, &rc);
	ok(rc.tunneled && (rc.hds_ip_ext & CQE_L3_OK) &&
	   !(rc.hds_ip_ext & CQE_L4_OK),
	   "RX VXLAN, inner TCP checksum bad: tunneled, no L4_OK");
	f[len - 1] ^= 0x55;
	put16(f + 40, 0x1234);
	cx_rx_classify_tun(f, len, false, &t, &rc);
	ok(rc.tunneled && !(rc.hds_ip_ext & CQE_L4_OK),
	   "RX VXLAN, outer UDP checksum bad: no L4_OK");
	len = wrap_vxlan(f, in, ilen, 4790);
	cx_csum_tx(f + 50, ilen, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM);
	cx_rx_classify_tun(f, len, false, &t, &rc);
	ok(!rc.tunneled && rc.l4_hdr_type == CQE_L4_HDR_TYPE_UDP,
	   "RX VXLAN on an unknown port: plain UDP, not tunneled");

	/* LSO of the inner TCP */
	ilen = build(in, false, false, 0, 2500, 0x18 | 0x01, false);
	len = wrap_vxlan(f, in, ilen, 4789);
	sink.n = 0;
	ok(cx_lso_segment_tun(f, len, 1000, MLX5_ETH_WQE_L3_CSUM | inner_flags,
			      &t, scratch, sizeof(scratch), sink_frame,
			      &sink) == 3 && sink.n == 3,
	   "VXLAN LSO: 3 segments of the inner TCP");
	good = 0;
	for (i = 0; i < 3 && sink.n == 3; i++) {
		const uint8_t *s = sink.frame[i];
		size_t sl = sink.len[i];

		good += tun_seg_ok(s, sl, 64, i, in) &&
			get16(s + 38) == sl - 34 && get16(s + 40) == 0 &&
			l4_valid(s + 50, sl - 50);
	}
	ok(good == 3,
	   "VXLAN LSO: outer IPv4 length/id/checksum, UDP length, inner IP and TCP fields, payload");
	sink.n = 0;
	put16(f + 40, 0x4321);
	cx_lso_segment_tun(f, len, 1000, MLX5_ETH_WQE_L3_CSUM | inner_flags,
			   &t, scratch, sizeof(scratch), sink_frame, &sink);
	ok(sink.n == 3 && get16(sink.frame[2] + 40) == 0x4321,
	   "VXLAN LSO without L4_CSUM: the outer UDP checksum left as given");
	sink.n = 0;
	cx_lso_segment_tun(f, len, 1000, MLX5_ETH_WQE_L3_CSUM |
			   MLX5_ETH_WQE_L4_CSUM | inner_flags, &t, scratch,
			   sizeof(scratch), sink_frame, &sink);
	ok(sink.n == 3 && l4_valid(sink.frame[1], sink.len[1]) &&
	   l4_valid(sink.frame[1] + 50, sink.len[1] - 50),
	   "VXLAN LSO with L4_CSUM: each segment's outer UDP checksum");
}

/* ---- GENEVE (RX on 6081, TX through the software parser) ---- */

/*
 * Outer Ethernet + IPv4 + UDP to @port + GENEVE (with @opt_len words of
 * options) around the @ilen bytes of the Ethernet frame @inner; returns
 * the frame's length.  The inner frame starts at 50 + @opt_len * 4.
 */
static size_t wrap_geneve(uint8_t *f, const uint8_t *inner, size_t ilen,
			  uint16_t port, unsigned int opt_len)
{
	size_t olen = opt_len * 4, len;

	len = wrap_vxlan(f, inner, ilen, port);
	memmove(f + 50 + olen, f + 50, ilen);
	memset(f + 50, 0, olen);
	len += olen;
	put16(f + 16, (uint16_t)(len - 14));
	put16(f + 24, 0);
	put16(f + 24, (uint16_t)~cx_csum_fold(cx_csum_add(0, f + 14, 20)));
	put16(f + 38, (uint16_t)(len - 34));
	f[42] = (uint8_t)opt_len;	/* version 0 */
	f[43] = 0;
	put16(f + 44, 0x6558);		/* Transparent Ethernet Bridging */
	put32(f + 46, 42 << 8);		/* VNI 42 */
	return len;
}

static void test_geneve(void)
{
	static uint8_t in[4096], f[4200], scratch[CX_LSO_MAX_HDR + 2048];
	struct cx_tun_ports t = { .vxlan = { 4789 }, .nvxlan = 1,
				  .geneve_rx = true };
	const uint8_t inner_flags = MLX5_ETH_WQE_L3_INNER_CSUM |
				    MLX5_ETH_WQE_L4_INNER_CSUM;
	/* as mlx5e_set_eseg_swp() fills them: 2-byte words */
	struct cx_swp swp = { .outer_l3 = 7, .outer_l4 = 17, .inner_l3 = 32,
			      .inner_l4 = 42,
			      .flags = MLX5_ETH_WQE_SWP_OUTER_L4_UDP };
	struct cx_swp bad;
	struct cx_rx_class rc;
	struct cx_tun tun;
	size_t ilen, len, i;
	int good;

	ilen = build(in, false, false, 0, 300, 0x18, false);
	len = wrap_geneve(f, in, ilen, 6081, 0);
	ok(!cx_tun_parse(f, len, &t, &tun),
	   "GENEVE is not parsed on send (no tunnel_stateless_geneve_tx)");
	ok(cx_tun_from_swp(f, len, &swp, &tun) &&
	   tun.outer.l3 == CX_L3_IPV4 && tun.outer.l3_off == 14 &&
	   tun.outer.l4 == CX_L4_UDP && tun.outer.l4_off == 34 &&
	   tun.inner.l3 == CX_L3_IPV4 && tun.inner.l3_off == 64 &&
	   tun.inner.l4 == CX_L4_TCP && tun.inner.l4_off == 84 &&
	   tun.inner.l4_hlen == 20 && tun.inner.ip_end == len,
	   "swp: outer and inner headers taken at the eseg's offsets");
	bad = swp;
	bad.flags |= MLX5_ETH_WQE_SWP_INNER_L3_IPV6;
	ok(!cx_tun_from_swp(f, len, &bad, &tun),
	   "swp: an IPv4 header flagged IPv6 is not taken");
	bad = swp;
	bad.inner_l3 = 30;
	ok(!cx_tun_from_swp(f, len, &bad, &tun),
	   "swp: an inner L3 offset on no IP header is not taken");
	bad = swp;
	bad.inner_l4 = 31;
	ok(!cx_tun_from_swp(f, len, &bad, &tun),
	   "swp: an inner L4 offset before the inner L3 is not taken");
	bad = swp;
	bad.inner_l3 = 0;
	bad.inner_l4 = 0;
	ok(!cx_tun_from_swp(f, len, &bad, &tun) && !cx_swp_used(NULL),
	   "swp: no inner L3 offset, no tunnel");

	/* TX inner checksums at the swp offsets, any UDP port */
	put16(f + 24, 0);
	ok(cx_csum_tx_swp(f, len, MLX5_ETH_WQE_L3_CSUM | inner_flags, &t,
			  &swp) == 0 &&
	   ipv4_hdr_valid(f + 14) && l4_valid(f + 50, ilen) &&
	   ipv4_hdr_valid(f + 64) && get16(f + 40) == 0,
	   "TX swp GENEVE: inner TCP/IPv4 and outer IPv4 checksums, outer UDP 0");
	len = wrap_geneve(f, in, ilen, 6081, 0);
	cx_csum_tx_swp(f, len, MLX5_ETH_WQE_L3_CSUM | inner_flags, &t, NULL);
	ok(!l4_valid(f + 50, ilen),
	   "TX GENEVE without swp: the inner checksum is not filled");
	cx_csum_tx_swp(f, len, inner_flags | MLX5_ETH_WQE_L4_CSUM, &t, &swp);
	ok(l4_valid(f, len) && l4_valid(f + 50, ilen),
	   "TX swp GENEVE with L4_CSUM: the outer UDP checksum covers the inner");

	/* RX: 6081 parsed (tunnel_stateless_geneve_rx), options skipped */
	len = wrap_geneve(f, in, ilen, 6081, 2);
	cx_csum_tx(f + 58, ilen, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM);
	cx_rx_classify_tun(f, len, false, &t, &rc);
	ok(rc.tunneled && rc.hds_ip_ext == (CQE_L2_OK | CQE_L3_OK | CQE_L4_OK) &&
	   rc.l4_hdr_type == CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA,
	   "RX GENEVE on 6081 with options: tunneled, inner L3/L4 OK");
	f[len - 1] ^= 0x55;
	cx_rx_classify_tun(f, len, false, &t, &rc);
	ok(rc.tunneled && (rc.hds_ip_ext & CQE_L3_OK) &&
	   !(rc.hds_ip_ext & CQE_L4_OK),
	   "RX GENEVE, inner TCP checksum bad: no L4_OK");
	f[len - 1] ^= 0x55;
	t.geneve_rx = false;
	cx_rx_classify_tun(f, len, false, &t, &rc);
	t.geneve_rx = true;
	good = !rc.tunneled;
	put16(f + 44, 0x0800);	/* an IPv4 packet inside, not Ethernet */
	cx_rx_classify_tun(f, len, false, &t, &rc);
	good += !rc.tunneled;
	len = wrap_geneve(f, in, ilen, 6082, 0);
	cx_rx_classify_tun(f, len, false, &t, &rc);
	good += !rc.tunneled;
	ok(good == 3,
	   "RX GENEVE: not tunneled without the cap, nor for another protocol or port");

	/* LSO of the inner TCP at the swp offsets */
	ilen = build(in, false, false, 0, 2500, 0x18 | 0x01, false);
	len = wrap_geneve(f, in, ilen, 6081, 0);
	sink.n = 0;
	ok(cx_lso_segment_swp(f, len, 1000, MLX5_ETH_WQE_L3_CSUM | inner_flags,
			      &t, &swp, scratch, sizeof(scratch), sink_frame,
			      &sink) == 3 && sink.n == 3,
	   "swp GENEVE LSO: 3 segments of the inner TCP");
	good = 0;
	for (i = 0; i < 3 && sink.n == 3; i++) {
		const uint8_t *s = sink.frame[i];
		size_t sl = sink.len[i];

		good += tun_seg_ok(s, sl, 64, i, in) &&
			get16(s + 38) == sl - 34 && get16(s + 40) == 0 &&
			get16(s + 44) == 0x6558 && l4_valid(s + 50, sl - 50);
	}
	ok(good == 3,
	   "swp GENEVE LSO: outer IPv4/UDP lengths, inner IP and TCP fields, checksums, payload");
	sink.n = 0;
	ok(cx_lso_segment_swp(f, len, 1000, MLX5_ETH_WQE_L3_CSUM | inner_flags,
			      &t, NULL, scratch, sizeof(scratch), sink_frame,
			      &sink) == 3 && sink.n == 3 &&
	   get16(sink.frame[0] + 38) == len - 34,
	   "GENEVE LSO without swp: segmented as plain UDP (outer headers only)");
}

/* ---- GRE and IP-in-IP (tunnel_stateless_gre, _ip_over_ip) ---- */

/*
 * Outer Ethernet + IPv4 (or, with @v6, IPv6) of protocol @proto around the
 * @hlen bytes of @hdr (a GRE header, or none) and the @plen bytes of
 * @payload, into @f; returns the frame's length.  The outer L4 starts at
 * 34 (IPv6: 54).
 */
static size_t wrap_ip(uint8_t *f, bool v6, uint8_t proto, const uint8_t *hdr,
		      size_t hlen, const uint8_t *payload, size_t plen)
{
	size_t l4 = v6 ? 54 : 34, len = l4 + hlen + plen, i;

	memcpy(f, mac_hdr, 12);
	put16(f + 12, v6 ? 0x86dd : 0x0800);
	memset(f + 14, 0, l4 - 14);
	if (v6) {
		f[14] = 0x60;
		put16(f + 18, (uint16_t)(len - 54));
		f[20] = proto;
		f[21] = 64;
		for (i = 0; i < 16; i++) {
			f[22 + i] = (uint8_t)(0xa0 + i);
			f[38 + i] = (uint8_t)(0xb0 + i);
		}
	} else {
		f[14] = 0x45;
		put16(f + 16, (uint16_t)(len - 14));
		put16(f + 18, 0x2000);
		f[22] = 64;
		f[23] = proto;
		put32(f + 26, 0xc0a80001);
		put32(f + 30, 0xc0a80002);
		put16(f + 24, (uint16_t)~cx_csum_fold(cx_csum_add(0, f + 14, 20)));
	}
	if (hlen)
		memcpy(f + l4, hdr, hlen);
	memcpy(f + l4 + hlen, payload, plen);
	return len;
}

/* A GRE header of @flags (C, K, S) carrying @proto into @h; its length. */
static size_t gre_hdr(uint8_t *h, uint8_t flags, uint16_t proto)
{
	size_t n = 4;

	memset(h, 0, 16);
	h[0] = flags;
	put16(h + 2, proto);
	if (flags & CX_GRE_F_CSUM)
		n += 4;			/* checksum, reserved1 */
	if (flags & CX_GRE_F_KEY)
		put32(h + n, 42), n += 4;
	if (flags & CX_GRE_F_SEQ)
		put32(h + n, 7), n += 4;
	return n;
}

/* Fill the GRE checksum of the GRE frame @f (outer IPv4). */
static void gre_csum(uint8_t *f, size_t len)
{
	uint32_t sum;

	put16(f + 38, 0);
	sum = cx_csum_add(0, f + 34, len - 34);
	put16(f + 38, (uint16_t)~cx_csum_fold(sum));
}

/* The GRE checksum of the GRE frame @f (outer IPv4) is good. */
static bool gre_valid(const uint8_t *f, size_t len)
{
	return cx_csum_fold(cx_csum_add(0, f + 34, len - 34)) == 0xffff;
}

/* The IP packet at @ip (no Ethernet header) has good checksums. */
static bool ip_valid(const uint8_t *ip, size_t n, bool v6)
{
	static uint8_t e[4200];

	if (n + 14 > sizeof(e))
		return false;
	memcpy(e, mac_hdr, 12);
	put16(e + 12, v6 ? 0x86dd : 0x0800);
	memcpy(e + 14, ip, n);
	return l4_valid(e, n + 14);
}

static void test_gre(void)
{
	static uint8_t in[4096], f[4200], scratch[CX_LSO_MAX_HDR + 2048];
	struct cx_tun_ports t = { .gre = true };
	const uint8_t inner_flags = MLX5_ETH_WQE_L3_INNER_CSUM |
				    MLX5_ETH_WQE_L4_INNER_CSUM;
	const uint8_t ckc = CX_GRE_F_CSUM | CX_GRE_F_KEY | CX_GRE_F_SEQ;
	uint8_t h[16];
	struct cx_rx_class rc;
	struct cx_tun tun;
	size_t ilen, len, hl, i;
	uint16_t c;
	int good;

	/* parsing: Ethernet (gretap), IPv4, IPv6 inside; C, K, S */
	ilen = build(in, false, false, 0, 300, 0x18, false);
	hl = gre_hdr(h, ckc, 0x6558);
	len = wrap_ip(f, false, 47, h, hl, in, ilen);
	ok(hl == 16 && cx_tun_parse(f, len, &t, &tun) &&
	   tun.outer.l4_proto == 47 && tun.outer.l4_off == 34 &&
	   tun.inner_l2_off == 50 && tun.inner.l3 == CX_L3_IPV4 &&
	   tun.inner.l3_off == 64 && tun.inner.l4 == CX_L4_TCP &&
	   tun.inner.l4_off == 84 && tun.inner.ip_end == len,
	   "GRE 0x6558 with C, K, S: the inner Ethernet frame after 16 bytes");
	hl = gre_hdr(h, CX_GRE_F_KEY, 0x0800);
	len = wrap_ip(f, false, 47, h, hl, in + 14, ilen - 14);
	ok(cx_tun_parse(f, len, &t, &tun) && !tun.inner_l2_off &&
	   tun.inner.l3 == CX_L3_IPV4 && tun.inner.l3_off == 42 &&
	   tun.inner.l4 == CX_L4_TCP && tun.inner.l4_off == 62,
	   "GRE 0x0800 with K: the inner IPv4 packet after 8 bytes");
	ilen = build(in, true, false, 0, 300, 0x18, false);
	hl = gre_hdr(h, 0, 0x86dd);
	len = wrap_ip(f, true, 47, h, hl, in + 14, ilen - 14);
	ok(cx_tun_parse(f, len, &t, &tun) && tun.outer.l3 == CX_L3_IPV6 &&
	   tun.inner.l3 == CX_L3_IPV6 && tun.inner.l3_off == 58 &&
	   tun.inner.l4_off == 98,
	   "GRE 0x86dd in IPv6: the inner IPv6 packet after 4 bytes");
	t.gre = false;
	good = !cx_tun_parse(f, len, &t, &tun);
	t.gre = true;
	f[54] = CX_GRE_F_ROUTING;
	good += !cx_tun_parse(f, len, &t, &tun);
	f[54] = CX_GRE_F_SSR;
	good += !cx_tun_parse(f, len, &t, &tun);
	f[54] = 0;
	f[55] = 1;			/* version 1 (PPTP) */
	good += !cx_tun_parse(f, len, &t, &tun);
	f[55] = 0;
	put16(f + 56, 0x88be);		/* ERSPAN */
	good += !cx_tun_parse(f, len, &t, &tun);
	put16(f + 56, 0x86dd);
	f[54] = ckc;			/* options past the outer packet's end */
	put16(f + 18, 10);
	good += !cx_tun_parse(f, len, &t, &tun);
	put16(f + 18, 30);		/* the inner header cut by it */
	f[54] = 0;
	good += !cx_tun_parse(f, len, &t, &tun);
	cx_rx_classify_tun(f, len, false, &t, &rc);
	good += !rc.tunneled;
	ok(good == 8,
	   "GRE not parsed: no cap, routing, strict source route, version 1, ERSPAN, cut short");

	/* TX: inner checksums filled, the GRE checksum left as given */
	ilen = build(in, false, false, 0, 300, 0x18, false);
	hl = gre_hdr(h, CX_GRE_F_CSUM, 0x0800);
	len = wrap_ip(f, false, 47, h, hl, in + 14, ilen - 14);
	put16(f + 24, 0);
	put16(f + 38, 0x1234);
	ok(cx_csum_tx_tun(f, len, MLX5_ETH_WQE_L3_CSUM | inner_flags, &t) == 0 &&
	   ipv4_hdr_valid(f + 14) && ip_valid(f + 42, len - 42, false) &&
	   get16(f + 38) == 0x1234,
	   "TX GRE: inner TCP/IPv4 and outer IPv4 checksums, the GRE checksum as given");
	hl = gre_hdr(h, 0, 0x6558);
	len = wrap_ip(f, false, 47, h, hl, in, ilen);
	cx_csum_tx_tun(f, len, MLX5_ETH_WQE_L3_CSUM | inner_flags, &t);
	ok(l4_valid(f + 38, ilen), "TX gretap: the inner checksums filled");
	hl = gre_hdr(h, CX_GRE_F_CSUM, 0x0800);
	ilen = build(in, false, false, 0, 300, 0x18, true);
	len = wrap_ip(f, false, 47, h, hl, in + 14, ilen - 14);
	ok(cx_csum_tx_tun(f, len, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM,
			  &t) == 0 && gre_valid(f, len) &&
	   ip_valid(f + 42, len - 42, false),
	   "TX GRE with L4_CSUM (a GRE checksum left to the device): filled");
	ilen = build(in, false, false, 0, 300, 0x18, false);
	len = wrap_ip(f, false, 47, h, hl, in + 14, ilen - 14);
	cx_csum_tx_tun(f, len, MLX5_ETH_WQE_L4_CSUM | inner_flags, &t);
	ok(gre_valid(f, len) && ip_valid(f + 42, len - 42, false),
	   "TX GRE with L4_CSUM and the inner flags: the inner checksums, then the GRE one");
	hl = gre_hdr(h, 0, 0x6558);
	len = wrap_ip(f, false, 47, h, hl, in, ilen);
	f[34] = CX_GRE_F_ROUTING;
	cx_csum_tx_tun(f, len, MLX5_ETH_WQE_L3_CSUM | inner_flags, &t);
	ok(!l4_valid(f + 38, ilen),
	   "TX GRE with routing (not parsed): the inner checksum is not filled");

	/* RX: tunneled, the inner verdict, the GRE checksum checked */
	hl = gre_hdr(h, ckc, 0x6558);
	ilen = build(in, false, false, 0, 300, 0x18, true);
	len = wrap_ip(f, false, 47, h, hl, in, ilen);
	gre_csum(f, len);
	cx_rx_classify_tun(f, len, false, &t, &rc);
	ok(rc.tunneled && rc.hds_ip_ext == (CQE_L2_OK | CQE_L3_OK | CQE_L4_OK) &&
	   rc.l4_hdr_type == CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA &&
	   rc.l3_hdr_type == CX_CQE_L3_HDR_IPV4,
	   "RX gretap with C, K, S: tunneled, inner L3/L4 OK, inner header types");
	f[len - 1] ^= 0x55;
	gre_csum(f, len);
	cx_rx_classify_tun(f, len, false, &t, &rc);
	ok(rc.tunneled && (rc.hds_ip_ext & CQE_L3_OK) &&
	   !(rc.hds_ip_ext & CQE_L4_OK),
	   "RX GRE, inner TCP checksum bad (GRE checksum good): no L4_OK");
	f[len - 1] ^= 0x55;
	put16(f + 38, get16(f + 38) ^ 0x0101);
	cx_rx_classify_tun(f, len, false, &t, &rc);
	ok(rc.tunneled && !(rc.hds_ip_ext & CQE_L4_OK),
	   "RX GRE, GRE checksum bad: no L4_OK");
	f[23] = 50;			/* ESP: not a tunnel */
	put16(f + 24, 0);
	put16(f + 24, (uint16_t)~cx_csum_fold(cx_csum_add(0, f + 14, 20)));
	cx_rx_classify_tun(f, len, false, &t, &rc);
	ok(!rc.tunneled && rc.l3_hdr_type == CX_CQE_L3_HDR_IPV4 &&
	   !rc.l4_hdr_type, "RX IPv4 of another protocol: not tunneled");

	/* LSO of the inner TCP, GRE checksum as GSO_PARTIAL prepares it */
	ilen = build(in, false, false, 0, 2500, 0x18 | 0x01, false);
	hl = gre_hdr(h, CX_GRE_F_CSUM | CX_GRE_F_KEY, 0x0800);
	len = wrap_ip(f, false, 47, h, hl, in + 14, ilen - 14);
	sink.n = 0;
	ok(cx_lso_segment_tun(f, len, 1000, MLX5_ETH_WQE_L3_CSUM | inner_flags,
			      &t, scratch, sizeof(scratch), sink_frame,
			      &sink) == 3 && sink.n == 3,
	   "GRE LSO: 3 segments of the inner TCP");
	/* the GRE checksum of a full-sized segment, good for each */
	c = 0;
	if (sink.n == 3) {
		memcpy(f + 34, sink.frame[0] + 34, 12);
		gre_csum(sink.frame[0], sink.len[0]);
		c = get16(sink.frame[0] + 38);
	}
	len = wrap_ip(f, false, 47, h, hl, in + 14, ilen - 14);
	put16(f + 38, c);
	sink.n = 0;
	cx_lso_segment_tun(f, len, 1000, MLX5_ETH_WQE_L3_CSUM | inner_flags,
			   &t, scratch, sizeof(scratch), sink_frame, &sink);
	good = 0;
	for (i = 0; i < 3 && sink.n == 3; i++) {
		const uint8_t *s = sink.frame[i];
		size_t sl = sink.len[i];

		good += tun_seg_ok(s, sl, 46, i, in) &&
			get16(s + 38) == c && get32(s + 42) == 42 &&
			ip_valid(s + 46, sl - 46, false);
		if (i < 2) {
			cx_rx_classify_tun(s, sl, false, &t, &rc);
			good += rc.tunneled && (rc.hds_ip_ext & CQE_L4_OK);
		}
	}
	ok(good == 5,
	   "GRE LSO: outer IPv4 length/id/checksum, GRE header as given (its checksum good for full segments), inner fields, payload");
	sink.n = 0;
	f[34] |= CX_GRE_F_ROUTING;
	ok(cx_lso_segment_tun(f, len, 1000, MLX5_ETH_WQE_L3_CSUM | inner_flags,
			      &t, scratch, sizeof(scratch), sink_frame,
			      &sink) == CX_LSO_E_PARSE && sink.n == 0,
	   "GRE LSO, GRE not parsed: no TCP/UDP for the device to segment");
}

static void test_ipip(void)
{
	static uint8_t in[4096], f[4200], scratch[CX_LSO_MAX_HDR + 2048];
	struct cx_tun_ports t = { .ipip = true };
	const uint8_t inner_flags = MLX5_ETH_WQE_L3_INNER_CSUM |
				    MLX5_ETH_WQE_L4_INNER_CSUM;
	struct cx_rx_class rc;
	struct cx_tun tun;
	size_t ilen, len, i;
	int good;

	ilen = build(in, false, false, 0, 300, 0x18, false);
	len = wrap_ip(f, false, 4, NULL, 0, in + 14, ilen - 14);
	ok(cx_tun_parse(f, len, &t, &tun) && tun.outer.l4_proto == 4 &&
	   !tun.inner_l2_off && tun.inner.l3 == CX_L3_IPV4 &&
	   tun.inner.l3_off == 34 && tun.inner.l4 == CX_L4_TCP &&
	   tun.inner.l4_off == 54 && tun.inner.ip_end == len,
	   "IPv4 in IPv4 (4): the inner packet after the outer header");
	ilen = build(in, true, false, 0, 300, 0x18, false);
	len = wrap_ip(f, false, 41, NULL, 0, in + 14, ilen - 14);
	good = cx_tun_parse(f, len, &t, &tun) &&
	       tun.inner.l3 == CX_L3_IPV6 && tun.inner.l4_off == 74;
	len = wrap_ip(f, true, 41, NULL, 0, in + 14, ilen - 14);
	good += cx_tun_parse(f, len, &t, &tun) &&
		tun.inner.l3 == CX_L3_IPV6 && tun.inner.l4_off == 94;
	ilen = build(in, false, false, 0, 300, 0x18, false);
	len = wrap_ip(f, true, 4, NULL, 0, in + 14, ilen - 14);
	good += cx_tun_parse(f, len, &t, &tun) &&
		tun.inner.l3 == CX_L3_IPV4 && tun.inner.l4_off == 74;
	ok(good == 3, "IPv6 in IPv4 (41), IPv6 in IPv6, IPv4 in IPv6 parsed");
	t.ipip = false;
	good = !cx_tun_parse(f, len, &t, &tun);
	t.ipip = true;
	f[54] = 0x65;			/* protocol 4, an IPv6 header inside */
	good += !cx_tun_parse(f, len, &t, &tun);
	f[54] = 0x45;
	put16(f + 18, 12);		/* the outer packet ends in it */
	good += !cx_tun_parse(f, len, &t, &tun);
	ok(good == 3,
	   "IP-in-IP not parsed: no cap, another IP version inside, cut short");

	/* TX and RX */
	len = wrap_ip(f, false, 4, NULL, 0, in + 14, ilen - 14);
	put16(f + 24, 0);
	ok(cx_csum_tx_tun(f, len, MLX5_ETH_WQE_L3_CSUM | inner_flags, &t) == 0 &&
	   ipv4_hdr_valid(f + 14) && ip_valid(f + 34, len - 34, false),
	   "TX IPv4 in IPv4: inner and outer checksums filled");
	cx_rx_classify_tun(f, len, false, &t, &rc);
	ok(rc.tunneled && rc.hds_ip_ext == (CQE_L2_OK | CQE_L3_OK | CQE_L4_OK) &&
	   rc.l4_hdr_type == CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA,
	   "RX IPv4 in IPv4: tunneled, inner L3/L4 OK");
	f[len - 1] ^= 0x55;
	cx_rx_classify_tun(f, len, false, &t, &rc);
	good = rc.tunneled && (rc.hds_ip_ext & CQE_L3_OK) &&
	       !(rc.hds_ip_ext & CQE_L4_OK);
	f[len - 1] ^= 0x55;
	f[24] ^= 1;			/* the outer IPv4 checksum */
	cx_rx_classify_tun(f, len, false, &t, &rc);
	good += rc.tunneled && !(rc.hds_ip_ext & (CQE_L3_OK | CQE_L4_OK));
	ok(good == 2,
	   "RX IPv4 in IPv4: inner TCP checksum bad, no L4_OK; outer IPv4 bad, neither");

	/* LSO: both IP headers' lengths and ids per segment */
	ilen = build(in, false, false, 0, 2500, 0x18 | 0x01, false);
	len = wrap_ip(f, false, 4, NULL, 0, in + 14, ilen - 14);
	sink.n = 0;
	ok(cx_lso_segment_tun(f, len, 1000, MLX5_ETH_WQE_L3_CSUM | inner_flags,
			      &t, scratch, sizeof(scratch), sink_frame,
			      &sink) == 3 && sink.n == 3,
	   "IPIP LSO: 3 segments of the inner TCP");
	good = 0;
	for (i = 0; i < 3 && sink.n == 3; i++) {
		const uint8_t *s = sink.frame[i];
		size_t sl = sink.len[i];

		good += tun_seg_ok(s, sl, 34, i, in) &&
			ip_valid(s + 34, sl - 34, false);
	}
	ok(good == 3,
	   "IPIP LSO: outer and inner IPv4 length/id/checksum, TCP fields, payload");
	ilen = build(in, true, false, 0, 2500, 0x18, false);
	len = wrap_ip(f, true, 41, NULL, 0, in + 14, ilen - 14);
	sink.n = 0;
	ok(cx_lso_segment_tun(f, len, 1000, inner_flags, &t, scratch,
			      sizeof(scratch), sink_frame, &sink) == 3 &&
	   sink.n == 3 && get16(sink.frame[2] + 18) == 40 + 20 + 500 &&
	   get16(sink.frame[2] + 58) == 20 + 500 &&
	   ip_valid(sink.frame[2] + 54, 40 + 20 + 500, true),
	   "IPv6 in IPv6 LSO: both payload lengths, the inner TCP checksum");
}

int main(void)
{
	test_csum();
	test_rx_class();
	test_rss();
	test_cqe();
	test_cqe_comp();
	test_mpwrq();
	test_lro();
	test_send();
	test_map();
	test_mpwqe();
	test_mpwqe_inline();
	test_lso();
	test_lso_udp();
	test_vxlan();
	test_geneve();
	test_gre();
	test_ipip();
	test_wqe_errors();
	test_inline_mode();
	printf("1..%u\n", test_nr);
	return failures ? 1 : 0;
}
