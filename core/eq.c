// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Event queues and their interrupts.
 *
 * One async EQ on MSI-X vector 0 carries command completions, page
 * requests, port changes and errors; one completion EQ per further vector
 * carries CQ completions for the channels bound to it. An EQE belongs to
 * software when its owner bit equals the lap parity of the consumer index;
 * the driver initialises every owner bit to 1, so the device's first lap
 * writes 0.
 */

#include <linux/cpumask.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/slab.h>

#include "priv.h"

#define MLX5_EQ_DOORBELL_OFFSET	0x40
#define MLX5_EQ_ASYNC_NENT	256
#define MLX5_EQ_COMP_NENT	1024
#define MLX5_EQE_OWNER_INIT	1
/*
 * EQEs an interrupt takes at most (upstream's MLX5_EQ_POLLING_BUDGET):
 * then it tells the consumer index and arms, and the device, finding
 * EQEs left, interrupts again at once.  A device posting as fast as the
 * driver consumes never holds a CPU in one handler; no EQE is lost.  At
 * most half the async EQ, so that its consumer index is told before the
 * device could run out of room.
 */
#define MLX5_EQ_POLLING_BUDGET	128

static struct mlx5_eqe *mlx5_eq_next_sw(struct mlx5_eq *eq)
{
	struct mlx5_eqe *eqe = &eq->buf[eq->cons_index & (eq->nent - 1)];
	bool lap = !!(eq->cons_index & eq->nent);

	if ((eqe->owner & 1) != lap)
		return NULL;
	/* Read the EQE body only after its owner bit. */
	dma_rmb();
	return eqe;
}

static void mlx5_eq_update_ci(struct mlx5_eq *eq, bool arm)
{
	__be32 __iomem *addr = eq->doorbell + (arm ? 0 : 2);
	u32 val = (eq->cons_index & 0xffffff) | ((u32)eq->eqn << 24);

	__raw_writel((__force u32)cpu_to_be32(val), addr);
	/* Order the doorbell against later EQE reads. */
	mb();
}

static void mlx5_eq_async_event(struct mlx5_core_dev *dev,
				struct mlx5_eqe *eqe)
{
	switch (eqe->type) {
	case MLX5_EVENT_TYPE_CMD:
		mlx5_cmd_comp_handler(dev, be32_to_cpu(eqe->data.cmd.vector));
		break;
	case MLX5_EVENT_TYPE_PAGE_REQUEST:
		mlx5_pages_request(dev, be16_to_cpu(eqe->data.req_pages.func_id),
				   be32_to_cpu(eqe->data.req_pages.num_pages));
		break;
	case MLX5_EVENT_TYPE_PORT_CHANGE:
	case MLX5_EVENT_TYPE_CQ_ERROR:
		atomic_notifier_call_chain(&dev->events, eqe->type, eqe);
		break;
	default:
		dev_warn_ratelimited(dev->device,
				     "async event 0x%x subtype 0x%x\n",
				     eqe->type, eqe->sub_type);
		atomic_notifier_call_chain(&dev->events, eqe->type, eqe);
		break;
	}
}

/*
 * Take the async EQ's new EQEs, MLX5_EQ_POLLING_BUDGET at most, and arm
 * it again; returns how many.
 */
static int mlx5_eq_async_poll(struct mlx5_eq *eq)
{
	struct mlx5_eqe *eqe;
	int n = 0;

	while (n < MLX5_EQ_POLLING_BUDGET && (eqe = mlx5_eq_next_sw(eq))) {
		mlx5_eq_async_event(eq->dev, eqe);
		eq->cons_index++;
		n++;
	}
	mlx5_eq_update_ci(eq, true);
	return n;
}

static irqreturn_t mlx5_eq_async_irq(int irq, void *data)
{
	struct mlx5_eq *eq = data;

	spin_lock(&eq->lock);
	mlx5_eq_async_poll(eq);
	spin_unlock(&eq->lock);
	return IRQ_HANDLED;
}

/**
 * mlx5_eq_cmd_recover() - poll the async EQ as if its interrupt came
 * @dev: the device, in event mode (the async EQ exists)
 *
 * A command that timed out in event mode may have its answer in the EQ
 * with the interrupt lost (and the EQ left unarmed, so that no later
 * event interrupts either). Several commands timing out together each
 * poll, as upstream's mlx5_cmd_eq_recover() does, under the EQ's lock
 * with the interrupt handler: one consumer at a time, so that no EQE is
 * handled twice (a page request served twice) and the consumer index
 * never runs ahead of the producer.
 *
 * Return: the number of EQEs taken (the budget at most: the arm makes the
 * device interrupt for the rest).
 */
int mlx5_eq_cmd_recover(struct mlx5_core_dev *dev)
{
	struct mlx5_eq *eq = &dev->async_eq;
	unsigned long flags;
	int n;

	if (!eq->buf)
		return 0;
	spin_lock_irqsave(&eq->lock, flags);
	n = mlx5_eq_async_poll(eq);
	spin_unlock_irqrestore(&eq->lock, flags);
	if (n)
		dev_warn(dev->device, "recovered %d EQEs on the async EQ\n", n);
	return n;
}

/*
 * Hand each EQE of @eq to its CQ, MLX5_EQ_POLLING_BUDGET at most, then
 * rearm: the EQEs handled.
 */
static int mlx5_eq_comp_poll(struct mlx5_eq *eq)
{
	struct mlx5_eqe *eqe;
	struct mlx5_cq *cq;
	int n = 0;
	u32 cqn;

	while (n < MLX5_EQ_POLLING_BUDGET && (eqe = mlx5_eq_next_sw(eq))) {
		cqn = be32_to_cpu(eqe->data.comp.cqn) & 0xffffff;
		cq = xa_load(&eq->cqs, cqn);
		if (likely(cq))
			cq->comp(cq);
		else
			dev_warn_ratelimited(eq->dev->device,
					     "completion for unknown CQ 0x%x on EQ %u\n",
					     cqn, eq->eqn);
		eq->cons_index++;
		n++;
	}
	mlx5_eq_update_ci(eq, true);
	return n;
}

static irqreturn_t mlx5_eq_comp_irq(int irq, void *data)
{
	mlx5_eq_comp_poll(data);
	return IRQ_HANDLED;
}

static int mlx5_cmd_create_eq(struct mlx5_core_dev *dev, struct mlx5_eq *eq,
			      const u64 *events)
{
	u32 out[MLX5_ST_SZ_DW(create_eq_out)] = {};
	unsigned int npages = DIV_ROUND_UP(eq->nent * sizeof(struct mlx5_eqe),
					   MLX5_ADAPTER_PAGE_SIZE);
	int inlen = MLX5_ST_SZ_BYTES(create_eq_in) +
		    npages * MLX5_FLD_SZ_BYTES(create_eq_in, pas[0]);
	void *in, *eqc;
	unsigned int i;
	int err;

	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;

	for (i = 0; i < npages; i++)
		MLX5_ARRAY_SET64(create_eq_in, in, pas, i,
				 eq->dma + i * MLX5_ADAPTER_PAGE_SIZE);
	for (i = 0; i < 4; i++)
		MLX5_ARRAY_SET64(create_eq_in, in, event_bitmask, i, events[i]);

	eqc = MLX5_ADDR_OF(create_eq_in, in, eq_context_entry);
	MLX5_SET(eqc, eqc, log_eq_size, ilog2(eq->nent));
	MLX5_SET(eqc, eqc, uar_page, dev->async_uar.index);
	MLX5_SET(eqc, eqc, intr, eq->vecidx);
	MLX5_SET(eqc, eqc, log_page_size, 0);

	MLX5_SET(create_eq_in, in, opcode, MLX5_CMD_OP_CREATE_EQ);
	err = mlx5_cmd_exec(dev, in, inlen, out, sizeof(out));
	if (!err)
		eq->eqn = MLX5_GET(create_eq_out, out, eq_number);
	kvfree(in);
	return err;
}

static int mlx5_cmd_destroy_eq(struct mlx5_core_dev *dev, u8 eqn)
{
	u32 in[MLX5_ST_SZ_DW(destroy_eq_in)] = {};

	MLX5_SET(destroy_eq_in, in, opcode, MLX5_CMD_OP_DESTROY_EQ);
	MLX5_SET(destroy_eq_in, in, eq_number, eqn);
	return mlx5_cmd_exec_in(dev, destroy_eq, in);
}

/*
 * May the device still write @eq? Not once it acknowledged DESTROY_EQ
 * (@err 0 from a live device), nor once its DMA is off: a dead device's
 * "successful" DESTROY_EQ never reached it, but unloading a dead device
 * clears bus mastering first (mlx5_unload_one_devl_locked()). Anything
 * else (a firmware status, a timeout, a command never posted) leaves the
 * EQ to the device.
 */
static bool mlx5_eq_device_done(struct mlx5_core_dev *dev, int err)
{
	if (mlx5_dev_is_dead(dev) || pci_channel_offline(dev->pdev))
		return !dev->pdev->is_busmaster;
	return !err;
}

/* An EQ buffer the device may still write: kept until a function reset. */
struct mlx5_eq_kept_buf {
	struct list_head list;
	void *buf;
	dma_addr_t dma;
	size_t size;
};

/*
 * Give @eq's buffer back, or keep it when the device may still write EQEs
 * into it: memory freed (and unmapped) under a live EQ is device DMA into
 * whatever the kernel puts there next. A kept buffer goes back once the
 * function is reset (mlx5_eq_bufs_release()), which the next load or the
 * driver's removal does.
 */
static void mlx5_eq_free_buf(struct mlx5_core_dev *dev, struct mlx5_eq *eq,
			     int err)
{
	size_t size = eq->nent * sizeof(struct mlx5_eqe);
	struct mlx5_eq_kept_buf *kept;

	if (mlx5_eq_device_done(dev, err)) {
		dma_free_coherent(dev->device, size, eq->buf, eq->dma);
		eq->buf = NULL;
		return;
	}
	atomic_inc(&dev->eq_bufs_kept);
	dev->needs_reset = true;
	dev_warn(dev->device,
		 "keeping the buffer of EQ %u: the device may still write it (%d)\n",
		 eq->eqn, err);
	/* Without a note of it, the buffer stays the device's for good. */
	kept = kmalloc(sizeof(*kept), GFP_KERNEL);
	if (kept) {
		kept->buf = eq->buf;
		kept->dma = eq->dma;
		kept->size = size;
		list_add(&kept->list, &mlx5_priv(dev)->eq_bufs);
	}
	eq->buf = NULL;
}

/**
 * mlx5_eq_bufs_release() - free the EQ buffers a reset took from the device
 * @dev: the device, its function just reset: it forgot its EQs
 */
void mlx5_eq_bufs_release(struct mlx5_core_dev *dev)
{
	struct mlx5_eq_kept_buf *kept, *tmp;

	list_for_each_entry_safe(kept, tmp, &mlx5_priv(dev)->eq_bufs, list) {
		list_del(&kept->list);
		dma_free_coherent(dev->device, kept->size, kept->buf,
				  kept->dma);
		kfree(kept);
	}
}

static int mlx5_eq_create(struct mlx5_core_dev *dev, struct mlx5_eq *eq,
			  u16 vecidx, u32 nent, const u64 *events,
			  irq_handler_t handler, const char *kind)
{
	size_t size = nent * sizeof(struct mlx5_eqe);
	u32 i;
	int err;

	eq->dev = dev;
	eq->nent = nent;
	eq->vecidx = vecidx;
	eq->cons_index = 0;
	eq->irq = pci_irq_vector(dev->pdev, vecidx);
	xa_init(&eq->cqs);
	spin_lock_init(&eq->lock);
	eq->buf = dma_alloc_coherent(dev->device, size, &eq->dma, GFP_KERNEL);
	if (!eq->buf)
		return -ENOMEM;
	for (i = 0; i < nent; i++)
		eq->buf[i].owner = MLX5_EQE_OWNER_INIT;

	err = mlx5_cmd_create_eq(dev, eq, events);
	if (err) {
		/* A CREATE_EQ that timed out may still be carried out. */
		mlx5_eq_free_buf(dev, eq, err == -ETIMEDOUT ? err : 0);
		return err;
	}
	eq->doorbell = dev->async_uar.map + MLX5_EQ_DOORBELL_OFFSET;

	/*
	 * The handler is attached to a complete EQ only: the device may raise
	 * the vector at any time (a message left pending by a previous user
	 * of the vector, or one sent early), and the handler reads the EQ and
	 * rings its doorbell. The EQ is not armed yet: nothing is lost.
	 */
	snprintf(eq->name, sizeof(eq->name), "mlx5_%s@pci:%s", kind,
		 pci_name(dev->pdev));
	err = request_irq(eq->irq, handler, 0, eq->name, eq);
	if (err) {
		mlx5_eq_free_buf(dev, eq, mlx5_cmd_destroy_eq(dev, eq->eqn));
		eq->doorbell = NULL;
		return err;
	}
	/* The handler may be running already, for a pending message. */
	spin_lock_irq(&eq->lock);
	mlx5_eq_update_ci(eq, true);
	spin_unlock_irq(&eq->lock);
	return 0;
}

/*
 * The handler goes first: once DESTROY_EQ is sent it must not ring the
 * doorbell of an EQ the device no longer has. A message the device sends
 * meanwhile waits, masked, for the next user of the vector.
 */
static void mlx5_eq_destroy(struct mlx5_core_dev *dev, struct mlx5_eq *eq)
{
	int err;

	free_irq(eq->irq, eq);
	eq->doorbell = NULL;
	err = mlx5_cmd_destroy_eq(dev, eq->eqn);
	if (err)
		dev_warn(dev->device, "destroying EQ %u failed: %d\n",
			 eq->eqn, err);
	WARN_ON(!xa_empty(&eq->cqs));
	xa_destroy(&eq->cqs);
	mlx5_eq_free_buf(dev, eq, err);
}

static void mlx5_async_events(u64 *events)
{
	events[0] = BIT_ULL(MLX5_EVENT_TYPE_CMD) |
		    BIT_ULL(MLX5_EVENT_TYPE_PAGE_REQUEST) |
		    BIT_ULL(MLX5_EVENT_TYPE_PORT_CHANGE) |
		    BIT_ULL(MLX5_EVENT_TYPE_CQ_ERROR) |
		    BIT_ULL(MLX5_EVENT_TYPE_INTERNAL_ERROR);
	events[1] = 0;
	events[2] = 0;
	events[3] = 0;
}

/**
 * mlx5_irqs_init() - allocate MSI-X vectors: one async, one per channel
 * @dev: the device, capabilities known
 *
 * Return: 0 or a negative errno.
 */
int mlx5_irqs_init(struct mlx5_core_dev *dev)
{
	int max_eqs = 1 << MLX5_CAP_GEN(dev, log_max_eq);
	int want = 1 + min_t(int, num_online_cpus(), MLX5_MAX_COMP_EQS);
	int nvec;

	want = min(want, max_eqs);
	nvec = pci_alloc_irq_vectors(dev->pdev, 2, want, PCI_IRQ_MSIX);
	if (nvec < 0) {
		dev_err(dev->device, "cannot allocate MSI-X vectors: %d\n",
			nvec);
		return nvec;
	}
	dev->num_comp_eqs = nvec - 1;
	return 0;
}

void mlx5_irqs_cleanup(struct mlx5_core_dev *dev)
{
	pci_free_irq_vectors(dev->pdev);
}

/**
 * mlx5_eqs_init() - create the async EQ, then one completion EQ per vector
 * @dev: the device, after INIT_HCA, with its async UAR and vectors
 *
 * Once the async EQ exists, commands complete by event.
 *
 * Return: 0 or a negative errno.
 */
int mlx5_eqs_init(struct mlx5_core_dev *dev)
{
	u64 events[4];
	u64 comp_events[4] = { BIT_ULL(MLX5_EVENT_TYPE_COMP) };
	int i, cpu, err;

	mlx5_async_events(events);
	err = mlx5_eq_create(dev, &dev->async_eq, 0, MLX5_EQ_ASYNC_NENT,
			     events, mlx5_eq_async_irq, "async");
	if (err) {
		dev_err(dev->device, "creating the async EQ failed: %d\n", err);
		return err;
	}
	mlx5_cmd_use_events(dev);

	dev->comp_eqs = kcalloc(dev->num_comp_eqs, sizeof(*dev->comp_eqs),
				GFP_KERNEL);
	if (!dev->comp_eqs) {
		err = -ENOMEM;
		goto err_async;
	}
	for (i = 0; i < dev->num_comp_eqs; i++) {
		char kind[16];

		snprintf(kind, sizeof(kind), "comp%d", i);
		err = mlx5_eq_create(dev, &dev->comp_eqs[i], i + 1,
				     MLX5_EQ_COMP_NENT, comp_events,
				     mlx5_eq_comp_irq, kind);
		if (err) {
			dev_err(dev->device,
				"creating completion EQ %d failed: %d\n", i, err);
			goto err_comp;
		}
		cpu = cpumask_local_spread(i, dev_to_node(dev->device));
		dev->comp_eqs[i].cpu = cpu;
		irq_set_affinity_and_hint(dev->comp_eqs[i].irq, cpumask_of(cpu));
	}
	return 0;

err_comp:
	while (i-- > 0) {
		irq_set_affinity_and_hint(dev->comp_eqs[i].irq, NULL);
		mlx5_eq_destroy(dev, &dev->comp_eqs[i]);
	}
	kfree(dev->comp_eqs);
	dev->comp_eqs = NULL;
err_async:
	mlx5_cmd_use_polling(dev);
	mlx5_eq_destroy(dev, &dev->async_eq);
	return err;
}

void mlx5_eqs_cleanup(struct mlx5_core_dev *dev)
{
	int i;

	for (i = dev->num_comp_eqs - 1; i >= 0; i--) {
		irq_set_affinity_and_hint(dev->comp_eqs[i].irq, NULL);
		mlx5_eq_destroy(dev, &dev->comp_eqs[i]);
	}
	kfree(dev->comp_eqs);
	dev->comp_eqs = NULL;
	mlx5_cmd_use_polling(dev);
	mlx5_eq_destroy(dev, &dev->async_eq);
}

/**
 * mlx5_comp_vectors() - how many completion vectors the function has
 * @dev: the device, loaded
 *
 * Return: the number of completion EQs, one per vector.
 */
int mlx5_comp_vectors(struct mlx5_core_dev *dev)
{
	return dev->num_comp_eqs;
}

static struct mlx5_eq *mlx5_comp_eq(struct mlx5_core_dev *dev, u16 vector)
{
	if (vector >= dev->num_comp_eqs || !dev->comp_eqs)
		return NULL;
	return &dev->comp_eqs[vector];
}

/**
 * mlx5_comp_eq_recover() - poll a completion EQ whose interrupt was lost
 * @dev: the device
 * @vector: the completion vector
 *
 * An EQ rearms only from its interrupt handler: a lost interrupt leaves
 * it silent for good. Polling it hands its EQEs to their CQs and rearms
 * it. Sleeps (the interrupt is held off meanwhile).
 *
 * Return: the number of EQEs taken (the budget at most: the arm makes the
 * device interrupt for the rest), or a negative errno.
 */
int mlx5_comp_eq_recover(struct mlx5_core_dev *dev, u16 vector)
{
	struct mlx5_eq *eq = mlx5_comp_eq(dev, vector);
	int n;

	if (!eq)
		return -EINVAL;
	disable_irq(eq->irq);
	/* Handlers schedule NAPI: run it when BHs come back on here. */
	local_bh_disable();
	n = mlx5_eq_comp_poll(eq);
	local_bh_enable();
	enable_irq(eq->irq);
	return n;
}

/**
 * mlx5_comp_eqn_get() - the EQ number of a completion vector, for CQ contexts
 * @dev: the device, loaded
 * @vector: completion vector, below mlx5_comp_vectors()
 * @eqn: filled with the EQ number
 *
 * Return: 0, or -EINVAL for a vector the function does not have.
 */
int mlx5_comp_eqn_get(struct mlx5_core_dev *dev, u16 vector, u8 *eqn)
{
	struct mlx5_eq *eq = mlx5_comp_eq(dev, vector);

	if (!eq)
		return -EINVAL;
	*eqn = eq->eqn;
	return 0;
}

/**
 * mlx5_comp_irqn_get() - the Linux IRQ number of a completion vector
 * @dev: the device, loaded
 * @vector: completion vector
 *
 * Return: the IRQ number, or -EINVAL.
 */
int mlx5_comp_irqn_get(struct mlx5_core_dev *dev, u16 vector)
{
	struct mlx5_eq *eq = mlx5_comp_eq(dev, vector);

	return eq ? eq->irq : -EINVAL;
}

/**
 * mlx5_comp_vector_cpu() - the CPU a completion vector's interrupt is
 * steered to
 * @dev: the device, loaded
 * @vector: completion vector
 *
 * Return: the CPU, or -EINVAL.
 */
int mlx5_comp_vector_cpu(struct mlx5_core_dev *dev, u16 vector)
{
	struct mlx5_eq *eq = mlx5_comp_eq(dev, vector);

	return eq ? eq->cpu : -EINVAL;
}

/**
 * mlx5_cq_attach() - deliver a CQ's completions to its owner
 * @dev: the device, loaded
 * @cq: the CQ, created on the EQ of @cq->vector, not yet armed
 *
 * Return: 0, -EINVAL for a bad vector, -EBUSY if the CQ number is taken.
 */
int mlx5_cq_attach(struct mlx5_core_dev *dev, struct mlx5_cq *cq)
{
	struct mlx5_eq *eq = mlx5_comp_eq(dev, cq->vector);

	if (!eq)
		return -EINVAL;
	return xa_insert(&eq->cqs, cq->cqn, cq, GFP_KERNEL);
}

/**
 * mlx5_cq_detach() - stop delivering a CQ's completions
 * @dev: the device, loaded
 * @cq: an attached CQ
 *
 * When this returns, @cq->comp is not running and will not run again, so
 * the CQ may be destroyed and its memory freed.
 */
void mlx5_cq_detach(struct mlx5_core_dev *dev, struct mlx5_cq *cq)
{
	struct mlx5_eq *eq = mlx5_comp_eq(dev, cq->vector);

	if (WARN_ON(!eq))
		return;
	WARN_ON(xa_erase(&eq->cqs, cq->cqn) != cq);
	synchronize_irq(eq->irq);
}

/**
 * mlx5_notifier_register() - be told of the device's async events
 * @dev: the device
 * @nb: called in hard IRQ context with the EQE type as action and the
 *	&struct mlx5_eqe as data (port change, CQ error, internal error)
 *
 * Return: 0 or a negative errno.
 */
int mlx5_notifier_register(struct mlx5_core_dev *dev,
			   struct notifier_block *nb)
{
	return atomic_notifier_chain_register(&dev->events, nb);
}

/**
 * mlx5_notifier_unregister() - stop being told of async events
 * @dev: the device
 * @nb: a registered notifier; it is not running once this returns
 *
 * Return: 0 or -ENOENT.
 */
int mlx5_notifier_unregister(struct mlx5_core_dev *dev,
			     struct notifier_block *nb)
{
	return atomic_notifier_chain_unregister(&dev->events, nb);
}
