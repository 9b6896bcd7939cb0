// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim data path: striding RQ (MLX5_WQ_TYPE_LINKED_LIST_STRIDING_RQ)
 * placement.  A WQE is 2^log_num_strides strides of 2^log_stride_sz
 * bytes; its one data segment points at the buffer (through the UMR
 * mkey).  A frame takes ceil(len / stride) consecutive strides starting at
 * the first free one; the CQE carries that stride index (wqe_counter),
 * the WQE index (wqe_id) and the strides consumed.  When the strides left
 * cannot hold the frame, the device completes them with a filler CQE
 * (mpwrq_is_filler_cqe(): bit 15 of the strides word) and moves to the
 * next WQE; mlx5e_handle_rx_cqe_mpwrq() retires a WQE once the consumed
 * strides reach num_strides.
 */
#include "cx_kshim.h"
#include "cx_datapath.h"

enum cx_mpwrq_result cx_mpwrq_place(const struct cx_mpwrq_geom *g,
				    uint32_t cur, uint32_t len,
				    struct cx_mpwrq_place *p)
{
	uint32_t num, need, ssz;

	p->stride = cur;
	p->strides = 0;
	p->offset = 0;
	p->wqe_done = false;
	if (g->log_num_strides < MLX5_MPWQE_LOG_NUM_STRIDES_EXT_BASE ||
	    g->log_num_strides > MLX5_MPWQE_LOG_NUM_STRIDES_MAX ||
	    g->log_stride_sz < MLX5_MPWQE_LOG_STRIDE_SZ_BASE ||
	    g->log_stride_sz > MLX5_MPWQE_LOG_STRIDE_SZ_MAX || !len)
		return CX_MPWRQ_BAD;
	num = 1u << g->log_num_strides;
	ssz = 1u << g->log_stride_sz;
	if (cur >= num)
		return CX_MPWRQ_BAD;
	need = len / ssz + !!(len % ssz);
	if (need > num || len > 0xffff)
		return CX_MPWRQ_TOO_BIG;	/* byte count is 16 bits */
	if (need > num - cur) {
		/*
		 * consumed_strides is 15 bits; a frame needs at most 1024
		 * strides, so the rest here is always below that.
		 */
		p->strides = num - cur > 0x7fff ? 0x7fff : num - cur;
		p->offset = cur << g->log_stride_sz;
		p->wqe_done = cur + p->strides == num;
		return CX_MPWRQ_FILLER;
	}
	p->strides = need;
	p->offset = cur << g->log_stride_sz;
	p->wqe_done = cur + need == num;
	return CX_MPWRQ_PLACED;
}
