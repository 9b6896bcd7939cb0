// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Included by test_core.c last: the report of a function with as many
 * queues as a 64-channel netdev with 8 traffic classes opens is complete, read through the test
 * port page by page; a fixed buffer too small for it says how much it
 * left out.
 */

#define RPT_CHANNELS	64
/* TX SQs of 8 traffic classes, ICOSQ, async ICOSQ, XDP SQ */
#define RPT_SQS		11

/* The whole report through the test port's window, page by page. */
static char *rpt_read_pages(size_t *len)
{
	uint32_t n, page, i;
	char *buf;

	tp_wr(CX_TP_SNAPSHOT, 1);
	n = (uint32_t)tp_rd(CX_TP_REPORT_LEN);
	buf = calloc(1, n + 1);
	for (page = 0; (uint64_t)page * CX_TP_REPORT_SIZE < n; page++) {
		tp_wr(CX_TP_REPORT_PAGE, page);
		for (i = 0; i < CX_TP_REPORT_SIZE &&
			    (uint64_t)page * CX_TP_REPORT_SIZE + i < n; i += 4) {
			uint32_t w = (uint32_t)cx_core_testport_read(&core,
						CX_TP_REPORT + i, 4);
			size_t at = (size_t)page * CX_TP_REPORT_SIZE + i, k;

			for (k = 0; k < 4 && at + k < n; k++)
				buf[at + k] = (char)(w >> (8 * k));
		}
	}
	tp_wr(CX_TP_REPORT_PAGE, 0);
	*len = n;
	return buf;
}

static unsigned int rpt_count(const char *text, const char *prefix)
{
	unsigned int n = 0;
	size_t plen = strlen(prefix);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, prefix, plen))
			n++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return n;
}

static bool rpt_ends_complete(const char *text, size_t len)
{
	static const char last[] = "\nreport.truncated 0\n";

	return len >= sizeof(last) - 1 &&
	       !strcmp(text + len - (sizeof(last) - 1), last);
}

static void test_report_64ch(void)
{
	struct eth_env e;
	uint32_t cqn, sqn, rqn, ch, q;
	unsigned int sqs0, rqs0;
	char *text, small[4096], *marker;
	size_t len, slen;
	bool good = eth_setup(&e, NULL);

	text = rpt_read_pages(&len);
	sqs0 = rpt_count(text, "sq.") - rpt_count(text, "sq.doorbells") -
	       rpt_count(text, "sq.errors") - rpt_count(text, "sq.recoveries");
	rqs0 = rpt_count(text, "rq.");
	free(text);
	for (ch = 0; ch < RPT_CHANNELS; ch++) {
		good &= create_cq(&e, Q_BASE + 0x30000, 6, e.comp_eq, &cqn) == 0;
		for (q = 0; q < RPT_SQS; q++)
			good &= create_sq(&e, cqn, e.tis, &sqn) == 0;
		good &= create_rq(&e, cqn, false, &rqn) == 0;
	}
	ok(good, "64 channels: a CQ, 11 SQs and an RQ each");

	text = rpt_read_pages(&len);
	ok(len > CX_TP_REPORT_SIZE && len == strlen(text),
	   "report: longer than the window, REPORT_LEN bytes");
	ok(!strcmp(text, core.report),
	   "report read page by page through the window is the snapshot");
	ok(rpt_ends_complete(text, len), "report ends with report.truncated 0");
	ok(rpt_count(text, "sq.") - rpt_count(text, "sq.doorbells") -
	   rpt_count(text, "sq.errors") - rpt_count(text, "sq.recoveries") ==
	   sqs0 + RPT_CHANNELS * RPT_SQS &&
	   rpt_count(text, "rq.") == rqs0 + RPT_CHANNELS,
	   "report: a line for each of the 704 SQs and 64 RQs");
	ok((uint32_t)cx_core_testport_read(&core, CX_TP_REPORT + CX_TP_REPORT_SIZE - 4, 4) != 0 &&
	   (tp_wr(CX_TP_REPORT_PAGE, 1000),
	    cx_core_testport_read(&core, CX_TP_REPORT, 8) == 0) &&
	   (tp_wr(CX_TP_REPORT_PAGE, 0), tp_rd(CX_TP_REPORT_PAGE) == 0),
	   "window: page 0 full, a page past the end reads 0");

	slen = cx_core_report(&core, small, sizeof(small));
	marker = strstr(small, "report.truncated ");
	ok(slen < sizeof(small) && slen == strlen(small) && marker &&
	   strtoul(marker + 17, NULL, 10) > 0 &&
	   marker[strlen(marker) - 1] == '\n' &&
	   !strncmp(small, text, (size_t)(marker - small)),
	   "a 4 KiB buffer: a prefix of whole lines, then report.truncated N > 0");
	free(text);
}

/* "msix.<v> sent=S masked=M" of the report in @text: S + M, or -1. */
static long rpt_vec(const char *text, unsigned int v, long *sent, long *masked)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), "\nmsix.%u sent=", v);
	p = strstr(text, key);
	if (!p)
		return -1;
	if (sscanf(p + 1 + strlen("msix.") + (v >= 10 ? 2 : 1),
		   " sent=%ld masked=%ld", sent, masked) != 2)
		return -1;
	return *sent + *masked;
}

static void test_report_msix(void)
{
	struct eth_env e;
	long sent, masked, sum = 0;
	unsigned int v, bad = 0;
	char *text;
	size_t len;

	uint32_t eqn;
	bool good = eth_setup(&e, NULL);

	/* Two page requests on an EQ of vector 7, armed each time. */
	good &= create_eq(EQ_BASE + 0x20000, 4, e.uar, 7,
			  1ull << MLX5_EVENT_TYPE_PAGE_REQUEST, &eqn) == 0;
	eq_doorbell(e.uar, eqn, 0, 1);
	tp_wr(CX_TP_PAGE_REQUEST, 1);
	eq_doorbell(e.uar, eqn, 1, 1);
	tp_wr(CX_TP_PAGE_REQUEST, 1);
	ok(good && fh.vec_notifies[7] == 2, "two EQEs on vector 7, two messages");
	text = rpt_read_pages(&len);
	for (v = 0; v < CX_MSIX_VECTORS; v++) {
		long n = rpt_vec(text, v, &sent, &masked);

		if (n < 0)
			n = 0;
		bad += (unsigned long)n != fh.vec_notifies[v];
		sum += n;
	}
	ok(!bad && sum > 0 && sum == (long)fh.notifies &&
	   report_val("msix.sent") == sum &&
	   report_val("msix.masked") == 0,
	   "msix.<v> lines: every vector's messages, msix.sent their sum");
	free(text);

	fh.masked_vecs = 1ull << 5;
	cx_msix(&core, 5);
	cx_msix(&core, 5);
	fh.masked_vecs = 0;
	cx_msix(&core, 5);
	text = rpt_read_pages(&len);
	ok(rpt_vec(text, 5, &sent, &masked) == 3 && sent == 1 && masked == 2 &&
	   report_val("msix.masked") == 2 && report_val("msix.sent") == sum + 1 &&
	   fh.vec_notifies[5] == 3,
	   "vector 5: 1 delivered, 2 masked counted apart; all 3 handed to the host");
	free(text);
}

static void test_report_all(void)
{
	test_report_msix();
	test_report_64ch();
}
