// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rc devices: found in sysfs (/sys/class/rc/rcN: its uevent names it, its
 * protocols file lists and enables decoders, a lircN entry names its lirc
 * node), driven through lirc: one file receives scancodes, another raw
 * timings (the receive mode is per file), and sending sets the file's
 * send mode each time.
 *
 * Handles follow the devices' thread contract (handle.h): a call holds a
 * reference and the handle's lock, which reads drop while they wait;
 * m2m_ir_close() wakes those through an eventfd they poll.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/lirc.h>

#include "m2m-private.h"
#include "m2m/ir.h"

struct m2m_ir {
	/* Listed while open: calls find it and hold a reference. */
	struct m2m_handle handle;
	/* Serialises calls; a read drops it while it waits. */
	pthread_mutex_t lock;
	struct m2m_ir_info info;
	int fd;		/* scancodes received; sending */
	int raw_fd;	/* raw timings received */
	int wake_fd;	/* an eventfd m2m_ir_close() makes readable */
};

static struct m2m_registry irs = M2M_REGISTRY_INIT;

/*
 * Protocols: lirc's name of each enum rc_proto, the sysfs name of the
 * kernel decoder that decodes it, and the bits its scancodes have: the
 * kernel's scancode_bits (drivers/media/rc/rc-main.c), which has none for
 * xmp and cec, whose decoders give 32 and 16 bits.
 */
static const struct {
	const char *name;
	const char *decoder;
	uint32_t scancode_bits;
} protocols[] = {
	[RC_PROTO_RC5] = { "rc-5", "rc-5", 0x1f7f },
	[RC_PROTO_RC5X_20] = { "rc-5x-20", "rc-5", 0x1f7f3f },
	[RC_PROTO_RC5_SZ] = { "rc-5-sz", "rc-5-sz", 0x2fff },
	[RC_PROTO_JVC] = { "jvc", "jvc", 0xffff },
	[RC_PROTO_SONY12] = { "sony-12", "sony", 0x1f007f },
	[RC_PROTO_SONY15] = { "sony-15", "sony", 0xff007f },
	[RC_PROTO_SONY20] = { "sony-20", "sony", 0x1fff7f },
	[RC_PROTO_NEC] = { "nec", "nec", 0xffff },
	[RC_PROTO_NECX] = { "nec-x", "nec", 0xffffff },
	[RC_PROTO_NEC32] = { "nec-32", "nec", 0xffffffff },
	[RC_PROTO_SANYO] = { "sanyo", "sanyo", 0x1fffff },
	[RC_PROTO_MCIR2_KBD] = { "mcir2-kbd", "mce_kbd", 0xffffff },
	[RC_PROTO_MCIR2_MSE] = { "mcir2-mse", "mce_kbd", 0x1fffff },
	[RC_PROTO_RC6_0] = { "rc-6-0", "rc-6", 0xffff },
	[RC_PROTO_RC6_6A_20] = { "rc-6-6a-20", "rc-6", 0xfffff },
	[RC_PROTO_RC6_6A_24] = { "rc-6-6a-24", "rc-6", 0xffffff },
	[RC_PROTO_RC6_6A_32] = { "rc-6-6a-32", "rc-6", 0xffffffff },
	[RC_PROTO_RC6_MCE] = { "rc-6-mce", "rc-6", 0xffff7fff },
	[RC_PROTO_SHARP] = { "sharp", "sharp", 0x1fff },
	[RC_PROTO_XMP] = { "xmp", "xmp", 0xffffffff },
	[RC_PROTO_CEC] = { "cec", "cec", 0xffff },
	[RC_PROTO_IMON] = { "imon", "imon", 0x7fffffff },
	[RC_PROTO_RCMM12] = { "rc-mm-12", "rc-mm", 0x0fff },
	[RC_PROTO_RCMM24] = { "rc-mm-24", "rc-mm", 0xffffff },
	[RC_PROTO_RCMM32] = { "rc-mm-32", "rc-mm", 0xffffffff },
};

#define NUM_PROTOCOLS (sizeof(protocols) / sizeof(protocols[0]))

const char *m2m_ir_protocol_name(unsigned int protocol)
{
	return protocol < NUM_PROTOCOLS ? protocols[protocol].name : NULL;
}

/* A name without dashes and underscores, in lower case. */
static void squash(char *out, size_t size, const char *name)
{
	size_t n = 0;

	for (; *name && n + 1 < size; name++)
		if (*name != '-' && *name != '_')
			out[n++] = (char)tolower((unsigned char)*name);
	out[n] = '\0';
}

uint64_t m2m_ir_scancode_bits(unsigned int protocol)
{
	return protocol < NUM_PROTOCOLS ? protocols[protocol].scancode_bits : 0;
}

/*
 * The kernel's rc_validate_scancode(): scancodes within the bits that the
 * decoders would give back as another protocol's. NULL, or why.
 */
static const char *decodes_as_another(unsigned int protocol,
				      uint64_t scancode)
{
	switch (protocol) {
	case RC_PROTO_NECX:
		if (!((scancode >> 16 ^ ~(scancode >> 8)) & 0xff))
			return "its address's low byte is its high byte "
			       "inverted: a nec scancode";
		break;
	case RC_PROTO_NEC32:
		if (!((scancode >> 8 ^ ~scancode) & 0xff))
			return "its command's low byte is its high byte "
			       "inverted: a nec or nec-x scancode";
		break;
	case RC_PROTO_RC6_MCE:
		if ((scancode & 0xffff0000) != 0x800f0000)
			return "it lacks the MCE customer code 0x800f in its "
			       "top 16 bits";
		break;
	case RC_PROTO_RC6_6A_32:
		if ((scancode & 0xffff0000) == 0x800f0000)
			return "it has the MCE customer code 0x800f: an "
			       "rc-6-mce scancode";
		break;
	}
	return NULL;
}

int m2m_ir_check_scancode(unsigned int protocol, uint64_t scancode)
{
	uint64_t bits = m2m_ir_scancode_bits(protocol);
	const char *why;

	if (!bits)
		return m2m_error(EINVAL, "m2m_ir_check_scancode: unknown IR "
				 "protocol %u", protocol);
	if (scancode & ~bits)
		return m2m_error(ERANGE, "m2m_ir_check_scancode: 0x%" PRIx64
				 " is out of the range of %s: its bits are "
				 "0x%" PRIx64, scancode,
				 protocols[protocol].name, bits);
	why = decodes_as_another(protocol, scancode);
	if (why)
		return m2m_error(ERANGE, "m2m_ir_check_scancode: %s scancode "
				 "0x%" PRIx64 ": %s", protocols[protocol].name,
				 scancode, why);
	return 0;
}

int m2m_ir_protocol_from_name(const char *name)
{
	char want[32], have[32];
	unsigned int i;

	if (!name)
		return m2m_error(EINVAL, "m2m_ir_protocol_from_name: name is "
				 "NULL");
	squash(want, sizeof(want), name);
	for (i = 0; i < NUM_PROTOCOLS; i++) {
		if (!protocols[i].name)
			continue;
		squash(have, sizeof(have), protocols[i].name);
		if (!strcmp(want, have))
			return (int)i;
	}
	return m2m_error(EINVAL, "m2m_ir_protocol_from_name: unknown IR "
			 "protocol \"%s\"", name);
}

/* The protocols a decoder name stands for. */
static uint64_t decoder_bits(const char *decoder)
{
	uint64_t bits = 0;
	unsigned int i;

	for (i = 0; i < NUM_PROTOCOLS; i++)
		if (protocols[i].decoder &&
		    !strcmp(protocols[i].decoder, decoder))
			bits |= 1ull << i;
	return bits;
}

/* Read sysfs' protocols file: "rc-5 [nec] ..." (brackets: enabled). */
static int read_protocols(struct m2m_ir_info *info)
{
	char path[96], text[512], *word, *save = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/protocols", info->sysfs);
	f = fopen(path, "r");
	if (!f)
		return m2m_error(errno, "cannot read %s: %s", path,
				 strerror(errno));
	if (!fgets(text, sizeof(text), f))
		text[0] = '\0';
	fclose(f);
	info->protocols = 0;
	info->enabled = 0;
	for (word = strtok_r(text, " \n", &save); word;
	     word = strtok_r(NULL, " \n", &save)) {
		bool on = word[0] == '[';
		size_t len;

		if (on)
			word++;
		len = strlen(word);
		if (len && word[len - 1] == ']')
			word[len - 1] = '\0';
		info->protocols |= decoder_bits(word);
		if (on)
			info->enabled |= decoder_bits(word);
	}
	return 0;
}

/* Describe /sys/class/rc/<entry>; false when it is not an rc device. */
static bool describe(struct m2m_ir_info *info, const char *entry)
{
	char path[320], line[128];
	struct dirent *e;
	DIR *d;
	FILE *f;

	memset(info, 0, sizeof(*info));
	snprintf(info->sysfs, sizeof(info->sysfs), "/sys/class/rc/%.40s",
		 entry);
	snprintf(path, sizeof(path), "%s/uevent", info->sysfs);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "DEV_NAME=", 9))
			snprintf(info->name, sizeof(info->name), "%.63s",
				 line + 9);
		else if (!strncmp(line, "DRV_NAME=", 9))
			snprintf(info->driver, sizeof(info->driver), "%.31s",
				 line + 9);
	}
	fclose(f);

	d = opendir(info->sysfs);
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "lirc", 4))
			snprintf(info->lirc, sizeof(info->lirc), "/dev/%.20s",
				 e->d_name);
	if (d)
		closedir(d);
	if (info->lirc[0]) {
		int fd = open(info->lirc, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		uint32_t features = 0;

		if (fd >= 0 && ioctl(fd, LIRC_GET_FEATURES, &features) == 0)
			info->can_send = !!(features & LIRC_CAN_SEND_PULSE);
		if (fd >= 0)
			close(fd);
	}
	read_protocols(info);
	return true;
}

static int by_version(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

int m2m_ir_list(struct m2m_ir_info **out, size_t *count)
{
	struct m2m_ir_info *list = NULL;
	struct dirent **entries = NULL;
	bool out_of_memory = false;
	size_t n = 0;
	int i, k;

	if (!out || !count)
		return m2m_error(EINVAL, "m2m_ir_list: %s is NULL",
				 out ? "count" : "out");
	*out = NULL;
	*count = 0;
	/* No rc class at all is no device; no memory is an error. */
	k = scandir("/sys/class/rc", &entries, NULL, by_version);
	if (k < 0 && errno == ENOMEM)
		out_of_memory = true;
	for (i = 0; i < k; i++) {
		struct m2m_ir_info info, *grown = NULL;

		if (!out_of_memory && !strncmp(entries[i]->d_name, "rc", 2) &&
		    describe(&info, entries[i]->d_name)) {
			grown = realloc(list, (n + 1) * sizeof(*list));
			out_of_memory = !grown;
		}
		if (grown) {
			list = grown;
			list[n++] = info;
		}
		free(entries[i]);
	}
	free(entries);
	if (out_of_memory) {
		free(list);
		return m2m_error(ENOMEM, "m2m_ir_list: out of memory");
	}
	*out = list;
	*count = n;
	return 0;
}

void m2m_ir_free_list(struct m2m_ir_info *list)
{
	free(list);
}

static bool matches(const struct m2m_ir_info *info, const char *name)
{
	return !strcmp(info->name, name) || !strcmp(info->driver, name) ||
	       !strcmp(info->lirc, name) ||
	       !strcmp(strrchr(info->sysfs, '/') + 1, name);
}

/* The rc device name stands for, in *info. */
static int find(struct m2m_ir_info *info, const char *name)
{
	struct m2m_ir_info *list;
	size_t n, i, pick = (size_t)-1;
	int ret = m2m_ir_list(&list, &n);

	if (ret < 0)
		return ret;
	for (i = 0; i < n && pick == (size_t)-1; i++)
		if (strcmp(name, "auto") ? matches(&list[i], name) :
					   list[i].can_send)
			pick = i;
	if (pick == (size_t)-1 && !strcmp(name, "auto") && n)
		pick = 0;
	if (pick != (size_t)-1)
		*info = list[pick];
	m2m_ir_free_list(list);
	if (pick == (size_t)-1)
		return m2m_error(ENOENT, "m2m_ir_open: no rc device \"%s\"",
				 name);
	return 0;
}

static int open_lirc(const struct m2m_ir_info *info, uint32_t mode)
{
	int fd = open(info->lirc, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	int err;

	if (fd < 0)
		return m2m_error(errno, "m2m_ir_open: cannot open %s: %s",
				 info->lirc, strerror(errno));
	if (ioctl(fd, LIRC_SET_REC_MODE, &mode) == 0 || errno == ENOTTY)
		return fd;
	err = errno;
	close(fd);
	return m2m_error(err, "LIRC_SET_REC_MODE on %s: %s", info->lirc,
			 strerror(err));
}

static void ir_free(struct m2m_ir *ir)
{
	if (ir->fd >= 0)
		close(ir->fd);
	if (ir->raw_fd >= 0)
		close(ir->raw_fd);
	if (ir->wake_fd >= 0)
		close(ir->wake_fd);
	pthread_mutex_destroy(&ir->lock);
	free(ir);
}

int m2m_ir_open(struct m2m_ir **out, const char *name)
{
	struct m2m_ir *ir;
	int ret;

	if (!out)
		return m2m_error(EINVAL, "m2m_ir_open: out is NULL");
	*out = NULL;
	if (!name || !*name)
		return m2m_error(EINVAL, "m2m_ir_open: name is empty");
	ir = calloc(1, sizeof(*ir));
	if (!ir)
		return m2m_error(ENOMEM, "m2m_ir_open: out of memory");
	pthread_mutex_init(&ir->lock, NULL);
	ir->fd = ir->raw_fd = -1;
	ir->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ret = ir->wake_fd < 0 ? m2m_error(errno, "m2m_ir_open: eventfd: %s",
					  strerror(errno)) : 0;
	if (ret == 0)
		ret = find(&ir->info, name);
	if (ret == 0 && !ir->info.lirc[0])
		ret = m2m_error(ENODEV, "m2m_ir_open: %s has no lirc node",
				ir->info.sysfs);
	if (ret == 0)
		ret = ir->fd = open_lirc(&ir->info, LIRC_MODE_SCANCODE);
	if (ret >= 0)
		ret = ir->raw_fd = open_lirc(&ir->info, LIRC_MODE_MODE2);
	if (ret < 0) {
		ir_free(ir);
		return ret;
	}
	m2m_handle_add(&irs, &ir->handle, (uintptr_t)ir, &ir->lock);
	*out = ir;
	return 0;
}

void m2m_ir_close(struct m2m_ir *ir)
{
	struct m2m_handle *h = ir ? m2m_handle_close(&irs, (uintptr_t)ir) :
				    NULL;
	uint64_t one = 1;

	if (!h)
		return;
	/* Reads waiting end now (a nonblocking eventfd at 0 takes it). */
	if (write(ir->wake_fd, &one, sizeof(one)) != sizeof(one))
		m2m_log(M2M_LOG_ERROR, "m2m_ir_close: eventfd: %s",
			strerror(errno));
	m2m_handle_drain(&irs, h);
	ir_free(ir);
}

/*
 * Check that ir is an open handle, take a reference on it and its lock:
 * 0, or -EINVAL naming func. Every call on a handle starts with
 * IR_ENTER and leaves through ir_leave(), which returns ret.
 */
static int ir_enter(struct m2m_ir *ir, const char *func)
{
	struct m2m_handle *h;
	int ret;

	if (!ir)
		return m2m_error(EINVAL, "%s: IR handle is NULL", func);
	ret = m2m_handle_enter(&irs, (uintptr_t)ir, &h);
	return ret ? m2m_refuse_handle(ret, "IR", func) : 0;
}
#define IR_ENTER(ir)                                                       \
	do {                                                               \
		int enter_ret_ = ir_enter(ir, __func__);                   \
		if (enter_ret_ < 0)                                        \
			return enter_ret_;                                 \
	} while (0)

static int ir_leave(struct m2m_ir *ir, int ret)
{
	m2m_handle_leave(&irs, &ir->handle);
	return ret;
}

int m2m_ir_get_info(struct m2m_ir *ir, struct m2m_ir_info *info)
{
	int ret = 0;

	IR_ENTER(ir);
	if (!info)
		ret = m2m_error(EINVAL, "m2m_ir_get_info: info is NULL");
	if (ret == 0)
		ret = read_protocols(&ir->info);
	if (ret == 0)
		*info = ir->info;
	return ir_leave(ir, ret);
}

/* "nec +rc-6": each decoder of bits once; "none" for none. */
static void protocols_text(char *text, size_t size, uint64_t bits)
{
	uint64_t written = 0;
	unsigned int i;

	text[0] = '\0';
	for (i = 0; i < NUM_PROTOCOLS; i++) {
		const char *dec = protocols[i].decoder;

		if (!(bits >> i & 1) || !dec || decoder_bits(dec) & written)
			continue;
		written |= decoder_bits(dec);
		/* A bare name replaces the set, a +name adds to it. */
		snprintf(text + strlen(text), size - strlen(text), "%s%s",
			 text[0] ? " +" : "", dec);
	}
	if (!text[0])
		snprintf(text, size, "none");
}

static int set_protocols(struct m2m_ir *ir, uint64_t bits)
{
	char path[96], text[256];
	unsigned int i;
	int fd, ret;
	ssize_t n;

	ret = read_protocols(&ir->info);
	if (ret < 0)
		return ret;
	for (i = 0; i < 64; i++)
		if (bits >> i & 1 && !(ir->info.protocols >> i & 1))
			return m2m_error(EINVAL, "m2m_ir_set_protocols: %s "
					 "cannot decode %s", ir->info.name,
					 m2m_ir_protocol_name(i) ?
					 m2m_ir_protocol_name(i) : "an unknown "
					 "protocol");
	protocols_text(text, sizeof(text), bits);
	snprintf(path, sizeof(path), "%s/protocols", ir->info.sysfs);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return m2m_error(errno, "m2m_ir_set_protocols: cannot open %s: "
				 "%s", path, strerror(errno));
	n = write(fd, text, strlen(text));
	ret = n < 0 ? m2m_error(errno, "m2m_ir_set_protocols: writing \"%s\" "
				"to %s: %s", text, path, strerror(errno)) : 0;
	close(fd);
	return ret;
}

int m2m_ir_set_protocols(struct m2m_ir *ir, uint64_t bits)
{
	IR_ENTER(ir);
	return ir_leave(ir, set_protocols(ir, bits));
}

static int send_mode(struct m2m_ir *ir, uint32_t mode, const char *func)
{
	if (ioctl(ir->fd, LIRC_SET_SEND_MODE, &mode) < 0)
		return m2m_error(errno, "%s: %s cannot send (LIRC_SET_SEND_MODE:"
				 " %s)", func, ir->info.lirc, strerror(errno));
	return 0;
}

static int send(struct m2m_ir *ir, const void *data, size_t size,
		const char *func)
{
	ssize_t n;

	do
		n = write(ir->fd, data, size);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return m2m_error(errno, "%s: write to %s: %s", func,
				 ir->info.lirc, strerror(errno));
	return 0;
}

int m2m_ir_send_raw(struct m2m_ir *ir, const uint32_t *durations,
		    size_t count)
{
	int ret = 0;
	size_t i;

	IR_ENTER(ir);
	if (!durations)
		ret = m2m_error(EINVAL, "m2m_ir_send_raw: durations is NULL");
	/* What lirc refuses with a bare EINVAL, named. */
	if (ret == 0 && count % 2 == 0)
		ret = m2m_error(EINVAL, "m2m_ir_send_raw: %zu timings: lirc "
				"takes an odd count, a mark first and last",
				count);
	for (i = 0; ret == 0 && i < count; i++)
		if (!durations[i])
			ret = m2m_error(EINVAL, "m2m_ir_send_raw: timing %zu is "
					"0 us", i);
	if (ret == 0)
		ret = send_mode(ir, LIRC_MODE_PULSE, __func__);
	if (ret == 0)
		ret = send(ir, durations, count * sizeof(*durations),
			   __func__);
	return ir_leave(ir, ret);
}

int m2m_ir_send_scancode(struct m2m_ir *ir, unsigned int protocol,
			 uint64_t scancode)
{
	struct lirc_scancode sc = {
		.rc_proto = (uint16_t)protocol,
		.scancode = scancode,
	};
	int ret = 0;

	IR_ENTER(ir);
	if (protocol > 0xffff)
		ret = m2m_error(EINVAL, "m2m_ir_send_scancode: unknown "
				"protocol %u", protocol);
	if (ret == 0)
		ret = send_mode(ir, LIRC_MODE_SCANCODE, __func__);
	if (ret == 0)
		ret = send(ir, &sc, sizeof(sc), __func__);
	return ir_leave(ir, ret);
}

/*
 * Wait until fd is readable, without the handle's lock, so that other
 * threads may send meanwhile: 0, -ETIMEDOUT, -EINVAL when another thread
 * closes the handle meanwhile, or a negative errno.
 */
static int wait_readable(struct m2m_ir *ir, int fd, int timeout_ms,
			 const char *func)
{
	struct pollfd pfd[2] = {
		{ .fd = fd, .events = POLLIN },
		{ .fd = ir->wake_fd, .events = POLLIN },
	};
	int n, err;

	pthread_mutex_unlock(&ir->lock);
	do
		n = poll(pfd, 2, timeout_ms);
	while (n < 0 && errno == EINTR);
	err = errno;
	pthread_mutex_lock(&ir->lock);
	if (pfd[1].revents || m2m_handle_closing(&ir->handle))
		return m2m_error(EINVAL, "%s: the IR handle was closed by "
				 "another thread", func);
	if (n < 0)
		return m2m_error(err, "%s: poll on %s: %s", func,
				 ir->info.lirc, strerror(err));
	if (n == 0)
		return m2m_error(ETIMEDOUT, "%s: nothing from %s in %d ms",
				 func, ir->info.lirc, timeout_ms);
	return 0;
}

static int read_scancode(struct m2m_ir *ir, struct m2m_ir_scancode *out,
			 int timeout_ms)
{
	struct lirc_scancode sc;
	ssize_t n;
	int ret;

	for (;;) {
		n = read(ir->fd, &sc, sizeof(sc));
		if (n == sizeof(sc))
			break;
		if (n >= 0 || (errno != EAGAIN && errno != EINTR))
			return m2m_error(n < 0 ? errno : EIO, "m2m_ir_read_"
					 "scancode: read from %s: %s",
					 ir->info.lirc, n < 0 ?
					 strerror(errno) : "short read");
		ret = wait_readable(ir, ir->fd, timeout_ms,
				    "m2m_ir_read_scancode");
		if (ret < 0)
			return ret;
	}
	out->timestamp_ns = sc.timestamp;
	out->protocol = sc.rc_proto;
	out->flags = sc.flags;
	out->scancode = sc.scancode;
	out->keycode = sc.keycode;
	return 0;
}

int m2m_ir_read_scancode(struct m2m_ir *ir, struct m2m_ir_scancode *out,
			 int timeout_ms)
{
	IR_ENTER(ir);
	if (!out)
		return ir_leave(ir, m2m_error(EINVAL, "m2m_ir_read_scancode: "
				"sc is NULL"));
	return ir_leave(ir, read_scancode(ir, out, timeout_ms));
}

static int read_raw(struct m2m_ir *ir, uint32_t *values, size_t max,
		    int timeout_ms)
{
	ssize_t n;
	int ret;

	for (;;) {
		n = read(ir->raw_fd, values, max * sizeof(*values));
		if (n > 0)
			return (int)(n / sizeof(*values));
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			return m2m_error(n < 0 ? errno : EIO, "m2m_ir_read_raw: "
					 "read from %s: %s", ir->info.lirc,
					 n < 0 ? strerror(errno) : "end of file");
		ret = wait_readable(ir, ir->raw_fd, timeout_ms,
				    "m2m_ir_read_raw");
		if (ret < 0)
			return ret;
	}
}

int m2m_ir_read_raw(struct m2m_ir *ir, uint32_t *values, size_t max,
		    int timeout_ms)
{
	IR_ENTER(ir);
	if (!values || !max)
		return ir_leave(ir, m2m_error(EINVAL, "m2m_ir_read_raw: no "
				"room for values"));
	return ir_leave(ir, read_raw(ir, values, max, timeout_ms));
}

int m2m_ir_get_fd(struct m2m_ir *ir)
{
	IR_ENTER(ir);
	return ir_leave(ir, ir->fd);
}

int m2m_ir_get_raw_fd(struct m2m_ir *ir)
{
	IR_ENTER(ir);
	return ir_leave(ir, ir->raw_fd);
}
