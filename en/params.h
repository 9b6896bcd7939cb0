/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef __MLX5_EN_PARAMS_H__
#define __MLX5_EN_PARAMS_H__

#include "../en.h"

/* Why skb_tx_mpwqe cannot be set (extack and dmesg). */
#define MLX5E_MPWQE_UNSUPPORTED_MSG \
	"skb_tx_mpwqe: the device has no enhanced multi-packet send WQE"

/* Why xdp_tx_mpwqe cannot be set. */
#define MLX5E_XDP_MPWQE_UNSUPPORTED_MSG \
	"xdp_tx_mpwqe: the device has no enhanced multi-packet send WQE"

/* Why rx_striding_rq cannot be set. */
#define MLX5E_STRIDING_UNSUPPORTED_MSG \
	"rx_striding_rq: the device has no striding RQ with UMR"

/* Why rx_cqe_compress cannot be set. */
#define MLX5E_CQE_MODER_UNSUPPORTED_MSG \
	"CQE-based moderation: the device has no cq_period_start_from_cqe"
#define MLX5E_CQE_COMPRESS_UNSUPPORTED_MSG \
	"rx_cqe_compress: the device has no CQE compression"
#define MLX5E_CQE_COMPRESS_TSTAMP_MSG \
	"rx_cqe_compress: not with RX hardware timestamps (a block shares one stamp)"
#define MLX5E_CQE_COMPRESS_STRIDX_MSG \
	"rx_cqe_compress: the device's mini CQEs carry no stride index, needed by the striding RQ"

/* Why LRO cannot be on (extack and dmesg). */
#define MLX5E_LRO_LEGACY_MSG	"LRO needs the striding RQ (rx_striding_rq)"
#define MLX5E_LRO_XDP_MSG	"LRO is on: turn it off to attach XDP"

/* LRO: the largest session in bytes and the TIRs' timeout wanted (us),
 * as upstream.
 */
#define MLX5E_LRO_MAX_BYTES		SZ_64K
#define MLX5E_LRO_HDR_ROOM		256
#define MLX5E_LRO_TIMEOUT_US		32

/* Whether rx_striding_rq is on by default where the device has it. */
#define MLX5E_STRIDING_RQ_DEFAULT	1
#define MLX5E_MPWQE_LOG_WQES_MIN	3
#define MLX5E_MPWQE_LOG_RING_STRIDES_MAX	14

bool mlx5e_striding_rq_caps(struct mlx5_core_dev *mdev);
bool mlx5e_rq_is_striding(const struct mlx5e_params *params);
bool mlx5e_lro_caps(struct mlx5_core_dev *mdev);
u32 mlx5e_lro_timeout(struct mlx5_core_dev *mdev);
bool mlx5e_rq_is_linear(const struct mlx5e_params *params);
int mlx5e_cqe_compress_validate(struct mlx5_core_dev *mdev,
				const struct mlx5e_params *params);
void mlx5e_rq_layout_any(const struct mlx5e_params *params,
			 struct mlx5e_rx_buf_layout *l);
u8 mlx5e_mpwqe_log_strides(const struct mlx5e_rx_buf_layout *l);
u8 mlx5e_mpwqe_log_wqes(const struct mlx5e_params *params,
			const struct mlx5e_rx_buf_layout *l);
void mlx5e_params_init(struct mlx5_core_dev *mdev, struct mlx5e_params *params,
		       u16 num_channels, u16 mtu);
u16 mlx5e_max_channels(struct mlx5_core_dev *mdev);
u8 mlx5e_log_max_ring_size(struct mlx5_core_dev *mdev, bool sq);
u16 mlx5e_sq_stop_room(void);
u8 mlx5e_max_mpw_ds(struct mlx5_core_dev *mdev);
u16 mlx5e_tx_cqe_mod(const struct mlx5e_params *params);
void mlx5e_rq_layout(const struct mlx5e_params *params,
		     struct mlx5e_rx_buf_layout *l);
u8 mlx5e_rq_log_wqe_stride(const struct mlx5e_rx_buf_layout *l);
int mlx5e_params_validate(struct mlx5_core_dev *mdev,
			  const struct mlx5e_params *params, u16 max_mtu,
			  struct netlink_ext_ack *extack);

void mlx5e_build_sq_ctx(const struct mlx5e_params *params, void *sqc);
void mlx5e_build_rq_ctx(const struct mlx5e_params *params, void *rqc);
bool mlx5e_cqe_based_moder(const struct mlx5e_params *params, bool rx);
void mlx5e_build_cq_ctx(const struct mlx5e_params *params, bool rx,
			u8 log_size, void *cqc);
u8 mlx5e_tx_cq_log_size(const struct mlx5e_params *params);

#endif /* __MLX5_EN_PARAMS_H__ */
