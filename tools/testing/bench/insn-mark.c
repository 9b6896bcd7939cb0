// SPDX-License-Identifier: GPL-2.0
/*
 * insn-mark: run in a guest under the insn-count TCG plugin, executes the
 * plugin's marker instruction (xchg %rbx,%rbx): the plugin takes the
 * snapshot that the first line of DIR/insn.req names at that instruction.
 *
 *   insn-mark                 one marker
 *   insn-mark FILE TEXT [MS]  a marker, TEXT written to FILE, MS
 *                             milliseconds of sleep (default 0), a marker:
 *                             the two snapshots hold just that write (e.g.
 *                             "start" to pktgen's pgctrl, which returns
 *                             once pktgen is done), what the guest did
 *                             meanwhile and this program's own few
 *                             instructions, no process start or exit
 *
 * No C library: the same instructions on every run.  Exit status 0, or 1
 * when FILE cannot be opened or written.
 */
#include <fcntl.h>
#include <sys/syscall.h>

static long sys3(long nr, long a, long b, long c)
{
	long ret;

	asm volatile("syscall"
		     : "=a" (ret)
		     : "0" (nr), "D" (a), "S" (b), "d" (c)
		     : "rcx", "r11", "memory");
	return ret;
}

static void mark(void)
{
	asm volatile("xchg %%rbx, %%rbx" : : : "memory");
}

static unsigned long num(const char *s)
{
	unsigned long n = 0;

	while (*s >= '0' && *s <= '9')
		n = n * 10 + (unsigned long)(*s++ - '0');
	return n;
}

static unsigned long len(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

/* From _start, with the stack as the kernel laid it out: argc, argv[]. */
__attribute__((used, noreturn)) static void mark_main(long *sp)
{
	char **argv = (char **)(sp + 1);
	long rc = 0, fd;

	mark();
	if (sp[0] == 3 || sp[0] == 4) {
		fd = sys3(SYS_open, (long)argv[1], O_WRONLY, 0);
		if (fd < 0 ||
		    sys3(SYS_write, fd, (long)argv[2], len(argv[2])) !=
		    (long)len(argv[2]))
			rc = 1;
		if (fd >= 0)
			sys3(SYS_close, fd, 0, 0);
		if (sp[0] == 4) {
			unsigned long ms = num(argv[3]);
			long ts[2] = { ms / 1000, ms % 1000 * 1000000 };

			sys3(SYS_nanosleep, (long)ts, 0, 0);
		}
		mark();
	}
	sys3(SYS_exit, rc, 0, 0);
	__builtin_unreachable();
}

__attribute__((naked)) void _start(void)
{
	asm("mov %rsp, %rdi\n\t"
	    "and $-16, %rsp\n\t"
	    "call mark_main\n\t"
	    "ud2");
}
