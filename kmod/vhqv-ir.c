// SPDX-License-Identifier: GPL-2.0
/*
 * vhqv: the IR receiver and transmitter of each instance, an rc-core raw IR
 * device ("vhqv-ir") whose transmitter is looped back into its receiver, as
 * rc-loopback does: what user space writes to the lirc node (pulses, or
 * scancodes the kernel's encoders turn into pulses) is stored as received
 * mark/space timings and decoded by the kernel's raw IR decoders, which
 * report scancodes on lirc and key presses through the keymap on the input
 * device.
 *
 * Like a real receiver it has a receive timeout, a narrowband receiver
 * that only hears carriers within its range, a wideband (learning)
 * receiver with carrier reports, and, for testing decoders against
 * imperfect signals, optional seeded noise: jitter on every duration and
 * glitches (short spurious pulses or gaps). docs/vhqv.md "IR" is the spec.
 */
#include <linux/module.h>
#include <linux/slab.h>

#include <media/rc-core.h>

#include "vhqv-priv.h"

/* Carriers the transmitter sends and the narrowband receiver hears. */
#define VHQV_IR_CARRIER_MIN	20000
#define VHQV_IR_CARRIER_MAX	60000
/* Shortest receive timeout: longer than the longest space of a frame. */
#define VHQV_IR_MIN_TIMEOUT	10000
/* A glitch: a spurious edge pair this long, in microseconds. */
#define VHQV_IR_GLITCH_MIN	40
#define VHQV_IR_GLITCH_SPAN	120

static unsigned int ir_jitter_us;
module_param(ir_jitter_us, uint, 0644);
MODULE_PARM_DESC(ir_jitter_us,
		 "IR noise: each looped-back duration moves by up to this many us (default 0)");

static unsigned int ir_glitch_permille;
module_param(ir_glitch_permille, uint, 0644);
MODULE_PARM_DESC(ir_glitch_permille,
		 "IR noise: chance per duration, in 1/1000, of a glitch splitting it (default 0)");

static unsigned int ir_seed = 1;
module_param(ir_seed, uint, 0644);
MODULE_PARM_DESC(ir_seed,
		 "IR noise: seed of the noise generator, taken when it changes (default 1)");

struct vhqv_ir {
	struct rc_dev *rc;
	u32 tx_carrier;
	u32 tx_duty;
	u32 rx_carrier_min;
	u32 rx_carrier_max;
	bool wideband;
	bool carrier_report;
	/* The noise generator, xorshift32, reseeded when ir_seed changes. */
	u32 seed;
	u32 rng;
	/* The input device's physical path: the instance's, then ir0. */
	char phys[32];
};

static u32 noise_next(struct vhqv_ir *ir)
{
	u32 x;

	if (ir->seed != ir_seed) {
		ir->seed = ir_seed;
		ir->rng = ir_seed ? ir_seed : 1;
	}
	x = ir->rng;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	ir->rng = x;
	return x;
}

/* 0 to n - 1. */
static u32 noise_below(struct vhqv_ir *ir, u32 n)
{
	return n ? noise_next(ir) % n : 0;
}

static void store(struct rc_dev *rc, bool pulse, u32 duration)
{
	struct ir_raw_event ev = { .pulse = pulse, .duration = duration };

	ir_raw_event_store_with_filter(rc, &ev);
}

/*
 * One transmitted duration as the receiver gets it: moved by the jitter,
 * and maybe split by a glitch of the other level.
 */
static void receive(struct vhqv_ir *ir, bool pulse, u32 duration)
{
	u32 jitter = min_t(u32, ir_jitter_us, IR_MAX_DURATION / 4);

	if (jitter) {
		s64 d = (s64)duration + noise_below(ir, 2 * jitter + 1) - jitter;

		duration = clamp_t(s64, d, 1, IR_MAX_DURATION);
	}
	if (ir_glitch_permille && noise_below(ir, 1000) < ir_glitch_permille &&
	    duration > 2) {
		u32 glitch = VHQV_IR_GLITCH_MIN +
			     noise_below(ir, VHQV_IR_GLITCH_SPAN);
		u32 before = 1 + noise_below(ir, duration - 1);

		store(ir->rc, pulse, before);
		store(ir->rc, !pulse, glitch);
		duration -= before;
	}
	store(ir->rc, pulse, duration);
}

static bool hears(const struct vhqv_ir *ir)
{
	return ir->wideband || (ir->tx_carrier >= ir->rx_carrier_min &&
				ir->tx_carrier <= ir->rx_carrier_max);
}

/* The transmitter: txbuf alternates pulse and space, pulse first. */
static int vhqv_ir_tx(struct rc_dev *rc, unsigned int *txbuf,
		      unsigned int count)
{
	struct vhqv_ir *ir = rc->priv;
	struct ir_raw_event ev = { };
	unsigned int i;

	/* A narrowband receiver does not hear another carrier. */
	if (!hears(ir))
		return count;

	for (i = 0; i < count; i++)
		receive(ir, !(i % 2), txbuf[i]);

	if (ir->carrier_report) {
		ev.carrier_report = true;
		ev.carrier = ir->tx_carrier;
		ev.duty_cycle = ir->tx_duty;
		ir_raw_event_store(rc, &ev);
	}

	/* The silence after the frame, long enough to end it. */
	store(rc, false, rc->timeout);
	ir_raw_event_handle(rc);
	return count;
}

/* One transmitter: any other mask gets the number of transmitters. */
static int vhqv_ir_tx_mask(struct rc_dev *rc, u32 mask)
{
	return mask == 1 ? 0 : 1;
}

static int vhqv_ir_tx_carrier(struct rc_dev *rc, u32 carrier)
{
	struct vhqv_ir *ir = rc->priv;

	if (carrier < VHQV_IR_CARRIER_MIN || carrier > VHQV_IR_CARRIER_MAX)
		return -EINVAL;
	ir->tx_carrier = carrier;
	return 0;
}

/* lirc_dev has checked 1 to 99 %. */
static int vhqv_ir_tx_duty_cycle(struct rc_dev *rc, u32 duty_cycle)
{
	struct vhqv_ir *ir = rc->priv;

	ir->tx_duty = duty_cycle;
	return 0;
}

static int vhqv_ir_rx_carrier_range(struct rc_dev *rc, u32 min, u32 max)
{
	struct vhqv_ir *ir = rc->priv;

	if (min > max || min < VHQV_IR_CARRIER_MIN ||
	    max > VHQV_IR_CARRIER_MAX)
		return -EINVAL;
	ir->rx_carrier_min = min;
	ir->rx_carrier_max = max;
	return 0;
}

/* The learning receiver: wideband, it hears every carrier. */
static int vhqv_ir_wideband(struct rc_dev *rc, int enable)
{
	struct vhqv_ir *ir = rc->priv;

	ir->wideband = enable;
	return 0;
}

static int vhqv_ir_carrier_report(struct rc_dev *rc, int enable)
{
	struct vhqv_ir *ir = rc->priv;

	ir->carrier_report = enable;
	return 0;
}

int vhqv_ir_register(struct vhqv_dev *dev, struct device *parent)
{
	struct vhqv_ir *ir;
	struct rc_dev *rc;
	int ret;

	ir = kzalloc(sizeof(*ir), GFP_KERNEL);
	if (!ir)
		return -ENOMEM;
	rc = rc_allocate_device(RC_DRIVER_IR_RAW);
	if (!rc) {
		ret = -ENOMEM;
		goto err_free_ir;
	}

	ir->rc = rc;
	ir->tx_carrier = 38000;
	ir->tx_duty = 50;
	ir->rx_carrier_min = VHQV_IR_CARRIER_MIN;
	ir->rx_carrier_max = VHQV_IR_CARRIER_MAX;

	rc->priv = ir;
	rc->dev.parent = parent;
	rc->device_name = "vhqv-ir";
	rc->driver_name = VHQV_NAME;
	snprintf(ir->phys, sizeof(ir->phys), "%s/ir0", dev_name(parent));
	rc->input_phys = ir->phys;
	rc->input_id.bustype = BUS_VIRTUAL;
	rc->input_id.version = 1;
	rc->map_name = RC_MAP_RC6_MCE;
	rc->allowed_protocols = RC_PROTO_BIT_ALL_IR_DECODER | VHQV_RCMM_PROTOCOLS;
	rc->timeout = IR_DEFAULT_TIMEOUT;
	rc->min_timeout = VHQV_IR_MIN_TIMEOUT;
	rc->max_timeout = IR_MAX_TIMEOUT;
	rc->rx_resolution = 1;
	rc->tx_ir = vhqv_ir_tx;
	rc->s_tx_mask = vhqv_ir_tx_mask;
	rc->s_tx_carrier = vhqv_ir_tx_carrier;
	rc->s_tx_duty_cycle = vhqv_ir_tx_duty_cycle;
	rc->s_rx_carrier_range = vhqv_ir_rx_carrier_range;
	rc->s_wideband_receiver = vhqv_ir_wideband;
	rc->s_carrier_report = vhqv_ir_carrier_report;

	ret = rc_register_device(rc);
	if (ret)
		goto err_free_rc;
	dev->ir = ir;
	return 0;

err_free_rc:
	rc_free_device(rc);
err_free_ir:
	kfree(ir);
	return ret;
}

void vhqv_ir_unregister(struct vhqv_dev *dev)
{
	if (!dev->ir)
		return;
	rc_unregister_device(dev->ir->rc);
	kfree(dev->ir);
	dev->ir = NULL;
}
