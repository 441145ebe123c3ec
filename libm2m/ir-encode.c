// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libm2m's own IR encoders, for devices that send raw pulses but have no
 * kernel encoder: NEC (and NEC-X, NEC-32), RC-5, RC-6 mode 0 and Sony 12,
 * with the kernel's scancode layouts and timings (drivers/media/rc/ir-*-
 * decoder.c), so that the kernel's decoders give the scancode back.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <linux/lirc.h>

#include "m2m-private.h"
#include "m2m/ir.h"

/* Timings being built: marks at even indexes, spaces at odd ones. */
struct pulses {
	uint32_t *d;
	size_t n;
	size_t max;
	bool overflow;
};

/* Add a mark or a space, merged with the last one when the same. */
static void add(struct pulses *p, bool mark, uint32_t us)
{
	bool last_mark = p->n % 2 == 1;

	if (!p->n && !mark)
		return;		/* the silence before a frame */
	if (p->n && last_mark == mark) {
		p->d[p->n - 1] += us;
		return;
	}
	if (p->n == p->max) {
		p->overflow = true;
		return;
	}
	p->d[p->n++] = us;
}

/* Bi-phase bits, most significant first: a 1 is space then mark, unless
 * inverted (RC-6: mark then space). */
static void manchester(struct pulses *p, uint32_t data, unsigned int bits,
		       uint32_t half, bool invert)
{
	while (bits--) {
		bool mark_first = !(data >> bits & 1) != invert;

		add(p, mark_first, half);
		add(p, !mark_first, half);
	}
}

/* The timings, without a trailing space; or -ENOSPC. */
static int finish(struct pulses *p)
{
	if (p->overflow)
		return m2m_error(ENOSPC, "m2m_ir_encode: more than %zu timings",
				 p->max);
	if (p->n % 2 == 0 && p->n)
		p->n--;
	return (int)p->n;
}

#define NEC_UNIT	563
#define RC5_UNIT	889
#define RC6_UNIT	444
#define SONY_UNIT	600

static void nec(struct pulses *p, unsigned int protocol, uint32_t scancode)
{
	uint32_t addr, addr_inv, cmd = scancode & 0xff, cmd_inv, raw;
	int i;

	if (protocol == RC_PROTO_NEC32) {
		addr_inv = scancode >> 24 & 0xff;
		addr = scancode >> 16 & 0xff;
		cmd_inv = scancode >> 8 & 0xff;
	} else if (protocol == RC_PROTO_NECX) {
		addr = scancode >> 16 & 0xff;
		addr_inv = scancode >> 8 & 0xff;
		cmd_inv = cmd ^ 0xff;
	} else {
		addr = scancode >> 8 & 0xff;
		addr_inv = addr ^ 0xff;
		cmd_inv = cmd ^ 0xff;
	}
	/* Sent least significant bit first: address, its inverse, command,
	 * its inverse. */
	raw = cmd_inv << 24 | cmd << 16 | addr_inv << 8 | addr;
	add(p, true, 16 * NEC_UNIT);
	add(p, false, 8 * NEC_UNIT);
	for (i = 0; i < 32; i++) {
		add(p, true, NEC_UNIT);
		add(p, false, (raw >> i & 1 ? 3 : 1) * NEC_UNIT);
	}
	add(p, true, NEC_UNIT);
}

/* RC-5: start bit 1 (its mark only), field bit (the command's 7th bit,
 * inverted), toggle 0, 5 address bits, 6 command bits. */
static void rc5(struct pulses *p, uint32_t scancode)
{
	uint32_t data = !(scancode & 0x40) << 12 | (scancode >> 8 & 0x1f) << 6 |
			(scancode & 0x3f);

	add(p, true, RC5_UNIT);
	manchester(p, data, 13, RC5_UNIT, false);
}

/* RC-6 mode 0: leader, start bit 1, mode 000, a double-length toggle bit
 * 0, then 16 bits (address, command). */
static void rc6_0(struct pulses *p, uint32_t scancode)
{
	add(p, true, 6 * RC6_UNIT);
	add(p, false, 2 * RC6_UNIT);
	manchester(p, 0x8, 4, RC6_UNIT, true);
	manchester(p, 0, 1, 2 * RC6_UNIT, true);
	manchester(p, scancode, 16, RC6_UNIT, true);
}

/* Sony 12: header, then 7 command and 5 address bits, least significant
 * first, each a space and a mark of 1 (0) or 2 (1) units. */
static void sony12(struct pulses *p, uint32_t scancode)
{
	uint32_t raw = (scancode & 0x7f) | (scancode >> 16 & 0x1f) << 7;
	int i;

	add(p, true, 4 * SONY_UNIT);
	for (i = 0; i < 12; i++) {
		add(p, false, SONY_UNIT);
		add(p, true, (raw >> i & 1 ? 2 : 1) * SONY_UNIT);
	}
}

#define BIT(protocol) (1ull << (protocol))

uint64_t m2m_ir_encoders(void)
{
	return BIT(RC_PROTO_NEC) | BIT(RC_PROTO_NECX) | BIT(RC_PROTO_NEC32) |
	       BIT(RC_PROTO_RC5) | BIT(RC_PROTO_RC6_0) | BIT(RC_PROTO_SONY12);
}

int m2m_ir_encode(uint32_t *durations, size_t max, unsigned int protocol,
		  uint32_t scancode)
{
	struct pulses p = { .d = durations, .max = max };
	uint64_t mask = m2m_ir_scancode_bits(protocol);

	if (protocol >= 64 || !(m2m_ir_encoders() & BIT(protocol)))
		return m2m_error(EINVAL, "m2m_ir_encode: libm2m has no encoder "
				 "for protocol %u (%s)", protocol,
				 m2m_ir_protocol_name(protocol) ?
				 m2m_ir_protocol_name(protocol) : "unknown");
	if (!durations)
		return m2m_error(EINVAL, "m2m_ir_encode: durations is NULL");
	if (scancode & ~mask)
		return m2m_error(EINVAL, "m2m_ir_encode: 0x%x is out of the "
				 "range of %s (mask 0x%" PRIx64 ")", scancode,
				 m2m_ir_protocol_name(protocol), mask);

	switch (protocol) {
	case RC_PROTO_RC5:
		rc5(&p, scancode);
		break;
	case RC_PROTO_RC6_0:
		rc6_0(&p, scancode);
		break;
	case RC_PROTO_SONY12:
		sony12(&p, scancode);
		break;
	default:
		nec(&p, protocol, scancode);
	}
	return finish(&p);
}
