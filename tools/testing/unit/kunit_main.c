// SPDX-License-Identifier: GPL-2.0
/*
 * Runs the KUnit suites a test file registered (shim/kunit/test.h) and
 * prints KTAP: one subtest per suite, one result line per case.
 */
#include <kunit/test.h>

/* The case runs below the setjmp, nothing of the caller's lives here. */
static bool run_case(const struct kunit_case *kc)
{
	struct kunit test = { .name = kc->name };

	if (!setjmp(test.abort))
		kc->run_case(&test);
	return test.failed;
}

int main(void)
{
	unsigned int s, n = 0, failed = 0;

	while (kunit_shim_suites[n])
		n++;
	printf("KTAP version 1\n1..%u\n", n);
	for (s = 0; s < n; s++) {
		struct kunit_suite *suite = kunit_shim_suites[s];
		unsigned int c, nc = 0, suite_failed = 0;

		while (suite->test_cases[nc].run_case)
			nc++;
		printf("    KTAP version 1\n    # Subtest: %s\n    1..%u\n",
		       suite->name, nc);
		for (c = 0; c < nc; c++) {
			bool f = run_case(&suite->test_cases[c]);

			printf("    %sok %u %s\n", f ? "not " : "", c + 1,
			       suite->test_cases[c].name);
			suite_failed += f;
		}
		printf("%sok %u %s\n", suite_failed ? "not " : "", s + 1,
		       suite->name);
		failed += !!suite_failed;
	}
	return failed ? 1 : 0;
}
