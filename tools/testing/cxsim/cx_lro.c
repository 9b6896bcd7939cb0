// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim data path: LRO sessions (a TIR's packet_merge_mask).
 *
 * In-order TCP segments of one flow arriving on an RQ through an LRO TIR
 * are placed one after the other in consecutive strides of one striding
 * WQE: the first segment whole, each next one's TCP payload only.  One
 * CQE then says the whole (byte_cnt from the first byte), the segments
 * (lro_num_seg), the last segment's ACK number, window and PSH, and the
 * lowest TTL/hop limit; the driver rewrites the first header from them
 * (upstream mlx5e_lro_update_hdr()).  Its check_sum is the ones' sum of
 * the payload alone, which the driver adds the rewritten TCP header and
 * the pseudo header to.  Which segments qualify is cx_lro_parse(); when a
 * session closes is the caller's (cx_rx.c): a segment that does not
 * match, PSH, the TIR's payload limit, the WQE's end or the timeout.
 */
#include <string.h>

#include "cx_kshim.h"
#include "cx_bytes.h"
#include "cx_datapath.h"

#define CX_TCP_ACK	0x10
#define CX_TCP_PSH	0x08

void cx_lro_parse(const uint8_t *frame, size_t len,
		  const struct cx_rx_class *rc, uint8_t mask,
		  struct cx_lro_seg *s)
{
	const struct cx_pkt *p = &rc->pkt;
	const uint8_t *ip, *tcp;
	uint8_t flags;

	memset(s, 0, sizeof(*s));
	if (p->nvlans || p->l4 != CX_L4_TCP || p->frag || p->ip_trunc ||
	    p->ip_end != len ||
	    (rc->hds_ip_ext & (CQE_L3_OK | CQE_L4_OK)) !=
	    (CQE_L3_OK | CQE_L4_OK))
		return;
	ip = frame + p->l3_off;
	if (p->l3 == CX_L3_IPV4) {
		if (!(mask & MLX5_TIRC_PACKET_MERGE_MASK_IPV4_LRO) ||
		    p->l3_hlen != 20)
			return;
		memcpy(s->saddr, ip + 12, 4);
		memcpy(s->daddr, ip + 16, 4);
		s->ttl = ip[8];
	} else if (p->l3 == CX_L3_IPV6) {
		if (!(mask & MLX5_TIRC_PACKET_MERGE_MASK_IPV6_LRO) ||
		    p->l3_hlen != 40)
			return;
		s->v6 = true;
		memcpy(s->saddr, ip + 8, 16);
		memcpy(s->daddr, ip + 24, 16);
		s->ttl = ip[7];
	} else {
		return;
	}
	tcp = frame + p->l4_off;
	flags = tcp[13];
	if (!(flags & CX_TCP_ACK) || (flags & ~(CX_TCP_ACK | CX_TCP_PSH)))
		return;
	/* No options, or NOP, NOP, timestamp (kind 8, length 10). */
	if (p->l4_hlen != 20 &&
	    (p->l4_hlen != 32 || cx_get_be32(tcp + 20) != 0x0101080a))
		return;
	s->hlen = (uint16_t)(p->l4_off + p->l4_hlen);
	if (s->hlen >= len)
		return;
	s->sport = cx_get_be16(tcp);
	s->dport = cx_get_be16(tcp + 2);
	s->seq = cx_get_be32(tcp + 4);
	s->ack = cx_get_be32(tcp + 8);
	s->win = cx_get_be16(tcp + 14);
	s->psh = flags & CX_TCP_PSH;
	s->plen = (uint32_t)(len - s->hlen);
	s->ok = true;
}

/* Add @len payload bytes that start @off bytes into the stream. */
static uint32_t cx_lro_sum(uint32_t sum, uint32_t off, const uint8_t *buf,
			   uint32_t len)
{
	uint16_t part = cx_csum_fold(cx_csum_add(0, buf, len));

	/* A part at an odd offset has its bytes swapped in the stream. */
	if (off & 1)
		part = (uint16_t)(part << 8 | part >> 8);
	return sum + part;
}

void cx_lro_start(struct cx_lro_sess *x, const struct cx_lro_seg *s,
		  const uint8_t *frame, uint32_t max_payload)
{
	memset(x, 0, sizeof(*x));
	x->active = true;
	x->first = *s;
	x->next_seq = s->seq + s->plen;
	x->ack = s->ack;
	x->win = s->win;
	x->min_ttl = s->ttl;
	x->psh = s->psh;
	x->len = s->hlen + s->plen;
	x->payload = s->plen;
	x->max_payload = max_payload;
	x->csum = cx_lro_sum(0, 0, frame + s->hlen, s->plen);
	x->nseg = 1;
}

bool cx_lro_match(const struct cx_lro_sess *x, const struct cx_lro_seg *s,
		  bool vlan_stripped, uint16_t vlan_tci)
{
	const struct cx_lro_seg *f = &x->first;
	size_t alen = f->v6 ? 16 : 4;

	return x->active && s->ok && !x->psh && s->v6 == f->v6 &&
	       !memcmp(s->saddr, f->saddr, alen) &&
	       !memcmp(s->daddr, f->daddr, alen) &&
	       s->sport == f->sport && s->dport == f->dport &&
	       vlan_stripped == x->vlan_stripped &&
	       (!vlan_stripped || vlan_tci == x->vlan_tci) &&
	       s->hlen == f->hlen && s->seq == x->next_seq &&
	       x->nseg < 0xff && x->payload + s->plen <= x->max_payload &&
	       x->len + s->plen <= 0xffff;
}

void cx_lro_append(struct cx_lro_sess *x, const struct cx_lro_seg *s,
		   const uint8_t *frame)
{
	x->csum = cx_lro_sum(x->csum, x->payload, frame + s->hlen, s->plen);
	x->next_seq += s->plen;
	x->ack = s->ack;
	x->win = s->win;
	if (s->ttl < x->min_ttl)
		x->min_ttl = s->ttl;
	x->psh = s->psh;
	x->len += s->plen;
	x->payload += s->plen;
	x->nseg++;
}

void cx_lro_cqe(const struct cx_lro_sess *x, struct cx_cqe_rx *rx)
{
	rx->byte_cnt = x->len;
	rx->lro_num_seg = (uint8_t)x->nseg;
	rx->lro_flags = x->psh ? CX_LRO_TCPPSH : 0;
	rx->lro_min_ttl = x->min_ttl;
	rx->lro_tcp_win = x->win;
	rx->lro_ack_seq = x->ack;
	rx->lro_csum = cx_csum_fold(x->csum);
}
