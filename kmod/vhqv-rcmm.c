// SPDX-License-Identifier: GPL-2.0
/*
 * vhqv: an RC-MM raw IR handler (decoder and encoder) for kernels built
 * without CONFIG_IR_RCMM_DECODER, such as Debian 12's, so that the IR
 * device round-trips RC-MM as it does every other protocol rc-core knows.
 * It is registered with rc-core like the kernel's own handlers and keeps
 * their wire format and scancodes: a 417 us header mark and a 278 us
 * space, then for every two bits a 167 us mark and a space of 278, 444,
 * 611 or 778 us (most significant pair first), then a 167 us trailer
 * mark. 12 and 24-bit frames end with the long space after the trailer;
 * a 32-bit frame ends with its trailer, and unless its mode bits (0xc0000)
 * are both set, bit 15 is a toggle and not part of the scancode.
 *
 * struct ir_raw_handler is rc-core's private interface: its definition
 * comes from drivers/media/rc/rc-core-priv.h of the same kernel source,
 * which kmod/CMakeLists.txt extracts beside this file.
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "rc-core-priv.h"
#include "vhqv-priv.h"

#define RCMM_UNIT	167	/* 1/6 ms */
#define RCMM_HEADER	417
#define RCMM_SPACE(v)	(278 + (v) * RCMM_UNIT)
#define RCMM_MODE_BITS	0x000c0000
#define RCMM_TOGGLE	0x00008000

enum rcmm_state {
	RCMM_IDLE,
	RCMM_HEADER_SPACE,
	RCMM_MARK,
	RCMM_SYMBOL,
	RCMM_TRAILER,
};

/* The decoder's state for one rc device with RC-MM enabled. */
struct rcmm_decoder {
	struct list_head list;
	struct rc_dev *rc;
	enum rcmm_state state;
	u32 bits;
	unsigned int count;
};

/* rc-core calls the handler under its own lock; this one is ours. */
static DEFINE_MUTEX(rcmm_lock);
static LIST_HEAD(rcmm_decoders);

static struct rcmm_decoder *rcmm_find(struct rc_dev *rc)
{
	struct rcmm_decoder *d;

	list_for_each_entry(d, &rcmm_decoders, list)
		if (d->rc == rc)
			return d;
	return NULL;
}

static int rcmm_raw_register(struct rc_dev *rc)
{
	struct rcmm_decoder *d;
	int ret = 0;

	mutex_lock(&rcmm_lock);
	if (!rcmm_find(rc)) {
		d = kzalloc(sizeof(*d), GFP_KERNEL);
		if (d) {
			d->rc = rc;
			list_add(&d->list, &rcmm_decoders);
		} else {
			ret = -ENOMEM;
		}
	}
	mutex_unlock(&rcmm_lock);
	return ret;
}

static int rcmm_raw_unregister(struct rc_dev *rc)
{
	struct rcmm_decoder *d;

	mutex_lock(&rcmm_lock);
	d = rcmm_find(rc);
	if (d) {
		list_del(&d->list);
		kfree(d);
	}
	mutex_unlock(&rcmm_lock);
	return 0;
}

/* The symbol a space stands for, or -1. */
static int rcmm_symbol(u32 duration)
{
	int v;

	for (v = 0; v < 4; v++)
		if (eq_margin(duration, RCMM_SPACE(v), RCMM_UNIT / 2))
			return v;
	return -1;
}

static void rcmm_report(struct rc_dev *rc, struct rcmm_decoder *d)
{
	enum rc_proto proto = d->count == 12 ? RC_PROTO_RCMM12 :
			      d->count == 24 ? RC_PROTO_RCMM24 :
			      RC_PROTO_RCMM32;
	u32 scancode = d->bits;
	u8 toggle = 0;

	if (proto == RC_PROTO_RCMM32 &&
	    (scancode & RCMM_MODE_BITS) != RCMM_MODE_BITS) {
		toggle = !!(scancode & RCMM_TOGGLE);
		scancode &= ~RCMM_TOGGLE;
	}
	if (rc->enabled_protocols & BIT_ULL(proto))
		rc_keydown(rc, proto, scancode, toggle);
}

/* One edge of the state machine; false when the frame is not RC-MM. */
static bool rcmm_step(struct rc_dev *rc, struct rcmm_decoder *d,
		      struct ir_raw_event ev)
{
	int v;

	switch (d->state) {
	case RCMM_IDLE:
		if (!ev.pulse || !eq_margin(ev.duration, RCMM_HEADER,
					    RCMM_UNIT))
			return false;
		d->bits = 0;
		d->count = 0;
		d->state = RCMM_HEADER_SPACE;
		return true;
	case RCMM_HEADER_SPACE:
		if (ev.pulse || !eq_margin(ev.duration, RCMM_SPACE(0),
					   RCMM_UNIT))
			return false;
		d->state = RCMM_MARK;
		return true;
	case RCMM_MARK:
		if (!ev.pulse || !eq_margin(ev.duration, RCMM_UNIT,
					    RCMM_UNIT / 2))
			return false;
		d->state = d->count == 32 ? RCMM_IDLE : RCMM_SYMBOL;
		if (d->count == 32)
			rcmm_report(rc, d);
		return true;
	case RCMM_SYMBOL:
		if (ev.pulse)
			return false;
		v = rcmm_symbol(ev.duration);
		if (v < 0) {
			/* The long space after a short frame's trailer. */
			if (d->count == 12 || d->count == 24)
				rcmm_report(rc, d);
			d->state = RCMM_IDLE;
			return d->count == 12 || d->count == 24;
		}
		d->bits = d->bits << 2 | v;
		d->count += 2;
		d->state = RCMM_MARK;
		return true;
	default:
		return false;
	}
}

static int rcmm_decode(struct rc_dev *rc, struct ir_raw_event ev)
{
	struct rcmm_decoder *d;
	int ret = 0;

	if (!(rc->enabled_protocols & VHQV_RCMM_PROTOCOLS))
		return 0;

	mutex_lock(&rcmm_lock);
	d = rcmm_find(rc);
	if (!d)
		goto unlock;
	if (!is_timing_event(ev)) {
		if (ev.overflow)
			d->state = RCMM_IDLE;
		goto unlock;
	}
	if (!rcmm_step(rc, d, ev)) {
		d->state = RCMM_IDLE;
		ret = -EINVAL;
	}
unlock:
	mutex_unlock(&rcmm_lock);
	return ret;
}

static int rcmm_encode(enum rc_proto protocol, u32 scancode,
		       struct ir_raw_event *events, unsigned int max)
{
	struct ir_raw_event *e = events;
	int bits, i, ret;

	switch (protocol) {
	case RC_PROTO_RCMM12:
		bits = 12;
		break;
	case RC_PROTO_RCMM24:
		bits = 24;
		break;
	case RC_PROTO_RCMM32:
		bits = 32;
		break;
	default:
		return -EINVAL;
	}

	ret = ir_raw_gen_pulse_space(&e, &max, RCMM_HEADER, RCMM_SPACE(0));
	for (i = bits - 2; !ret && i >= 0; i -= 2)
		ret = ir_raw_gen_pulse_space(&e, &max, RCMM_UNIT,
					     RCMM_SPACE((scancode >> i) & 3));
	if (!ret)
		ret = ir_raw_gen_pulse_space(&e, &max, RCMM_UNIT,
					     2 * RCMM_SPACE(3));
	return ret ? ret : e - events;
}

static struct ir_raw_handler vhqv_rcmm_handler = {
	.protocols = VHQV_RCMM_PROTOCOLS,
	.decode = rcmm_decode,
	.encode = rcmm_encode,
	.carrier = 36000,
	.min_timeout = RCMM_SPACE(3) + RCMM_UNIT,
	.raw_register = rcmm_raw_register,
	.raw_unregister = rcmm_raw_unregister,
};

void vhqv_rcmm_register(void)
{
	ir_raw_handler_register(&vhqv_rcmm_handler);
}

void vhqv_rcmm_unregister(void)
{
	ir_raw_handler_unregister(&vhqv_rcmm_handler);
}
