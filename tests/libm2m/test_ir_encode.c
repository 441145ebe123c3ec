// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libm2m's own IR encoders, natively: the timings read back, bit by bit,
 * as each protocol's definition says (the kernel's decoders are the
 * other judge, in vm.libm2m_ir); bad input is refused.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/lirc.h>

#include <m2m/ir.h>

#define MAX 256

/* Within a quarter of the unit of the protocol. */
static bool near(uint32_t got, uint32_t want, uint32_t unit)
{
	return got + unit / 4 >= want && got <= want + unit / 4;
}

static uint32_t rng = 88172645;

static uint32_t random32(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* NEC: header, then 32 bits by the length of the space after each mark. */
static uint32_t nec_bits(const uint32_t *d, int n)
{
	uint32_t bits = 0;

	cr_assert_eq(n, 67);
	cr_assert(near(d[0], 9000, 563) && near(d[1], 4500, 563));
	for (int i = 0; i < 32; i++) {
		cr_assert(near(d[2 + 2 * i], 563, 563), "mark %d", i);
		if (near(d[3 + 2 * i], 1689, 563))
			bits |= 1u << i;
		else
			cr_assert(near(d[3 + 2 * i], 563, 563), "space %d", i);
	}
	return bits;
}

Test(ir_encode, nec_sends_address_and_command_with_their_inverses)
{
	uint32_t d[MAX];

	for (int k = 0; k < 50; k++) {
		uint32_t sc = random32() & 0xffff, bits;

		bits = nec_bits(d, m2m_ir_encode(d, MAX, RC_PROTO_NEC, sc));
		cr_assert_eq(bits & 0xff, sc >> 8);
		cr_assert_eq(bits >> 8 & 0xff, (sc >> 8) ^ 0xff);
		cr_assert_eq(bits >> 16 & 0xff, sc & 0xff);
		cr_assert_eq(bits >> 24, (sc & 0xff) ^ 0xff);
	}
}

Test(ir_encode, nec_x_and_nec_32_carry_their_bytes)
{
	uint32_t d[MAX], bits;

	bits = nec_bits(d, m2m_ir_encode(d, MAX, RC_PROTO_NECX, 0x123456));
	cr_assert_eq(bits, 0x12u | 0x34u << 8 | 0x56u << 16 | 0xa9u << 24);
	bits = nec_bits(d, m2m_ir_encode(d, MAX, RC_PROTO_NEC32, 0x12345678));
	cr_assert_eq(bits, 0x34u | 0x12u << 8 | 0x78u << 16 | 0x56u << 24);
}

/* Bi-phase timings back to half-bit levels (1: mark), a unit each. */
static int halves(const uint32_t *d, int n, uint32_t unit, int *level,
		  int max)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		int units = (int)((d[i] + unit / 2) / unit);

		cr_assert(near(d[i], (uint32_t)units * unit, unit),
			  "timing %d: %u us", i, d[i]);
		for (int u = 0; u < units && k < max; u++)
			level[k++] = i % 2 == 0;
	}
	return k;
}

Test(ir_encode, rc5_is_bi_phase_with_start_field_toggle_address_command)
{
	int level[64], k;
	uint32_t d[MAX], data = 0;

	for (int t = 0; t < 50; t++) {
		uint32_t sc = random32() & 0x1f7f;
		int n = m2m_ir_encode(d, MAX, RC_PROTO_RC5, sc);

		cr_assert_gt(n, 0);
		cr_assert_eq(n % 2, 1);
		/* The first bit's silent half is not sent. */
		level[0] = 0;
		k = 1 + halves(d, n, 889, level + 1, 63);
		while (k < 28)
			level[k++] = 0;
		data = 0;
		for (int b = 0; b < 14; b++) {
			cr_assert_neq(level[2 * b], level[2 * b + 1], "bit %d", b);
			data = data << 1 | level[2 * b + 1];
		}
		cr_assert_eq(data >> 13, 1, "start bit");
		cr_assert_eq(data >> 12 & 1, !(sc & 0x40), "field bit");
		cr_assert_eq(data >> 11 & 1, 0, "toggle");
		cr_assert_eq(data >> 6 & 0x1f, sc >> 8);
		cr_assert_eq(data & 0x3f, sc & 0x3f);
	}
}

Test(ir_encode, rc6_mode_0_has_leader_header_double_toggle_and_16_bits)
{
	int level[128], k;
	uint32_t d[MAX];

	for (int t = 0; t < 50; t++) {
		uint32_t sc = random32() & 0xffff, data = 0;
		int n = m2m_ir_encode(d, MAX, RC_PROTO_RC6_0, sc);

		cr_assert_eq(n % 2, 1);
		k = halves(d, n, 444, level, 127);
		while (k < 58)
			level[k++] = 0;
		/* Leader: 6 units of mark, 2 of space. */
		for (int i = 0; i < 8; i++)
			cr_assert_eq(level[i], i < 6);
		/* Start bit 1 and mode 000: a 1 is mark then space. */
		cr_assert(level[8] && !level[9]);
		for (int i = 10; i < 16; i += 2)
			cr_assert(!level[i] && level[i + 1]);
		/* Toggle 0, two units a half. */
		cr_assert(!level[16] && !level[17] && level[18] && level[19]);
		for (int b = 0; b < 16; b++) {
			cr_assert_neq(level[20 + 2 * b], level[21 + 2 * b]);
			data = data << 1 | level[20 + 2 * b];
		}
		cr_assert_eq(data, sc);
	}
}

Test(ir_encode, sony_12_is_seven_command_then_five_address_bits_lsb_first)
{
	uint32_t d[MAX];

	for (int t = 0; t < 50; t++) {
		uint32_t sc = random32() & 0x1f007f, raw = 0;
		int n = m2m_ir_encode(d, MAX, RC_PROTO_SONY12, sc);

		cr_assert_eq(n, 25);
		cr_assert(near(d[0], 2400, 600));
		for (int i = 0; i < 12; i++) {
			cr_assert(near(d[1 + 2 * i], 600, 600));
			if (near(d[2 + 2 * i], 1200, 600))
				raw |= 1u << i;
		}
		cr_assert_eq(raw & 0x7f, sc & 0x7f);
		cr_assert_eq(raw >> 7, sc >> 16);
	}
}

Test(ir_encode, bad_input_is_refused)
{
	uint32_t d[MAX];

	cr_assert_eq(m2m_ir_encode(d, MAX, RC_PROTO_JVC, 1), -EINVAL);
	cr_assert_not_null(strstr(m2m_last_error(), "jvc"));
	cr_assert_eq(m2m_ir_encode(d, MAX, RC_PROTO_NEC, 0x10000), -EINVAL);
	cr_assert_not_null(strstr(m2m_last_error(), "out of the range"));
	cr_assert_eq(m2m_ir_encode(d, MAX, RC_PROTO_SONY12, 0x80), -EINVAL);
	cr_assert_eq(m2m_ir_encode(d, 10, RC_PROTO_NEC, 1), -ENOSPC);
	cr_assert_eq(m2m_ir_encode(NULL, MAX, RC_PROTO_NEC, 1), -EINVAL);
}

Test(ir_protocols, names_round_trip)
{
	cr_assert_str_eq(m2m_ir_protocol_name(RC_PROTO_NECX), "nec-x");
	cr_assert_eq(m2m_ir_protocol_from_name("nec-x"), RC_PROTO_NECX);
	cr_assert_eq(m2m_ir_protocol_from_name("SONY12"), RC_PROTO_SONY12);
	cr_assert_eq(m2m_ir_protocol_from_name("rc6_0"), RC_PROTO_RC6_0);
	cr_assert_eq(m2m_ir_protocol_from_name("rc-mm-32"), RC_PROTO_RCMM32);
	cr_assert_eq(m2m_ir_protocol_from_name("morse"), -EINVAL);
	cr_assert_not_null(strstr(m2m_last_error(), "morse"));
	cr_assert_null(m2m_ir_protocol_name(1000));
}

/* The kernel's scancode_bits (drivers/media/rc/rc-main.c). */
Test(ir_protocols, scancode_bits_are_the_kernels)
{
	cr_assert_eq(m2m_ir_scancode_bits(RC_PROTO_RC5), 0x1f7f);
	cr_assert_eq(m2m_ir_scancode_bits(RC_PROTO_SONY12), 0x1f007f);
	cr_assert_eq(m2m_ir_scancode_bits(RC_PROTO_NECX), 0xffffff);
	cr_assert_eq(m2m_ir_scancode_bits(RC_PROTO_RC6_MCE), 0xffff7fff);
	cr_assert_eq(m2m_ir_scancode_bits(RC_PROTO_IMON), 0x7fffffff);
	cr_assert_eq(m2m_ir_scancode_bits(RC_PROTO_RCMM12), 0xfff);
	for (unsigned int p = 0; p < 64; p++)
		cr_assert_eq(m2m_ir_scancode_bits(p) != 0,
			     m2m_ir_protocol_name(p) != NULL, "protocol %u", p);
	cr_assert_eq(m2m_ir_scancode_bits(1000), 0);
}

/* Out of the bits, or what the kernel's rc_validate_scancode() refuses
 * because it would decode as another protocol. */
Test(ir_protocols, check_scancode_refuses_what_the_kernel_refuses)
{
	cr_assert_eq(m2m_ir_check_scancode(RC_PROTO_NEC, 0xffff), 0);
	cr_assert_eq(m2m_ir_check_scancode(RC_PROTO_NEC, 0x10000), -ERANGE);
	cr_assert_not_null(strstr(m2m_last_error(), "0xffff"), "%s",
			   m2m_last_error());
	cr_assert_eq(m2m_ir_check_scancode(RC_PROTO_NECX, 0x12ed01), -ERANGE);
	cr_assert_eq(m2m_ir_check_scancode(RC_PROTO_NECX, 0x123401), 0);
	cr_assert_eq(m2m_ir_check_scancode(RC_PROTO_NEC32, 0x1234ff00),
		     -ERANGE);
	cr_assert_eq(m2m_ir_check_scancode(RC_PROTO_RC6_MCE, 0x800f0410), 0);
	cr_assert_eq(m2m_ir_check_scancode(RC_PROTO_RC6_MCE, 0x12340410),
		     -ERANGE);
	cr_assert_eq(m2m_ir_check_scancode(RC_PROTO_RC6_6A_32, 0x800f0410),
		     -ERANGE);
	cr_assert_eq(m2m_ir_check_scancode(1000, 1), -EINVAL);
}

/* The encoders m2m_ir_encode() has, as a set of protocols. */
Test(ir_encode, encoders_are_the_protocols_it_encodes)
{
	uint64_t encoders = m2m_ir_encoders();
	uint32_t d[MAX];

	cr_assert_eq(encoders, 1ull << RC_PROTO_NEC | 1ull << RC_PROTO_NECX |
		     1ull << RC_PROTO_NEC32 | 1ull << RC_PROTO_RC5 |
		     1ull << RC_PROTO_RC6_0 | 1ull << RC_PROTO_SONY12);
	for (unsigned int p = 0; p < 64; p++)
		cr_assert_eq(encoders >> p & 1,
			     m2m_ir_encode(d, MAX, p, 0) >= 0, "protocol %u", p);
}

Test(ir_open, unknown_devices_give_enoent)
{
	struct m2m_ir *ir = (struct m2m_ir *)1;

	cr_assert_eq(m2m_ir_open(&ir, "no-such-remote"), -ENOENT);
	cr_assert_null(ir);
	cr_assert_eq(m2m_ir_open(NULL, "auto"), -EINVAL);
	cr_assert_eq(m2m_ir_send_raw(NULL, NULL, 0), -EINVAL);
	m2m_ir_close(NULL);
}
