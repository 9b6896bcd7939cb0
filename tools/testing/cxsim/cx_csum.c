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

void cx_rx_classify(const uint8_t *frame, size_t len, bool csum_full,
		    struct cx_rx_class *rc)
{
	struct cx_pkt *pkt = &rc->pkt;
	size_t from;

	memset(rc, 0, sizeof(*rc));
	cx_pkt_parse(frame, len, pkt);
	if (len >= CX_ETH_HLEN)
		rc->hds_ip_ext = CQE_L2_OK;
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
