// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The runner of criterion-tsan (see criterion/criterion.h): every test
 * matching --filter, in the order registered, each in a forked child;
 * Criterion's summary line at the end; the exit status 1 when a test
 * failed, crashed or timed out.
 */
#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "criterion/criterion.h"

/* A child's exit status for a skipped test. */
#define SKIPPED 77
/* Seconds a test may take when neither it nor its suite says. */
#define DEFAULT_TIMEOUT 600

static struct crt_test *tests, **tests_end = &tests;
static struct crt_suite *suites;
/* The child's test failed an expectation but went on. */
static bool expectation_failed;

void crt_register_test(struct crt_test *test)
{
	*tests_end = test;
	tests_end = &test->next;
}

void crt_register_suite(struct crt_suite *suite)
{
	suite->next = suites;
	suites = suite;
}

static void vreport(const char *kind, const char *file, int line,
		    const char *expr, const char *fmt, va_list ap)
{
	fprintf(stderr, "[----] %s:%d: %s\n[----]   %s", file, line, kind,
		expr);
	if (*fmt) {
		fprintf(stderr, ": ");
		vfprintf(stderr, fmt, ap);
	}
	fprintf(stderr, "\n");
}

void crt_fail(const char *file, int line, bool fatal, const char *expr,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fatal ? "Assertion Failed" : "Expectation Failed", file, line,
		expr, fmt, ap);
	va_end(ap);
	if (fatal)
		exit(1);
	expectation_failed = true;
}

void crt_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "[SKIP] ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(SKIPPED);
}

void crt_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
}

static const struct crt_config *suite_config(const char *name)
{
	static const struct crt_config none;
	const struct crt_suite *s;

	for (s = suites; s && strcmp(s->name, name); s = s->next)
		;
	return s ? &s->config : &none;
}

static void run_in_child(const struct crt_test *t)
{
	const struct crt_config *suite = suite_config(t->suite);
	double timeout = t->config.timeout ? t->config.timeout :
			 suite->timeout ? suite->timeout : DEFAULT_TIMEOUT;

	alarm((unsigned int)timeout + 1);
	if (suite->init)
		suite->init();
	if (t->config.init)
		t->config.init();
	t->fn();
	if (t->config.fini)
		t->config.fini();
	if (suite->fini)
		suite->fini();
	exit(expectation_failed ? 1 : 0);
}

/* Run one test; its outcome: 0 passed, 1 failed, 2 crashed, 3 skipped. */
static int run(const struct crt_test *t)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0)
		run_in_child(t);
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		return 2;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == SKIPPED)
		return 3;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
		fprintf(stderr, "[FAIL] %s::%s: Timed out.\n", t->suite,
			t->name);
		return 1;
	}
	fprintf(stderr, "[FAIL] %s::%s%s\n", t->suite, t->name,
		WIFSIGNALED(status) ? ": CRASH!" : "");
	return WIFSIGNALED(status) ? 2 : 1;
}

int main(int argc, char **argv)
{
	const char *filter = "*";
	unsigned int counts[4] = { 0 }, tested = 0;
	const struct crt_test *t;
	char full[256];
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--filter") && i + 1 < argc)
			filter = argv[++i];
		else if (!strncmp(argv[i], "--filter=", 9))
			filter = argv[i] + 9;
		/* Tests run one at a time here: --jobs and -jN are moot. */
		else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
			i++;
		else if (strncmp(argv[i], "-j", 2) && strncmp(argv[i],
			 "--jobs=", 7)) {
			fprintf(stderr, "usage: %s [--filter SUITE/NAME]\n",
				argv[0]);
			return 2;
		}
	}
	for (t = tests; t; t = t->next) {
		snprintf(full, sizeof(full), "%s/%s", t->suite, t->name);
		if (t->config.disabled || fnmatch(filter, full, 0))
			continue;
		counts[run(t)]++;
		tested++;
	}
	fprintf(stderr, "[====] Synthesis: Tested: %u | Passing: %u | "
		"Failing: %u | Crashing: %u | Skipped: %u\n", tested,
		counts[0], counts[1] + counts[2], counts[2], counts[3]);
	return counts[1] || counts[2] ? 1 : 0;
}
