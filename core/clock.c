// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The PTP hardware clock (PHC) of a function.
 *
 * The device counts time in a free-running 64-bit internal timer, read
 * from the init segment as two big-endian dwords (internal_timer_h and
 * internal_timer_l), at the frequency the HCA capabilities report
 * (device_frequency_khz). The timer cannot be written or slowed, so the
 * PHC is a timecounter over it: settime and adjtime move the
 * timecounter's offset, adjfine its multiplier. The PTP core's
 * auxiliary worker folds the elapsed cycles in every overflow period, so
 * that no wrap of the cycles kept goes unseen and no product of cycles
 * and multiplier overflows.
 *
 * Without PTP support in the kernel ptp_clock_register() returns NULL
 * and the function works without a PHC.
 */

#include <linux/clocksource.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/math64.h>

#include "priv.h"

/* Timer bits the timecounter keeps: 36 minutes at 1 GHz. */
#define MLX5_CLOCK_CYCLE_BITS	41
/* The largest frequency adjustment offered, in ppb (5%). */
#define MLX5_CLOCK_MAX_ADJ_PPB	50000000

static struct mlx5_core_dev *mlx5_clock_dev(struct mlx5_clock *clock)
{
	return &container_of(clock, struct mlx5_core_priv, clock)->dev;
}

/*
 * The high dword, the low one, the high one again: a carry into the high
 * dword between the first two reads shows as a change, and the low dword
 * is read again. @sts, when given, brackets the low dword's read.
 */
static u64 mlx5_clock_read_timer(struct mlx5_core_dev *dev,
				 struct ptp_system_timestamp *sts)
{
	u32 high, high2, low;

	high = ioread32be(&dev->iseg->internal_timer_h);
	ptp_read_system_prets(sts);
	low = ioread32be(&dev->iseg->internal_timer_l);
	ptp_read_system_postts(sts);
	high2 = ioread32be(&dev->iseg->internal_timer_h);
	if (high2 != high) {
		ptp_read_system_prets(sts);
		low = ioread32be(&dev->iseg->internal_timer_l);
		ptp_read_system_postts(sts);
	}
	return (u64)high2 << 32 | low;
}

static u64 mlx5_clock_cc_read(const struct cyclecounter *cc)
{
	struct mlx5_clock *clock = container_of(cc, struct mlx5_clock, cycles);

	return mlx5_clock_read_timer(mlx5_clock_dev(clock), NULL) & cc->mask;
}

/*
 * Shift of the cyclecounter: with 2^shift >= 2^16 * kHz one unit of the
 * multiplier is finer than one scaled ppm (2^-16 ppm), but the multiplier,
 * 2^shift * 10^6 / kHz, must stay below 2^32.
 */
static u32 mlx5_clock_shift(u32 khz)
{
	u64 fits = div_u64((u64)U32_MAX * khz, NSEC_PER_MSEC);

	return min_t(u32, ilog2(khz) + 16, ilog2(fits));
}

/* ppb the multiplier can be raised by before it leaves 32 bits. */
static s32 mlx5_clock_max_adj(u32 mult)
{
	u64 room = div_u64((u64)(U32_MAX - mult) * NSEC_PER_SEC, mult);

	return min_t(u64, room, MLX5_CLOCK_MAX_ADJ_PPB);
}

static void mlx5_clock_timer_init(struct mlx5_clock *clock, u32 khz)
{
	struct cyclecounter *cc = &clock->cycles;
	u64 cycles, ns, frac = 0;

	cc->read = mlx5_clock_cc_read;
	cc->mask = CLOCKSOURCE_MASK(MLX5_CLOCK_CYCLE_BITS);
	cc->shift = mlx5_clock_shift(khz);
	cc->mult = clocksource_khz2mult(khz, cc->shift);
	clock->nominal_mult = cc->mult;
	timecounter_init(&clock->tc, cc, ktime_get_real_ns());

	/* Fold cycles in thrice a wrap, and before cycles * mult needs 64 bits. */
	cycles = min(div_u64(U64_MAX >> 1, cc->mult), div_u64(cc->mask, 3));
	ns = cyclecounter_cyc2ns(cc, cycles, 0, &frac);
	clock->overflow_period = nsecs_to_jiffies(ns) ?: HZ;
}

static int mlx5_clock_gettimex(struct ptp_clock_info *info,
			       struct timespec64 *ts,
			       struct ptp_system_timestamp *sts)
{
	struct mlx5_clock *clock = container_of(info, struct mlx5_clock, info);
	struct mlx5_core_dev *dev = mlx5_clock_dev(clock);
	u64 cycles;

	if (mlx5_dev_is_dead(dev))
		return -EIO;
	cycles = mlx5_clock_read_timer(dev, sts);
	*ts = ns_to_timespec64(mlx5_clock_cyc2time(dev, cycles));
	return 0;
}

static int mlx5_clock_settime(struct ptp_clock_info *info,
			      const struct timespec64 *ts)
{
	struct mlx5_clock *clock = container_of(info, struct mlx5_clock, info);
	unsigned long flags;

	if (mlx5_dev_is_dead(mlx5_clock_dev(clock)))
		return -EIO;
	write_seqlock_irqsave(&clock->lock, flags);
	timecounter_init(&clock->tc, &clock->cycles, timespec64_to_ns(ts));
	write_sequnlock_irqrestore(&clock->lock, flags);
	return 0;
}

static int mlx5_clock_adjtime(struct ptp_clock_info *info, s64 delta)
{
	struct mlx5_clock *clock = container_of(info, struct mlx5_clock, info);
	unsigned long flags;

	write_seqlock_irqsave(&clock->lock, flags);
	timecounter_adjtime(&clock->tc, delta);
	write_sequnlock_irqrestore(&clock->lock, flags);
	return 0;
}

/* The PTP core has checked @scaled_ppm against info->max_adj. */
static int mlx5_clock_adjfine(struct ptp_clock_info *info, long scaled_ppm)
{
	struct mlx5_clock *clock = container_of(info, struct mlx5_clock, info);
	u32 mult = adjust_by_scaled_ppm(clock->nominal_mult, scaled_ppm);
	unsigned long flags;

	if (mlx5_dev_is_dead(mlx5_clock_dev(clock)))
		return -EIO;
	/* The cycles so far count at the old rate. */
	write_seqlock_irqsave(&clock->lock, flags);
	timecounter_read(&clock->tc);
	clock->cycles.mult = mult;
	write_sequnlock_irqrestore(&clock->lock, flags);
	return 0;
}

/* The overflow check, on the PTP core's worker: returns the next delay. */
static long mlx5_clock_overflow_check(struct ptp_clock_info *info)
{
	struct mlx5_clock *clock = container_of(info, struct mlx5_clock, info);
	unsigned long flags;

	if (!mlx5_dev_is_dead(mlx5_clock_dev(clock))) {
		write_seqlock_irqsave(&clock->lock, flags);
		timecounter_read(&clock->tc);
		write_sequnlock_irqrestore(&clock->lock, flags);
	}
	return clock->overflow_period;
}

static const struct ptp_clock_info mlx5_clock_info = {
	.owner		= THIS_MODULE,
	.name		= "mlx5_ptp",
	.gettimex64	= mlx5_clock_gettimex,
	.settime64	= mlx5_clock_settime,
	.adjtime	= mlx5_clock_adjtime,
	.adjfine	= mlx5_clock_adjfine,
	.do_aux_work	= mlx5_clock_overflow_check,
};

/**
 * mlx5_clock_init() - start the timecounter and register the PHC
 * @dev: the device, its capabilities queried
 *
 * A device that reports no frequency, or a kernel without PTP support,
 * leaves the function without a PHC; nothing else depends on it.
 */
void mlx5_clock_init(struct mlx5_core_dev *dev)
{
	u32 khz = MLX5_CAP_GEN(dev, device_frequency_khz);
	struct mlx5_clock *clock = &mlx5_priv(dev)->clock;
	struct ptp_clock *ptp;

	clock->ptp = NULL;
	/* Readers of CQE stamps may come without a PHC: a valid lock. */
	seqlock_init(&clock->lock);
	if (!khz) {
		dev_warn(dev->device, "no device frequency: no PTP clock\n");
		return;
	}
	mlx5_clock_timer_init(clock, khz);
	clock->info = mlx5_clock_info;
	clock->info.max_adj = mlx5_clock_max_adj(clock->nominal_mult);

	ptp = ptp_clock_register(&clock->info, dev->device);
	if (IS_ERR(ptp)) {
		dev_warn(dev->device, "registering the PTP clock failed: %pe\n",
			 ptp);
		return;
	}
	if (!ptp)
		return;
	clock->index = ptp_clock_index(ptp);
	WRITE_ONCE(clock->ptp, ptp);
	ptp_schedule_worker(ptp, clock->overflow_period);
}

/**
 * mlx5_clock_cleanup() - unregister the PHC
 * @dev: the device
 *
 * The PTP core stops the overflow check and waits out open
 * operations; /dev/ptpN goes away.
 */
void mlx5_clock_cleanup(struct mlx5_core_dev *dev)
{
	struct mlx5_clock *clock = &mlx5_priv(dev)->clock;
	struct ptp_clock *ptp = clock->ptp;

	if (!ptp)
		return;
	WRITE_ONCE(clock->ptp, NULL);
	ptp_clock_unregister(ptp);
}

/**
 * mlx5_clock_cyc2time() - a timestamp of the timer in the PHC's time
 * @dev: the device, its PHC registered
 * @cycles: a value of the internal timer, as a CQE's timestamp holds it
 *
 * For stamps taken less than half a wrap of the cycles kept (18 minutes at
 * 1 GHz) before or after the last overflow check.
 *
 * Return: nanoseconds of the PHC.
 */
u64 mlx5_clock_cyc2time(struct mlx5_core_dev *dev, u64 cycles)
{
	struct mlx5_clock *clock = &mlx5_priv(dev)->clock;
	unsigned int seq;
	u64 ns;

	cycles &= clock->cycles.mask;
	do {
		seq = read_seqbegin(&clock->lock);
		ns = timecounter_cyc2time(&clock->tc, cycles);
	} while (read_seqretry(&clock->lock, seq));
	return ns;
}

/**
 * mlx5_clock_phc_index() - the PHC's index, for ethtool's get_ts_info
 * @dev: the device
 *
 * Return: N of /dev/ptpN, or -1 when the function has no PHC.
 */
int mlx5_clock_phc_index(struct mlx5_core_dev *dev)
{
	struct mlx5_clock *clock = &mlx5_priv(dev)->clock;

	return READ_ONCE(clock->ptp) ? clock->index : -1;
}
