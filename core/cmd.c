// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware command interface.
 *
 * Commands are posted into a queue of entries in one DMA page whose address
 * is given to the device through the init segment. An entry carries the
 * first 16 bytes of the input and of the output inline; longer inputs and
 * outputs continue in chains of 512-byte mailboxes. The driver hands an
 * entry to the device by setting its ownership bit and ringing the command
 * doorbell with the entry's bit; the device clears the ownership bit when
 * the output is written and, once an EQ subscribed to command completions
 * exists, also posts an EQE naming the finished entries.
 *
 * An entry belongs to one command from the moment it is taken: the
 * device's answer is accepted only for an entry a command waits on, and
 * only once its ownership bit is clear. A command that times out abandons
 * its entry to the device; the late answer (an EQE, or the ownership bit
 * seen when looking for a free entry) frees it. The last entry is kept for
 * MANAGE_PAGES. Once the device is dead (internal error) nothing is posted
 * and every waiter returns at once.
 *
 * Firmware can be alive (its health counter runs, no syndrome) and still
 * answer no command: mute. Each command would then cost a full timeout,
 * and a teardown of dozens of commands over an hour at the default 60 s.
 * MLX5_CMD_MUTE_TIMEOUTS commands in a row that time out, with no answer
 * between them (an answer, even one that comes after its command timed
 * out, proves the firmware alive), spanning as many timeouts and at least
 * MLX5_CMD_MUTE_MIN_MS, make the firmware mute: the device goes to
 * internal error as for dead firmware, and fw_fatal recovers it once the
 * firmware answers again. Commands that time out together (posted at
 * once) count for one timeout of silence, not for several; the floor
 * keeps a firmware that answers seconds late at a short stated timeout
 * (tests) alive. The count survives a new queue: a reload is no answer.
 *
 * Locking: @cmd->lock (irqsave: the completion handler runs in hard IRQ
 * context) protects the entries' state; @cmd->mode_sem drains commands in
 * flight when the completion mode changes. Callers sleep: no command from
 * atomic context.
 */

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/slab.h>

#include "priv.h"

#define MLX5_CMD_XPORT_PCI		7
#define MLX5_CMD_OWNER_HW		0x1
#define MLX5_CMD_DELIVERY_STATUS	GENMASK(7, 1)
#define MLX5_CMD_INLINE_LEN		16
#define MLX5_CMD_HDR_LEN		8
#define MLX5_CMD_MBOX_ALIGN		SZ_1K
#define MLX5_CMD_POLL_MIN_US		2
#define MLX5_CMD_POLL_MAX_US		1000
/* cmdq_addr_l_sz: log queue size in bits 7:4, log entry stride in 3:0. */
#define MLX5_CMDQ_LOG_SZ		GENMASK(7, 4)
#define MLX5_CMDQ_LOG_STRIDE		GENMASK(3, 0)
/* Late answers come this long at most, whatever the stated timeout. */
#define MLX5_CMD_LATE_WAIT_MS		5000
#define MLX5_CMD_LATE_POLL_MS		20
/* Silence shorter than this never makes the firmware mute. */
#define MLX5_CMD_MUTE_MIN_MS		MLX5_CMD_LATE_WAIT_MS

struct mlx5_cmd_mbox {
	struct mlx5_cmd_mbox *next;
	struct mlx5_cmd_prot_block *block;
	dma_addr_t dma;
};

static const char * const mlx5_cmd_delivery_str[] = {
	[0x1] = "signature error",
	[0x2] = "token error",
	[0x3] = "bad block number",
	[0x4] = "bad output pointer",
	[0x5] = "bad input pointer",
	[0x6] = "internal error",
	[0x7] = "input length error",
	[0x8] = "output length error",
	[0x9] = "reserved fields not cleared",
	[0x10] = "bad command type",
};

/**
 * mlx5_cmd_status_str() - name of a command status
 * @status: the status byte of a command output
 *
 * Return: a constant string.
 */
const char *mlx5_cmd_status_str(u8 status)
{
	switch (status) {
	case MLX5_CMD_STAT_OK:			return "OK";
	case MLX5_CMD_STAT_INT_ERR:		return "internal error";
	case MLX5_CMD_STAT_BAD_OP_ERR:		return "bad operation";
	case MLX5_CMD_STAT_BAD_PARAM_ERR:	return "bad parameter";
	case MLX5_CMD_STAT_BAD_SYS_STATE_ERR:	return "bad system state";
	case MLX5_CMD_STAT_BAD_RES_ERR:		return "bad resource";
	case MLX5_CMD_STAT_RES_BUSY:		return "resource busy";
	case MLX5_CMD_STAT_NOT_READY:		return "not ready";
	case MLX5_CMD_STAT_LIM_ERR:		return "limits exceeded";
	case MLX5_CMD_STAT_BAD_RES_STATE_ERR:	return "bad resource state";
	case MLX5_CMD_STAT_IX_ERR:		return "bad index";
	case MLX5_CMD_STAT_NO_RES_ERR:		return "no resources";
	case MLX5_CMD_STAT_BAD_INP_LEN_ERR:	return "bad input length";
	case MLX5_CMD_STAT_BAD_OUTP_LEN_ERR:	return "bad output length";
	case MLX5_CMD_STAT_BAD_QP_STATE_ERR:	return "bad QP state";
	case MLX5_CMD_STAT_BAD_PKT_ERR:		return "bad packet";
	case MLX5_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR: return "bad size, too many outstanding CQEs";
	default:				return "unknown status";
	}
}

static int mlx5_cmd_status_to_errno(u8 status)
{
	switch (status) {
	case MLX5_CMD_STAT_OK:			return 0;
	case MLX5_CMD_STAT_BAD_OP_ERR:		return -EOPNOTSUPP;
	case MLX5_CMD_STAT_BAD_PARAM_ERR:
	case MLX5_CMD_STAT_BAD_RES_ERR:
	case MLX5_CMD_STAT_BAD_RES_STATE_ERR:
	case MLX5_CMD_STAT_IX_ERR:
	case MLX5_CMD_STAT_BAD_QP_STATE_ERR:
	case MLX5_CMD_STAT_BAD_PKT_ERR:
	case MLX5_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR: return -EINVAL;
	case MLX5_CMD_STAT_RES_BUSY:		return -EBUSY;
	/* A device quota, not host memory. */
	case MLX5_CMD_STAT_LIM_ERR:		return -ENOSPC;
	case MLX5_CMD_STAT_NO_RES_ERR:		return -EAGAIN;
	default:				return -EIO;
	}
}

/**
 * mlx5_cmd_opcode_str() - name of a command opcode, for log lines
 * @opcode: the opcode
 *
 * Return: a constant string.
 */
const char *mlx5_cmd_opcode_str(u16 opcode)
{
	switch (opcode) {
	case MLX5_CMD_OP_QUERY_HCA_CAP:		return "QUERY_HCA_CAP";
	case MLX5_CMD_OP_QUERY_ADAPTER:		return "QUERY_ADAPTER";
	case MLX5_CMD_OP_INIT_HCA:		return "INIT_HCA";
	case MLX5_CMD_OP_TEARDOWN_HCA:		return "TEARDOWN_HCA";
	case MLX5_CMD_OP_ENABLE_HCA:		return "ENABLE_HCA";
	case MLX5_CMD_OP_DISABLE_HCA:		return "DISABLE_HCA";
	case MLX5_CMD_OP_QUERY_PAGES:		return "QUERY_PAGES";
	case MLX5_CMD_OP_MANAGE_PAGES:		return "MANAGE_PAGES";
	case MLX5_CMD_OP_SET_HCA_CAP:		return "SET_HCA_CAP";
	case MLX5_CMD_OP_QUERY_ISSI:		return "QUERY_ISSI";
	case MLX5_CMD_OP_SET_ISSI:		return "SET_ISSI";
	case MLX5_CMD_OP_SET_DRIVER_VERSION:	return "SET_DRIVER_VERSION";
	case MLX5_CMD_OP_CREATE_MKEY:		return "CREATE_MKEY";
	case MLX5_CMD_OP_DESTROY_MKEY:		return "DESTROY_MKEY";
	case MLX5_CMD_OP_CREATE_EQ:		return "CREATE_EQ";
	case MLX5_CMD_OP_DESTROY_EQ:		return "DESTROY_EQ";
	case MLX5_CMD_OP_CREATE_CQ:		return "CREATE_CQ";
	case MLX5_CMD_OP_DESTROY_CQ:		return "DESTROY_CQ";
	case MLX5_CMD_OP_MODIFY_CQ:		return "MODIFY_CQ";
	case MLX5_CMD_OP_QUERY_VPORT_STATE:	return "QUERY_VPORT_STATE";
	case MLX5_CMD_OP_MODIFY_VPORT_STATE:	return "MODIFY_VPORT_STATE";
	case MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT: return "QUERY_NIC_VPORT_CONTEXT";
	case MLX5_CMD_OP_MODIFY_NIC_VPORT_CONTEXT: return "MODIFY_NIC_VPORT_CONTEXT";
	case MLX5_CMD_OP_ALLOC_Q_COUNTER:	return "ALLOC_Q_COUNTER";
	case MLX5_CMD_OP_DEALLOC_Q_COUNTER:	return "DEALLOC_Q_COUNTER";
	case MLX5_CMD_OP_QUERY_Q_COUNTER:	return "QUERY_Q_COUNTER";
	case MLX5_CMD_OP_ALLOC_PD:		return "ALLOC_PD";
	case MLX5_CMD_OP_DEALLOC_PD:		return "DEALLOC_PD";
	case MLX5_CMD_OP_ALLOC_UAR:		return "ALLOC_UAR";
	case MLX5_CMD_OP_DEALLOC_UAR:		return "DEALLOC_UAR";
	case MLX5_CMD_OP_ACCESS_REG:		return "ACCESS_REG";
	case MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN: return "ALLOC_TRANSPORT_DOMAIN";
	case MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN: return "DEALLOC_TRANSPORT_DOMAIN";
	case MLX5_CMD_OP_CREATE_TIR:		return "CREATE_TIR";
	case MLX5_CMD_OP_DESTROY_TIR:		return "DESTROY_TIR";
	case MLX5_CMD_OP_CREATE_SQ:		return "CREATE_SQ";
	case MLX5_CMD_OP_MODIFY_SQ:		return "MODIFY_SQ";
	case MLX5_CMD_OP_DESTROY_SQ:		return "DESTROY_SQ";
	case MLX5_CMD_OP_CREATE_RQ:		return "CREATE_RQ";
	case MLX5_CMD_OP_MODIFY_RQ:		return "MODIFY_RQ";
	case MLX5_CMD_OP_DESTROY_RQ:		return "DESTROY_RQ";
	case MLX5_CMD_OP_CREATE_RQT:		return "CREATE_RQT";
	case MLX5_CMD_OP_MODIFY_RQT:		return "MODIFY_RQT";
	case MLX5_CMD_OP_DESTROY_RQT:		return "DESTROY_RQT";
	case MLX5_CMD_OP_CREATE_TIS:		return "CREATE_TIS";
	case MLX5_CMD_OP_DESTROY_TIS:		return "DESTROY_TIS";
	case MLX5_CMD_OP_SET_FLOW_TABLE_ROOT:	return "SET_FLOW_TABLE_ROOT";
	case MLX5_CMD_OP_CREATE_FLOW_TABLE:	return "CREATE_FLOW_TABLE";
	case MLX5_CMD_OP_DESTROY_FLOW_TABLE:	return "DESTROY_FLOW_TABLE";
	case MLX5_CMD_OP_CREATE_FLOW_GROUP:	return "CREATE_FLOW_GROUP";
	case MLX5_CMD_OP_DESTROY_FLOW_GROUP:	return "DESTROY_FLOW_GROUP";
	case MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY:	return "SET_FLOW_TABLE_ENTRY";
	case MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY: return "DELETE_FLOW_TABLE_ENTRY";
	default:				return "unknown command";
	}
}

static struct mlx5_cmd_layout *mlx5_cmd_entry(struct mlx5_cmd *cmd,
					      unsigned int idx)
{
	return cmd->queue + (idx << cmd->log_stride);
}

static void mlx5_cmd_free_msg(struct mlx5_cmd *cmd, struct mlx5_cmd_mbox *head)
{
	struct mlx5_cmd_mbox *next;

	while (head) {
		next = head->next;
		dma_pool_free(cmd->pool, head->block, head->dma);
		kfree(head);
		head = next;
	}
}

/* A chain of mailboxes large enough for @len bytes past the inline part. */
static struct mlx5_cmd_mbox *mlx5_cmd_alloc_msg(struct mlx5_cmd *cmd,
						size_t len, u8 token)
{
	size_t n = DIV_ROUND_UP(len, MLX5_CMD_DATA_BLOCK_SIZE);
	struct mlx5_cmd_mbox *head = NULL, *mb;
	size_t i;

	/* Built back to front so that each block can point at its successor. */
	for (i = n; i-- > 0;) {
		mb = kzalloc(sizeof(*mb), GFP_KERNEL);
		if (!mb)
			goto err;
		mb->block = dma_pool_zalloc(cmd->pool, GFP_KERNEL, &mb->dma);
		if (!mb->block) {
			kfree(mb);
			goto err;
		}
		mb->block->block_num = cpu_to_be32(i);
		mb->block->token = token;
		mb->block->next = cpu_to_be64(head ? head->dma : 0);
		mb->next = head;
		head = mb;
	}
	return head;

err:
	mlx5_cmd_free_msg(cmd, head);
	return ERR_PTR(-ENOMEM);
}

static void mlx5_cmd_copy_to_msg(struct mlx5_cmd_mbox *mb, const void *src,
				 size_t len)
{
	size_t n;

	for (; mb && len; mb = mb->next) {
		n = min_t(size_t, len, MLX5_CMD_DATA_BLOCK_SIZE);
		memcpy(mb->block->data, src, n);
		src += n;
		len -= n;
	}
}

static void mlx5_cmd_copy_from_msg(void *dst, struct mlx5_cmd_mbox *mb,
				   size_t len)
{
	size_t n;

	for (; mb && len; mb = mb->next) {
		n = min_t(size_t, len, MLX5_CMD_DATA_BLOCK_SIZE);
		memcpy(dst, mb->block->data, n);
		dst += n;
		len -= n;
	}
}

static bool mlx5_cmd_is_down(struct mlx5_core_dev *dev)
{
	return !READ_ONCE(mlx5_priv(dev)->cmd.up) || mlx5_dev_is_dead(dev) ||
	       pci_channel_offline(dev->pdev);
}

static bool mlx5_cmd_entry_done(struct mlx5_cmd *cmd, int idx)
{
	u8 own = READ_ONCE(mlx5_cmd_entry(cmd, idx)->status_own);

	return !(own & MLX5_CMD_OWNER_HW);
}

/* The device answered a command, in time or late; under @cmd->lock. */
static void mlx5_cmd_answered(struct mlx5_cmd *cmd)
{
	cmd->unanswered = 0;
	cmd->unanswered_since = jiffies;
}

/* Give an entry and what it still holds back; under @cmd->lock. */
static void mlx5_cmd_slot_free(struct mlx5_cmd *cmd, int idx)
{
	struct mlx5_cmd_slot *slot = &cmd->slot[idx];

	mlx5_cmd_free_msg(cmd, slot->in);
	mlx5_cmd_free_msg(cmd, slot->out);
	slot->in = NULL;
	slot->out = NULL;
	slot->state = MLX5_CMD_SLOT_FREE;
}

/*
 * Abandoned entries whose ownership bit the device cleared since: their
 * late answer arrived (polling mode, or its event was lost). Under
 * @cmd->lock; returns how many were freed.
 */
static int mlx5_cmd_reap(struct mlx5_cmd *cmd)
{
	int idx, n = 0;

	for (idx = 0; idx < cmd->nslots; idx++) {
		if (cmd->slot[idx].state != MLX5_CMD_SLOT_ABANDONED ||
		    !mlx5_cmd_entry_done(cmd, idx))
			continue;
		mlx5_cmd_slot_free(cmd, idx);
		mlx5_cmd_answered(cmd);
		atomic_inc(&cmd->late);
		n++;
	}
	return n;
}

/* Take a free entry of the right kind, if there is one. */
static bool mlx5_cmd_try_take(struct mlx5_cmd *cmd, bool pages, int *idx)
{
	int first = pages ? cmd->nslots - 1 : 0;
	int last = pages ? cmd->nslots : cmd->nslots - 1;
	unsigned long flags;
	bool got = false;
	int i;

	spin_lock_irqsave(&cmd->lock, flags);
	mlx5_cmd_reap(cmd);
	for (i = first; i < last; i++) {
		if (cmd->slot[i].state != MLX5_CMD_SLOT_FREE)
			continue;
		cmd->slot[i].state = MLX5_CMD_SLOT_TAKEN;
		cmd->slot[i].flushed = false;
		/* Token 0 is never used, so a zeroed mailbox never matches. */
		if (!++cmd->token)
			cmd->token = 1;
		cmd->slot[i].token = cmd->token;
		reinit_completion(&cmd->slot[i].done);
		*idx = i;
		got = true;
		break;
	}
	spin_unlock_irqrestore(&cmd->lock, flags);
	return got;
}

/*
 * A command waited a full timeout since @since with no answer (for its
 * entry, or for a free one). Declares the firmware mute when this makes
 * MLX5_CMD_MUTE_TIMEOUTS in a row over long enough (see the top of the
 * file). Returns true when the device is in internal error now: the
 * command then ends as every command of a dead device does.
 */
static bool mlx5_cmd_unanswered(struct mlx5_core_dev *dev,
				unsigned long since)
{
	struct mlx5_cmd *cmd = &mlx5_priv(dev)->cmd;
	unsigned int n, silent_ms, mute_ms;
	unsigned long flags;

	spin_lock_irqsave(&cmd->lock, flags);
	/* Silent since the later of its post and the last answer. */
	if (!cmd->unanswered++ && time_after(since, cmd->unanswered_since))
		cmd->unanswered_since = since;
	n = cmd->unanswered;
	silent_ms = jiffies_to_msecs(jiffies - cmd->unanswered_since);
	spin_unlock_irqrestore(&cmd->lock, flags);

	mute_ms = max(MLX5_CMD_MUTE_TIMEOUTS * cmd->timeout_ms,
		      (unsigned int)MLX5_CMD_MUTE_MIN_MS);
	if (n < MLX5_CMD_MUTE_TIMEOUTS || silent_ms < mute_ms ||
	    mlx5_dev_is_dead(dev))
		return mlx5_dev_is_dead(dev);
	dev_err(dev->device,
		"firmware mute: %u commands in a row timed out, none answered for %u ms (health counter 0x%x)\n",
		n, silent_ms, ioread32be(&dev->iseg->health_counter));
	mlx5_health_fatal(dev, MLX5_SENSOR_FW_MUTE);
	return true;
}

/*
 * Take an entry: MANAGE_PAGES has one of its own, so that page requests
 * the firmware needs to finish other commands are never starved by them.
 * Waits at most one command timeout: entries are held that long at most,
 * unless the device stopped answering.
 */
static int mlx5_cmd_take_slot(struct mlx5_core_dev *dev, u16 opcode, int *idx)
{
	struct mlx5_cmd *cmd = &mlx5_priv(dev)->cmd;
	bool pages = opcode == MLX5_CMD_OP_MANAGE_PAGES;
	unsigned long start = jiffies;
	bool got = false;
	long left;

	left = wait_event_timeout(cmd->slot_wq,
				  (got = mlx5_cmd_try_take(cmd, pages, idx)) ||
				  mlx5_cmd_is_down(dev),
				  msecs_to_jiffies(cmd->timeout_ms));
	if (got)
		return 0;
	if (left)
		return -ENOLINK;
	dev_err_ratelimited(dev->device,
			    "%s(0x%x): no free command entry after %u ms\n",
			    mlx5_cmd_opcode_str(opcode), opcode,
			    cmd->timeout_ms);
	/* The entries are held by commands the device leaves unanswered. */
	return mlx5_cmd_unanswered(dev, start) ? -ENOLINK : -EBUSY;
}

static void mlx5_cmd_put_slot(struct mlx5_cmd *cmd, int idx)
{
	unsigned long flags;

	spin_lock_irqsave(&cmd->lock, flags);
	mlx5_cmd_slot_free(cmd, idx);
	spin_unlock_irqrestore(&cmd->lock, flags);
	wake_up(&cmd->slot_wq);
}

/*
 * The caller stops waiting for entry @idx: keep it, with its mailboxes,
 * until the device gives it back. Returns true when the device answered
 * meanwhile after all.
 */
static bool mlx5_cmd_abandon(struct mlx5_cmd *cmd, int idx)
{
	struct mlx5_cmd_slot *slot = &cmd->slot[idx];
	unsigned long flags;
	bool done;

	spin_lock_irqsave(&cmd->lock, flags);
	done = slot->state == MLX5_CMD_SLOT_DONE;
	if (!done)
		slot->state = MLX5_CMD_SLOT_ABANDONED;
	spin_unlock_irqrestore(&cmd->lock, flags);
	return done;
}

/* Polling mode: spin briefly, then sleep in growing steps. */
static int mlx5_cmd_poll(struct mlx5_core_dev *dev, int idx,
			 unsigned long deadline)
{
	struct mlx5_cmd *cmd = &mlx5_priv(dev)->cmd;
	struct mlx5_cmd_slot *slot = &cmd->slot[idx];
	unsigned int delay = MLX5_CMD_POLL_MIN_US;
	unsigned long flags;

	while (!mlx5_cmd_entry_done(cmd, idx)) {
		if (READ_ONCE(slot->flushed))
			return -ENOLINK;
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
		usleep_range(delay, delay * 2);
		delay = min(delay * 2, (unsigned int)MLX5_CMD_POLL_MAX_US);
	}
	spin_lock_irqsave(&cmd->lock, flags);
	if (slot->state == MLX5_CMD_SLOT_POSTED)
		slot->state = MLX5_CMD_SLOT_DONE;
	mlx5_cmd_answered(cmd);
	spin_unlock_irqrestore(&cmd->lock, flags);
	return 0;
}

static bool mlx5_cmd_slot_done(struct mlx5_cmd *cmd, int idx)
{
	return READ_ONCE(cmd->slot[idx].state) == MLX5_CMD_SLOT_DONE;
}

/* Event mode: the EQE completes @done; a lost one is looked for once. */
static int mlx5_cmd_wait_event(struct mlx5_core_dev *dev, int idx,
			       unsigned long deadline)
{
	struct mlx5_cmd *cmd = &mlx5_priv(dev)->cmd;
	struct mlx5_cmd_slot *slot = &cmd->slot[idx];
	long left = (long)deadline - (long)jiffies;

	if (left > 0 && wait_for_completion_timeout(&slot->done, left))
		return mlx5_cmd_slot_done(cmd, idx) ? 0 : -ENOLINK;

	/*
	 * The answer may be in the EQ with its interrupt lost: poll the EQ
	 * once, as its interrupt handler would, before giving up.
	 */
	mlx5_eq_cmd_recover(dev);
	if (mlx5_cmd_slot_done(cmd, idx)) {
		atomic_inc(&cmd->eq_recoveries);
		dev_warn(dev->device,
			 "%s(0x%x) completed by polling the EQ after its interrupt was lost, entry %d\n",
			 mlx5_cmd_opcode_str(slot->opcode), slot->opcode, idx);
		return 0;
	}
	return READ_ONCE(slot->flushed) ? -ENOLINK : -ETIMEDOUT;
}

/**
 * mlx5_cmd_comp_handler() - entries the device reports finished
 * @dev: the device
 * @vector: bitmap of entry indexes, from a command completion EQE
 *
 * Called from the async EQ's interrupt handler (or its recovery). An
 * entry is taken as answered only when its ownership bit says so and a
 * command waits for it; the late answer to an abandoned entry frees it.
 */
void mlx5_cmd_comp_handler(struct mlx5_core_dev *dev, u32 vector)
{
	struct mlx5_cmd *cmd = &mlx5_priv(dev)->cmd;
	unsigned long bits = vector;
	unsigned long flags;
	bool freed = false;
	int idx;

	spin_lock_irqsave(&cmd->lock, flags);
	for_each_set_bit(idx, &bits, cmd->nslots) {
		struct mlx5_cmd_slot *slot = &cmd->slot[idx];

		if (!mlx5_cmd_entry_done(cmd, idx))
			continue;	/* not the device's answer */
		/* The output was written before the ownership bit. */
		dma_rmb();
		if (slot->state == MLX5_CMD_SLOT_POSTED) {
			slot->state = MLX5_CMD_SLOT_DONE;
			mlx5_cmd_answered(cmd);
			complete(&slot->done);
		} else if (slot->state == MLX5_CMD_SLOT_ABANDONED) {
			mlx5_cmd_slot_free(cmd, idx);
			mlx5_cmd_answered(cmd);
			atomic_inc(&cmd->late);
			freed = true;
		}
	}
	spin_unlock_irqrestore(&cmd->lock, flags);
	if (freed)
		wake_up(&cmd->slot_wq);
}

/**
 * mlx5_cmd_flush() - complete every waiter: the device is dead
 * @dev: the device, already marked in internal error
 *
 * Commands waiting for an answer or for an entry return at once; their
 * entries stay abandoned until the queue is freed.
 */
void mlx5_cmd_flush(struct mlx5_core_dev *dev)
{
	struct mlx5_cmd *cmd = &mlx5_priv(dev)->cmd;
	unsigned long flags;
	int idx;

	spin_lock_irqsave(&cmd->lock, flags);
	for (idx = 0; idx < cmd->nslots; idx++) {
		struct mlx5_cmd_slot *slot = &cmd->slot[idx];

		if (slot->state != MLX5_CMD_SLOT_POSTED)
			continue;
		slot->flushed = true;
		complete(&slot->done);
	}
	spin_unlock_irqrestore(&cmd->lock, flags);
	wake_up_all(&cmd->slot_wq);
}

static void mlx5_cmd_log_error(struct mlx5_core_dev *dev, u16 opcode,
			       u16 op_mod, u8 status, u32 syndrome, int err)
{
	dev_err_ratelimited(dev->device,
			    "%s(0x%x) op_mod(0x%x) failed, status %s(0x%x), syndrome (0x%x), err(%d)\n",
			    mlx5_cmd_opcode_str(opcode), opcode, op_mod,
			    mlx5_cmd_status_str(status), status, syndrome,
			    err);
}

/*
 * Post the command in entry @idx and wait for its answer. The entry is
 * given back, or left abandoned to the device when the answer does not
 * come (-ETIMEDOUT) or the device died meanwhile (-ENOLINK).
 */
static int mlx5_cmd_post_and_wait(struct mlx5_core_dev *dev, int idx,
				  const void *in, int inlen, void *out,
				  int outlen)
{
	struct mlx5_cmd *cmd = &mlx5_priv(dev)->cmd;
	struct mlx5_cmd_slot *slot = &cmd->slot[idx];
	struct mlx5_cmd_layout *ent = mlx5_cmd_entry(cmd, idx);
	struct mlx5_cmd_mbox *imb = NULL, *omb = NULL;
	u16 opcode = MLX5_GET(mbox_in, in, opcode);
	u8 token = slot->token;
	unsigned long posted, deadline, flags;
	int err;
	u8 ds;

	if (inlen > MLX5_CMD_INLINE_LEN) {
		imb = mlx5_cmd_alloc_msg(cmd, inlen - MLX5_CMD_INLINE_LEN, token);
		if (IS_ERR(imb)) {
			mlx5_cmd_put_slot(cmd, idx);
			return PTR_ERR(imb);
		}
		mlx5_cmd_copy_to_msg(imb, in + MLX5_CMD_INLINE_LEN,
				     inlen - MLX5_CMD_INLINE_LEN);
	}
	if (outlen > MLX5_CMD_INLINE_LEN) {
		omb = mlx5_cmd_alloc_msg(cmd, outlen - MLX5_CMD_INLINE_LEN, token);
		if (IS_ERR(omb)) {
			mlx5_cmd_free_msg(cmd, imb);
			mlx5_cmd_put_slot(cmd, idx);
			return PTR_ERR(omb);
		}
	}

	memset(ent, 0, sizeof(*ent));
	ent->type = MLX5_CMD_XPORT_PCI;
	ent->inlen = cpu_to_be32(inlen);
	ent->outlen = cpu_to_be32(outlen);
	ent->in_ptr = cpu_to_be64(imb ? imb->dma : 0);
	ent->out_ptr = cpu_to_be64(omb ? omb->dma : 0);
	ent->token = token;
	memcpy(ent->in, in, min(inlen, MLX5_CMD_INLINE_LEN));
	ent->status_own = MLX5_CMD_OWNER_HW;

	/*
	 * From here the entry owns its mailboxes. A device found dead now is
	 * not asked: mlx5_cmd_flush() took the lock after marking it so.
	 */
	spin_lock_irqsave(&cmd->lock, flags);
	slot->in = imb;
	slot->out = omb;
	slot->opcode = opcode;
	if (mlx5_cmd_is_down(dev)) {
		spin_unlock_irqrestore(&cmd->lock, flags);
		mlx5_cmd_put_slot(cmd, idx);
		return -ENOLINK;
	}
	slot->state = MLX5_CMD_SLOT_POSTED;
	spin_unlock_irqrestore(&cmd->lock, flags);

	/* The entry and its mailboxes are in memory before the doorbell. */
	wmb();
	posted = jiffies;
	deadline = posted + msecs_to_jiffies(cmd->timeout_ms);
	iowrite32be(BIT(idx), &dev->iseg->cmd_dbell);

	if (READ_ONCE(cmd->use_events))
		err = mlx5_cmd_wait_event(dev, idx, deadline);
	else
		err = mlx5_cmd_poll(dev, idx, deadline);
	if (err) {
		if (mlx5_cmd_abandon(cmd, idx)) {
			err = 0;	/* answered while we gave up */
		} else {
			if (err == -ETIMEDOUT) {
				atomic_inc(&cmd->timeouts);
				dev_err(dev->device,
					"%s(0x%x) timed out after %u ms, entry %d\n",
					mlx5_cmd_opcode_str(opcode), opcode,
					cmd->timeout_ms, idx);
				if (mlx5_cmd_unanswered(dev, posted))
					err = -ENOLINK;
			}
			return err;
		}
	}

	/* Read the output only after the ownership bit said it is there. */
	dma_rmb();
	ds = FIELD_GET(MLX5_CMD_DELIVERY_STATUS, ent->status_own);
	if (ds) {
		dev_err(dev->device, "%s(0x%x) not delivered: %s(0x%x)\n",
			mlx5_cmd_opcode_str(opcode), opcode,
			ds < ARRAY_SIZE(mlx5_cmd_delivery_str) &&
			mlx5_cmd_delivery_str[ds] ?
			mlx5_cmd_delivery_str[ds] : "unknown", ds);
		err = -EIO;
	} else {
		memcpy(out, ent->out, min(outlen, MLX5_CMD_INLINE_LEN));
		if (omb)
			mlx5_cmd_copy_from_msg(out + MLX5_CMD_INLINE_LEN, omb,
					       outlen - MLX5_CMD_INLINE_LEN);
	}
	mlx5_cmd_put_slot(cmd, idx);
	return err;
}

/*
 * What a command returns once the device is dead, as upstream does:
 * commands that give resources back succeed (the device holds nothing
 * any more), so that teardown runs through without a failure line each;
 * every other command fails with -ENOLINK.
 */
static int mlx5_cmd_dead_result(u16 opcode, void *out, int outlen)
{
	memset(out, 0, outlen);
	switch (opcode) {
	case MLX5_CMD_OP_TEARDOWN_HCA:
	case MLX5_CMD_OP_DISABLE_HCA:
	case MLX5_CMD_OP_MANAGE_PAGES:
	case MLX5_CMD_OP_DESTROY_MKEY:
	case MLX5_CMD_OP_DESTROY_EQ:
	case MLX5_CMD_OP_DESTROY_CQ:
	case MLX5_CMD_OP_DEALLOC_Q_COUNTER:
	case MLX5_CMD_OP_DEALLOC_PD:
	case MLX5_CMD_OP_DEALLOC_UAR:
	case MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN:
	case MLX5_CMD_OP_DESTROY_TIR:
	case MLX5_CMD_OP_DESTROY_SQ:
	case MLX5_CMD_OP_DESTROY_RQ:
	case MLX5_CMD_OP_DESTROY_TIS:
	case MLX5_CMD_OP_DESTROY_RQT:
	case MLX5_CMD_OP_DESTROY_FLOW_TABLE:
	case MLX5_CMD_OP_DESTROY_FLOW_GROUP:
	case MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY:
	case MLX5_CMD_OP_DEALLOC_FLOW_COUNTER:
		return 0;
	default:
		return -ENOLINK;
	}
}

/**
 * mlx5_cmd_exec() - run one firmware command and wait for its output
 * @dev: the device
 * @in: command input, starting with the opcode
 * @inlen: input length in bytes
 * @out: output buffer
 * @outlen: output length in bytes, at least the 16-byte header
 *
 * Sleeps, at most about twice the command timeout (for an entry, then for
 * the answer). A failed command logs one line naming the command, its
 * opcode, status and syndrome. Once the device is in internal error,
 * commands are not posted: those that give resources back succeed, the
 * others fail with -ENOLINK, and commands in flight return at once.
 *
 * Return: 0 on success, a negative errno from the delivery, the timeout or
 * the command's status otherwise.
 */
int mlx5_cmd_exec(struct mlx5_core_dev *dev, const void *in, int inlen,
		  void *out, int outlen)
{
	struct mlx5_cmd *cmd = &mlx5_priv(dev)->cmd;
	u16 opcode = MLX5_GET(mbox_in, in, opcode);
	u16 op_mod = MLX5_GET(mbox_in, in, op_mod);
	u32 syndrome;
	int idx, err;
	u8 status;

	/* Opcode and op_mod in; status and syndrome out, at the least. */
	if (WARN_ON_ONCE(inlen < MLX5_CMD_HDR_LEN || outlen < MLX5_CMD_HDR_LEN))
		return -EINVAL;
	if (!READ_ONCE(cmd->up))
		return -ENODEV;
	if (mlx5_cmd_is_down(dev))
		return mlx5_cmd_dead_result(opcode, out, outlen);

	down_read(&cmd->mode_sem);
	err = mlx5_cmd_take_slot(dev, opcode, &idx);
	if (!err)
		err = mlx5_cmd_post_and_wait(dev, idx, in, inlen, out, outlen);
	up_read(&cmd->mode_sem);
	if (err == -ENOLINK)
		return mlx5_cmd_dead_result(opcode, out, outlen);
	if (err)
		return err;

	status = MLX5_GET(mbox_out, out, status);
	if (status == MLX5_CMD_STAT_OK)
		return 0;
	syndrome = MLX5_GET(mbox_out, out, syndrome);
	err = mlx5_cmd_status_to_errno(status);
	mlx5_cmd_log_error(dev, opcode, op_mod, status, syndrome, err);
	return err;
}

/*
 * Switch between polling and events with no command in flight: a command
 * posted in one mode is waited for in that mode.
 */
static void mlx5_cmd_set_mode(struct mlx5_core_dev *dev, bool events)
{
	struct mlx5_cmd *cmd = &mlx5_priv(dev)->cmd;

	down_write(&cmd->mode_sem);
	WRITE_ONCE(cmd->use_events, events);
	up_write(&cmd->mode_sem);
}

/**
 * mlx5_cmd_use_events() - completions come from the async EQ from now on
 * @dev: the device
 *
 * Waits for the commands in flight (each bounded by the timeout).
 */
void mlx5_cmd_use_events(struct mlx5_core_dev *dev)
{
	mlx5_cmd_set_mode(dev, true);
}

/**
 * mlx5_cmd_use_polling() - poll the ownership bit from now on
 * @dev: the device
 *
 * Waits for the commands in flight (each bounded by the timeout).
 */
void mlx5_cmd_use_polling(struct mlx5_core_dev *dev)
{
	mlx5_cmd_set_mode(dev, false);
}

/*
 * Init segment timeouts: bits 31:29 give the unit (ms, s, min, h), bits
 * 19:0 the value. The device states them only when cmd_q_init_to is set.
 */
#define MLX5_ISEG_TO_UNIT	GENMASK(31, 29)
#define MLX5_ISEG_TO_VALUE	GENMASK(19, 0)

static unsigned int mlx5_iseg_timeout_ms(u32 reg)
{
	static const unsigned int unit_ms[] = { 1, MSEC_PER_SEC,
						60 * MSEC_PER_SEC,
						3600 * MSEC_PER_SEC };
	u64 ms = (u64)FIELD_GET(MLX5_ISEG_TO_VALUE, reg) *
		 unit_ms[FIELD_GET(MLX5_ISEG_TO_UNIT, reg) & 3];

	return min_t(u64, ms, UINT_MAX);
}

/*
 * The stated timeout, at most upstream's default: a longer one only makes
 * every command of a mute firmware wait longer before it is found out.
 */
static unsigned int mlx5_cmd_timeout_ms(struct mlx5_core_dev *dev)
{
	unsigned int ms;

	if (!ioread32be(&dev->iseg->cmd_q_init_to))
		return MLX5_CMD_TIMEOUT_MS;
	ms = mlx5_iseg_timeout_ms(ioread32be(&dev->iseg->cmd_exec_to));
	if (!ms)
		return MLX5_CMD_TIMEOUT_MS;
	if (ms > MLX5_CMD_TIMEOUT_MS) {
		if (!mlx5_priv(dev)->cmd.timeout_capped)
			dev_warn(dev->device,
				 "the device states a command timeout of %u ms: using %u ms\n",
				 ms, MLX5_CMD_TIMEOUT_MS);
		mlx5_priv(dev)->cmd.timeout_capped = true;
		return MLX5_CMD_TIMEOUT_MS;
	}
	return ms;
}

/**
 * mlx5_cmd_init() - set up the command queue and hand it to the device
 * @dev: the device, firmware past its initializing phase
 *
 * Every queue starts afresh: entries free, a pool of its own; nothing of
 * a previous queue's abandoned entries is carried over. The caller waits
 * for the firmware to initialize again before the first command.
 *
 * Return: 0 or a negative errno.
 */
int mlx5_cmd_init(struct mlx5_core_dev *dev)
{
	struct mlx5_cmd *cmd = &mlx5_priv(dev)->cmd;
	u32 sz = ioread32be(&dev->iseg->cmdq_addr_l_sz) & 0xff;
	int i;

	cmd->log_sz = FIELD_GET(MLX5_CMDQ_LOG_SZ, sz);
	cmd->log_stride = FIELD_GET(MLX5_CMDQ_LOG_STRIDE, sz);
	cmd->nslots = 1 << cmd->log_sz;
	if (cmd->nslots < 2 || cmd->nslots > MLX5_CMD_MAX_SLOTS ||
	    (cmd->nslots << cmd->log_stride) > MLX5_ADAPTER_PAGE_SIZE ||
	    (1 << cmd->log_stride) < sizeof(struct mlx5_cmd_layout)) {
		dev_err(dev->device,
			"command queue of 2^%u entries of 2^%u bytes not supported\n",
			cmd->log_sz, cmd->log_stride);
		return -EINVAL;
	}

	cmd->pool = dma_pool_create("mlx5_cmd", dev->device,
				    sizeof(struct mlx5_cmd_prot_block),
				    MLX5_CMD_MBOX_ALIGN, 0);
	if (!cmd->pool)
		return -ENOMEM;

	/* One adapter page, naturally aligned as the device requires. */
	cmd->queue = dma_alloc_coherent(dev->device, MLX5_ADAPTER_PAGE_SIZE,
					&cmd->queue_dma, GFP_KERNEL);
	if (!cmd->queue) {
		dma_pool_destroy(cmd->pool);
		return -ENOMEM;
	}
	if (cmd->queue_dma & (MLX5_ADAPTER_PAGE_SIZE - 1)) {
		dev_err(dev->device, "command queue not page aligned\n");
		dma_free_coherent(dev->device, MLX5_ADAPTER_PAGE_SIZE,
				  cmd->queue, cmd->queue_dma);
		dma_pool_destroy(cmd->pool);
		return -ENOMEM;
	}

	spin_lock_init(&cmd->lock);
	init_waitqueue_head(&cmd->slot_wq);
	init_rwsem(&cmd->mode_sem);
	memset(cmd->slot, 0, sizeof(cmd->slot));
	for (i = 0; i < cmd->nslots; i++)
		init_completion(&cmd->slot[i].done);
	cmd->timeout_ms = mlx5_cmd_timeout_ms(dev);
	cmd->use_events = false;
	/* Silence is measured from the first queue on. */
	if (!cmd->unanswered)
		cmd->unanswered_since = jiffies;

	/* A previous teardown may have stopped the function's DMA. */
	pci_set_master(dev->pdev);
	iowrite32be(upper_32_bits(cmd->queue_dma), &dev->iseg->cmdq_addr_h);
	/* Low bits zero: full driver mode. */
	iowrite32be(lower_32_bits(cmd->queue_dma), &dev->iseg->cmdq_addr_l_sz);
	/* The address is in place before any doorbell. */
	wmb();
	WRITE_ONCE(cmd->up, true);
	return 0;
}

/**
 * mlx5_cmd_disable() - refuse new commands
 * @dev: the device
 *
 * Commands already running complete or time out; new ones fail with -ENODEV.
 */
void mlx5_cmd_disable(struct mlx5_core_dev *dev)
{
	WRITE_ONCE(mlx5_priv(dev)->cmd.up, false);
	wake_up_all(&mlx5_priv(dev)->cmd.slot_wq);
}

static int mlx5_cmd_abandoned(struct mlx5_cmd *cmd)
{
	unsigned long flags;
	int idx, n = 0;

	spin_lock_irqsave(&cmd->lock, flags);
	mlx5_cmd_reap(cmd);
	for (idx = 0; idx < cmd->nslots; idx++)
		n += cmd->slot[idx].state == MLX5_CMD_SLOT_ABANDONED;
	spin_unlock_irqrestore(&cmd->lock, flags);
	return n;
}

/**
 * mlx5_cmd_wait_late() - give late answers a chance before teardown
 * @dev: the device
 *
 * Commands that timed out may still be answered (and take effect on the
 * device). Before the function is disabled, wait a bounded time for the
 * abandoned entries to come back, so that what they give back is not
 * left on the device. Not when the device is dead.
 *
 * Return: how many entries are still unanswered.
 */
int mlx5_cmd_wait_late(struct mlx5_core_dev *dev)
{
	struct mlx5_cmd *cmd = &mlx5_priv(dev)->cmd;
	unsigned long deadline;
	int n;

	if (!cmd->queue || !mlx5_cmd_abandoned(cmd))
		return 0;
	deadline = jiffies + msecs_to_jiffies(max(cmd->timeout_ms,
						  MLX5_CMD_LATE_WAIT_MS));
	while ((n = mlx5_cmd_abandoned(cmd)) && !mlx5_dev_is_dead(dev) &&
	       !pci_channel_offline(dev->pdev) && time_before(jiffies, deadline))
		msleep(MLX5_CMD_LATE_POLL_MS);
	if (n)
		dev_warn(dev->device,
			 "%d command entries still unanswered, going on without them\n",
			 n);
	return n;
}

/**
 * mlx5_cmd_cleanup() - free the command queue
 * @dev: the device, its DMA stopped (bus mastering off, or reset)
 *
 * Entries still abandoned are freed with the queue, into this queue's own
 * pool, which goes with it: a device that can no longer write host memory
 * cannot answer them any more.
 */
void mlx5_cmd_cleanup(struct mlx5_core_dev *dev)
{
	struct mlx5_cmd *cmd = &mlx5_priv(dev)->cmd;
	unsigned long flags;
	int idx, n = 0;

	mlx5_cmd_disable(dev);
	spin_lock_irqsave(&cmd->lock, flags);
	for (idx = 0; idx < cmd->nslots; idx++) {
		if (cmd->slot[idx].state == MLX5_CMD_SLOT_FREE)
			continue;
		n++;
		mlx5_cmd_slot_free(cmd, idx);
	}
	spin_unlock_irqrestore(&cmd->lock, flags);
	if (n)
		dev_info(dev->device,
			 "freed %d command entries the device never answered\n",
			 n);
	dma_free_coherent(dev->device, MLX5_ADAPTER_PAGE_SIZE, cmd->queue,
			  cmd->queue_dma);
	cmd->queue = NULL;
	dma_pool_destroy(cmd->pool);
	cmd->pool = NULL;
}
