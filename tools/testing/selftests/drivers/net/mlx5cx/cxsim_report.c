// SPDX-License-Identifier: GPL-2.0
/*
 * cxsim_report [BDF...]: what "cxsim.py report" prints (the model's
 * report of each cxsim function, or of every one), read from the test
 * port (BAR2) in C. The selftests read the report hundreds of times a
 * run; under TCG a Python start and its word-by-word loop over the
 * window take about half a second each, this a few milliseconds.
 *
 * The test port's layout is cxsim.py's (REG_SNAPSHOT, REG_REPORT_LEN,
 * REG_REPORT_PAGE, the window at REPORT); see tools/testing/cxsim.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define VENDOR		0x15b3
#define MAGIC		0x4d534358
#define REG_MAGIC	0x000
#define REG_SNAPSHOT	0x008
#define REG_REPORT_LEN	0x080
#define REG_REPORT_PAGE	0x084
#define REPORT		0x8000
#define SIZE		0x10000
#define REPORT_PAGE	(SIZE - REPORT)
#define MAX_FUNCS	64
#define TRUNCATED	"report.truncated "

static const char *sysfs = "/sys/bus/pci/devices";

/* One aligned 32-bit access each, which the compiler may not drop. */
static uint32_t rd(uint32_t *bar, unsigned int off)
{
	return __atomic_load_n(&bar[off / 4], __ATOMIC_RELAXED);
}

static void wr(uint32_t *bar, unsigned int off, uint32_t val)
{
	__atomic_store_n(&bar[off / 4], val, __ATOMIC_RELAXED);
}

/* Memory decoding on, through config space (as cxsim.py). */
static int decode_on(const char *bdf)
{
	char path[256];
	uint8_t cmd[2];
	int fd, ret = -1;

	snprintf(path, sizeof(path), "%s/%s/config", sysfs, bdf);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -1;
	if (pread(fd, cmd, 2, 4) == 2) {
		ret = 0;
		if (!(cmd[0] & 0x2)) {
			cmd[0] |= 0x2;
			if (pwrite(fd, cmd, 2, 4) != 2)
				ret = -1;
		}
	}
	close(fd);
	return ret;
}

/* The snapshot's text, NUL-terminated (malloc'd), or NULL. */
static char *report_text(uint32_t *bar)
{
	uint32_t n, i, page, take, w;
	char *raw;

	wr(bar, REG_SNAPSHOT, 1);
	n = rd(bar, REG_REPORT_LEN);
	if (!n) {
		/* A model without REPORT_LEN: one window, up to the NUL. */
		raw = calloc(1, REPORT_PAGE + 1);
		for (i = 0; raw && i < REPORT_PAGE / 4; i++) {
			w = rd(bar, REPORT + i * 4);
			memcpy(raw + i * 4, &w, 4);
			if (memchr(&w, 0, 4))
				break;
		}
		return raw;
	}
	raw = malloc((size_t)n + 4);
	if (!raw)
		return NULL;
	for (page = 0; page * REPORT_PAGE < n; page++) {
		wr(bar, REG_REPORT_PAGE, page);
		take = n - page * REPORT_PAGE;
		if (take > REPORT_PAGE)
			take = REPORT_PAGE;
		for (i = 0; i < (take + 3) / 4; i++) {
			w = rd(bar, REPORT + i * 4);
			memcpy(raw + page * REPORT_PAGE + i * 4, &w, 4);
		}
	}
	wr(bar, REG_REPORT_PAGE, 0);
	raw[n] = '\0';
	return raw;
}

/* "# BDF", then the report's lines; cxsim.py prints them so ("key value"). */
static int print_report(const char *bdf)
{
	uint32_t *bar;
	char path[256], *text, *line, *next, *sp;
	int fd;

	if (decode_on(bdf)) {
		fprintf(stderr, "%s: cannot enable memory decoding: %s\n", bdf, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s/resource2", sysfs, bdf);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", bdf, path, strerror(errno));
		return -1;
	}
	bar = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (bar == MAP_FAILED) {
		fprintf(stderr, "%s: cannot map the test port (%s); %s\n",
			bdf, strerror(errno), "boot the guest with iomem=relaxed");
		return -1;
	}
	if (rd(bar, REG_MAGIC) != MAGIC) {
		fprintf(stderr, "%s: no cxsim test port (magic 0x%x)\n", bdf, rd(bar, REG_MAGIC));
		munmap(bar, SIZE);
		return -1;
	}
	text = report_text(bar);
	munmap(bar, SIZE);
	if (!text)
		return -1;
	/* A snapshot that did not fit: none of it, as cxsim.py. */
	line = text - 1;
	if (strncmp(text, TRUNCATED, strlen(TRUNCATED)))
		line = strstr(text, "\n" TRUNCATED);
	if (line && strtoull(line + 1 + strlen(TRUNCATED), NULL, 0)) {
		fprintf(stderr, "%s: the snapshot was cut short: %s\n", bdf, line + 1);
		free(text);
		return -1;
	}
	printf("# %s\n", bdf);
	for (line = text; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		/* A line without a value: a key and an empty one. */
		sp = strchr(line, ' ');
		printf("%s%s\n", line, sp ? "" : " ");
	}
	free(text);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* The cxsim functions' BDFs, sorted: their vendor, and a BAR2. */
static int functions(char **out)
{
	char path[512], buf[16];
	struct dirent *d;
	int n = 0, fd;
	ssize_t len;
	DIR *dir;

	dir = opendir(sysfs);
	if (!dir)
		return 0;
	while ((d = readdir(dir)) && n < MAX_FUNCS) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/vendor", sysfs, d->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		if (strtoul(buf, NULL, 16) != VENDOR)
			continue;
		snprintf(path, sizeof(path), "%s/%s/resource2", sysfs, d->d_name);
		if (access(path, F_OK))
			continue;
		out[n++] = strdup(d->d_name);
	}
	closedir(dir);
	qsort(out, n, sizeof(*out), cmp);
	return n;
}

int main(int argc, char **argv)
{
	char *bdfs[MAX_FUNCS];
	int i, n;

	/* The first that fails ends it, as in cxsim.py. */
	if (argc > 1) {
		for (i = 1; i < argc; i++)
			if (print_report(argv[i]))
				return 1;
		return 0;
	}
	n = functions(bdfs);
	for (i = 0; i < n; i++)
		if (print_report(bdfs[i]))
			return 1;
	return 0;
}
