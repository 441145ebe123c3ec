// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libm2m's conformance suite: one set of tests of the public API, run on
 * whatever device M2M_DEVICE names (an m2m_open() name, default
 * "inprocess"). CTest runs it on the in-process device natively, and in
 * the test VM on both vhqv nodes, on vim2m, the kernel's own test
 * converter, and on vicodec's three codec nodes.
 *
 * M2M_SYSCALLS=1 reaches kernel nodes through the system calls instead of
 * libv4l2.
 *
 * A test needing what a device lacks (vim2m: rotation, rectangles,
 * draining, most events, the engine's arithmetic) skips with the reason
 * only when M2M_CONFORMANCE_SKIPS is set, which only the vim2m run sets;
 * on the HQV devices the same lack is a failure.
 *
 * M2M_CONFORMANCE_NODE=encoder, decoder or stateless runs the suite on a
 * codec node of that kind (vicodec's three): the tests of expected_skips
 * below for that kind, and only they, skip with the reason stated there;
 * one of them that does not skip fails the run, as does any other test
 * that fails.
 */
#include <criterion/criterion.h>
#ifndef M2M_CRITERION_TSAN_H
#include <criterion/hooks.h>
#include <criterion/stats.h>
#endif
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>
#include <m2m/m2m.h>
#include <m2m/vhqv.h>

#include "hqv.h"

#define W 320
#define H 240
#define TIMEOUT_MS 10000

#define FMT(s) m2m_fourcc_from_name(s)

static struct m2m_device *dev;
static struct m2m_device_info info;

static const char *device_name(void)
{
	const char *name = getenv("M2M_DEVICE");

	return name && *name ? name : M2M_INPROCESS;
}

/* M2M_SYSCALLS=1: the system calls instead of libv4l2. */
static unsigned int open_flags(void)
{
	const char *syscalls = getenv("M2M_SYSCALLS");

	return syscalls && *syscalls == '1' ? M2M_OPEN_SYSCALLS : 0;
}

static int open_named(struct m2m_device **out, unsigned int flags)
{
	struct m2m_open_options opts = M2M_OPEN_OPTIONS_INIT;

	opts.flags = flags | open_flags();
	return m2m_open_ext(out, device_name(), &opts);
}

/* vhqv and the in-process device: the HQV engine's arithmetic. */
static bool is_hqv(void)
{
	return !strcmp(info.driver, "vhqv");
}

/*
 * The kinds of node: a converter (raw formats on both queues) or a codec,
 * which the compressed formats of its queues tell (V4L2_FMT_FLAG_COMPRESSED).
 */
enum node_kind { CONVERTER, ENCODER, DECODER, STATELESS, NUM_NODE_KINDS };

static const char *const node_kind_names[NUM_NODE_KINDS] = {
	"converter", "encoder", "decoder", "stateless",
};

#define CODECS ((1u << ENCODER) | (1u << DECODER) | (1u << STATELESS))
#define DECODERS ((1u << DECODER) | (1u << STATELESS))

/*
 * The kind M2M_CONFORMANCE_NODE names (main() refuses another name), a
 * converter without it; open_device() checks the node is of that kind.
 */
static int named_kind(void)
{
	const char *name = getenv("M2M_CONFORMANCE_NODE");

	if (!name || !*name)
		return CONVERTER;
	for (int k = 0; k < NUM_NODE_KINDS; k++)
		if (!strcmp(name, node_kind_names[k]))
			return k;
	return -1;
}

static enum node_kind run_kind(void)
{
	int kind = named_kind();

	return kind < 0 ? CONVERTER : (enum node_kind)kind;
}

#ifdef M2M_CRITERION_TSAN_H
/*
 * The TSan lane's runner (tests/sanitize/criterion-tsan) runs the suite on
 * the in-process device alone, a converter, for which nothing is listed;
 * it has neither test names nor report hooks.
 */
#define listed_skip() ((const char *)NULL)
#else
#define listed_skip() expected_skip(criterion_current_test->name)

/*
 * What a codec node cannot do of what this suite asks, by test and kind
 * of node, with the reason. A listed test must skip, through REQUIRE; an
 * unlisted one may not.
 */
static const struct expected_skip {
	const char *test;
	unsigned int kinds;
	const char *reason;
} expected_skips[] = {
	{ "hqv_takes_every_size_from_1x1", CODECS,
	  "a codec's sizes are its own (vicodec: steps of 8 from 640x360)" },
	{ "capture_may_ask_for_another_encoding", CODECS,
	  "raw formats on both queues: a codec has a compressed one" },
	{ "values_out_of_range_give_erange", CODECS,
	  "no rotation: the test's second control is V4L2_CID_ROTATE" },
	{ "menus_are_listed_and_set_by_name", CODECS,
	  "no deinterlacing menu, the menu the test sets" },
	{ "driver_private_controls_are_named_in_the_uapi_header", CODECS,
	  "not vhqv: its private controls are the test's subject" },
	{ "same_format_returns_the_input", CODECS,
	  "one-call conversion of raw formats on both queues" },
	{ "hflip_mirrors_each_line", CODECS,
	  "one-call conversion of raw formats on both queues" },
	{ "yuyv_to_yuv420_is_the_engines", CODECS,
	  "one-call conversion byte-identical to the engine" },
	{ "rgb24_to_yuv420_with_hflip_is_the_engines", CODECS,
	  "one-call conversion byte-identical to the engine" },
	{ "scaling_through_the_capture_size_is_the_engines", CODECS,
	  "one-call conversion byte-identical to the engine" },
	{ "rotation_turns_the_capture_size", CODECS,
	  "no rotation (V4L2_CID_ROTATE)" },
	{ "odd_sizes_are_kept_and_the_engines", CODECS,
	  "one-call conversion byte-identical to the engine" },
	{ "small_buffers_give_enospc", CODECS,
	  "one-call conversion of raw formats on both queues" },
	{ "carries_timestamps_and_numbers_frames", DECODERS,
	  "a decoder's frames are a bitstream, not random bytes" },
	{ "the_fd_and_wait_report_a_finished_frame", DECODERS,
	  "a decoder's frames are a bitstream, not random bytes" },
	{ "userptr_output_gives_what_mmap_gives", DECODERS,
	  "a decoder's frames are a bitstream, not random bytes" },
	{ "an_exported_buffer_feeds_another_session", DECODERS,
	  "a decoder's frames are a bitstream, not random bytes" },
	{ "one_thread_waits_while_another_queues", DECODERS,
	  "a decoder's frames are a bitstream, not random bytes" },
	{ "flags_the_last_buffer_sends_eos_then_epipe", DECODERS,
	  "a decoder's frames are a bitstream, not random bytes" },
	{ "flags_the_last_buffer_sends_eos_then_epipe", 1u << ENCODER,
	  "vicodec's V4L2_ENC_CMD_START does not resume after a drain: it "
	  "clears CAPTURE's last-buffer state only when v4l2-mem2mem's "
	  "has_stopped is set, which v4l2_m2m_encoder_cmd() has just "
	  "cleared" },
	{ "with_every_frame_done_the_last_buffer_is_empty", DECODERS,
	  "a decoder's frames are a bitstream, not random bytes" },
	{ "frame_sync_marks_each_frame", CODECS,
	  "no FRAME_SYNC event (vicodec sends EOS and SOURCE_CHANGE)" },
	{ "a_turn_while_streaming_is_a_source_change", CODECS,
	  "no rotation (V4L2_CID_ROTATE), the turn the test makes" },
	{ "crop_and_compose_are_the_engines", CODECS,
	  "one-call conversion byte-identical to the engine" },
	{ "odd_crop_and_compose_are_kept_and_the_engines", CODECS,
	  "one-call conversion byte-identical to the engine" },
	{ "set_format_waits_for_a_convert_in_another_thread", CODECS,
	  "one-call conversion of raw formats on both queues" },
	{ "converts_from_two_threads_each_get_their_own_frame", CODECS,
	  "one-call conversion of raw formats on both queues" },
};

/* The reason a test skips on this run's kind of node, or NULL. */
static const char *expected_skip(const char *test)
{
	unsigned int kind = 1u << run_kind();

	for (size_t i = 0; i < sizeof(expected_skips) /
			       sizeof(expected_skips[0]); i++)
		if ((expected_skips[i].kinds & kind) &&
		    !strcmp(expected_skips[i].test, test))
			return expected_skips[i].reason;
	return NULL;
}
#endif

#define REQUIRE(cond, ...)                                                 \
	do {                                                               \
		const char *listed_ = listed_skip();                       \
		if (!(cond)) {                                             \
			if (listed_)                                       \
				cr_skip_test("%s: %s", node_kind_names[    \
					     run_kind()], listed_);        \
			else if (getenv("M2M_CONFORMANCE_SKIPS"))          \
				cr_skip_test(__VA_ARGS__);                 \
			else                                               \
				cr_assert_fail(__VA_ARGS__);               \
		}                                                          \
	} while (0)

#ifndef M2M_CRITERION_TSAN_H
/*
 * A listed test that did not skip fails the run: the runner sees each
 * test's end here (in its own process, which main() below returns from).
 */
static unsigned int unexpected_runs;

ReportHook(POST_TEST)(struct criterion_test_stats *stats)
{
	const char *reason = expected_skip(stats->test->name);

	if (reason && stats->test_status != CR_STATUS_SKIPPED) {
		fprintf(stderr, "%s::%s did not skip on a %s node (\"%s\"): "
			"take it off expected_skips\n", stats->test->category,
			stats->test->name, node_kind_names[run_kind()],
			reason);
		unexpected_runs++;
	}
}

int main(int argc, char **argv)
{
	struct criterion_test_set *tests;
	int failed = 0;

	if (named_kind() < 0) {
		fprintf(stderr, "M2M_CONFORMANCE_NODE=%s: not converter, "
			"encoder, decoder or stateless\n",
			getenv("M2M_CONFORMANCE_NODE"));
		return 2;
	}
	tests = criterion_initialize();
	if (criterion_handle_args(argc, argv, true))
		failed = !criterion_run_all_tests(tests) || unexpected_runs;
	criterion_finalize(tests);
	return failed;
}
#endif

#define OK(call) cr_assert_geq((call), 0, "%s: %s", #call, m2m_last_error())

/* The compressed format a queue lists, or 0. */
static uint32_t compressed_format(enum m2m_queue q)
{
	struct m2m_format_desc d;

	for (unsigned int i = 0; m2m_enum_format(dev, &d, q, i) == 0; i++)
		if (d.flags & V4L2_FMT_FLAG_COMPRESSED)
			return d.fourcc;
	return 0;
}

/* The kind of the node open, from its formats. */
static enum node_kind device_kind(void)
{
	uint32_t coded = compressed_format(M2M_QUEUE_OUTPUT);

	if (compressed_format(M2M_QUEUE_CAPTURE))
		return ENCODER;
	if (!coded)
		return CONVERTER;
	return coded == V4L2_PIX_FMT_FWHT_STATELESS ? STATELESS : DECODER;
}

/* A decoder's OUTPUT takes a bitstream, not the random frames queued. */
static bool decodes(void)
{
	return device_kind() == DECODER || device_kind() == STATELESS;
}

static void open_device(void)
{
	struct m2m_control_info c;

	cr_assert_eq(open_named(&dev, 0), 0, "m2m_open(%s): %s",
		     device_name(), m2m_last_error());
	OK(m2m_device_get_info(dev, &info));
	cr_assert_eq(device_kind(), run_kind(), "%s is a %s node, not a %s",
		     info.path, node_kind_names[device_kind()],
		     node_kind_names[run_kind()]);
	/* vim2m models a slow device, 40 ms a job; its fastest is 1 ms. */
	if (m2m_find_control(dev, &c, "Transaction Time (msec)", 0) == 0)
		OK(m2m_set_control(dev, c.id, c.minimum));
}

static void close_device(void)
{
	m2m_close(dev);
	dev = NULL;
}

static bool offers(enum m2m_queue q, uint32_t fourcc)
{
	for (uint32_t i = 0; i < info.num_formats[q]; i++)
		if (info.formats[q][i] == fourcc)
			return true;
	return false;
}

static bool has_control(uint32_t id)
{
	struct m2m_control_info c;

	return m2m_find_control(dev, &c, NULL, id) == 0;
}

/*
 * A control the device lets one set to two values, for the tests of
 * controls in general: the flips where there are (converters), else the
 * first writable integer or boolean (a codec's GOP size, say).
 */
static struct m2m_control_info settable_control(void)
{
	struct m2m_control_info c;
	int n = m2m_control_count(dev);

	if (m2m_find_control(dev, &c, NULL, V4L2_CID_VFLIP) == 0)
		return c;
	for (int i = 0; i < n; i++) {
		OK(m2m_control_at(dev, &c, i));
		if ((c.type == M2M_CONTROL_BOOLEAN ||
		     c.type == M2M_CONTROL_INTEGER) &&
		    c.maximum > c.minimum &&
		    !(c.flags & (V4L2_CTRL_FLAG_READ_ONLY |
				 V4L2_CTRL_FLAG_VOLATILE |
				 V4L2_CTRL_FLAG_INACTIVE)))
			return c;
	}
	cr_assert_fail("%s has no control to set", info.driver);
	return c;
}

/* Set both formats; returns what the device took for CAPTURE. */
static struct m2m_format set_formats(const char *in, uint32_t w, uint32_t h,
				     const char *out, uint32_t ow, uint32_t oh)
{
	struct m2m_format src, dst;

	REQUIRE(offers(M2M_QUEUE_OUTPUT, FMT(in)) &&
		offers(M2M_QUEUE_CAPTURE, FMT(out)),
		"%s does not convert %s to %s", info.driver, in, out);
	cr_assert_eq(m2m_format_init(&src, FMT(in), w, h), 0);
	OK(m2m_set_format(dev, &src, M2M_QUEUE_OUTPUT));
	cr_assert_eq(src.fourcc, FMT(in));
	cr_assert_eq(src.width, w);
	cr_assert_eq(m2m_format_init(&dst, FMT(out), ow, oh), 0);
	OK(m2m_set_format(dev, &dst, M2M_QUEUE_CAPTURE));
	cr_assert_eq(dst.fourcc, FMT(out));
	return dst;
}

static struct m2m_format get_format(enum m2m_queue q)
{
	struct m2m_format f;

	OK(m2m_get_format(dev, &f, q));
	return f;
}

/*
 * The compressed side of a codec: its format, W x H or the size nearest
 * that the node takes (vicodec's smallest is 640x360), the buffer size
 * the node chooses. Returns what the node took.
 */
static struct m2m_format set_coded_format(enum m2m_queue q)
{
	struct m2m_format f = get_format(q);
	uint32_t coded = compressed_format(q);

	f.fourcc = coded;
	f.width = W;
	f.height = H;
	f.num_planes = 1;
	f.bytesperline[0] = 0;
	f.plane_size[0] = 0;
	OK(m2m_set_format(dev, &f, q));
	cr_assert_eq(f.fourcc, coded);
	cr_assert_gt(f.plane_size[0], 0);
	return f;
}

/*
 * RGB24 frames in, for the tests of buffers and streaming: W x H RGB24
 * out of a converter; an FWHT bitstream out of an encoder (CAPTURE first,
 * as dev-encoder.rst orders), RGB24 out of a decoder, both of the size
 * the codec took.
 */
static void set_node_formats(void)
{
	struct m2m_format coded, raw;
	enum m2m_queue raw_queue = decodes() ? M2M_QUEUE_CAPTURE :
					       M2M_QUEUE_OUTPUT;

	if (device_kind() == CONVERTER) {
		set_formats("RGB24", W, H, "RGB24", W, H);
		return;
	}
	coded = set_coded_format(decodes() ? M2M_QUEUE_OUTPUT :
					     M2M_QUEUE_CAPTURE);
	cr_assert_eq(m2m_format_init(&raw, FMT("RGB24"), coded.width,
				     coded.height), 0);
	OK(m2m_set_format(dev, &raw, raw_queue));
	cr_assert_eq(raw.fourcc, FMT("RGB24"));
	cr_assert_eq(raw.width, coded.width);
	cr_assert_eq(raw.height, coded.height);
}

static void fill_random(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 17;
		seed ^= seed << 5;
		p[i] = (uint8_t)seed;
	}
}

/* A frame of the OUTPUT format, random. */
static uint8_t *random_frame(size_t *size, uint32_t seed)
{
	struct m2m_format f = get_format(M2M_QUEUE_OUTPUT);
	uint8_t *p;

	*size = m2m_format_frame_size(&f);
	p = malloc(*size);
	cr_assert_not_null(p);
	fill_random(p, *size, seed);
	return p;
}

/* m2m_convert() of a random frame; returns the result, its size in *n. */
static uint8_t *convert_random(uint8_t **src_out, size_t *n, uint32_t seed)
{
	struct m2m_format f = get_format(M2M_QUEUE_CAPTURE);
	size_t src_size, dst_size = m2m_format_frame_size(&f);
	uint8_t *src = random_frame(&src_size, seed);
	uint8_t *dst = calloc(1, dst_size);
	int ret;

	cr_assert_not_null(dst);
	ret = m2m_convert(dev, dst, dst_size, src, src_size);
	cr_assert_eq(ret, (int)dst_size, "m2m_convert: %d: %s", ret,
		     m2m_last_error());
	*n = dst_size;
	if (src_out)
		*src_out = src;
	else
		free(src);
	return dst;
}

/*
 * The engine's result for the device's current job, computed natively:
 * what the HQV devices must return byte for byte.
 */
static enum hqv_encoding engine_encoding(uint32_t enc)
{
	switch (enc) {
	case V4L2_YCBCR_ENC_709:
		return HQV_ENC_BT709;
	case V4L2_YCBCR_ENC_BT2020:
		return HQV_ENC_BT2020;
	}
	return HQV_ENC_BT601;
}

static void engine_image(struct hqv_image *img, const struct m2m_format *f,
			 uint8_t *mem)
{
	const struct hqv_format *hf = hqv_format_find(f->fourcc);
	struct m2m_plane_layout pl[M2M_MAX_PLANES];
	uint32_t enc = f->ycbcr_enc, quant = f->quantization;
	size_t offsets[M2M_MAX_PLANES] = { 0 };
	int n = m2m_format_planes(pl, f);

	cr_assert_gt(n, 0, "%s", m2m_last_error());
	for (unsigned int p = 1; p < f->num_planes; p++)
		offsets[p] = offsets[p - 1] + f->plane_size[p - 1];
	memset(img, 0, sizeof(*img));
	img->fmt = hf;
	img->width = f->width;
	img->height = f->height;
	for (int p = 0; p < n; p++) {
		img->bytesperline[p] = pl[p].bytesperline;
		img->planes[p] = mem + offsets[pl[p].memory_plane] +
				 pl[p].offset;
		img->plane_size[p] = f->plane_size[pl[p].memory_plane] -
				     pl[p].offset;
	}
	if (enc == V4L2_YCBCR_ENC_DEFAULT)
		enc = V4L2_MAP_YCBCR_ENC_DEFAULT(f->colorspace);
	if (quant == V4L2_QUANTIZATION_DEFAULT)
		quant = V4L2_MAP_QUANTIZATION_DEFAULT(!hf->is_yuv,
						      f->colorspace, enc);
	img->encoding = engine_encoding(enc);
	img->quantization = quant == V4L2_QUANTIZATION_FULL_RANGE ?
			    HQV_QUANT_FULL : HQV_QUANT_LIMITED;
}

static uint8_t *engine_reference(uint8_t *src, const struct m2m_rect *crop,
				 const struct m2m_rect *compose)
{
	struct m2m_format in = get_format(M2M_QUEUE_OUTPUT);
	struct m2m_format out = get_format(M2M_QUEUE_CAPTURE);
	uint8_t *dst = calloc(1, m2m_format_frame_size(&out));
	struct hqv_job job = { .scaler = HQV_SCALER_BILINEAR, .alpha = 255 };
	int64_t v;
	void *scratch;

	cr_assert_not_null(dst);
	engine_image(&job.src, &in, src);
	engine_image(&job.dst, &out, dst);
	OK(m2m_get_control(dev, &v, V4L2_CID_HFLIP));
	job.hflip = v;
	OK(m2m_get_control(dev, &v, V4L2_CID_VFLIP));
	job.vflip = v;
	OK(m2m_get_control(dev, &v, V4L2_CID_ROTATE));
	job.rotation = (uint32_t)v;
	if (crop)
		job.crop = (struct hqv_rect){ crop->left, crop->top,
					      crop->width, crop->height };
	if (compose)
		job.compose = (struct hqv_rect){ compose->left, compose->top,
						 compose->width,
						 compose->height };
	cr_assert_eq(hqv_job_prepare(&job), 0, "the engine refused the job");
	scratch = malloc(hqv_job_scratch_size(&job) + 1);
	hqv_job_run(&job, scratch, 0, job.dst.height);
	free(scratch);
	return dst;
}

static void assert_same_bytes(const uint8_t *got, const uint8_t *want,
			      size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(got[i], want[i], "%s: byte %zu is %u, the engine "
			     "gives %u", what, i, got[i], want[i]);
}

TestSuite(device, .init = open_device, .fini = close_device);
TestSuite(format, .init = open_device, .fini = close_device);
TestSuite(control, .init = open_device, .fini = close_device);
TestSuite(convert, .init = open_device, .fini = close_device);
TestSuite(stream, .init = open_device, .fini = close_device);
TestSuite(drain, .init = open_device, .fini = close_device);
TestSuite(event, .init = open_device, .fini = close_device);
TestSuite(rect, .init = open_device, .fini = close_device);

/* Devices */

Test(device, describes_itself_and_both_queues)
{
	cr_assert_neq(info.driver[0], '\0');
	cr_assert_neq(info.card[0], '\0');
	cr_assert_gt(info.num_formats[M2M_QUEUE_OUTPUT], 0);
	cr_assert_gt(info.num_formats[M2M_QUEUE_CAPTURE], 0);
	cr_assert(info.device_caps & (V4L2_CAP_VIDEO_M2M |
				      V4L2_CAP_VIDEO_M2M_MPLANE));
	cr_assert_eq(info.multiplanar,
		     !(info.device_caps & V4L2_CAP_VIDEO_M2M));
	cr_assert_eq(info.backend, !strcmp(device_name(), M2M_INPROCESS) ?
		     M2M_BACKEND_INPROCESS : M2M_BACKEND_KERNEL);
}

Test(device, is_listed_by_discovery)
{
	struct m2m_device_info *list;
	size_t n;
	bool found = false, inprocess_last;

	OK(m2m_list_devices(&list, &n));
	cr_assert_geq(n, 1);
	for (size_t i = 0; i < n; i++)
		found |= !strcmp(list[i].path, info.path) &&
			 !strcmp(list[i].driver, info.driver) &&
			 list[i].num_formats[M2M_QUEUE_OUTPUT] ==
			 info.num_formats[M2M_QUEUE_OUTPUT];
	inprocess_last = list[n - 1].backend == M2M_BACKEND_INPROCESS;
	m2m_free_device_list(list);
	cr_assert(found, "%s (%s) is not in the list", info.path, info.driver);
	cr_assert(inprocess_last, "the in-process device ends the list");
}

Test(device, enumerates_the_formats_it_lists)
{
	for (int q = M2M_QUEUE_OUTPUT; q <= M2M_QUEUE_CAPTURE; q++) {
		struct m2m_format_desc d;
		uint32_t i;

		for (i = 0; i < info.num_formats[q]; i++) {
			OK(m2m_enum_format(dev, &d, q, i));
			cr_assert_eq(d.fourcc, info.formats[q][i]);
			cr_assert_neq(d.description[0], '\0');
		}
		cr_assert_eq(m2m_enum_format(dev, &d, q, i), -ENOENT);
	}
}

/*
 * A format flagged compressed has no pixel layout in libm2m's table (a
 * raw one may lack one too: libm2m's table is not V4L2's); a converter
 * has none, a codec one side of them.
 */
Test(device, compressed_formats_are_the_coded_side_without_a_layout)
{
	unsigned int compressed[2] = { 0 };

	for (int q = M2M_QUEUE_OUTPUT; q <= M2M_QUEUE_CAPTURE; q++) {
		struct m2m_format_desc d;
		struct m2m_format f;

		for (uint32_t i = 0; m2m_enum_format(dev, &d, q, i) == 0; i++) {
			if (!(d.flags & V4L2_FMT_FLAG_COMPRESSED))
				continue;
			compressed[q]++;
			cr_assert_neq(m2m_format_init(&f, d.fourcc, W, H), 0,
				      "%s (%.4s) is compressed, but libm2m "
				      "lays it out", d.description,
				      (char *)&d.fourcc);
		}
	}
	switch (run_kind()) {
	case CONVERTER:
		cr_assert_eq(compressed[0] + compressed[1], 0);
		break;
	case ENCODER:
		cr_assert(!compressed[M2M_QUEUE_OUTPUT] &&
			  compressed[M2M_QUEUE_CAPTURE]);
		break;
	default:
		cr_assert(compressed[M2M_QUEUE_OUTPUT] &&
			  !compressed[M2M_QUEUE_CAPTURE]);
		break;
	}
}

Test(device, gives_the_sizes_of_a_format)
{
	struct m2m_frame_sizes s;
	struct m2m_format f;
	int ret = m2m_get_frame_sizes(dev, &s, FMT("RGB24"));

	REQUIRE(ret != -ENOTTY, "%s lists no frame sizes", info.driver);
	cr_assert_eq(ret, 0, "%s", m2m_last_error());
	/* What the device makes of W x H is among the sizes it lists. */
	cr_assert_eq(m2m_format_init(&f, FMT("RGB24"), W, H), 0);
	OK(m2m_try_format(dev, &f, decodes() ? M2M_QUEUE_CAPTURE :
					       M2M_QUEUE_OUTPUT));
	cr_assert_leq(s.min_width, f.width);
	cr_assert_geq(s.max_width, f.width);
	cr_assert_leq(s.min_height, f.height);
	cr_assert_geq(s.max_height, f.height);
	if (device_kind() == CONVERTER)
		cr_assert(f.width == W && f.height == H, "%ux%u, not %ux%u",
			  f.width, f.height, W, H);
}

/* Every size from 1x1: ENUM_FRAMESIZES's CONTINUOUS, steps of 1. */
Test(device, hqv_takes_every_size_from_1x1)
{
	struct m2m_frame_sizes s;

	REQUIRE(is_hqv(), "%s has its own sizes", info.driver);
	OK(m2m_get_frame_sizes(dev, &s, FMT("YUV420")));
	cr_assert_eq(s.min_width, 1);
	cr_assert_eq(s.min_height, 1);
	cr_assert_eq(s.max_width, 8192);
	cr_assert_eq(s.max_height, 8192);
	cr_assert_eq(s.step_width, 1);
	cr_assert_eq(s.step_height, 1);
}

Test(device, closed_handle_is_refused)
{
	struct m2m_device *other;
	struct m2m_format f;

	OK(open_named(&other, 0));
	m2m_close(other);
	cr_assert_eq(m2m_get_format(other, &f, M2M_QUEUE_OUTPUT), -EINVAL);
	cr_assert_not_null(strstr(m2m_last_error(), "closed"));
}

/* Formats */

Test(format, set_format_is_read_back)
{
	struct m2m_format f;

	struct m2m_format other;

	set_node_formats();
	/* The raw side (a decoder's is CAPTURE), of the size asked, or on a
	 * codec of the size its compressed side took. */
	f = get_format(decodes() ? M2M_QUEUE_CAPTURE : M2M_QUEUE_OUTPUT);
	other = get_format(decodes() ? M2M_QUEUE_OUTPUT : M2M_QUEUE_CAPTURE);
	cr_assert_eq(f.fourcc, FMT("RGB24"));
	cr_assert_eq(f.width, device_kind() == CONVERTER ? W : other.width);
	cr_assert_eq(f.height, device_kind() == CONVERTER ? H : other.height);
	cr_assert_eq(f.num_planes, 1);
	cr_assert_geq(f.bytesperline[0], f.width * 3);
	cr_assert_geq(f.plane_size[0], f.bytesperline[0] * f.height);
}

Test(format, try_is_idempotent_and_changes_nothing)
{
	struct m2m_format want, once, twice, before = get_format(M2M_QUEUE_OUTPUT);

	cr_assert_eq(m2m_format_init(&want, FMT("RGB24"), W, H), 0);
	want.width = W + 3;	/* odd: a driver may round it */
	want.height = H + 1;
	once = want;
	OK(m2m_try_format(dev, &once, M2M_QUEUE_OUTPUT));
	twice = once;
	OK(m2m_try_format(dev, &twice, M2M_QUEUE_OUTPUT));
	cr_assert_eq(twice.width, once.width);
	cr_assert_eq(twice.height, once.height);
	cr_assert_eq(twice.bytesperline[0], once.bytesperline[0]);
	cr_assert_eq(twice.plane_size[0], once.plane_size[0]);
	cr_assert_eq(get_format(M2M_QUEUE_OUTPUT).width, before.width);
}

Test(format, unknown_fourcc_is_replaced_by_one_the_device_takes)
{
	struct m2m_format f;

	cr_assert_eq(m2m_format_init(&f, FMT("RGB24"), W, H), 0);
	f.fourcc = M2M_FOURCC('N', 'O', 'P', 'E');
	OK(m2m_try_format(dev, &f, M2M_QUEUE_OUTPUT));
	cr_assert(offers(M2M_QUEUE_OUTPUT, f.fourcc));
}

Test(format, multiplanar_formats_are_transparent)
{
	struct m2m_format f;

	cr_assert_eq(m2m_format_init(&f, FMT("NV12M"), W, H), 0);
	cr_assert_eq(f.num_planes, 2);
	if (!offers(M2M_QUEUE_OUTPUT, FMT("NV12M"))) {
		/* A single-planar node cannot take two buffer planes. */
		cr_assert_eq(m2m_set_format(dev, &f, M2M_QUEUE_OUTPUT),
			     info.multiplanar ? 0 : -EINVAL);
		cr_assert_neq(get_format(M2M_QUEUE_OUTPUT).fourcc,
			      FMT("NV12M"));
		return;
	}
	OK(m2m_set_format(dev, &f, M2M_QUEUE_OUTPUT));
	cr_assert_eq(f.num_planes, 2);
	cr_assert_eq(f.plane_size[0], W * H);
	cr_assert_eq(f.plane_size[1], W * H / 2);
}

Test(format, capture_may_ask_for_another_encoding)
{
	struct m2m_format f;

	set_formats("YUYV", W, H, "YUYV", W, H);
	REQUIRE(is_hqv(), "%s does not convert colorimetry", info.driver);
	cr_assert_eq(m2m_format_init(&f, FMT("YUYV"), W, H), 0);
	f.ycbcr_enc = V4L2_YCBCR_ENC_BT2020;
	f.quantization = V4L2_QUANTIZATION_FULL_RANGE;
	f.flags = M2M_FORMAT_SET_CSC;
	OK(m2m_set_format(dev, &f, M2M_QUEUE_CAPTURE));
	cr_assert(f.flags & M2M_FORMAT_SET_CSC);
	cr_assert_eq(get_format(M2M_QUEUE_CAPTURE).ycbcr_enc,
		     V4L2_YCBCR_ENC_BT2020);
	cr_assert_eq(get_format(M2M_QUEUE_CAPTURE).quantization,
		     V4L2_QUANTIZATION_FULL_RANGE);
}

Test(format, layouts_of_the_table)
{
	struct m2m_plane_layout pl[M2M_MAX_PLANES];
	struct m2m_format f;

	cr_assert_eq(m2m_format_init(&f, FMT("NV12"), W, H), 0);
	cr_assert_eq(m2m_format_planes(pl, &f), 2);
	cr_assert_eq(pl[1].memory_plane, 0);
	cr_assert_eq(pl[1].offset, W * H);
	cr_assert_eq(pl[1].width, W / 2);
	cr_assert_eq(pl[1].height, H / 2);
	cr_assert_eq(pl[1].channels, 2);
	cr_assert_eq(m2m_format_init(&f, FMT("YUV420M"), W, H), 0);
	cr_assert_eq(m2m_format_planes(pl, &f), 3);
	cr_assert_eq(pl[2].memory_plane, 2);
	cr_assert_eq(pl[2].offset, 0);
	cr_assert_eq(m2m_format_init(&f, FMT("YUYV"), W, H), 0);
	cr_assert_eq(m2m_format_planes(pl, &f), 1);
	cr_assert_eq(pl[0].channels, 2);
	cr_assert_eq(pl[0].width, W);
	cr_assert_eq(m2m_format_init(&f, FMT("RGB565"), W, H), 0);
	cr_assert_eq(m2m_format_planes(pl, &f), 1);
	cr_assert_eq(pl[0].sample_bytes, 2);
}

/*
 * Odd sizes: chroma rounds up; one buffer rounds the luma pitch up so that
 * the chroma pitch V4L2 derives from it holds a line; a packed 4:2:2 line
 * holds whole macropixels.
 */
Test(format, layouts_of_odd_sizes_round_chroma_up)
{
	struct m2m_plane_layout pl[M2M_MAX_PLANES];
	struct m2m_format f;

	cr_assert_eq(m2m_format_init(&f, FMT("NV12"), 451, 427), 0);
	cr_assert_eq(m2m_format_planes(pl, &f), 2);
	cr_assert_eq(pl[0].bytesperline, 452);
	cr_assert_eq(pl[1].offset, 452 * 427);
	cr_assert_eq(pl[1].width, 226);
	cr_assert_eq(pl[1].height, 214);
	cr_assert_eq(pl[1].bytesperline, 452);
	cr_assert_eq(m2m_format_init(&f, FMT("YUV420M"), 451, 427), 0);
	cr_assert_eq(m2m_format_planes(pl, &f), 3);
	cr_assert_eq(pl[0].bytesperline, 451);
	cr_assert_eq(pl[2].bytesperline, 226);
	cr_assert_eq(pl[2].height, 214);
	cr_assert_eq(f.plane_size[1], 226 * 214);
	cr_assert_eq(m2m_format_init(&f, FMT("YUYV"), 451, 427), 0);
	cr_assert_eq(m2m_format_planes(pl, &f), 1);
	cr_assert_eq(pl[0].width, 452);
	cr_assert_eq(pl[0].bytesperline, 904);
}

/* Controls */

/* "Horizontal Flip" as libm2m's identifier: "horizontal_flip". */
static void control_identifier(char *out, size_t size, const char *name)
{
	size_t n = 0;

	for (; *name && n + 2 < size; name++)
		if (isalnum((unsigned char)*name))
			out[n++] = (char)tolower((unsigned char)*name);
		else if (n && out[n - 1] != '_')
			out[n++] = '_';
	while (n && out[n - 1] == '_')
		n--;
	out[n] = '\0';
}

Test(control, are_listed_and_found_by_id_and_name)
{
	struct m2m_control_info c, by_id, by_name, by_ident, any;
	int n = m2m_control_count(dev);
	char lower[sizeof(c.name)], ident[sizeof(c.name)];

	cr_assert_gt(n, 0);
	for (int i = 0; i < n; i++) {
		OK(m2m_control_at(dev, &c, i));
		cr_assert_neq(c.name[0], '\0');
		cr_assert_neq(c.type, V4L2_CTRL_TYPE_CTRL_CLASS);
	}
	cr_assert_eq(m2m_control_at(dev, &c, n), -ENOENT);

	/* Any device's: a control found by id, by its name in any case and
	 * by that name as an identifier. */
	any = settable_control();
	for (size_t i = 0; i < sizeof(lower); i++)
		lower[i] = (char)tolower((unsigned char)any.name[i]);
	control_identifier(ident, sizeof(ident), any.name);
	OK(m2m_find_control(dev, &by_id, NULL, any.id));
	OK(m2m_find_control(dev, &by_name, lower, 0));
	OK(m2m_find_control(dev, &by_ident, ident, 0));
	cr_assert_str_eq(by_id.name, any.name);
	cr_assert_eq(by_name.id, any.id);
	cr_assert_eq(by_ident.id, any.id, "\"%s\" is not \"%s\"", ident,
		     any.name);

	/* A converter's flips, by their V4L2 names. */
	if (!has_control(V4L2_CID_HFLIP))
		return;
	OK(m2m_find_control(dev, &by_id, NULL, V4L2_CID_HFLIP));
	OK(m2m_find_control(dev, &by_name, "horizontal flip", 0));
	OK(m2m_find_control(dev, &by_ident, "horizontal_flip", 0));
	cr_assert_eq(by_name.id, V4L2_CID_HFLIP);
	cr_assert_eq(by_ident.id, V4L2_CID_HFLIP);
	cr_assert_eq(by_id.type, M2M_CONTROL_BOOLEAN);
	cr_assert_eq(by_id.maximum, 1);
}

Test(control, set_values_are_read_back)
{
	struct m2m_control_info c = settable_control();
	int64_t v;

	OK(m2m_set_control(dev, c.id, c.maximum));
	OK(m2m_get_control(dev, &v, c.id));
	cr_assert_eq(v, c.maximum);
	OK(m2m_set_control_by_name(dev, c.name, c.minimum));
	OK(m2m_get_control_by_name(dev, &v, c.name));
	cr_assert_eq(v, c.minimum);
}

Test(control, values_out_of_range_give_erange)
{
	struct m2m_control_info c = settable_control();
	char range[64];

	snprintf(range, sizeof(range), "%" PRId64 " to %" PRId64, c.minimum,
		 c.maximum);
	cr_assert_eq(m2m_set_control(dev, c.id, c.maximum + 1), -ERANGE);
	cr_assert_not_null(strstr(m2m_last_error(), range), "%s",
			   m2m_last_error());
	REQUIRE(has_control(V4L2_CID_ROTATE), "%s cannot rotate", info.driver);
	cr_assert_eq(m2m_set_control(dev, V4L2_CID_ROTATE, 45), -ERANGE);
	cr_assert_not_null(strstr(m2m_last_error(), "multiples of 90"), "%s",
			   m2m_last_error());
}

Test(control, unknown_controls_give_enoent)
{
	int64_t v;

	cr_assert_eq(m2m_set_control(dev, V4L2_CID_AUDIO_VOLUME, 1), -ENOENT);
	cr_assert_eq(m2m_get_control(dev, &v, V4L2_CID_AUDIO_VOLUME), -ENOENT);
	cr_assert_eq(m2m_set_control_by_name(dev, "no such control", 1),
		     -ENOENT);
	cr_assert_not_null(strstr(m2m_last_error(), "no such control"));
}

Test(control, menus_are_listed_and_set_by_name)
{
	struct m2m_control_info c;
	struct m2m_menu_item item;
	int64_t v;

	REQUIRE(has_control(V4L2_CID_DEINTERLACING_MODE),
		"%s does not deinterlace", info.driver);
	OK(m2m_find_control(dev, &c, NULL, V4L2_CID_DEINTERLACING_MODE));
	cr_assert_eq(c.type, M2M_CONTROL_MENU);
	OK(m2m_get_menu_item(dev, &item, c.id, (uint32_t)c.minimum));
	cr_assert_neq(item.name[0], '\0');
	cr_assert_eq(m2m_get_menu_item(dev, &item, c.id,
				       (uint32_t)c.maximum + 1), -ENOENT);
	OK(m2m_set_control_menu(dev, c.id, "blend"));
	OK(m2m_get_control(dev, &v, c.id));
	OK(m2m_get_menu_item(dev, &item, c.id, (uint32_t)v));
	cr_assert_str_eq(item.name, "Blend");
	cr_assert_eq(m2m_set_control_menu(dev, c.id, "Sideways"), -ERANGE);
}

Test(control, driver_private_controls_are_named_in_the_uapi_header)
{
	struct m2m_control_info c;

	REQUIRE(is_hqv(), "%s is not vhqv", info.driver);
	OK(m2m_find_control(dev, &c, NULL, V4L2_CID_VHQV_SCALER));
	cr_assert_eq(c.type, M2M_CONTROL_MENU);
	OK(m2m_find_control(dev, &c, NULL, V4L2_CID_VHQV_BACKGROUND));
	cr_assert_eq(c.maximum, 0xffffff);
}

/* One-call conversion */

Test(convert, same_format_returns_the_input)
{
	uint8_t *src, *dst;
	size_t n;

	set_formats("RGB24", W, H, "RGB24", W, H);
	dst = convert_random(&src, &n, 1);
	cr_assert_arr_eq(dst, src, n);
	free(src);
	free(dst);
}

Test(convert, hflip_mirrors_each_line)
{
	uint8_t *src, *dst;
	size_t n;

	set_formats("RGB24", W, H, "RGB24", W, H);
	OK(m2m_set_control(dev, V4L2_CID_HFLIP, 1));
	dst = convert_random(&src, &n, 2);
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++)
			cr_assert_arr_eq(&dst[(y * W + x) * 3],
					 &src[(y * W + W - 1 - x) * 3], 3,
					 "pixel %u,%u", x, y);
	free(src);
	free(dst);
}

static void assert_converts_like_the_engine(const char *in, const char *out,
					    uint32_t ow, uint32_t oh)
{
	uint8_t *src, *dst, *ref;
	size_t n;

	set_formats(in, W, H, out, ow, oh);
	REQUIRE(is_hqv(), "%s converts with its own arithmetic, not the "
		"engine's", info.driver);
	dst = convert_random(&src, &n, 3);
	ref = engine_reference(src, NULL, NULL);
	assert_same_bytes(dst, ref, n, out);
	free(src);
	free(dst);
	free(ref);
}

Test(convert, yuyv_to_yuv420_is_the_engines)
{
	assert_converts_like_the_engine("YUYV", "YUV420", W, H);
}

Test(convert, rgb24_to_yuv420_with_hflip_is_the_engines)
{
	REQUIRE(is_hqv(), "%s does not write YUV420", info.driver);
	OK(m2m_set_control(dev, V4L2_CID_HFLIP, 1));
	assert_converts_like_the_engine("RGB24", "YUV420", W, H);
}

Test(convert, scaling_through_the_capture_size_is_the_engines)
{
	assert_converts_like_the_engine("XBGR32", "YUYV", 2 * W, H / 2);
}

Test(convert, multiplanar_formats_are_the_engines)
{
	struct m2m_format f;

	if (!info.multiplanar) {
		cr_assert_eq(m2m_format_init(&f, FMT("YUV420M"), W, H), 0);
		cr_assert_eq(m2m_set_format(dev, &f, M2M_QUEUE_OUTPUT), -EINVAL);
		cr_assert_not_null(strstr(m2m_last_error(), "single-planar"));
		return;
	}
	assert_converts_like_the_engine("YUV420M", "YUV444M", W, H);
}

Test(convert, rotation_turns_the_capture_size)
{
	struct m2m_format f;
	uint8_t *src, *dst, *ref;
	size_t n;

	REQUIRE(has_control(V4L2_CID_ROTATE), "%s cannot rotate", info.driver);
	set_formats("YUV420", W, H, "RGB24", W, H);
	OK(m2m_set_control(dev, V4L2_CID_ROTATE, 90));
	/* vhqv turns CAPTURE with the source; set it as the application
	 * would, portrait. */
	cr_assert_eq(m2m_format_init(&f, FMT("RGB24"), H, W), 0);
	OK(m2m_set_format(dev, &f, M2M_QUEUE_CAPTURE));
	cr_assert_eq(f.width, H);
	dst = convert_random(&src, &n, 4);
	ref = engine_reference(src, NULL, NULL);
	assert_same_bytes(dst, ref, n, "rotated");
	free(src);
	free(dst);
	free(ref);
}

/*
 * Odd sizes, as real pictures have: the HQV devices keep them, with the
 * engine's chroma rounded up, and convert as the engine does.
 */
Test(convert, odd_sizes_are_kept_and_the_engines)
{
	struct m2m_format f;
	uint8_t *src, *dst, *ref;
	size_t n;

	REQUIRE(is_hqv(), "%s has its own sizes", info.driver);
	f = set_formats("RGB24", 451, 427, "YUV420", 451, 427);
	cr_assert_eq(f.width, 451);
	cr_assert_eq(f.height, 427);
	cr_assert_eq(f.bytesperline[0], 452);
	cr_assert_eq(m2m_format_frame_size(&f), 452 * 427 + 2 * 226 * 214);
	dst = convert_random(&src, &n, 5);
	ref = engine_reference(src, NULL, NULL);
	assert_same_bytes(dst, ref, n, "RGB24 451x427 to YUV420");
	free(src);
	free(dst);
	free(ref);
}

Test(convert, small_buffers_give_enospc)
{
	uint8_t buf[16];

	set_formats("RGB24", W, H, "RGB24", W, H);
	cr_assert_eq(m2m_convert(dev, buf, sizeof(buf), buf, sizeof(buf)),
		     -ENOSPC);
	cr_assert_not_null(strstr(m2m_last_error(), "needs"));
}

/* Streaming */

static void alloc_both(enum m2m_memory out_mem, unsigned int count)
{
	cr_assert_eq(m2m_alloc_buffers(dev, M2M_QUEUE_OUTPUT, out_mem, count),
		     (int)count, "%s", m2m_last_error());
	cr_assert_eq(m2m_alloc_buffers(dev, M2M_QUEUE_CAPTURE, M2M_MEMORY_MMAP,
				       count), (int)count, "%s",
		     m2m_last_error());
}

static void start_both(void)
{
	OK(m2m_stream_on(dev, M2M_QUEUE_OUTPUT));
	OK(m2m_stream_on(dev, M2M_QUEUE_CAPTURE));
}

/* Queue every CAPTURE buffer the application holds. */
static void queue_all_capture(void)
{
	int n = m2m_buffer_count(dev, M2M_QUEUE_CAPTURE);

	for (int i = 0; i < n; i++) {
		struct m2m_buffer *b = m2m_get_buffer(dev, M2M_QUEUE_CAPTURE, i);

		if (!b->queued)
			OK(m2m_queue_buffer(dev, b));
	}
}

/* Queue OUTPUT buffer i with a random frame and a timestamp. */
static void queue_frame(unsigned int i, uint64_t ts, uint32_t seed)
{
	struct m2m_buffer *b = m2m_get_buffer(dev, M2M_QUEUE_OUTPUT, i);
	struct m2m_format f = get_format(M2M_QUEUE_OUTPUT);

	cr_assert_not_null(b, "%s", m2m_last_error());
	for (unsigned int p = 0; p < b->num_planes; p++) {
		fill_random(b->data[p], f.plane_size[p], seed + p);
		b->bytesused[p] = f.plane_size[p];
	}
	b->timestamp_ns = ts;
	OK(m2m_queue_buffer(dev, b));
}

static struct m2m_buffer *dequeue(enum m2m_queue q)
{
	struct m2m_buffer *b;

	OK(m2m_dequeue_buffer(dev, &b, q));
	cr_assert_not_null(b);
	cr_assert_eq(b->queue, q);
	cr_assert_eq(b->queued, 0);
	return b;
}

Test(stream, carries_timestamps_and_numbers_frames)
{
	struct m2m_format out;
	const unsigned int frames = 8;

	REQUIRE(!decodes(), "%s decodes a bitstream", info.driver);
	set_node_formats();
	out = get_format(M2M_QUEUE_CAPTURE);
	alloc_both(M2M_MEMORY_MMAP, 2);
	start_both();
	queue_all_capture();
	for (unsigned int i = 0; i < 2; i++)
		queue_frame(i, 1000000000ull * (i + 1) + 1000 * i, i);
	for (unsigned int i = 0; i < frames; i++) {
		struct m2m_buffer *c = dequeue(M2M_QUEUE_CAPTURE);
		struct m2m_buffer *o = dequeue(M2M_QUEUE_OUTPUT);

		cr_assert_eq(c->sequence, i);
		cr_assert_eq(o->sequence, i);
		cr_assert_eq(c->timestamp_ns, 1000000000ull * (i + 1) + 1000 * i,
			     "frame %u", i);
		cr_assert_eq(c->flags & M2M_BUFFER_ERROR, 0);
		if (device_kind() == CONVERTER) {
			cr_assert_eq(c->bytesused[0], out.plane_size[0]);
			cr_assert_arr_eq(c->data[0], o->data[0],
					 out.plane_size[0]);
		} else {
			/* An encoder's frame: a bitstream that fits. */
			cr_assert_gt(c->bytesused[0], 0);
			cr_assert_leq(c->bytesused[0], out.plane_size[0]);
		}
		if (i + 2 < frames)
			queue_frame(o->index, 1000000000ull * (i + 3) +
				    1000 * (i + 2), i + 2);
		OK(m2m_queue_buffer(dev, c));
	}
}

Test(stream, nonblocking_dequeue_gives_eagain)
{
	struct m2m_buffer *b;

	close_device();
	OK(open_named(&dev, M2M_OPEN_NONBLOCK));
	set_node_formats();
	alloc_both(M2M_MEMORY_MMAP, 1);
	start_both();
	queue_all_capture();
	cr_assert_eq(m2m_dequeue_buffer(dev, &b, M2M_QUEUE_CAPTURE), -EAGAIN);
	cr_assert_null(b);
}

Test(stream, the_fd_and_wait_report_a_finished_frame)
{
	unsigned int ready = 0;
	struct pollfd pfd;

	REQUIRE(!decodes(), "%s decodes a bitstream", info.driver);
	set_node_formats();
	alloc_both(M2M_MEMORY_MMAP, 1);
	start_both();
	queue_all_capture();
	OK(m2m_wait(dev, &ready, 0));
	cr_assert_eq(ready & M2M_READY_CAPTURE, 0);
	pfd.fd = m2m_get_fd(dev);
	pfd.events = POLLIN;
	cr_assert_geq(pfd.fd, 0, "%s", m2m_last_error());
	queue_frame(0, 5, 5);
	cr_assert_eq(poll(&pfd, 1, TIMEOUT_MS), 1, "the fd never became "
		     "readable");
	OK(m2m_wait(dev, &ready, TIMEOUT_MS));
	cr_assert(ready & M2M_READY_CAPTURE);
	dequeue(M2M_QUEUE_CAPTURE);
}

/*
 * The result of one frame through OUTPUT memory of this type, its size
 * in *n (an encoder's bitstream is smaller than the frame).
 */
static uint8_t *one_frame(enum m2m_memory memory, const uint8_t *frame,
			  size_t size, int dmabuf_fd, size_t *n)
{
	struct m2m_buffer *o, *c;
	uint8_t *result, *user = NULL;

	alloc_both(memory, 1);
	o = m2m_get_buffer(dev, M2M_QUEUE_OUTPUT, 0);
	if (memory == M2M_MEMORY_MMAP) {
		memcpy(o->data[0], frame, size);
	} else if (memory == M2M_MEMORY_USERPTR) {
		cr_assert_eq(posix_memalign((void **)&user, 4096, size), 0);
		memcpy(user, frame, size);
		o->data[0] = user;
		o->length[0] = (uint32_t)size;
	} else {
		o->fd[0] = dmabuf_fd;
	}
	o->bytesused[0] = (uint32_t)size;
	start_both();
	queue_all_capture();
	OK(m2m_queue_buffer(dev, o));
	c = dequeue(M2M_QUEUE_CAPTURE);
	*n = c->bytesused[0];
	cr_assert_gt(*n, 0);
	result = malloc(*n);
	cr_assert_not_null(result);
	memcpy(result, c->data[0], *n);
	dequeue(M2M_QUEUE_OUTPUT);
	OK(m2m_free_buffers(dev, M2M_QUEUE_OUTPUT));
	OK(m2m_free_buffers(dev, M2M_QUEUE_CAPTURE));
	free(user);
	return result;
}

Test(stream, userptr_output_gives_what_mmap_gives)
{
	uint8_t *frame, *a, *b;
	size_t size, na, nb;

	REQUIRE(!decodes(), "%s decodes a bitstream", info.driver);
	set_node_formats();
	if (has_control(V4L2_CID_VFLIP))
		OK(m2m_set_control(dev, V4L2_CID_VFLIP, 1));
	frame = random_frame(&size, 6);
	a = one_frame(M2M_MEMORY_MMAP, frame, size, -1, &na);
	b = one_frame(M2M_MEMORY_USERPTR, frame, size, -1, &nb);
	cr_assert_eq(na, nb);
	cr_assert_arr_eq(a, b, na);
	free(frame);
	free(a);
	free(b);
}

Test(stream, an_exported_buffer_feeds_another_session)
{
	struct m2m_device *first = dev, *second;
	struct m2m_buffer *c;
	uint8_t *frame, *direct, *shared, *captured;
	size_t size, nd, ns;
	int fd;

	/* This session's CAPTURE buffer, exported, is the next one's
	 * OUTPUT: a copy RGB24 -> RGB24, then a vertical flip; on an
	 * encoder, its bitstream encoded again as if a frame. */
	REQUIRE(!decodes(), "%s decodes a bitstream", info.driver);
	set_node_formats();
	frame = random_frame(&size, 7);
	alloc_both(M2M_MEMORY_MMAP, 1);
	memcpy(m2m_get_buffer(dev, M2M_QUEUE_OUTPUT, 0)->data[0], frame, size);
	start_both();
	queue_all_capture();
	OK(m2m_queue_buffer(dev, m2m_get_buffer(dev, M2M_QUEUE_OUTPUT, 0)));
	c = dequeue(M2M_QUEUE_CAPTURE);
	cr_assert_geq(c->length[0], size);
	captured = malloc(size);
	cr_assert_not_null(captured);
	memcpy(captured, c->data[0], size);
	OK(m2m_export_buffer(dev, &fd, c, 0));

	OK(open_named(&second, 0));
	dev = second;
	set_node_formats();
	if (has_control(V4L2_CID_VFLIP))
		OK(m2m_set_control(dev, V4L2_CID_VFLIP, 1));
	direct = one_frame(M2M_MEMORY_MMAP, captured, size, -1, &nd);
	shared = one_frame(M2M_MEMORY_DMABUF, NULL, size, fd, &ns);
	cr_assert_eq(ns, nd);
	cr_assert_arr_eq(shared, direct, nd);
	m2m_close(second);
	dev = first;
	close(fd);
	free(captured);
	free(frame);
	free(direct);
	free(shared);
}

Test(stream, misuse_of_buffers_is_refused)
{
	struct m2m_buffer copy, *b;

	set_node_formats();
	cr_assert_eq(m2m_dequeue_buffer(dev, &b, M2M_QUEUE_CAPTURE), -EINVAL);
	alloc_both(M2M_MEMORY_MMAP, 1);
	cr_assert_null(m2m_get_buffer(dev, M2M_QUEUE_OUTPUT, 1));
	copy = *m2m_get_buffer(dev, M2M_QUEUE_CAPTURE, 0);
	cr_assert_eq(m2m_queue_buffer(dev, &copy), -EINVAL);
	start_both();
	queue_all_capture();
	cr_assert_eq(m2m_queue_buffer(dev, m2m_get_buffer(dev,
				      M2M_QUEUE_CAPTURE, 0)), -EBUSY);
	cr_assert_eq(m2m_alloc_buffers(dev, M2M_QUEUE_OUTPUT, 3, 1), -EINVAL);
}

/*
 * A buffer kept after its queue's buffers were freed (by this thread, or
 * by another thread's m2m_set_format()) is refused by its address alone,
 * its freed memory never read.
 */
Test(stream, a_buffer_of_freed_buffers_is_refused_unread)
{
	struct m2m_buffer *stale;
	int fd;

	set_node_formats();
	alloc_both(M2M_MEMORY_MMAP, 1);
	stale = m2m_get_buffer(dev, M2M_QUEUE_OUTPUT, 0);
	OK(m2m_free_buffers(dev, M2M_QUEUE_OUTPUT));
	cr_assert_eq(m2m_queue_buffer(dev, stale), -EINVAL);
	cr_assert_not_null(strstr(m2m_last_error(), "not a buffer of"));
	cr_assert_eq(m2m_export_buffer(dev, &fd, stale, 0), -EINVAL);
}

Test(stream, stopping_returns_the_buffers)
{
	set_node_formats();
	alloc_both(M2M_MEMORY_MMAP, 2);
	start_both();
	queue_all_capture();
	cr_assert_eq(m2m_get_buffer(dev, M2M_QUEUE_CAPTURE, 1)->queued, 1);
	OK(m2m_stream_off(dev, M2M_QUEUE_CAPTURE));
	cr_assert_eq(m2m_get_buffer(dev, M2M_QUEUE_CAPTURE, 0)->queued, 0);
	cr_assert_eq(m2m_get_buffer(dev, M2M_QUEUE_CAPTURE, 1)->queued, 0);
}

static void *dequeue_capture(void *arg)
{
	struct m2m_buffer **out = arg;

	if (m2m_dequeue_buffer(dev, out, M2M_QUEUE_CAPTURE) < 0)
		*out = NULL;
	return NULL;
}

Test(stream, one_thread_waits_while_another_queues)
{
	struct m2m_buffer *got = NULL;
	pthread_t t;

	REQUIRE(!decodes(), "%s decodes a bitstream", info.driver);
	set_node_formats();
	alloc_both(M2M_MEMORY_MMAP, 1);
	start_both();
	queue_all_capture();
	cr_assert_eq(pthread_create(&t, NULL, dequeue_capture, &got), 0);
	usleep(100000);
	queue_frame(0, 77000, 8);
	pthread_join(t, NULL);
	cr_assert_not_null(got, "the waiting thread got no buffer");
	cr_assert_eq(got->timestamp_ns, 77000);
}

/* Draining */

Test(drain, flags_the_last_buffer_sends_eos_then_epipe)
{
	struct m2m_buffer *b;
	struct m2m_event ev;
	unsigned int ready;
	int ret;

	REQUIRE(!decodes(), "%s decodes a bitstream", info.driver);
	set_node_formats();
	alloc_both(M2M_MEMORY_MMAP, 2);
	start_both();
	ret = m2m_subscribe_event(dev, M2M_EVENT_EOS, 0, 0);
	REQUIRE(ret == 0, "%s sends no EOS event: %s", info.driver,
		m2m_last_error());
	queue_all_capture();
	queue_frame(0, 1000, 9);
	queue_frame(1, 2000, 10);
	ret = m2m_drain(dev);
	REQUIRE(ret != -ENOTTY, "%s cannot drain (no VIDIOC_ENCODER_CMD)",
		info.driver);
	cr_assert_eq(ret, 0, "%s", m2m_last_error());
	/* Both frames, the second LAST; or, when both were done before the
	 * drain began, an empty LAST buffer after them. */
	for (unsigned int frames = 0, n = 0;; n++) {
		cr_assert_lt(n, 3, "no LAST buffer after the two frames");
		b = dequeue(M2M_QUEUE_CAPTURE);
		if (b->bytesused[0])
			cr_assert_eq(b->timestamp_ns, 1000 * ++frames);
		if (b->flags & M2M_BUFFER_LAST) {
			cr_assert_eq(frames, 2);
			break;
		}
		OK(m2m_queue_buffer(dev, b));
	}
	OK(m2m_wait(dev, &ready, TIMEOUT_MS));
	cr_assert(ready & M2M_READY_EVENT);
	OK(m2m_dequeue_event(dev, &ev));
	cr_assert_eq(ev.type, M2M_EVENT_EOS);
	cr_assert_eq(m2m_dequeue_buffer(dev, &b, M2M_QUEUE_CAPTURE), -EPIPE);

	/* START resumes: the next frame comes through. */
	OK(m2m_restart(dev));
	dequeue(M2M_QUEUE_OUTPUT);
	dequeue(M2M_QUEUE_OUTPUT);
	queue_all_capture();
	queue_frame(0, 3000, 11);
	ret = m2m_dequeue_buffer(dev, &b, M2M_QUEUE_CAPTURE);
	REQUIRE(ret != -EPIPE, "%s: START did not resume after the drain: %s",
		info.driver, m2m_last_error());
	cr_assert_eq(ret, 0, "%s", m2m_last_error());
	cr_assert_eq(b->timestamp_ns, 3000);
}

Test(drain, with_every_frame_done_the_last_buffer_is_empty)
{
	struct m2m_buffer *b;
	int ret;

	REQUIRE(!decodes(), "%s decodes a bitstream", info.driver);
	set_node_formats();
	alloc_both(M2M_MEMORY_MMAP, 1);
	start_both();
	queue_all_capture();
	queue_frame(0, 5000, 17);
	b = dequeue(M2M_QUEUE_CAPTURE);
	if (device_kind() == CONVERTER)
		cr_assert_eq(b->bytesused[0], W * H * 3);
	else
		cr_assert_gt(b->bytesused[0], 0);
	OK(m2m_queue_buffer(dev, b));
	ret = m2m_drain(dev);
	REQUIRE(ret != -ENOTTY, "%s cannot drain (no VIDIOC_ENCODER_CMD)",
		info.driver);
	cr_assert_eq(ret, 0, "%s", m2m_last_error());
	b = dequeue(M2M_QUEUE_CAPTURE);
	cr_assert(b->flags & M2M_BUFFER_LAST);
	cr_assert_eq(b->bytesused[0], 0, "the LAST buffer holds %u bytes of "
		     "an earlier frame", b->bytesused[0]);
	/* The HQV devices number the empty buffer as a frame and give it no
	 * timestamp; V4L2 says neither (v4l2-mem2mem's
	 * v4l2_m2m_last_buffer_done(), vicodec's, leaves both as they were). */
	if (is_hqv()) {
		cr_assert_eq(b->sequence, 1);
		cr_assert_eq(b->timestamp_ns, 0);
	}
}

/* Events */

Test(event, ctrl_events_send_the_initial_value_and_changes)
{
	struct m2m_control_info c = settable_control();
	struct m2m_event ev;

	OK(m2m_set_control(dev, c.id, c.maximum));
	OK(m2m_subscribe_event(dev, M2M_EVENT_CTRL, c.id,
			       M2M_EVENT_SEND_INITIAL |
			       M2M_EVENT_ALLOW_FEEDBACK));
	OK(m2m_dequeue_event(dev, &ev));
	cr_assert_eq(ev.type, M2M_EVENT_CTRL);
	cr_assert_eq(ev.id, c.id);
	cr_assert_eq(ev.value, c.maximum);
	OK(m2m_set_control(dev, c.id, c.minimum));
	OK(m2m_dequeue_event(dev, &ev));
	cr_assert_eq(ev.value, c.minimum);
	cr_assert(ev.changes & V4L2_EVENT_CTRL_CH_VALUE);
	cr_assert_eq(m2m_dequeue_event(dev, &ev), -EAGAIN);

	OK(m2m_unsubscribe_event(dev, M2M_EVENT_CTRL, c.id));
	OK(m2m_set_control(dev, c.id, c.maximum));
	cr_assert_eq(m2m_dequeue_event(dev, &ev), -EAGAIN);
}

Test(event, frame_sync_marks_each_frame)
{
	struct m2m_event ev;
	int ret;

	set_node_formats();
	ret = m2m_subscribe_event(dev, M2M_EVENT_FRAME_SYNC, 0, 0);
	REQUIRE(ret == 0, "%s sends no FRAME_SYNC: %s", info.driver,
		m2m_last_error());
	alloc_both(M2M_MEMORY_MMAP, 2);
	start_both();
	queue_all_capture();
	queue_frame(0, 1, 12);
	queue_frame(1, 2, 13);
	dequeue(M2M_QUEUE_CAPTURE);
	dequeue(M2M_QUEUE_CAPTURE);
	for (uint32_t i = 0; i < 2; i++) {
		OK(m2m_dequeue_event(dev, &ev));
		cr_assert_eq(ev.type, M2M_EVENT_FRAME_SYNC);
		cr_assert_eq(ev.frame_sequence, i);
	}
}

Test(event, a_turn_while_streaming_is_a_source_change)
{
	struct m2m_format cap;
	struct m2m_buffer *b;
	struct m2m_event ev;
	int ret;

	REQUIRE(has_control(V4L2_CID_ROTATE), "%s cannot rotate", info.driver);
	set_formats("RGB24", W, H, "RGB24", W, H);
	ret = m2m_subscribe_event(dev, M2M_EVENT_SOURCE_CHANGE, 0, 0);
	REQUIRE(ret == 0, "%s sends no SOURCE_CHANGE: %s", info.driver,
		m2m_last_error());
	alloc_both(M2M_MEMORY_MMAP, 2);
	start_both();
	queue_all_capture();
	queue_frame(0, 100000, 14);
	b = dequeue(M2M_QUEUE_CAPTURE);
	cr_assert_eq(b->timestamp_ns, 100000);
	OK(m2m_queue_buffer(dev, b));

	OK(m2m_set_control(dev, V4L2_CID_ROTATE, 90));
	/* Nothing was queued under the old geometry: the next CAPTURE
	 * buffer comes back empty with LAST, then the event. */
	b = dequeue(M2M_QUEUE_CAPTURE);
	cr_assert(b->flags & M2M_BUFFER_LAST);
	OK(m2m_dequeue_event(dev, &ev));
	cr_assert_eq(ev.type, M2M_EVENT_SOURCE_CHANGE);
	cr_assert(ev.changes & V4L2_EVENT_SRC_CH_RESOLUTION);

	cr_assert_eq(m2m_handle_source_change(dev, &cap), 2, "%s",
		     m2m_last_error());
	cr_assert_eq(cap.width, H);
	cr_assert_eq(cap.height, W);
	queue_all_capture();
	dequeue(M2M_QUEUE_OUTPUT);
	queue_frame(0, 200000, 15);
	b = dequeue(M2M_QUEUE_CAPTURE);
	cr_assert_eq(b->timestamp_ns, 200000);
	cr_assert_eq(b->bytesused[0], H * W * 3);
}

/* Rectangles */

Test(rect, crop_and_compose_are_the_engines)
{
	struct m2m_rect crop = { 32, 16, W / 2, H / 2 };
	struct m2m_rect compose = { 8, 8, W - 16, H - 32 };
	struct m2m_rect bounds;
	uint8_t *src, *dst, *ref;
	size_t n;
	int ret;

	ret = m2m_get_rect(dev, &bounds, M2M_RECT_CROP_BOUNDS);
	REQUIRE(ret == 0, "%s has no crop rectangle: %s", info.driver,
		m2m_last_error());
	set_formats("YUYV", W, H, "XBGR32", W, H);
	OK(m2m_set_rect(dev, &crop, M2M_RECT_CROP));
	OK(m2m_set_rect(dev, &compose, M2M_RECT_COMPOSE));
	OK(m2m_get_rect(dev, &bounds, M2M_RECT_CROP_BOUNDS));
	cr_assert_eq(bounds.width, W);
	cr_assert_eq(m2m_set_rect(dev, &bounds, M2M_RECT_CROP_BOUNDS), -EINVAL);
	OK(m2m_get_rect(dev, &crop, M2M_RECT_CROP));
	cr_assert_eq(crop.width, W / 2);
	OK(m2m_get_rect(dev, &compose, M2M_RECT_COMPOSE));
	cr_assert_eq(compose.height, H - 32);

	dst = convert_random(&src, &n, 16);
	ref = engine_reference(src, &crop, &compose);
	assert_same_bytes(dst, ref, n, "crop and compose");
	free(src);
	free(dst);
	free(ref);
}

/* Odd edges and sizes are kept as asked: the engine takes any rectangle. */
Test(rect, odd_crop_and_compose_are_kept_and_the_engines)
{
	struct m2m_rect crop = { 3, 5, 31, 19 };
	struct m2m_rect compose = { 7, 3, 21, 11 };
	uint8_t *src, *dst, *ref;
	size_t n;

	REQUIRE(is_hqv(), "%s rounds rectangles its own way", info.driver);
	set_formats("YUYV", W, H, "YUV420", 45, 27);
	OK(m2m_set_rect(dev, &crop, M2M_RECT_CROP));
	OK(m2m_set_rect(dev, &compose, M2M_RECT_COMPOSE));
	cr_assert(crop.left == 3 && crop.top == 5 && crop.width == 31 &&
		  crop.height == 19, "crop (%d, %d) %ux%u", crop.left,
		  crop.top, crop.width, crop.height);
	cr_assert(compose.left == 7 && compose.top == 3 &&
		  compose.width == 21 && compose.height == 11,
		  "compose (%d, %d) %ux%u", compose.left, compose.top,
		  compose.width, compose.height);

	dst = convert_random(&src, &n, 17);
	ref = engine_reference(src, &crop, &compose);
	assert_same_bytes(dst, ref, n, "odd crop and compose");
	free(src);
	free(dst);
	free(ref);
}

/*
 * Threads: docs/libm2m.md "Threads". Calls on one device are serialised,
 * m2m_convert()'s whole job included; m2m_close() from another thread
 * wakes the calls that wait, which fail with -EINVAL, and frees the
 * device only when they have left.
 */

TestSuite(thread, .init = open_device, .fini = close_device, .timeout = 60);

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* Enough converts to overlap another thread's calls many times. */
#define RACE_CONVERTS 200
#define RACE_MS 3000

struct racer {
	pthread_t thread;
	atomic_bool stop;
	uint8_t value;
	atomic_bool failed;
	char message[256];
};

/* OUTPUT then CAPTURE, alternating between two sizes, until stopped. */
static void *set_formats_until_stopped(void *arg)
{
	struct racer *r = arg;
	struct m2m_format f;

	for (unsigned int i = 0; !r->stop; i++) {
		uint32_t w = i & 1 ? W : W / 2, h = i & 1 ? H : H / 2;

		m2m_format_init(&f, FMT("RGB24"), w, h);
		m2m_set_format(dev, &f, M2M_QUEUE_OUTPUT);
		m2m_format_init(&f, FMT("RGB24"), w, h);
		m2m_set_format(dev, &f, M2M_QUEUE_CAPTURE);
	}
	return NULL;
}

/* Convert frames of one grey level; false on a wrong result. */
static bool convert_grey(uint8_t value, char *message, size_t size)
{
	static const size_t big = W * H * 3;
	uint8_t *src = malloc(big), *dst = malloc(big);
	int n;

	cr_assert(src && dst);
	memset(src, value, big);
	memset(dst, value ^ 0xff, big);
	n = m2m_convert(dev, dst, big, src, big);
	if (n != (int)big && n != (int)big / 4)
		snprintf(message, size, "m2m_convert gave %d (%s)", n,
			 m2m_last_error());
	for (int i = 0; n > 0 && i < n && !*message; i++)
		if (dst[i] != value)
			snprintf(message, size, "byte %d of %d is %u, not %u",
				 i, n, dst[i], value);
	free(src);
	free(dst);
	return !*message;
}

/* A set_format() arriving while m2m_convert() waits for the device must
 * wait for it, not free the buffers the conversion still uses. */
Test(thread, set_format_waits_for_a_convert_in_another_thread)
{
	struct racer r = { 0 };
	uint64_t end = now_ms() + RACE_MS;
	unsigned int i;

	set_formats("RGB24", W, H, "RGB24", W, H);
	cr_assert_eq(pthread_create(&r.thread, NULL, set_formats_until_stopped,
				    &r), 0);
	for (i = 0; i < RACE_CONVERTS && now_ms() < end; i++)
		if (!convert_grey((uint8_t)(i * 37), r.message,
				  sizeof(r.message)))
			break;
	r.stop = true;
	pthread_join(r.thread, NULL);
	cr_assert_eq(r.message[0], '\0', "convert %u: %s", i, r.message);
}

static void *convert_until_stopped(void *arg)
{
	struct racer *r = arg;

	while (!r->stop && convert_grey(r->value, r->message,
					sizeof(r->message)))
		;
	atomic_store(&r->failed, r->message[0] != '\0');
	return NULL;
}

/* Two threads converting on one device: each gets its own frame back. */
Test(thread, converts_from_two_threads_each_get_their_own_frame)
{
	struct racer r[2] = { { .value = 0x30 }, { .value = 0xc0 } };
	uint64_t end;

	set_formats("RGB24", W, H, "RGB24", W, H);
	end = now_ms() + RACE_MS / 2;
	for (unsigned int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&r[i].thread, NULL,
					    convert_until_stopped, &r[i]), 0);
	while (now_ms() < end && !r[0].failed && !r[1].failed)
		usleep(10000);
	r[0].stop = r[1].stop = true;
	for (unsigned int i = 0; i < 2; i++) {
		pthread_join(r[i].thread, NULL);
		cr_assert_eq(r[i].message[0], '\0', "thread %u: %s", i,
			     r[i].message);
	}
}

struct waiter {
	pthread_t thread;
	struct m2m_device *dev;
	bool dequeue;		/* m2m_dequeue_buffer(), else m2m_wait() */
	int ret;
	char message[256];
	uint64_t returned_ms;
};

static void *wait_blocked(void *arg)
{
	struct waiter *w = arg;
	struct m2m_buffer *b;
	unsigned int ready;

	w->ret = w->dequeue ? m2m_dequeue_buffer(w->dev, &b,
						 M2M_QUEUE_CAPTURE) :
			      m2m_wait(w->dev, &ready, -1);
	snprintf(w->message, sizeof(w->message), "%s", m2m_last_error());
	w->returned_ms = now_ms();
	return NULL;
}

/* Close while a thread waits without a timeout for a frame that cannot
 * come (CAPTURE is queued, OUTPUT is not): the wait ends at once. */
static void close_during_wait(bool dequeue)
{
	struct waiter w = { .dev = dev, .dequeue = dequeue };
	uint64_t closed_ms;

	set_node_formats();
	alloc_both(M2M_MEMORY_MMAP, 1);
	start_both();
	queue_all_capture();
	cr_assert_eq(pthread_create(&w.thread, NULL, wait_blocked, &w), 0);
	usleep(200000);
	closed_ms = now_ms();
	m2m_close(w.dev);
	pthread_join(w.thread, NULL);
	dev = NULL;
	cr_assert_eq(w.ret, -EINVAL, "%d: %s", w.ret, w.message);
	cr_assert_not_null(strstr(w.message, "closed"), "%s", w.message);
	cr_assert_lt(w.returned_ms - closed_ms, 2000,
		     "the wait ended %" PRIu64 " ms after the close",
		     w.returned_ms - closed_ms);
}

Test(thread, close_ends_a_blocking_dequeue_with_einval)
{
	close_during_wait(true);
}

Test(thread, close_ends_a_wait_without_timeout_with_einval)
{
	close_during_wait(false);
}
