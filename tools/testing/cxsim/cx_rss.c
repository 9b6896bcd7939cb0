// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim data path: frame parser and RSS (Toeplitz hash over the fields a
 * TIR's rx_hash_field_selector_outer selects).
 */
#include <string.h>

#include "cx_kshim.h"
#include "cx_bytes.h"
#include "cx_datapath.h"

#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86dd
#define ETH_P_8021Q	0x8100
#define ETH_P_8021AD	0x88a8
#define IPPROTO_HOPOPTS	0
#define IPPROTO_TCP	6
#define IPPROTO_UDP	17
#define IPPROTO_ROUTING	43
#define IPPROTO_FRAGMENT 44
#define IPPROTO_DSTOPTS	60
#define CX_MAX_EXT_HDRS	8

static void parse_l4(const uint8_t *f, size_t len, struct cx_pkt *pkt)
{
	size_t end = pkt->ip_end;
	size_t off = pkt->l4_off;

	pkt->l4 = CX_L4_OTHER;
	if (!pkt->first_frag)
		return;
	if (pkt->l4_proto == IPPROTO_TCP) {
		unsigned int doff;

		if (off + 20 > end)
			return;
		doff = (f[off + 12] >> 4) * 4u;
		if (doff < 20 || off + doff > end)
			return;
		pkt->l4 = CX_L4_TCP;
		pkt->l4_hlen = (uint16_t)doff;
	} else if (pkt->l4_proto == IPPROTO_UDP) {
		if (off + 8 > end)
			return;
		pkt->l4 = CX_L4_UDP;
		pkt->l4_hlen = 8;
	}
	(void)len;
}

static void parse_ipv4(const uint8_t *f, size_t len, struct cx_pkt *pkt)
{
	size_t off = pkt->l3_off;
	unsigned int ihl, tot;
	uint16_t frag;

	if (off + 20 > len || (f[off] >> 4) != 4)
		return;
	ihl = (f[off] & 0xf) * 4u;
	tot = cx_get_be16(f + off + 2);
	if (ihl < 20 || off + ihl > len || tot < ihl)
		return;
	pkt->l3 = CX_L3_IPV4;
	pkt->l3_hlen = (uint16_t)ihl;
	if (off + tot > len) {
		pkt->ip_trunc = true;
		tot = (unsigned int)(len - off);
	}
	pkt->ip_end = (uint32_t)(off + tot);
	frag = cx_get_be16(f + off + 6);
	pkt->frag = (frag & 0x3fff) != 0;
	pkt->first_frag = (frag & 0x1fff) == 0;
	pkt->l4_proto = f[off + 9];
	pkt->l4_off = (uint16_t)(off + ihl);
	parse_l4(f, len, pkt);
}

static void parse_ipv6(const uint8_t *f, size_t len, struct cx_pkt *pkt)
{
	size_t off = pkt->l3_off, p, end;
	uint8_t nh;
	int i;

	if (off + 40 > len || (f[off] >> 4) != 6)
		return;
	end = off + 40 + cx_get_be16(f + off + 4);
	if (end > len) {
		pkt->ip_trunc = true;
		end = len;
	}
	pkt->ip_end = (uint32_t)end;
	nh = f[off + 6];
	p = off + 40;
	for (i = 0; i < CX_MAX_EXT_HDRS; i++) {
		if (nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING ||
		    nh == IPPROTO_DSTOPTS) {
			if (p + 8 > end)
				return;
			nh = f[p];
			p += 8 + f[p + 1] * 8u;
		} else if (nh == IPPROTO_FRAGMENT) {
			uint16_t fo;

			if (p + 8 > end)
				return;
			fo = cx_get_be16(f + p + 2);
			pkt->frag = true;
			pkt->first_frag = (fo & 0xfff8) == 0;
			nh = f[p];
			p += 8;
		} else {
			break;
		}
	}
	if (p > end || p - off > 0xffff || i == CX_MAX_EXT_HDRS)
		return;
	pkt->l3 = CX_L3_IPV6;
	pkt->l3_hlen = (uint16_t)(p - off);
	pkt->l4_proto = nh;
	pkt->l4_off = (uint16_t)p;
	parse_l4(f, len, pkt);
}

int cx_pkt_parse_at(const uint8_t *frame, size_t len, uint16_t l3_off,
		    bool ipv6, uint16_t l4_off, bool udp, struct cx_pkt *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->first_frag = true;
	pkt->l3_off = l3_off;
	pkt->ip_end = (uint32_t)len;
	if (len > 0xffff)
		return -1;
	if (ipv6)
		parse_ipv6(frame, len, pkt);
	else
		parse_ipv4(frame, len, pkt);
	if (pkt->l3 == CX_L3_NONE)
		return -1;
	if (!l4_off)
		return 0;
	if (l4_off < l3_off + (ipv6 ? 40 : 20) || l4_off >= pkt->ip_end)
		return -1;
	if (ipv6)
		pkt->l3_hlen = (uint16_t)(l4_off - l3_off);
	pkt->l4_proto = udp ? IPPROTO_UDP : IPPROTO_TCP;
	pkt->l4_off = l4_off;
	pkt->l4_hlen = 0;
	parse_l4(frame, len, pkt);
	return 0;
}

int cx_pkt_parse_l3(const uint8_t *frame, size_t len, uint16_t l3_off,
		    uint16_t ethertype, struct cx_pkt *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->first_frag = true;
	pkt->ethertype = ethertype;
	pkt->l3_off = l3_off;
	pkt->ip_end = (uint32_t)len;
	if (len > 0xffff)
		return -1;
	if (ethertype == ETH_P_IP)
		parse_ipv4(frame, len, pkt);
	else if (ethertype == ETH_P_IPV6)
		parse_ipv6(frame, len, pkt);
	return pkt->l3 == CX_L3_NONE ? -1 : 0;
}

int cx_pkt_parse(const uint8_t *frame, size_t len, struct cx_pkt *pkt)
{
	size_t off = 12;
	uint16_t type;

	memset(pkt, 0, sizeof(*pkt));
	pkt->first_frag = true;
	if (len < CX_ETH_HLEN || len > 0xffff)
		return len > 0xffff ? -1 : 0;
	type = cx_get_be16(frame + off);
	while ((type == ETH_P_8021Q || type == ETH_P_8021AD) &&
	       pkt->nvlans < CX_PKT_MAX_VLANS && off + 4 + 2 <= len) {
		if (!pkt->nvlans) {
			pkt->vlan_tpid = type;
			pkt->vlan_tci = cx_get_be16(frame + off + 2);
		}
		pkt->nvlans++;
		off += 4;
		type = cx_get_be16(frame + off);
	}
	pkt->ethertype = type;
	pkt->l3_off = (uint16_t)(off + 2);
	pkt->ip_end = (uint32_t)len;
	if (type == ETH_P_IP)
		parse_ipv4(frame, len, pkt);
	else if (type == ETH_P_IPV6)
		parse_ipv6(frame, len, pkt);
	if (pkt->l3 == CX_L3_NONE) {
		pkt->ip_end = (uint32_t)len;
		pkt->frag = false;
		pkt->first_frag = true;
		pkt->l4 = CX_L4_NONE;
		pkt->l4_proto = 0;
		pkt->l4_off = 0;
		pkt->l4_hlen = 0;
		pkt->ip_trunc = false;
	}
	return 0;
}

uint32_t cx_toeplitz(const uint8_t key[CX_RSS_KEY_LEN], const uint8_t *in,
		     size_t len)
{
	uint32_t hash = 0;
	/* The 32 key bits aligned with the current input bit. */
	uint32_t win = cx_get_be32(key);
	size_t i;
	int b;

	if (len > CX_RSS_KEY_LEN - 4)
		len = CX_RSS_KEY_LEN - 4;
	for (i = 0; i < len; i++) {
		uint8_t next = key[i + 4];

		for (b = 7; b >= 0; b--) {
			if (in[i] & (1u << b))
				hash ^= win;
			win = win << 1 | ((next >> b) & 1);
		}
	}
	return hash;
}

/* Order two equal-sized fields so that both directions compare alike. */
static void sym_order(uint8_t *a, uint8_t *b, size_t n)
{
	uint8_t t[16];

	if (n <= sizeof(t) && memcmp(a, b, n) > 0) {
		memcpy(t, a, n);
		memcpy(a, b, n);
		memcpy(b, t, n);
	}
}

uint32_t cx_rss_hash(const struct cx_rss_cfg *cfg, const uint8_t *frame,
		     const struct cx_pkt *pkt, uint8_t *hash_type)
{
	uint8_t in[36], sip[16], dip[16], sp[2], dp[2];
	uint32_t sel = cfg->selected_fields;
	size_t alen, n = 0;
	uint8_t type = 0;
	bool ports;

	*hash_type = 0;
	if (pkt->l3 == CX_L3_IPV4 &&
	    cfg->l3_prot_type == MLX5_L3_PROT_TYPE_IPV4) {
		alen = 4;
		memcpy(sip, frame + pkt->l3_off + 12, 4);
		memcpy(dip, frame + pkt->l3_off + 16, 4);
	} else if (pkt->l3 == CX_L3_IPV6 &&
		   cfg->l3_prot_type == MLX5_L3_PROT_TYPE_IPV6) {
		alen = 16;
		memcpy(sip, frame + pkt->l3_off + 8, 16);
		memcpy(dip, frame + pkt->l3_off + 24, 16);
	} else {
		return 0;
	}
	ports = (sel & (MLX5_HASH_FIELD_SEL_L4_SPORT |
			MLX5_HASH_FIELD_SEL_L4_DPORT)) && !pkt->frag &&
		((pkt->l4 == CX_L4_TCP &&
		  cfg->l4_prot_type == MLX5_L4_PROT_TYPE_TCP) ||
		 (pkt->l4 == CX_L4_UDP &&
		  cfg->l4_prot_type == MLX5_L4_PROT_TYPE_UDP));
	if (ports) {
		memcpy(sp, frame + pkt->l4_off, 2);
		memcpy(dp, frame + pkt->l4_off + 2, 2);
	}
	if (cfg->symmetric) {
		sym_order(sip, dip, alen);
		if (ports)
			sym_order(sp, dp, 2);
	}
	if (sel & MLX5_HASH_FIELD_SEL_SRC_IP) {
		memcpy(in + n, sip, alen);
		n += alen;
	}
	if (sel & MLX5_HASH_FIELD_SEL_DST_IP) {
		memcpy(in + n, dip, alen);
		n += alen;
	}
	if (n)
		type |= (alen == 4 ? CQE_RSS_IPV4 : CQE_RSS_IPV6) << 2;
	if (ports) {
		if (sel & MLX5_HASH_FIELD_SEL_L4_SPORT) {
			memcpy(in + n, sp, 2);
			n += 2;
		}
		if (sel & MLX5_HASH_FIELD_SEL_L4_DPORT) {
			memcpy(in + n, dp, 2);
			n += 2;
		}
		type |= (pkt->l4 == CX_L4_TCP ? CQE_RSS_L4_TCP :
			 CQE_RSS_L4_UDP) << 6;
	}
	if (!n)
		return 0;
	*hash_type = type;
	return cx_toeplitz(cfg->key, in, n);
}
