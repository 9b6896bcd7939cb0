/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What cqe_delay_load.c sets and cqe_delay_prog.c counts: the state of a
 * per-completion delay, in the one slot of the program's "state" map.
 */
#ifndef CQE_DELAY_H
#define CQE_DELAY_H

#include <linux/types.h>

struct cqe_delay_state {
	/* Set by the loader. */
	__u64 delay_ns;		/* spun at each call of the delayed function,
				 * or, paced, the longest wait for an xmit
				 */
	__u32 paced;		/* wait for the next xmit, not delay_ns */
	__u32 pad;
	__u32 cpu;		/* on this CPU only */
	__u32 ring;		/* a poll with more calls than this is "long" */
	/* Counted on that CPU (one NAPI at a time: no atomics). */
	__u64 calls;		/* calls delayed */
	__u64 spun_ns;		/* time spent spinning */
	__u64 polls;		/* entries of the poll function */
	__u64 in_poll;		/* calls since the last poll entry */
	__u64 max_in_poll;	/* most calls between two poll entries */
	__u64 long_polls;	/* polls with more than @ring calls */
	__u64 xmits;		/* calls of the xmit function (any CPU) */
	__u64 timeouts;		/* paced waits that saw no xmit */
};

#endif
