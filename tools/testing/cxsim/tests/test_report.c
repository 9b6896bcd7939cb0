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

static void test_report_all(void)
{
	test_report_64ch();
}
