// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rc devices: found in sysfs (/sys/class/rc/rcN: its uevent names it, its
 * protocols file lists and enables decoders, a lircN entry names its lirc
 * node), driven through lirc: one file receives scancodes, another raw
 * timings (the receive mode is per file), and sending sets the file's
 * send mode each time.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/lirc.h>

#include "m2m-private.h"
#include "m2m/ir.h"

struct m2m_ir {
	struct m2m_ir_info info;
	int fd;		/* scancodes received; sending */
	int raw_fd;	/* raw timings received */
};

/*
 * Protocols: lirc's name of each enum rc_proto, and the sysfs name of the
 * kernel decoder that decodes it.
 */
static const struct {
	const char *name;
	const char *decoder;
} protocols[] = {
	[RC_PROTO_RC5] = { "rc-5", "rc-5" },
	[RC_PROTO_RC5X_20] = { "rc-5x-20", "rc-5" },
	[RC_PROTO_RC5_SZ] = { "rc-5-sz", "rc-5-sz" },
	[RC_PROTO_JVC] = { "jvc", "jvc" },
	[RC_PROTO_SONY12] = { "sony-12", "sony" },
	[RC_PROTO_SONY15] = { "sony-15", "sony" },
	[RC_PROTO_SONY20] = { "sony-20", "sony" },
	[RC_PROTO_NEC] = { "nec", "nec" },
	[RC_PROTO_NECX] = { "nec-x", "nec" },
	[RC_PROTO_NEC32] = { "nec-32", "nec" },
	[RC_PROTO_SANYO] = { "sanyo", "sanyo" },
	[RC_PROTO_MCIR2_KBD] = { "mcir2-kbd", "mce_kbd" },
	[RC_PROTO_MCIR2_MSE] = { "mcir2-mse", "mce_kbd" },
	[RC_PROTO_RC6_0] = { "rc-6-0", "rc-6" },
	[RC_PROTO_RC6_6A_20] = { "rc-6-6a-20", "rc-6" },
	[RC_PROTO_RC6_6A_24] = { "rc-6-6a-24", "rc-6" },
	[RC_PROTO_RC6_6A_32] = { "rc-6-6a-32", "rc-6" },
	[RC_PROTO_RC6_MCE] = { "rc-6-mce", "rc-6" },
	[RC_PROTO_SHARP] = { "sharp", "sharp" },
	[RC_PROTO_XMP] = { "xmp", "xmp" },
	[RC_PROTO_CEC] = { "cec", "cec" },
	[RC_PROTO_IMON] = { "imon", "imon" },
	[RC_PROTO_RCMM12] = { "rc-mm-12", "rc-mm" },
	[RC_PROTO_RCMM24] = { "rc-mm-24", "rc-mm" },
	[RC_PROTO_RCMM32] = { "rc-mm-32", "rc-mm" },
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
	size_t n = 0;
	int i, k;

	if (!out || !count)
		return m2m_error(EINVAL, "m2m_ir_list: %s is NULL",
				 out ? "count" : "out");
	*out = NULL;
	*count = 0;
	k = scandir("/sys/class/rc", &entries, NULL, by_version);
	for (i = 0; i < k; i++) {
		struct m2m_ir_info info, *grown;

		if (!strncmp(entries[i]->d_name, "rc", 2) &&
		    describe(&info, entries[i]->d_name)) {
			grown = realloc(list, (n + 1) * sizeof(*list));
			if (grown) {
				list = grown;
				list[n++] = info;
			}
		}
		free(entries[i]);
	}
	free(entries);
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
	ir->fd = ir->raw_fd = -1;
	ret = find(&ir->info, name);
	if (ret == 0 && !ir->info.lirc[0])
		ret = m2m_error(ENODEV, "m2m_ir_open: %s has no lirc node",
				ir->info.sysfs);
	if (ret == 0)
		ret = ir->fd = open_lirc(&ir->info, LIRC_MODE_SCANCODE);
	if (ret >= 0)
		ret = ir->raw_fd = open_lirc(&ir->info, LIRC_MODE_MODE2);
	if (ret < 0) {
		m2m_ir_close(ir);
		return ret;
	}
	*out = ir;
	return 0;
}

void m2m_ir_close(struct m2m_ir *ir)
{
	if (!ir)
		return;
	if (ir->fd >= 0)
		close(ir->fd);
	if (ir->raw_fd >= 0)
		close(ir->raw_fd);
	free(ir);
}

static int check(const struct m2m_ir *ir, const char *func)
{
	if (!ir)
		return m2m_error(EINVAL, "%s: IR handle is NULL", func);
	return 0;
}

int m2m_ir_get_info(struct m2m_ir *ir, struct m2m_ir_info *info)
{
	int ret = check(ir, __func__);

	if (ret == 0 && !info)
		ret = m2m_error(EINVAL, "m2m_ir_get_info: info is NULL");
	if (ret == 0)
		ret = read_protocols(&ir->info);
	if (ret == 0)
		*info = ir->info;
	return ret;
}

int m2m_ir_set_protocols(struct m2m_ir *ir, uint64_t bits)
{
	char path[96], text[256] = "";
	uint64_t written = 0;
	unsigned int i;
	int fd, ret = check(ir, __func__);
	ssize_t n;

	if (ret < 0)
		return ret;
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
	/* Each decoder once: "nec +rc-6", or "none". */
	for (i = 0; i < NUM_PROTOCOLS; i++) {
		const char *dec = protocols[i].decoder;

		if (!(bits >> i & 1) || !dec || decoder_bits(dec) & written)
			continue;
		written |= decoder_bits(dec);
		/* A bare name replaces the set, a +name adds to it. */
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "%s%s", text[0] ? " +" : "", dec);
	}
	if (!text[0])
		snprintf(text, sizeof(text), "none");
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
	int ret = check(ir, __func__);
	size_t i;

	if (ret == 0 && !durations)
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
	return ret;
}

int m2m_ir_send_scancode(struct m2m_ir *ir, unsigned int protocol,
			 uint64_t scancode)
{
	struct lirc_scancode sc = {
		.rc_proto = (uint16_t)protocol,
		.scancode = scancode,
	};
	int ret = check(ir, __func__);

	if (ret == 0 && protocol > 0xffff)
		ret = m2m_error(EINVAL, "m2m_ir_send_scancode: unknown "
				"protocol %u", protocol);
	if (ret == 0)
		ret = send_mode(ir, LIRC_MODE_SCANCODE, __func__);
	if (ret == 0)
		ret = send(ir, &sc, sizeof(sc), __func__);
	return ret;
}

/* Wait until fd is readable: 0, -ETIMEDOUT, or a negative errno. */
static int wait_readable(struct m2m_ir *ir, int fd, int timeout_ms,
			 const char *func)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int n;

	do
		n = poll(&pfd, 1, timeout_ms);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return m2m_error(errno, "%s: poll on %s: %s", func,
				 ir->info.lirc, strerror(errno));
	if (n == 0)
		return m2m_error(ETIMEDOUT, "%s: nothing from %s in %d ms",
				 func, ir->info.lirc, timeout_ms);
	return 0;
}

int m2m_ir_read_scancode(struct m2m_ir *ir, struct m2m_ir_scancode *out,
			 int timeout_ms)
{
	struct lirc_scancode sc;
	ssize_t n;
	int ret = check(ir, __func__);

	if (ret == 0 && !out)
		ret = m2m_error(EINVAL, "m2m_ir_read_scancode: sc is NULL");
	if (ret < 0)
		return ret;
	for (;;) {
		n = read(ir->fd, &sc, sizeof(sc));
		if (n == sizeof(sc))
			break;
		if (n >= 0 || (errno != EAGAIN && errno != EINTR))
			return m2m_error(n < 0 ? errno : EIO, "m2m_ir_read_"
					 "scancode: read from %s: %s",
					 ir->info.lirc, n < 0 ?
					 strerror(errno) : "short read");
		ret = wait_readable(ir, ir->fd, timeout_ms, __func__);
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

int m2m_ir_read_raw(struct m2m_ir *ir, uint32_t *values, size_t max,
		    int timeout_ms)
{
	ssize_t n;
	int ret = check(ir, __func__);

	if (ret == 0 && (!values || !max))
		ret = m2m_error(EINVAL, "m2m_ir_read_raw: no room for values");
	if (ret < 0)
		return ret;
	for (;;) {
		n = read(ir->raw_fd, values, max * sizeof(*values));
		if (n > 0)
			return (int)(n / sizeof(*values));
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			return m2m_error(n < 0 ? errno : EIO, "m2m_ir_read_raw: "
					 "read from %s: %s", ir->info.lirc,
					 n < 0 ? strerror(errno) : "end of file");
		ret = wait_readable(ir, ir->raw_fd, timeout_ms, __func__);
		if (ret < 0)
			return ret;
	}
}

int m2m_ir_get_fd(struct m2m_ir *ir)
{
	int ret = check(ir, __func__);

	return ret < 0 ? ret : ir->fd;
}
