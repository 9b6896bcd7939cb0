// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Recovery of a send queue after an error CQE, reported through the
 * devlink health reporter "tx" of the function.
 *
 * The device moved the SQ to ERR and flushed what was posted behind the
 * failed WQE. Recovery stops the TX queue, keeps NAPI away, frees what
 * the WQEs still own, moves the SQ ERR -> RST -> RDY (counters restart at
 * zero), and wakes the queue.
 */
#include <net/devlink.h>
#include <net/netdev_queues.h>

#include "../en.h"
#include "txrx.h"

/**
 * mlx5e_query_sq_state() - the state of an SQ as the device has it
 * @mdev: the device
 * @sqn: the SQ
 * @state: filled in (MLX5_SQC_STATE_*)
 *
 * Return: 0 or a command error.
 */
int mlx5e_query_sq_state(struct mlx5_core_dev *mdev, u32 sqn, u8 *state)
{
	int outlen = MLX5_ST_SZ_BYTES(query_sq_out);
	u32 in[MLX5_ST_SZ_DW(query_sq_in)] = {};
	void *out;
	int err;

	out = kvzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	MLX5_SET(query_sq_in, in, opcode, MLX5_CMD_OP_QUERY_SQ);
	MLX5_SET(query_sq_in, in, sqn, sqn);
	err = mlx5_cmd_exec(mdev, in, sizeof(in), out, outlen);
	if (!err)
		*state = MLX5_GET(query_sq_out, out, sq_context.state);
	kvfree(out);
	return err;
}

/**
 * mlx5e_tx_recover_sq() - bring an SQ in error back to service
 * @sq: the SQ
 *
 * Return: 0 or a negative errno (the queue then stays stopped).
 */
static int mlx5e_tx_recover_sq(struct mlx5e_txqsq *sq)
{
	struct mlx5e_channel *c = sq->ch;
	struct mlx5_core_dev *mdev = c->mdev;
	u8 state;
	int err;

	netif_tx_lock_bh(c->netdev);
	netif_tx_stop_queue(sq->txq);
	netif_tx_unlock_bh(c->netdev);

	err = mlx5e_query_sq_state(mdev, sq->sqn, &state);
	if (err)
		return err;
	if (state != MLX5_SQC_STATE_ERR) {
		netdev_err(c->netdev, "SQ 0x%x: error CQE but state %u\n",
			   sq->sqn, state);
		return -EINVAL;
	}

	napi_disable(&c->napi);
	/* Completions the device wrote before it stopped, then the rest. */
	mlx5e_poll_tx_cq(sq, 0);
	mlx5e_free_txqsq_descs(sq);
	netdev_tx_reset_queue(sq->txq);
	err = mlx5e_modify_sq_state(mdev, sq->sqn, MLX5_SQC_STATE_ERR,
				    MLX5_SQC_STATE_RST);
	if (!err) {
		sq->cc = 0;
		sq->pc = 0;
		sq->last_cqe_pc = 0;
		sq->rung_pc = 0;
		sq->dma_fifo_cc = 0;
		sq->dma_fifo_pc = 0;
		err = mlx5e_modify_sq_state(mdev, sq->sqn, MLX5_SQC_STATE_RST,
					    MLX5_SQC_STATE_RDY);
	}
	clear_bit(MLX5E_SQ_STATE_RECOVERING, &sq->state);
	napi_enable(&c->napi);
	if (err)
		return err;

	u64_stats_update_begin(&sq->cq_stats->syncp);
	u64_stats_inc(&sq->cq_stats->recover);
	u64_stats_update_end(&sq->cq_stats->syncp);
	netif_tx_wake_queue(sq->txq);
	return 0;
}

static int mlx5e_tx_reporter_recover(struct devlink_health_reporter *reporter,
				     void *ctx, struct netlink_ext_ack *extack)
{
	struct mlx5e_txqsq *sq = ctx;
	int err;

	if (!sq)
		return 0; /* recovery asked from user space: nothing pending */
	err = mlx5e_tx_recover_sq(sq);
	if (err)
		NL_SET_ERR_MSG_MOD(extack, "SQ recovery failed");
	return err;
}

static int mlx5e_tx_reporter_dump(struct devlink_health_reporter *reporter,
				  struct devlink_fmsg *fmsg, void *ctx,
				  struct netlink_ext_ack *extack)
{
	struct mlx5e_txqsq *sq = ctx;

	if (!sq)
		return 0;
	devlink_fmsg_u32_pair_put(fmsg, "sqn", sq->sqn);
	devlink_fmsg_u32_pair_put(fmsg, "channel", sq->ch->ix);
	devlink_fmsg_u32_pair_put(fmsg, "cc", sq->cc);
	devlink_fmsg_u32_pair_put(fmsg, "pc", sq->pc);
	return 0;
}

static const struct devlink_health_reporter_ops mlx5e_tx_reporter_ops = {
	.name = "tx",
	.recover = mlx5e_tx_reporter_recover,
	.dump = mlx5e_tx_reporter_dump,
};

/**
 * mlx5e_tx_reporter_create() - the devlink health reporter "tx"
 * @priv: the netdev's private area
 *
 * Called from probe, where the core holds the devlink instance lock.
 * Without it (devlink refused), SQs still recover, unreported.
 */
void mlx5e_tx_reporter_create(struct mlx5e_priv *priv)
{
	struct devlink *devlink = priv_to_devlink(priv->mdev);
	struct devlink_health_reporter *r;

	r = devl_health_reporter_create(devlink, &mlx5e_tx_reporter_ops, 0,
					priv);
	if (IS_ERR(r)) {
		netdev_warn(priv->netdev, "no tx health reporter: %ld\n",
			    PTR_ERR(r));
		r = NULL;
	}
	priv->tx_reporter = r;
}

void mlx5e_tx_reporter_destroy(struct mlx5e_priv *priv)
{
	if (priv->tx_reporter)
		devl_health_reporter_destroy(priv->tx_reporter);
	priv->tx_reporter = NULL;
}

/**
 * mlx5e_tx_err_cqe_work() - an SQ completed a WQE in error
 * @work: the SQ's recover_work
 */
void mlx5e_tx_err_cqe_work(struct work_struct *work)
{
	struct mlx5e_txqsq *sq = container_of(work, struct mlx5e_txqsq,
					      recover_work);
	struct mlx5e_priv *priv = sq->ch->priv;
	char msg[64];

	if (!test_bit(MLX5E_SQ_STATE_RECOVERING, &sq->state))
		return;
	snprintf(msg, sizeof(msg), "error CQE on SQ 0x%x", sq->sqn);
	/* The reporter recovers through its .recover; if it declines (its
	 * grace period, or an earlier recovery failed), recover anyway.
	 */
	if (!priv->tx_reporter ||
	    devlink_health_report(priv->tx_reporter, msg, sq) == -ECANCELED)
		mlx5e_tx_recover_sq(sq);
}
