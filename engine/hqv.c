// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The HQV engine's job: validation, planning, and the row pipeline that
 * produces destination rows (fetch, colour, horizontal scale, vertical
 * scale, compose, pack).
 */
#include "hqv-internal.h"

#define ONE32	(1ULL << 32)

uint32_t hqv_image_init(struct hqv_image *img, const struct hqv_format *fmt,
			uint32_t width, uint32_t height, uint32_t bytesperline0,
			uint8_t *buffer, size_t length)
{
	uint32_t size[HQV_MAX_PLANES], total;
	size_t offset = 0;
	unsigned int p;

	memset(img, 0, sizeof(*img));
	img->fmt = fmt;
	img->width = width;
	img->height = height;
	img->bytesperline[0] = bytesperline0;
	img->encoding = HQV_ENC_BT601;
	img->quantization = fmt->is_yuv ? HQV_QUANT_LIMITED : HQV_QUANT_FULL;
	total = hqv_format_layout(fmt, width, height, img->bytesperline, size);
	for (p = 0; p < fmt->num_planes && buffer; p++) {
		img->planes[p] = buffer + offset;
		img->plane_size[p] = length > offset ? length - offset : 0;
		offset += size[p];
	}
	return total;
}

static int check_image(const struct hqv_image *img)
{
	const struct hqv_format *fmt = img->fmt;
	unsigned int p;

	if (!fmt || img->width < HQV_MIN_WIDTH || img->width > HQV_MAX_WIDTH ||
	    img->height < HQV_MIN_HEIGHT || img->height > HQV_MAX_HEIGHT)
		return -EINVAL;
	if ((unsigned int)img->encoding > HQV_ENC_BT2020 ||
	    (unsigned int)img->quantization > HQV_QUANT_FULL ||
	    (unsigned int)img->field > HQV_FIELD_ALTERNATE_BOTTOM)
		return -EINVAL;
	/*
	 * The fields have as many lines as each other, and each field of
	 * 4:2:0 its own chroma rows, whole ones.
	 */
	if (img->field != HQV_FIELD_NONE && img->height % (2 * fmt->vsub))
		return -EINVAL;

	for (p = 0; p < fmt->num_planes; p++) {
		uint64_t lines = hqv_plane_lines(fmt, p, img->height);
		uint64_t min_bpl = hqv_plane_line_bytes(fmt, p, img->width);

		if (hqv_is_alternate(img->field))
			lines /= 2;	/* a buffer holds one field */

		if (!img->planes[p] || img->bytesperline[p] < min_bpl)
			return -EINVAL;
		/* The last line needs only its samples, not the whole pitch. */
		if ((uint64_t)img->bytesperline[p] * (lines - 1) + min_bpl >
		    img->plane_size[p])
			return -EINVAL;
	}
	return 0;
}

/* Resolve a zero-width rectangle to the whole image and check it fits. */
static int check_rect(struct hqv_rect *r, const struct hqv_image *img)
{
	if (!r->width && !r->height && !r->left && !r->top) {
		r->width = img->width;
		r->height = img->height;
	}
	if (!r->width || !r->height || r->width > img->width ||
	    r->height > img->height || r->left > img->width - r->width ||
	    r->top > img->height - r->height)
		return -EINVAL;
	return 0;
}

static bool in_range(int32_t v, int32_t min, int32_t max)
{
	return v >= min && v <= max;
}

/*
 * Oriented pixel (i, j) comes from crop pixel (x, y) of the flipped crop,
 * turned clockwise: see docs/engine.md, step 4.
 */
static void plan_orientation(struct hqv_job *job)
{
	struct hqv_plan *p = &job->plan;
	int32_t w = job->crop.width, h = job->crop.height;

	p->x0 = p->y0 = p->di_x = p->di_y = p->dj_x = p->dj_y = 0;
	switch (job->rotation) {
	case 0:
		p->di_x = 1;
		p->dj_y = 1;
		break;
	case 90:
		p->dj_x = 1;
		p->di_y = -1;
		p->y0 = h - 1;
		break;
	case 180:
		p->di_x = -1;
		p->x0 = w - 1;
		p->dj_y = -1;
		p->y0 = h - 1;
		break;
	default: /* 270 */
		p->dj_x = -1;
		p->x0 = w - 1;
		p->di_y = 1;
		break;
	}
	if (job->hflip) {
		p->x0 = w - 1 - p->x0;
		p->di_x = -p->di_x;
		p->dj_x = -p->dj_x;
	}
	if (job->vflip) {
		p->y0 = h - 1 - p->y0;
		p->di_y = -p->di_y;
		p->dj_y = -p->dj_y;
	}
	p->x0 += job->crop.left;
	p->y0 += job->crop.top;

	p->oriented_width = job->rotation % 180 ? h : w;
	p->oriented_height = job->rotation % 180 ? w : h;
}

/* The scratch memory of one band: the lines of the pipeline. */
/* Oriented rows a quarter turn reads at once, one source run per row. */
#define HQV_TILE_ROWS	16

struct scratch {
	struct hqv_line tmp[HQV_TMP_LINES];	/* deinterlacing, source width */
	/* Quarter turns: a run of source pixels (source width), and the
	 * oriented rows [tile_first, + HQV_TILE_ROWS) read from such runs,
	 * one after another, oriented_width each. */
	struct hqv_line run;
	struct hqv_line tile;
	int32_t tile_first;
	struct hqv_line fetched;	/* an oriented row, oriented_width */
	struct hqv_line scaled[2];	/* rows scaled horizontally, compose width */
	int32_t scaled_row[2];		/* which oriented rows they hold, or -1 */
	uint32_t *acc[4];		/* the area filter's sums, oriented_width */
	struct hqv_line out[2];		/* a pair of destination rows */
};

static size_t line_bytes(uint32_t width)
{
	return 4 * (((size_t)width * sizeof(uint16_t) + 7) & ~(size_t)7);
}

/* Samples the tile holds per channel: none unless the job turns. */
static uint32_t tile_width(const struct hqv_job *job)
{
	return job->rotation % 180 ? HQV_TILE_ROWS * job->plan.oriented_width : 0;
}

static size_t acc_bytes(uint32_t width)
{
	return 4 * (((size_t)width * sizeof(uint32_t) + 7) & ~(size_t)7);
}

static void *line_init(struct hqv_line *l, uint8_t *mem, uint32_t width)
{
	size_t stride = ((size_t)width * sizeof(uint16_t) + 7) & ~(size_t)7;
	unsigned int c;

	for (c = 0; c < 4; c++)
		l->c[c] = (uint16_t *)(mem + c * stride);
	return mem + 4 * stride;
}

static void scratch_init(struct scratch *s, const struct hqv_job *job,
			 void *mem)
{
	uint8_t *p = mem;
	unsigned int i;

	for (i = 0; i < HQV_TMP_LINES; i++)
		p = line_init(&s->tmp[i], p, job->src.width);
	p = line_init(&s->run, p, job->src.width);
	p = line_init(&s->tile, p, tile_width(job));
	s->tile_first = -1;
	p = line_init(&s->fetched, p, job->plan.oriented_width);
	for (i = 0; i < 2; i++) {
		p = line_init(&s->scaled[i], p, job->compose.width);
		s->scaled_row[i] = -1;
	}
	for (i = 0; i < 4; i++) {
		s->acc[i] = (uint32_t *)p;
		p += acc_bytes(job->plan.oriented_width) / 4;
	}
	for (i = 0; i < 2; i++)
		p = line_init(&s->out[i], p, job->dst.width);
}

/*
 * Chroma resampling is skipped where the job moves no chroma site: same
 * subsampling on both sides, colours unchanged, no scaling, turn or flip
 * across that direction, and rectangles aligned to the subsampling. Then
 * chroma samples are copied, so that YUYV to UYVY or NV12 to YUV420 is
 * lossless.
 */
static void plan_chroma_copy(struct hqv_job *job)
{
	const struct hqv_format *s = job->src.fmt, *d = job->dst.fmt;
	struct hqv_plan *p = &job->plan;
	bool same = p->identity && s->is_yuv && d->is_yuv &&
		    s->family != HQV_FAMILY_GREY &&
		    d->family != HQV_FAMILY_GREY && job->rotation == 0;

	p->chroma_copy_h = same && s->hsub == d->hsub && !job->hflip &&
			   job->crop.width == job->compose.width &&
			   job->crop.left % s->hsub == 0 &&
			   job->compose.left % d->hsub == 0;
	p->chroma_copy_v = same && s->vsub == d->vsub &&
			   (job->src.field == HQV_FIELD_NONE || s->vsub == 1) &&
			   (!job->vflip || s->vsub == 1) &&
			   job->crop.height == job->compose.height &&
			   job->crop.top % s->vsub == 0 &&
			   job->compose.top % d->vsub == 0;
}

/*
 * The two fields of a field-based image as progressive images of half its
 * height: interleaved fields are every other line of each plane (chroma
 * too: 4:2:0 chroma is subsampled within each field), sequential ones the
 * halves of each plane, and an ALTERNATE buffer is its own field (the
 * other one is left unused).
 */
static void split_fields(const struct hqv_image *img, struct hqv_image f[2])
{
	const struct hqv_format *fmt = img->fmt;
	unsigned int i, p;

	for (i = 0; i < 2; i++) {
		f[i] = *img;
		f[i].field = HQV_FIELD_NONE;
		f[i].height = img->height / 2;
		for (p = 0; p < fmt->num_planes; p++) {
			uint32_t bpl = img->bytesperline[p];
			uint32_t lines = hqv_plane_lines(fmt, p,
							 img->height) / 2;
			size_t offset = 0;

			switch (img->field) {
			case HQV_FIELD_INTERLACED_TB:
			case HQV_FIELD_INTERLACED_BT:
				offset = (size_t)i * bpl;
				f[i].bytesperline[p] = 2 * bpl;
				break;
			case HQV_FIELD_SEQ_TB:
				offset = i ? (size_t)lines * bpl : 0;
				break;
			case HQV_FIELD_SEQ_BT:
				offset = i ? 0 : (size_t)lines * bpl;
				break;
			default:
				break;
			}
			f[i].planes[p] = img->planes[p] + offset;
			f[i].plane_size[p] = img->plane_size[p] - offset;
		}
	}
}

int hqv_job_prepare(struct hqv_job *job)
{
	struct hqv_plan *plan = &job->plan;
	size_t direct_scratch;
	int ret;

	if (check_image(&job->src) || check_image(&job->dst) ||
	    job->dst.field != HQV_FIELD_NONE ||
	    check_rect(&job->crop, &job->src) ||
	    check_rect(&job->compose, &job->dst))
		return -EINVAL;
	if ((unsigned int)job->deinterlace > HQV_DEINTERLACE_MOTION_ADAPTIVE)
		return -EINVAL;
	if (job->prev) {
		const struct hqv_image *a = &job->src, *b = job->prev;

		if (check_image(b) || a->fmt != b->fmt || a->width != b->width ||
		    a->height != b->height ||
		    memcmp(a->bytesperline, b->bytesperline,
			   sizeof(a->bytesperline)) ||
		    (a->field == HQV_FIELD_NONE) != (b->field == HQV_FIELD_NONE) ||
		    hqv_is_alternate(a->field) != hqv_is_alternate(b->field))
			return -EINVAL;
	}
	if (job->rotation % 90 || job->rotation > 270 ||
	    (unsigned int)job->scaler > HQV_SCALER_AREA ||
	    !in_range(job->procamp.brightness, -128, 127) ||
	    !in_range(job->procamp.contrast, -128, 127) ||
	    !in_range(job->procamp.saturation, -128, 127) ||
	    !in_range(job->procamp.hue, -180, 180))
		return -EINVAL;

	memset(plan, 0, sizeof(*plan));
	if (job->src.field != HQV_FIELD_NONE)
		split_fields(&job->src, plan->fields);
	if (job->prev && job->prev->field != HQV_FIELD_NONE)
		split_fields(job->prev, plan->prev_fields);
	plan_orientation(job);
	/*
	 * Rounded up: positions (d + 1/2) * step then never fall short of the
	 * exact ones, whose fractions are at least 2^-14 away from a whole
	 * pixel, by more than the 2^-19 the rounding adds up to.
	 */
	plan->step_x = hqv_div_s64(((int64_t)plan->oriented_width << 32) +
				   job->compose.width - 1, job->compose.width);
	plan->step_y = hqv_div_s64(((int64_t)plan->oriented_height << 32) +
				   job->compose.height - 1, job->compose.height);
	plan->channels = hqv_format_has_alpha(job->dst.fmt) ? 4 : 3;
	ret = hqv_color_plan(job);
	if (ret)
		return ret;
	plan_chroma_copy(job);
	plan->isa = hqv_isa_best();
	plan->band_least = job->rotation % 180 ? HQV_TILE_ROWS : 2;
	plan->direct = hqv_direct_find(job, &direct_scratch,
				       &plan->band_least);
	plan->scratch_size = (HQV_TMP_LINES + 1) * line_bytes(job->src.width) +
			     line_bytes(tile_width(job)) +
			     line_bytes(plan->oriented_width) +
			     2 * line_bytes(job->compose.width) +
			     acc_bytes(plan->oriented_width) +
			     2 * line_bytes(job->dst.width);
	if (plan->direct && direct_scratch > plan->scratch_size)
		plan->scratch_size = direct_scratch;
	return 0;
}

/* A job's size: the larger of its source's pixels and its result's. */
static uint32_t job_pixels(const struct hqv_job *job)
{
	/* At most 8192x8192 each: 32 bits hold them. */
	uint32_t src = job->src.width * job->src.height;
	uint32_t dst = job->dst.width * job->dst.height;

	return src > dst ? src : dst;
}

uint32_t hqv_band_rows(const struct hqv_job *job)
{
	uint32_t per_row = (job_pixels(job) + job->dst.height - 1) /
			   job->dst.height;
	uint32_t rows = (HQV_BAND_PIXELS / per_row) & ~1u;
	uint32_t least = job->plan.band_least > 2 ? job->plan.band_least : 2;

	return rows < least ? least : rows;
}

unsigned int hqv_job_threads(const struct hqv_job *job, uint32_t bands,
			     unsigned int max)
{
	uint32_t threads = job_pixels(job) / HQV_PIXELS_PER_THREAD;

	if (threads > bands)
		threads = bands;
	if (threads > max)
		threads = max;
	return threads ? threads : 1;
}

size_t hqv_job_scratch_size(const struct hqv_job *job)
{
	return job->plan.scratch_size;
}

/* Oriented row j, in destination colours, scaled to the compose width. */
/*
 * Oriented row j of a quarter turn: a column of the source. Reading a
 * column pixel by pixel costs a row set-up per pixel, so HQV_TILE_ROWS
 * neighbouring columns are read at once, a short run from each source
 * row, and kept for the rows that follow.
 */
static void fetch_turned(const struct hqv_job *job, struct scratch *s,
			 int32_t j, struct hqv_line *out)
{
	const struct hqv_plan *p = &job->plan;
	uint32_t n = p->oriented_width, rows = p->oriented_height;
	uint32_t t, i, c, count;

	if (s->tile_first < 0 || j < s->tile_first ||
	    j >= s->tile_first + HQV_TILE_ROWS) {
		int32_t first_x;

		s->tile_first = j;
		count = rows - j < HQV_TILE_ROWS ? rows - j : HQV_TILE_ROWS;
		/* The run covers the columns of rows j .. j + count - 1. */
		first_x = p->dj_x > 0 ? p->x0 + j : p->x0 - j - (int32_t)(count - 1);
		for (i = 0; i < n; i++) {
			hqv_source_row(job, s->tmp, p->y0 + (int32_t)i * p->di_y,
				       first_x, count, s->run.c);
			for (c = 0; c < 4; c++)
				for (t = 0; t < count; t++)
					s->tile.c[c][t * n + i] =
						s->run.c[c][p->dj_x > 0 ? t : count - 1 - t];
		}
	}
	t = j - s->tile_first;
	for (c = 0; c < 4; c++)
		memcpy(out->c[c], s->tile.c[c] + t * n, n * sizeof(uint16_t));
}

/* Oriented row j, in destination colours, oriented_width long. */
static void oriented_row(const struct hqv_job *job, struct scratch *s,
			 int32_t j, struct hqv_line *out)
{
	const struct hqv_plan *p = &job->plan;

	if (job->rotation % 180)
		fetch_turned(job, s, j, out);
	else
		hqv_fetch(job, s->tmp, out, p->x0 + j * p->dj_x,
			  p->y0 + j * p->dj_y, p->di_x, p->oriented_width);
	hqv_fill_alpha(job, out, p->oriented_width);
	if (!p->identity)
		hqv_color_apply(p, out, p->oriented_width);
}

/* The same, scaled across to the compose width (nearest, bilinear). */
static void scaled_row(const struct hqv_job *job, struct scratch *s,
		       int32_t j, struct hqv_line *out)
{
	/* Unscaled lines go straight to where they are wanted. */
	if (job->plan.oriented_width == job->compose.width) {
		oriented_row(job, s, j, out);
		return;
	}
	oriented_row(job, s, j, &s->fetched);
	hqv_scale_line(job, &s->fetched, out);
}

/*
 * The same, through a two-row cache for filters that reuse rows; the row
 * in slot keep (or none, with -1) stays.
 */
static unsigned int cached_row(const struct hqv_job *job, struct scratch *s,
			       int32_t j, int keep)
{
	unsigned int slot;

	for (slot = 0; slot < 2; slot++)
		if (s->scaled_row[slot] == j)
			return slot;
	slot = keep == 0 ? 1 : keep == 1 ? 0 :
	       s->scaled_row[0] == j - 1 ? 1 : 0;
	scaled_row(job, s, j, &s->scaled[slot]);
	s->scaled_row[slot] = j;
	return slot;
}

static void copy_row(const struct hqv_job *job, struct hqv_line *out,
		     const struct hqv_line *in)
{
	uint32_t c;

	for (c = 0; c < job->plan.channels; c++)
		memcpy(out->c[c], in->c[c], job->compose.width * sizeof(uint16_t));
}

/* out = (a * (65536 - f) + b * f) / 65536, per sample. */
static void lerp_rows(const struct hqv_job *job, struct hqv_line *out,
		      const struct hqv_line *a, const struct hqv_line *b,
		      uint32_t f)
{
	uint32_t c, x, n = job->compose.width;

	for (c = 0; c < job->plan.channels; c++) {
		const uint16_t *pa = a->c[c], *pb = b->c[c];
		uint16_t *o = out->c[c];

		for (x = 0; x < n; x++)
			o[x] = (pa[x] * (65536 - f) + pb[x] * f + 32768) >> 16;
	}
}

/*
 * Area: the mean of the box of oriented pixels that compose pixel (x, y)
 * covers (hqv_area_span() across and down), each weighed by the product
 * of its overlaps, summed whole and rounded once. Down first: each row of
 * the box, weighed, into a sum per oriented column (under 2^30: samples
 * under 2^14, weights summing to under 2^16), then across each box's
 * columns (under 2^46).
 */
static void area_rows(const struct hqv_job *job, struct scratch *s,
		      uint32_t y, struct hqv_line *out)
{
	const struct hqv_plan *p = &job->plan;
	const uint32_t whole_y = hqv_area_whole(p->step_y);
	const uint32_t whole_x = hqv_area_whole(p->step_x);
	uint32_t c, x, i, w, n = p->oriented_width;
	struct hqv_area_span down, across;

	hqv_area_span(p->step_y, p->oriented_height, y, &down);
	for (c = 0; c < p->channels; c++)
		memset(s->acc[c], 0, n * sizeof(uint32_t));
	for (i = 0; i < down.count; i++) {
		w = i == 0 ? down.w_first :
		    i == down.count - 1 ? down.w_last : whole_y;
		oriented_row(job, s, down.first + i, &s->fetched);
		for (c = 0; c < p->channels; c++)
			for (x = 0; x < n; x++)
				s->acc[c][x] += w * s->fetched.c[c][x];
	}
	for (x = 0; x < job->compose.width; x++) {
		uint64_t total;

		hqv_area_span(p->step_x, n, x, &across);
		total = (uint64_t)across.total * down.total;
		for (c = 0; c < p->channels; c++) {
			const uint32_t *a = s->acc[c] + across.first;
			uint64_t sum = 0;

			for (i = 0; i < across.count; i++) {
				w = i == 0 ? across.w_first :
				    i == across.count - 1 ? across.w_last :
				    whole_x;
				sum += (uint64_t)w * a[i];
			}
			out->c[c][x] = hqv_div_u64(2 * sum + total, 2 * total);
		}
	}
}

/* Compose row y (relative to the compose rectangle), vertically scaled. */
static void compose_row(const struct hqv_job *job, struct scratch *s,
			uint32_t y, struct hqv_line *out)
{
	const struct hqv_plan *p = &job->plan;
	uint32_t rows = p->oriented_height, j, f;
	int64_t v, last = (int64_t)(rows - 1) << 32;

	switch (job->scaler) {
	case HQV_SCALER_NEAREST:
		j = (y * p->step_y + p->step_y / 2) >> 32;
		if (j >= rows)
			j = rows - 1;
		if (rows >= job->compose.height)
			scaled_row(job, s, j, out);
		else	/* growing taller repeats rows: keep them */
			copy_row(job, out, &s->scaled[cached_row(job, s, j, -1)]);
		break;
	case HQV_SCALER_BILINEAR:
		v = (int64_t)(y * p->step_y + p->step_y / 2) - (int64_t)(ONE32 / 2);
		v = v < 0 ? 0 : v > last ? last : v;
		j = v >> 32;
		f = (v >> 16) & 0xffff;
		if (f == 0) {
			scaled_row(job, s, j, out);
		} else {
			unsigned int a = cached_row(job, s, j, -1);
			unsigned int b = cached_row(job, s, j + 1, a);

			lerp_rows(job, out, &s->scaled[a], &s->scaled[b], f);
		}
		break;
	case HQV_SCALER_AREA:
		area_rows(job, s, y, out);
		break;
	}
}

static void fill_background(const struct hqv_job *job, struct hqv_line *l)
{
	uint32_t c, x;

	for (c = 0; c < 4; c++)
		for (x = 0; x < job->dst.width; x++)
			l->c[c][x] = job->plan.background[c];
}

void hqv_job_run(const struct hqv_job *job, void *scratch, uint32_t y0,
		 uint32_t y1)
{
	const struct hqv_rect *cr = &job->compose;
	bool full = cr->left == 0 && cr->width == job->dst.width;
	struct scratch s;
	uint32_t y, r, c;

	if (y1 > job->dst.height)
		y1 = job->dst.height;
	y0 &= ~1u;
	if (job->plan.direct) {
		/*
		 * Direct rows write whole pairs; the last row of an odd
		 * height takes the pipeline below, which gives the same
		 * bytes.
		 */
		uint32_t pairs_end = y1 & ~1u;
		struct hqv_band band = {
			.scratch = scratch, .end = pairs_end, .fresh = true,
		};

		for (y = y0; y < pairs_end;
		     y = band.written > y + 2 ? band.written : y + 2)
			job->plan.direct(job, &band, y);
		if (pairs_end == y1)
			return;
		y0 = pairs_end;
	}
	scratch_init(&s, job, scratch);

	for (y = y0; y < y1; y += 2) {
		for (r = 0; r < hqv_pair_rows(job, y); r++) {
			uint32_t row = y + r;
			struct hqv_line at = s.out[r];

			if (!full || row < cr->top || row >= cr->top + cr->height)
				fill_background(job, &s.out[r]);
			if (row < cr->top || row >= cr->top + cr->height)
				continue;
			for (c = 0; c < 4; c++)
				at.c[c] += cr->left;
			compose_row(job, &s, row - cr->top, &at);
		}
		hqv_pack_pair(job, s.out, y);
	}
}
