// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The in-process device's band pool (libm2m/inprocess/pool.c): a frame
 * split across threads is, byte for byte, the frame one thread makes,
 * whatever the job (direct rows, the general pipeline, deinterlacing,
 * odd sizes, fewer bands than threads); and struct m2m_open_options
 * version 1, which ends before threads, is still taken.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>
#include <m2m/m2m.h>
#include <m2m/vhqv.h>

#define FMT(s) m2m_fourcc_from_name(s)
#define OK(call) cr_assert_geq((call), 0, "%s: %s", #call, m2m_last_error())

struct job {
	const char *name;
	const char *from, *to;
	uint32_t width, height, out_width, out_height;
	uint32_t field;
	int32_t rotate, hflip, scaler, deinterlace;
};

/*
 * Each frame is large enough (engine/hqv.h: HQV_PIXELS_PER_THREAD) to be
 * split across every thread count below, or across as many as it has
 * bands.
 */
static const struct job jobs[] = {
	{ "RGB24 -> NV12, hflip", "RGB24", "NV12", 1280, 720, 1280, 720,
	  .hflip = 1 },
	{ "NV12 -> RGB24 bilinear", "NV12", "RGB24", 1280, 720, 1920, 1080,
	  .scaler = VHQV_SCALER_BILINEAR },
	{ "RGB24 -> YUV420 turned, odd", "RGB24", "YUV420", 1281, 721, 721,
	  1281, .rotate = 90 },
	{ "YUYV blend", "YUYV", "YUYV", 1920, 1080, 1920, 1080,
	  .field = V4L2_FIELD_INTERLACED_TB,
	  .deinterlace = VHQV_DEINTERLACE_BLEND },
	/* Two bands of two rows (a band is at least a row pair). */
	{ "RGB24 area, fewer bands than threads", "RGB24", "RGB24", 2560, 1440,
	  160, 4, .scaler = VHQV_SCALER_AREA },
};

/* The job's output with threads threads, in a buffer of the caller's. */
static uint8_t *convert(const struct job *j, unsigned int threads,
			size_t *size)
{
	struct m2m_open_options opts = M2M_OPEN_OPTIONS_INIT;
	struct m2m_format in, out;
	struct m2m_device *dev;
	uint8_t *src, *dst;
	size_t in_size, i;

	opts.threads = threads;
	OK(m2m_open_ext(&dev, M2M_INPROCESS, &opts));
	OK(m2m_format_init(&in, FMT(j->from), j->width, j->height));
	if (j->field)
		in.field = j->field;
	OK(m2m_format_init(&out, FMT(j->to), j->out_width, j->out_height));
	OK(m2m_set_format(dev, &in, M2M_QUEUE_OUTPUT));
	OK(m2m_set_format(dev, &out, M2M_QUEUE_CAPTURE));
	if (j->rotate)
		OK(m2m_set_control(dev, V4L2_CID_ROTATE, j->rotate));
	if (j->hflip)
		OK(m2m_set_control(dev, V4L2_CID_HFLIP, 1));
	if (j->scaler)
		OK(m2m_set_control(dev, V4L2_CID_VHQV_SCALER, j->scaler));
	if (j->deinterlace)
		OK(m2m_set_control(dev, V4L2_CID_DEINTERLACING_MODE,
				   j->deinterlace));
	in_size = m2m_format_frame_size(&in);
	*size = m2m_format_frame_size(&out);
	src = malloc(in_size);
	/* Line padding is left as it was: zero, for the comparison. */
	dst = calloc(1, *size);
	cr_assert(src && dst);
	srand(7);
	for (i = 0; i < in_size; i++)
		src[i] = rand();
	OK(m2m_convert(dev, dst, *size, src, in_size));
	free(src);
	m2m_close(dev);
	return dst;
}

Test(threads, bands_across_threads_give_one_threads_bytes)
{
	static const unsigned int counts[] = { 2, 3, 0 };
	unsigned int j, c;

	for (j = 0; j < sizeof(jobs) / sizeof(jobs[0]); j++) {
		size_t size, other;
		uint8_t *one = convert(&jobs[j], 1, &size);

		for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			uint8_t *many = convert(&jobs[j], counts[c], &other);

			cr_assert_eq(other, size);
			cr_assert(!memcmp(one, many, size),
				  "%s: %u threads differ from one",
				  jobs[j].name, counts[c]);
			free(many);
		}
		free(one);
	}
}

Test(threads, version_1_options_are_taken_and_later_ones_refused)
{
	struct m2m_open_options opts = M2M_OPEN_OPTIONS_INIT;
	struct m2m_device *dev;

	opts.version = 1;
	OK(m2m_open_ext(&dev, M2M_INPROCESS, &opts));
	m2m_close(dev);
	opts.version = M2M_OPEN_OPTIONS_VERSION + 1;
	cr_assert_eq(m2m_open_ext(&dev, M2M_INPROCESS, &opts), -EINVAL);
	cr_assert_null(dev);
}
