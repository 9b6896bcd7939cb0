// SPDX-License-Identifier: GPL-2.0
/*
 * vm_checkers: the VM runner's self-test (tools/testing/vm/selftest.sh
 * --kernel debug) proves that a run fails on each kind of report of the
 * debug kernel's checkers.  Loading this module with trigger=<kind> makes
 * one such report happen on purpose:
 *
 *   kasan     an out-of-bounds read of a kmalloc'ed buffer (KASAN)
 *   lockdep   two mutexes taken in both orders (lockdep: circular locking)
 *   dma       a streaming mapping unmapped with another direction than it
 *             was mapped with (DMA-API debug)
 *   kmemleak  allocations whose last pointers are dropped (kmemleak, at
 *             the runner's scan after the script)
 *   none      nothing: the module loads and unloads cleanly
 *
 * Test-only code: not part of the driver, never built by it.
 */

#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *trigger = "none";
module_param(trigger, charp, 0444);
MODULE_PARM_DESC(trigger, "none, kasan, lockdep, dma or kmemleak");

static noinline int vm_checkers_kasan(void)
{
	char *buf = kmalloc(16, GFP_KERNEL);
	size_t i = 16;
	char c;

	if (!buf)
		return -ENOMEM;
	OPTIMIZER_HIDE_VAR(i);
	c = READ_ONCE(buf[i]);
	kfree(buf);
	pr_info("vm_checkers: read %d past the end of a 16-byte buffer\n", c);
	return 0;
}

static DEFINE_MUTEX(vm_checkers_a);
static DEFINE_MUTEX(vm_checkers_b);

static noinline int vm_checkers_lockdep(void)
{
	mutex_lock(&vm_checkers_a);
	mutex_lock(&vm_checkers_b);
	mutex_unlock(&vm_checkers_b);
	mutex_unlock(&vm_checkers_a);

	mutex_lock(&vm_checkers_b);
	mutex_lock(&vm_checkers_a);
	mutex_unlock(&vm_checkers_a);
	mutex_unlock(&vm_checkers_b);
	return 0;
}

static noinline int vm_checkers_dma(void)
{
	struct platform_device_info info = {
		.name = "vm_checkers",
		.id = PLATFORM_DEVID_NONE,
		.dma_mask = DMA_BIT_MASK(64),
	};
	struct platform_device *pdev;
	dma_addr_t addr;
	void *buf;
	int err = 0;

	pdev = platform_device_register_full(&info);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	buf = kzalloc(64, GFP_KERNEL);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	addr = dma_map_single(&pdev->dev, buf, 64, DMA_TO_DEVICE);
	if (dma_mapping_error(&pdev->dev, addr)) {
		err = -EIO;
		goto out_free;
	}
	dma_unmap_single(&pdev->dev, addr, 64, DMA_FROM_DEVICE);
out_free:
	kfree(buf);
out:
	platform_device_unregister(pdev);
	return err;
}

/*
 * Eight objects, each pointer overwritten by the next: the last may live on
 * in a stale stack slot or register that kmemleak scans (a leak it cannot
 * tell from a live pointer), the seven before it cannot.
 */
static noinline int vm_checkers_kmemleak(void)
{
	int i;

	for (i = 0; i < 8; i++) {
		void *p = kmalloc(128, GFP_KERNEL);

		if (!p)
			return -ENOMEM;
		memset(p, 0x5a, 128);
		OPTIMIZER_HIDE_VAR(p);
	}
	pr_info("vm_checkers: leaked 8 objects of 128 bytes\n");
	return 0;
}

static int __init vm_checkers_init(void)
{
	if (!strcmp(trigger, "kasan"))
		return vm_checkers_kasan();
	if (!strcmp(trigger, "lockdep"))
		return vm_checkers_lockdep();
	if (!strcmp(trigger, "dma"))
		return vm_checkers_dma();
	if (!strcmp(trigger, "kmemleak"))
		return vm_checkers_kmemleak();
	if (strcmp(trigger, "none"))
		return -EINVAL;
	return 0;
}

static void __exit vm_checkers_exit(void)
{
}

module_init(vm_checkers_init);
module_exit(vm_checkers_exit);
MODULE_DESCRIPTION("Test-only: make each checker of the debug kernel report");
MODULE_LICENSE("GPL");
