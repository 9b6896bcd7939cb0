// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: QEMU glue for a model of an NVIDIA ConnectX (mlx5) PCI function.
 *
 * This file owns everything QEMU: PCI config space, BAR0, MSI-X, DMA, the
 * net client and properties.  The device itself is cx_core.c, which sees
 * only struct cx_host.
 *
 * BAR0 (64 MiB, 64-bit prefetchable):
 *	0 .. 32 MiB		decoded by the core (init segment, later UARs)
 *	32 MiB			MSI-X table, 64 vectors
 *	32 MiB + 64 KiB		MSI-X PBA
 *
 * BAR2 (64 KiB, 32-bit): the test port, for tests only; not hardware.
 * testport=off leaves it out, so that the function looks like a real
 * ConnectX to the guest (the selftests' stand-in for real hardware).
 *
 * One instance is one physical port.  A two-port adapter is two functions
 * of one slot:
 *	-device cxsim,addr=4.0,multifunction=on,netdev=p0
 *	-device cxsim,addr=4.1,netdev=p1
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/pci/pcie.h"
#include "hw/pci/msix.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "net/net.h"
#include "sysemu/dma.h"
#include "qemu/timer.h"
#include "qemu/notify.h"
#include "qemu/range.h"
#include "qom/object.h"
#include "sysemu/sysemu.h"

#include "cx_core.h"
#include "trace.h"

#define TYPE_CXSIM			"cxsim"
#define PCI_VENDOR_ID_MELLANOX_CX	0x15b3
#define CXSIM_PCIE_CAP_OFFSET		0x60
/*
 * Vendor-specific capability: upstream mlx5 looks for it at probe (pci_vsc)
 * and uses its gateway only for crash dumps and firmware reset.  Its
 * registers are plain writable config space: the semaphore works, and the
 * space select reads back "not supported", so those features fail cleanly.
 */
#define CXSIM_VSC_OFFSET		0xa0
#define CXSIM_VSC_SIZE			0x18
/*
 * Advanced error reporting (aer=on), the first extended capability, as
 * e1000e has it: QEMU's pcie_aer_inject_error reports through it to the
 * root port above the function (behind a pcie-root-port; on pcie.0 the
 * function is a root complex integrated endpoint and reports nowhere).
 */
#define CXSIM_AER_OFFSET		0x100
/* The core's native port number for this function. */
#define CXSIM_PORT			1

OBJECT_DECLARE_SIMPLE_TYPE(CxsimState, CXSIM)

struct CxsimState {
	PCIDevice parent_obj;

	MemoryRegion bar0;
	MemoryRegion mmio;
	MemoryRegion testport;
	NICState *nic;
	NICConf conf;
	QEMUTimer *timer;
	Notifier exit_notifier;

	char *model;
	char *report;
	bool mpwqe;
	bool cqe_comp;
	bool vlan_insert;
	char *inline_mode;
	bool testport_on;
	bool aer;
	uint64_t latency_ns;
	uint64_t jitter_ns;
	uint64_t seed;
	uint32_t sq_budget;
	uint32_t speed_mbps;
	uint16_t subsys_ven;
	uint16_t subsys;
	/* Model errors shown on stderr so far (the first CXSIM_ERRORS_SHOWN). */
	unsigned int errors_shown;

	struct cx_core core;
};

/* Model errors each function prints to stderr before it goes quiet. */
#define CXSIM_ERRORS_SHOWN	20

/*
 * Guest memory through the function's bus master address space: behind an
 * IOMMU, translated and checked by it.  With bus mastering off the device
 * cannot issue the request at all: CX_DMA_BLOCKED, not an error.
 */
static bool cxsim_bus_master(CxsimState *s)
{
	return pci_get_word(PCI_DEVICE(s)->config + PCI_COMMAND) &
	       PCI_COMMAND_MASTER;
}

static int cxsim_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
	CxsimState *s = opaque;

	if (!cxsim_bus_master(s)) {
		memset(buf, 0xff, len);
		return CX_DMA_BLOCKED;
	}
	return pci_dma_read(PCI_DEVICE(s), addr, buf, len) == MEMTX_OK ? 0 : -1;
}

static int cxsim_dma_write(void *opaque, uint64_t addr, const void *buf,
			   size_t len)
{
	CxsimState *s = opaque;

	if (!cxsim_bus_master(s))
		return CX_DMA_BLOCKED;
	return pci_dma_write(PCI_DEVICE(s), addr, buf, len) == MEMTX_OK ?
	       0 : -1;
}

static void cxsim_msix_notify(void *opaque, unsigned int vector)
{
	PCIDevice *pd = PCI_DEVICE(opaque);

	trace_cxsim_msix_notify(vector);
	if (vector < CX_MSIX_VECTORS && msix_enabled(pd))
		msix_notify(pd, vector);
}

static bool cxsim_msix_masked(void *opaque, unsigned int vector)
{
	PCIDevice *pd = PCI_DEVICE(opaque);

	return vector >= CX_MSIX_VECTORS || !msix_enabled(pd) ||
	       msix_is_masked(pd, vector);
}

static void cxsim_send_frame(void *opaque, unsigned int port, const void *buf,
			     size_t len)
{
	CxsimState *s = opaque;

	trace_cxsim_tx(port, len);
	qemu_send_packet(qemu_get_queue(s->nic), buf, len);
}

/* Phy local loopback: back into the device, as from the wire. */
static void cxsim_loop_frame(void *opaque, unsigned int port, const void *buf,
			     size_t len)
{
	CxsimState *s = opaque;

	trace_cxsim_loop(port, len);
	cx_core_receive(&s->core, buf, len);
}

static uint64_t cxsim_now_ns(void *opaque)
{
	return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void cxsim_timer_mod(void *opaque, uint64_t deadline_ns)
{
	CxsimState *s = opaque;

	if (deadline_ns)
		timer_mod(s->timer, deadline_ns);
	else
		timer_del(s->timer);
}

static void cxsim_timer_cb(void *opaque)
{
	CxsimState *s = opaque;

	cx_core_timer(&s->core);
}

static void G_GNUC_PRINTF(2, 3) cxsim_log(void *opaque, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (!qemu_loglevel_mask(LOG_GUEST_ERROR))
		return;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	qemu_log_mask(LOG_GUEST_ERROR, "%s", msg);
	g_free(msg);
}

/*
 * A model error: on stderr (the runner's qemu-stderr.log) whatever the log
 * level, the first CXSIM_ERRORS_SHOWN of each function; the report counts
 * them all.  Under -d guest_errors cxsim_log() has shown it already.
 */
static void cxsim_model_error(void *opaque, const char *kind, const char *msg)
{
	CxsimState *s = opaque;
	const char *id = DEVICE(s)->id ? DEVICE(s)->id : "cxsim";

	trace_cxsim_model_error(kind);
	if (qemu_loglevel_mask(LOG_GUEST_ERROR) ||
	    s->errors_shown > CXSIM_ERRORS_SHOWN)
		return;
	if (s->errors_shown++ == CXSIM_ERRORS_SHOWN) {
		fprintf(stderr, "cxsim %s: model error: further ones not shown (the report counts them)\n",
			id);
		return;
	}
	fprintf(stderr, "cxsim %s: model error %s: %s%s", id, kind, msg,
		*msg && msg[strlen(msg) - 1] == '\n' ? "" : "\n");
}

static uint64_t cxsim_mmio_read(void *opaque, hwaddr addr, unsigned int size)
{
	CxsimState *s = opaque;
	uint64_t val = cx_core_bar0_read(&s->core, addr, size);

	trace_cxsim_bar0_read(addr, size, val);
	return val;
}

static void cxsim_mmio_write(void *opaque, hwaddr addr, uint64_t val,
			     unsigned int size)
{
	CxsimState *s = opaque;

	trace_cxsim_bar0_write(addr, size, val);
	cx_core_bar0_write(&s->core, addr, val, size);
}

static const MemoryRegionOps cxsim_mmio_ops = {
	.read = cxsim_mmio_read,
	.write = cxsim_mmio_write,
	.endianness = DEVICE_LITTLE_ENDIAN,
	.valid = {
		.min_access_size = 1,
		.max_access_size = 8,
		.unaligned = true,
	},
	.impl = {
		.min_access_size = 1,
		.max_access_size = 8,
		.unaligned = true,
	},
};

static uint64_t cxsim_testport_read(void *opaque, hwaddr addr,
				    unsigned int size)
{
	CxsimState *s = opaque;

	return cx_core_testport_read(&s->core, addr, size);
}

static void cxsim_testport_write(void *opaque, hwaddr addr, uint64_t val,
				 unsigned int size)
{
	CxsimState *s = opaque;

	trace_cxsim_testport_write(addr, val);
	cx_core_testport_write(&s->core, addr, val, size);
}

static const MemoryRegionOps cxsim_testport_ops = {
	.read = cxsim_testport_read,
	.write = cxsim_testport_write,
	.endianness = DEVICE_LITTLE_ENDIAN,
	.valid = {
		.min_access_size = 1,
		.max_access_size = 8,
	},
	.impl = {
		.min_access_size = 1,
		.max_access_size = 8,
	},
};

/* At QEMU exit: the report into the file the report= property names. */
static void cxsim_exit_notify(Notifier *n, void *data)
{
	CxsimState *s = container_of(n, CxsimState, exit_notifier);
	size_t len;
	const char *buf = cx_core_report_text(&s->core, &len);
	GError *err = NULL;

	if (s->core.stats.model_errors)
		fprintf(stderr, "cxsim %s: %llu model errors (report %s)\n",
			DEVICE(s)->id ? DEVICE(s)->id : "cxsim",
			(unsigned long long)s->core.stats.model_errors,
			s->report);
	if (!g_file_set_contents(s->report, buf, len, &err)) {
		error_report("cxsim: cannot write report %s: %s", s->report,
			     err->message);
		g_error_free(err);
	}
}

static ssize_t cxsim_receive(NetClientState *nc, const uint8_t *buf,
			     size_t size)
{
	CxsimState *s = qemu_get_nic_opaque(nc);

	trace_cxsim_rx(size);
	return cx_core_receive(&s->core, buf, size);
}

static void cxsim_set_link_status(NetClientState *nc)
{
	CxsimState *s = qemu_get_nic_opaque(nc);

	cx_core_set_link(&s->core, !nc->link_down);
}

static NetClientInfo cxsim_net_info = {
	.type = NET_CLIENT_DRIVER_NIC,
	.size = sizeof(NICState),
	.receive = cxsim_receive,
	.link_status_changed = cxsim_set_link_status,
};

static int cxsim_init_msix(CxsimState *s, Error **errp)
{
	PCIDevice *pd = PCI_DEVICE(s);
	unsigned int i;
	int ret;

	ret = msix_init(pd, CX_MSIX_VECTORS, &s->bar0, 0, CX_MSIX_TABLE_OFFSET,
			&s->bar0, 0, CX_MSIX_PBA_OFFSET, 0, errp);
	if (ret)
		return ret;
	for (i = 0; i < CX_MSIX_VECTORS; i++)
		msix_vector_use(pd, i);
	return 0;
}

static int cxsim_init_vsc(PCIDevice *pd, Error **errp)
{
	int off;

	off = pci_add_capability(pd, PCI_CAP_ID_VNDR, CXSIM_VSC_OFFSET,
				 CXSIM_VSC_SIZE, errp);
	if (off < 0)
		return off;
	pd->config[off + PCI_CAP_FLAGS] = CXSIM_VSC_SIZE;
	/* ctrl, counter, semaphore, address, data: writable, read back. */
	memset(pd->wmask + off + 4, 0xff, CXSIM_VSC_SIZE - 4);
	return 0;
}

/*
 * The inline property: none, l2, ip or tcp, as MLX5_INLINE_MODE_* (0..3,
 * <linux/mlx5/device.h>); -1 for anything else.
 */
static int cxsim_inline_mode(const char *s)
{
	static const char * const names[] = { "none", "l2", "ip", "tcp" };
	int i;

	if (!s)
		return 0;
	for (i = 0; i < (int)ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

static void cxsim_init_core(CxsimState *s, enum cx_model model)
{
	struct cx_host host = {
		.opaque = s,
		.dma_read = cxsim_dma_read,
		.dma_write = cxsim_dma_write,
		.msix_notify = cxsim_msix_notify,
		.msix_masked = cxsim_msix_masked,
		.send_frame = cxsim_send_frame,
		.loop_frame = cxsim_loop_frame,
		.now_ns = cxsim_now_ns,
		.timer_mod = cxsim_timer_mod,
		.log = cxsim_log,
		.model_error = cxsim_model_error,
	};
	struct cx_params params;

	cx_core_default_params(&params);
	params.model = model;
	params.mpwqe = s->mpwqe;
	params.cqe_comp = s->cqe_comp;
	params.vlan_insert = s->vlan_insert;
	params.min_inline = cxsim_inline_mode(s->inline_mode);
	memcpy(params.mac, s->conf.macaddr.a, sizeof(params.mac));
	params.latency_ns = s->latency_ns;
	params.jitter_ns = s->jitter_ns;
	params.seed = s->seed;
	params.sq_budget = s->sq_budget;
	params.speed_mbps = s->speed_mbps;
	cx_core_init(&s->core, &host, &params);
}

static void cxsim_pcie_exit(PCIDevice *pd)
{
	if (pd->exp.aer_cap)
		pcie_aer_exit(pd);
	if (pci_is_express(pd))
		pcie_cap_exit(pd);
}

static void cxsim_realize(PCIDevice *pd, Error **errp)
{
	CxsimState *s = CXSIM(pd);
	enum cx_model model;
	uint8_t *conf = pd->config;

	if (cx_model_parse(s->model ? s->model : "cx5", &model)) {
		error_setg(errp, "cxsim: unknown model '%s' (cx5, cx6dx, cx7)",
			   s->model);
		return;
	}
	if (cxsim_inline_mode(s->inline_mode) < 0) {
		error_setg(errp, "cxsim: unknown inline mode '%s' (none, l2, ip, tcp)",
			   s->inline_mode);
		return;
	}

	/* Bounded so that latency + jitter never wraps the clock. */
	if (s->latency_ns > NANOSECONDS_PER_SECOND ||
	    s->jitter_ns > NANOSECONDS_PER_SECOND) {
		error_setg(errp, "cxsim: latency and jitter are at most 1 s (in ns)");
		return;
	}

	pci_config_set_device_id(conf, cx_model_device_id(model));
	pci_set_word(conf + PCI_SUBSYSTEM_VENDOR_ID, s->subsys_ven);
	pci_set_word(conf + PCI_SUBSYSTEM_ID, s->subsys);
	conf[PCI_INTERRUPT_PIN] = 1;

	memory_region_init(&s->bar0, OBJECT(s), "cxsim-bar0", CX_BAR0_SIZE);
	memory_region_init_io(&s->mmio, OBJECT(s), &cxsim_mmio_ops, s,
			      "cxsim-mmio", CX_CORE_MMIO_SIZE);
	memory_region_add_subregion(&s->bar0, 0, &s->mmio);
	pci_register_bar(pd, 0, PCI_BASE_ADDRESS_SPACE_MEMORY |
			 PCI_BASE_ADDRESS_MEM_TYPE_64 |
			 PCI_BASE_ADDRESS_MEM_PREFETCH, &s->bar0);

	if (s->testport_on) {
		memory_region_init_io(&s->testport, OBJECT(s),
				      &cxsim_testport_ops, s, "cxsim-testport",
				      CX_TESTPORT_SIZE);
		pci_register_bar(pd, 2, PCI_BASE_ADDRESS_SPACE_MEMORY,
				 &s->testport);
	}

	if (pci_is_express(pd)) {
		if (pcie_endpoint_cap_init(pd, CXSIM_PCIE_CAP_OFFSET) < 0) {
			error_setg(errp, "cxsim: cannot add the PCIe capability");
			return;
		}
		/* Function level reset: resets the function as hardware does. */
		pcie_cap_flr_init(pd);
	}
	if (s->aer) {
		if (!pci_is_express(pd)) {
			error_setg(errp, "cxsim: aer=on needs a PCIe bus");
			return;
		}
		/* Device Control's error reporting enables, writable. */
		pcie_cap_deverr_init(pd);
		if (pcie_aer_init(pd, PCI_ERR_VER, CXSIM_AER_OFFSET,
				  PCI_ERR_SIZEOF, errp) < 0) {
			pcie_cap_exit(pd);
			return;
		}
	}
	if (cxsim_init_vsc(pd, errp) || cxsim_init_msix(s, errp)) {
		cxsim_pcie_exit(pd);
		return;
	}

	qemu_macaddr_default_if_unset(&s->conf.macaddr);
	s->nic = qemu_new_nic(&cxsim_net_info, &s->conf,
			      object_get_typename(OBJECT(s)), DEVICE(s)->id,
			      &DEVICE(s)->mem_reentrancy_guard, s);
	qemu_format_nic_info_str(qemu_get_queue(s->nic), s->conf.macaddr.a);

	s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, cxsim_timer_cb, s);
	cxsim_init_core(s, model);
	if (s->report && *s->report) {
		s->exit_notifier.notify = cxsim_exit_notify;
		qemu_add_exit_notifier(&s->exit_notifier);
	}
}

static void cxsim_exit(PCIDevice *pd)
{
	CxsimState *s = CXSIM(pd);

	if (s->report && *s->report)
		qemu_remove_exit_notifier(&s->exit_notifier);
	timer_free(s->timer);
	cx_core_fini(&s->core);
	qemu_del_nic(s->nic);
	msix_unuse_all_vectors(pd);
	msix_uninit(pd, &s->bar0, &s->bar0);
	cxsim_pcie_exit(pd);
}

static void cxsim_reset(DeviceState *dev)
{
	CxsimState *s = CXSIM(dev);
	PCIDevice *pd = PCI_DEVICE(dev);

	trace_cxsim_reset();
	/* PCI core resets MSI-X; vectors stay in use for the next driver. */
	cx_core_reset(&s->core);
	if (pd->exp.aer_cap)
		pcie_cap_deverr_reset(pd);
}

/*
 * An FLR (PCIe device control bit) resets the function (cxsim_reset). A
 * write to the AER capability (the guest clearing the error status) moves
 * the first error pointer and the header log on, as a port's does.
 */
static void cxsim_write_config(PCIDevice *pd, uint32_t addr, uint32_t val,
			       int len)
{
	pci_default_write_config(pd, addr, val, len);
	if (pci_is_express(pd))
		pcie_cap_flr_write_config(pd, addr, val, len);
	if (pd->exp.aer_cap && ranges_overlap(addr, len, pd->exp.aer_cap,
					      PCI_ERR_SIZEOF))
		pcie_aer_write_config(pd, addr, val, len);
}

static const VMStateDescription cxsim_vmstate = {
	.name = TYPE_CXSIM,
	.unmigratable = 1,
};

static Property cxsim_properties[] = {
	DEFINE_NIC_PROPERTIES(CxsimState, conf),
	DEFINE_PROP_STRING("model", CxsimState, model),
	DEFINE_PROP_STRING("report", CxsimState, report),
	DEFINE_PROP_BOOL("mpwqe", CxsimState, mpwqe, true),
	DEFINE_PROP_BOOL("cqe_compression", CxsimState, cqe_comp, true),
	DEFINE_PROP_BOOL("vlan_insert", CxsimState, vlan_insert, true),
	DEFINE_PROP_STRING("inline", CxsimState, inline_mode),
	DEFINE_PROP_BOOL("testport", CxsimState, testport_on, true),
	/* The AER extended capability (off: none, as before). */
	DEFINE_PROP_BOOL("aer", CxsimState, aer, false),
	/*
	 * The asynchronous engine: doorbells' work done this long after the
	 * write (ns, plus a jitter in [0, jitter] from seed), at most
	 * sq_budget WQEs per SQ a step; latency=0,jitter=0: inside the write.
	 */
	DEFINE_PROP_UINT64("latency", CxsimState, latency_ns, 2000),
	DEFINE_PROP_UINT64("jitter", CxsimState, jitter_ns, 20000),
	DEFINE_PROP_UINT64("seed", CxsimState, seed, 1),
	DEFINE_PROP_UINT32("sq_budget", CxsimState, sq_budget, CX_SQ_BUDGET),
	/* The wire in Mb/s (0: no limit); the port still says 100G. */
	DEFINE_PROP_UINT32("speed", CxsimState, speed_mbps, 1000),
	DEFINE_PROP_UINT16("subsys_ven", CxsimState, subsys_ven,
			   PCI_VENDOR_ID_MELLANOX_CX),
	DEFINE_PROP_UINT16("subsys", CxsimState, subsys, 0x0007),
	DEFINE_PROP_END_OF_LIST(),
};

static void cxsim_class_init(ObjectClass *klass, void *data)
{
	DeviceClass *dc = DEVICE_CLASS(klass);
	PCIDeviceClass *pc = PCI_DEVICE_CLASS(klass);

	pc->realize = cxsim_realize;
	pc->exit = cxsim_exit;
	pc->config_write = cxsim_write_config;
	pc->vendor_id = PCI_VENDOR_ID_MELLANOX_CX;
	pc->device_id = 0x1017;
	pc->revision = 0;
	pc->class_id = PCI_CLASS_NETWORK_ETHERNET;

	dc->desc = "NVIDIA ConnectX (mlx5) model";
	dc->reset = cxsim_reset;
	dc->vmsd = &cxsim_vmstate;
	device_class_set_props(dc, cxsim_properties);
	set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo cxsim_info = {
	.name = TYPE_CXSIM,
	.parent = TYPE_PCI_DEVICE,
	.instance_size = sizeof(CxsimState),
	.class_init = cxsim_class_init,
	.interfaces = (InterfaceInfo[]) {
		{ INTERFACE_PCIE_DEVICE },
		{ }
	},
};

static void cxsim_register_types(void)
{
	type_register_static(&cxsim_info);
}

type_init(cxsim_register_types)
