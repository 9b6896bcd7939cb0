// SPDX-License-Identifier: GPL-2.0
/*
 * The flags cmpxchg16b leaves, as the guest reads them: only ZF is the
 * instruction's, the others are those before it. Run in the VM by
 * selftest.sh: QEMU 7.2's helper took them from a stale env->cc_op, and
 * after a popf (which ends a translated block with cc_op EFLAGS) and an
 * add, it read the add's operand as the flags (reserved bits 30 and 15
 * here), until build-qemu patched it (cxsim/qemu-patches/0001-*).
 *
 * Prints "N of ROUNDS wrong" and exits 1 when N > 0.
 */
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>

#define ROUNDS	1000
/* The add's operand: reserved RFLAGS bits 30 and 15. */
#define JUNK	0x40008000ULL
/* Bits the pushed RFLAGS may not have: 3, 5, 15, 22-63 (reserved). */
#define RESERVED	0xffffffffffc08028ULL

static alignas(16) unsigned __int128 mem;

/* popf ends QEMU's translated block; the add's flags are lazy. */
#define FLAGS_AFTER(insn, flags, junk, a, d)				\
	({								\
		asm volatile("pushq $0x202\n\tpopfq\n\t"		\
			     "addq %[j], %[j]\n\t"				\
			     insn " %[m]\n\t"					\
			     "pushfq\n\tpopq %[f]"				\
			     : [f] "=r" (flags), [j] "+r" (junk),	\
			       "+a" (a), "+d" (d), [m] "+m" (mem)	\
			     : "b" (1ULL), "c" (2ULL) : "cc", "memory");	\
	})

static uint64_t flags_after(int locked)
{
	uint64_t junk = JUNK, a = 0, d = 0, flags;

	mem = 0;
	if (locked)
		FLAGS_AFTER("lock cmpxchg16b", flags, junk, a, d);
	else
		FLAGS_AFTER("cmpxchg16b", flags, junk, a, d);
	return flags;
}

int main(void)
{
	uint64_t f, first = 0;
	int i, bad = 0;

	for (i = 0; i < ROUNDS; i++) {
		f = flags_after(i & 1);
		/* Equal: ZF set; no reserved bit. */
		if ((f & RESERVED) || !(f & 0x40)) {
			if (!bad)
				first = f;
			bad++;
		}
	}
	printf("%d of %d wrong", bad, ROUNDS);
	if (bad)
		printf(" (first: RFLAGS %#llx)", (unsigned long long)first);
	printf("\n");
	return bad != 0;
}
