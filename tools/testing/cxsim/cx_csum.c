// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim data path: Internet checksum, TX checksum offload, and the RX
 * classification an mlx5 CQE reports (hds_ip_ext, l4/l3 header types,
 * check_sum for CHECKSUM_COMPLETE).
 */
#include <string.h>

#include "cx_kshim_dp.h"
#include "cx_bytes.h"
#include "cx_datapath.h"

uint32_t cx_csum_add(uint32_t sum, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t s = sum;

	while (len >= 2) {
		s += cx_get_be16(p);
		p += 2;
		len -= 2;
	}
	if (len)
		s += (uint32_t)p[0] << 8;
	while (s >> 32)
		s = (s & 0xffffffffu) + (s >> 32);
	/* keep headroom for further additions */
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint32_t)s;
}

uint16_t cx_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

uint32_t cx_csum_pseudo(const uint8_t *frame, const struct cx_pkt *pkt,
			uint32_t l4_len)
{
	uint32_t s = 0;

	if (pkt->l3 == CX_L3_IPV4)
		s = cx_csum_add(0, frame + pkt->l3_off + 12, 8);
	else if (pkt->l3 == CX_L3_IPV6)
		s = cx_csum_add(0, frame + pkt->l3_off + 8, 32);
	s += pkt->l4_proto;
	s += l4_len >> 16;
	s += l4_len & 0xffff;
	return s;
}

/* Fill the IPv4 header checksum. */
static void csum_ipv4_hdr(uint8_t *frame, const struct cx_pkt *pkt)
{
	uint8_t *ip = frame + pkt->l3_off;

	cx_put_be16(ip + 10, 0);
	cx_put_be16(ip + 10, (uint16_t)~cx_csum_fold(cx_csum_add(0, ip,
							  pkt->l3_hlen)));
}

/* Fill the TCP/UDP checksum over [l4_off, ip_end). */
static int csum_l4(uint8_t *frame, const struct cx_pkt *pkt)
{
	uint32_t l4_len = pkt->ip_end - pkt->l4_off;
	unsigned int coff;
	uint16_t c;

	if (pkt->l4 == CX_L4_TCP)
		coff = 16;
	else if (pkt->l4 == CX_L4_UDP)
		coff = 6;
	else
		return -1;
	if (pkt->frag)
		return -1;
	cx_put_be16(frame + pkt->l4_off + coff, 0);
	c = ~cx_csum_fold(cx_csum_add(cx_csum_pseudo(frame, pkt, l4_len),
				      frame + pkt->l4_off, l4_len));
	if (pkt->l4 == CX_L4_UDP && c == 0)
		c = 0xffff;
	cx_put_be16(frame + pkt->l4_off + coff, c);
	return 0;
}

int cx_csum_tx(uint8_t *frame, size_t len, uint8_t cs_flags)
{
	bool l3 = cs_flags & (MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L3_INNER_CSUM);
	bool l4 = cs_flags & (MLX5_ETH_WQE_L4_CSUM | MLX5_ETH_WQE_L4_INNER_CSUM);
	struct cx_pkt pkt;

	if (!l3 && !l4)
		return 0;
	if (cx_pkt_parse(frame, len, &pkt))
		return -1;
	if (l3 && pkt.l3 == CX_L3_IPV4)
		csum_ipv4_hdr(frame, &pkt);
	if (l4)
		return csum_l4(frame, &pkt);
	return 0;
}

bool cx_tun_port_known(const struct cx_tun_ports *t, uint16_t port)
{
	unsigned int i;

	if (!t)
		return false;
	for (i = 0; i < t->nvxlan && i < CX_VXLAN_MAX_PORTS; i++)
		if (t->vxlan[i] == port)
			return true;
	return false;
}

static void shift_pkt(struct cx_pkt *p, uint16_t by)
{
	p->l3_off = (uint16_t)(p->l3_off + by);
	p->ip_end += by;
	if (p->l4_off)
		p->l4_off = (uint16_t)(p->l4_off + by);
}

/* Where the inner frame of a tunnel to the outer UDP header @o starts. */
static size_t tun_inner_off(const uint8_t *frame, const struct cx_pkt *o,
			    const struct cx_tun_ports *t, bool rx)
{
	uint16_t port = cx_get_be16(frame + o->l4_off + 2);
	size_t g = (size_t)o->l4_off + 8;

	if (cx_tun_port_known(t, port))
		return g + CX_VXLAN_HLEN;
	if (!rx || !t->geneve_rx || port != CX_GENEVE_PORT ||
	    g + CX_GENEVE_HLEN > o->ip_end)
		return 0;
	/* version 0, an Ethernet frame inside, after the options */
	if ((frame[g] >> 6) ||
	    cx_get_be16(frame + g + 2) != CX_GENEVE_PROTO_TEB)
		return 0;
	return g + CX_GENEVE_HLEN + (frame[g] & 0x3f) * 4u;
}

/* The length of the GRE header at @g, 0 when the device does not parse it. */
static size_t gre_hlen(const uint8_t *frame, const struct cx_pkt *o, size_t g)
{
	uint8_t f;

	if (g + CX_GRE_HLEN > o->ip_end)
		return 0;
	f = frame[g];
	if ((f & (CX_GRE_F_ROUTING | CX_GRE_F_SSR)) ||
	    (frame[g + 1] & CX_GRE_VERSION))
		return 0;
	return CX_GRE_HLEN + (f & CX_GRE_F_CSUM ? 4 : 0) +
	       (f & CX_GRE_F_KEY ? 4 : 0) + (f & CX_GRE_F_SEQ ? 4 : 0);
}

/*
 * Where the inner packet of a GRE or IP-in-IP tunnel starts, and its
 * type (@*ethertype: 0x6558 an Ethernet frame, else the IP version's);
 * 0 when @o is neither or @t does not parse it.
 */
static size_t tun_ip_inner_off(const uint8_t *frame, const struct cx_pkt *o,
			       const struct cx_tun_ports *t,
			       uint16_t *ethertype)
{
	size_t g = o->l4_off, hl;

	switch (o->l4_proto) {
	case CX_IPPROTO_GRE:
		hl = t->gre ? gre_hlen(frame, o, g) : 0;
		if (!hl)
			return 0;
		*ethertype = cx_get_be16(frame + g + 2);
		if (*ethertype != CX_GENEVE_PROTO_TEB &&
		    *ethertype != 0x0800 && *ethertype != 0x86dd)
			return 0;
		return g + hl;
	case CX_IPPROTO_IPIP:
	case CX_IPPROTO_IPV6:
		if (!t->ipip)
			return 0;
		*ethertype = o->l4_proto == CX_IPPROTO_IPIP ? 0x0800 : 0x86dd;
		return g;
	default:
		return 0;
	}
}

/* The inner packet at @in_off, of @ethertype, inside the outer @o. */
static bool tun_parse_inner(const uint8_t *frame, const struct cx_pkt *o,
			    size_t in_off, uint16_t ethertype,
			    struct cx_tun *tun)
{
	if (ethertype != CX_GENEVE_PROTO_TEB)
		/* the inner packet ends where the outer IP packet does */
		return in_off < o->ip_end &&
		       !cx_pkt_parse_l3(frame, o->ip_end, (uint16_t)in_off,
					ethertype, &tun->inner);
	if (in_off + CX_ETH_HLEN > o->ip_end)
		return false;
	if (cx_pkt_parse(frame + in_off, o->ip_end - in_off, &tun->inner) ||
	    tun->inner.l3 == CX_L3_NONE)
		return false;
	tun->inner_l2_off = (uint16_t)in_off;
	shift_pkt(&tun->inner, (uint16_t)in_off);
	return true;
}

static bool tun_parse(const uint8_t *frame, size_t len,
		      const struct cx_tun_ports *t, struct cx_tun *tun, bool rx)
{
	uint16_t ethertype = CX_GENEVE_PROTO_TEB;
	struct cx_pkt *o = &tun->outer;
	size_t in_off;

	memset(tun, 0, sizeof(*tun));
	if (!t || (!t->nvxlan && !(rx && t->geneve_rx) && !t->gre &&
		   !t->ipip) ||
	    cx_pkt_parse(frame, len, o))
		return false;
	if (o->l3 == CX_L3_NONE || o->frag)
		return false;
	if (o->l4 == CX_L4_UDP)
		in_off = tun_inner_off(frame, o, t, rx);
	else
		in_off = tun_ip_inner_off(frame, o, t, &ethertype);
	if (!in_off)
		return false;
	return tun_parse_inner(frame, o, in_off, ethertype, tun);
}

bool cx_tun_parse(const uint8_t *frame, size_t len,
		  const struct cx_tun_ports *t, struct cx_tun *tun)
{
	return tun_parse(frame, len, t, tun, false);
}

bool cx_swp_used(const struct cx_swp *s)
{
	return s && (s->outer_l3 || s->outer_l4 || s->inner_l3 ||
		     s->inner_l4);
}

bool cx_tun_from_swp(const uint8_t *frame, size_t len,
		     const struct cx_swp *s, struct cx_tun *tun)
{
	uint16_t o3, o4, i3, i4;

	memset(tun, 0, sizeof(*tun));
	if (!cx_swp_used(s) || !s->inner_l3 || !s->outer_l3)
		return false;
	o3 = (uint16_t)(s->outer_l3 * 2);
	o4 = (uint16_t)(s->outer_l4 * 2);
	i3 = (uint16_t)(s->inner_l3 * 2);
	i4 = (uint16_t)(s->inner_l4 * 2);
	if (i3 <= o3 || (o4 && i3 <= o4) || (i4 && i4 <= i3))
		return false;
	if (cx_pkt_parse_at(frame, len, o3,
			    s->flags & MLX5_ETH_WQE_SWP_OUTER_L3_IPV6, o4,
			    s->flags & MLX5_ETH_WQE_SWP_OUTER_L4_UDP,
			    &tun->outer) || tun->outer.frag ||
	    i3 >= tun->outer.ip_end)
		return false;
	/* the inner packet ends where the outer one does */
	if (cx_pkt_parse_at(frame, tun->outer.ip_end, i3,
			    s->flags & MLX5_ETH_WQE_SWP_INNER_L3_IPV6, i4,
			    s->flags & MLX5_ETH_WQE_SWP_INNER_L4_UDP,
			    &tun->inner))
		return false;
	tun->inner_l2_off = i3 >= CX_ETH_HLEN ? (uint16_t)(i3 - CX_ETH_HLEN) : 0;
	return true;
}

/* The GRE checksum (over the GRE header and all it carries), if it has one. */
static bool csum_gre(uint8_t *frame, const struct cx_pkt *o)
{
	uint8_t *g = frame + o->l4_off;
	uint32_t sum;

	if (o->l4_proto != CX_IPPROTO_GRE || !(g[0] & CX_GRE_F_CSUM))
		return false;
	cx_put_be16(g + 4, 0);
	sum = cx_csum_add(0, g, o->ip_end - o->l4_off);
	cx_put_be16(g + 4, (uint16_t)~cx_csum_fold(sum));
	return true;
}

/*
 * L4_CSUM of a GRE frame the device parses: the GRE checksum is its outer
 * L4 checksum (mainline mlx5e, with NETIF_F_HW_CSUM, asks for it so when
 * the stack leaves a GRE checksum CHECKSUM_PARTIAL).
 */
static int csum_tx_outer_gre(uint8_t *frame, size_t len, uint8_t cs_flags,
			     const struct cx_tun *tun)
{
	if (!(cs_flags & MLX5_ETH_WQE_L4_CSUM) ||
	    tun->outer.l4_proto != CX_IPPROTO_GRE)
		return cx_csum_tx(frame, len, cs_flags);
	if ((cs_flags & MLX5_ETH_WQE_L3_CSUM) && tun->outer.l3 == CX_L3_IPV4)
		csum_ipv4_hdr(frame, &tun->outer);
	return csum_gre(frame, &tun->outer) ? 0 : -1;
}

int cx_csum_tx_swp(uint8_t *frame, size_t len, uint8_t cs_flags,
		   const struct cx_tun_ports *t, const struct cx_swp *s)
{
	struct cx_tun tun;
	int ret = 0;

	if (!(cs_flags & (MLX5_ETH_WQE_L3_INNER_CSUM |
			  MLX5_ETH_WQE_L4_INNER_CSUM))) {
		if ((cs_flags & MLX5_ETH_WQE_L4_CSUM) &&
		    cx_tun_parse(frame, len, t, &tun))
			return csum_tx_outer_gre(frame, len, cs_flags, &tun);
		return cx_csum_tx(frame, len, cs_flags);
	}
	if (!cx_tun_from_swp(frame, len, s, &tun) &&
	    !cx_tun_parse(frame, len, t, &tun))
		return cx_csum_tx(frame, len, cs_flags);
	if ((cs_flags & MLX5_ETH_WQE_L3_INNER_CSUM) &&
	    tun.inner.l3 == CX_L3_IPV4)
		csum_ipv4_hdr(frame, &tun.inner);
	if (cs_flags & MLX5_ETH_WQE_L4_INNER_CSUM)
		ret = csum_l4(frame, &tun.inner);
	if ((cs_flags & MLX5_ETH_WQE_L3_CSUM) && tun.outer.l3 == CX_L3_IPV4)
		csum_ipv4_hdr(frame, &tun.outer);
	if ((cs_flags & MLX5_ETH_WQE_L4_CSUM) && !csum_gre(frame, &tun.outer))
		csum_l4(frame, &tun.outer);
	return ret;
}

int cx_csum_tx_tun(uint8_t *frame, size_t len, uint8_t cs_flags,
		   const struct cx_tun_ports *t)
{
	return cx_csum_tx_swp(frame, len, cs_flags, t, NULL);
}

static bool l4_csum_ok(const uint8_t *frame, const struct cx_pkt *pkt)
{
	uint32_t l4_len = pkt->ip_end - pkt->l4_off;

	if (pkt->ip_trunc || pkt->frag)
		return false;
	if (pkt->l4 == CX_L4_UDP && pkt->l3 == CX_L3_IPV4 &&
	    !frame[pkt->l4_off + 6] && !frame[pkt->l4_off + 7])
		return true;	/* no checksum */
	return cx_csum_fold(cx_csum_add(cx_csum_pseudo(frame, pkt, l4_len),
					frame + pkt->l4_off, l4_len)) == 0xffff;
}

/* The L3/L4 header types and OK bits of the parsed packet @pkt. */
static void rx_classify_pkt(const uint8_t *frame, const struct cx_pkt *pkt,
			    struct cx_rx_class *rc)
{
	if (pkt->l3 == CX_L3_IPV4) {
		rc->l3_hdr_type = CX_CQE_L3_HDR_IPV4;
		if (!pkt->ip_trunc &&
		    cx_csum_fold(cx_csum_add(0, frame + pkt->l3_off,
					     pkt->l3_hlen)) == 0xffff)
			rc->hds_ip_ext |= CQE_L3_OK;
	} else if (pkt->l3 == CX_L3_IPV6) {
		rc->l3_hdr_type = CX_CQE_L3_HDR_IPV6;
		if (!pkt->ip_trunc)
			rc->hds_ip_ext |= CQE_L3_OK;
	}
	if (pkt->l4 == CX_L4_TCP) {
		const uint8_t *th = frame + pkt->l4_off;
		bool ack = th[13] & 0x10;
		bool data = pkt->ip_end > (uint32_t)pkt->l4_off + pkt->l4_hlen;

		rc->l4_hdr_type = !ack ? CQE_L4_HDR_TYPE_TCP_NO_ACK :
				  data ? CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA :
					 CQE_L4_HDR_TYPE_TCP_ACK_NO_DATA;
	} else if (pkt->l4 == CX_L4_UDP) {
		rc->l4_hdr_type = CQE_L4_HDR_TYPE_UDP;
	}
	if ((pkt->l4 == CX_L4_TCP || pkt->l4 == CX_L4_UDP) &&
	    (rc->hds_ip_ext & CQE_L3_OK) && l4_csum_ok(frame, pkt))
		rc->hds_ip_ext |= CQE_L4_OK;
}

void cx_rx_classify(const uint8_t *frame, size_t len, bool csum_full,
		    struct cx_rx_class *rc)
{
	struct cx_pkt *pkt = &rc->pkt;
	size_t from;

	memset(rc, 0, sizeof(*rc));
	cx_pkt_parse(frame, len, pkt);
	if (len >= CX_ETH_HLEN)
		rc->hds_ip_ext = CQE_L2_OK;
	rx_classify_pkt(frame, pkt, rc);
	/* CHECKSUM_COMPLETE: from the network header to the frame's end. */
	from = csum_full ? CX_ETH_HLEN : pkt->l3_off;
	if (len > from)
		rc->check_sum = cx_csum_fold(cx_csum_add(0, frame + from,
							 len - from));
}

bool cx_rx_vlan_strip(uint8_t *frame, size_t *len, uint16_t *tci)
{
	if (*len < CX_ETH_HLEN + CX_VLAN_HLEN || frame[12] != 0x81 ||
	    frame[13] != 0x00)
		return false;
	*tci = cx_get_be16(frame + 14);
	memmove(frame + 12, frame + 16, *len - 16);
	*len -= CX_VLAN_HLEN;
	return true;
}

/* The outer UDP or GRE checksum of a tunnel, good or absent. */
static bool rx_outer_l4_ok(const uint8_t *frame, const struct cx_pkt *o,
			   const struct cx_rx_class *rc)
{
	const uint8_t *l4 = frame + o->l4_off;

	if (o->l4 == CX_L4_UDP) {
		if (l4[6] || l4[7])
			return rc->hds_ip_ext & CQE_L4_OK;
		return o->l3 != CX_L3_IPV6;	/* IPv6 forbids a zero one */
	}
	if (o->l4_proto != CX_IPPROTO_GRE || !(l4[0] & CX_GRE_F_CSUM))
		return true;
	/* over the GRE header and all it carries */
	return cx_csum_fold(cx_csum_add(0, l4, o->ip_end - o->l4_off)) ==
	       0xffff;
}

void cx_rx_classify_tun(const uint8_t *frame, size_t len, bool csum_full,
			const struct cx_tun_ports *t, struct cx_rx_class *rc)
{
	struct cx_rx_class in;
	struct cx_tun tun;
	bool outer_ok;

	cx_rx_classify(frame, len, csum_full, rc);
	if (!tun_parse(frame, len, t, &tun, true))
		return;
	/* the outer headers: IPv4 header, UDP (0: none) or GRE checksum */
	outer_ok = (rc->hds_ip_ext & CQE_L3_OK) && !tun.outer.ip_trunc &&
		   rx_outer_l4_ok(frame, &tun.outer, rc);
	/* the inner packet, classified on its own */
	memset(&in, 0, sizeof(in));
	rx_classify_pkt(frame, &tun.inner, &in);
	rc->tunneled = true;
	rc->l3_hdr_type = in.l3_hdr_type;
	rc->l4_hdr_type = in.l4_hdr_type;
	rc->hds_ip_ext = (uint8_t)(rc->hds_ip_ext & CQE_L2_OK);
	if (outer_ok)
		rc->hds_ip_ext |= (uint8_t)(in.hds_ip_ext &
					    (CQE_L3_OK | CQE_L4_OK));
}
