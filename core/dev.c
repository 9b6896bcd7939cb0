// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The auxiliary device through which the Ethernet side attaches.
 *
 * Each function gets one auxiliary device, MLX5_DRIVER_NAME ".eth.<id>",
 * created once the hardware is first up and deleted on remove. The
 * Ethernet driver (an auxiliary driver of this same module) creates the
 * netdev in probe(). Reload and recovery do not delete the device: they
 * call the bound driver's suspend() before the hardware goes down and its
 * resume() once it is up again, so the netdev stays registered through
 * them.
 */

#include <linux/idr.h>
#include <linux/slab.h>

#include "priv.h"

static DEFINE_IDA(mlx5_adev_ida);

static void mlx5_adev_release(struct device *device)
{
	struct auxiliary_device *adev = to_auxiliary_dev(device);
	struct mlx5_adev *madev = container_of(adev, struct mlx5_adev, adev);

	ida_free(&mlx5_adev_ida, adev->id);
	kfree(madev);
}

/**
 * mlx5_adev_add() - create the function's Ethernet auxiliary device
 * @dev: the device, loaded, devlink instance locked
 *
 * A bound driver probes before this returns.
 *
 * Return: 0 or a negative errno.
 */
int mlx5_adev_add(struct mlx5_core_dev *dev)
{
	struct mlx5_adev *madev;
	struct auxiliary_device *adev;
	int id, err;

	madev = kzalloc(sizeof(*madev), GFP_KERNEL);
	if (!madev)
		return -ENOMEM;

	id = ida_alloc(&mlx5_adev_ida, GFP_KERNEL);
	if (id < 0) {
		kfree(madev);
		return id;
	}

	madev->mdev = dev;
	adev = &madev->adev;
	adev->name = MLX5_ADEV_ETH_NAME;
	adev->id = id;
	adev->dev.parent = dev->device;
	adev->dev.release = mlx5_adev_release;

	err = auxiliary_device_init(adev);
	if (err) {
		ida_free(&mlx5_adev_ida, id);
		kfree(madev);
		return err;
	}

	err = auxiliary_device_add(adev);
	if (err) {
		/* The release callback frees the id and @madev. */
		auxiliary_device_uninit(adev);
		return err;
	}
	dev->adev = madev;
	return 0;
}

/**
 * mlx5_adev_del() - delete the Ethernet auxiliary device
 * @dev: the device, devlink instance locked
 *
 * The bound driver's remove() runs before this returns.
 */
void mlx5_adev_del(struct mlx5_core_dev *dev)
{
	struct mlx5_adev *madev = dev->adev;

	if (!madev)
		return;
	dev->adev = NULL;
	auxiliary_device_delete(&madev->adev);
	auxiliary_device_uninit(&madev->adev);
}

/* The bound auxiliary driver, with the device lock held, or NULL. */
static struct auxiliary_driver *mlx5_adev_lock_driver(struct mlx5_adev *madev)
{
	struct device *device = &madev->adev.dev;

	device_lock(device);
	if (!device->driver) {
		device_unlock(device);
		return NULL;
	}
	return container_of_const(device->driver, struct auxiliary_driver,
				  driver);
}

/**
 * mlx5_adev_suspend() - tell the Ethernet side the hardware is going down
 * @dev: the device, still loaded, devlink instance locked
 */
void mlx5_adev_suspend(struct mlx5_core_dev *dev)
{
	struct auxiliary_driver *adrv;

	if (!dev->adev)
		return;
	adrv = mlx5_adev_lock_driver(dev->adev);
	if (!adrv)
		return;
	if (adrv->suspend)
		adrv->suspend(&dev->adev->adev, PMSG_SUSPEND);
	device_unlock(&dev->adev->adev.dev);
}

/**
 * mlx5_adev_resume() - tell the Ethernet side the hardware is up again
 * @dev: the device, loaded, devlink instance locked
 */
void mlx5_adev_resume(struct mlx5_core_dev *dev)
{
	struct auxiliary_driver *adrv;
	int err = 0;

	if (!dev->adev)
		return;
	adrv = mlx5_adev_lock_driver(dev->adev);
	if (!adrv)
		return;
	if (adrv->resume)
		err = adrv->resume(&dev->adev->adev);
	device_unlock(&dev->adev->adev.dev);
	if (err)
		dev_err(dev->device, "%s did not resume: %d\n",
			dev_name(&dev->adev->adev.dev), err);
}

/**
 * mlx5_adev_ida_cleanup() - at module exit, after every device is gone
 */
void mlx5_adev_ida_cleanup(void)
{
	ida_destroy(&mlx5_adev_ida);
}
