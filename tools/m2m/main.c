// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * m2m: the command-line face of libm2m. Dispatches to a verb, and holds
 * what every verb shares: help, the one-line error convention and the
 * exit codes (m2m-tool.h).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include <m2m/m2m.h>

#include "m2m-tool.h"

static const char main_help[] =
	"usage: m2m [--help] [--version] VERB [OPTIONS] [ARGS]\n"
	"\n"
	"Video processing through V4L2 memory-to-memory devices (vhqv, vim2m,\n"
	"any m2m node) or libm2m's in-process engine (\"inprocess\").\n"
	"\n"
	"Verbs:\n"
	"  list                  the m2m devices, with driver and capabilities\n"
	"  info [DEV]            formats, sizes, controls and events of a device\n"
	"  convert IN OUT        convert frames: raw, Y4M (- for pipes), PNG, PPM\n"
	"  decode IN OUT         decode a coded stream on a decoder node\n"
	"  encode IN OUT         encode frames on an encoder node\n"
	"  transcode IN OUT      decode, convert and encode in a chain of nodes\n"
	"  events [DEV]          print a device's events as they arrive\n"
	"  ir SUBVERB            IR: protocols, send, watch, record\n"
	"\n"
	"`m2m VERB --help` describes a verb. Exit status: 0 done, 1 failed\n"
	"(device, file or library error), 2 wrong usage. Every error is one line\n"
	"on stderr: `m2m VERB: what: message (errno)`.\n";

static const char list_help[] =
	"usage: m2m list\n"
	"\n"
	"List the m2m devices: every V4L2 node with the M2M or M2M_MPLANE\n"
	"capability in /dev/videoN order, then the in-process device. One line\n"
	"each: path, driver, card, API (single- or multi-planar) and V4L2\n"
	"capabilities.\n";

static const char info_help[] =
	"usage: m2m info [-d DEV] [DEV]\n"
	"\n"
	"Describe a device: identity, the formats of both queues with the sizes\n"
	"they take, every control with its range, default and menu, and the\n"
	"events it sends.\n"
	"\n"
	"  -d, --device DEV   a node (/dev/video0), a driver (vhqv, vim2m),\n"
	"                     inprocess, or auto (the default)\n";

static const char events_help[] =
	"usage: m2m events [-d DEV] [-t TYPES] [-n COUNT] [-T MS] [-i] [DEV]\n"
	"\n"
	"Print a device's events as they arrive, one line each, as\n"
	"`v4l2-ctl --wait-for-event` does: control changes made by other\n"
	"programs (v4l2-ctl -c, another m2m) on a V4L2 node.\n"
	"\n"
	"  -d, --device DEV   the device (default: auto)\n"
	"  -t, --type TYPES   comma-separated: ctrl, frame_sync, eos,\n"
	"                     source_change (default: all the device sends)\n"
	"  -n, --count N      stop after N events\n"
	"  -T, --timeout MS   stop after MS milliseconds without an event\n"
	"  -i, --initial      report each control's value at once\n";

extern const char ir_help[];

static const struct verb verbs[] = {
	{ "list", cmd_list, list_help },
	{ "info", cmd_info, info_help },
	{ "convert", cmd_convert, convert_help },
	{ "decode", cmd_decode, decode_help },
	{ "encode", cmd_encode, encode_help },
	{ "transcode", cmd_transcode, transcode_help },
	{ "events", cmd_events, events_help },
	{ "ir", cmd_ir, ir_help },
};

/* Whether stderr's last line is a progress bar still being drawn. */
static int progress_shown;

void progress(long long done, long long total)
{
	int width = 40, filled;

	/* A bar is for a person watching: a log or a pipe gets none. */
	if (!isatty(STDERR_FILENO))
		return;
	if (total > 0) {
		filled = (int)(done * width / total);
		fprintf(stderr, "\r[%.*s%*s] %lld/%lld frames",
			filled, "########################################",
			width - filled, "", done, total);
	} else {
		fprintf(stderr, "\r%lld frames", done);
	}
	progress_shown = 1;
}

void progress_end(void)
{
	if (progress_shown)
		fputc('\n', stderr);
	progress_shown = 0;
}

static void vreport(const char *verb, const char *fmt, va_list ap)
{
	/* An error starts a line of its own, not the bar's. */
	progress_end();
	fprintf(stderr, "m2m %s: ", verb);
	vfprintf(stderr, fmt, ap);
}

int usage_error(const char *verb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(verb, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see m2m %s --help)\n", verb);
	return EXIT_USAGE;
}

int failure(const char *verb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(verb, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_FAILED;
}

int lib_error(const char *verb, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(verb, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s (%d)\n", m2m_last_error(), err);
	return EXIT_FAILED;
}

void print_help(const char *help)
{
	fputs(help, stdout);
}

static const char *help_of(const char *verb)
{
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strcmp(verbs[i].name, verb) == 0)
			return verbs[i].help;
	return main_help;
}

int verb_getopt(int argc, char **argv, const char *shortopts,
		const struct option *longopts, const char *verb)
{
	char opts[64];
	int opt;

	/*
	 * A leading ':' reports a missing argument apart from an unknown
	 * option. Options go anywhere, before or after the operands, as
	 * FFmpeg and GNU tools take them: glibc's getopt permutes argv so
	 * that the operands end up after optind ("-" is an operand, "--"
	 * ends the options).
	 */
	snprintf(opts, sizeof(opts), ":%s", shortopts);
	opt = getopt_long(argc, argv, opts, longopts, NULL);
	if (opt == 'h') {
		print_help(help_of(verb));
		return 'h';
	}
	if (opt == ':') {
		usage_error(verb, "%s needs a value", argv[optind - 1]);
		return '?';
	}
	if (opt == '?') {
		if (optopt)
			usage_error(verb, "unknown option -%c", optopt);
		else
			usage_error(verb, "unknown option %s", argv[optind - 1]);
		return '?';
	}
	return opt;
}

const char *parse_number(const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	/* strtoull would take a sign, spaces and "0x"; a size takes digits. */
	if (!isdigit((unsigned char)*s))
		return NULL;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || x > UINT32_MAX)
		return NULL;
	*v = (uint32_t)x;
	return end;
}

int parse_size(const char *s, uint32_t *w, uint32_t *h)
{
	s = parse_number(s, w);
	if (!s || *s != 'x')
		return -1;
	s = parse_number(s + 1, h);
	return s && !*s && *w && *h ? 0 : -1;
}

int parse_long(const char *s, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 0);
	return errno || end == s || *end ? -1 : 0;
}

uint32_t parse_format(const char *name)
{
	uint32_t fourcc = m2m_fourcc_from_name(name);
	char upper[16];
	size_t i;

	if (m2m_fourcc_to_name(fourcc))
		return fourcc;
	/* Any case, as the Python package takes names ("nv12"). */
	for (i = 0; name[i] && i < sizeof(upper) - 1; i++)
		upper[i] = (char)toupper((unsigned char)name[i]);
	upper[i] = 0;
	fourcc = name[i] ? 0 : m2m_fourcc_from_name(upper);
	return m2m_fourcc_to_name(fourcc) ? fourcc : 0;
}

const char *known_formats(void)
{
	static char list[1024];
	size_t len = 0;
	uint32_t fourcc;

	for (unsigned int i = 0; (fourcc = m2m_fourcc_at(i)) &&
	     len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					i ? ", " : "",
					m2m_fourcc_to_name(fourcc));
	return list;
}

struct m2m_device *open_device(const char *verb, const char *name)
{
	struct m2m_device_info info;
	struct m2m_device *dev;
	int err;

	err = m2m_open(&dev, name ? name : "auto");
	if (err < 0) {
		lib_error(verb, err, "opening %s", name ? name : "a device");
		return NULL;
	}
	if (!name && m2m_device_get_info(dev, &info) == 0 &&
	    info.backend == M2M_BACKEND_INPROCESS)
		fprintf(stderr, "m2m %s: no m2m device node found; using the "
			"in-process engine (--device inprocess)\n", verb);
	return dev;
}

int main(int argc, char **argv)
{
	const char *verb = argc > 1 ? argv[1] : NULL;

	if (!verb) {
		fprintf(stderr, "m2m: no verb (list, info, convert, events, ir; "
			"see m2m --help)\n");
		return EXIT_USAGE;
	}
	if (strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0) {
		print_help(main_help);
		return EXIT_OK;
	}
	if (strcmp(verb, "--version") == 0) {
		printf("m2m %d.%d.%d\n", M2M_VERSION_MAJOR, M2M_VERSION_MINOR,
		       M2M_VERSION_PATCH);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strcmp(verbs[i].name, verb) == 0)
			return verbs[i].run(argc - 1, argv + 1);
	fprintf(stderr, "m2m: unknown verb '%s' (list, info, convert, events, "
		"ir; see m2m --help)\n", verb);
	return EXIT_USAGE;
}
