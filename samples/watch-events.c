// SPDX-License-Identifier: MIT
/*
 * watch-events: the events of an m2m device while it streams, including a
 * geometry change in the middle of the stream and the drain at its end.
 *
 * Usage: watch-events [DEVICE] [FRAMES]   (default "auto", 8 frames)
 *
 * DEVICE is anything m2m_open() takes ("/dev/video0", "vhqv", "inprocess",
 * "auto"). The program:
 *
 * 1. subscribes to control events (with M2M_EVENT_SEND_INITIAL, so each
 *    control's current value arrives at once, and M2M_EVENT_ALLOW_FEEDBACK,
 *    so that the changes this program makes itself are reported too: V4L2
 *    reports only other handles' changes by default), frame-sync,
 *    end-of-stream and source-change events;
 * 2. flips the picture and raises its brightness, then streams FRAMES
 *    frames of 320x240 YUYV to UYVY from one poll() loop;
 * 3. once the first half of the frames is queued, turns the picture by 90
 *    degrees (V4L2_CID_ROTATE). That makes CAPTURE portrait, 240x320: the
 *    device finishes the frames queued before the change in the old
 *    geometry, flags the last CAPTURE buffer of them M2M_BUFFER_LAST, and
 *    sends SOURCE_CHANGE. The program answers with
 *    m2m_handle_source_change(), which re-allocates CAPTURE for the new
 *    format, queues its CAPTURE buffers again, and the second half of the
 *    frames comes back portrait;
 * 4. drains (m2m_drain()): the last frame is flagged LAST, EOS arrives.
 *
 * Every event and buffer is printed as it arrives. The program exits with
 * status 1 if a frame is missing or has the wrong geometry, or an event
 * that should have come did not.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>
#include <m2m/m2m.h>

#define WIDTH		320
#define HEIGHT		240
#define BUFFERS		4
#define MAX_FRAMES	64
#define FRAME_NS	40000000ull	/* 25 frames per second */

static struct m2m_device *dev;
/* What the events said so far. */
static unsigned int ctrl_events, frame_syncs, source_changes;
static int source_change_pending, eos;

static void check(int ret, const char *what)
{
	if (ret < 0) {
		fprintf(stderr, "watch-events: %s: %s\n", what,
			m2m_last_error());
		exit(1);
	}
}

static void set_control(uint32_t id, int64_t value)
{
	struct m2m_control_info info;

	check(m2m_find_control(dev, &info, NULL, id), "m2m_find_control");
	check(m2m_set_control(dev, id, value), info.name);
	printf("set %s = %" PRId64 "\n", info.name, value);
}

static void print_event(const struct m2m_event *ev)
{
	struct m2m_control_info info;

	switch (ev->type) {
	case M2M_EVENT_CTRL:
		if (m2m_find_control(dev, &info, NULL, ev->id) < 0)
			strcpy(info.name, "?");
		printf("event CTRL id=0x%08" PRIx32 " (%s) value=%" PRId64
		       "\n", ev->id, info.name, ev->value);
		break;
	case M2M_EVENT_FRAME_SYNC:
		printf("event FRAME_SYNC frame_sequence=%" PRIu32 "\n",
		       ev->frame_sequence);
		break;
	case M2M_EVENT_SOURCE_CHANGE:
		printf("event SOURCE_CHANGE changes=0x%" PRIx32 "%s\n",
		       ev->changes, ev->changes & V4L2_EVENT_SRC_CH_RESOLUTION ?
		       " (resolution)" : "");
		break;
	case M2M_EVENT_EOS:
		printf("event EOS\n");
		break;
	default:
		printf("event type=%" PRIu32 "\n", ev->type);
		break;
	}
}

/* Print and count the events pending; never waits. */
static void take_events(void)
{
	struct m2m_event ev;
	int ret;

	while ((ret = m2m_dequeue_event(dev, &ev)) == 0) {
		print_event(&ev);
		ctrl_events += ev.type == M2M_EVENT_CTRL;
		frame_syncs += ev.type == M2M_EVENT_FRAME_SYNC;
		eos |= ev.type == M2M_EVENT_EOS;
		if (ev.type == M2M_EVENT_SOURCE_CHANGE) {
			source_changes++;
			source_change_pending = 1;
		}
	}
	if (ret != -EAGAIN)
		check(ret, "m2m_dequeue_event");
}

static void queue_all_capture(void)
{
	int i, n = m2m_buffer_count(dev, M2M_QUEUE_CAPTURE);

	check(n, "m2m_buffer_count");
	for (i = 0; i < n; i++)
		check(m2m_queue_buffer(dev, m2m_get_buffer(dev,
				       M2M_QUEUE_CAPTURE, i)),
		      "queueing a CAPTURE buffer");
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "auto";
	unsigned int frames = argc > 2 ? strtoul(argv[2], NULL, 0) : 8;
	static const uint32_t watched[] = {
		V4L2_CID_HFLIP, V4L2_CID_BRIGHTNESS, V4L2_CID_ROTATE,
	};
	struct m2m_open_options opts = M2M_OPEN_OPTIONS_INIT;
	struct m2m_format in, out;
	struct m2m_device_info info;
	struct m2m_buffer *free_out[BUFFERS], *after_last;
	/* Per frame: how often it came back, and at which width. */
	unsigned int seen[MAX_FRAMES] = { 0 }, width_of[MAX_FRAMES] = { 0 };
	unsigned int num_free = 0, queued = 0, errors = 0, i;
	/* The stream's milestones, in the order they happen. */
	int rotated = 0, geometry_last = 0, renegotiated = 0, drained = 0;
	int drain_last = 0, ret;
	struct pollfd pfd;

	if (frames < 2 || frames % 2 || frames > MAX_FRAMES) {
		fprintf(stderr, "usage: %s [DEVICE] [FRAMES: even, 2 to %d]\n",
			argv[0], MAX_FRAMES);
		return 2;
	}
	opts.flags = M2M_OPEN_NONBLOCK;
	check(m2m_open_ext(&dev, name, &opts), name);
	check(m2m_device_get_info(dev, &info), "m2m_device_get_info");
	printf("device %s (%s)\n", info.path, info.driver);

	for (i = 0; i < sizeof(watched) / sizeof(watched[0]); i++)
		check(m2m_subscribe_event(dev, M2M_EVENT_CTRL, watched[i],
					  M2M_EVENT_SEND_INITIAL |
					  M2M_EVENT_ALLOW_FEEDBACK),
		      "subscribing to CTRL");
	check(m2m_subscribe_event(dev, M2M_EVENT_FRAME_SYNC, 0, 0),
	      "subscribing to FRAME_SYNC");
	check(m2m_subscribe_event(dev, M2M_EVENT_EOS, 0, 0),
	      "subscribing to EOS");
	check(m2m_subscribe_event(dev, M2M_EVENT_SOURCE_CHANGE, 0, 0),
	      "subscribing to SOURCE_CHANGE");
	/*
	 * The initial values are pending now. Take them before changing the
	 * controls: V4L2 keeps one pending event per control, and a change
	 * would replace the initial value's event.
	 */
	take_events();

	check(m2m_format_init(&in, M2M_FOURCC('Y', 'U', 'Y', 'V'), WIDTH,
			      HEIGHT), "m2m_format_init");
	check(m2m_format_init(&out, M2M_FOURCC('U', 'Y', 'V', 'Y'), WIDTH,
			      HEIGHT), "m2m_format_init");
	check(m2m_set_format(dev, &in, M2M_QUEUE_OUTPUT), "OUTPUT format");
	check(m2m_set_format(dev, &out, M2M_QUEUE_CAPTURE), "CAPTURE format");
	set_control(V4L2_CID_HFLIP, 1);
	set_control(V4L2_CID_BRIGHTNESS, 16);

	check(m2m_alloc_buffers(dev, M2M_QUEUE_OUTPUT, M2M_MEMORY_MMAP,
				BUFFERS), "OUTPUT buffers");
	check(m2m_alloc_buffers(dev, M2M_QUEUE_CAPTURE, M2M_MEMORY_MMAP,
				BUFFERS), "CAPTURE buffers");
	for (i = 0; i < BUFFERS; i++)
		free_out[num_free++] = m2m_get_buffer(dev, M2M_QUEUE_OUTPUT, i);
	queue_all_capture();
	check(m2m_stream_on(dev, M2M_QUEUE_OUTPUT), "m2m_stream_on");
	check(m2m_stream_on(dev, M2M_QUEUE_CAPTURE), "m2m_stream_on");

	pfd.fd = m2m_get_fd(dev);
	check(pfd.fd, "m2m_get_fd");
	pfd.events = POLLIN;

	while (!drain_last || !eos) {
		struct m2m_buffer *buf;
		unsigned int ready;
		int n;

		/* Feed frames; turn the picture when half of them are in. */
		while (num_free > 0 && queued < frames) {
			buf = free_out[--num_free];
			memset(buf->data[0], 16 + 20 * queued % 200,
			       m2m_format_frame_size(&in));
			buf->bytesused[0] = 0;	/* the whole frame */
			buf->timestamp_ns = (queued + 1) * FRAME_NS;
			check(m2m_queue_buffer(dev, buf), "queueing a frame");
			if (++queued == frames / 2 && !rotated) {
				set_control(V4L2_CID_ROTATE, 90);
				rotated = 1;
			}
		}
		/* Drain once the new geometry is running and all is in. */
		if (queued == frames && renegotiated && !drained) {
			check(m2m_drain(dev), "m2m_drain");
			printf("drain\n");
			drained = 1;
		}

		n = poll(&pfd, 1, 5000);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "watch-events: nothing from the device "
				"for 5 s\n");
			return 1;
		}
		check(m2m_wait(dev, &ready, 0), "m2m_wait");

		/* Buffers before events: the LAST buffer of the old
		 * geometry must be taken before CAPTURE is re-negotiated. */
		while (ready & M2M_READY_CAPTURE) {
			unsigned int frame;
			int last;

			ret = m2m_dequeue_buffer(dev, &buf, M2M_QUEUE_CAPTURE);
			/* -EPIPE: past a LAST buffer, until re-negotiation. */
			if (ret == -EAGAIN || ret == -EPIPE)
				break;
			check(ret, "dequeueing CAPTURE");
			last = (buf->flags & M2M_BUFFER_LAST) != 0;
			printf("capture timestamp=%" PRIu64 " %" PRIu32 "x%"
			       PRIu32 " bytes=%" PRIu32 "%s\n",
			       buf->timestamp_ns, out.width, out.height,
			       buf->bytesused[0], last ? " LAST" : "");
			if (buf->bytesused[0] > 0) {
				frame = buf->timestamp_ns / FRAME_NS - 1;
				if (frame < frames) {
					seen[frame]++;
					width_of[frame] = out.width;
				} else {
					errors++;
				}
			}
			if (last && !renegotiated)
				geometry_last = 1;
			else if (last)
				drain_last = 1;
			else
				check(m2m_queue_buffer(dev, buf),
				      "queueing a CAPTURE buffer");
		}
		while (ready & M2M_READY_OUTPUT) {
			ret = m2m_dequeue_buffer(dev, &buf, M2M_QUEUE_OUTPUT);
			if (ret == -EAGAIN)
				break;
			check(ret, "dequeueing OUTPUT");
			free_out[num_free++] = buf;
		}
		take_events();

		/* The answer to SOURCE_CHANGE: new CAPTURE buffers. */
		if (source_change_pending && geometry_last) {
			ret = m2m_handle_source_change(dev, &out);
			check(ret, "m2m_handle_source_change");
			printf("source change handled: CAPTURE %s %" PRIu32 "x%"
			       PRIu32 ", %d buffers\n",
			       m2m_fourcc_to_name(out.fourcc), out.width,
			       out.height, ret);
			queue_all_capture();
			source_change_pending = 0;
			renegotiated = 1;
		}
	}

	ret = m2m_dequeue_buffer(dev, &after_last, M2M_QUEUE_CAPTURE);
	printf("after LAST: m2m_dequeue_buffer returns %s\n",
	       ret == -EPIPE ? "-EPIPE" : "something else");
	errors += ret != -EPIPE;
	m2m_close(dev);

	for (i = 0; i < frames; i++) {
		unsigned int want = i < frames / 2 ? WIDTH : HEIGHT;

		if (seen[i] != 1 || width_of[i] != want) {
			fprintf(stderr, "watch-events: frame %u came back %u "
				"times, %u wide (expected once, %u wide)\n",
				i, seen[i], width_of[i], want);
			errors++;
		}
	}
	/* Each control's initial value, and the change made to it. */
	if (ctrl_events != 2 * sizeof(watched) / sizeof(watched[0]) ||
	    frame_syncs != frames || source_changes != 1) {
		fprintf(stderr, "watch-events: %u CTRL, %u FRAME_SYNC and %u "
			"SOURCE_CHANGE events\n", ctrl_events, frame_syncs,
			source_changes);
		errors++;
	}
	if (errors) {
		fprintf(stderr, "watch-events: FAILED\n");
		return 1;
	}
	printf("watch-events: OK: %u frames, %u landscape then %u portrait; "
	       "%u FRAME_SYNC, 1 SOURCE_CHANGE, EOS\n", frames, frames / 2,
	       frames / 2, frame_syncs);
	return 0;
}
