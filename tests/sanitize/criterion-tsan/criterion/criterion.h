/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The part of Criterion's API libm2m's tests use, for the TSan lane only.
 *
 * Criterion runs each test in a sandbox (BoxFort) that needs an arena at
 * an address it picks at random in the whole address space, and under
 * ThreadSanitizer, which reserves most of it, it finds none ("Could not
 * initialize inheritable arena"). This header and runner.c give the same
 * tests the same semantics without it: each test runs in a child forked
 * from a parent that runs none (so that globals start fresh), with its
 * suite's and its own .init, .fini and .timeout; an assertion that fails
 * ends the child with a message naming the expression, file and line;
 * --filter takes Criterion's "suite/name" patterns.
 */
#ifndef M2M_CRITERION_TSAN_H
#define M2M_CRITERION_TSAN_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct crt_config {
	void (*init)(void);
	void (*fini)(void);
	double timeout;
	const char *description;
	bool disabled;
};

struct crt_suite {
	const char *name;
	struct crt_config config;
	struct crt_suite *next;
};

struct crt_test {
	const char *suite;
	const char *name;
	void (*fn)(void);
	struct crt_config config;
	struct crt_test *next;
};

void crt_register_test(struct crt_test *test);
void crt_register_suite(struct crt_suite *suite);
void crt_fail(const char *file, int line, bool fatal, const char *expr,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void crt_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void crt_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define Test(suite, name, ...)                                             \
	static void crt_fn_##suite##_##name(void);                         \
	static struct crt_test crt_test_##suite##_##name = {               \
		#suite, #name, crt_fn_##suite##_##name, { __VA_ARGS__ },   \
		NULL };                                                    \
	__attribute__((constructor)) static void                           \
	crt_register_##suite##_##name(void)                                \
	{                                                                  \
		crt_register_test(&crt_test_##suite##_##name);             \
	}                                                                  \
	static void crt_fn_##suite##_##name(void)

#define TestSuite(suite, ...)                                              \
	static struct crt_suite crt_suite_##suite = {                      \
		#suite, { __VA_ARGS__ }, NULL };                           \
	__attribute__((constructor)) static void                           \
	crt_register_suite_##suite(void)                                   \
	{                                                                  \
		crt_register_suite(&crt_suite_##suite);                    \
	}

/* The message is optional, as in Criterion: "" glues it on. */
#define crt_check_(fatal, cond, expr, ...)                                 \
	do {                                                               \
		if (!(cond))                                               \
			crt_fail(__FILE__, __LINE__, fatal, expr,          \
				 "" __VA_ARGS__);                          \
	} while (0)

#define cr_assert(c, ...) crt_check_(true, (c), #c, __VA_ARGS__)
#define cr_assert_not(c, ...) crt_check_(true, !(c), "!(" #c ")", __VA_ARGS__)
#define crt_cmp_(op, a, b, ...) \
	crt_check_(true, (a) op (b), #a " " #op " " #b, __VA_ARGS__)
#define cr_assert_eq(a, b, ...) crt_cmp_(==, a, b, __VA_ARGS__)
#define cr_assert_neq(a, b, ...) crt_cmp_(!=, a, b, __VA_ARGS__)
#define cr_assert_lt(a, b, ...) crt_cmp_(<, a, b, __VA_ARGS__)
#define cr_assert_leq(a, b, ...) crt_cmp_(<=, a, b, __VA_ARGS__)
#define cr_assert_gt(a, b, ...) crt_cmp_(>, a, b, __VA_ARGS__)
#define cr_assert_geq(a, b, ...) crt_cmp_(>=, a, b, __VA_ARGS__)
#define cr_assert_null(p, ...) \
	crt_check_(true, (p) == NULL, #p " == NULL", __VA_ARGS__)
#define cr_assert_not_null(p, ...) \
	crt_check_(true, (p) != NULL, #p " != NULL", __VA_ARGS__)
#define cr_assert_str_eq(a, b, ...) \
	crt_check_(true, !strcmp((a), (b)), #a " equals " #b, __VA_ARGS__)
#define cr_assert_arr_eq(a, b, n, ...)                                     \
	crt_check_(true, !memcmp((a), (b), (n)),                           \
		   #a " equals " #b " over " #n " bytes", __VA_ARGS__)
#define cr_assert_fail(...) \
	crt_fail(__FILE__, __LINE__, true, "cr_assert_fail", "" __VA_ARGS__)
#define cr_expect_fail(...) \
	crt_fail(__FILE__, __LINE__, false, "cr_expect_fail", "" __VA_ARGS__)
#define cr_skip_test(...) crt_skip("" __VA_ARGS__)
#define cr_log_info(...) crt_log(__VA_ARGS__)
#define cr_log_warn(...) crt_log(__VA_ARGS__)

#endif /* M2M_CRITERION_TSAN_H */
