// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim data path: CQE images.
 *
 * The driver initialises every CQE to op_own 0xf1 (MLX5_CQE_INVALID, owner
 * 1) and accepts the CQE at its consumer index ci when the owner bit
 * equals (ci >> log_cq_size) & 1 (mlx5_cqwq_get_cqe()); so the device
 * writes owner = (pi >> log_cq_size) & 1: 0 on the first lap, 1 on the
 * second, and so on.  The signature byte doubles as the validity
 * iteration count of the enhanced CQE compression ((pi >> log) & 0xff);
 * plain CQE consumers ignore it.
 */
#include <string.h>

#include "cx_kshim_dp.h"
#include "cx_datapath.h"

_Static_assert(sizeof(struct mlx5_cqe64) == CX_CQE_SIZE, "cqe64 size");
_Static_assert(sizeof(struct mlx5_err_cqe) == CX_CQE_SIZE, "err cqe size");

static void finish(struct mlx5_cqe64 *c, uint32_t pi, uint8_t log_cq_sz,
		   uint8_t opcode)
{
	c->validity_iteration_count = (uint8_t)(pi >> log_cq_sz);
	c->op_own = (uint8_t)(opcode << 4 | MLX5_NO_INLINE_DATA << 2 |
			      cx_cqe_owner(pi, log_cq_sz));
}

void cx_cqe_tx(void *cqe, uint32_t pi, uint8_t log_cq_sz, uint8_t wqe_opcode,
	       uint16_t wqe_counter, uint32_t sqn, uint64_t timestamp)
{
	struct mlx5_cqe64 *c = cqe;

	memset(c, 0, sizeof(*c));
	c->timestamp_h = cpu_to_be32((uint32_t)(timestamp >> 32));
	c->timestamp_l = cpu_to_be32((uint32_t)timestamp);
	c->sop_drop_qpn = cpu_to_be32((uint32_t)wqe_opcode << 24 |
				      (sqn & 0xffffff));
	c->wqe_counter = cpu_to_be16(wqe_counter);
	finish(c, pi, log_cq_sz, MLX5_CQE_REQ);
}

static void err_cqe(void *cqe, uint32_t pi, uint8_t log_cq_sz, uint8_t op,
		    uint8_t syndrome, uint8_t vendor, uint8_t wqe_opcode,
		    uint16_t wqe_counter, uint32_t qpn)
{
	struct mlx5_err_cqe *e = cqe;

	memset(e, 0, sizeof(*e));
	e->syndrome = syndrome;
	e->vendor_err_synd = vendor;
	e->s_wqe_opcode_qpn = cpu_to_be32((uint32_t)wqe_opcode << 24 |
					  (qpn & 0xffffff));
	e->wqe_counter = cpu_to_be16(wqe_counter);
	finish(cqe, pi, log_cq_sz, op);
}

void cx_cqe_tx_err(void *cqe, uint32_t pi, uint8_t log_cq_sz,
		   uint8_t syndrome, uint8_t vendor_syndrome,
		   uint8_t wqe_opcode, uint16_t wqe_counter, uint32_t sqn)
{
	err_cqe(cqe, pi, log_cq_sz, MLX5_CQE_REQ_ERR, syndrome,
		vendor_syndrome, wqe_opcode, wqe_counter, sqn);
}

void cx_cqe_rx_err(void *cqe, uint32_t pi, uint8_t log_cq_sz,
		   uint8_t syndrome, uint16_t wqe_counter, uint32_t rqn)
{
	err_cqe(cqe, pi, log_cq_sz, MLX5_CQE_RESP_ERR, syndrome, 0, 0,
		wqe_counter, rqn);
}

void cx_cqe_rx(void *cqe, uint32_t pi, uint8_t log_cq_sz,
	       const struct cx_cqe_rx *rx)
{
	struct mlx5_cqe64 *c = cqe;
	uint32_t bc;

	memset(c, 0, sizeof(*c));
	if (rx->striding) {
		/* struct mpwrq_cqe_bc over byte_cnt: filler, strides, bytes */
		bc = (rx->filler ? 0x80000000u : 0) |
		     (uint32_t)(rx->consumed_strides & 0x7fff) << 16 |
		     (rx->filler ? 0 : (rx->byte_cnt & 0xffff));
		c->wqe_id = cpu_to_be16(rx->wqe_id);
	} else {
		bc = rx->byte_cnt;
	}
	c->byte_cnt = cpu_to_be32(bc);
	c->wqe_counter = cpu_to_be16(rx->wqe_counter);
	c->flags_rqpn = cpu_to_be32(rx->rqn & 0xffffff);
	c->timestamp_h = cpu_to_be32((uint32_t)(rx->timestamp >> 32));
	c->timestamp_l = cpu_to_be32((uint32_t)rx->timestamp);
	if (!rx->filler) {
		c->sop_drop_qpn = cpu_to_be32(rx->flow_tag & 0xffffff);
		c->rss_hash_result = cpu_to_be32(rx->rss_hash);
		c->rss_hash_type = rx->rss_hash_type;
		if (rx->rc) {
			c->hds_ip_ext = rx->rc->hds_ip_ext;
			c->l4_l3_hdr_type =
				(uint8_t)((rx->rc->l4_hdr_type & 7) << 4 |
					  (rx->rc->l3_hdr_type & 3) << 2);
			/* the raw 16-bit sum in network order */
			c->check_sum = cpu_to_be16(rx->rc->check_sum);
			if (rx->rc->tunneled)
				c->tls_outer_l3_tunneled |= 1;
		}
		if (rx->lro_num_seg) {
			/* cx_lro.c: the payload's sum, the session's fields */
			c->srqn = cpu_to_be32((uint32_t)rx->lro_num_seg << 24);
			c->lro.tcppsh_abort_dupack = rx->lro_flags;
			c->lro.min_ttl = rx->lro_min_ttl;
			c->lro.tcp_win = cpu_to_be16(rx->lro_tcp_win);
			c->lro.ack_seq_num = cpu_to_be32(rx->lro_ack_seq);
			c->check_sum = cpu_to_be16(rx->lro_csum);
		}
		if (rx->vlan_stripped) {
			c->l4_l3_hdr_type |= 1;	/* cqe_has_vlan() */
			c->vlan_info = cpu_to_be16(rx->vlan_tci);
		}
	}
	finish(c, pi, log_cq_sz, MLX5_CQE_RESP_SEND);
}

/* The fields a mini CQE of format @fmt replaces, or the title does not hold. */
static void comp_key(struct mlx5_cqe64 *k, const void *img, uint8_t fmt)
{
	memcpy(k, img, sizeof(*k));
	k->byte_cnt = 0;
	k->wqe_counter = 0;
	k->rss_hash_result = 0;
	if (fmt != CX_CQE_FORMAT_HASH) {
		k->check_sum = 0;
		/* the decoder clears the hash of a decompressed CQE */
		k->rss_hash_type = 0;
	}
	k->timestamp_h = 0;
	k->timestamp_l = 0;
	k->validity_iteration_count = 0;
	k->op_own &= 0xf0;
}

bool cx_cqe_comp_match(const void *first, const void *prev, const void *next,
		       uint8_t fmt, bool striding)
{
	const struct mlx5_cqe64 *p = prev, *n = next;
	struct mlx5_cqe64 a, b;
	uint16_t want;

	comp_key(&a, first, fmt);
	comp_key(&b, next, fmt);
	if (memcmp(&a, &b, sizeof(a)))
		return false;
	if (fmt == CX_CQE_FORMAT_CSUM_STRIDX)
		return true;
	want = be16_to_cpu(p->wqe_counter);
	if (striding)
		want += (be32_to_cpu(p->byte_cnt) >> 16) & 0x7fff;
	else
		want++;
	return be16_to_cpu(n->wqe_counter) == want;
}

static void comp_mini(struct mlx5_mini_cqe8 *m, const struct mlx5_cqe64 *c,
		      uint8_t fmt)
{
	m->byte_cnt = c->byte_cnt;
	if (fmt == CX_CQE_FORMAT_HASH) {
		m->rx_hash_result = c->rss_hash_result;
		return;
	}
	m->checksum = c->check_sum;
	if (fmt == CX_CQE_FORMAT_CSUM_STRIDX)
		m->stridx = c->wqe_counter;
}

void cx_cqe_comp_block(void *title, uint8_t (*arrs)[64],
		       const uint8_t (*imgs)[64], uint32_t n, uint8_t fmt,
		       uint32_t pi, uint8_t log_cq_sz)
{
	struct mlx5_cqe64 *t = title;
	uint32_t i;

	_Static_assert(sizeof(struct mlx5_mini_cqe8) * CX_MINI_PER_ARRAY ==
		       CX_CQE_SIZE, "mini CQE array size");
	memset(arrs, 0, (size_t)(n + CX_MINI_PER_ARRAY - 1) /
			CX_MINI_PER_ARRAY * CX_CQE_SIZE);
	for (i = 0; i < n; i++)
		comp_mini((struct mlx5_mini_cqe8 *)arrs[i / CX_MINI_PER_ARRAY] +
			  i % CX_MINI_PER_ARRAY,
			  (const struct mlx5_cqe64 *)imgs[i], fmt);
	memcpy(t, imgs[0], sizeof(*t));
	t->byte_cnt = cpu_to_be32(n);
	t->validity_iteration_count = (uint8_t)(pi >> log_cq_sz);
	t->op_own = (uint8_t)((t->op_own & 0xf0) | MLX5_COMPRESSED << 2 |
			      cx_cqe_owner(pi, log_cq_sz));
}
