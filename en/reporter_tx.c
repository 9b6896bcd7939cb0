// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Recovery of a send queue after an error CQE, reported through the
 * devlink health reporter "tx" of the netdev's devlink port.
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
#include "xdp.h"

/**
 * mlx5e_query_sq_state() - an SQ's state as the device has it
 * @mdev: the device
 * @sqn: the SQ
 * @state: MLX5_SQC_STATE_*, on success
 *
 * Return: 0 or a negative errno.
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
 * mlx5e_sq_expect_err() - the state of an SQ with an error CQE
 * @c: its channel
 * @sqn: the SQ
 * @kind: what the SQ is, for the log ("SQ", "XDP SQ")
 * @stop_ready: an SQ the device left ready is moved to ERR (so that what
 *	it holds is reset too), or else left as it is
 * @state: MLX5_SQC_STATE_*, on success
 *
 * ERR as expected; RST where an earlier recovery stopped after leaving
 * ERR; RDY (logged): the device did not stop it.
 *
 * Return: 0, or -EINVAL for another state, or a command's negative
 *	errno; each logged.
 */
int mlx5e_sq_expect_err(struct mlx5e_channel *c, u32 sqn, const char *kind,
			bool stop_ready, u8 *state)
{
	int err;

	err = mlx5e_query_sq_state(c->mdev, sqn, state);
	if (err) {
		netdev_err(c->netdev, "%s 0x%x: state query failed: %d\n",
			   kind, sqn, err);
		return err;
	}
	switch (*state) {
	case MLX5_SQC_STATE_ERR:
	case MLX5_SQC_STATE_RST:
		return 0;
	case MLX5_SQC_STATE_RDY:
		netdev_err(c->netdev, "%s 0x%x: error CQE but state %u\n",
			   kind, sqn, *state);
		if (!stop_ready)
			return 0;
		err = mlx5e_modify_sq_state(c->mdev, sqn, MLX5_SQC_STATE_RDY,
					    MLX5_SQC_STATE_ERR);
		if (!err)
			*state = MLX5_SQC_STATE_ERR;
		return err;
	default:
		netdev_err(c->netdev, "%s 0x%x: unexpected state %u\n",
			   kind, sqn, *state);
		return -EINVAL;
	}
}

/**
 * mlx5e_tx_recover_sq() - bring an SQ in error back to service
 * @sq: the SQ, MLX5E_SQ_STATE_RECOVERING set
 *
 * Also where an earlier attempt stopped: the SQ still in ERR, or in RST
 * when only the move to RDY failed; an SQ still ready is moved to ERR
 * first, so that what it holds is reset as well.
 *
 * Return: 0 or a negative errno: the queue then stays stopped and
 *	RECOVERING, for a later attempt (mlx5e_tx_reporter_recover()).
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

	err = mlx5e_sq_expect_err(c, sq->sqn, "SQ", true, &state);
	if (err)
		return err;

	napi_disable(&c->napi);
	/*
	 * In RST the device writes no more completions: the flush CQEs of
	 * everything rung are in the CQ before it is drained, none comes
	 * later to a ring whose counters restarted.
	 */
	if (state == MLX5_SQC_STATE_ERR)
		err = mlx5e_modify_sq_state(mdev, sq->sqn, MLX5_SQC_STATE_ERR,
					    MLX5_SQC_STATE_RST);
	/*
	 * Every completion the device wrote before it stopped (a flush CQE
	 * per WQE: more than a poll's budget), then the rest: one left
	 * would name a WQE of the ring before its counters restarted.
	 */
	mlx5e_drain_tx_cq(sq);
	mlx5e_free_txqsq_descs(sq);
	netdev_tx_reset_queue(sq->txq);
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
	if (!err)
		clear_bit(MLX5E_SQ_STATE_RECOVERING, &sq->state);
	napi_enable(&c->napi);
	/* The channel's completion events while NAPI was off were lost. */
	mlx5e_channel_kick(c);
	if (err)
		return err;

	mlx5e_stats_add(&sq->cq_stats->syncp, &sq->cq_stats->recover, 1);
	netif_tx_wake_queue(sq->txq);
	return 0;
}

/*
 * A recovery of an SQ of @c ended with @err: a failed one leaves the
 * queue out of service until devlink health recover.  True when the
 * caller is to say so.
 */
static bool mlx5e_sq_recover_done(struct mlx5e_channel *c,
				  unsigned long *state, int failed_bit, int err)
{
	atomic_t *failed = &c->priv->tx_failed;

	if (!err) {
		mlx5e_health_unfail(state, failed_bit, failed);
		return false;
	}
	mlx5e_health_fail(state, failed_bit, failed);
	return true;
}

static void mlx5e_tx_recover_done(struct mlx5e_txqsq *sq, int err)
{
	if (mlx5e_sq_recover_done(sq->ch, &sq->state,
				  MLX5E_SQ_STATE_RECOVER_FAILED, err))
		netdev_err(sq->ch->netdev,
			   "SQ 0x%x: recovery failed (%d), TX queue %u stopped until devlink health recover\n",
			   sq->sqn, err, sq->txq_ix);
}

/* An XDP SQ's frames are dropped meanwhile. */
static void mlx5e_xdpsq_recover_done(struct mlx5e_xdpsq *sq, int err)
{
	if (mlx5e_sq_recover_done(sq->ch, &sq->state,
				  MLX5E_XDPSQ_STATE_RECOVER_FAILED, err))
		netdev_err(sq->ch->netdev,
			   "XDP SQ 0x%x: recovery failed (%d), channel %u drops the frames it would send until devlink health recover\n",
			   sq->sqn, err, sq->ch->ix);
}

/* devlink health recover: @c's SQ, XDP SQs and XSK SQ again, if their
 * recovery failed.
 */
static int mlx5e_tx_retry(struct mlx5e_channel *c)
{
	struct mlx5e_xdpsq *xsqs[] = { c->xdpsq, c->rq_xdpsq, c->xsksq };
	int err = 0, ret;
	unsigned int i;

	/* Still counted failed until it is back: see mlx5e_health_recovered(). */
	if (test_bit(MLX5E_SQ_STATE_RECOVER_FAILED, &c->sq.state)) {
		err = mlx5e_tx_recover_sq(&c->sq);
		mlx5e_tx_recover_done(&c->sq, err);
	}
	for (i = 0; i < ARRAY_SIZE(xsqs); i++) {
		struct mlx5e_xdpsq *xsq = xsqs[i];

		if (!xsq ||
		    !test_bit(MLX5E_XDPSQ_STATE_RECOVER_FAILED, &xsq->state))
			continue;
		ret = mlx5e_xdpsq_recover(xsq);
		mlx5e_xdpsq_recover_done(xsq, ret);
		if (!err)
			err = ret;
	}
	return err;
}

/*
 * devlink health recover of the reporter "tx": every SQ and XDP SQ whose
 * recovery failed.
 */
static int mlx5e_tx_reporter_recover(struct devlink_health_reporter *reporter,
				     void *priv_ctx,
				     struct netlink_ext_ack *extack)
{
	return mlx5e_health_retry_failed(devlink_health_reporter_priv(reporter),
					 mlx5e_tx_retry, "an SQ", extack);
}

/*
 * No .dump: devlink takes the reporter's instance lock for it (the
 * netdev's, en/devlink.c), which devlink health recover holds while it
 * waits for priv->state_lock, which closing the channels holds while it
 * waits for the recovery work that would be waiting for the instance
 * lock.  For the same reason the works recover their SQ themselves and
 * tell the reporter (mlx5e_health_report(), mlx5e_health_recovered());
 * .recover is devlink health recover's, for an SQ whose recovery failed.
 */
static const struct devlink_health_reporter_ops mlx5e_tx_reporter_ops = {
	.name = "tx",
	.recover = mlx5e_tx_reporter_recover,
};

/**
 * mlx5e_tx_reporter_create() - the devlink health reporter "tx"
 * @priv: the netdev's private area
 */
void mlx5e_tx_reporter_create(struct mlx5e_priv *priv)
{
	priv->tx_reporter = mlx5e_health_create(priv, &mlx5e_tx_reporter_ops);
}

void mlx5e_tx_reporter_destroy(struct mlx5e_priv *priv)
{
	mlx5e_health_destroy(&priv->tx_reporter);
}

/**
 * mlx5e_tx_err_cqe_work() - an SQ completed a WQE in error
 * @work: the SQ's recover_work
 */
void mlx5e_tx_err_cqe_work(struct work_struct *work)
{
	struct mlx5e_txqsq *sq = container_of(work, struct mlx5e_txqsq,
					      recover_work);
	char msg[64];
	int err;

	/*
	 * Not once the SQ is out of service (a switch or a close): it goes,
	 * or comes back through mlx5e_reactivate_tx(), which queues this
	 * again.
	 */
	if (!test_bit(MLX5E_SQ_STATE_RECOVERING, &sq->state) ||
	    !test_bit(MLX5E_SQ_STATE_ENABLED, &sq->state))
		return;
	snprintf(msg, sizeof(msg), "error CQE on SQ 0x%x", sq->sqn);
	mlx5e_health_report(sq->ch->priv->tx_reporter, sq->ch, msg, sq->cc,
			    sq->pc);
	err = mlx5e_tx_recover_sq(sq);
	mlx5e_tx_recover_done(sq, err);
	mlx5e_health_recovered(sq->ch->priv->tx_reporter, err,
			       &sq->ch->priv->tx_failed);
}

/**
 * mlx5e_xdpsq_err_cqe_work() - an XDP SQ completed a WQE in error
 * @work: the XDP SQ's recover_work
 *
 * Reported and recovered as a TX SQ's, through the same reporter.
 */
void mlx5e_xdpsq_err_cqe_work(struct work_struct *work)
{
	struct mlx5e_xdpsq *sq = container_of(work, struct mlx5e_xdpsq,
					      recover_work);
	char msg[64];
	int err;

	/* Not once its channel is going: recovery needs its NAPI. */
	if (!test_bit(MLX5E_XDPSQ_STATE_RECOVERING, &sq->state) ||
	    !test_bit(MLX5E_XDPSQ_STATE_ENABLED, &sq->state))
		return;
	snprintf(msg, sizeof(msg), "error CQE on XDP SQ 0x%x", sq->sqn);
	mlx5e_health_report(sq->ch->priv->tx_reporter, sq->ch, msg, sq->cc,
			    sq->pc);
	err = mlx5e_xdpsq_recover(sq);
	mlx5e_xdpsq_recover_done(sq, err);
	mlx5e_health_recovered(sq->ch->priv->tx_reporter, err,
			       &sq->ch->priv->tx_failed);
}
