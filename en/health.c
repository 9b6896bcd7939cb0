// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the devlink health reporters "tx" and "rx" share: their creation,
 * how a queue's error and its recovery are reported, and devlink health
 * recover's retry of every queue whose recovery failed.
 */
#include <net/devlink.h>

#include "../en.h"

/**
 * mlx5e_health_create() - a devlink health reporter of the netdev
 * @priv: the netdev's private area
 * @ops: the reporter's operations (its name among them)
 *
 * On the netdev's devlink port (en/devlink.c), whose instance devlink
 * locks itself: probe may run with no devlink lock held (a sysfs bind).
 * Without a reporter (devlink refused), queues still recover, unreported.
 *
 * Return: the reporter, or NULL.
 */
struct devlink_health_reporter *
mlx5e_health_create(struct mlx5e_priv *priv,
		    const struct devlink_health_reporter_ops *ops)
{
	struct devlink_health_reporter *r;

	r = devlink_port_health_reporter_create(mlx5e_devlink_port(priv), ops,
						0, priv);
	if (!IS_ERR(r))
		return r;
	netdev_warn(priv->netdev, "no %s health reporter: %ld\n", ops->name,
		    PTR_ERR(r));
	return NULL;
}

/**
 * mlx5e_health_destroy() - destroy a reporter mlx5e_health_create() made
 * @r: where it is kept; NULL after
 */
void mlx5e_health_destroy(struct devlink_health_reporter **r)
{
	if (*r)
		devlink_health_reporter_destroy(*r);
	*r = NULL;
}

/**
 * mlx5e_health_report() - a queue's error: logged and counted by @r
 * @r: the reporter, or NULL
 * @c: the queue's channel
 * @msg: what happened
 * @cc: the queue's consumer counter, for the log
 * @pc: its producer counter
 *
 * Counted as the reporter's error, then its recovery; not recovered by
 * devlink, which would take its instance lock here (the reporters have no
 * .dump for the same reason): in the error state already, the report
 * leaves recovery to the caller, who then calls mlx5e_health_recovered().
 */
void mlx5e_health_report(struct devlink_health_reporter *r,
			 struct mlx5e_channel *c, const char *msg,
			 u16 cc, u16 pc)
{
	if (net_ratelimit())
		netdev_info(c->netdev, "%s (channel %u, cc %u, pc %u): recovering\n",
			    msg, c->ix, cc, pc);
	if (!r)
		return;
	devlink_health_reporter_state_update(r, DEVLINK_HEALTH_REPORTER_STATE_ERROR);
	devlink_health_report(r, msg, NULL);
}

/**
 * mlx5e_health_fail() - a queue's recovery failed: it stays out of service
 * @state: the queue's state bits
 * @bit: its RECOVER_FAILED bit
 * @failed: the count of such queues of its reporter
 */
void mlx5e_health_fail(unsigned long *state, int bit, atomic_t *failed)
{
	if (!test_and_set_bit(bit, state))
		atomic_inc(failed);
}

/**
 * mlx5e_health_unfail() - a queue is no longer one whose recovery failed
 *	(it is tried again, it recovered, or it is closed)
 * @state: the queue's state bits
 * @bit: its RECOVER_FAILED bit
 * @failed: the count of such queues of its reporter
 *
 * Return: true when it was one.
 */
bool mlx5e_health_unfail(unsigned long *state, int bit, atomic_t *failed)
{
	if (!test_and_clear_bit(bit, state))
		return false;
	atomic_dec(failed);
	return true;
}

/**
 * mlx5e_health_recovered() - a recovery mlx5e_health_report() announced ended
 * @r: the reporter, or NULL
 * @err: 0 when it worked: the reporter then says so, unless another of
 *	its queues is still out of service
 * @failed: the count of the reporter's queues whose recovery failed
 */
void mlx5e_health_recovered(struct devlink_health_reporter *r, int err,
			    atomic_t *failed)
{
	if (!r)
		return;
	if (err) {
		/* Whatever another queue's recovery said meanwhile. */
		devlink_health_reporter_state_update(r, DEVLINK_HEALTH_REPORTER_STATE_ERROR);
		return;
	}
	if (atomic_read(failed))
		return;
	devlink_health_reporter_recovery_done(r);
	devlink_health_reporter_state_update(r, DEVLINK_HEALTH_REPORTER_STATE_HEALTHY);
}

/**
 * mlx5e_health_settle() - queues were closed: a reporter none of whose
 *	queues is out of service any more is healthy
 * @priv: the netdev's private area, its channels closed or replaced
 */
void mlx5e_health_settle(struct mlx5e_priv *priv)
{
	if (priv->tx_reporter && !atomic_read(&priv->tx_failed))
		devlink_health_reporter_state_update(priv->tx_reporter,
						     DEVLINK_HEALTH_REPORTER_STATE_HEALTHY);
	if (priv->rx_reporter && !atomic_read(&priv->rx_failed))
		devlink_health_reporter_state_update(priv->rx_reporter,
						     DEVLINK_HEALTH_REPORTER_STATE_HEALTHY);
}

/**
 * mlx5e_health_retry_failed() - devlink health recover of a reporter
 * @priv: the netdev's private area
 * @retry: tries again the channel's queue if its recovery failed; 0 when
 *	it had not failed or is back in service
 * @what: the kind of queue, for @extack ("an SQ", "an RQ")
 * @extack: for the reason of a failure
 *
 * A queue whose recovery failed stays RECOVERING, so NAPI queues no
 * recovery work for it: the work and @retry never run at the same time
 * for one queue. Called by devlink with its instance lock held;
 * priv->state_lock keeps the channels.
 *
 * Return: 0 when every such queue is back in service, else the first
 *	error.
 */
int mlx5e_health_retry_failed(struct mlx5e_priv *priv,
			      int (*retry)(struct mlx5e_channel *c),
			      const char *what, struct netlink_ext_ack *extack)
{
	int i, ret, err = 0;

	mutex_lock(&priv->state_lock);
	if (test_bit(MLX5E_STATE_OPENED, &priv->state)) {
		for (i = 0; i < priv->channels.num; i++) {
			ret = retry(priv->channels.c[i]);
			if (ret && !err)
				err = ret;
		}
	}
	mutex_unlock(&priv->state_lock);
	if (err)
		NL_SET_ERR_MSG_FMT_MOD(extack, "%s did not recover", what);
	return err;
}
