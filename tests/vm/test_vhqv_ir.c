// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vhqv's IR device through the kernel's own interfaces, in the test VM:
 * the lirc node, the protocols file in sysfs and the input device. Every
 * protocol the kernel can encode round-trips random scancodes sent in
 * scancode mode; raw pulses, carrier, timeout and learning settings
 * behave as lirc defines; bad writes get lirc's error codes; noise makes
 * decoding fail cleanly, never wrongly.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/input.h>
#include <linux/lirc.h>

#define SCANCODES 50
#define PARAMS "/sys/module/vhqv/parameters/"

static const struct protocol {
	enum rc_proto proto;
	const char *name;
	uint32_t mask;
	const char *decoder;	/* its name in sysfs' protocols */
} protocols[] = {
	{ RC_PROTO_RC5, "rc-5", 0x1f7f, "rc-5" },
	{ RC_PROTO_RC5X_20, "rc-5x-20", 0x1f7f3f, "rc-5" },
	{ RC_PROTO_RC5_SZ, "rc-5-sz", 0x2fff, "rc-5-sz" },
	{ RC_PROTO_JVC, "jvc", 0xffff, "jvc" },
	{ RC_PROTO_SONY12, "sony-12", 0x1f007f, "sony" },
	{ RC_PROTO_SONY15, "sony-15", 0xff007f, "sony" },
	{ RC_PROTO_SONY20, "sony-20", 0x1fff7f, "sony" },
	{ RC_PROTO_NEC, "nec", 0xffff, "nec" },
	{ RC_PROTO_NECX, "nec-x", 0xffffff, "nec" },
	{ RC_PROTO_NEC32, "nec-32", 0xffffffff, "nec" },
	{ RC_PROTO_SANYO, "sanyo", 0x1fffff, "sanyo" },
	{ RC_PROTO_RC6_0, "rc-6-0", 0xffff, "rc-6" },
	{ RC_PROTO_RC6_6A_20, "rc-6-6a-20", 0xfffff, "rc-6" },
	{ RC_PROTO_RC6_6A_24, "rc-6-6a-24", 0xffffff, "rc-6" },
	{ RC_PROTO_RC6_6A_32, "rc-6-6a-32", 0xffffffff, "rc-6" },
	{ RC_PROTO_RC6_MCE, "rc-6-mce", 0x00007fff, "rc-6" },
	{ RC_PROTO_SHARP, "sharp", 0x1fff, "sharp" },
	{ RC_PROTO_IMON, "imon", 0x7fffffff, "imon" },
	{ RC_PROTO_RCMM12, "rcmm-12", 0x00000fff, "rc-mm" },
	{ RC_PROTO_RCMM24, "rcmm-24", 0x00ffffff, "rc-mm" },
	{ RC_PROTO_RCMM32, "rcmm-32", 0xffffffff, "rc-mm" },
};

static char rc_dir[320];	/* /sys/class/rc/rcN of vhqv-ir */
static int lirc = -1;

static uint32_t rng = 2463534242u;

static uint32_t random32(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	cr_assert_geq(fd, 0, "open %s: %s", path, strerror(errno));
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text),
		     "write \"%s\" to %s: %s", text, path, strerror(errno));
	close(fd);
}

static void set_protocols(const char *text)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/protocols", rc_dir);
	write_file(path, text);
}

static void set_param(const char *name, unsigned int value)
{
	char path[400], text[16];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	snprintf(text, sizeof(text), "%u", value);
	write_file(path, text);
}

/* Find vhqv-ir in sysfs and open its lirc node, in scancode modes. */
static void open_ir(void)
{
	struct dirent *e;
	char path[320], name[64] = "";
	unsigned int mode = LIRC_MODE_SCANCODE;
	DIR *d = opendir("/sys/class/rc");

	cr_assert_not_null(d, "no /sys/class/rc: rc-core is not loaded");
	rc_dir[0] = '\0';
	while ((e = readdir(d)) && !rc_dir[0]) {
		FILE *f;

		if (strncmp(e->d_name, "rc", 2))
			continue;
		/* rc-core names the device in DEV_NAME. */
		snprintf(path, sizeof(path),
			 "/sys/class/rc/%s/uevent", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(name, sizeof(name), f))
			if (!strcmp(name, "DEV_NAME=vhqv-ir\n"))
				snprintf(rc_dir, sizeof(rc_dir),
					 "/sys/class/rc/%s", e->d_name);
		fclose(f);
	}
	closedir(d);
	cr_assert_neq(rc_dir[0], '\0', "no rc device named vhqv-ir");

	d = opendir(rc_dir);
	cr_assert_not_null(d);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "lirc", 4))
			break;
	cr_assert_not_null(e, "vhqv-ir has no lirc node");
	snprintf(path, sizeof(path), "/dev/%s", e->d_name);
	closedir(d);
	lirc = open(path, O_RDWR | O_NONBLOCK);
	cr_assert_geq(lirc, 0, "open %s: %s", path, strerror(errno));
	cr_assert_eq(ioctl(lirc, LIRC_SET_REC_MODE, &mode), 0);
	cr_assert_eq(ioctl(lirc, LIRC_SET_SEND_MODE, &mode), 0);

	set_param("ir_jitter_us", 0);
	set_param("ir_glitch_permille", 0);
}

static void close_ir(void)
{
	close(lirc);
	lirc = -1;
}

TestSuite(ir, .init = open_ir, .fini = close_ir);

/* A random scancode of the protocol that decodes as that protocol. */
static uint32_t valid_scancode(const struct protocol *p)
{
	for (;;) {
		uint32_t s = random32() & p->mask;

		if (p->proto == RC_PROTO_RC6_MCE)
			s |= 0x800f0000;
		/* NEC-X whose address is an NEC one, NEC-32 whose command
		 * checks as NEC's: they decode as the shorter protocol. */
		if (p->proto == RC_PROTO_NECX &&
		    (((s >> 16) ^ ~(s >> 8)) & 0xff) == 0)
			continue;
		if (p->proto == RC_PROTO_NEC32 && ((s >> 8 ^ ~s) & 0xff) == 0)
			continue;
		/* RC-MM-32 without both mode bits: bit 15 is a toggle. */
		if (p->proto == RC_PROTO_RCMM32 &&
		    (s & 0x000c0000) != 0x000c0000 && s & 0x00008000)
			continue;
		return s;
	}
}

static void send_scancode(enum rc_proto proto, uint32_t scancode)
{
	struct lirc_scancode sc = { .rc_proto = proto, .scancode = scancode };

	cr_assert_eq(write(lirc, &sc, sizeof(sc)), (ssize_t)sizeof(sc),
		     "sending %u:0x%x: %s", proto, scancode, strerror(errno));
}

/* The next decoded scancode; false when none comes within timeout_ms. */
static bool receive(struct lirc_scancode *sc, int timeout_ms)
{
	struct pollfd pfd = { .fd = lirc, .events = POLLIN };

	if (poll(&pfd, 1, timeout_ms) != 1)
		return false;
	return read(lirc, sc, sizeof(*sc)) == sizeof(*sc);
}

/* Nothing left to read: the scancodes that came are all accounted for. */
static void assert_drained(void)
{
	struct lirc_scancode sc;

	cr_assert_not(receive(&sc, 200), "unexpected scancode %u:0x%llx",
		      sc.rc_proto, (unsigned long long)sc.scancode);
}

Test(ir, every_encodable_protocol_round_trips)
{
	for (size_t i = 0; i < sizeof(protocols) / sizeof(protocols[0]); i++) {
		const struct protocol *p = &protocols[i];
		char enable[32];

		snprintf(enable, sizeof(enable), "%s\n", p->decoder);
		set_protocols(enable);
		for (int n = 0; n < SCANCODES; n++) {
			uint32_t want = valid_scancode(p);
			struct lirc_scancode got;

			send_scancode(p->proto, want);
			cr_assert(receive(&got, 2000), "%s 0x%x: nothing "
				  "decoded", p->name, want);
			cr_assert_eq(got.rc_proto, p->proto, "%s 0x%x came back "
				     "as protocol %u", p->name, want,
				     got.rc_proto);
			cr_assert_eq(got.scancode, want, "%s 0x%x came back as "
				     "0x%llx", p->name, want,
				     (unsigned long long)got.scancode);
		}
		assert_drained();
	}
}

Test(ir, a_decoded_key_reaches_the_input_device)
{
	struct input_event ev;
	char path[600];
	struct dirent *e;
	DIR *d;
	int fd = -1;
	bool pressed = false;

	/* rc-rc6-mce maps 0x800f0400 to KEY_NUMERIC_0. */
	set_protocols("rc-6\n");
	d = opendir(rc_dir);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "input", 5))
			break;
	cr_assert_not_null(e, "vhqv-ir has no input device");
	snprintf(path, sizeof(path), "%s/%s", rc_dir, e->d_name);
	closedir(d);
	d = opendir(path);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "event", 5))
			break;
	cr_assert_not_null(e, "no event node (is evdev loaded?)");
	snprintf(path, sizeof(path), "/dev/input/%s", e->d_name);
	closedir(d);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	cr_assert_geq(fd, 0, "open %s: %s", path, strerror(errno));

	send_scancode(RC_PROTO_RC6_MCE, 0x800f0400);
	for (int tries = 0; tries < 50 && !pressed; tries++) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (poll(&pfd, 1, 100) != 1)
			continue;
		while (read(fd, &ev, sizeof(ev)) == sizeof(ev))
			pressed |= ev.type == EV_KEY &&
				   ev.code == KEY_NUMERIC_0 && ev.value == 1;
	}
	close(fd);
	cr_assert(pressed, "no KEY_NUMERIC_0 press");
}

Test(ir, raw_pulses_are_decoded_and_reported_in_mode2)
{
	/* NEC address 0x04, command 0x08: 9 ms mark, 4.5 ms space, 32
	 * bits LSB first (562 us mark, 562 or 1687 us space), a final
	 * mark. */
	unsigned int pulses[67], mode = LIRC_MODE_PULSE, n = 0, raw;
	uint32_t bits = 0x04 | 0xfb << 8 | 0x08 << 16 | 0xf7u << 24;
	struct lirc_scancode sc;
	int i;

	pulses[n++] = 9000;
	pulses[n++] = 4500;
	for (i = 0; i < 32; i++) {
		pulses[n++] = 562;
		pulses[n++] = bits >> i & 1 ? 1687 : 562;
	}
	pulses[n++] = 562;
	set_protocols("nec\n");
	cr_assert_eq(ioctl(lirc, LIRC_SET_SEND_MODE, &mode), 0);
	cr_assert_eq(write(lirc, pulses, sizeof(pulses)),
		     (ssize_t)sizeof(pulses), "%s", strerror(errno));
	cr_assert(receive(&sc, 2000), "nothing decoded");
	cr_assert_eq(sc.rc_proto, RC_PROTO_NEC);
	cr_assert_eq(sc.scancode, 0x0408);

	/* The same file, in MODE2: the timings come back. */
	mode = LIRC_MODE_MODE2;
	cr_assert_eq(ioctl(lirc, LIRC_SET_REC_MODE, &mode), 0);
	cr_assert_eq(write(lirc, pulses, sizeof(pulses)),
		     (ssize_t)sizeof(pulses));
	for (i = 0; i < 67; i++) {
		struct pollfd pfd = { .fd = lirc, .events = POLLIN };

		cr_assert_eq(poll(&pfd, 1, 2000), 1, "timing %d missing", i);
		cr_assert_eq(read(lirc, &raw, sizeof(raw)), sizeof(raw));
		/* Reports, and the gap before the first pulse, are not
		 * what was sent. */
		if (LIRC_IS_TIMEOUT(raw) || LIRC_IS_FREQUENCY(raw) ||
		    (i == 0 && LIRC_IS_SPACE(raw))) {
			i--;
			continue;
		}
		cr_assert_eq(LIRC_IS_PULSE(raw), i % 2 == 0, "timing %d", i);
		cr_assert_eq(LIRC_VALUE(raw), pulses[i], "timing %d", i);
	}
}

Test(ir, bad_writes_get_lircs_errors)
{
	unsigned int mode = LIRC_MODE_PULSE, even[2] = { 500, 500 };
	unsigned int zero[3] = { 500, 0, 500 }, *big;
	struct lirc_scancode sc = { .rc_proto = RC_PROTO_NEC,
				    .scancode = 1ull << 32 };

	/* Scancode mode: a short write, a scancode wider than any encoder
	 * takes, flags set, an unknown protocol. */
	cr_assert_eq(write(lirc, &sc, sizeof(sc) - 1), -1);
	cr_assert_eq(errno, EINVAL);
	cr_assert_eq(write(lirc, &sc, sizeof(sc)), -1);
	cr_assert_eq(errno, EINVAL);
	sc.scancode = 0x1234;
	sc.flags = LIRC_SCANCODE_FLAG_TOGGLE;
	cr_assert_eq(write(lirc, &sc, sizeof(sc)), -1);
	cr_assert_eq(errno, EINVAL);
	sc.flags = 0;
	sc.rc_proto = 200;
	cr_assert_eq(write(lirc, &sc, sizeof(sc)), -1);
	cr_assert_eq(errno, EINVAL);

	/* Pulse mode: empty, an even count, a zero duration, oversized. */
	cr_assert_eq(ioctl(lirc, LIRC_SET_SEND_MODE, &mode), 0);
	cr_assert_eq(write(lirc, even, 0), -1);
	cr_assert_eq(errno, EINVAL);
	cr_assert_eq(write(lirc, even, sizeof(even)), -1);
	cr_assert_eq(errno, EINVAL);
	cr_assert_eq(write(lirc, zero, sizeof(zero)), -1);
	cr_assert_eq(errno, EINVAL);
	big = calloc(1025, sizeof(*big));
	for (int i = 0; i < 1025; i++)
		big[i] = 100;
	cr_assert_eq(write(lirc, big, 1025 * sizeof(*big)), -1);
	cr_assert_eq(errno, EINVAL);
	free(big);
	mode = 0x12345;
	cr_assert_eq(ioctl(lirc, LIRC_SET_SEND_MODE, &mode), -1);
	cr_assert_eq(errno, EINVAL);
}

Test(ir, receiver_settings_are_range_checked)
{
	unsigned int v, min_timeout, max_timeout;

	cr_assert_eq(ioctl(lirc, LIRC_GET_MIN_TIMEOUT, &min_timeout), 0);
	cr_assert_eq(ioctl(lirc, LIRC_GET_MAX_TIMEOUT, &max_timeout), 0);
	v = min_timeout - 1;
	cr_assert_eq(ioctl(lirc, LIRC_SET_REC_TIMEOUT, &v), -1);
	cr_assert_eq(errno, EINVAL);
	v = 50000;
	cr_assert_eq(ioctl(lirc, LIRC_SET_REC_TIMEOUT, &v), 0);
	cr_assert_eq(ioctl(lirc, LIRC_GET_REC_TIMEOUT, &v), 0);
	cr_assert_eq(v, 50000);

	v = 1000;	/* 1 kHz: no IR carrier */
	cr_assert_eq(ioctl(lirc, LIRC_SET_SEND_CARRIER, &v), -1);
	cr_assert_eq(errno, EINVAL);
	v = 38000;
	cr_assert_eq(ioctl(lirc, LIRC_SET_SEND_CARRIER, &v), 0);
	v = 100;
	cr_assert_eq(ioctl(lirc, LIRC_SET_SEND_DUTY_CYCLE, &v), -1);
	cr_assert_eq(errno, EINVAL);
	v = 33;
	cr_assert_eq(ioctl(lirc, LIRC_SET_SEND_DUTY_CYCLE, &v), 0);
	v = 2;	/* one transmitter: the mask names a second */
	cr_assert_eq(ioctl(lirc, LIRC_SET_TRANSMITTER_MASK, &v), 1);
}

Test(ir, the_narrowband_receiver_ignores_other_carriers_the_learning_one_reports_them)
{
	unsigned int v, raw, mode = LIRC_MODE_MODE2;
	struct lirc_scancode sc;
	bool carrier = false;

	set_protocols("nec\n");
	/* Hear 30-34 kHz only; NEC is sent at 38 kHz. */
	v = 30000;
	cr_assert_eq(ioctl(lirc, LIRC_SET_REC_CARRIER_RANGE, &v), 0);
	v = 34000;
	cr_assert_eq(ioctl(lirc, LIRC_SET_REC_CARRIER, &v), 0);
	send_scancode(RC_PROTO_NEC, 0x1234);
	assert_drained();

	/* The wideband receiver hears it, and measures its carrier. */
	v = 1;
	cr_assert_eq(ioctl(lirc, LIRC_SET_WIDEBAND_RECEIVER, &v), 0);
	cr_assert_eq(ioctl(lirc, LIRC_SET_MEASURE_CARRIER_MODE, &v), 0);
	send_scancode(RC_PROTO_NEC, 0x1234);
	cr_assert(receive(&sc, 2000));
	cr_assert_eq(sc.scancode, 0x1234);
	cr_assert_eq(ioctl(lirc, LIRC_SET_REC_MODE, &mode), 0);
	send_scancode(RC_PROTO_NEC, 0x1234);
	for (int i = 0; i < 200 && !carrier; i++) {
		struct pollfd pfd = { .fd = lirc, .events = POLLIN };

		if (poll(&pfd, 1, 1000) != 1)
			break;
		cr_assert_eq(read(lirc, &raw, sizeof(raw)), sizeof(raw));
		carrier = LIRC_IS_FREQUENCY(raw) && LIRC_VALUE(raw) == 38000;
	}
	cr_assert(carrier, "no 38 kHz carrier report");
	v = 0;
	cr_assert_eq(ioctl(lirc, LIRC_SET_WIDEBAND_RECEIVER, &v), 0);
	cr_assert_eq(ioctl(lirc, LIRC_SET_MEASURE_CARRIER_MODE, &v), 0);
}

/*
 * How many of frames NEC frames decode right; asserts none decodes wrong.
 * A wrong or extra scancode would show in a later frame's place or at the
 * end.
 */
static int nec_under_noise(unsigned int jitter, unsigned int glitches,
			   int frames)
{
	int right = 0;

	set_protocols("nec\n");
	set_param("ir_seed", 12345);
	set_param("ir_jitter_us", jitter);
	set_param("ir_glitch_permille", glitches);
	for (int n = 0; n < frames; n++) {
		uint32_t want = random32() & 0xffff;
		struct lirc_scancode got;

		send_scancode(RC_PROTO_NEC, want);
		if (!receive(&got, 200))
			continue;
		cr_assert_eq(got.rc_proto, RC_PROTO_NEC);
		cr_assert_eq(got.scancode, want, "noise %u us, %u/1000: 0x%x "
			     "decoded as 0x%llx", jitter, glitches, want,
			     (unsigned long long)got.scancode);
		right++;
	}
	assert_drained();
	set_param("ir_jitter_us", 0);
	set_param("ir_glitch_permille", 0);
	return right;
}

/* Jitter of a fifth of NEC's 562 us unit. */
Test(ir, moderate_noise_still_decodes_nec)
{
	int frames = 200, right = nec_under_noise(110, 0, frames);

	cr_assert_geq(right * 100, frames * 95, "%d of %d frames decoded",
		      right, frames);
}

/* Jitter of most of a unit, and a glitch every 10th edge. */
Test(ir, heavy_noise_fails_cleanly)
{
	int frames = 100, right = nec_under_noise(400, 100, frames);

	/* Most frames are lost; none decodes as another scancode. */
	cr_assert_lt(right, frames, "heavy noise changed nothing");
}
