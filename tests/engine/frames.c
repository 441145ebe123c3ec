// SPDX-License-Identifier: LGPL-2.1-or-later
/* Images, test pictures and engine-versus-model comparison for the tests. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "frames.h"

const char *const format_names[NUM_FORMATS] = {
	"YUYV", "UYVY", "YVYU", "VYUY",
	"NV12", "NV21", "NV16", "NV61", "NV24",
	"YUV420", "YVU420", "YUV422P",
	"GREY",
	"RGB24", "BGR24", "RGB565",
	"XRGB32", "XBGR32", "ARGB32", "ABGR32",
	"RGBX32", "RGBA32", "BGRX32", "BGRA32",
	"NV12M", "NV21M", "YUV420M", "YVU420M", "YUV444M",
};

const char *const pattern_names[NUM_PATTERNS] = {
	"random", "ramps", "edges", "bars",
};

const struct hqv_format *format_by_name(const char *name)
{
	const struct hqv_format *f;
	unsigned int i;

	for (i = 0; (f = hqv_format_at(i)); i++)
		if (!strcmp(f->name, name))
			return f;
	cr_assert_fail("format %s is not in the table", name);
	return NULL;
}

static void *xmalloc(size_t size)
{
	/* Zeroed, and one byte at least, so that an empty request is still a
	 * buffer. */
	void *p = calloc(1, size ? size : 1);

	cr_assert_not_null(p, "malloc(%zu)", size);
	return p;
}

/* Where planes share a buffer, the chroma planes follow the luma plane,
 * as V4L2 lays them out; the buffer is planes[0]. */
static bool one_buffer(const struct hqv_format *fmt)
{
	return fmt->mem_planes == 1 && fmt->num_planes > 1;
}

static void planes_alloc(struct hqv_image *img)
{
	unsigned int p;

	if (one_buffer(img->fmt)) {
		size_t total = 0;

		for (p = 0; p < img->fmt->num_planes; p++)
			total += img->plane_size[p];
		img->planes[0] = xmalloc(total);
		for (p = 1; p < img->fmt->num_planes; p++)
			img->planes[p] = img->planes[p - 1] +
					 img->plane_size[p - 1];
		return;
	}
	for (p = 0; p < img->fmt->num_planes; p++)
		img->planes[p] = xmalloc(img->plane_size[p]);
}

void image_alloc(struct hqv_image *img, const char *format, uint32_t width,
		 uint32_t height, uint32_t pad)
{
	uint32_t size[HQV_MAX_PLANES];
	unsigned int p;

	memset(img, 0, sizeof(*img));
	img->fmt = format_by_name(format);
	img->width = width;
	img->height = height;
	img->encoding = HQV_ENC_BT601;
	img->quantization = img->fmt->is_yuv ? HQV_QUANT_LIMITED :
					       HQV_QUANT_FULL;
	hqv_format_layout(img->fmt, width, height, img->bytesperline, size);
	for (p = 0; p < HQV_MAX_PLANES; p++)
		if (img->bytesperline[p])
			img->bytesperline[p] += pad;
	hqv_format_layout(img->fmt, width, height, img->bytesperline, size);
	for (p = 0; p < img->fmt->num_planes; p++)
		img->plane_size[p] = size[p];
	planes_alloc(img);
}

static bool is_alternate(enum hqv_field field)
{
	return field == HQV_FIELD_ALTERNATE_TOP ||
	       field == HQV_FIELD_ALTERNATE_BOTTOM;
}

void image_alloc_field(struct hqv_image *img, const char *format,
		       uint32_t width, uint32_t height, enum hqv_field field)
{
	image_alloc(img, format, width,
		    is_alternate(field) ? height / 2 : height, 0);
	img->height = height;
	img->field = field;
}

void image_alloc_like(struct hqv_image *copy, const struct hqv_image *img)
{
	*copy = *img;
	memset(copy->planes, 0, sizeof(copy->planes));
	planes_alloc(copy);
}

void image_free(struct hqv_image *img)
{
	unsigned int p;

	for (p = 0; p < HQV_MAX_PLANES; p++) {
		if (p == 0 || !one_buffer(img->fmt))
			free(img->planes[p]);
		img->planes[p] = NULL;
	}
}

void image_set_colour(struct hqv_image *img, enum hqv_encoding enc,
		      enum hqv_quantization quant)
{
	img->encoding = enc;
	img->quantization = quant;
}

void job_free(struct hqv_job *job)
{
	image_free(&job->src);
	image_free(&job->dst);
}

void image_fill_byte(struct hqv_image *img, uint8_t value)
{
	unsigned int p;

	for (p = 0; p < HQV_MAX_PLANES; p++)
		if (img->planes[p])
			memset(img->planes[p], value, img->plane_size[p]);
}

/* xorshift32: the same pictures on every run and every libc. */
static uint32_t next_random(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

static const double extremes[] = { 0, 255, 16, 235, 240, 128 };
#define NUM_EXTREMES (sizeof(extremes) / sizeof(extremes[0]))

/* Channel ch of pixel (x, y) of a structured picture. */
static double pattern_value(enum pattern pattern, unsigned int ch, uint32_t x,
			    uint32_t y, uint32_t w, uint32_t h)
{
	switch (pattern) {
	case PATTERN_RAMPS:
		switch (ch) {
		/* A ramp one pixel long is 0 (0 / 0 is NaN, which no
		 * code holds). */
		case 0:
			return 255.0 * x / (w > 1 ? w - 1 : 1);
		case 1:
			return 255.0 * y / (h > 1 ? h - 1 : 1);
		case 2:
			return 255.0 * (x + y) / (w + h > 2 ? w + h - 2 : 1);
		default:
			return 255.0 * (w - 1 - x) / (w > 1 ? w - 1 : 1);
		}
	case PATTERN_EDGES:
		/* Odd periods put edges on odd columns and rows too. */
		if (x == w / 2 + 1)
			return 255;
		switch (ch) {
		case 0:
			return (x / 5 + y / 5) % 2 ? 255 : 0;
		case 1:
			return (x / 3) % 2 ? 16 : 240;
		case 2:
			return (y / 3) % 2 ? 235 : 0;
		default:
			return (x / 7) % 2 ? 0 : 255;
		}
	default:
		/* Vertical bars; each channel cycles the extremes at its
		 * own pace so the bars cover many combinations, and the
		 * bottom rows alternate the extremes pixel by pixel. */
		if (y >= h - h / 4)
			return extremes[(x + y + ch) % NUM_EXTREMES];
		return extremes[((x * 8 / w) * (ch + 1) + ch) % NUM_EXTREMES];
	}
}

void image_fill(struct hqv_image *img, enum pattern pattern, uint32_t seed)
{
	struct hqv_image rows;
	struct ref_picture *pic;
	uint32_t x, y;
	unsigned int p, ch;

	if (pattern == PATTERN_RANDOM) {
		uint32_t state = seed * 2654435761u + 1;

		for (p = 0; p < HQV_MAX_PLANES; p++)
			for (size_t i = 0; i < img->plane_size[p]; i++)
				img->planes[p][i] = next_random(&state) >> 24;
		return;
	}
	/* The lines the memory holds, as a picture of its own. */
	rows = *img;
	if (is_alternate(img->field))
		rows.height /= 2;
	pic = ref_picture_new(rows.width, rows.height);
	for (y = 0; y < rows.height; y++)
		for (x = 0; x < rows.width; x++)
			for (ch = 0; ch < 4; ch++)
				REF_AT(pic, ch, x, y) = pattern_value(pattern,
					ch, x, y, rows.width, rows.height);
	ref_pack(&rows, pic, rows.planes);
	ref_picture_free(pic);
}

void engine_run(struct hqv_job *job, uint32_t band_rows)
{
	cr_assert_eq(hqv_job_prepare(job), 0, "hqv_job_prepare() accepts %s "
		     "%ux%u to %s %ux%u", job->src.fmt->name, job->src.width,
		     job->src.height, job->dst.fmt->name, job->dst.width,
		     job->dst.height);
	engine_run_prepared(job, band_rows);
}

void engine_run_prepared(struct hqv_job *job, uint32_t band_rows)
{
	void *scratch;
	uint32_t y;

	scratch = xmalloc(hqv_job_scratch_size(job));
	for (y = 0; y < job->dst.height; y += band_rows) {
		uint32_t end = y + band_rows < job->dst.height ?
			       y + band_rows : job->dst.height;

		hqv_job_run(job, scratch, y, end);
	}
	free(scratch);
}

/* The largest difference between two images of one layout. */
struct difference {
	int worst;
	unsigned int plane, line, byte;
	const char *field;		/* RGB565: which field */
	unsigned int a, b;		/* the two values at the worst */
	size_t over;			/* samples beyond the tolerance */
};

static void note(struct difference *d, int tolerance, unsigned int a,
		 unsigned int b, unsigned int plane, unsigned int line,
		 unsigned int byte, const char *field)
{
	int diff = a > b ? (int)(a - b) : (int)(b - a);

	if (diff > tolerance)
		d->over++;
	if (diff <= d->worst)
		return;
	d->worst = diff;
	d->plane = plane;
	d->line = line;
	d->byte = byte;
	d->field = field;
	d->a = a;
	d->b = b;
}

static void compare(const struct hqv_image *a, const struct hqv_image *b,
		    int tolerance, struct difference *d)
{
	unsigned int p;
	uint32_t x, y;

	memset(d, 0, sizeof(*d));
	for (p = 0; p < a->fmt->num_planes; p++) {
		struct ref_plane pa, pb;

		ref_plane(a, a->planes, p, &pa);
		ref_plane(b, b->planes, p, &pb);
		for (y = 0; y < pa.lines; y++) {
			const uint8_t *ra = pa.base + (size_t)y * pa.pitch;
			const uint8_t *rb = pb.base + (size_t)y * pb.pitch;

			if (a->fmt->family != HQV_FAMILY_RGB565) {
				for (x = 0; x < pa.line_bytes; x++)
					note(d, tolerance, ra[x], rb[x], p, y,
					     x, NULL);
				continue;
			}
			for (x = 0; x < pa.line_bytes; x += 2) {
				uint32_t wa = ra[x] | ra[x + 1] << 8;
				uint32_t wb = rb[x] | rb[x + 1] << 8;

				note(d, tolerance, wa >> 11, wb >> 11, p, y, x,
				     "red");
				note(d, tolerance, (wa >> 5) & 63,
				     (wb >> 5) & 63, p, y, x, "green");
				note(d, tolerance, wa & 31, wb & 31, p, y, x,
				     "blue");
			}
		}
	}
}

static void describe(const struct hqv_image *img, const struct difference *d,
		     char *buf, size_t size)
{
	unsigned int group = img->fmt->bytes_per_group[d->plane];

	snprintf(buf, size, "%s plane %u, line %u, byte %u (sample group %u, "
		 "byte %u of it%s%s)", img->fmt->name, d->plane, d->line,
		 d->byte, d->byte / group, d->byte % group,
		 d->field ? ", " : "", d->field ? d->field : "");
}

void verdict_case(struct verdict *v, bool failed, const char *fmt, ...)
{
	size_t room = sizeof(v->report) - v->len;
	va_list ap;
	int n;

	v->cases++;
	if (!failed)
		return;
	v->failures++;
	va_start(ap, fmt);
	n = vsnprintf(v->report + v->len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n + 1 >= room) {
		v->report[v->len] = '\0';
		v->untold++;
		return;
	}
	v->len += n;
	v->report[v->len++] = '\n';
	v->report[v->len] = '\0';
}

void expect_no_failure(const struct verdict *v)
{
	cr_assert(v->cases > 0, "no case was run");
	cr_assert_eq(v->failures, 0, "%u of %u cases failed:\n%s%s",
		     v->failures, v->cases, v->report,
		     v->untold ? "(and more, not shown)\n" : "");
}

void check_matches_reference(struct verdict *v, struct hqv_job *job,
			     int tolerance, const char *what, ...)
{
	struct hqv_image model;
	struct difference d;
	char where[160], title[256];
	void *scratch;
	va_list ap;
	uint32_t y;
	int ret;

	va_start(ap, what);
	vsnprintf(title, sizeof(title), what, ap);
	va_end(ap);

	image_fill_byte(&job->dst, 0xa5);
	ret = hqv_job_prepare(job);
	if (ret) {
		verdict_case(v, true, "%s: hqv_job_prepare() returned %d",
			     title, ret);
		return;
	}
	scratch = xmalloc(hqv_job_scratch_size(job));
	for (y = 0; y < job->dst.height; y += BAND_ROWS)
		hqv_job_run(job, scratch, y, y + BAND_ROWS < job->dst.height ?
				y + BAND_ROWS : job->dst.height);
	free(scratch);

	image_alloc_like(&model, &job->dst);
	image_fill_byte(&model, 0xa5);
	ref_run(job, model.planes);
	compare(&job->dst, &model, tolerance, &d);
	describe(&job->dst, &d, where, sizeof(where));
	verdict_case(v, d.worst > tolerance, "%s: off by %d (tolerance %d) at "
		     "%s: engine %u, model %u; %zu samples beyond the "
		     "tolerance", title, d.worst, tolerance, where, d.a, d.b,
		     d.over);
	image_free(&model);
}

void expect_same_samples(const struct hqv_image *a, const struct hqv_image *b,
			 const char *what, ...)
{
	struct difference d;
	char where[160], title[256];
	va_list ap;

	va_start(ap, what);
	vsnprintf(title, sizeof(title), what, ap);
	va_end(ap);

	compare(a, b, 0, &d);
	describe(a, &d, where, sizeof(where));
	cr_assert_eq(d.worst, 0, "%s: images differ by %d at %s: %u versus %u; "
		     "%zu samples differ", title, d.worst, where, d.a, d.b,
		     d.over);
}

void expect_padding_is(const struct hqv_image *img, uint8_t value,
		       const char *what)
{
	unsigned int p;
	uint32_t x, y;

	for (p = 0; p < img->fmt->num_planes; p++) {
		struct ref_plane pl;

		ref_plane(img, img->planes, p, &pl);
		for (y = 0; y < pl.lines; y++)
			for (x = pl.line_bytes; x < pl.pitch; x++)
				cr_assert_eq(pl.base[(size_t)y * pl.pitch + x],
					     value, "%s: %s plane %u, line %u: "
					     "padding byte %u was written",
					     what, img->fmt->name, p, y, x);
	}
}
