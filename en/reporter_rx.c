// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Recovery of a receive queue after an error CQE, reported through the
 * devlink health reporter "rx" of the netdev's devlink port.
 *
 * The device completed a WQE of the RQ in error and moved the RQ to ERR,
 * where it takes no more frames; or the driver found a completion it
 * cannot account for (a striding CQE naming another WQE or stride, a
 * failed UMR on the ICOSQ) and moves the RQ to ERR itself. Recovery keeps
 * NAPI away, drops what the CQ still holds, waits for the striding RQ's
 * UMRs (or resets its ICOSQ when one failed or they do not complete),
 * returns the buffers of every posted WQE to the page pool, moves the RQ
 * ERR -> RST -> RDY with its counters from zero, and lets NAPI post the
 * ring afresh.
 */
#include <net/devlink.h>

#include "../en.h"
#include "txrx.h"

static int mlx5e_query_rq_state(struct mlx5_core_dev *mdev, u32 rqn, u8 *state)
{
	int outlen = MLX5_ST_SZ_BYTES(query_rq_out);
	u32 in[MLX5_ST_SZ_DW(query_rq_in)] = {};
	void *out;
	int err;

	out = kvzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	MLX5_SET(query_rq_in, in, opcode, MLX5_CMD_OP_QUERY_RQ);
	MLX5_SET(query_rq_in, in, rqn, rqn);
	err = mlx5_cmd_exec(mdev, in, sizeof(in), out, outlen);
	if (!err)
		*state = MLX5_GET(query_rq_out, out, rq_context.state);
	kvfree(out);
	return err;
}

/**
 * mlx5e_rx_recover_rq() - bring an RQ in error back to service
 * @rq: the RQ, MLX5E_RQ_STATE_RECOVERING set
 *
 * Also where an earlier attempt stopped: the RQ still in ERR, or in RST
 * when only the move to RDY failed.
 *
 * Return: 0 or a negative errno: the RQ then stays out of service and
 *	RECOVERING, for a later attempt (mlx5e_rx_reporter_recover()).
 */
static int mlx5e_rx_recover_rq(struct mlx5e_rq *rq)
{
	struct mlx5e_channel *c = rq->ch;
	struct mlx5_core_dev *mdev = c->mdev;
	u8 state;
	int err;

	err = mlx5e_query_rq_state(mdev, rq->rqn, &state);
	if (err) {
		netdev_err(c->netdev, "RQ 0x%x: state query failed: %d\n",
			   rq->rqn, err);
		return err;
	}
	if (state == MLX5_RQC_STATE_RDY) {
		/*
		 * A completion we could not account for, or one in error on
		 * an RQ still ready: reset it all.
		 */
		if (!test_bit(MLX5E_RQ_STATE_BAD_CQE, &rq->state))
			netdev_err(c->netdev,
				   "RQ 0x%x: error CQE but state %u\n",
				   rq->rqn, state);
		err = mlx5e_modify_rq_state(mdev, rq->rqn, MLX5_RQC_STATE_RDY,
					    MLX5_RQC_STATE_ERR);
		if (err)
			return err;
		state = MLX5_RQC_STATE_ERR;
	}
	clear_bit(MLX5E_RQ_STATE_BAD_CQE, &rq->state);
	if (state != MLX5_RQC_STATE_ERR && state != MLX5_RQC_STATE_RST) {
		netdev_err(c->netdev, "RQ 0x%x: unexpected state %u\n",
			   rq->rqn, state);
		return -EINVAL;
	}

	napi_disable(&c->napi);
	/* CQEs behind the error: their WQEs are returned with the rest. */
	err = mlx5e_rx_cq_drain(rq);
	if (err) {
		/* A CQ that cannot be read on: the channels are reopened. */
		napi_enable(&c->napi);
		mlx5e_channel_kick(c);
		return err;
	}
	/*
	 * UMRs in flight complete before their WQEs' pages go back; a
	 * failed ICOSQ, or UMRs the device does not complete, are made
	 * harmless by resetting it: in RST it runs none of them.
	 */
	if (rq->striding) {
		err = mlx5e_icosq_drain(rq->icosq, rq);
		if (err) {
			netdev_warn(c->netdev,
				    "RQ 0x%x: %s, resetting its ICOSQ\n",
				    rq->rqn, err == -EIO ? "a UMR failed" :
				    "UMRs did not complete");
			err = mlx5e_reset_icosq(c, rq->icosq);
		}
		if (err) {
			/* A UMR may still map pages we would return. */
			netdev_err(c->netdev,
				   "RQ 0x%x: ICOSQ reset failed (%d), RQ left in error\n",
				   rq->rqn, err);
			napi_enable(&c->napi);
			return err;
		}
	}
	mlx5e_free_rx_descs(rq);
	/* In RST already when only the move to RDY failed before. */
	if (state == MLX5_RQC_STATE_ERR)
		err = mlx5e_modify_rq_state(mdev, rq->rqn, MLX5_RQC_STATE_ERR,
					    MLX5_RQC_STATE_RST);
	if (!err) {
		rq->cc = 0;
		rq->pc = 0;
		rq->umr_pc = 0;
		/* The device reads the producer counter at RDY: none yet. */
		mlx5_wq_cyc_update_db(&rq->wq, 0);
		err = mlx5e_modify_rq_state(mdev, rq->rqn, MLX5_RQC_STATE_RST,
					    MLX5_RQC_STATE_RDY);
	}
	if (!err) {
		mlx5e_stats_add(&rq->stats->syncp, &rq->stats->recover, 1);
		clear_bit(MLX5E_RQ_STATE_RECOVERING, &rq->state);
	}
	napi_enable(&c->napi);
	/* NAPI posts the ring. */
	mlx5e_channel_kick(c);
	return err;
}

/* A recovery of @rq ended with @err: a failed one leaves the RQ out of
 * service, said once here, until devlink health recover.
 */
static void mlx5e_rx_recover_done(struct mlx5e_rq *rq, int err)
{
	struct mlx5e_channel *c = rq->ch;

	if (!err) {
		mlx5e_health_unfail(&rq->state, MLX5E_RQ_STATE_RECOVER_FAILED,
				    &c->priv->rx_failed);
		return;
	}
	/* Its CQ cannot be read on: the reopen replaces it (said already). */
	if (test_bit(MLX5E_RQ_STATE_CQ_BAD, &rq->state))
		return;
	mlx5e_health_fail(&rq->state, MLX5E_RQ_STATE_RECOVER_FAILED,
			  &c->priv->rx_failed);
	netdev_err(c->netdev,
		   "RQ 0x%x: recovery failed (%d), channel %u receives nothing until devlink health recover\n",
		   rq->rqn, err, c->ix);
}

/* devlink health recover: @c's RQ again, if its recovery failed. */
static int mlx5e_rx_retry(struct mlx5e_channel *c)
{
	struct mlx5e_rq *rq = &c->rq;
	int err;

	/* Still counted failed until it is back: see mlx5e_health_recovered(). */
	if (!test_bit(MLX5E_RQ_STATE_RECOVER_FAILED, &rq->state))
		return 0;
	err = mlx5e_rx_recover_rq(rq);
	mlx5e_rx_recover_done(rq, err);
	return err;
}

/* devlink health recover of the reporter "rx": every RQ whose recovery failed. */
static int mlx5e_rx_reporter_recover(struct devlink_health_reporter *reporter,
				     void *priv_ctx,
				     struct netlink_ext_ack *extack)
{
	return mlx5e_health_retry_failed(devlink_health_reporter_priv(reporter),
					 mlx5e_rx_retry, "an RQ", extack);
}

/*
 * No .dump: devlink takes the reporter's instance lock for it (the
 * netdev's, en/devlink.c), which devlink health recover holds while it
 * waits for priv->state_lock, which closing the channels holds while it
 * waits for the recovery work that would be waiting for the instance
 * lock.  For the same reason the work recovers the RQ itself and tells
 * the reporter (see mlx5e_rx_err_cqe_work()); .recover is devlink health
 * recover's, for an RQ whose recovery failed.
 */
static const struct devlink_health_reporter_ops mlx5e_rx_reporter_ops = {
	.name = "rx",
	.recover = mlx5e_rx_reporter_recover,
};

/**
 * mlx5e_rx_reporter_create() - the devlink health reporter "rx"
 * @priv: the netdev's private area
 */
void mlx5e_rx_reporter_create(struct mlx5e_priv *priv)
{
	priv->rx_reporter = mlx5e_health_create(priv, &mlx5e_rx_reporter_ops);
}

void mlx5e_rx_reporter_destroy(struct mlx5e_priv *priv)
{
	mlx5e_health_destroy(&priv->rx_reporter);
}

/**
 * mlx5e_rx_err_cqe_work() - an RQ completed a WQE in error
 * @work: the RQ's recover_work
 */
void mlx5e_rx_err_cqe_work(struct work_struct *work)
{
	struct mlx5e_rq *rq = container_of(work, struct mlx5e_rq,
					   recover_work);
	struct mlx5e_channel *c = rq->ch;
	struct devlink_health_reporter *reporter = c->priv->rx_reporter;
	char msg[64];
	int err;

	if (!test_bit(MLX5E_RQ_STATE_RECOVERING, &rq->state))
		return;
	snprintf(msg, sizeof(msg), "error CQE on RQ 0x%x", rq->rqn);
	mlx5e_health_report(reporter, c, msg, rq->cc, rq->pc);
	err = mlx5e_rx_recover_rq(rq);
	mlx5e_rx_recover_done(rq, err);
	mlx5e_health_recovered(reporter, err, &c->priv->rx_failed);
}
