// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libm2m's IR API on vhqv's IR device, in the test VM: it finds the
 * device, enables protocols, sends scancodes the kernel encodes and raw
 * pulses from libm2m's own encoders, and reads back decoded scancodes and
 * raw timings, with a timeout and a pollable fd; ir-ctl's scancodes reach
 * it too.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/lirc.h>

#include <m2m/ir.h>

static struct m2m_ir *ir;

static uint32_t rng = 1234567;

static uint32_t random32(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

#define BIT(p) (1ull << (p))
#define OK(call) cr_assert_geq((call), 0, "%s: %s", #call, m2m_last_error())

static void open_ir(void)
{
	OK(m2m_ir_open(&ir, "vhqv-ir"));
}

static void close_ir(void)
{
	m2m_ir_close(ir);
}

TestSuite(libm2m_ir, .init = open_ir, .fini = close_ir);

/* Nothing more to read: every scancode that came was accounted for. */
static void assert_drained(void)
{
	struct m2m_ir_scancode sc;

	cr_assert_eq(m2m_ir_read_scancode(ir, &sc, 200), -ETIMEDOUT,
		     "unexpected scancode %s:0x%llx",
		     m2m_ir_protocol_name(sc.protocol),
		     (unsigned long long)sc.scancode);
}

Test(libm2m_ir, finds_the_device)
{
	struct m2m_ir_info *list, info;
	size_t n;
	bool found = false;

	OK(m2m_ir_list(&list, &n));
	for (size_t i = 0; i < n; i++)
		found |= !strcmp(list[i].name, "vhqv-ir") &&
			 !strcmp(list[i].driver, "vhqv") && list[i].can_send &&
			 !strncmp(list[i].lirc, "/dev/lirc", 9);
	m2m_ir_free_list(list);
	cr_assert(found, "vhqv-ir is not listed as a device that can send");
	OK(m2m_ir_get_info(ir, &info));
	cr_assert(info.protocols & BIT(RC_PROTO_NEC));
	cr_assert(info.protocols & BIT(RC_PROTO_RCMM32));
	OK(m2m_ir_set_protocols(ir, BIT(RC_PROTO_RC5) | BIT(RC_PROTO_SONY12)));
	OK(m2m_ir_get_info(ir, &info));
	cr_assert_eq(info.enabled & ~BIT(RC_PROTO_UNKNOWN),
		     BIT(RC_PROTO_RC5) | BIT(RC_PROTO_RC5X_20) |
		     BIT(RC_PROTO_SONY12) | BIT(RC_PROTO_SONY15) |
		     BIT(RC_PROTO_SONY20));
}

Test(libm2m_ir, kernel_encoded_scancodes_round_trip)
{
	static const struct { unsigned int proto; uint32_t mask; } cases[] = {
		{ RC_PROTO_NEC, 0xffff }, { RC_PROTO_RC5, 0x1f7f },
		{ RC_PROTO_RC6_0, 0xffff }, { RC_PROTO_SONY20, 0x1fff7f },
		{ RC_PROTO_JVC, 0xffff }, { RC_PROTO_SHARP, 0x1fff },
		{ RC_PROTO_RCMM24, 0xffffff }, { RC_PROTO_SANYO, 0x1fffff },
	};
	/* One decoder at a time: some protocols' frames fit another's
	 * timings (an RC-6 leader is a Sony header). */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		OK(m2m_ir_set_protocols(ir, BIT(cases[i].proto)));
		for (int n = 0; n < 10; n++) {
			uint32_t want = random32() & cases[i].mask;
			struct m2m_ir_scancode sc;

			OK(m2m_ir_send_scancode(ir, cases[i].proto, want));
			OK(m2m_ir_read_scancode(ir, &sc, 2000));
			cr_assert_eq(sc.protocol, cases[i].proto);
			cr_assert_eq(sc.scancode, want, "%s 0x%x came back as "
				     "0x%llx", m2m_ir_protocol_name(sc.protocol),
				     want, (unsigned long long)sc.scancode);
			cr_assert_gt(sc.timestamp_ns, 0);
		}
	}
	assert_drained();
}

Test(libm2m_ir, libm2m_encoded_pulses_decode_to_the_scancodes_encoded)
{
	static const struct { unsigned int proto; uint32_t mask; } cases[] = {
		{ RC_PROTO_NEC, 0xffff }, { RC_PROTO_NECX, 0xffffff },
		{ RC_PROTO_NEC32, 0xffffffff }, { RC_PROTO_RC5, 0x1f7f },
		{ RC_PROTO_RC6_0, 0xffff }, { RC_PROTO_SONY12, 0x1f007f },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		OK(m2m_ir_set_protocols(ir, BIT(cases[i].proto)));
		for (int n = 0; n < 50; n++) {
			uint32_t want, d[256];
			struct m2m_ir_scancode sc;
			int count;

			/* NEC-X and NEC-32 whose check bytes fit a shorter
			 * NEC decode as that one: not those. */
			do
				want = random32() & cases[i].mask;
			while ((cases[i].proto == RC_PROTO_NECX &&
				!(((want >> 16) ^ ~(want >> 8)) & 0xff)) ||
			       (cases[i].proto == RC_PROTO_NEC32 &&
				!(((want >> 8) ^ ~want) & 0xff)));
			count = m2m_ir_encode(d, 256, cases[i].proto, want);
			OK(count);
			OK(m2m_ir_send_raw(ir, d, (size_t)count));
			OK(m2m_ir_read_scancode(ir, &sc, 2000));
			cr_assert_eq(sc.protocol, cases[i].proto, "%s 0x%x "
				     "came back as %s",
				     m2m_ir_protocol_name(cases[i].proto), want,
				     m2m_ir_protocol_name(sc.protocol));
			cr_assert_eq(sc.scancode, want, "%s 0x%x came back as "
				     "0x%llx", m2m_ir_protocol_name(sc.protocol),
				     want, (unsigned long long)sc.scancode);
		}
	}
	assert_drained();
}

Test(libm2m_ir, raw_timings_come_back)
{
	uint32_t d[256], got[512];
	int n, count, pulses = 0;

	OK(m2m_ir_set_protocols(ir, BIT(RC_PROTO_SONY12)));
	count = m2m_ir_encode(d, 256, RC_PROTO_SONY12, 0x10015);
	OK(count);
	OK(m2m_ir_send_raw(ir, d, (size_t)count));
	/* The gap before, the timings, and a timeout after. */
	for (int total = 0; pulses < (count + 1) / 2; total += n) {
		n = m2m_ir_read_raw(ir, got, 512, 2000);
		OK(n);
		for (int i = 0; i < n; i++) {
			if (!LIRC_IS_PULSE(got[i]))
				continue;
			cr_assert_eq(LIRC_VALUE(got[i]), d[2 * pulses],
				     "pulse %d", pulses);
			pulses++;
		}
	}
}

Test(libm2m_ir, the_fd_is_readable_with_a_scancode)
{
	struct pollfd pfd = { .fd = m2m_ir_get_fd(ir), .events = POLLIN };
	struct m2m_ir_scancode sc;

	cr_assert_geq(pfd.fd, 0);
	OK(m2m_ir_set_protocols(ir, BIT(RC_PROTO_NEC)));
	cr_assert_eq(poll(&pfd, 1, 0), 0);
	OK(m2m_ir_send_scancode(ir, RC_PROTO_NEC, 0x1234));
	cr_assert_eq(poll(&pfd, 1, 2000), 1);
	OK(m2m_ir_read_scancode(ir, &sc, 0));
	cr_assert_eq(sc.scancode, 0x1234);
	cr_assert_eq(m2m_ir_read_scancode(ir, &sc, 0), -ETIMEDOUT);
}

Test(libm2m_ir, ir_ctl_scancodes_are_read_back)
{
	struct m2m_ir_info info;
	struct m2m_ir_scancode sc;
	char cmd[128];

	OK(m2m_ir_get_info(ir, &info));
	OK(m2m_ir_set_protocols(ir, BIT(RC_PROTO_NEC) | BIT(RC_PROTO_RC6_0)));
	snprintf(cmd, sizeof(cmd), "ir-ctl -d %s -S nec:0x4c1d", info.lirc);
	cr_assert_eq(system(cmd), 0, "%s failed", cmd);
	OK(m2m_ir_read_scancode(ir, &sc, 2000));
	cr_assert_eq(sc.protocol, RC_PROTO_NEC);
	cr_assert_eq(sc.scancode, 0x4c1d);
	snprintf(cmd, sizeof(cmd), "ir-ctl -d %s -S rc6_0:0x810f", info.lirc);
	cr_assert_eq(system(cmd), 0, "%s failed", cmd);
	OK(m2m_ir_read_scancode(ir, &sc, 2000));
	cr_assert_eq(sc.protocol, RC_PROTO_RC6_0);
	cr_assert_eq(sc.scancode, 0x810f);
}

Test(libm2m_ir, bad_input_gets_lircs_codes_and_a_message)
{
	uint32_t even[2] = { 500, 500 }, zero[3] = { 500, 0, 500 };
	uint32_t *many = calloc(2049, sizeof(*many));

	cr_assert_eq(m2m_ir_send_raw(ir, even, 2), -EINVAL);
	cr_assert_not_null(strstr(m2m_last_error(), "odd count"));
	cr_assert_eq(m2m_ir_send_raw(ir, zero, 3), -EINVAL);
	cr_assert_not_null(strstr(m2m_last_error(), "timing 1 is 0"));
	cr_assert_eq(m2m_ir_send_raw(ir, even, 0), -EINVAL);
	/* More than lirc takes: its own EINVAL, with the node named. */
	for (int i = 0; i < 2049; i++)
		many[i] = 100;
	cr_assert_eq(m2m_ir_send_raw(ir, many, 2049), -EINVAL);
	cr_assert_not_null(strstr(m2m_last_error(), "/dev/lirc"));
	free(many);
	cr_assert_eq(m2m_ir_send_scancode(ir, RC_PROTO_NEC, 1ull << 32),
		     -EINVAL);
	cr_assert_eq(m2m_ir_send_scancode(ir, 999, 1), -EINVAL);
	cr_assert_eq(m2m_ir_set_protocols(ir, BIT(RC_PROTO_CEC)), -EINVAL);
	cr_assert_not_null(strstr(m2m_last_error(), "cannot decode cec"),
			   "%s", m2m_last_error());
}

Test(libm2m_ir, the_raw_fd_is_readable_with_timings)
{
	struct pollfd pfd = { .fd = m2m_ir_get_raw_fd(ir), .events = POLLIN };
	uint32_t d[256], got[512];
	int count;

	cr_assert_geq(pfd.fd, 0, "%s", m2m_last_error());
	cr_assert_neq(pfd.fd, m2m_ir_get_fd(ir));
	while (m2m_ir_read_raw(ir, got, 512, 0) > 0)
		;
	cr_assert_eq(poll(&pfd, 1, 0), 0);
	count = m2m_ir_encode(d, 256, RC_PROTO_NEC, 0x12);
	OK(count);
	OK(m2m_ir_send_raw(ir, d, (size_t)count));
	cr_assert_eq(poll(&pfd, 1, 2000), 1);
	OK(m2m_ir_read_raw(ir, got, 512, 0));
}

/* m2m_ir_list()'s reallocations fail while this is set (realloc below). */
enum { REALLOC_WORKS, REALLOC_FAILS_FOR_ALL, REALLOC_FAILS_FOR_LIBM2M };
static _Thread_local int realloc_mode;

void *__libc_realloc(void *p, size_t size);

/* Interposed for the libraries too: the test's own realloc. */
void *realloc(void *p, size_t size)
{
	Dl_info caller;

	if (realloc_mode == REALLOC_FAILS_FOR_ALL ||
	    (realloc_mode == REALLOC_FAILS_FOR_LIBM2M &&
	     dladdr(__builtin_return_address(0), &caller) &&
	     strstr(caller.dli_fname, "libm2m"))) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, size);
}

/* Out of memory, in scandir() or in libm2m's own list: -ENOMEM, not an
 * empty list that says there is no device. */
Test(libm2m_ir, list_reports_out_of_memory)
{
	struct m2m_ir_info *list = (struct m2m_ir_info *)1;
	size_t n = 1;
	int ret;

	for (int mode = REALLOC_FAILS_FOR_ALL; mode <= REALLOC_FAILS_FOR_LIBM2M;
	     mode++) {
		realloc_mode = mode;
		ret = m2m_ir_list(&list, &n);
		realloc_mode = REALLOC_WORKS;
		cr_assert_eq(ret, -ENOMEM, "mode %d: %d, %zu devices", mode,
			     ret, n);
		cr_assert_null(list);
		cr_assert_eq(n, 0);
		cr_assert_not_null(strstr(m2m_last_error(), "out of memory"),
				   "%s", m2m_last_error());
	}
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

struct reader {
	pthread_t thread;
	struct m2m_ir *ir;
	bool raw;
	int ret;
	struct m2m_ir_scancode sc;
	char message[256];
	uint64_t returned_ms;
};

static void *read_forever(void *arg)
{
	struct reader *r = arg;
	uint32_t values[64];

	r->ret = r->raw ? m2m_ir_read_raw(r->ir, values, 64, -1) :
			  m2m_ir_read_scancode(r->ir, &r->sc, -1);
	snprintf(r->message, sizeof(r->message), "%s", m2m_last_error());
	r->returned_ms = now_ms();
	return NULL;
}

/* The IR handle's threads: docs/libm2m.md "Threads". */

/* A read waiting for a scancode does not keep another thread from
 * sending it. */
Test(libm2m_ir, one_thread_reads_while_another_sends, .timeout = 30)
{
	struct reader r = { .ir = ir };

	OK(m2m_ir_set_protocols(ir, BIT(RC_PROTO_NEC)));
	cr_assert_eq(pthread_create(&r.thread, NULL, read_forever, &r), 0);
	usleep(200000);
	OK(m2m_ir_send_scancode(ir, RC_PROTO_NEC, 0x2a15));
	pthread_join(r.thread, NULL);
	cr_assert_eq(r.ret, 0, "%s", r.message);
	cr_assert_eq(r.sc.scancode, 0x2a15);
}

/* m2m_ir_close() from another thread ends reads without a timeout. */
static void close_during_read(bool raw)
{
	struct reader r = { .ir = ir, .raw = raw };
	uint64_t closed_ms;

	/* Nothing decodes (or comes back raw) while nothing is sent. */
	while (m2m_ir_read_raw(ir, (uint32_t[64]){ 0 }, 64, 0) > 0)
		;
	cr_assert_eq(pthread_create(&r.thread, NULL, read_forever, &r), 0);
	usleep(200000);
	closed_ms = now_ms();
	m2m_ir_close(r.ir);
	pthread_join(r.thread, NULL);
	ir = NULL;
	cr_assert_eq(r.ret, -EINVAL, "%d: %s", r.ret, r.message);
	cr_assert_not_null(strstr(r.message, "closed"), "%s", r.message);
	cr_assert_lt(r.returned_ms - closed_ms, 2000);
	cr_assert_eq(m2m_ir_get_fd(r.ir), -EINVAL);
	cr_assert_not_null(strstr(m2m_last_error(), "closed or invalid"));
}

Test(libm2m_ir, close_ends_a_scancode_read_without_timeout, .timeout = 30)
{
	close_during_read(false);
}

Test(libm2m_ir, close_ends_a_raw_read_without_timeout, .timeout = 30)
{
	close_during_read(true);
}
