// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim data path: large send offload.  The super-packet's IP length
 * fields are ignored (the stack leaves 0 there for BIG TCP); the WQE's
 * length is the truth, as it is for the hardware.
 *
 * UDP (NETIF_F_GSO_UDP_L4): the UDP header is replicated as the WQE gives
 * it, its length field included.  The device does not rewrite the UDP
 * length per segment; that is why mlx5e writes one segment's length
 * there (mlx5e_udp_gso_handle_tx_skb()) and leaves a shorter last
 * segment to the stack (GSO_PARTIAL).  A driver that does not gets
 * segments whose UDP length disagrees with their IP length, which a
 * receiver drops.
 */
#include <string.h>

#include "cx_kshim_dp.h"
#include "cx_bytes.h"
#include "cx_datapath.h"

#define TCP_FIN	0x01
#define TCP_PSH	0x08
#define TCP_CWR	0x80

/* Parse the headers of @sp with its IP length fields forced to "all". */
static int lso_parse(const uint8_t *sp, size_t len, struct cx_pkt *pkt)
{
	uint8_t hdr[CX_LSO_MAX_HDR];
	size_t n = len < sizeof(hdr) ? len : sizeof(hdr);

	memcpy(hdr, sp, n);
	if (cx_pkt_parse(hdr, n, pkt))
		return CX_LSO_E_PARSE;
	if (pkt->ethertype == 0x0800 && pkt->l3_off + 4u <= n)
		cx_put_be16(hdr + pkt->l3_off + 2, 0xffff);
	else if (pkt->ethertype == 0x86dd && pkt->l3_off + 6u <= n)
		cx_put_be16(hdr + pkt->l3_off + 4, 0xffff);
	else
		return CX_LSO_E_PARSE;
	cx_pkt_parse(hdr, n, pkt);
	if (pkt->l3 == CX_L3_NONE)
		return len > sizeof(hdr) ? CX_LSO_E_HDR : CX_LSO_E_PARSE;
	if (pkt->frag)
		return CX_LSO_E_FRAG;
	if (pkt->l4 != CX_L4_TCP && pkt->l4 != CX_L4_UDP) {
		/* a TCP/UDP header cut by the header bound */
		if ((pkt->l4_proto == 6 || pkt->l4_proto == 17) &&
		    len > sizeof(hdr))
			return CX_LSO_E_HDR;
		return CX_LSO_E_PARSE;
	}
	return 0;
}

int cx_lso_segment(const uint8_t *sp, size_t len, uint16_t mss,
		   uint8_t cs_flags, uint8_t *scratch, size_t scratch_size,
		   cx_frame_fn emit, void *ctx)
{
	struct cx_pkt pkt, seg;
	size_t hlen, payload, off, n, flen;
	uint32_t nsegs, i, seq = 0;
	uint16_t ipid = 0;
	uint8_t flags = 0;
	int ret;

	if (!mss)
		return CX_LSO_E_MSS;
	ret = lso_parse(sp, len, &pkt);
	if (ret)
		return ret;
	hlen = (size_t)pkt.l4_off + pkt.l4_hlen;
	if (hlen > CX_LSO_MAX_HDR)
		return CX_LSO_E_HDR;
	if (hlen + mss > 0xffff)
		return CX_LSO_E_MSS;	/* a segment IP cannot describe */
	if (scratch_size < hlen + mss || scratch_size < CX_ETH_ZLEN)
		return CX_LSO_E_SCRATCH;
	payload = len - hlen;
	nsegs = payload ? (uint32_t)((payload + mss - 1) / mss) : 1;
	if (nsegs > CX_LSO_MAX_SEGS)
		return CX_LSO_E_SEGS;
	if (pkt.l3 == CX_L3_IPV4)
		ipid = cx_get_be16(sp + pkt.l3_off + 4);
	if (pkt.l4 == CX_L4_TCP) {
		seq = cx_get_be32(sp + pkt.l4_off + 4);
		flags = sp[pkt.l4_off + 13];
	}
	for (i = 0, off = hlen; i < nsegs; i++, off += n) {
		uint8_t *ip, *l4;

		n = len - off < mss ? len - off : mss;
		flen = hlen + n;
		memcpy(scratch, sp, hlen);
		memcpy(scratch + hlen, sp + off, n);
		ip = scratch + pkt.l3_off;
		l4 = scratch + pkt.l4_off;
		if (pkt.l3 == CX_L3_IPV4) {
			cx_put_be16(ip + 2, (uint16_t)(flen - pkt.l3_off));
			cx_put_be16(ip + 4, (uint16_t)(ipid + i));
		} else {
			cx_put_be16(ip + 4, (uint16_t)(flen - pkt.l3_off - 40));
		}
		if (pkt.l4 == CX_L4_TCP) {
			uint8_t f = flags;

			cx_put_be32(l4 + 4, seq + (uint32_t)(i * mss));
			if (i + 1 < nsegs)
				f &= (uint8_t)~(TCP_FIN | TCP_PSH);
			if (i)
				f &= (uint8_t)~TCP_CWR;
			l4[13] = f;
		}
		/* parse the segment as sent and fill its checksums */
		if (flen < CX_ETH_ZLEN) {
			memset(scratch + flen, 0, CX_ETH_ZLEN - flen);
			flen = CX_ETH_ZLEN;
		}
		cx_pkt_parse(scratch, flen, &seg);
		if (seg.l3 != pkt.l3 || seg.l4 != pkt.l4)
			return CX_LSO_E_PARSE;	/* cannot happen */
		cx_csum_tx(scratch, flen, cs_flags);
		emit(ctx, scratch, flen);
	}
	return (int)nsegs;
}

/* The inner headers of a tunneled super-packet, IP lengths forced to "all". */
static bool lso_tun_get(const uint8_t *frame, size_t len,
			const struct cx_tun_ports *t, const struct cx_swp *s,
			struct cx_tun *tun)
{
	if (s)
		return cx_tun_from_swp(frame, len, s, tun) &&
		       tun->inner.l4_off;
	return cx_tun_parse(frame, len, t, tun);
}

static int lso_parse_tun(const uint8_t *sp, size_t len,
			 const struct cx_tun_ports *t, const struct cx_swp *s,
			 struct cx_tun *tun)
{
	uint8_t hdr[CX_LSO_MAX_HDR];
	size_t n = len < sizeof(hdr) ? len : sizeof(hdr);
	struct cx_pkt *o = &tun->outer;
	size_t il3;

	memcpy(hdr, sp, n);
	if (s) {
		if (!lso_tun_get(hdr, n, t, s, tun))
			return 0;
	} else if (cx_pkt_parse(hdr, n, o) || o->l3 == CX_L3_NONE) {
		return 0;
	}
	if (o->l3 == CX_L3_IPV4)
		cx_put_be16(hdr + o->l3_off + 2, 0xffff);
	else
		cx_put_be16(hdr + o->l3_off + 4, 0xffff);
	if (!lso_tun_get(hdr, n, t, s, tun))
		return 0;
	il3 = tun->inner.l3_off;
	if (tun->inner.l3 == CX_L3_IPV4 && il3 + 4 <= n)
		cx_put_be16(hdr + il3 + 2, 0xffff);
	else if (tun->inner.l3 == CX_L3_IPV6 && il3 + 6 <= n)
		cx_put_be16(hdr + il3 + 4, 0xffff);
	if (!lso_tun_get(hdr, n, t, s, tun))
		return CX_LSO_E_PARSE;	/* cannot happen */
	if (tun->inner.frag)
		return CX_LSO_E_FRAG;
	if (tun->inner.l4 != CX_L4_TCP && tun->inner.l4 != CX_L4_UDP)
		return len > sizeof(hdr) ? CX_LSO_E_HDR : CX_LSO_E_PARSE;
	return 1;
}

/* An IP header's length field for a frame of @flen bytes. */
static void lso_ip_len(uint8_t *frame, const struct cx_pkt *p, size_t flen)
{
	uint8_t *ip = frame + p->l3_off;

	if (p->l3 == CX_L3_IPV4)
		cx_put_be16(ip + 2, (uint16_t)(flen - p->l3_off));
	else
		cx_put_be16(ip + 4, (uint16_t)(flen - p->l3_off - 40));
}

int cx_lso_segment_swp(const uint8_t *sp, size_t len, uint16_t mss,
		       uint8_t cs_flags, const struct cx_tun_ports *t,
		       const struct cx_swp *s, uint8_t *scratch,
		       size_t scratch_size, cx_frame_fn emit, void *ctx)
{
	size_t hlen, payload, off, n, flen;
	uint16_t oid = 0, iid = 0;
	uint32_t nsegs, i, seq = 0;
	struct cx_tun tun;
	uint8_t flags = 0;
	int ret;

	if (!mss || !(cs_flags & (MLX5_ETH_WQE_L3_INNER_CSUM |
				  MLX5_ETH_WQE_L4_INNER_CSUM)))
		return cx_lso_segment(sp, len, mss, cs_flags, scratch,
				      scratch_size, emit, ctx);
	if (!cx_swp_used(s))
		s = NULL;
	ret = lso_parse_tun(sp, len, t, s, &tun);
	if (ret <= 0)
		return ret ? ret : cx_lso_segment(sp, len, mss, cs_flags,
						  scratch, scratch_size, emit,
						  ctx);
	hlen = (size_t)tun.inner.l4_off + tun.inner.l4_hlen;
	if (hlen > CX_LSO_MAX_HDR)
		return CX_LSO_E_HDR;
	if (hlen + mss > 0xffff)
		return CX_LSO_E_MSS;
	if (scratch_size < hlen + mss || scratch_size < CX_ETH_ZLEN)
		return CX_LSO_E_SCRATCH;
	payload = len - hlen;
	nsegs = payload ? (uint32_t)((payload + mss - 1) / mss) : 1;
	if (nsegs > CX_LSO_MAX_SEGS)
		return CX_LSO_E_SEGS;
	if (tun.outer.l3 == CX_L3_IPV4)
		oid = cx_get_be16(sp + tun.outer.l3_off + 4);
	if (tun.inner.l3 == CX_L3_IPV4)
		iid = cx_get_be16(sp + tun.inner.l3_off + 4);
	if (tun.inner.l4 == CX_L4_TCP) {
		seq = cx_get_be32(sp + tun.inner.l4_off + 4);
		flags = sp[tun.inner.l4_off + 13];
	}
	for (i = 0, off = hlen; i < nsegs; i++, off += n) {
		uint8_t *l4 = scratch + tun.inner.l4_off;

		n = len - off < mss ? len - off : mss;
		flen = hlen + n;
		memcpy(scratch, sp, hlen);
		memcpy(scratch + hlen, sp + off, n);
		lso_ip_len(scratch, &tun.outer, flen);
		if (tun.outer.l3 == CX_L3_IPV4)
			cx_put_be16(scratch + tun.outer.l3_off + 4,
				    (uint16_t)(oid + i));
		/* a GRE header (and checksum) or none (IP-in-IP): as given */
		if (tun.outer.l4 == CX_L4_UDP)
			cx_put_be16(scratch + tun.outer.l4_off + 4,
				    (uint16_t)(flen - tun.outer.l4_off));
		lso_ip_len(scratch, &tun.inner, flen);
		if (tun.inner.l3 == CX_L3_IPV4)
			cx_put_be16(scratch + tun.inner.l3_off + 4,
				    (uint16_t)(iid + i));
		if (tun.inner.l4 == CX_L4_TCP) {
			uint8_t f = flags;

			cx_put_be32(l4 + 4, seq + (uint32_t)(i * mss));
			if (i + 1 < nsegs)
				f &= (uint8_t)~(TCP_FIN | TCP_PSH);
			if (i)
				f &= (uint8_t)~TCP_CWR;
			l4[13] = f;
		} else {
			cx_put_be16(l4 + 4, (uint16_t)(flen - tun.inner.l4_off));
		}
		if (flen < CX_ETH_ZLEN) {
			memset(scratch + flen, 0, CX_ETH_ZLEN - flen);
			flen = CX_ETH_ZLEN;
		}
		cx_csum_tx_swp(scratch, flen, cs_flags, t, s);
		emit(ctx, scratch, flen);
	}
	return (int)nsegs;
}

int cx_lso_segment_tun(const uint8_t *sp, size_t len, uint16_t mss,
		       uint8_t cs_flags, const struct cx_tun_ports *t,
		       uint8_t *scratch, size_t scratch_size,
		       cx_frame_fn emit, void *ctx)
{
	return cx_lso_segment_swp(sp, len, mss, cs_flags, t, NULL, scratch,
				  scratch_size, emit, ctx);
}
