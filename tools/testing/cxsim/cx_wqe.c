// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim data path: send WQE decoder.
 *
 * A send WQE is ds_cnt 16-byte segments in ceil(ds_cnt / 4) 64-byte
 * WQEBBs, each WQEBB at ring index (counter mod 2^log_wq_sz), so a WQE
 * may wrap the ring end (mlx5e pads with NOPs so that it does not, but
 * the device allows it).  Layouts (upstream en_tx.c, en/xdp.h):
 *
 *   SEND/LSO: ctrl | eseg (inline_hdr.sz, first 2 header bytes) |
 *             rest of the inline header, rounded up to 16 bytes |
 *             [inline data segments] | data segments (one per fragment)
 *   ENHANCED_MPSW: ctrl | eseg (no inline header, shared by all) |
 *             one data segment per packet, or an inline data segment
 *             (byte_count | MLX5_INLINE_SEG, data, padded to 16 bytes)
 *             per small packet
 *   NOP: ctrl (ds_cnt 1)
 *
 * The eseg's 16-bit word at offset 12 is inline_hdr.sz (bits 9:0) or,
 * with MLX5_ETH_WQE_INSERT_VLAN (bit 15), insert.type with the TCI in
 * the following 16 bits (MLX5_ETH_WQE_SVLAN: 802.1ad).
 */
#include <string.h>

#include "cx_kshim_dp.h"
#include "cx_bytes.h"
#include "cx_datapath.h"

#define ESEG_OFF		16
#define INLINE_HDR_OFF		(ESEG_OFF + 14)	/* inline_hdr.start */
#define FIRST_DSEG_OFF		(ESEG_OFF + 16)
#define INLINE_HDR_SZ_MASK	0x3ff
#define INLINE_SEG_LEN_MASK	0x3ff
#define DEFAULT_MAX_PKT		(16u << 10)
#define DEFAULT_MAX_LSO		(256u << 10)

_Static_assert(sizeof(struct mlx5_wqe_ctrl_seg) == CX_WQE_DS, "ctrl seg");
_Static_assert(sizeof(struct mlx5_wqe_eth_seg) == CX_WQE_DS, "eth seg");
_Static_assert(sizeof(struct mlx5_wqe_data_seg) == CX_WQE_DS, "data seg");
_Static_assert(offsetof(struct mlx5_wqe_eth_seg, inline_hdr.start) == 14,
	       "inline header start");
_Static_assert(MLX5_SEND_WQE_BB == CX_WQEBB &&
	       MLX5_SEND_WQE_DS == CX_WQE_DS &&
	       MLX5_SEND_WQE_MAX_WQEBBS == CX_WQE_MAX_WQEBBS, "send WQE units");

uint8_t cx_wqe_syndrome(int err)
{
	switch (err) {
	case CX_WQE_E_DMA:
		return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
	case CX_WQE_E_INLINE:
	case CX_WQE_E_LEN:
		return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
	default:
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	}
}

const char *cx_wqe_strerror(int err)
{
	switch (err) {
	case CX_WQE_OK:		return "ok";
	case CX_WQE_EMPTY:	return "empty";
	case CX_WQE_E_DMA:	return "DMA read failed";
	case CX_WQE_E_DS:	return "bad ds_cnt";
	case CX_WQE_E_PAST_PC:	return "WQE past the producer counter";
	case CX_WQE_E_OPCODE:	return "unsupported opcode";
	case CX_WQE_E_INLINE:	return "inline data past ds_cnt";
	case CX_WQE_E_LEN:	return "bad length";
	case CX_WQE_E_MSS:	return "LSO without MSS";
	case CX_WQE_E_MPW:	return "bad multi-packet WQE";
	case CX_WQE_E_SQN:	return "WQE of another SQ";
	case CX_WQE_E_INLINE_MODE: return "fewer inline header bytes than the minimum inline mode";
	case CX_WQE_E_VLAN:	return "VLAN insertion not supported";
	case CX_WQE_E_INDEX:	return "WQE index is not the SQ's position";
	default:		return "?";
	}
}

static int fetch_bb(const struct cx_sq_ring *sq, uint32_t ctr, uint8_t *dst)
{
	uint32_t idx = ctr & ((1u << sq->log_wq_sz) - 1);
	uint64_t addr, off;

	if (sq->map) {
		if (sq->map(sq->ctx, idx, &addr))
			return -1;
	} else {
		off = (uint64_t)sq->page_offset + (uint64_t)idx * CX_WQEBB;
		if (!sq->pas || sq->log_page_sz < 6 || sq->log_page_sz > 40 ||
		    (off >> sq->log_page_sz) >= sq->npas)
			return -1;
		addr = sq->pas[off >> sq->log_page_sz] +
		       (off & ((1ULL << sq->log_page_sz) - 1));
	}
	return sq->rd(sq->ctx, addr, dst, CX_WQEBB) ? -1 : 0;
}

static int gather(const struct cx_sq_ring *sq, uint32_t lkey, uint64_t addr,
		  uint8_t *dst, size_t len)
{
	if (addr + len < addr)
		return -1;
	if (sq->gather)
		return sq->gather(sq->ctx, lkey, addr, dst, len) ? -1 : 0;
	return sq->rd(sq->ctx, addr, dst, len) ? -1 : 0;
}

/* Output state while the packets of one WQE are assembled. */
struct asm_state {
	uint8_t *buf;
	size_t size;
	size_t used;		/* bytes of finished packets */
	uint32_t cur;		/* bytes of the packet being built */
	uint32_t limit;		/* its bound */
};

static int put_bytes(struct asm_state *a, const uint8_t *src, uint32_t n)
{
	if (n > a->limit - a->cur || n > a->size - a->used - a->cur)
		return CX_WQE_E_LEN;
	memcpy(a->buf + a->used + a->cur, src, n);
	a->cur += n;
	return 0;
}

static int put_gather(const struct cx_sq_ring *sq, struct asm_state *a,
		      struct cx_wqe *w, const uint8_t *ds)
{
	uint32_t n = cx_get_be32(ds);
	uint32_t lkey = cx_get_be32(ds + 4);
	uint64_t addr = cx_get_be64(ds + 8);

	if (!n || n > a->limit - a->cur || n > a->size - a->used - a->cur)
		return CX_WQE_E_LEN;
	if (gather(sq, lkey, addr, a->buf + a->used + a->cur, n))
		return CX_WQE_E_DMA;
	a->cur += n;
	w->payload_bytes += n;
	return 0;
}

/* Close the packet being built: VLAN insertion, padding. */
static int end_pkt(struct asm_state *a, struct cx_wqe *w, bool pad)
{
	uint8_t *p = a->buf + a->used;
	uint32_t len = a->cur;

	if (w->npkts >= CX_WQE_MAX_PKTS)
		return CX_WQE_E_MPW;
	if (w->vlan_insert) {
		if (len < 12 || CX_VLAN_HLEN > a->limit - len ||
		    CX_VLAN_HLEN > a->size - a->used - len)
			return CX_WQE_E_LEN;
		memmove(p + 16, p + 12, len - 12);
		p[12] = w->vlan_tpid >> 8;
		p[13] = w->vlan_tpid & 0xff;
		p[14] = w->vlan_tci >> 8;
		p[15] = w->vlan_tci & 0xff;
		len += CX_VLAN_HLEN;
	}
	if (pad && len < CX_ETH_ZLEN) {
		if (CX_ETH_ZLEN > a->size - a->used)
			return CX_WQE_E_LEN;
		memset(p + len, 0, CX_ETH_ZLEN - len);
		len = CX_ETH_ZLEN;
	}
	w->pkt[w->npkts].off = (uint32_t)a->used;
	w->pkt[w->npkts].len = len;
	w->npkts++;
	a->used += len;
	a->cur = 0;
	return 0;
}

/* An inline data segment at @p of the WQE's @wlen bytes; returns its size. */
static int inline_seg(const uint8_t *raw, uint32_t p, uint32_t wlen,
		      uint32_t *ilen)
{
	uint32_t bc = cx_get_be32(raw + p);
	uint32_t n = bc & INLINE_SEG_LEN_MASK;

	if (bc & ~(MLX5_INLINE_SEG | INLINE_SEG_LEN_MASK))
		return CX_WQE_E_INLINE;
	if (4 + n > wlen - p)
		return CX_WQE_E_INLINE;
	*ilen = n;
	return 0;
}

uint32_t cx_inline_needed(const uint8_t *p, uint32_t len, uint8_t mode)
{
	uint32_t off = 12, need;
	uint16_t type;
	uint8_t proto = 0;
	int tags = 0;

	if (mode == MLX5_INLINE_MODE_NONE)
		return 0;
	/* L2: addresses, up to two VLAN tags, the EtherType. */
	for (;;) {
		if (off + 2 > len)
			return len;
		type = cx_get_be16(p + off);
		if ((type != 0x8100 && type != 0x88a8) || tags == 2)
			break;
		off += 4;
		tags++;
	}
	off += 2;
	need = off;
	if (mode == MLX5_INLINE_MODE_L2)
		goto out;
	/* IP: the IPv4 header with its options, or the fixed IPv6 header. */
	if (type == 0x0800 && off < len && (p[off] >> 4) == 4 &&
	    (p[off] & 0xf) >= 5) {
		/* A later fragment carries no L4 header. */
		if (off + 8 <= len && !(cx_get_be16(p + off + 6) & 0x1fff))
			proto = off + 10 <= len ? p[off + 9] : 0;
		off += (p[off] & 0xf) * 4;
	} else if (type == 0x86dd && off < len && (p[off] >> 4) == 6) {
		proto = off + 7 <= len ? p[off + 6] : 0;
		off += 40;
	} else {
		goto out;
	}
	need = off;
	if (mode == MLX5_INLINE_MODE_IP)
		goto out;
	if (proto == 6 && off + 13 <= len && (p[off + 12] >> 4) >= 5)
		need = off + (p[off + 12] >> 4) * 4;
	else if (proto == 6)
		need = off + 20;
	else if (proto == 17)
		need = off + 8;
out:
	return need < len ? need : len;
}

static void parse_eseg(const uint8_t *raw, struct cx_wqe *w)
{
	const uint8_t *e = raw + ESEG_OFF;
	uint16_t word = cx_get_be16(e + 12);

	w->swp.outer_l4 = e[0];
	w->swp.outer_l3 = e[1];
	w->swp.inner_l4 = e[2];
	w->swp.inner_l3 = e[3];
	w->swp.flags = e[5];
	w->cs_flags = e[4];
	w->swp_flags = e[5];
	w->mss = cx_get_be16(e + 6);
	if (word & MLX5_ETH_WQE_INSERT_VLAN) {
		w->vlan_insert = true;
		w->vlan_tpid = (word & MLX5_ETH_WQE_SVLAN) ? 0x88a8 : 0x8100;
		w->vlan_tci = cx_get_be16(e + 14);
	} else {
		w->inline_hdr_sz = word & INLINE_HDR_SZ_MASK;
	}
}

static int decode_send(const struct cx_sq_ring *sq, struct cx_wqe *w,
		       struct asm_state *a, uint32_t wlen)
{
	const uint8_t *raw = w->raw;
	bool lso = w->opcode == MLX5_OPCODE_LSO;
	uint32_t ihs, p, ilen = 0;
	int ret;

	if (w->ds_cnt < 2)
		return CX_WQE_E_DS;
	parse_eseg(raw, w);
	if (lso && !w->mss)
		return CX_WQE_E_MSS;
	a->limit = lso ? (sq->max_lso ? sq->max_lso : DEFAULT_MAX_LSO) :
			 (sq->max_pkt ? sq->max_pkt : DEFAULT_MAX_PKT);
	ihs = w->inline_hdr_sz;
	if (ihs > wlen - INLINE_HDR_OFF)
		return CX_WQE_E_INLINE;
	ret = put_bytes(a, raw + INLINE_HDR_OFF, ihs);
	if (ret)
		return ret;
	p = FIRST_DSEG_OFF;
	if (ihs > 2)
		p += (ihs - 2 + CX_WQE_DS - 1) / CX_WQE_DS * CX_WQE_DS;
	while (p < wlen) {
		if (cx_get_be32(raw + p) & MLX5_INLINE_SEG) {
			ret = inline_seg(raw, p, wlen, &ilen);
			if (!ret)
				ret = put_bytes(a, raw + p + 4, ilen);
			p += (4 + ilen + CX_WQE_DS - 1) / CX_WQE_DS * CX_WQE_DS;
		} else {
			ret = put_gather(sq, a, w, raw + p);
			p += CX_WQE_DS;
		}
		if (ret)
			return ret;
	}
	if (!a->cur)
		return CX_WQE_E_LEN;
	if (w->vlan_insert && sq->no_vlan_insert)
		return CX_WQE_E_VLAN;
	if (!lso) {
		w->inline_needed = cx_inline_needed(a->buf + a->used, a->cur,
						    sq->min_inline);
		if (ihs < w->inline_needed)
			return CX_WQE_E_INLINE_MODE;
	}
	return end_pkt(a, w, !lso);
}

static int decode_mpw(const struct cx_sq_ring *sq, struct cx_wqe *w,
		      struct asm_state *a, uint32_t wlen)
{
	const uint8_t *raw = w->raw;
	uint32_t p, ilen = 0;
	int ret;

	if (!sq->mpwqe)
		return CX_WQE_E_OPCODE;
	if (w->ds_cnt < 3)
		return CX_WQE_E_MPW;
	parse_eseg(raw, w);
	if (w->inline_hdr_sz)
		return CX_WQE_E_MPW;
	if (w->vlan_insert && sq->no_vlan_insert)
		return CX_WQE_E_VLAN;
	a->limit = sq->max_pkt ? sq->max_pkt : DEFAULT_MAX_PKT;
	for (p = FIRST_DSEG_OFF; p < wlen;) {
		if (cx_get_be32(raw + p) & MLX5_INLINE_SEG) {
			ret = inline_seg(raw, p, wlen, &ilen);
			if (!ret && !ilen)
				ret = CX_WQE_E_LEN;
			if (!ret)
				ret = put_bytes(a, raw + p + 4, ilen);
			p += (4 + ilen + CX_WQE_DS - 1) / CX_WQE_DS * CX_WQE_DS;
		} else {
			ret = put_gather(sq, a, w, raw + p);
			p += CX_WQE_DS;
		}
		if (!ret)
			ret = end_pkt(a, w, true);
		if (ret)
			return ret;
	}
	return 0;
}

static int decode(const struct cx_sq_ring *sq, uint16_t cc, uint16_t pc,
		  uint8_t *buf, size_t buf_size, struct cx_wqe *w)
{
	uint32_t posted = (uint16_t)(pc - cc), ctrl0, ctrl1, i, max_bbs;
	struct asm_state a = { .buf = buf, .size = buf_size };

	if (sq->log_wq_sz > 16 || posted > (1u << sq->log_wq_sz))
		return CX_WQE_E_PAST_PC;
	if (fetch_bb(sq, cc, w->raw))
		return CX_WQE_E_DMA;
	w->desc_bytes = CX_WQEBB;
	w->raw_len = CX_WQEBB;
	ctrl0 = cx_get_be32(w->raw);
	ctrl1 = cx_get_be32(w->raw + 4);
	w->opcode = ctrl0 & MLX5_WQE_CTRL_OPCODE_MASK;
	w->opmod = ctrl0 >> 24;
	w->wqe_index = (ctrl0 & MLX5_WQE_CTRL_WQE_INDEX_MASK) >>
		       MLX5_WQE_CTRL_WQE_INDEX_SHIFT;
	w->qpn = (ctrl1 & MLX5_WQE_CTRL_QPN_MASK) >> MLX5_WQE_CTRL_QPN_SHIFT;
	w->ds_cnt = ctrl1 & MLX5_WQE_CTRL_DS_MASK;
	w->fm_ce_se = w->raw[11];
	w->cqe_req = (w->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE) ==
		     MLX5_WQE_CTRL_CQ_UPDATE;
	w->wqebbs = (w->ds_cnt + 3) / 4;
	if (!w->ds_cnt)
		return CX_WQE_E_DS;
	max_bbs = sq->max_wqebbs && sq->max_wqebbs < CX_WQE_MAX_WQEBBS ?
		  sq->max_wqebbs : CX_WQE_MAX_WQEBBS;
	if (w->wqebbs > max_bbs)
		return CX_WQE_E_DS;
	if (w->wqebbs > posted)
		return CX_WQE_E_PAST_PC;
	if (w->qpn != (sq->sqn & 0xffffff))
		return CX_WQE_E_SQN;
	if (w->wqe_index != cc)
		return CX_WQE_E_INDEX;
	for (i = 1; i < w->wqebbs; i++) {
		if (fetch_bb(sq, (uint32_t)cc + i, w->raw + i * CX_WQEBB))
			return CX_WQE_E_DMA;
		w->desc_bytes += CX_WQEBB;
		w->raw_len += CX_WQEBB;
	}
	switch (w->opcode) {
	case MLX5_OPCODE_NOP:
		return 0;
	case MLX5_OPCODE_SEND:
	case MLX5_OPCODE_LSO:
		return decode_send(sq, w, &a, w->ds_cnt * CX_WQE_DS);
	case MLX5_OPCODE_ENHANCED_MPSW:
		return decode_mpw(sq, w, &a, w->ds_cnt * CX_WQE_DS);
	default:
		return CX_WQE_E_OPCODE;
	}
}

int cx_wqe_decode(const struct cx_sq_ring *sq, uint16_t cc, uint16_t pc,
		  uint8_t *buf, size_t buf_size, struct cx_wqe *w)
{
	int ret;

	memset(w, 0, offsetof(struct cx_wqe, raw));
	w->wqe_index = cc;
	if (cc == pc)
		return CX_WQE_EMPTY;
	ret = decode(sq, cc, pc, buf, buf_size, w);
	if (ret < 0) {
		w->err = ret;
		w->syndrome = cx_wqe_syndrome(ret);
		w->npkts = 0;
	}
	return ret;
}

int cx_tx_emit(const struct cx_wqe *w, uint8_t *buf, uint8_t *scratch,
	       size_t scratch_size, cx_frame_fn emit, void *ctx)
{
	const struct cx_swp *swp = NULL;
	struct cx_swp s = w->swp;
	uint32_t i;
	int ret;

	if (w->err)
		return 0;
	if (w->swp_ok && cx_swp_used(&s)) {
		/* offsets of the frame as given, before the VLAN tag goes in */
		if (w->vlan_insert) {
			s.outer_l3 += s.outer_l3 ? 2 : 0;
			s.outer_l4 += s.outer_l4 ? 2 : 0;
			s.inner_l3 += s.inner_l3 ? 2 : 0;
			s.inner_l4 += s.inner_l4 ? 2 : 0;
		}
		swp = &s;
	}
	if (w->opcode == MLX5_OPCODE_LSO) {
		if (w->npkts != 1)
			return 0;
		ret = cx_lso_segment_swp(buf + w->pkt[0].off, w->pkt[0].len,
					 w->mss, w->cs_flags, w->tun, swp,
					 scratch, scratch_size, emit, ctx);
		return ret;
	}
	for (i = 0; i < w->npkts; i++) {
		uint8_t *p = buf + w->pkt[i].off;

		cx_csum_tx_swp(p, w->pkt[i].len, w->cs_flags, w->tun, swp);
		emit(ctx, p, w->pkt[i].len);
	}
	return (int)w->npkts;
}
