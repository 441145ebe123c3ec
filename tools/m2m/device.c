// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The verbs about devices: list, info, events.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>
#include <m2m/m2m.h>

#include "m2m-tool.h"

static const struct option device_options[] = {
	{ "device", required_argument, NULL, 'd' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

static void print_caps(uint32_t caps)
{
	static const struct { uint32_t bit; const char *name; } names[] = {
		{ V4L2_CAP_VIDEO_M2M, "m2m" },
		{ V4L2_CAP_VIDEO_M2M_MPLANE, "m2m-mplane" },
		{ V4L2_CAP_STREAMING, "streaming" },
		{ V4L2_CAP_READWRITE, "readwrite" },
		{ V4L2_CAP_EXT_PIX_FORMAT, "ext-pix-format" },
	};

	for (size_t i = 0, n = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (caps & names[i].bit)
			printf("%s%s", n++ ? "," : "", names[i].name);
}

int cmd_list(int argc, char **argv)
{
	struct m2m_device_info *list;
	size_t count;
	int opt, err;

	while ((opt = verb_getopt(argc, argv, "h", device_options + 1,
				  "list")) != -1)
		return opt == 'h' ? EXIT_OK : EXIT_USAGE;
	if (optind < argc)
		return usage_error("list", "takes no argument, not '%s'",
				   argv[optind]);
	err = m2m_list_devices(&list, &count);
	if (err < 0)
		return lib_error("list", err, "listing devices");
	for (size_t i = 0; i < count; i++) {
		printf("%-12s %-8s %-24s %s ", list[i].path, list[i].driver,
		       list[i].card,
		       list[i].multiplanar ? "multi-planar" : "single-planar");
		print_caps(list[i].device_caps);
		putchar('\n');
	}
	m2m_free_device_list(list);
	return EXIT_OK;
}

/* Parse [-d DEV] [DEV]: the device a verb names, or NULL for auto. */
static int device_argument(int argc, char **argv, const char **name,
			   const char *verb)
{
	if (optind < argc) {
		if (*name && strcmp(*name, argv[optind]) != 0)
			return usage_error(verb, "two devices: %s and %s", *name,
					   argv[optind]);
		*name = argv[optind++];
	}
	if (optind < argc)
		return usage_error(verb, "unexpected argument '%s'",
				   argv[optind]);
	return EXIT_OK;
}

static void print_formats(struct m2m_device *dev, enum m2m_queue queue)
{
	struct m2m_format_desc desc;
	struct m2m_frame_sizes s;

	printf("%s formats:\n", queue == M2M_QUEUE_OUTPUT ?
	       "OUTPUT (source)" : "CAPTURE (result)");
	for (unsigned int i = 0; m2m_enum_format(dev, &desc, queue, i) == 0;
	     i++) {
		const char *name = m2m_fourcc_to_name(desc.fourcc);

		printf("  %-8s %.4s  %-24s", name ? name : "?",
		       (const char *)&desc.fourcc, desc.description);
		if (m2m_get_frame_sizes(dev, &s, desc.fourcc) == 0)
			printf(" %ux%u to %ux%u", s.min_width, s.min_height,
			       s.max_width, s.max_height);
		putchar('\n');
	}
}

static const char *control_type(uint32_t type)
{
	switch (type) {
	case M2M_CONTROL_INTEGER: return "int";
	case M2M_CONTROL_BOOLEAN: return "bool";
	case M2M_CONTROL_MENU: return "menu";
	case M2M_CONTROL_BUTTON: return "button";
	case M2M_CONTROL_INTEGER64: return "int64";
	case M2M_CONTROL_INTEGER_MENU: return "intmenu";
	case M2M_CONTROL_BITMASK: return "bitmask";
	default: return "other";
	}
}

static void print_controls(struct m2m_device *dev)
{
	struct m2m_control_info c;
	struct m2m_menu_item item;
	int64_t value;

	printf("controls:\n");
	for (unsigned int i = 0; m2m_control_at(dev, &c, i) == 0; i++) {
		printf("  %-24s %-7s min=%" PRId64 " max=%" PRId64
		       " step=%" PRIu64 " default=%" PRId64, c.name,
		       control_type(c.type), c.minimum, c.maximum, c.step,
		       c.default_value);
		if (m2m_get_control(dev, &value, c.id) == 0)
			printf(" value=%" PRId64, value);
		putchar('\n');
		if (c.type != M2M_CONTROL_MENU &&
		    c.type != M2M_CONTROL_INTEGER_MENU)
			continue;
		for (int64_t v = c.minimum; v <= c.maximum; v++) {
			if (m2m_get_menu_item(dev, &item, c.id, v) < 0)
				continue;
			if (c.type == M2M_CONTROL_MENU)
				printf("    %u: %s\n", item.index, item.name);
			else
				printf("    %u: %" PRId64 "\n", item.index,
				       item.value);
		}
	}
}

/* The event types, by the names --type takes. */
static const struct { uint32_t type; const char *name; } event_types[] = {
	{ M2M_EVENT_CTRL, "ctrl" },
	{ M2M_EVENT_FRAME_SYNC, "frame_sync" },
	{ M2M_EVENT_EOS, "eos" },
	{ M2M_EVENT_SOURCE_CHANGE, "source_change" },
};
#define NUM_EVENT_TYPES (sizeof(event_types) / sizeof(event_types[0]))

/* Subscribe to one type; CTRL means every control. */
static int subscribe(struct m2m_device *dev, uint32_t type, unsigned flags)
{
	struct m2m_control_info c;
	int err;

	if (type != M2M_EVENT_CTRL)
		return m2m_subscribe_event(dev, type, 0, 0);
	for (unsigned int i = 0; m2m_control_at(dev, &c, i) == 0; i++) {
		err = m2m_subscribe_event(dev, type, c.id, flags);
		if (err < 0)
			return err;
	}
	return 0;
}

static void print_events(struct m2m_device *dev)
{
	printf("events:");
	for (size_t i = 0; i < NUM_EVENT_TYPES; i++) {
		if (subscribe(dev, event_types[i].type, 0) == 0)
			printf(" %s", event_types[i].name);
		m2m_unsubscribe_event(dev, event_types[i].type, 0);
	}
	putchar('\n');
}

int cmd_info(int argc, char **argv)
{
	const char *name = NULL;
	struct m2m_device_info info;
	struct m2m_device *dev;
	int opt, err;

	while ((opt = verb_getopt(argc, argv, "d:h", device_options,
				  "info")) != -1) {
		if (opt != 'd')
			return opt == 'h' ? EXIT_OK : EXIT_USAGE;
		name = optarg;
	}
	if (device_argument(argc, argv, &name, "info"))
		return EXIT_USAGE;
	dev = open_device("info", name);
	if (!dev)
		return EXIT_FAILED;
	err = m2m_device_get_info(dev, &info);
	if (err < 0) {
		m2m_close(dev);
		return lib_error("info", err, "describing %s", name);
	}
	printf("device: %s\ndriver: %s\ncard: %s\nbus: %s\napi: %s\n"
	       "capabilities: ", info.path, info.driver, info.card,
	       info.bus_info, info.multiplanar ? "multi-planar" : "single-planar");
	print_caps(info.device_caps);
	putchar('\n');
	print_formats(dev, M2M_QUEUE_OUTPUT);
	print_formats(dev, M2M_QUEUE_CAPTURE);
	print_controls(dev);
	print_events(dev);
	m2m_close(dev);
	return EXIT_OK;
}

static const struct option events_options[] = {
	{ "device", required_argument, NULL, 'd' },
	{ "type", required_argument, NULL, 't' },
	{ "count", required_argument, NULL, 'n' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "initial", no_argument, NULL, 'i' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

/* --type's list as bits of event_types[]; -1 for an unknown name. */
static int parse_types(char *list)
{
	int bits = 0;

	for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
		size_t i;

		for (i = 0; i < NUM_EVENT_TYPES; i++)
			if (strcmp(t, event_types[i].name) == 0)
				break;
		if (i == NUM_EVENT_TYPES)
			return -1;
		bits |= 1 << i;
	}
	return bits;
}

static void print_event(struct m2m_device *dev, const struct m2m_event *ev)
{
	struct m2m_control_info c;

	printf("%" PRIu64 ".%06" PRIu64 " seq=%u ", ev->timestamp_ns / 1000000000,
	       ev->timestamp_ns / 1000 % 1000000, ev->sequence);
	switch (ev->type) {
	case M2M_EVENT_CTRL:
		if (m2m_find_control(dev, &c, NULL, ev->id) < 0)
			snprintf(c.name, sizeof(c.name), "0x%08x", ev->id);
		printf("ctrl %s value=%" PRId64 "%s%s\n", c.name, ev->value,
		       ev->changes & V4L2_EVENT_CTRL_CH_VALUE ? " value-changed" : "",
		       ev->changes & V4L2_EVENT_CTRL_CH_FLAGS ? " flags-changed" : "");
		break;
	case M2M_EVENT_FRAME_SYNC:
		printf("frame_sync frame=%u\n", ev->frame_sequence);
		break;
	case M2M_EVENT_EOS:
		printf("eos\n");
		break;
	case M2M_EVENT_SOURCE_CHANGE:
		printf("source_change%s\n", ev->changes &
		       V4L2_EVENT_SRC_CH_RESOLUTION ? " resolution" : "");
		break;
	default:
		printf("type=%u\n", ev->type);
	}
	fflush(stdout);
}

static int watch_events(struct m2m_device *dev, long long count,
			int timeout_ms)
{
	struct m2m_event ev;
	unsigned int ready;
	int err;

	for (long long seen = 0; count < 0 || seen < count;) {
		err = m2m_wait_for(dev, &ready, M2M_READY_EVENT, timeout_ms);
		if (err < 0)
			return lib_error("events", err, "waiting");
		if (!ready)
			return EXIT_OK; /* the timeout: quiet for that long */
		while (seen != count && (err = m2m_dequeue_event(dev, &ev)) == 0) {
			print_event(dev, &ev);
			seen++;
		}
	}
	return EXIT_OK;
}

int cmd_events(int argc, char **argv)
{
	const char *name = NULL;
	long long count = -1, timeout = -1;
	int opt, types = -1, flags = 0, ret, subscribed = 0;
	struct m2m_device *dev;

	while ((opt = verb_getopt(argc, argv, "d:t:n:T:ih", events_options,
				  "events")) != -1) {
		switch (opt) {
		case 'd': name = optarg; break;
		case 'i': flags |= M2M_EVENT_SEND_INITIAL; break;
		case 't':
			types = parse_types(optarg);
			if (types < 0)
				return usage_error("events", "--type takes ctrl, "
						   "frame_sync, eos, source_change");
			break;
		case 'n':
			if (parse_long(optarg, &count) || count < 1)
				return usage_error("events", "--count takes a "
						   "number from 1, not '%s'", optarg);
			break;
		case 'T':
			if (parse_long(optarg, &timeout) || timeout < 0 ||
			    timeout > 86400000)
				return usage_error("events", "--timeout takes "
						   "milliseconds, not '%s'", optarg);
			break;
		default:
			return opt == 'h' ? EXIT_OK : EXIT_USAGE;
		}
	}
	if (device_argument(argc, argv, &name, "events"))
		return EXIT_USAGE;
	dev = open_device("events", name);
	if (!dev)
		return EXIT_FAILED;
	for (size_t i = 0; i < NUM_EVENT_TYPES; i++) {
		int err;

		if (!(types & 1 << i))
			continue;
		err = subscribe(dev, event_types[i].type, flags);
		/* All by default: those the device sends. */
		if (err < 0 && types != -1) {
			m2m_close(dev);
			return lib_error("events", err, "subscribing to %s",
					 event_types[i].name);
		}
		subscribed += err == 0;
	}
	if (!subscribed) {
		m2m_close(dev);
		return failure("events", "the device sends no event");
	}
	ret = watch_events(dev, count, timeout);
	m2m_close(dev);
	return ret;
}
