// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The init segment: the first page of BAR0, through which the firmware
 * reports its revision and readiness before the command interface exists.
 */

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/jiffies.h>

#include "priv.h"

/* initializing: bit 31 is set until the firmware is ready for commands. */
#define MLX5_ISEG_INITIALIZING		BIT(31)

/* fw_rev: minor in the high half, major in the low half. */
#define MLX5_ISEG_FW_REV_MINOR		GENMASK(31, 16)
#define MLX5_ISEG_FW_REV_MAJOR		GENMASK(15, 0)

/* cmdif_rev_fw_sub: command interface revision high, fw subminor low. */
#define MLX5_ISEG_CMDIF_REV		GENMASK(31, 16)
#define MLX5_ISEG_FW_SUBMINOR		GENMASK(15, 0)

#define MLX5_ISEG_POLL_US		(10 * USEC_PER_MSEC)

/**
 * mlx5_iseg_read_versions() - read the firmware and command interface revisions
 * @dev: the device, with its init segment mapped
 */
void mlx5_iseg_read_versions(struct mlx5_core_dev *dev)
{
	u32 fw_rev = ioread32be(&dev->iseg->fw_rev);
	u32 cmdif = ioread32be(&dev->iseg->cmdif_rev_fw_sub);

	dev->fw.major = FIELD_GET(MLX5_ISEG_FW_REV_MAJOR, fw_rev);
	dev->fw.minor = FIELD_GET(MLX5_ISEG_FW_REV_MINOR, fw_rev);
	dev->fw.subminor = FIELD_GET(MLX5_ISEG_FW_SUBMINOR, cmdif);
	dev->cmdif_rev = FIELD_GET(MLX5_ISEG_CMDIF_REV, cmdif);
}

static bool mlx5_iseg_fw_ready(u32 initializing)
{
	return !(initializing & MLX5_ISEG_INITIALIZING);
}

/**
 * mlx5_iseg_wait_fw_init() - wait for the firmware to leave initialization
 * @dev: the device, with its init segment mapped
 * @timeout_ms: how long to wait
 *
 * Sleeps; warns every few seconds while the firmware is still busy.
 *
 * Return: 0 when the firmware is ready, -ENODEV when the device stopped
 * answering reads, -ETIMEDOUT when it did not become ready in time.
 */
int mlx5_iseg_wait_fw_init(struct mlx5_core_dev *dev, unsigned int timeout_ms)
{
	unsigned long start = jiffies;
	unsigned int waited_ms = 0;
	u32 val;
	int err;

	while (waited_ms < timeout_ms) {
		unsigned int step = min(timeout_ms - waited_ms,
					(unsigned int)MLX5_FW_INIT_WARN_MS);

		err = read_poll_timeout(ioread32be, val,
					val == U32_MAX || mlx5_iseg_fw_ready(val),
					MLX5_ISEG_POLL_US, step * USEC_PER_MSEC,
					false, &dev->iseg->initializing);
		if (val == U32_MAX) {
			dev_err(dev->device,
				"device not responding while waiting for firmware initialization\n");
			return -ENODEV;
		}
		if (!err)
			return 0;
		waited_ms = jiffies_to_msecs(jiffies - start);
		if (waited_ms < timeout_ms)
			dev_warn(dev->device,
				 "waiting for firmware initialization, %u ms so far\n",
				 waited_ms);
	}

	dev_err(dev->device,
		"firmware still initializing after %u ms (initializing=0x%08x), giving up\n",
		timeout_ms, val);
	return -ETIMEDOUT;
}
