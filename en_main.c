// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5e: the netdev of an mlx5 function.
 *
 * The Ethernet side is an auxiliary driver bound to the core's
 * mlx5_core.eth device. probe creates the netdev, with a devlink instance
 * and port of its own for its health reporters (en/devlink.c); suspend
 * (before the core tears the hardware down for reload or recovery)
 * destroys every hardware object and detaches it; resume recreates them
 * and reopens; remove unregisters it. probe and remove run under the
 * function's devlink lock when the core adds or deletes the device, with
 * no devlink lock when sysfs binds or unbinds the driver: they neither
 * take nor assert the function's instance lock.
 *
 * Opening the netdev builds the channels (each: NAPI, a TX CQ and SQ, an
 * RX CQ and RQ, in that order), then the RSS objects that point at the RQs
 * and the flow tables that point at the TIRs, and activates the channels.
 * Reconfiguration builds a new set of channels from new parameters first
 * and swaps the RSS table over to them; if building fails, the old set
 * keeps running.
 */
#include <linux/auxiliary_bus.h>
#include <linux/module.h>
#include <net/netdev_queues.h>
#include <net/netdev_rx_queue.h>
#include <net/page_pool/helpers.h>
#include <net/xdp_sock_drv.h>
#include <net/geneve.h>
#include <net/vxlan.h>

#include "en.h"
#include "en/common.h"
#include "en/fs.h"
#include "en/params.h"
#include "en/rss.h"
#include "en/stats.h"
#include "en/txrx.h"
#include "en/xdp.h"

/*
 * The TX watchdog's patience, upstream's: a channel switch keeps every TX
 * queue stopped until the old channels are closed, which took over five
 * seconds on the debug kernel under TCG.
 */
#define MLX5E_TX_TIMEOUT	(15 * HZ)

/* ---- queue objects --------------------------------------------------- */

static void mlx5e_completion_event(struct mlx5_cq *mcq)
{
	struct mlx5e_cq *cq = container_of(mcq, struct mlx5e_cq, mcq);
	struct mlx5e_channel *c = container_of(cq->napi, struct mlx5e_channel,
					       napi);

	cq->arm_sn++;
	/*
	 * ch_events: counted here, added to the u64_stats by NAPI, their
	 * writer, which this interrupt may preempt on its CPU.
	 */
	WRITE_ONCE(c->irq_events, c->irq_events + 1);
	napi_schedule(cq->napi);
}

/* modify_field_select of MODIFY_CQ: the period and the count. */
#define MLX5E_CQ_MODIFY_PERIOD	BIT(0)
#define MLX5E_CQ_MODIFY_COUNT	BIT(1)

/**
 * mlx5e_modify_cq_moderation() - set a CQ's moderation in place
 * @mdev: the device
 * @cq: the CQ
 * @usecs: the longest an event waits after a completion
 * @frames: the completions an event waits for
 *
 * Return: 0 or the command's error.
 */
int mlx5e_modify_cq_moderation(struct mlx5_core_dev *mdev,
			       struct mlx5e_cq *cq, u16 usecs, u16 frames)
{
	u32 in[MLX5_ST_SZ_DW(modify_cq_in)] = {};
	void *cqc = MLX5_ADDR_OF(modify_cq_in, in, cq_context);

	MLX5_SET(modify_cq_in, in, opcode, MLX5_CMD_OP_MODIFY_CQ);
	MLX5_SET(modify_cq_in, in, cqn, cq->mcq.cqn);
	MLX5_SET(modify_cq_in, in,
		 modify_field_select_resize_field_select.modify_field_select.modify_field_select,
		 MLX5E_CQ_MODIFY_PERIOD | MLX5E_CQ_MODIFY_COUNT);
	MLX5_SET(cqc, cqc, cq_period, usecs);
	MLX5_SET(cqc, cqc, cq_max_count, frames);
	return mlx5_cmd_exec_in(mdev, modify_cq, in);
}

/* net_dim chose a profile: program it, then measure again. */
static void mlx5e_rx_dim_work(struct work_struct *work)
{
	struct dim *dim = container_of(work, struct dim, work);
	struct mlx5e_channel *c = container_of(dim, struct mlx5e_channel,
					       rx_dim);
	struct dim_cq_moder m = net_dim_get_rx_moderation(dim->mode,
							  dim->profile_ix);

	mlx5e_modify_cq_moderation(c->mdev, &c->rq.cq, m.usec, m.pkts);
	dim->state = DIM_START_MEASURE;
}

static void mlx5e_tx_dim_work(struct work_struct *work)
{
	struct dim *dim = container_of(work, struct dim, work);
	struct mlx5e_channel *c = container_of(dim, struct mlx5e_channel,
					       tx_dim);
	struct dim_cq_moder m = net_dim_get_tx_moderation(dim->mode,
							  dim->profile_ix);

	mlx5e_modify_cq_moderation(c->mdev, &c->sq.cq, m.usec, m.pkts);
	dim->state = DIM_START_MEASURE;
}

/*
 * One DIM sample per NAPI completion, from the queues' own counters. The
 * events are each CQ's own completion events, as upstream: a CQ with none
 * (an RQ that receives nothing while its channel sends) never completes
 * a measurement, so its moderation stays as it is. Counted by NAPI
 * completions instead, an idle RQ's DIM decided every 64 of them on
 * empty samples, and moved its profile (a MODIFY_CQ) nearly every time.
 */
static void mlx5e_dim_sample(struct mlx5e_channel *c)
{
	struct mlx5e_channel_stats *st = &c->priv->channel_stats[c->ix];
	struct dim_sample sample = {};

	if (c->rx_dim_on) {
		dim_update_sample(READ_ONCE(c->rq.cq.arm_sn),
				  u64_stats_read(&st->rq.packets),
				  u64_stats_read(&st->rq.bytes), &sample);
		net_dim(&c->rx_dim, sample);
	}
	if (c->tx_dim_on) {
		dim_update_sample(READ_ONCE(c->sq.cq.arm_sn),
				  u64_stats_read(&st->sq.packets),
				  u64_stats_read(&st->sq.bytes), &sample);
		net_dim(&c->tx_dim, sample);
	}
}

static void mlx5e_dim_init(struct mlx5e_channel *c,
			   const struct mlx5e_params *params)
{
	c->rx_dim_on = params->rx_dim_enabled;
	c->tx_dim_on = params->tx_dim_enabled;
	INIT_WORK(&c->rx_dim.work, mlx5e_rx_dim_work);
	INIT_WORK(&c->tx_dim.work, mlx5e_tx_dim_work);
	/* net_dim's profiles for the period mode the CQs were made with. */
	c->rx_dim.mode = mlx5e_cqe_based_moder(params, true) ?
			 DIM_CQ_PERIOD_MODE_START_FROM_CQE :
			 DIM_CQ_PERIOD_MODE_START_FROM_EQE;
	c->tx_dim.mode = mlx5e_cqe_based_moder(params, false) ?
			 DIM_CQ_PERIOD_MODE_START_FROM_CQE :
			 DIM_CQ_PERIOD_MODE_START_FROM_EQE;
}

/**
 * mlx5e_channels_set_moderation() - the static moderation of @params on
 * every open channel's CQs whose DIM is off
 * @priv: the netdev's private area
 * @params: the moderation to set
 *
 * Return: 0 or the first command's error.
 */
int mlx5e_channels_set_moderation(struct mlx5e_priv *priv,
				  const struct mlx5e_params *params)
{
	struct mlx5e_channels *chs = &priv->channels;
	unsigned int i;
	int err;

	for (i = 0; i < chs->num; i++) {
		struct mlx5e_channel *c = chs->c[i];

		if (!c->rx_dim_on) {
			err = mlx5e_modify_cq_moderation(priv->mdev, &c->rq.cq,
							 params->rx_cq_usecs,
							 params->rx_cq_frames);
			if (err)
				return err;
		}
		if (!c->tx_dim_on) {
			err = mlx5e_modify_cq_moderation(priv->mdev, &c->sq.cq,
							 params->tx_cq_usecs,
							 params->tx_cq_frames);
			if (err)
				return err;
		}
	}
	return 0;
}

/**
 * mlx5e_create_cq() - a CQ of a channel, attached to its completion vector
 * @c: the channel
 * @cq: filled in
 * @params: the parameters (moderation)
 * @rx: the CQ of an RQ, else of an SQ
 * @log_size: log2 of its CQEs
 *
 * Return: 0 or a negative errno, nothing left behind.
 */
int mlx5e_create_cq(struct mlx5e_channel *c, struct mlx5e_cq *cq,
		    const struct mlx5e_params *params, bool rx, u8 log_size)
{
	struct mlx5_core_dev *mdev = c->mdev;
	u32 out[MLX5_ST_SZ_DW(create_cq_out)] = {};
	void *in, *cqc;
	int inlen, err;
	u8 eqn;

	err = mlx5_comp_eqn_get(mdev, c->vector, &eqn);
	if (err)
		return err;
	err = mlx5_cqwq_create(mdev->device, log_size, &cq->wq);
	if (err)
		return err;

	inlen = MLX5_ST_SZ_BYTES(create_cq_in) +
		sizeof(u64) * mlx5_wq_npages(&cq->wq.wqb);
	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in) {
		err = -ENOMEM;
		goto err_wq;
	}
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	mlx5e_build_cq_ctx(params, rx, log_size, cqc);
	MLX5_SET(cqc, cqc, uar_page, c->db.uar_index);
	MLX5_SET(cqc, cqc, c_eqn_or_apu_element, eqn);
	MLX5_SET64(cqc, cqc, dbr_addr, cq->wq.wqb.db_dma);
	mlx5_wq_fill_pas(&cq->wq.wqb, MLX5_ADDR_OF(create_cq_in, in, pas));
	err = mlx5_cmd_exec(mdev, in, inlen, out, sizeof(out));
	kvfree(in);
	if (err)
		goto err_wq;

	cq->mcq.cqn = MLX5_GET(create_cq_out, out, cqn);
	cq->mcq.vector = c->vector;
	cq->mcq.comp = mlx5e_completion_event;
	cq->napi = &c->napi;
	cq->uar_page = c->db.page;
	cq->stats = c->stats;
	cq->arm_sn = 0;
	err = mlx5_cq_attach(mdev, &cq->mcq);
	if (err)
		goto err_destroy;
	return 0;

err_destroy:
	{
		u32 din[MLX5_ST_SZ_DW(destroy_cq_in)] = {};

		MLX5_SET(destroy_cq_in, din, opcode, MLX5_CMD_OP_DESTROY_CQ);
		MLX5_SET(destroy_cq_in, din, cqn, cq->mcq.cqn);
		mlx5_cmd_exec_in(mdev, destroy_cq, din);
	}
err_wq:
	mlx5_cqwq_destroy(mdev->device, &cq->wq);
	return err;
}

/**
 * mlx5e_destroy_cq() - undo mlx5e_create_cq()
 * @mdev: the device
 * @cq: the CQ
 */
void mlx5e_destroy_cq(struct mlx5_core_dev *mdev, struct mlx5e_cq *cq)
{
	u32 in[MLX5_ST_SZ_DW(destroy_cq_in)] = {};

	mlx5_cq_detach(mdev, &cq->mcq);
	MLX5_SET(destroy_cq_in, in, opcode, MLX5_CMD_OP_DESTROY_CQ);
	MLX5_SET(destroy_cq_in, in, cqn, cq->mcq.cqn);
	mlx5_cmd_exec_in(mdev, destroy_cq, in);
	mlx5_cqwq_destroy(mdev->device, &cq->wq);
}

/**
 * mlx5e_modify_sq_state() - move an SQ between RST, RDY and ERR
 * @mdev: the device
 * @sqn: the SQ
 * @curr: its state now (MLX5_SQC_STATE_*)
 * @next: the state wanted
 *
 * Return: 0 or a command error.
 */
int mlx5e_modify_sq_state(struct mlx5_core_dev *mdev, u32 sqn, int curr,
			  int next)
{
	u32 in[MLX5_ST_SZ_DW(modify_sq_in)] = {};
	void *sqc = MLX5_ADDR_OF(modify_sq_in, in, ctx);

	MLX5_SET(modify_sq_in, in, opcode, MLX5_CMD_OP_MODIFY_SQ);
	MLX5_SET(modify_sq_in, in, sq_state, curr);
	MLX5_SET(modify_sq_in, in, sqn, sqn);
	MLX5_SET(sqc, sqc, state, next);
	return mlx5_cmd_exec_in(mdev, modify_sq, in);
}

int mlx5e_modify_rq_state(struct mlx5_core_dev *mdev, u32 rqn, int curr,
			  int next)
{
	u32 in[MLX5_ST_SZ_DW(modify_rq_in)] = {};
	void *rqc = MLX5_ADDR_OF(modify_rq_in, in, ctx);

	MLX5_SET(modify_rq_in, in, opcode, MLX5_CMD_OP_MODIFY_RQ);
	MLX5_SET(modify_rq_in, in, rq_state, curr);
	MLX5_SET(modify_rq_in, in, rqn, rqn);
	MLX5_SET(rqc, rqc, state, next);
	return mlx5_cmd_exec_in(mdev, modify_rq, in);
}

/*
 * GENEVE is sent through the software parser (the device has no
 * tunnel_stateless_geneve_tx): the eseg tells it where the outer and inner
 * headers are, for the inner checksums and LSO, as upstream's
 * mlx5_geneve_tx_allowed().
 */
static bool mlx5e_geneve_tx_allowed(struct mlx5_core_dev *mdev)
{
	return MLX5_CAP_ETH(mdev, swp) && MLX5_CAP_ETH(mdev, swp_csum) &&
	       MLX5_CAP_ETH(mdev, swp_lso);
}

/*
 * GRE and IP-in-IP (IPv4 or IPv6 inside) the device parses on send, for
 * the inner checksums and LSO, as upstream's
 * mlx5e_tunnel_proto_supported_tx().
 */
static bool mlx5e_tunnel_proto_supported_tx(struct mlx5_core_dev *mdev,
					    u8 proto)
{
	switch (proto) {
	case IPPROTO_GRE:
		return MLX5_CAP_ETH(mdev, tunnel_stateless_gre);
	case IPPROTO_IPIP:
	case IPPROTO_IPV6:
		return MLX5_CAP_ETH(mdev, tunnel_stateless_ip_over_ip) ||
		       MLX5_CAP_ETH(mdev, tunnel_stateless_ip_over_ip_tx);
	default:
		return false;
	}
}

/**
 * mlx5e_create_sq_cmd() - CREATE_SQ for any SQ of a channel
 * @c: the channel (its UAR page, the netdev's PD and TIS)
 * @params: the parameters (SQ context fields they give)
 * @wq: the SQ's ring, created
 * @cqn: its completion queue
 * @reg_umr: the SQ may post UMR WQEs (the ICOSQ)
 * @sqn: filled in
 *
 * The one builder of the SQ context for the TX SQs, the XDP SQs and the
 * ICOSQs; creation is not a hot path.
 *
 * Return: 0 or a command error; the SQ is in RST.
 */
int mlx5e_create_sq_cmd(struct mlx5e_channel *c,
			const struct mlx5e_params *params,
			const struct mlx5_wq_cyc *wq, u32 cqn, bool reg_umr,
			u32 *sqn)
{
	struct mlx5e_hw_res *res = &c->priv->res;
	u32 out[MLX5_ST_SZ_DW(create_sq_out)] = {};
	void *in, *sqc, *wqc;
	int inlen, err;

	inlen = MLX5_ST_SZ_BYTES(create_sq_in) +
		sizeof(u64) * mlx5_wq_npages(&wq->wqb);
	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	MLX5_SET(create_sq_in, in, opcode, MLX5_CMD_OP_CREATE_SQ);
	sqc = MLX5_ADDR_OF(create_sq_in, in, ctx);
	wqc = MLX5_ADDR_OF(sqc, sqc, wq);
	mlx5e_build_sq_ctx(params, sqc);
	MLX5_SET(sqc, sqc, tis_lst_sz, 1);
	MLX5_SET(sqc, sqc, tis_num_0, res->tisn);
	MLX5_SET(sqc, sqc, cqn, cqn);
	MLX5_SET(sqc, sqc, reg_umr, reg_umr);
	MLX5_SET(sqc, sqc, allow_swp, mlx5e_geneve_tx_allowed(c->mdev));
	MLX5_SET(wq, wqc, log_wq_sz, ilog2(mlx5_wq_cyc_size(wq)));
	MLX5_SET(wq, wqc, uar_page, c->db.uar_index);
	MLX5_SET(wq, wqc, pd, res->pdn);
	MLX5_SET64(wq, wqc, dbr_addr, wq->wqb.db_dma);
	mlx5_wq_fill_pas(&wq->wqb, MLX5_ADDR_OF(wq, wqc, pas));
	err = mlx5_cmd_exec(c->mdev, in, inlen, out, sizeof(out));
	kvfree(in);
	if (!err)
		*sqn = MLX5_GET(create_sq_out, out, sqn);
	return err;
}

/**
 * mlx5e_destroy_sq_cmd() - undo mlx5e_create_sq_cmd()
 * @mdev: the device
 * @sqn: the SQ
 */
void mlx5e_destroy_sq_cmd(struct mlx5_core_dev *mdev, u32 sqn)
{
	u32 in[MLX5_ST_SZ_DW(destroy_sq_in)] = {};

	MLX5_SET(destroy_sq_in, in, opcode, MLX5_CMD_OP_DESTROY_SQ);
	MLX5_SET(destroy_sq_in, in, sqn, sqn);
	mlx5_cmd_exec_in(mdev, destroy_sq, in);
}

static int mlx5e_alloc_sq_fifos(struct mlx5e_txqsq *sq, int node)
{
	u32 wq_sz = mlx5_wq_cyc_size(&sq->wq);
	/* Each mapping and each SKB of a session takes a segment at least. */
	u32 fifo_sz = roundup_pow_of_two(wq_sz * MLX5E_WQEBB_NUM_DS);

	sq->dma_fifo = kvzalloc_node(array_size(fifo_sz, sizeof(*sq->dma_fifo)),
				     GFP_KERNEL, node);
	sq->skb_fifo = kvzalloc_node(array_size(fifo_sz, sizeof(*sq->skb_fifo)),
				     GFP_KERNEL, node);
	sq->wqe_info = kvzalloc_node(array_size(wq_sz, sizeof(*sq->wqe_info)),
				     GFP_KERNEL, node);
	if (!sq->dma_fifo || !sq->skb_fifo || !sq->wqe_info) {
		kvfree(sq->dma_fifo);
		kvfree(sq->skb_fifo);
		kvfree(sq->wqe_info);
		return -ENOMEM;
	}
	sq->dma_fifo_mask = fifo_sz - 1;
	sq->skb_fifo_mask = fifo_sz - 1;
	return 0;
}

static void mlx5e_free_sq_fifos(struct mlx5e_txqsq *sq)
{
	kvfree(sq->wqe_info);
	kvfree(sq->skb_fifo);
	kvfree(sq->dma_fifo);
}

/* TX CQ, ring, fifos, SQ object (in RST). */
static int mlx5e_open_txqsq(struct mlx5e_channel *c,
			    const struct mlx5e_params *params)
{
	struct mlx5e_channel_stats *stats = &c->priv->channel_stats[c->ix];
	struct mlx5e_txqsq *sq = &c->sq;
	int err;

	err = mlx5e_create_cq(c, &sq->cq, params, false,
			      mlx5e_tx_cq_log_size(params));
	if (err)
		return err;
	err = mlx5_wq_cyc_create(c->mdev->device, params->log_sq_size,
				 ilog2(MLX5E_SEND_WQE_BB), MLX5_WQ_DBR_SND,
				 &sq->wq);
	if (err)
		goto err_cq;
	err = mlx5e_alloc_sq_fifos(sq, cpu_to_node(c->cpu));
	if (err)
		goto err_wq;

	sq->ch = c;
	sq->pdev = c->mdev->device;
	sq->hwtstamp = &c->priv->hwtstamp;
	sq->uar_reg = c->db.reg;
	sq->mkey_be = cpu_to_be32(c->priv->res.mkey);
	sq->txq_ix = c->ix;
	sq->txq = netdev_get_tx_queue(c->netdev, c->ix);
	sq->stop_room = mlx5e_sq_stop_room();
	sq->wake_room = max_t(u16, sq->stop_room,
			      mlx5_wq_cyc_size(&sq->wq) / 4);
	sq->cqe_mod = mlx5e_tx_cqe_mod(params);
	sq->max_mpw_ds = mlx5e_max_mpw_ds(c->mdev);
	if (params->pflags & BIT(MLX5E_PFLAG_SKB_TX_MPWQE))
		set_bit(MLX5E_SQ_STATE_MPWQE, &sq->state);
	sq->min_inline_mode = params->tx_min_inline_mode;
	sq->vlan_insert = MLX5_CAP_ETH(c->mdev, wqe_vlan_insert);
	sq->swp = mlx5e_geneve_tx_allowed(c->mdev);
	sq->stats = &stats->sq;
	sq->cq_stats = &stats->sq_cq;
	INIT_WORK(&sq->recover_work, mlx5e_tx_err_cqe_work);

	err = mlx5e_create_sq_cmd(c, params, &sq->wq, sq->cq.mcq.cqn, false,
				  &sq->sqn);
	if (err)
		goto err_fifos;
	sq->qpn_be = cpu_to_be32(sq->sqn << 8);
	return 0;

err_fifos:
	mlx5e_free_sq_fifos(sq);
err_wq:
	mlx5_wq_cyc_destroy(c->mdev->device, &sq->wq);
err_cq:
	mlx5e_destroy_cq(c->mdev, &sq->cq);
	return err;
}

static void mlx5e_close_txqsq(struct mlx5e_channel *c)
{
	struct mlx5e_txqsq *sq = &c->sq;

	cancel_work_sync(&sq->recover_work);
	mlx5e_health_unfail(&sq->state, MLX5E_SQ_STATE_RECOVER_FAILED,
			    &c->priv->tx_failed);
	mlx5e_destroy_sq_cmd(c->mdev, sq->sqn);
	mlx5e_free_txqsq_descs(sq);
	mlx5e_free_sq_fifos(sq);
	mlx5_wq_cyc_destroy(c->mdev->device, &sq->wq);
	mlx5e_destroy_cq(c->mdev, &sq->cq);
}

static int mlx5e_create_rq_obj(struct mlx5e_channel *c, struct mlx5e_rq *rq,
			       const struct mlx5e_params *params)
{
	struct mlx5e_hw_res *res = &c->priv->res;
	u32 out[MLX5_ST_SZ_DW(create_rq_out)] = {};
	void *in, *rqc, *wq;
	int inlen, err;

	inlen = MLX5_ST_SZ_BYTES(create_rq_in) +
		sizeof(u64) * mlx5_wq_npages(&rq->wq.wqb);
	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	MLX5_SET(create_rq_in, in, opcode, MLX5_CMD_OP_CREATE_RQ);
	rqc = MLX5_ADDR_OF(create_rq_in, in, ctx);
	wq = MLX5_ADDR_OF(rqc, rqc, wq);
	mlx5e_build_rq_ctx(params, rqc);
	if (rq->xsk_pool && rq->striding) {
		/* A stride per frame, whatever the MTU asks of ours. */
		MLX5_SET(wq, wq, log_wqe_num_of_strides,
			 (rq->log_strides - MLX5_MPWQE_LOG_NUM_STRIDES_BASE) & 0xf);
		MLX5_SET(wq, wq, log_wqe_stride_size,
			 rq->log_stride_sz - MLX5_MPWQE_LOG_STRIDE_SZ_BASE);
		MLX5_SET(wq, wq, log_wq_sz, rq->wq.log_sz);
	} else if (rq->xsk_pool) {
		/* One data segment per WQE, whatever the MTU asks of ours. */
		MLX5_SET(wq, wq, log_wq_stride, rq->wq.log_stride);
		MLX5_SET(wq, wq, log_wq_sz, rq->wq.log_sz);
	}
	MLX5_SET(rqc, rqc, cqn, rq->cq.mcq.cqn);
	MLX5_SET(rqc, rqc, counter_set_id, res->q_counter);
	MLX5_SET(wq, wq, pd, res->pdn);
	MLX5_SET64(wq, wq, dbr_addr, rq->wq.wqb.db_dma);
	mlx5_wq_fill_pas(&rq->wq.wqb, MLX5_ADDR_OF(wq, wq, pas));
	err = mlx5_cmd_exec(c->mdev, in, inlen, out, sizeof(out));
	kvfree(in);
	if (!err)
		rq->rqn = MLX5_GET(create_rq_out, out, rqn);
	return err;
}

static void mlx5e_destroy_rq_obj(struct mlx5_core_dev *mdev, u32 rqn)
{
	u32 in[MLX5_ST_SZ_DW(destroy_rq_in)] = {};

	MLX5_SET(destroy_rq_in, in, opcode, MLX5_CMD_OP_DESTROY_RQ);
	MLX5_SET(destroy_rq_in, in, rqn, rqn);
	mlx5_cmd_exec_in(mdev, destroy_rq, in);
}

static int mlx5e_create_page_pool(struct mlx5e_channel *c, struct mlx5e_rq *rq,
				  const struct mlx5e_params *params)
{
	struct page_pool_params pp = {
		.order = 0,
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.pool_size = mlx5_wq_cyc_size(&rq->wq) *
			     (rq->striding ? MLX5E_MPWQE_PAGES : rq->num_frags),
		.nid = cpu_to_node(c->cpu),
		.dev = c->mdev->device,
		.napi = &c->napi,
		.netdev = c->netdev,
		.queue_idx = c->ix,
		/* XDP_TX sends from the buffers it received into. */
		.dma_dir = params->xdp_prog ? DMA_BIDIRECTIONAL : DMA_FROM_DEVICE,
		.max_len = PAGE_SIZE,
		.offset = 0,
	};

	rq->page_pool = page_pool_create(&pp);
	if (IS_ERR(rq->page_pool)) {
		int err = PTR_ERR(rq->page_pool);

		rq->page_pool = NULL;
		return err;
	}
	return 0;
}

/* The WQEs' data segments never change lkey or size: write them once. */
static void mlx5e_init_rx_wqes(struct mlx5e_rq *rq)
{
	u32 nseg = 1 << (rq->wq.log_stride - ilog2(MLX5E_SEND_WQE_DS));
	u16 i;
	u32 f;

	for (i = 0; i < mlx5_wq_cyc_size(&rq->wq); i++) {
		struct mlx5e_wqe_data_seg *seg = mlx5_wq_cyc_get_wqe(&rq->wq, i);

		for (f = 0; f < nseg; f++, seg++) {
			if (f < rq->num_frags) {
				seg->byte_count = cpu_to_be32(f ? rq->frag_size :
							      rq->first_frag_size);
				seg->lkey = rq->mkey_be;
			} else {
				seg->byte_count = 0;
				seg->lkey = cpu_to_be32(MLX5E_TERMINATE_LKEY);
			}
		}
	}
}

/* ---- the striding RQ's control SQ and mkey ---------------------------- */

/*
 * A striding RQ WQE is MLX5E_MPWQE_PAGES pages the device sees as one
 * contiguous range: the range of that WQE in an MTT mkey of the RQ, whose
 * entries a UMR WQE on the channel's ICOSQ points at the pages the WQE
 * took from the page_pool. We chose UMR over one physically contiguous
 * buffer per WQE because page_pool hands out single pages (order 0,
 * recycled one by one as their strides are consumed): a contiguous WQE
 * would need high-order allocations that fail on a fragmented host and
 * would hold a whole WQE hostage to its last SKB. UMR works for any page
 * size and is how the device is used by the upstream driver.
 */
static int mlx5e_create_umr_mkey(struct mlx5e_channel *c, u32 npages,
				 u32 *mkey)
{
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_mkey_in)] = {};
	void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	int err;

	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	/* No translation until a UMR writes one. */
	MLX5_SET(mkc, mkc, free, 1);
	MLX5_SET(mkc, mkc, umr_en, 1);
	MLX5_SET(mkc, mkc, lw, 1);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_MTT);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET(mkc, mkc, pd, c->priv->res.pdn);
	MLX5_SET64(mkc, mkc, len, (u64)npages << PAGE_SHIFT);
	/* Two 8-byte MTT entries per octword. */
	MLX5_SET(mkc, mkc, translations_octword_size, npages / 2);
	MLX5_SET(mkc, mkc, log_page_size, PAGE_SHIFT);
	err = mlx5_cmd_exec_inout(c->mdev, create_mkey, in, out);
	if (!err)
		*mkey = MLX5_GET(create_mkey_out, out, mkey_index) << 8;
	return err;
}

static void mlx5e_destroy_umr_mkey(struct mlx5_core_dev *mdev, u32 mkey)
{
	u32 in[MLX5_ST_SZ_DW(destroy_mkey_in)] = {};

	MLX5_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	MLX5_SET(destroy_mkey_in, in, mkey_index, mkey >> 8);
	mlx5_cmd_exec_in(mdev, destroy_mkey, in);
}

/*
 * The ICOSQ holds a UMR for every WQE of the RQ at once, and the NOPs
 * that pad the ring's end once before one of them (what is in flight
 * spans less than the ring, so it wraps the end at most once).
 */
static int mlx5e_open_icosq(struct mlx5e_channel *c, struct mlx5e_icosq *sq,
			    const struct mlx5e_params *params, u16 rq_wqes)
{
	u8 log_sz = max_t(u8, order_base_2((rq_wqes + 1) * MLX5E_UMR_WQEBBS - 1),
			  MLX5E_LOG_SQ_SIZE_MIN);
	struct mlx5e_params cq_params = *params;
	int err;

	/*
	 * Its completions refill the RQ: the period starts at the CQ's last
	 * event whatever tx_cqe_moder says, or a UMR completion after a
	 * quiet spell would wait a whole period while the RQ runs dry.
	 */
	cq_params.pflags &= ~BIT(MLX5E_PFLAG_TX_CQE_BASED_MODER);
	err = mlx5e_create_cq(c, &sq->cq, &cq_params, false, log_sz);
	if (err)
		return err;
	err = mlx5_wq_cyc_create(c->mdev->device, log_sz,
				 ilog2(MLX5E_SEND_WQE_BB), MLX5_WQ_DBR_SND,
				 &sq->wq);
	if (err)
		goto err_cq;
	sq->cqe_info = kvcalloc_node(BIT(log_sz), sizeof(*sq->cqe_info),
				     GFP_KERNEL, cpu_to_node(c->cpu));
	if (!sq->cqe_info) {
		err = -ENOMEM;
		goto err_wq;
	}
	sq->cc = 0;
	sq->pc = 0;
	sq->db_ctrl = NULL;
	sq->error = false;
	sq->uar_reg = c->db.reg;
	err = mlx5e_create_sq_cmd(c, params, &sq->wq, sq->cq.mcq.cqn, true,
				  &sq->sqn);
	if (err)
		goto err_info;
	err = mlx5e_modify_sq_state(c->mdev, sq->sqn, MLX5_SQC_STATE_RST,
				    MLX5_SQC_STATE_RDY);
	if (err)
		goto err_obj;
	return 0;

err_obj:
	mlx5e_destroy_sq_cmd(c->mdev, sq->sqn);
err_info:
	kvfree(sq->cqe_info);
err_wq:
	mlx5_wq_cyc_destroy(c->mdev->device, &sq->wq);
err_cq:
	mlx5e_destroy_cq(c->mdev, &sq->cq);
	return err;
}

/**
 * mlx5e_reset_icosq() - an empty, ready ICOSQ again (RQ recovery)
 * @c: the channel, its NAPI disabled
 * @sq: its ICOSQ to reset
 *
 * Whatever the ICOSQ holds is dropped: a failed UMR and the UMRs behind
 * it, or UMRs the device never completed. The SQ goes through ERR to RST,
 * where the device forgets its WQEs and completes none of them any more;
 * then its CQ is emptied and it starts again from zero. The RQ's pages
 * those UMRs were to map are the caller's to return.
 *
 * Return: 0 or a command error (the ICOSQ then stays out of service).
 */
int mlx5e_reset_icosq(struct mlx5e_channel *c, struct mlx5e_icosq *sq)
{
	u8 state;
	int err;

	err = mlx5e_query_sq_state(c->mdev, sq->sqn, &state);
	if (err)
		return err;
	if (state == MLX5_SQC_STATE_RDY) {
		err = mlx5e_modify_sq_state(c->mdev, sq->sqn,
					    MLX5_SQC_STATE_RDY,
					    MLX5_SQC_STATE_ERR);
		if (err)
			return err;
		state = MLX5_SQC_STATE_ERR;
	}
	if (state == MLX5_SQC_STATE_ERR) {
		err = mlx5e_modify_sq_state(c->mdev, sq->sqn,
					    MLX5_SQC_STATE_ERR,
					    MLX5_SQC_STATE_RST);
		if (err)
			return err;
	}
	while (mlx5_cqwq_get_cqe(&sq->cq.wq))
		mlx5_cqwq_pop(&sq->cq.wq);
	mlx5_cqwq_update_db(&sq->cq.wq);
	sq->cc = 0;
	sq->pc = 0;
	sq->db_ctrl = NULL;
	sq->error = false;
	/* Completions the dropped WQEs asked for never come. */
	memset(sq->cqe_info, 0,
	       mlx5_wq_cyc_size(&sq->wq) * sizeof(*sq->cqe_info));
	return mlx5e_modify_sq_state(c->mdev, sq->sqn, MLX5_SQC_STATE_RST,
				     MLX5_SQC_STATE_RDY);
}

static void mlx5e_close_icosq(struct mlx5e_channel *c, struct mlx5e_icosq *sq)
{
	mlx5e_destroy_sq_cmd(c->mdev, sq->sqn);
	kvfree(sq->cqe_info);
	mlx5_wq_cyc_destroy(c->mdev->device, &sq->wq);
	mlx5e_destroy_cq(c->mdev, &sq->cq);
}

/*
 * A striding RQ's own parts: ICOSQ, mkey, per-WQE page tables (the XSK
 * RQ's frames, @xsk_bufs, are its caller's). The XSK RQ has a control SQ
 * of its own: a UMR's completion publishes the WQEs of one RQ.
 */
static int mlx5e_open_rq_striding(struct mlx5e_channel *c,
				  const struct mlx5e_params *params,
				  struct mlx5e_rq *rq)
{
	u16 wqes = mlx5_wq_cyc_size(&rq->wq);
	int node = cpu_to_node(c->cpu);
	int err;

	rq->icosq = rq->xsk_pool ? &c->xskicosq : &c->icosq;
	rq->mpw_pages = NULL;
	if (!rq->xsk_pool)
		rq->mpw_pages = kvcalloc_node(wqes * MLX5E_MPWQE_PAGES,
					      sizeof(*rq->mpw_pages),
					      GFP_KERNEL, node);
	rq->mpw_consumed = kvcalloc_node(wqes, sizeof(*rq->mpw_consumed),
					 GFP_KERNEL, node);
	if ((!rq->xsk_pool && !rq->mpw_pages) || !rq->mpw_consumed) {
		err = -ENOMEM;
		goto err_free;
	}
	err = mlx5e_open_icosq(c, rq->icosq, params, wqes);
	if (err)
		goto err_free;
	err = mlx5e_create_umr_mkey(c, wqes * MLX5E_MPWQE_PAGES, &rq->umr_mkey);
	if (err)
		goto err_icosq;
	rq->umr_mkey_be = cpu_to_be32(rq->umr_mkey);
	/* Refill once two WQEs are free, as upstream (its UMR bulk): two
	 * UMRs of MLX5E_MPWQE_PAGES pages amortise a doorbell and a
	 * completion, and the device keeps all but two of the ring's WQEs.
	 */
	rq->mpw_batch = min_t(u16, 2, wqes / 2);
	return 0;

err_icosq:
	mlx5e_close_icosq(c, rq->icosq);
err_free:
	kvfree(rq->mpw_consumed);
	kvfree(rq->mpw_pages);
	return err;
}

static void mlx5e_close_rq_striding(struct mlx5e_channel *c,
				    struct mlx5e_rq *rq)
{
	/* No UMR runs on the mkey once its SQ is gone. */
	mlx5e_close_icosq(c, rq->icosq);
	mlx5e_destroy_umr_mkey(c->mdev, rq->umr_mkey);
	kvfree(rq->mpw_consumed);
	kvfree(rq->mpw_pages);
}

/*
 * An XSK RQ's buffers: one frame of the pool per WQE, the device writing
 * at the frame's data (the pool's headroom before it, in the address);
 * striding: one frame per stride, the WQE's address carrying the
 * headroom.
 */
static void mlx5e_xsk_rq_layout(struct xsk_buff_pool *pool, bool striding,
				struct mlx5e_rx_buf_layout *l)
{
	u32 frame = xsk_pool_get_rx_frame_size(pool);

	*l = (struct mlx5e_rx_buf_layout) {
		.type = striding ? MLX5E_RQ_TYPE_STRIDING :
				   MLX5E_RQ_TYPE_LEGACY,
		.headroom = striding ? xsk_pool_get_headroom(pool) : 0,
		.stride = xsk_pool_get_chunk_size(pool),
		.frag_size = frame,
		.first_frag_size = frame,
		.num_frags = 1,
		.linear = true,
	};
}

/*
 * RX CQ, ring, page pool, RQ object (in RST): the channel's RQ, or its
 * XSK RQ (@pool: an RQ on the pool's frames, @params those of
 * mlx5e_xsk_params(), which say which type).
 */
static int mlx5e_open_rq(struct mlx5e_channel *c,
			 const struct mlx5e_params *params,
			 struct mlx5e_rq *rq, struct xsk_buff_pool *pool)
{
	struct mlx5e_rx_buf_layout l;
	u8 log_wqes, log_stride;
	int err;

	rq->xsk_pool = pool;
	rq->striding = mlx5e_rq_is_striding(params);
	if (pool)
		mlx5e_xsk_rq_layout(pool, rq->striding, &l);
	else
		mlx5e_rq_layout_any(params, &l);
	if (rq->striding) {
		log_wqes = mlx5e_mpwqe_log_wqes(params, &l);
		log_stride = ilog2(sizeof(struct mlx5e_rx_wqe_ll));
		rq->log_strides = mlx5e_mpwqe_log_strides(&l);
		rq->log_stride_sz = ilog2(l.stride);
	} else {
		log_wqes = params->log_rq_size;
		log_stride = mlx5e_rq_log_wqe_stride(&l);
	}
	/* A CQE per frame: as many as the ring has buffers (strides). */
	err = mlx5e_create_cq(c, &rq->cq, params, true,
			      rq->striding ? log_wqes + rq->log_strides :
					     params->log_rq_size);
	if (err)
		return err;
	memset(&rq->cqd, 0, sizeof(rq->cqd));
	err = mlx5_wq_cyc_create(c->mdev->device, log_wqes, log_stride,
				 MLX5_WQ_DBR_RCV, &rq->wq);
	if (err)
		goto err_cq;

	rq->ix = c->ix;
	rq->ch = c;
	rq->netdev = c->netdev;
	rq->pdev = c->mdev->device;
	rq->hwtstamp = &c->priv->hwtstamp;
	rq->napi = &c->napi;
	rq->stats = pool ? &c->priv->channel_stats[c->ix].xskrq :
			   &c->priv->channel_stats[c->ix].rq;
	rq->mkey_be = cpu_to_be32(c->priv->res.mkey);
	rq->frag_size = l.frag_size;
	rq->first_frag_size = l.first_frag_size;
	rq->wqe_bytes = l.first_frag_size + (l.num_frags - 1) * l.frag_size;
	rq->xdp_head_sz = l.xdp_head_sz;
	rq->frag_stride = l.stride;
	rq->num_frags = l.num_frags;
	rq->linear = l.linear;
	rq->headroom = l.headroom;
	rq->cc = 0;
	rq->pc = 0;
	rq->umr_pc = 0;
	rq->state = 0;
	INIT_WORK(&rq->recover_work, mlx5e_rx_err_cqe_work);
	if (pool) {
		rq->xsk_bufs = kvcalloc_node(mlx5_wq_cyc_size(&rq->wq) <<
					     (rq->striding ? MLX5E_MPWQE_LOG_PAGES : 0),
					     sizeof(*rq->xsk_bufs), GFP_KERNEL,
					     cpu_to_node(c->cpu));
		if (!rq->xsk_bufs) {
			err = -ENOMEM;
			goto err_wq;
		}
	}
	if (rq->striding) {
		err = mlx5e_open_rq_striding(c, params, rq);
		if (err)
			goto err_bufs;
	} else if (!pool) {
		rq->frags = kvcalloc_node(mlx5_wq_cyc_size(&rq->wq) *
					  rq->num_frags, sizeof(*rq->frags),
					  GFP_KERNEL, cpu_to_node(c->cpu));
		if (!rq->frags) {
			err = -ENOMEM;
			goto err_wq;
		}
	}
	if (!pool) {
		err = mlx5e_create_page_pool(c, rq, params);
		if (err)
			goto err_frags;
	}
	err = xdp_rxq_info_reg(&rq->xdp_rxq, c->netdev, c->ix, c->napi.napi_id);
	if (err)
		goto err_pool;
	if (pool)
		err = xdp_rxq_info_reg_mem_model(&rq->xdp_rxq,
						 MEM_TYPE_XSK_BUFF_POOL, NULL);
	else
		err = xdp_rxq_info_reg_mem_model(&rq->xdp_rxq,
						 MEM_TYPE_PAGE_POOL,
						 rq->page_pool);
	if (err)
		goto err_rxq;
	/* The fixed part of a linear buffer's xdp_buff (mlx5e_xdp_rx()). */
	rq->mxbuf = (struct mlx5e_xdp_buff){ .rq = rq };
	xdp_init_buff(&rq->mxbuf.xdp, rq->frag_stride, &rq->xdp_rxq);
	RCU_INIT_POINTER(rq->xdp_prog, params->xdp_prog);
	/* XDP_TX's SQ, NAPI's alone: there with a program. */
	rq->xdpsq = c->rq_xdpsq;
	rq->xdp_flush = false;
	if (rq->striding)
		mlx5e_init_mpwqes(rq);
	else
		mlx5e_init_rx_wqes(rq);

	err = mlx5e_create_rq_obj(c, rq, params);
	if (err)
		goto err_rxq;
	return 0;

err_rxq:
	xdp_rxq_info_unreg(&rq->xdp_rxq);
err_pool:
	if (!pool)
		page_pool_destroy(rq->page_pool);
err_frags:
	if (rq->striding)
		mlx5e_close_rq_striding(c, rq);
	else
		kvfree(rq->frags);
err_bufs:
	kvfree(rq->xsk_bufs);
err_wq:
	mlx5_wq_cyc_destroy(c->mdev->device, &rq->wq);
err_cq:
	mlx5e_destroy_cq(c->mdev, &rq->cq);
	return err;
}

static void mlx5e_close_rq(struct mlx5e_channel *c, struct mlx5e_rq *rq)
{
	mlx5e_health_unfail(&rq->state, MLX5E_RQ_STATE_RECOVER_FAILED,
			    &c->priv->rx_failed);
	mlx5e_destroy_rq_obj(c->mdev, rq->rqn);
	mlx5e_free_rx_descs(rq);
	xdp_rxq_info_unreg(&rq->xdp_rxq);
	if (rq->xsk_pool)
		kvfree(rq->xsk_bufs);
	else
		page_pool_destroy(rq->page_pool);
	if (rq->striding)
		mlx5e_close_rq_striding(c, rq);
	else
		kvfree(rq->frags);
	mlx5_wq_cyc_destroy(c->mdev->device, &rq->wq);
	mlx5e_destroy_cq(c->mdev, &rq->cq);
}

/* ---- the XSK queues of a channel (AF_XDP zero copy) ------------------ */

/* Descriptors of the socket's TX ring one NAPI poll sends at most. */
#define MLX5E_XSK_TX_BUDGET	256

/*
 * What the XSK RQ is built from: a striding RQ of a frame per stride
 * where the regular RQ is striding and the pool's frames can be strides
 * (mlx5e_xsk_striding()), else a legacy RQ (a frame per WQE); no LRO, no
 * CQE compression (one CQE per frame, read as the frame is handed over).
 */
static void mlx5e_xsk_params(const struct mlx5e_params *params,
			     struct xsk_buff_pool *pool,
			     struct mlx5e_params *xp)
{
	*xp = *params;
	if (!mlx5e_xsk_striding(params, pool))
		xp->pflags &= ~BIT(MLX5E_PFLAG_RX_STRIDING_RQ);
	xp->pflags &= ~BIT(MLX5E_PFLAG_RX_CQE_COMPRESS);
	xp->features &= ~NETIF_F_LRO;
}

/* The XSK SQ and RQ beside the channel's queues, all in RST but the SQ. */
static int mlx5e_open_xsk(struct mlx5e_channel *c,
			  const struct mlx5e_params *params,
			  struct xsk_buff_pool *pool)
{
	struct mlx5e_params xp;
	int err;

	mlx5e_xsk_params(params, pool, &xp);
	c->xsksq = mlx5e_open_xdpsq(c, &xp, MLX5E_XDPSQ_XSK, pool, &err);
	if (!c->xsksq)
		return err;
	c->xskrq = kvzalloc_node(sizeof(*c->xskrq), GFP_KERNEL,
				 cpu_to_node(c->cpu));
	if (!c->xskrq) {
		err = -ENOMEM;
		goto err_sq;
	}
	err = mlx5e_open_rq(c, &xp, c->xskrq, pool);
	if (err)
		goto err_free;
	return 0;

err_free:
	kvfree(c->xskrq);
	c->xskrq = NULL;
err_sq:
	mlx5e_close_xdpsq(c->xsksq);
	c->xsksq = NULL;
	return err;
}

static void mlx5e_close_xsk(struct mlx5e_channel *c)
{
	mlx5e_close_rq(c, c->xskrq);
	kvfree(c->xskrq);
	c->xskrq = NULL;
	mlx5e_close_xdpsq(c->xsksq);
	c->xsksq = NULL;
}

/*
 * NAPI's part of the XSK queues: the RX ring refilled from the socket's
 * fill ring, then its TX ring sent (in this order: a frame the port
 * loops back at once finds the buffers the fill ring had), and
 * need_wakeup told the socket as upstream does: set before looking (an
 * empty RQ brings no frame, an empty SQ no completion, to bring NAPI
 * back), cleared once there is work in flight. Without need_wakeup NAPI
 * polls on while the fill ring is dry. The striding XSK RQ's refill is
 * the device's only once its UMRs complete: while they are in flight and
 * the RQ has fewer free strides than a TX budget, the TX ring waits for
 * the UMRs' completion, which brings NAPI back.
 */
static bool mlx5e_xsk_napi_post(struct mlx5e_channel *c)
{
	struct mlx5e_xdpsq *sq = c->xsksq;
	struct mlx5e_rq *rq = c->xskrq;
	bool wakeup = xsk_uses_need_wakeup(rq->xsk_pool);
	bool busy = false, short_of;

	if (wakeup && rq->pc == rq->cc)
		xsk_set_rx_need_wakeup(rq->xsk_pool);
	short_of = mlx5e_xsk_post_rx_wqes(rq);
	if (!wakeup)
		busy = short_of;
	else if (short_of)
		xsk_set_rx_need_wakeup(rq->xsk_pool);
	else
		xsk_clear_rx_need_wakeup(rq->xsk_pool);
	if (mlx5e_xsk_rx_short(rq, MLX5E_XSK_TX_BUDGET))
		return busy;

	if (wakeup && sq->pc == READ_ONCE(sq->cc))
		xsk_set_tx_need_wakeup(sq->xsk_pool);
	busy |= mlx5e_xsk_tx(sq, MLX5E_XSK_TX_BUDGET);
	if (wakeup && sq->pc != READ_ONCE(sq->cc))
		xsk_clear_tx_need_wakeup(sq->xsk_pool);
	return busy;
}

/* ---- channels -------------------------------------------------------- */

static int mlx5e_napi_poll(struct napi_struct *napi, int budget)
{
	struct mlx5e_channel *c = container_of(napi, struct mlx5e_channel,
					       napi);
	bool xsk = test_bit(MLX5E_CHANNEL_STATE_XSK, &c->state);
	u32 events = READ_ONCE(c->irq_events);
	bool busy;
	int work;

	u64_stats_update_begin(&c->stats->syncp);
	u64_stats_inc(&c->stats->poll);
	u64_stats_add(&c->stats->events, events - c->irq_events_seen);
	u64_stats_update_end(&c->stats->syncp);
	c->irq_events_seen = events;

	busy = mlx5e_poll_tx_cq(&c->sq, budget);
	/*
	 * netpoll's budget of 0, maybe in hard IRQ context: the SKBs' SQ
	 * only, as upstream; no RX, no XDP SQ (its lock may be held by the
	 * interrupted ndo_xdp_xmit), and NAPI not completed.
	 */
	if (unlikely(!budget))
		return 0;
	busy |= mlx5e_poll_xdpsq_cq(c->xdpsq);
	if (c->rq_xdpsq)
		busy |= mlx5e_poll_xdpsq_cq(c->rq_xdpsq);
	if (xsk)
		busy |= mlx5e_poll_xdpsq_cq(c->xsksq);
	/* UMRs completed: their WQEs go to the device before RX polls. */
	if (c->rq.striding)
		busy |= mlx5e_poll_icosq_cq(&c->icosq, &c->rq);
	if (xsk && c->xskrq->striding)
		busy |= mlx5e_poll_icosq_cq(&c->xskicosq, c->xskrq);
	work = xsk ? mlx5e_poll_rx_cq(c->xskrq, budget) : 0;
	if (work < budget)
		work += mlx5e_poll_rx_cq(&c->rq, budget - work);
	busy |= work == budget;
	busy |= mlx5e_post_rx_wqes(&c->rq);
	if (xsk)
		busy |= mlx5e_xsk_napi_post(c);
	if (busy)
		return budget;

	if (!napi_complete_done(napi, work))
		return work;

	if (c->rx_dim_on || c->tx_dim_on)
		mlx5e_dim_sample(c);
	/*
	 * Not an SQ out of service: its CQEs stay unpolled, and an armed CQ
	 * with CQEs in it would raise an event at once, again and again.
	 */
	if (test_bit(MLX5E_SQ_STATE_ENABLED, &c->sq.state))
		mlx5e_cq_arm(&c->sq.cq);
	mlx5e_cq_arm(&c->xdpsq->cq);
	/*
	 * Not the XDP_TX SQ's CQ, as upstream: only RX posts on it, so the
	 * next RX poll reaps its completions, with no interrupt of their
	 * own. An RQ short of buffers keeps NAPI polling (busy above).
	 */
	if (xsk) {
		mlx5e_cq_arm(&c->xsksq->cq);
		if (!test_bit(MLX5E_RQ_STATE_RECOVERING, &c->xskrq->state))
			mlx5e_cq_arm(&c->xskrq->cq);
	}
	if (c->rq.striding)
		mlx5e_cq_arm(&c->icosq.cq);
	if (xsk && c->xskrq->striding)
		mlx5e_cq_arm(&c->xskicosq.cq);
	/* Nor an RQ out of service: its CQ waits for recovery or a reopen. */
	if (!test_bit(MLX5E_RQ_STATE_RECOVERING, &c->rq.state))
		mlx5e_cq_arm(&c->rq.cq);
	mlx5e_stats_add(&c->stats->syncp, &c->stats->arm, 1);
	return work;
}

static int mlx5e_open_channel(struct mlx5e_priv *priv, u16 ix,
			      const struct mlx5e_params *params,
			      struct mlx5e_channel **cp)
{
	struct mlx5_core_dev *mdev = priv->mdev;
	u16 vector = ix % mlx5_comp_vectors(mdev);
	int cpu = mlx5_comp_vector_cpu(mdev, vector);
	struct mlx5e_channel *c;
	int err;

	c = kvzalloc_node(sizeof(*c), GFP_KERNEL, cpu_to_node(cpu));
	if (!c)
		return -ENOMEM;
	c->priv = priv;
	c->mdev = mdev;
	c->netdev = priv->netdev;
	c->ix = ix;
	c->vector = vector;
	c->cpu = cpu;
	c->stats = &priv->channel_stats[ix].ch;
	mlx5_doorbell_get(mdev, ix, &c->db);
	netif_napi_add(priv->netdev, &c->napi, mlx5e_napi_poll);
	netif_napi_set_irq(&c->napi, mlx5_comp_irqn_get(mdev, vector));
	mlx5e_dim_init(c, params);

	err = mlx5e_open_txqsq(c, params);
	if (err)
		goto err_napi;
	c->xdpsq = mlx5e_open_xdpsq(c, params, MLX5E_XDPSQ_XMIT, NULL, &err);
	if (!c->xdpsq)
		goto err_sq;
	if (params->xdp_prog) {
		c->rq_xdpsq = mlx5e_open_xdpsq(c, params, MLX5E_XDPSQ_TX, NULL,
					       &err);
		if (!c->rq_xdpsq)
			goto err_xdpsq;
	}
	err = mlx5e_open_rq(c, params, &c->rq, NULL);
	if (err)
		goto err_rq_xdpsq;
	/* AF_XDP zero copy on this index: only with a program to run. */
	if (priv->xsk_pools[ix] && params->xdp_prog) {
		err = mlx5e_open_xsk(c, params, priv->xsk_pools[ix]);
		if (err)
			goto err_rq;
	}
	*cp = c;
	return 0;

err_rq:
	mlx5e_close_rq(c, &c->rq);
err_rq_xdpsq:
	if (c->rq_xdpsq)
		mlx5e_close_xdpsq(c->rq_xdpsq);
err_xdpsq:
	mlx5e_close_xdpsq(c->xdpsq);
err_sq:
	mlx5e_close_txqsq(c);
err_napi:
	netif_napi_del(&c->napi);
	kvfree(c);
	return err;
}

static void mlx5e_close_channel(struct mlx5e_channel *c)
{
	if (c->xskrq)
		mlx5e_close_xsk(c);
	mlx5e_close_rq(c, &c->rq);
	if (c->rq_xdpsq)
		mlx5e_close_xdpsq(c->rq_xdpsq);
	mlx5e_close_xdpsq(c->xdpsq);
	mlx5e_close_txqsq(c);
	netif_napi_del(&c->napi);
	kvfree(c);
}

/* Queues to RDY, RX buffers posted, NAPI on, CQs armed. */
static int mlx5e_activate_channel(struct mlx5e_channel *c)
{
	int err;

	err = mlx5e_modify_sq_state(c->mdev, c->sq.sqn, MLX5_SQC_STATE_RST,
				    MLX5_SQC_STATE_RDY);
	if (err)
		return err;
	err = mlx5e_modify_rq_state(c->mdev, c->rq.rqn, MLX5_RQC_STATE_RST,
				    MLX5_RQC_STATE_RDY);
	if (err)
		goto err_sq;
	if (c->xskrq) {
		err = mlx5e_modify_rq_state(c->mdev, c->xskrq->rqn,
					    MLX5_RQC_STATE_RST,
					    MLX5_RQC_STATE_RDY);
		if (err)
			goto err_rq;
		mlx5e_activate_xdpsq(c->xsksq);
	}
	set_bit(MLX5E_SQ_STATE_ENABLED, &c->sq.state);
	mlx5e_activate_xdpsq(c->xdpsq);
	if (c->rq_xdpsq)
		mlx5e_activate_xdpsq(c->rq_xdpsq);
	napi_enable(&c->napi);
	netif_queue_set_napi(c->netdev, c->ix, NETDEV_QUEUE_TYPE_TX, &c->napi);
	netif_queue_set_napi(c->netdev, c->ix, NETDEV_QUEUE_TYPE_RX, &c->napi);
	/* The first fill and the first arm run in NAPI. */
	napi_schedule(&c->napi);
	return 0;

err_rq:
	mlx5e_modify_rq_state(c->mdev, c->rq.rqn, MLX5_RQC_STATE_RDY,
			      MLX5_RQC_STATE_ERR);
err_sq:
	mlx5e_modify_sq_state(c->mdev, c->sq.sqn, MLX5_SQC_STATE_RDY,
			      MLX5_SQC_STATE_RST);
	return err;
}

/*
 * The SQ out of service already (mlx5e_deactivate_priv()), unless no xmit
 * ever reached it (a set that failed to come up).
 */
static void mlx5e_deactivate_channel(struct mlx5e_channel *c)
{
	clear_bit(MLX5E_SQ_STATE_ENABLED, &c->sq.state);
	/* Recovery needs NAPI: it is over before NAPI goes. */
	cancel_work_sync(&c->sq.recover_work);
	cancel_work_sync(&c->rq.recover_work);
	mlx5e_deactivate_xdpsq(c->xdpsq);
	if (c->rq_xdpsq)
		mlx5e_deactivate_xdpsq(c->rq_xdpsq);
	if (c->xsksq)
		mlx5e_deactivate_xdpsq(c->xsksq);
	/* Unless a new channel of the same index took the queues over. */
	if (__netif_get_rx_queue(c->netdev, c->ix)->napi == &c->napi)
		netif_queue_set_napi(c->netdev, c->ix, NETDEV_QUEUE_TYPE_RX, NULL);
	if (netdev_get_tx_queue(c->netdev, c->ix)->napi == &c->napi)
		netif_queue_set_napi(c->netdev, c->ix, NETDEV_QUEUE_TYPE_TX, NULL);
	napi_disable(&c->napi);
	/* NAPI scheduled the DIM works: none runs once it is off. */
	cancel_work_sync(&c->rx_dim.work);
	cancel_work_sync(&c->tx_dim.work);
	mlx5e_modify_rq_state(c->mdev, c->rq.rqn, MLX5_RQC_STATE_RDY,
			      MLX5_RQC_STATE_ERR);
	if (c->xskrq)
		mlx5e_modify_rq_state(c->mdev, c->xskrq->rqn,
				      MLX5_RQC_STATE_RDY, MLX5_RQC_STATE_ERR);
	mlx5e_modify_sq_state(c->mdev, c->sq.sqn, MLX5_SQC_STATE_RDY,
			      MLX5_SQC_STATE_ERR);
}

static int mlx5e_open_channels(struct mlx5e_priv *priv,
			       struct mlx5e_channels *chs)
{
	unsigned int i;
	int err;

	chs->c = kcalloc(chs->params.num_channels, sizeof(*chs->c),
			 GFP_KERNEL);
	if (!chs->c)
		return -ENOMEM;
	for (i = 0; i < chs->params.num_channels; i++) {
		err = mlx5e_open_channel(priv, i, &chs->params, &chs->c[i]);
		if (err)
			goto err_close;
	}
	chs->num = chs->params.num_channels;
	return 0;

err_close:
	while (i--)
		mlx5e_close_channel(chs->c[i]);
	kfree(chs->c);
	chs->c = NULL;
	return err;
}

static void mlx5e_close_channels(struct mlx5e_channels *chs)
{
	unsigned int i;

	for (i = 0; i < chs->num; i++)
		mlx5e_close_channel(chs->c[i]);
	kfree(chs->c);
	chs->c = NULL;
	chs->num = 0;
}

/**
 * mlx5e_start_xsk() - NAPI takes up the XSK queues of @chs
 * @chs: channels activated, the channels they replace closed
 *
 * An XSK pool has one consumer: its fill and TX rings are read, its
 * completion ring written and its free list used by one NAPI at a time.
 * While a set of channels replaces another, both sets' NAPI run; the new
 * set's XSK queues stay idle (the RQTs may name the XSK RQ already: it
 * has no buffers, so the port drops those frames) until the old set's
 * XSK queues have returned their frames and completions to the pool.
 * Then the pool's frames are told their RXQ, and NAPI starts.
 */
static void mlx5e_start_xsk(struct mlx5e_channels *chs)
{
	unsigned int i;

	for (i = 0; i < chs->num; i++) {
		struct mlx5e_channel *c = chs->c[i];

		if (!c->xskrq)
			continue;
		xsk_pool_set_rxq_info(c->xskrq->xsk_pool, &c->xskrq->xdp_rxq);
		/* The frames' RXQ before NAPI sees the queues. */
		smp_mb__before_atomic();
		set_bit(MLX5E_CHANNEL_STATE_XSK, &c->state);
		mlx5e_channel_kick(c);
	}
}

/* ndo_start_xmit finds each TX queue's SQ here. */
static void mlx5e_publish_sqs(struct mlx5e_priv *priv,
			      struct mlx5e_channels *chs)
{
	unsigned int i;

	for (i = 0; i < chs->num; i++)
		WRITE_ONCE(priv->txq2sq[i], &chs->c[i]->sq);
}

static int mlx5e_activate_channels(struct mlx5e_priv *priv,
				   struct mlx5e_channels *chs)
{
	unsigned int i;
	int err;

	for (i = 0; i < chs->num; i++) {
		err = mlx5e_activate_channel(chs->c[i]);
		if (err)
			goto err_deactivate;
	}
	mlx5e_publish_sqs(priv, chs);
	return 0;

err_deactivate:
	while (i--)
		mlx5e_deactivate_channel(chs->c[i]);
	return err;
}

/**
 * mlx5e_deactivate_channels() - stop the queues of @chs
 * @priv: the netdev's private area
 * @chs: the channels
 * @unpublish: ndo_start_xmit may still find them: take them away first
 *	(false when a new set has replaced them already)
 *
 * The TX queues are disabled (mlx5e_deactivate_priv()): no xmit runs.
 */
static void mlx5e_deactivate_channels(struct mlx5e_priv *priv,
				      struct mlx5e_channels *chs,
				      bool unpublish)
{
	unsigned int i;

	if (unpublish)
		for (i = 0; i < chs->num; i++)
			WRITE_ONCE(priv->txq2sq[i], NULL);
	for (i = 0; i < chs->num; i++)
		mlx5e_deactivate_channel(chs->c[i]);
}

/* ---- the netdev's queues as a whole ---------------------------------- */

static void mlx5e_stats_grow(struct mlx5e_priv *priv, u16 nch)
{
	priv->stats_nch = max(priv->stats_nch, nch);
}

/*
 * XPS: TX queue i for the CPUs whose completion vectors channel i takes
 * (vectors i, i + nch, ...; its own vector's CPU when there are more
 * channels than vectors), so that xmit runs where the queue's NAPI does.
 * Set when the channel count changes, as upstream does: a map the user
 * wrote stays across down and up.
 */
static void mlx5e_set_default_xps(struct mlx5e_priv *priv, u16 nch)
{
	struct mlx5_core_dev *mdev = priv->mdev;
	int nvec = mlx5_comp_vectors(mdev);
	cpumask_var_t mask;
	int ix, v, cpu, err;

	if (nch == priv->xps_nch || !nvec)
		return;
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return;
	for (ix = 0; ix < nch; ix++) {
		cpumask_clear(mask);
		/* Its own vector, then those left over by the channels. */
		for (v = ix % nvec; v < nvec; v = v < ix + nch ? ix + nch : v + nch) {
			cpu = mlx5_comp_vector_cpu(mdev, v);
			if (cpu >= 0)
				cpumask_set_cpu(cpu, mask);
		}
		err = netif_set_xps_queue(priv->netdev, mask, ix);
		if (err) {
			netdev_warn(priv->netdev,
				    "default XPS map of TX queue %d: %d\n",
				    ix, err);
			break;
		}
	}
	free_cpumask_var(mask);
	if (ix == nch)
		priv->xps_nch = nch;
}

static int mlx5e_set_real_queues(struct mlx5e_priv *priv, u16 nch)
{
	int err;

	err = netif_set_real_num_tx_queues(priv->netdev, nch);
	if (err)
		return err;
	err = netif_set_real_num_rx_queues(priv->netdev, nch);
	if (err)
		return err;
	mlx5e_set_default_xps(priv, nch);
	return 0;
}

/* Traffic flows into the channels and out of them. */
static void mlx5e_activate_priv(struct mlx5e_priv *priv)
{
	clear_bit(MLX5E_STATE_TX_DISABLED, &priv->state);
	/* The clear before the wake: pairs with mlx5e_xmit_no_sq()'s. */
	smp_mb__after_atomic();
	netif_tx_wake_all_queues(priv->netdev);
	mlx5e_xdp_xmit_enable(priv);
}

/**
 * mlx5e_deactivate_priv() - no traffic into the channels any more
 * @priv: the netdev's private area
 * @chs: the channels whose SQs the TX queues use
 *
 * Upstream's order: the SQs leave service (ENABLED cleared); every xmit
 * and NAPI poll that saw one in service is over (both run in RCU
 * read-side sections: with BH off), so that no completion of theirs
 * wakes a TX queue any more, nor does a recovery (waited for); only then
 * are the TX queues stopped, for good until mlx5e_activate_priv(). A
 * queue stopped first would be woken by the next completion, and xmit
 * would run on it during a switch. Then what a broken burst left unrung
 * goes out, and the bytes in flight leave BQL: the TX queues are the next
 * SQs', whose NAPI completes on them while these are torn down.
 */
static void mlx5e_deactivate_priv(struct mlx5e_priv *priv,
				  struct mlx5e_channels *chs)
{
	unsigned int i;

	for (i = 0; i < chs->num; i++)
		clear_bit(MLX5E_SQ_STATE_ENABLED, &chs->c[i]->sq.state);
	mlx5e_xdp_xmit_disable(priv);
	synchronize_net();
	for (i = 0; i < chs->num; i++)
		cancel_work_sync(&chs->c[i]->sq.recover_work);
	netif_tx_disable(priv->netdev);
	/* No xmit runs now, and none may until mlx5e_activate_priv(). */
	set_bit(MLX5E_STATE_TX_DISABLED, &priv->state);
	for (i = 0; i < chs->num; i++) {
		mlx5e_tx_flush_pending(&chs->c[i]->sq);
		mlx5e_tx_bql_detach(&chs->c[i]->sq);
	}
}

/*
 * A switch failed: the SQs mlx5e_deactivate_priv() took out of service
 * (still ready in the device, their NAPI running) go back to it. Their
 * NAPI polls what completed meanwhile (with no bytes for BQL) and arms
 * their CQs again; a recovery the switch held back is queued again.
 */
static void mlx5e_reactivate_tx(struct mlx5e_priv *priv,
				struct mlx5e_channels *chs)
{
	unsigned int i;

	for (i = 0; i < chs->num; i++) {
		struct mlx5e_txqsq *sq = &chs->c[i]->sq;

		set_bit(MLX5E_SQ_STATE_ENABLED, &sq->state);
		if (test_bit(MLX5E_SQ_STATE_RECOVERING, &sq->state) &&
		    !test_bit(MLX5E_SQ_STATE_RECOVER_FAILED, &sq->state))
			queue_work(priv->wq, &sq->recover_work);
		mlx5e_channel_kick(chs->c[i]);
	}
}

/**
 * mlx5e_open_locked() - bring the queues and the port up
 * @netdev: the netdev
 *
 * Return: 0 or a negative errno, with nothing left open.
 */
int mlx5e_open_locked(struct net_device *netdev)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	struct mlx5e_channels *chs = &priv->channels;
	int err;

	chs->params = priv->params;
	err = mlx5e_set_real_queues(priv, chs->params.num_channels);
	if (err)
		return err;
	err = mlx5e_port_set_mtu(priv->mdev, MLX5E_SW2HW_MTU(chs->params.sw_mtu));
	if (err)
		return err;
	err = mlx5e_open_channels(priv, chs);
	if (err)
		return err;
	mlx5e_stats_grow(priv, chs->num);
	err = mlx5e_rss_create(priv, chs);
	if (err)
		goto err_channels;
	err = mlx5e_fs_create(priv);
	if (err)
		goto err_rss;
	err = mlx5e_activate_channels(priv, chs);
	if (err)
		goto err_fs;
	mlx5e_start_xsk(chs);
	set_bit(MLX5E_STATE_OPENED, &priv->state);
	mlx5e_activate_priv(priv);
	err = mlx5e_port_set_admin(priv->mdev, true);
	if (err)
		netdev_warn(netdev, "setting the port up failed: %d\n", err);
	queue_work(priv->wq, &priv->carrier_work);
	queue_work(priv->wq, &priv->rx_mode_work);
	return 0;

err_fs:
	mlx5e_fs_destroy(priv);
err_rss:
	mlx5e_rss_destroy(priv);
err_channels:
	mlx5e_close_channels(chs);
	return err;
}

/**
 * mlx5e_close_locked() - bring the queues down (the port too)
 * @netdev: the netdev
 *
 * Return: 0.
 */
int mlx5e_close_locked(struct net_device *netdev)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	if (!test_and_clear_bit(MLX5E_STATE_OPENED, &priv->state))
		return 0;
	mlx5e_port_set_admin(priv->mdev, false);
	netif_carrier_off(netdev);
	mlx5e_deactivate_priv(priv, &priv->channels);
	mlx5e_deactivate_channels(priv, &priv->channels, true);
	mlx5e_fs_destroy(priv);
	mlx5e_rss_destroy(priv);
	mlx5e_close_channels(&priv->channels);
	mlx5e_health_settle(priv);
	return 0;
}

/**
 * mlx5e_safe_switch_params() - apply new parameters to the queues
 * @priv: the netdev's private area
 * @new: the parameters
 * @extack: why it failed
 *
 * When the netdev is up, a new set of channels is built first; only when
 * that succeeded does traffic move to it (the RSS table is repointed) and
 * the old set is closed. On failure the old channels keep running.
 *
 * Return: 0 or a negative errno, the old parameters then still in force.
 */
int mlx5e_safe_switch_params(struct mlx5e_priv *priv,
			     const struct mlx5e_params *new,
			     struct netlink_ext_ack *extack)
{
	struct mlx5e_channels new_chs = {}, old_chs = priv->channels;
	u16 old_mtu = old_chs.params.sw_mtu;
	unsigned int i;
	int err;

	err = mlx5e_params_validate(priv->mdev, new, priv->max_mtu, extack);
	if (!err)
		err = mlx5e_xsk_validate_params(priv, new, extack);
	if (err)
		return err;
	if (!test_bit(MLX5E_STATE_OPENED, &priv->state)) {
		priv->params = *new;
		return 0;
	}

	new_chs.params = *new;
	err = mlx5e_open_channels(priv, &new_chs);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack,
				   "building new channels failed, old ones kept");
		return err;
	}
	mlx5e_stats_grow(priv, new_chs.num);

	/* The new queues run before the old ones stop, and the RQTs move
	 * to them (one command for the RSS RQT, one per direct RQT): few
	 * frames in flight are lost. TX stops for the switch. XSK queues
	 * are the exception: the new ones start once the old ones are gone.
	 */
	mlx5e_deactivate_priv(priv, &old_chs);
	err = mlx5e_set_real_queues(priv, new_chs.num);
	if (!err && new->sw_mtu != old_mtu)
		err = mlx5e_port_set_mtu(priv->mdev, MLX5E_SW2HW_MTU(new->sw_mtu));
	if (!err)
		err = mlx5e_activate_channels(priv, &new_chs);
	if (err)
		goto err_restore;
	err = mlx5e_rss_redirect(priv, &new_chs);
	if (err)
		goto err_deactivate_new;

	priv->channels = new_chs;
	priv->params = *new;
	for (i = new_chs.num; i < old_chs.num; i++)
		WRITE_ONCE(priv->txq2sq[i], NULL);
	mlx5e_deactivate_channels(priv, &old_chs, false);
	mlx5e_close_channels(&old_chs);
	mlx5e_start_xsk(&new_chs);
	mlx5e_health_settle(priv);
	mlx5e_activate_priv(priv);
	return 0;

err_deactivate_new:
	/* The direct RQTs may have moved in part: back to the old RQs. */
	mlx5e_rss_redirect(priv, &old_chs);
	mlx5e_deactivate_channels(priv, &new_chs, true);
err_restore:
	NL_SET_ERR_MSG_MOD(extack, "switching to new channels failed, old ones kept");
	mlx5e_close_channels(&new_chs);
	mlx5e_set_real_queues(priv, old_chs.num);
	mlx5e_port_set_mtu(priv->mdev, MLX5E_SW2HW_MTU(old_mtu));
	mlx5e_publish_sqs(priv, &old_chs);
	mlx5e_reactivate_tx(priv, &old_chs);
	mlx5e_activate_priv(priv);
	return err;
}

/* ---- ndo ------------------------------------------------------------- */

static int mlx5e_open(struct net_device *netdev)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	int err;

	mutex_lock(&priv->state_lock);
	err = mlx5e_open_locked(netdev);
	mutex_unlock(&priv->state_lock);
	return err;
}

static int mlx5e_close(struct net_device *netdev)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	mutex_lock(&priv->state_lock);
	mlx5e_close_locked(netdev);
	mutex_unlock(&priv->state_lock);
	return 0;
}

static int mlx5e_change_mtu(struct net_device *netdev, int new_mtu)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	struct mlx5e_params params;
	int err;

	mutex_lock(&priv->state_lock);
	params = priv->params;
	params.sw_mtu = new_mtu;
	err = mlx5e_safe_switch_params(priv, &params, NULL);
	if (!err)
		WRITE_ONCE(netdev->mtu, new_mtu);
	mutex_unlock(&priv->state_lock);
	return err;
}

static void mlx5e_set_rx_mode(struct net_device *netdev)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	queue_work(priv->wq, &priv->rx_mode_work);
}

static int mlx5e_set_mac(struct net_device *netdev, void *addr)
{
	struct sockaddr *saddr = addr;

	if (!is_valid_ether_addr(saddr->sa_data))
		return -EADDRNOTAVAIL;
	netif_addr_lock_bh(netdev);
	eth_hw_addr_set(netdev, saddr->sa_data);
	netif_addr_unlock_bh(netdev);
	mlx5e_set_rx_mode(netdev);
	return 0;
}

/*
 * LRO is the TIRs' (MODIFY_TIR) and the RQs' layout (scattered with it):
 * the channels are rebuilt only when the layout changes (a linear MTU),
 * as upstream. Turning it on, the RQs change first; off, the TIRs, so
 * that no session lands in linear buffers.
 */
static int mlx5e_set_features_locked(struct mlx5e_priv *priv,
				     netdev_features_t changed,
				     const struct mlx5e_params *params)
{
	bool lro = params->features & NETIF_F_LRO;
	bool tirs = (changed & NETIF_F_LRO) &&
		    test_bit(MLX5E_STATE_OPENED, &priv->state);
	int err;

	/* VLAN stripping is an RQ property: rebuild the RQs. */
	if (!(changed & NETIF_F_HW_VLAN_CTAG_RX) &&
	    mlx5e_rq_is_linear(params) == mlx5e_rq_is_linear(&priv->params)) {
		err = mlx5e_params_validate(priv->mdev, params, priv->max_mtu,
					    NULL);
		if (!err && tirs)
			err = mlx5e_rss_set_lro(priv, lro);
		if (!err)
			priv->params = *params;
		else if (tirs)
			mlx5e_rss_set_lro(priv, !lro);
		return err;
	}
	if (tirs && !lro) {
		err = mlx5e_rss_set_lro(priv, false);
		if (err)
			goto restore_tirs;
	}
	err = mlx5e_safe_switch_params(priv, params, NULL);
	if (err)
		goto restore_tirs;
	if (tirs && lro) {
		err = mlx5e_rss_set_lro(priv, true);
		if (err) {
			/* The scattered RQs do without LRO. */
			mlx5e_rss_set_lro(priv, false);
			priv->params.features &= ~NETIF_F_LRO;
		}
	}
	return err;

restore_tirs:
	if (tirs && !lro)
		mlx5e_rss_set_lro(priv, true);
	return err;
}

/*
 * Phy local loopback (PPLR), then a running link retrained (PAOS down,
 * up) to take it, as for FEC. Detached (reload, recovery), the netdev's
 * feature alone records it: mlx5e_hw_attach() writes it.
 */
static int mlx5e_set_loopback(struct mlx5e_priv *priv, bool on)
{
	struct mlx5_core_dev *mdev = priv->mdev;
	int err;

	if (!test_bit(MLX5E_STATE_HW_READY, &priv->state))
		return 0;
	err = mlx5e_port_set_loopback(mdev, on);
	if (err || !test_bit(MLX5E_STATE_OPENED, &priv->state))
		return err;
	return mlx5e_port_retrain(mdev);
}

static int mlx5e_set_features(struct net_device *netdev,
			      netdev_features_t features)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	netdev_features_t changed = netdev->features ^ features;
	struct mlx5e_params params;
	int err = 0;

	mutex_lock(&priv->state_lock);
	if (changed & (NETIF_F_HW_VLAN_CTAG_RX | NETIF_F_LRO)) {
		params = priv->params;
		params.features = features;
		err = mlx5e_set_features_locked(priv, changed, &params);
		if (err)
			goto out;
	}
	if (changed & NETIF_F_LOOPBACK) {
		err = mlx5e_set_loopback(priv, features & NETIF_F_LOOPBACK);
		if (err) {
			/* The rest took: only loopback is left as it was. */
			netdev->features = features ^ NETIF_F_LOOPBACK;
			netdev_err(netdev, "loopback %s failed: %d\n",
				   features & NETIF_F_LOOPBACK ? "on" : "off",
				   err);
		}
	}
out:
	mutex_unlock(&priv->state_lock);
	return err;
}

/* No LRO on the legacy RQ or with XDP, as upstream: dropped, and said. */
static netdev_features_t mlx5e_fix_features(struct net_device *netdev,
					    netdev_features_t features)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	if (!(features & NETIF_F_LRO))
		return features;
	mutex_lock(&priv->state_lock);
	if (!mlx5e_rq_is_striding(&priv->params)) {
		netdev_warn(netdev, "Disabling LRO: %s\n", MLX5E_LRO_LEGACY_MSG);
		features &= ~NETIF_F_LRO;
	} else if (priv->params.xdp_prog) {
		netdev_warn(netdev, "Disabling LRO: incompatible with XDP\n");
		features &= ~NETIF_F_LRO;
	}
	mutex_unlock(&priv->state_lock);
	return features;
}

/* Stopped for longer than the watchdog allows: what dev_watchdog() asks. */
static bool mlx5e_txq_stalled(struct net_device *netdev,
			      struct netdev_queue *txq)
{
	return netif_xmit_stopped(txq) &&
	       time_after(jiffies, READ_ONCE(txq->trans_start) +
				   netdev->watchdog_timeo);
}

/*
 * The watchdog names one queue; every queue that has stalled by now is
 * recovered, and only those. A stalled SQ whose completions are in its
 * EQ lost an interrupt: polling the EQ rearms it and runs NAPI. One in
 * error recovers through its error CQE (the "tx" reporter), which NAPI
 * then finds.
 */
static void mlx5e_tx_timeout_work(struct work_struct *work)
{
	struct mlx5e_priv *priv = container_of(work, struct mlx5e_priv,
					       tx_timeout_work);
	struct net_device *netdev = priv->netdev;
	unsigned int i;
	int n;

	mutex_lock(&priv->state_lock);
	if (!test_bit(MLX5E_STATE_OPENED, &priv->state))
		goto unlock;
	for (i = 0; i < priv->channels.num; i++) {
		struct mlx5e_channel *c = priv->channels.c[i];
		struct mlx5e_txqsq *sq = &c->sq;

		if (!mlx5e_txq_stalled(netdev, sq->txq))
			continue;
		n = mlx5_comp_eq_recover(c->mdev, c->vector);
		netdev_err(netdev,
			   "TX queue %u stalled: SQ 0x%x cc %u pc %u, %d EQEs recovered on vector %u\n",
			   i, sq->sqn, sq->cc, sq->pc, n, c->vector);
		mlx5e_stats_add(&sq->cq_stats->syncp, &sq->cq_stats->timeout,
				1);
		mlx5e_channel_kick(c);
	}
unlock:
	mutex_unlock(&priv->state_lock);
}

/*
 * An RX CQ the driver cannot read on (a compressed block's title miscounts
 * it): its RQ stopped, and the channels are rebuilt with the parameters in
 * force, new CQs with them; tried again each second while that fails
 * (memory, a command), as long as the netdev is up.
 */
static void mlx5e_reopen_work(struct work_struct *work)
{
	struct mlx5e_priv *priv = container_of(to_delayed_work(work),
					       struct mlx5e_priv, reopen_work);
	struct mlx5e_params params;
	int err;

	rtnl_lock();
	mutex_lock(&priv->state_lock);
	if (test_bit(MLX5E_STATE_OPENED, &priv->state)) {
		params = priv->params;
		err = mlx5e_safe_switch_params(priv, &params, NULL);
		if (!err) {
			netdev_info(priv->netdev, "channels reopened\n");
		} else {
			if (net_ratelimit())
				netdev_err(priv->netdev,
					   "reopening the channels failed (%d): trying again in a second\n",
					   err);
			queue_delayed_work(priv->wq, &priv->reopen_work, HZ);
		}
	}
	mutex_unlock(&priv->state_lock);
	rtnl_unlock();
}

static void mlx5e_tx_timeout(struct net_device *netdev, unsigned int txqueue)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	netdev_warn(netdev, "TX watchdog: queue %u timed out\n", txqueue);
	queue_work(priv->wq, &priv->tx_timeout_work);
}

/* ---- hardware timestamps ---------------------------------------------- */

static int mlx5e_hwtstamp_get(struct net_device *netdev,
			      struct kernel_hwtstamp_config *cfg)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	cfg->tx_type = READ_ONCE(priv->hwtstamp.tx_type);
	cfg->rx_filter = READ_ONCE(priv->hwtstamp.rx_filter);
	return 0;
}

/**
 * mlx5e_rx_cqe_compress_follow_tstamp() - rx_cqe_compress as RX
 *	timestamps allow
 * @priv: the netdev's private area, state_lock held
 * @extack: why the channels could not be switched
 *
 * A decompressed CQE carries its block's first timestamp: with RX
 * timestamps on, compression is off (as upstream without a PTP RQ); off
 * again, it is what was last asked (@priv->rx_cqe_compress_def).
 *
 * Return: 0 or a negative errno from reopening the channels.
 */
int mlx5e_rx_cqe_compress_follow_tstamp(struct mlx5e_priv *priv,
					struct netlink_ext_ack *extack)
{
	const u32 flag = BIT(MLX5E_PFLAG_RX_CQE_COMPRESS);
	bool want = priv->rx_cqe_compress_def &&
		    priv->hwtstamp.rx_filter == HWTSTAMP_FILTER_NONE;
	struct mlx5e_params params = priv->params;

	if (!!(params.pflags & flag) == want)
		return 0;
	params.pflags ^= flag;
	netdev_info(priv->netdev, "rx_cqe_compress %s: RX timestamps %s\n",
		    want ? "on again" : "off", want ? "off" : "on");
	return mlx5e_safe_switch_params(priv, &params, extack);
}

/*
 * Stamps come from the PHC's timer: every received packet's, or none; a
 * transmitted packet's when its socket asks (SKBTX_HW_TSTAMP). Any RX
 * filter but NONE is widened to ALL, and says so.
 */
static int mlx5e_hwtstamp_set(struct net_device *netdev,
			      struct kernel_hwtstamp_config *cfg,
			      struct netlink_ext_ack *extack)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	struct kernel_hwtstamp_config old;
	int err;

	if (mlx5_clock_phc_index(priv->mdev) < 0) {
		NL_SET_ERR_MSG_MOD(extack, "no PTP hardware clock");
		return -EOPNOTSUPP;
	}
	if (cfg->tx_type != HWTSTAMP_TX_OFF && cfg->tx_type != HWTSTAMP_TX_ON) {
		NL_SET_ERR_MSG_MOD(extack, "TX timestamps are on or off");
		return -ERANGE;
	}
	if (cfg->rx_filter != HWTSTAMP_FILTER_NONE)
		cfg->rx_filter = HWTSTAMP_FILTER_ALL;
	mutex_lock(&priv->state_lock);
	old = priv->hwtstamp;
	WRITE_ONCE(priv->hwtstamp.tx_type, cfg->tx_type);
	WRITE_ONCE(priv->hwtstamp.rx_filter, cfg->rx_filter);
	/* Compression follows RX timestamps (its blocks share a stamp). */
	err = mlx5e_rx_cqe_compress_follow_tstamp(priv, extack);
	if (err) {
		WRITE_ONCE(priv->hwtstamp.tx_type, old.tx_type);
		WRITE_ONCE(priv->hwtstamp.rx_filter, old.rx_filter);
	}
	mutex_unlock(&priv->state_lock);
	return err;
}

/*
 * GRE the device parses: an Ethernet frame (gretap), IPv4 or IPv6 inside
 * (not MPLS: no tunnel_stateless_mpls_over_gre).
 */
static bool mlx5e_gre_inner_proto_supported(struct mlx5_core_dev *mdev,
					    struct sk_buff *skb)
{
	if (!mlx5e_tunnel_proto_supported_tx(mdev, IPPROTO_GRE))
		return false;
	switch (skb->inner_protocol) {
	case htons(ETH_P_IP):
	case htons(ETH_P_IPV6):
	case htons(ETH_P_TEB):
		return true;
	default:
		return false;
	}
}

/*
 * An encapsulated SKB keeps its checksum and segmentation offloads only
 * when the device parses its tunnel (VXLAN to a port of the device's
 * table, GRE, IPv4/IPv6 in IP) or is told where its headers are (GENEVE
 * to IANA's 6081, through the software parser). Any other (GENEVE to
 * another port, VXLAN to another port, GRE of MPLS, any tunnel without
 * its capability) is done by the stack, as upstream's
 * mlx5e_tunnel_features_check().
 */
static netdev_features_t mlx5e_tunnel_features_check(struct mlx5e_priv *priv,
						     struct sk_buff *skb,
						     netdev_features_t features)
{
	unsigned int offset = 0;
	int proto;

	switch (vlan_get_protocol(skb)) {
	case htons(ETH_P_IP):
		proto = ip_hdr(skb)->protocol;
		break;
	case htons(ETH_P_IPV6):
		proto = ipv6_find_hdr(skb, &offset, -1, NULL, NULL);
		break;
	default:
		proto = -1;
		break;
	}
	if (proto == IPPROTO_GRE &&
	    mlx5e_gre_inner_proto_supported(priv->mdev, skb))
		return features;
	if ((proto == IPPROTO_IPIP || proto == IPPROTO_IPV6) &&
	    mlx5e_tunnel_proto_supported_tx(priv->mdev, proto))
		return features;
	if (proto == IPPROTO_UDP &&
	    mlx5_vxlan_lookup_port(priv->vxlan, ntohs(udp_hdr(skb)->dest)))
		return vxlan_features_check(skb, features);
	if (proto == IPPROTO_UDP &&
	    udp_hdr(skb)->dest == htons(GENEVE_UDP_PORT) &&
	    mlx5e_geneve_tx_allowed(priv->mdev))
		return features;
	return features & ~(NETIF_F_CSUM_MASK | NETIF_F_GSO_MASK);
}

static netdev_features_t mlx5e_features_check(struct sk_buff *skb,
					      struct net_device *netdev,
					      netdev_features_t features)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	features = vlan_features_check(skb, features);
	if (skb->encapsulation &&
	    (features & (NETIF_F_CSUM_MASK | NETIF_F_GSO_MASK)))
		return mlx5e_tunnel_features_check(priv, skb, features);
	return features;
}

static int mlx5e_vxlan_set_port(struct net_device *netdev, unsigned int table,
				unsigned int entry, struct udp_tunnel_info *ti)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	return mlx5_vxlan_add_port(priv->vxlan, ntohs(ti->port));
}

static int mlx5e_vxlan_unset_port(struct net_device *netdev,
				  unsigned int table, unsigned int entry,
				  struct udp_tunnel_info *ti)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	return mlx5_vxlan_del_port(priv->vxlan, ntohs(ti->port));
}

/* The stack's VXLAN ports into the device's table; IANA's is there. */
static void mlx5e_vxlan_set_netdev_info(struct mlx5e_priv *priv)
{
	if (!mlx5_vxlan_allowed(priv->vxlan))
		return;
	priv->nic_info.set_port = mlx5e_vxlan_set_port;
	priv->nic_info.unset_port = mlx5e_vxlan_unset_port;
	priv->nic_info.flags = UDP_TUNNEL_NIC_INFO_STATIC_IANA_VXLAN;
	priv->nic_info.tables[0].tunnel_types = UDP_TUNNEL_TYPE_VXLAN;
	priv->nic_info.tables[0].n_entries =
		mlx5_vxlan_max_udp_ports(priv->mdev) - 1;
	priv->netdev->udp_tunnel_nic_info = &priv->nic_info;
}

static const struct net_device_ops mlx5e_netdev_ops = {
	.ndo_open		= mlx5e_open,
	.ndo_stop		= mlx5e_close,
	.ndo_start_xmit		= mlx5e_xmit,
	.ndo_features_check	= mlx5e_features_check,
	.ndo_get_stats64	= mlx5e_get_stats64,
	.ndo_set_rx_mode	= mlx5e_set_rx_mode,
	.ndo_set_mac_address	= mlx5e_set_mac,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_change_mtu		= mlx5e_change_mtu,
	.ndo_set_features	= mlx5e_set_features,
	.ndo_fix_features	= mlx5e_fix_features,
	.ndo_tx_timeout		= mlx5e_tx_timeout,
	.ndo_bpf		= mlx5e_xdp_bpf,
	.ndo_xdp_xmit		= mlx5e_xdp_xmit,
	.ndo_xsk_wakeup		= mlx5e_xsk_wakeup,
	.ndo_hwtstamp_get	= mlx5e_hwtstamp_get,
	.ndo_hwtstamp_set	= mlx5e_hwtstamp_set,
};

/* ---- events ---------------------------------------------------------- */

static void mlx5e_carrier_work(struct work_struct *work)
{
	struct mlx5e_priv *priv = container_of(work, struct mlx5e_priv,
					       carrier_work);
	bool up = false;

	if (!test_bit(MLX5E_STATE_OPENED, &priv->state))
		return;
	if (mlx5e_port_oper_up(priv->mdev, &up))
		return;
	if (up)
		netif_carrier_on(priv->netdev);
	else
		netif_carrier_off(priv->netdev);
}

static void mlx5e_rx_mode_work(struct work_struct *work)
{
	struct mlx5e_priv *priv = container_of(work, struct mlx5e_priv,
					       rx_mode_work);

	mutex_lock(&priv->state_lock);
	if (test_bit(MLX5E_STATE_OPENED, &priv->state))
		mlx5e_fs_apply_rx_mode(priv);
	mutex_unlock(&priv->state_lock);
}

static int mlx5e_async_event(struct notifier_block *nb, unsigned long type,
			     void *data)
{
	struct mlx5e_priv *priv = container_of(nb, struct mlx5e_priv,
					       events_nb);

	if (type != MLX5_EVENT_TYPE_PORT_CHANGE)
		return NOTIFY_DONE;
	queue_work(priv->wq, &priv->carrier_work);
	return NOTIFY_OK;
}

/* ---- hardware attach / detach ---------------------------------------- */

/* Everything the netdev needs from the device before it can open. */
static int mlx5e_hw_attach(struct mlx5e_priv *priv)
{
	struct mlx5_core_dev *mdev = priv->mdev;
	u16 hw_mtu;
	int err;

	err = mlx5e_port_max_mtu(mdev, &hw_mtu);
	if (err)
		return err;
	priv->max_mtu = MLX5E_HW2SW_MTU(hw_mtu);
	priv->netdev->max_mtu = priv->max_mtu;
	if (MLX5_CAP_ETH(mdev, wqe_inline_mode) == 1) { /* vport context */
		err = mlx5e_query_min_inline(mdev, &priv->params.tx_min_inline_mode);
		if (err)
			return err;
	}
	err = mlx5e_hw_res_create(mdev, &priv->res);
	if (err)
		return err;
	/* A reset turned the port's loopback off: on again if it was. */
	if (priv->netdev->features & NETIF_F_LOOPBACK) {
		err = mlx5e_port_set_loopback(mdev, true);
		if (err)
			netdev_warn(priv->netdev, "restoring loopback failed: %d\n",
				    err);
	}
	priv->events_nb.notifier_call = mlx5e_async_event;
	mlx5_notifier_register(mdev, &priv->events_nb);
	set_bit(MLX5E_STATE_HW_READY, &priv->state);
	return 0;
}

static void mlx5e_hw_detach(struct mlx5e_priv *priv)
{
	if (!test_and_clear_bit(MLX5E_STATE_HW_READY, &priv->state))
		return;
	mlx5_notifier_unregister(priv->mdev, &priv->events_nb);
	cancel_work_sync(&priv->carrier_work);
	mlx5_vxlan_reset_to_default(priv->vxlan);
	mlx5e_hw_res_destroy(priv->mdev, &priv->res);
}

static void mlx5e_detach(struct mlx5e_priv *priv)
{
	struct net_device *netdev = priv->netdev;

	rtnl_lock();
	mutex_lock(&priv->state_lock);
	if (netif_running(netdev))
		mlx5e_close_locked(netdev);
	netif_device_detach(netdev);
	mlx5e_hw_detach(priv);
	mutex_unlock(&priv->state_lock);
	rtnl_unlock();
}

static int mlx5e_attach(struct mlx5e_priv *priv)
{
	struct net_device *netdev = priv->netdev;
	int err;

	rtnl_lock();
	mutex_lock(&priv->state_lock);
	err = mlx5e_hw_attach(priv);
	if (err)
		goto out;
	if (netif_running(netdev)) {
		err = mlx5e_open_locked(netdev);
		if (err) {
			mlx5e_hw_detach(priv);
			goto out;
		}
	}
	netif_device_attach(netdev);
	/* the device's VXLAN table is back to IANA's port: the others again */
	udp_tunnel_nic_reset_ntf(netdev);
out:
	mutex_unlock(&priv->state_lock);
	rtnl_unlock();
	return err;
}

/* ---- the netdev ------------------------------------------------------ */

/* The tunnels' GSO features, of the tunnels the device parses on send. */
static netdev_features_t mlx5e_tunnel_gso_features(struct mlx5e_priv *priv)
{
	struct mlx5_core_dev *mdev = priv->mdev;
	netdev_features_t tnl = 0;

	if (mlx5_vxlan_allowed(priv->vxlan) || mlx5e_geneve_tx_allowed(mdev))
		tnl |= NETIF_F_GSO_UDP_TUNNEL | NETIF_F_GSO_UDP_TUNNEL_CSUM;
	if (mlx5e_tunnel_proto_supported_tx(mdev, IPPROTO_GRE))
		tnl |= NETIF_F_GSO_GRE | NETIF_F_GSO_GRE_CSUM;
	if (mlx5e_tunnel_proto_supported_tx(mdev, IPPROTO_IPIP))
		tnl |= NETIF_F_GSO_IPXIP4 | NETIF_F_GSO_IPXIP6;
	return tnl;
}

static void mlx5e_build_features(struct mlx5e_priv *priv)
{
	struct mlx5_core_dev *mdev = priv->mdev;
	struct net_device *netdev = priv->netdev;
	netdev_features_t f = NETIF_F_SG | NETIF_F_HIGHDMA | NETIF_F_GRO |
			      NETIF_F_RXHASH;
	netdev_features_t tnl;

	if (MLX5_CAP_ETH(mdev, csum_cap))
		f |= NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM | NETIF_F_RXCSUM;
	/*
	 * UDP segmentation rides on LSO, but the device replicates the UDP
	 * header as given: only equal segments go to it, the stack splitting
	 * a shorter last one off (GSO_PARTIAL), as upstream mlx5e does.
	 */
	if (MLX5_CAP_ETH(mdev, csum_cap) && MLX5_CAP_ETH(mdev, max_lso_cap))
		f |= NETIF_F_TSO | NETIF_F_TSO6 | NETIF_F_GSO_UDP_L4 |
		     NETIF_F_GSO_PARTIAL;
	if (MLX5_CAP_ETH(mdev, vlan_cap))
		f |= NETIF_F_HW_VLAN_CTAG_RX;
	f |= NETIF_F_HW_VLAN_CTAG_TX; /* inserted inline when not in the eseg */

	/* LRO where the device can on our striding RQ: off by default. */
	netdev->hw_features = f | (mlx5e_lro_caps(mdev) ? NETIF_F_LRO : 0);
	/* The port's phy local loopback (ethtool -K loopback): off by default. */
	if (mlx5e_port_loopback_supported(mdev))
		netdev->hw_features |= NETIF_F_LOOPBACK;
	/* ethtool -N rules, always on (no aRFS to switch), as upstream mlx5e
	 * built without aRFS: ntuple-filters on [fixed].
	 */
	netdev->features = f | NETIF_F_NTUPLE;
	netdev->gso_partial_features = NETIF_F_GSO_UDP_L4;
	netdev->vlan_features = f & ~(NETIF_F_HW_VLAN_CTAG_RX |
				      NETIF_F_HW_VLAN_CTAG_TX |
				      NETIF_F_GSO_UDP_L4 | NETIF_F_GSO_PARTIAL);
	netdev->hw_enc_features = 0;
	tnl = mlx5e_tunnel_gso_features(priv);
	/*
	 * VXLAN, GENEVE, GRE, IP-in-IP: the device fills the inner checksums
	 * and segments the inner TCP of VXLAN frames to a port of its table,
	 * of GENEVE frames to 6081 (software parser), of GRE and IP-in-IP,
	 * rewriting the outer IP lengths and ids. The stack's GSO_PARTIAL
	 * gives it equal segments only, with an outer UDP or GRE checksum
	 * good for each (the device computes neither), as upstream mlx5e.
	 */
	if (tnl && MLX5_CAP_ETH(mdev, csum_cap) &&
	    MLX5_CAP_ETH(mdev, max_lso_cap)) {
		netdev->hw_enc_features = NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM |
					  NETIF_F_TSO | NETIF_F_TSO6 |
					  NETIF_F_GSO_PARTIAL | tnl;
		netdev->hw_features |= tnl;
		netdev->features |= tnl;
		netdev->vlan_features |= tnl & (NETIF_F_GSO_UDP_TUNNEL |
						NETIF_F_GSO_UDP_TUNNEL_CSUM);
		netdev->gso_partial_features |= tnl & ~NETIF_F_GSO_UDP_TUNNEL;
		f |= tnl;
	}
	priv->params.features = f;
	netif_set_tso_max_size(netdev, GSO_MAX_SIZE);
}

static int mlx5e_priv_init(struct mlx5e_priv *priv, struct net_device *netdev,
			   struct mlx5_core_dev *mdev)
{
	priv->netdev = netdev;
	priv->mdev = mdev;
	priv->max_nch = mlx5e_max_channels(mdev);
	mutex_init(&priv->state_lock);
	INIT_WORK(&priv->carrier_work, mlx5e_carrier_work);
	INIT_WORK(&priv->rx_mode_work, mlx5e_rx_mode_work);
	INIT_WORK(&priv->tx_timeout_work, mlx5e_tx_timeout_work);
	INIT_DELAYED_WORK(&priv->reopen_work, mlx5e_reopen_work);
	priv->wq = create_singlethread_workqueue("mlx5e");
	if (!priv->wq)
		return -ENOMEM;
	priv->channel_stats = kvcalloc(priv->max_nch,
				       sizeof(*priv->channel_stats), GFP_KERNEL);
	priv->txq2sq = kcalloc(priv->max_nch, sizeof(*priv->txq2sq),
			       GFP_KERNEL);
	if (!priv->channel_stats || !priv->txq2sq) {
		kfree(priv->txq2sq);
		kvfree(priv->channel_stats);
		destroy_workqueue(priv->wq);
		return -ENOMEM;
	}
	mlx5e_stats_init(priv);
	mlx5e_params_init(mdev, &priv->params,
			  min_t(u16, priv->max_nch,
				netif_get_num_default_rss_queues()),
			  ETH_DATA_LEN);
	/*
	 * rx_cqe_compress by default as upstream: where the device has it,
	 * manages its vport group, and PCIe is slower than half the port;
	 * not where the default RQ type cannot run it.
	 */
	if (MLX5_CAP_GEN(mdev, cqe_compression) &&
	    MLX5_CAP_GEN(mdev, vport_group_manager) &&
	    mlx5e_port_slow_pci(mdev)) {
		priv->params.pflags |= BIT(MLX5E_PFLAG_RX_CQE_COMPRESS);
		if (mlx5e_cqe_compress_validate(mdev, &priv->params))
			priv->params.pflags &= ~BIT(MLX5E_PFLAG_RX_CQE_COMPRESS);
	}
	priv->rx_cqe_compress_def =
		priv->params.pflags & BIT(MLX5E_PFLAG_RX_CQE_COMPRESS);
	mlx5e_rss_init(priv);
	mlx5e_ethtool_fs_init(priv);
	return 0;
}

static void mlx5e_priv_cleanup(struct mlx5e_priv *priv)
{
	mlx5_vxlan_destroy(priv->vxlan);
	mlx5e_ethtool_fs_cleanup(priv);
	destroy_workqueue(priv->wq);
	kfree(priv->txq2sq);
	kvfree(priv->channel_stats);
	mutex_destroy(&priv->state_lock);
}

static int mlx5e_probe(struct auxiliary_device *adev,
		       const struct auxiliary_device_id *id)
{
	struct mlx5_adev *madev = container_of(adev, struct mlx5_adev, adev);
	struct mlx5_core_dev *mdev = madev->mdev;
	struct net_device *netdev;
	struct mlx5e_priv *priv;
	u8 mac[ETH_ALEN];
	u16 nch = mlx5e_max_channels(mdev);
	int err;

	netdev = alloc_etherdev_mqs(sizeof(*priv), nch, nch);
	if (!netdev)
		return -ENOMEM;
	SET_NETDEV_DEV(netdev, mdev->device);
	priv = netdev_priv(netdev);
	err = mlx5e_priv_init(priv, netdev, mdev);
	if (err)
		goto err_free;

	netdev->netdev_ops = &mlx5e_netdev_ops;
	netdev->ethtool_ops = &mlx5e_ethtool_ops;
	netdev->stat_ops = &mlx5e_stat_ops;
	netdev->watchdog_timeo = MLX5E_TX_TIMEOUT;
	netdev->min_mtu = ETH_MIN_MTU;
	netdev->xdp_features = mlx5e_xdp_features();
	netdev->xdp_metadata_ops = &mlx5e_xdp_metadata_ops;
	priv->vxlan = mlx5_vxlan_create(mdev);
	if (PTR_ERR_OR_ZERO(priv->vxlan) == -ENOMEM) {
		err = -ENOMEM;
		goto err_priv;
	}
	mlx5e_vxlan_set_netdev_info(priv);
	mlx5e_build_features(priv);

	err = mlx5e_query_mac(mdev, mac);
	if (err)
		goto err_priv;
	if (is_valid_ether_addr(mac)) {
		eth_hw_addr_set(netdev, mac);
	} else {
		eth_hw_addr_random(netdev);
		netdev_info(netdev, "no MAC in the vport context, using a random one\n");
	}

	err = mlx5e_hw_attach(priv);
	if (err)
		goto err_priv;
	err = mlx5e_devlink_create(priv, &adev->dev);
	if (err)
		goto err_detach;
	netif_carrier_off(netdev);
	err = register_netdev(netdev);
	if (err)
		goto err_devlink;
	mlx5e_tx_reporter_create(priv);
	mlx5e_rx_reporter_create(priv);
	auxiliary_set_drvdata(adev, priv);
	return 0;

err_devlink:
	mlx5e_devlink_destroy(priv);
err_detach:
	mlx5e_hw_detach(priv);
err_priv:
	mlx5e_priv_cleanup(priv);
err_free:
	free_netdev(netdev);
	return err;
}

static void mlx5e_remove(struct auxiliary_device *adev)
{
	struct mlx5e_priv *priv = auxiliary_get_drvdata(adev);
	struct net_device *netdev = priv->netdev;

	unregister_netdev(netdev);
	/* Closed: a reopen waiting for its next try queues no other. */
	cancel_delayed_work_sync(&priv->reopen_work);
	mlx5e_tx_reporter_destroy(priv);
	mlx5e_rx_reporter_destroy(priv);
	mlx5e_devlink_destroy(priv);
	cancel_work_sync(&priv->rx_mode_work);
	mutex_lock(&priv->state_lock);
	mlx5e_hw_detach(priv);
	mutex_unlock(&priv->state_lock);
	mlx5e_priv_cleanup(priv);
	free_netdev(netdev);
}

static int mlx5e_suspend(struct auxiliary_device *adev, pm_message_t state)
{
	mlx5e_detach(auxiliary_get_drvdata(adev));
	return 0;
}

static int mlx5e_resume(struct auxiliary_device *adev)
{
	return mlx5e_attach(auxiliary_get_drvdata(adev));
}

static const struct auxiliary_device_id mlx5e_id_table[] = {
	{ .name = MLX5_DRIVER_NAME ".eth" },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, mlx5e_id_table);

static struct auxiliary_driver mlx5e_driver = {
	.name = "eth",
	.probe = mlx5e_probe,
	.remove = mlx5e_remove,
	.suspend = mlx5e_suspend,
	.resume = mlx5e_resume,
	.id_table = mlx5e_id_table,
};

/**
 * mlx5e_init() - register the Ethernet auxiliary driver
 * @dbg_root: the module's debugfs directory, for the data path's fault
 *	injection attributes (mlx5e_fault_debugfs_init())
 *
 * Return: 0 or a negative errno.
 */
int mlx5e_init(struct dentry *dbg_root)
{
	mlx5e_fault_debugfs_init(dbg_root);
	return auxiliary_driver_register(&mlx5e_driver);
}

void mlx5e_cleanup(void)
{
	auxiliary_driver_unregister(&mlx5e_driver);
}
