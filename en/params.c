// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Parameters of the channels, and what follows from them: ring sizes, the
 * receive buffer layout for an MTU, and the static part of the SQ, RQ and
 * CQ contexts. Pure functions of the capabilities and a struct
 * mlx5e_params: no allocation, no command, so that a new configuration can
 * be checked and built while the old one runs.
 */
#include <linux/log2.h>
#include <linux/skbuff.h>

#include "params.h"
#include "txrx.h"

/* Default CQ moderation of RX: wait up to 8 us or 32 CQEs. */
#define MLX5E_RX_CQ_USECS_DEFAULT	8
#define MLX5E_RX_CQ_FRAMES_DEFAULT	32
/* TX: up to 16 us or 32 CQEs, so that completions do not interrupt per
 * packet.
 */
#define MLX5E_TX_CQ_USECS_DEFAULT	16
#define MLX5E_TX_CQ_FRAMES_DEFAULT	32

u16 mlx5e_max_channels(struct mlx5_core_dev *mdev)
{
	return min3((unsigned int)mlx5_comp_vectors(mdev), num_online_cpus(),
		    (unsigned int)MLX5E_MAX_NUM_CHANNELS);
}

/* The largest ring, log2: our own limit within the device's. */
u8 mlx5e_log_max_ring_size(struct mlx5_core_dev *mdev, bool sq)
{
	u8 ours = sq ? MLX5E_LOG_SQ_SIZE_MAX : MLX5E_LOG_RQ_SIZE_MAX;

	return min_t(u8, ours, MLX5_CAP_GEN(mdev, log_max_wq_sz));
}

/* Room that keeps the SQ awake: the largest WQE plus the NOPs that may
 * pad the ring end before it. An open MPWQE session is counted as used
 * on top of this (en_tx.c), so that closing it never eats into the room.
 */
u16 mlx5e_sq_stop_room(void)
{
	return 2 * MLX5E_SQ_MAX_WQEBBS;
}

/**
 * mlx5e_max_mpw_ds() - 16-byte segments of the largest MPWQE
 * @mdev: the device
 *
 * The device's largest send WQE, at most MLX5_SEND_WQE_MAX_WQEBBS - 1
 * basic blocks: 16 of them would be 64 segments, which the 6-bit ds_cnt
 * of the control segment cannot say.
 *
 * Return: the segment count, control and Ethernet segments included.
 */
u8 mlx5e_max_mpw_ds(struct mlx5_core_dev *mdev)
{
	u16 wqebbs = MLX5_CAP_GEN(mdev, max_wqe_sz_sq) / MLX5E_SEND_WQE_BB;

	wqebbs = clamp_t(u16, wqebbs, 1, MLX5E_SQ_MAX_WQEBBS - 1);
	return wqebbs * MLX5E_WQEBB_NUM_DS;
}

/**
 * mlx5e_tx_cqe_mod() - WQEBBs between completion requests within a batch
 * @params: the parameters
 *
 * Every doorbell requests a completion for what it rings, so a burst
 * costs one CQE; within a longer batch one more every quarter ring lets
 * completions free room before the batch ends.
 *
 * Return: the interval in WQEBBs.
 */
u16 mlx5e_tx_cqe_mod(const struct mlx5e_params *params)
{
	return BIT(params->log_sq_size) >> MLX5E_TX_CQE_MOD_RING_SHIFT;
}

/**
 * mlx5e_params_init() - the default parameters of a netdev
 * @mdev: the device
 * @params: filled in
 * @num_channels: channels to open
 * @mtu: software MTU
 */
void mlx5e_params_init(struct mlx5_core_dev *mdev, struct mlx5e_params *params,
		       u16 num_channels, u16 mtu)
{
	memset(params, 0, sizeof(*params));
	params->num_channels = num_channels;
	params->log_sq_size = MLX5E_LOG_SQ_SIZE_DEFAULT;
	params->log_rq_size = MLX5E_LOG_RQ_SIZE_DEFAULT;
	params->sw_mtu = mtu;
	if (MLX5_CAP_ETH(mdev, enhanced_multi_pkt_send_wqe))
		params->pflags |= BIT(MLX5E_PFLAG_SKB_TX_MPWQE) |
				  BIT(MLX5E_PFLAG_XDP_TX_MPWQE);
	if (MLX5E_STRIDING_RQ_DEFAULT && mlx5e_striding_rq_caps(mdev))
		params->pflags |= BIT(MLX5E_PFLAG_RX_STRIDING_RQ);
	params->rx_cq_usecs = MLX5E_RX_CQ_USECS_DEFAULT;
	params->rx_cq_frames = MLX5E_RX_CQ_FRAMES_DEFAULT;
	params->tx_cq_usecs = MLX5E_TX_CQ_USECS_DEFAULT;
	params->tx_cq_frames = MLX5E_TX_CQ_FRAMES_DEFAULT;
	/* Adaptive moderation where MODIFY_CQ may change the period mode, as
	 * upstream: net_dim's profiles choose it.
	 */
	params->rx_dim_enabled = MLX5_CAP_GEN(mdev, cq_moderation) &&
				 MLX5_CAP_GEN(mdev, cq_period_mode_modify);
	params->tx_dim_enabled = params->rx_dim_enabled;
	switch (MLX5_CAP_ETH(mdev, wqe_inline_mode)) {
	case 0: /* MLX5_CAP_INLINE_MODE_L2 */
		params->tx_min_inline_mode = MLX5_INLINE_MODE_L2;
		break;
	default:
		params->tx_min_inline_mode = MLX5_INLINE_MODE_NONE;
		break;
	}
}

/**
 * mlx5e_rq_layout() - the legacy RQ's receive buffers for the parameters
 * @params: the parameters (MTU, XDP program)
 * @l: filled in (see mlx5e_rx_buf_layout())
 */
void mlx5e_rq_layout(const struct mlx5e_params *params,
		     struct mlx5e_rx_buf_layout *l)
{
	mlx5e_rx_buf_layout(MLX5E_RQ_TYPE_LEGACY, params->sw_mtu,
			    !!params->xdp_prog, PAGE_SHIFT, l);
}

/**
 * mlx5e_striding_rq_caps() - whether the device can run our striding RQ
 * @mdev: the device
 *
 * Striding RQ, UMR from an SQ with reg_umr, UMR with a pointer to the
 * rlkey, WQEs of fewer than 512 strides (ext_stride_num_range: linear
 * strides of a 256 KiB WQE), and send WQEs as large as our UMR, whose
 * MTT entries are inline.
 *
 * Return: true when it can.
 */
bool mlx5e_striding_rq_caps(struct mlx5_core_dev *mdev)
{
	return MLX5_CAP_GEN(mdev, striding_rq) &&
	       MLX5_CAP_GEN(mdev, umr_ptr_rlky) &&
	       MLX5_CAP_ETH(mdev, reg_umr_sq) &&
	       MLX5_CAP_GEN(mdev, ext_stride_num_range) &&
	       MLX5_CAP_GEN(mdev, max_wqe_sz_sq) >=
	       sizeof(struct mlx5e_umr_wqe);
}

/**
 * mlx5e_cqe_compress_validate() - whether the device can run rx_cqe_compress
 * @mdev: the device
 * @params: the parameters (the flag, the RQ type)
 *
 * The basic layout with the checksum mini CQE format; a striding RQ takes
 * the stride index from the mini CQE, as upstream does where the device
 * has mini_cqe_resp_stride_index.
 *
 * Return: 0 (flag off, or possible), -EOPNOTSUPP (no CQE compression) or
 * -EINVAL (striding RQ without stride index in the mini CQE).
 */
int mlx5e_cqe_compress_validate(struct mlx5_core_dev *mdev,
				const struct mlx5e_params *params)
{
	if (!(params->pflags & BIT(MLX5E_PFLAG_RX_CQE_COMPRESS)))
		return 0;
	if (!MLX5_CAP_GEN(mdev, cqe_compression))
		return -EOPNOTSUPP;
	if (mlx5e_rq_is_striding(params) &&
	    !MLX5_CAP_GEN(mdev, mini_cqe_resp_stride_index))
		return -EINVAL;
	return 0;
}

/**
 * mlx5e_rq_is_striding() - whether the RQs of @params are striding
 * @params: the parameters
 *
 * The flag asks for it, linear or not (above a linear frame, small
 * strides with the headers copied).
 *
 * Return: true for a striding RQ.
 */
bool mlx5e_rq_is_striding(const struct mlx5e_params *params)
{
	return params->pflags & BIT(MLX5E_PFLAG_RX_STRIDING_RQ);
}

/**
 * mlx5e_lro_caps() - whether the device can do LRO for our RQs
 * @mdev: the device
 *
 * LRO, our striding RQ, and no tunneled LRO: inner and outer TIRs share
 * the RQs, so LRO could not be off for the inner ones (as upstream).
 *
 * Return: true when NETIF_F_LRO may be offered.
 */
bool mlx5e_lro_caps(struct mlx5_core_dev *mdev)
{
	return MLX5_CAP_ETH(mdev, lro_cap) && mlx5e_striding_rq_caps(mdev) &&
	       !MLX5_CAP_ETH(mdev, tunnel_lro_vxlan) &&
	       !MLX5_CAP_ETH(mdev, tunnel_lro_gre);
}

/**
 * mlx5e_lro_timeout() - the TIRs' LRO timeout
 * @mdev: the device
 *
 * Return: the first of the device's periods (ascending) at least
 * MLX5E_LRO_TIMEOUT_US, else its longest, in microseconds.
 */
u32 mlx5e_lro_timeout(struct mlx5_core_dev *mdev)
{
	int i;

	for (i = 0; i < 3; i++)
		if (MLX5_CAP_ETH(mdev, lro_timer_supported_periods[i]) >=
		    MLX5E_LRO_TIMEOUT_US)
			break;
	return MLX5_CAP_ETH(mdev, lro_timer_supported_periods[i]);
}

/**
 * mlx5e_rq_is_linear() - whether the RQs of @params build linear SKBs
 * @params: the parameters
 *
 * Return: true for linear buffers (one per frame).
 */
bool mlx5e_rq_is_linear(const struct mlx5e_params *params)
{
	struct mlx5e_rx_buf_layout l;

	mlx5e_rq_layout_any(params, &l);
	return l.linear;
}

/**
 * mlx5e_rq_layout_any() - the RQ's buffers, whichever its type
 * @params: the parameters
 * @l: filled in
 */
void mlx5e_rq_layout_any(const struct mlx5e_params *params,
			 struct mlx5e_rx_buf_layout *l)
{
	if (mlx5e_rq_is_striding(params) && (params->features & NETIF_F_LRO)) {
		mlx5e_rx_buf_layout_lro(params->sw_mtu, PAGE_SHIFT, l);
		return;
	}
	mlx5e_rx_buf_layout(mlx5e_rq_is_striding(params) ?
			    MLX5E_RQ_TYPE_STRIDING : MLX5E_RQ_TYPE_LEGACY,
			    params->sw_mtu, !!params->xdp_prog, PAGE_SHIFT, l);
}

/* log2 of the strides of one WQE of MLX5E_MPWQE_PAGES pages. */
u8 mlx5e_mpwqe_log_strides(const struct mlx5e_rx_buf_layout *l)
{
	return MLX5E_MPWQE_LOG_PAGES + PAGE_SHIFT - ilog2(l->stride);
}

/**
 * mlx5e_mpwqe_log_wqes() - log2 of the WQEs of a striding RQ
 * @params: the parameters; log_rq_size counts frames
 * @l: the layout
 *
 * Room for as many frames of the MTU as the ring size asks: one stride
 * each when linear, else as many strides as such a frame fills, within
 * 2^MLX5E_MPWQE_LOG_RING_STRIDES_MAX strides (the CQ has a CQE for each).
 * Eight WQEs at least, so that refills batch while the device fills the
 * others.
 *
 * Return: log2 of the WQEs.
 */
u8 mlx5e_mpwqe_log_wqes(const struct mlx5e_params *params,
			const struct mlx5e_rx_buf_layout *l)
{
	int log_strides = mlx5e_mpwqe_log_strides(l);
	int log = params->log_rq_size - log_strides;

	if (!l->linear) {
		u32 per_frame = DIV_ROUND_UP(MLX5E_SW2HW_MTU(params->sw_mtu),
					     l->stride);

		log = min(log + order_base_2(per_frame),
			  MLX5E_MPWQE_LOG_RING_STRIDES_MAX - log_strides);
	}
	return max(log, MLX5E_MPWQE_LOG_WQES_MIN);
}

/* log2 of a legacy RQ WQE: one 16-byte data segment per fragment. */
u8 mlx5e_rq_log_wqe_stride(const struct mlx5e_rx_buf_layout *l)
{
	return order_base_2(l->num_frags * MLX5E_SEND_WQE_DS);
}

/**
 * mlx5e_params_validate() - whether channels can be built from @params
 * @mdev: the device
 * @params: the parameters
 * @max_mtu: the port's maximum software MTU
 * @extack: why not
 *
 * Return: 0, -EINVAL, or -EOPNOTSUPP for a mode the device lacks.
 */
int mlx5e_params_validate(struct mlx5_core_dev *mdev,
			  const struct mlx5e_params *params, u16 max_mtu,
			  struct netlink_ext_ack *extack)
{
	struct mlx5e_rx_buf_layout l;
	int err;

	if (!params->num_channels ||
	    params->num_channels > mlx5e_max_channels(mdev)) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "channels must be 1..%u",
				       mlx5e_max_channels(mdev));
		return -EINVAL;
	}
	if (params->log_sq_size < MLX5E_LOG_SQ_SIZE_MIN ||
	    params->log_sq_size > mlx5e_log_max_ring_size(mdev, true)) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "TX ring size must be %u..%u",
				       1 << MLX5E_LOG_SQ_SIZE_MIN,
				       1 << mlx5e_log_max_ring_size(mdev, true));
		return -EINVAL;
	}
	if (params->log_rq_size < MLX5E_LOG_RQ_SIZE_MIN ||
	    params->log_rq_size > mlx5e_log_max_ring_size(mdev, false)) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "RX ring size must be %u..%u",
				       1 << MLX5E_LOG_RQ_SIZE_MIN,
				       1 << mlx5e_log_max_ring_size(mdev, false));
		return -EINVAL;
	}
	if ((params->pflags & BIT(MLX5E_PFLAG_SKB_TX_MPWQE)) &&
	    !MLX5_CAP_ETH(mdev, enhanced_multi_pkt_send_wqe)) {
		NL_SET_ERR_MSG_MOD(extack, MLX5E_MPWQE_UNSUPPORTED_MSG);
		return -EOPNOTSUPP;
	}
	if ((params->pflags & BIT(MLX5E_PFLAG_RX_STRIDING_RQ)) &&
	    !mlx5e_striding_rq_caps(mdev)) {
		NL_SET_ERR_MSG_MOD(extack, MLX5E_STRIDING_UNSUPPORTED_MSG);
		return -EOPNOTSUPP;
	}
	if ((params->pflags & BIT(MLX5E_PFLAG_XDP_TX_MPWQE)) &&
	    !MLX5_CAP_ETH(mdev, enhanced_multi_pkt_send_wqe)) {
		NL_SET_ERR_MSG_MOD(extack, MLX5E_XDP_MPWQE_UNSUPPORTED_MSG);
		return -EOPNOTSUPP;
	}
	err = mlx5e_cqe_compress_validate(mdev, params);
	if (err == -EOPNOTSUPP)
		NL_SET_ERR_MSG_MOD(extack, MLX5E_CQE_COMPRESS_UNSUPPORTED_MSG);
	else if (err)
		NL_SET_ERR_MSG_MOD(extack, MLX5E_CQE_COMPRESS_STRIDX_MSG);
	if (err)
		return err;
	if (params->sw_mtu < ETH_MIN_MTU || params->sw_mtu > max_mtu) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "MTU must be %u..%u",
				       ETH_MIN_MTU, max_mtu);
		return -EINVAL;
	}
	if ((params->features & NETIF_F_LRO) && !mlx5e_rq_is_striding(params)) {
		NL_SET_ERR_MSG_MOD(extack, MLX5E_LRO_LEGACY_MSG);
		return -EINVAL;
	}
	if ((params->features & NETIF_F_LRO) && params->xdp_prog) {
		NL_SET_ERR_MSG_MOD(extack, MLX5E_LRO_XDP_MSG);
		return -EINVAL;
	}
	mlx5e_rq_layout(params, &l);
	if (l.num_frags > MLX5E_RX_MAX_FRAGS) {
		NL_SET_ERR_MSG_MOD(extack, "MTU needs too many RX fragments");
		return -EINVAL;
	}
	/* A scattered frame is a multi-buffer xdp_buff: the program must
	 * say it handles one (a frags-aware program, SEC("xdp.frags")).
	 * Either RQ type is linear up to the same MTU. The message fits
	 * the 80 bytes of a formatted extack.
	 */
	if (params->xdp_prog && !l.linear &&
	    !params->xdp_prog->aux->xdp_has_frags) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "MTU %u too large for single-buffer XDP, max %u; xdp.frags works",
				       params->sw_mtu,
				       mlx5e_rx_max_linear_mtu(true, PAGE_SHIFT));
		return -EINVAL;
	}
	return 0;
}

/**
 * mlx5e_build_sq_ctx() - the parameter-given fields of an SQ context
 * @params: the parameters
 * @sqc: struct mlx5_ifc_sqc_bits, zeroed; the caller adds the objects
 */
void mlx5e_build_sq_ctx(const struct mlx5e_params *params, void *sqc)
{
	void *wq = MLX5_ADDR_OF(sqc, sqc, wq);

	MLX5_SET(sqc, sqc, state, MLX5_SQC_STATE_RST);
	MLX5_SET(sqc, sqc, flush_in_error_en, 1);
	MLX5_SET(sqc, sqc, min_wqe_inline_mode, params->tx_min_inline_mode);
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, log_wq_stride, ilog2(MLX5E_SEND_WQE_BB));
	MLX5_SET(wq, wq, log_wq_sz, params->log_sq_size);
}

/**
 * mlx5e_build_rq_ctx() - the parameter-given fields of a legacy RQ context
 * @params: the parameters
 * @rqc: struct mlx5_ifc_rqc_bits, zeroed; the caller adds the objects
 */
void mlx5e_build_rq_ctx(const struct mlx5e_params *params, void *rqc)
{
	void *wq = MLX5_ADDR_OF(rqc, rqc, wq);
	struct mlx5e_rx_buf_layout l;

	MLX5_SET(rqc, rqc, state, MLX5_RQC_STATE_RST);
	MLX5_SET(rqc, rqc, flush_in_error_en, 1);
	MLX5_SET(rqc, rqc, vsd, !(params->features & NETIF_F_HW_VLAN_CTAG_RX));
	if (mlx5e_rq_is_striding(params)) {
		u8 log_strides;

		mlx5e_rq_layout_any(params, &l);
		log_strides = mlx5e_mpwqe_log_strides(&l);
		MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_LINKED_LIST_STRIDING_RQ);
		/* 2^9..2^16 strides as 0..7; below, the extended range,
		 * 2^3..2^8 as 10..15 in four bits.
		 */
		MLX5_SET(wq, wq, log_wqe_num_of_strides,
			 (log_strides - MLX5_MPWQE_LOG_NUM_STRIDES_BASE) & 0xf);
		MLX5_SET(wq, wq, log_wqe_stride_size,
			 ilog2(l.stride) - MLX5_MPWQE_LOG_STRIDE_SZ_BASE);
		MLX5_SET(wq, wq, log_wq_stride,
			 ilog2(sizeof(struct mlx5e_rx_wqe_ll)));
		MLX5_SET(wq, wq, log_wq_sz, mlx5e_mpwqe_log_wqes(params, &l));
		return;
	}
	mlx5e_rq_layout(params, &l);
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, log_wq_stride, mlx5e_rq_log_wqe_stride(&l));
	MLX5_SET(wq, wq, log_wq_sz, params->log_rq_size);
}

/* A TX CQ holds a CQE per completion request at most: one per WQEBB. */
u8 mlx5e_tx_cq_log_size(const struct mlx5e_params *params)
{
	return params->log_sq_size;
}

/**
 * mlx5e_cqe_based_moder() - whether a CQ's moderation period starts at a CQE
 * @params: the parameters (rx_cqe_moder, tx_cqe_moder)
 * @rx: the CQ of an RQ, else of an SQ
 *
 * Return: true where the period starts at the first CQE after the CQ is
 * armed, false where it starts at the CQ's last event (the PRM's default).
 */
bool mlx5e_cqe_based_moder(const struct mlx5e_params *params, bool rx)
{
	return params->pflags & BIT(rx ? MLX5E_PFLAG_RX_CQE_BASED_MODER :
				       MLX5E_PFLAG_TX_CQE_BASED_MODER);
}

/**
 * mlx5e_build_cq_ctx() - the parameter-given fields of a CQ context
 * @params: the parameters
 * @rx: the CQ of an RQ, else of an SQ
 * @log_size: log2 of its CQEs
 * @cqc: struct mlx5_ifc_cqc_bits, zeroed; the caller adds EQ, UAR, memory
 */
void mlx5e_build_cq_ctx(const struct mlx5e_params *params, bool rx,
			u8 log_size, void *cqc)
{
	MLX5_SET(cqc, cqc, log_cq_size, log_size);
	MLX5_SET(cqc, cqc, cqe_sz, 0); /* 64-byte CQEs */
	MLX5_SET(cqc, cqc, cq_period, rx ? params->rx_cq_usecs :
					   params->tx_cq_usecs);
	MLX5_SET(cqc, cqc, cq_max_count, rx ? params->rx_cq_frames :
					      params->tx_cq_frames);
	if (mlx5e_cqe_based_moder(params, rx))
		MLX5_SET(cqc, cqc, cq_period_mode,
			 MLX5_CQ_PERIOD_MODE_START_FROM_CQE);
	if (rx && (params->pflags & BIT(MLX5E_PFLAG_RX_CQE_COMPRESS))) {
		/* Basic layout; the checksum, and the stride index if striding. */
		MLX5_SET(cqc, cqc, cqe_comp_en, 1);
		MLX5_SET(cqc, cqc, mini_cqe_res_format,
			 mlx5e_rq_is_striding(params) ?
			 MLX5_CQE_FORMAT_CSUM_STRIDX : MLX5_CQE_FORMAT_CSUM);
	}
}
