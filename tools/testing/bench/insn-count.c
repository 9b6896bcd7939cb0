// SPDX-License-Identifier: GPL-2.0
/*
 * insn-count: a QEMU TCG plugin counting the guest's executed instructions
 * per vCPU, kernel text by 4 KiB page, so that a benchmark can say how many
 * instructions a packet cost and which share of them ran in one module.
 *
 * Counting is per translated block: when a block starts in the kernel's
 * top 2 GiB (kernel image and modules on x86_64), its instruction count is
 * added to the 64-byte granule it starts on (fine enough to name the
 * function it ran in); blocks elsewhere in the kernel half are summed as
 * "kernel_other", user blocks as "user".  Counts are kept per vCPU (no
 * atomics: each vCPU writes only its own array; the arrays are sparse,
 * only the granules of code that ran take memory).
 *
 * Snapshots on request, so one VM can measure several workloads, at an
 * exact point of the guest's instruction stream: the guest (whose results
 * directory is the host's, over 9p) writes a name and a newline into
 * DIR/insn.req (or several names, a line each), then executes the marker
 * instruction (xchg %rbx,%rbx in user mode: the insn-mark program); the
 * plugin, in that vCPU's thread before the instruction completes, writes
 * every non-zero count to DIR/insn-NAME.txt (renamed into place when
 * complete) and consumes the request's first line.  No other guest
 * instruction runs meanwhile (TCG runs the vCPUs in one thread, vm/run's
 * default): a window between two snapshots holds what the guest ran
 * between the two markers and nothing of the host's polling.  What the
 * guest runs there still follows the host's speed where its timers do.
 * insn-report takes the difference of two.
 *
 *   -plugin /path/insn-count.so,dir=DIR
 *
 * Output lines:
 *   unit 64
 *   vcpu N user COUNT kernel_other COUNT
 *   k N GRANULE_ADDRESS_HEX COUNT
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define KTOP_BASE	UINT64_C(0xffffffff80000000)
#define GRAN_SHIFT	6
#define NR_KGRANS	((UINT64_C(1) << 31) >> GRAN_SHIFT)
/* Two more slots per vCPU: the rest of the kernel half, and user. */
#define SLOT_KOTHER	NR_KGRANS
#define SLOT_USER	(NR_KGRANS + 1)
#define NR_SLOTS	(NR_KGRANS + 2)
#define MAX_VCPUS	64
/* A block holds at most 512 instructions (TCG_MAX_INSNS). */
#define N_BITS		10
/* What a snapshot's name may hold (it becomes part of a file name). */
#define NAME_CHARS	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."
/* The marker: xchg %rbx,%rbx, an instruction no compiler emits. */
static const uint8_t marker[] = { 0x48, 0x87, 0xdb };

static uint64_t *counts[MAX_VCPUS];
static char *dir;

static uint64_t *vcpu_counts(unsigned int vcpu)
{
	if (vcpu >= MAX_VCPUS)
		return NULL;
	return __atomic_load_n(&counts[vcpu], __ATOMIC_ACQUIRE);
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	uint64_t *c;

	if (vcpu >= MAX_VCPUS || counts[vcpu])
		return;
	c = calloc(NR_SLOTS, sizeof(*c));
	if (!c) {
		qemu_plugin_outs("insn-count: out of memory, vCPU not counted\n");
		return;
	}
	__atomic_store_n(&counts[vcpu], c, __ATOMIC_RELEASE);
}

static void write_snapshot(const char *name);

/*
 * The marker ran: the snapshot the first line of DIR/insn.req names, if one
 * is asked for (a marker without a request is ignored), in this vCPU's
 * thread; the line is consumed, the next marker takes the next one.
 */
static void mark_exec(unsigned int vcpu, void *udata)
{
	char req[4096], name[256], rest[4096];
	size_t n = 0;
	FILE *f;

	snprintf(req, sizeof(req), "%s/insn.req", dir);
	f = fopen(req, "r");
	if (!f)
		return;
	if (!fgets(name, sizeof(name), f) || !strchr(name, '\n')) {
		fprintf(stderr, "insn-count: marker with an incomplete request\n");
		fclose(f);
		unlink(req);
		return;
	}
	n = fread(rest, 1, sizeof(rest), f);
	fclose(f);
	name[strcspn(name, "\r\n")] = '\0';
	write_snapshot(name);
	if (n) {
		f = fopen(req, "w");
		if (!f || fwrite(rest, 1, n, f) != n)
			fprintf(stderr, "insn-count: cannot keep the next request\n");
		if (f)
			fclose(f);
	} else {
		unlink(req);
	}
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	uintptr_t v = (uintptr_t)udata;
	uint64_t *c = vcpu_counts(vcpu);

	if (c)
		c[v >> N_BITS] += v & ((1u << N_BITS) - 1);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t va = qemu_plugin_tb_vaddr(tb);
	uintptr_t n = qemu_plugin_tb_n_insns(tb);
	uintptr_t slot;
	size_t i;

	if (va >= KTOP_BASE)
		slot = (va - KTOP_BASE) >> GRAN_SHIFT;
	else if (va >> 63)
		slot = SLOT_KOTHER;
	else
		slot = SLOT_USER;
	if (n >= (1u << N_BITS))
		n = (1u << N_BITS) - 1;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
					     (void *)((slot << N_BITS) | n));
	if (va >> 63)
		return;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (qemu_plugin_insn_size(insn) == sizeof(marker) &&
		    !memcmp(qemu_plugin_insn_data(insn), marker, sizeof(marker)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
	}
}

/* Write DIR/insn-NAME.txt; NAME is checked to be a plain file name part. */
static void write_snapshot(const char *name)
{
	char path[4096], tmp[4096 + 8];
	unsigned int v;
	uint64_t i;
	FILE *f;

	if (!*name || strspn(name, NAME_CHARS) != strlen(name) || name[0] == '.') {
		fprintf(stderr, "insn-count: bad snapshot name '%s'\n", name);
		return;
	}
	snprintf(path, sizeof(path), "%s/insn-%s.txt", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "insn-count: %s: %s\n", tmp, strerror(errno));
		return;
	}
	fprintf(f, "# insn-count snapshot %s\nunit %u\n", name, 1u << GRAN_SHIFT);
	for (v = 0; v < MAX_VCPUS; v++) {
		uint64_t *c = vcpu_counts(v);

		if (!c)
			continue;
		fprintf(f, "vcpu %u user %llu kernel_other %llu\n", v,
			(unsigned long long)c[SLOT_USER],
			(unsigned long long)c[SLOT_KOTHER]);
		for (i = 0; i < NR_KGRANS; i++)
			if (c[i])
				fprintf(f, "k %u %llx %llu\n", v,
					(unsigned long long)(KTOP_BASE + (i << GRAN_SHIFT)),
					(unsigned long long)c[i]);
	}
	if (fclose(f) || rename(tmp, path))
		fprintf(stderr, "insn-count: cannot write %s\n", path);
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
	write_snapshot("exit");
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "dir=", 4)) {
			dir = strdup(argv[i] + 4);
		} else {
			fprintf(stderr, "insn-count: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	if (!dir) {
		fprintf(stderr, "insn-count: dir=DIR is required\n");
		return -1;
	}
	if (strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "insn-count: x86_64 guests only, not %s\n",
			info->target_name);
		return -1;
	}
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
