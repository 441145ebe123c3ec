// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * m2m ir: rc devices through libm2m's m2m_ir_* API, with ir-ctl's
 * conventions: -S PROTOCOL:SCANCODE to send, raw timings printed as
 * +PULSE -SPACE in microseconds.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/lirc.h>
#include <m2m/ir.h>
#include <m2m/m2m.h>

#include "m2m-tool.h"

#define VERB "ir"

const char ir_help[] =
	"usage: m2m ir SUBVERB [-d DEV] [OPTIONS]\n"
	"\n"
	"  protocols            the rc devices with the protocols each decodes\n"
	"                       ([enabled] ones bracketed), and libm2m's encoders\n"
	"  send -S PROTO:SCAN   send a scancode (ir-ctl -S), e.g. -S nec:0x04a1\n"
	"  watch [-p PROTOS]    print decoded scancodes, enabling PROTOS first\n"
	"                       (comma-separated, as ir-keytable -p)\n"
	"  record               print raw timings as ir-ctl -r does: +pulse -space\n"
	"\n"
	"  -d, --device DEV     an rc device name (vhqv-ir), driver, rcN, a lirc\n"
	"                       node, or auto (the default)\n"
	"  -n, --count N        watch, record: stop after N scancodes or messages\n"
	"  -T, --timeout MS     watch, record: stop after MS ms with nothing\n";

static const struct option options[] = {
	{ "device", required_argument, NULL, 'd' },
	{ "scancode", required_argument, NULL, 'S' },
	{ "protocols", required_argument, NULL, 'p' },
	{ "count", required_argument, NULL, 'n' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

struct ir_args {
	const char *device, *scancode, *protocols;
	long long count, timeout;
};

static void print_protocols(uint64_t bits, uint64_t enabled)
{
	for (unsigned int p = 0; p < 64; p++) {
		const char *name = m2m_ir_protocol_name(p);

		if (!(bits & 1ull << p) || !name)
			continue;
		printf(enabled & 1ull << p ? " [%s]" : " %s", name);
	}
	putchar('\n');
}

static int protocols(void)
{
	struct m2m_ir_info *list;
	size_t count;
	int err = m2m_ir_list(&list, &count);

	if (err < 0)
		return lib_error(VERB, err, "listing rc devices");
	for (size_t i = 0; i < count; i++) {
		printf("%s (%s, %s, %s%s):", list[i].name, list[i].driver,
		       list[i].sysfs, list[i].lirc[0] ? list[i].lirc : "no lirc",
		       list[i].can_send ? ", can send" : "");
		print_protocols(list[i].protocols, list[i].enabled);
	}
	if (!count)
		printf("no rc devices\n");
	m2m_ir_free_list(list);
	printf("libm2m encodes:");
	print_protocols(m2m_ir_encoders(), 0);
	return EXIT_OK;
}

static int send_scancode(struct m2m_ir *ir, const char *spec)
{
	char name[32];
	const char *colon = strchr(spec, ':');
	long long scancode;
	int protocol, err;

	if (!colon || colon - spec >= (long)sizeof(name) ||
	    parse_long(colon + 1, &scancode) || scancode < 0)
		return usage_error(VERB, "-S takes PROTOCOL:SCANCODE, not '%s'",
				   spec);
	snprintf(name, sizeof(name), "%.*s", (int)(colon - spec), spec);
	protocol = m2m_ir_protocol_from_name(name);
	if (protocol < 0)
		return usage_error(VERB, "unknown protocol '%s'", name);
	err = m2m_ir_send_scancode(ir, protocol, scancode);
	return err < 0 ? lib_error(VERB, err, "sending %s", spec) : EXIT_OK;
}

static int enable(struct m2m_ir *ir, char *list)
{
	uint64_t bits = 0;
	int err;

	for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
		int p = m2m_ir_protocol_from_name(t);

		if (p < 0)
			return usage_error(VERB, "unknown protocol '%s'", t);
		bits |= 1ull << p;
	}
	err = m2m_ir_set_protocols(ir, bits);
	return err < 0 ? lib_error(VERB, err, "enabling %s", list) : 0;
}

static int watch(struct m2m_ir *ir, const struct ir_args *a)
{
	struct m2m_ir_scancode sc;

	for (long long n = 0; a->count < 0 || n < a->count; n++) {
		int err = m2m_ir_read_scancode(ir, &sc, (int)a->timeout);

		if (err == -ETIMEDOUT)
			return EXIT_OK;
		if (err < 0)
			return lib_error(VERB, err, "reading");
		printf("%s: scancode = 0x%" PRIx64 "%s%s\n",
		       m2m_ir_protocol_name(sc.protocol) ?: "unknown",
		       sc.scancode,
		       sc.flags & LIRC_SCANCODE_FLAG_TOGGLE ? " toggle=1" : "",
		       sc.flags & LIRC_SCANCODE_FLAG_REPEAT ? " repeat" : "");
		fflush(stdout);
	}
	return EXIT_OK;
}

static int record(struct m2m_ir *ir, const struct ir_args *a)
{
	uint32_t values[512];

	for (long long messages = 0; a->count < 0 || messages < a->count;) {
		int n = m2m_ir_read_raw(ir, values, 512, (int)a->timeout);

		if (n == -ETIMEDOUT)
			return EXIT_OK;
		if (n < 0)
			return lib_error(VERB, n, "reading");
		for (int i = 0; i < n; i++) {
			uint32_t v = LIRC_VALUE(values[i]);

			if (LIRC_IS_PULSE(values[i]))
				printf("+%u ", v);
			else if (LIRC_IS_SPACE(values[i]))
				printf("-%u ", v);
			else if (LIRC_IS_TIMEOUT(values[i])) {
				printf("# timeout %u\n", v);
				messages++;
			}
		}
		fflush(stdout);
	}
	return EXIT_OK;
}

int cmd_ir(int argc, char **argv)
{
	struct ir_args a = { .count = -1, .timeout = -1 };
	const char *sub;
	struct m2m_ir *ir;
	char *protos = NULL;
	int opt, err, ret;

	optind = 0;
	while ((opt = verb_getopt(argc, argv, "d:S:p:n:T:h", options,
				  VERB)) != -1) {
		switch (opt) {
		case 'd': a.device = optarg; break;
		case 'S': a.scancode = optarg; break;
		case 'p': protos = optarg; break;
		case 'n':
			if (parse_long(optarg, &a.count) || a.count < 1)
				return usage_error(VERB, "--count takes a number "
						   "from 1, not '%s'", optarg);
			break;
		case 'T':
			if (parse_long(optarg, &a.timeout) || a.timeout < 0 ||
			    a.timeout > 86400000)
				return usage_error(VERB, "--timeout takes "
						   "milliseconds, not '%s'", optarg);
			break;
		default:
			return opt == 'h' ? EXIT_OK : EXIT_USAGE;
		}
	}
	/* The subverb is the one operand, wherever the options are. */
	sub = optind < argc ? argv[optind++] : NULL;
	if (!sub || (strcmp(sub, "protocols") && strcmp(sub, "send") &&
		     strcmp(sub, "watch") && strcmp(sub, "record")))
		return usage_error(VERB, "takes protocols, send, watch or record");
	if (optind < argc)
		return usage_error(VERB, "unexpected argument '%s'",
				   argv[optind]);
	if (!strcmp(sub, "protocols"))
		return protocols();
	if (!strcmp(sub, "send") && !a.scancode)
		return usage_error(VERB, "send needs -S PROTOCOL:SCANCODE");
	err = m2m_ir_open(&ir, a.device ? a.device : "auto");
	if (err < 0)
		return lib_error(VERB, err, "opening %s", a.device ? a.device :
				 "an rc device");
	if (!strcmp(sub, "send"))
		ret = send_scancode(ir, a.scancode);
	else if (protos && (ret = enable(ir, protos)))
		;
	else
		ret = !strcmp(sub, "watch") ? watch(ir, &a) : record(ir, &a);
	m2m_ir_close(ir);
	return ret;
}
