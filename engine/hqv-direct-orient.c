// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Direct rows for jobs that turn or flip the whole image and convert it
 * (no crop, scaling, compose or deinterlacing), from sources whose pixels
 * each carry all their samples (R'G'B', GREY, 4:4:4): the pixels are
 * turned first, then converted by the direct row of the same job in
 * place (hqv_direct_place_find()).
 *
 * Such a source's colour is computed per pixel (docs/engine.md, steps 2
 * and 3: there is no chroma to interpolate), and chroma down-sampling
 * comes after orientation and sees only the oriented lines. So the
 * pipeline's oriented line j is the source's pixels along it, converted
 * one by one, and destination rows y and y + 1 are what the direct row in
 * place makes of oriented lines y and y + 1: it gives what the pipeline
 * gives, byte for byte (tests/engine/test_direct.c). The lines are
 * copied out of the source into the band's scratch memory: for flips and
 * half turns a source row read either way, two at a time; for quarter
 * turns, whose lines are source columns, TILE_ROWS of them at once, a
 * short run of each source row, so that a source row's cache line is
 * read once for all of them, not once a line.
 */
#include "hqv-internal.h"

/* Oriented lines a quarter turn copies at once. */
#define TILE_ROWS	16

/*
 * The scratch: this header, a copy of the job whose planes are moved for
 * each row pair onto the copied lines and onto the destination rows, the
 * copied lines, each plane's after the other's, and the scratch of the
 * direct row it calls, in a band of its own that starts with the
 * orientation's.
 */
struct orient_head {
	hqv_direct_fn *place;	/* the direct row in place */
	struct hqv_band place_band;
	/* The lines copied: [first, first + count); count 0: none yet. */
	uint32_t first, count;
};

#define ORIENT_ALIGN	64

static size_t aligned(size_t n)
{
	return (n + ORIENT_ALIGN - 1) & ~(size_t)(ORIENT_ALIGN - 1);
}

static size_t view_offset(void)
{
	return aligned(sizeof(struct orient_head));
}

static size_t lines_offset(void)
{
	return view_offset() + aligned(sizeof(struct hqv_job));
}

static bool quarter_turn(const struct hqv_job *job)
{
	return job->rotation % 180;
}

/* Lines copied at once: a tile of a quarter turn, else a row pair. */
static uint32_t tile_rows(const struct hqv_job *job)
{
	return quarter_turn(job) ? TILE_ROWS : 2;
}

/*
 * The 32-bit format with a 24-bit R'G'B' source's byte order, which the
 * copied lines take when they go to Y'CbCr (whose direct rows read bytes,
 * not formats, so the result is the same): a word a pixel is what a
 * quarter turn moves best, and what converts in vector registers where
 * three-byte groups, without a byte shuffle (SSE2), do not. Else NULL.
 */
static const struct hqv_format *widened(const struct hqv_job *job)
{
	const struct hqv_format *s = job->src.fmt;

	if (s->family != HQV_FAMILY_RGB || s->bytes_per_group[0] != 3 ||
	    !job->dst.fmt->is_yuv)
		return NULL;
	return hqv_format_find(s->order[0] ? HQV_FOURCC('X', 'R', '2', '4') :
				HQV_FOURCC('X', 'B', '2', '4'));
}

/* Bytes a pixel of plane p takes in the copied lines. */
static uint32_t line_group(const struct hqv_job *job, unsigned int p)
{
	return widened(job) ? 4 : job->src.fmt->bytes_per_group[p];
}

/* Bytes of one copied line of plane p: the oriented width's pixels. */
static size_t line_bytes(const struct hqv_job *job, unsigned int p)
{
	return aligned((size_t)job->dst.width * line_group(job, p));
}

/* Where plane p's copied lines start, and (p the planes) where they end. */
static size_t plane_offset(const struct hqv_job *job, unsigned int p)
{
	size_t n = lines_offset();
	unsigned int q;

	for (q = 0; q < p; q++)
		n += tile_rows(job) * line_bytes(job, q);
	return n;
}

static size_t place_offset(const struct hqv_job *job)
{
	return plane_offset(job, job->src.fmt->num_planes);
}

/*
 * The job the direct row in place runs: the oriented image (the
 * destination's size) as its source, one copied line after another.
 */
static void view_init(const struct hqv_job *job, struct hqv_job *view)
{
	unsigned int p;

	*view = *job;
	view->src.width = job->dst.width;
	view->src.height = job->dst.height;
	if (widened(job))
		view->src.fmt = widened(job);
	for (p = 0; p < job->src.fmt->num_planes; p++)
		view->src.bytesperline[p] = line_bytes(job, p);
	view->rotation = 0;
	view->hflip = view->vflip = false;
}

/* The row function mirroring groups of g bytes. */
static const struct hqv_row_op *const mirror[] = {
	NULL, &hqv_row_mirror1, &hqv_row_mirror2, &hqv_row_mirror3,
	&hqv_row_mirror4,
};

/* n groups of g bytes from s, in reverse order. */
static void mirror_row(const struct hqv_job *job, uint8_t *d,
		       const uint8_t *s, size_t n, size_t g)
{
	struct hqv_row_args a = { .in = { s + g * (n - 1) }, .out = { d } };

	hqv_job_row(job, mirror[g], &a, n);
}

/* n 24-bit pixels as 32-bit ones, the fourth byte 0xff, either way. */
static inline __attribute__((always_inline)) void
widen_way(uint8_t *restrict d, const uint8_t *restrict s, size_t n,
	  const bool backwards)
{
	size_t i;

	for (i = 0; i < n; i++) {
		size_t k = backwards ? n - 1 - i : i;

		d[4 * i] = s[3 * k];
		d[4 * i + 1] = s[3 * k + 1];
		d[4 * i + 2] = s[3 * k + 2];
		d[4 * i + 3] = 0xff;
	}
}

static HQV_ROW_CLONES void
widen(uint8_t *restrict d, const uint8_t *restrict s, size_t n,
      bool backwards)
{
	if (backwards)
		widen_way(d, s, n, true);
	else
		widen_way(d, s, n, false);
}

/*
 * Lines [first, first + count) of plane p of a flip or a half turn: line
 * j is source row y0 + j * dj_y, read forwards or backwards.
 */
static void straight_lines(const struct hqv_job *job, unsigned int p,
			   uint8_t *lines, uint32_t first, uint32_t count)
{
	const struct hqv_plan *pl = &job->plan;
	uint32_t g = job->src.fmt->bytes_per_group[p], w = job->src.width, r;
	size_t pitch = line_bytes(job, p);

	for (r = 0; r < count; r++, lines += pitch) {
		int32_t sy = pl->y0 + (int32_t)(first + r) * pl->dj_y;
		const uint8_t *from = hqv_row(&job->src, p, (uint32_t)sy);

		if (widened(job))
			widen(lines, from, w, pl->di_x < 0);
		else if (pl->di_x < 0)
			mirror_row(job, lines, from, w, g);
		else
			memcpy(lines, from, (size_t)w * g);
	}
}

/*
 * A quarter turn's lines of g-byte pixels, each stored in o bytes, from a
 * run of count pixels in each of n source rows (as hqv_turn_bytes()):
 * line t, pixel i is pixel t (forwards) or count - 1 - t of the run at
 * s + i * step. Widening (g 3, o 4) copies a pixel's four bytes, the
 * fourth the next pixel's, which the direct rows of 32-bit pixels
 * without alpha never read: the caller makes sure the run has a pixel
 * after it.
 */
static inline __attribute__((always_inline)) void
turn_pixels_way(const uint8_t *restrict s, ptrdiff_t step, size_t n,
		uint8_t *restrict lines, size_t pitch, uint32_t count,
		const size_t g, const size_t o, const bool forwards)
{
	size_t i = 0, t, r;

	/* Eight rows at a time: their loads in flight together. */
	for (; i + 8 <= n; i += 8, s += 8 * step)
		for (t = 0; t < count; t++) {
			uint8_t *d = lines + (forwards ? t : count - 1 - t) *
				     pitch + o * i;

			for (r = 0; r < 8; r++)
				memcpy(d + o * r, s + (ptrdiff_t)r * step + g * t,
				       o);
		}
	for (; i < n; i++, s += step)
		for (t = 0; t < count; t++)
			memcpy(lines + (forwards ? t : count - 1 - t) * pitch +
			       o * i, s + g * t, o);
}

#define TURN_PIXELS(g, o)						\
static HQV_ROW_CLONES void						\
turn_pixels##g##o(const uint8_t *s, ptrdiff_t step, size_t n,		\
		  uint8_t *lines, size_t pitch, uint32_t count,		\
		  bool forwards)					\
{									\
	if (forwards)							\
		turn_pixels_way(s, step, n, lines, pitch, count, g, o,	\
				true);					\
	else								\
		turn_pixels_way(s, step, n, lines, pitch, count, g, o,	\
				false);					\
}

TURN_PIXELS(2, 2)
TURN_PIXELS(3, 3)
TURN_PIXELS(3, 4)
TURN_PIXELS(4, 4)

/*
 * Lines [first, first + count) of plane p of a quarter turn: line j is
 * source column x0 + j * dj_x, read from row y0 down (di_y 1) or up.
 */
static void turned_lines(const struct hqv_job *job, unsigned int p,
			 uint8_t *lines, uint32_t first, uint32_t count)
{
	const struct hqv_plan *pl = &job->plan;
	uint32_t g = job->src.fmt->bytes_per_group[p];
	uint32_t o = line_group(job, p);
	size_t n = job->dst.width, pitch = line_bytes(job, p), t;
	bool forwards = pl->dj_x > 0;
	uint32_t left = hqv_turn_run(pl, first, count);
	const uint8_t *s = hqv_row(&job->src, p, pl->y0) + (size_t)left * g;
	ptrdiff_t step = (ptrdiff_t)pl->di_y * job->src.bytesperline[p];

	switch (g << 4 | o) {
	case 0x11:
		hqv_turn_bytes(s, step, n, lines, pitch, count, forwards);
		break;
	case 0x22:
		turn_pixels22(s, step, n, lines, pitch, count, forwards);
		break;
	case 0x33:
		turn_pixels33(s, step, n, lines, pitch, count, forwards);
		break;
	case 0x44:
		turn_pixels44(s, step, n, lines, pitch, count, forwards);
		break;
	default: /* 0x34 */
		/* A run at the right edge would read past the last row. */
		if (left + count < job->src.width) {
			turn_pixels34(s, step, n, lines, pitch, count,
				      forwards);
			break;
		}
		turn_pixels34(s, step, n, lines + (forwards ? 0 : pitch), pitch,
			      count - 1, forwards);
		/* The run's last pixel: line 0 backwards, count - 1 else. */
		lines += (forwards ? count - 1 : 0) * pitch;
		s += 3 * (size_t)(count - 1);
		for (t = 0; t < n; t++, s += step) {
			memcpy(lines + 4 * t, s, 3);
			lines[4 * t + 3] = 0xff;
		}
		break;
	}
}

/*
 * Destination rows y and y + 1: oriented lines y and y + 1, copied when
 * the band's copy does not hold them, through the direct row in place.
 */
static void orient_pair(const struct hqv_job *job, struct hqv_band *band,
			uint32_t y)
{
	const struct hqv_format *s = job->src.fmt, *d = job->dst.fmt;
	uint8_t *scratch = band->scratch;
	struct orient_head *head = band->scratch;
	struct hqv_job *view = (void *)(scratch + view_offset());
	unsigned int p;

	if (band->fresh) {
		size_t unused;

		view_init(job, view);
		head->place = hqv_direct_place_find(view, &unused);
		/* The row it calls writes rows 0 and 1 of the view. */
		head->place_band.scratch = scratch + place_offset(job);
		head->place_band.end = 2;
		head->place_band.written = 0;
		head->place_band.fresh = true;
		head->count = 0;
		band->fresh = false;
	}
	if (!head->count || y < head->first ||
	    y + 2 > head->first + head->count) {
		uint32_t left = band->end - y;

		head->first = y;
		head->count = left < tile_rows(job) ? left : tile_rows(job);
		for (p = 0; p < s->num_planes; p++) {
			uint8_t *plane = scratch + plane_offset(job, p);

			if (quarter_turn(job))
				turned_lines(job, p, plane, y, head->count);
			else
				straight_lines(job, p, plane, y, head->count);
		}
	}
	for (p = 0; p < s->num_planes; p++)
		view->src.planes[p] = scratch + plane_offset(job, p) +
				      (y - head->first) * line_bytes(job, p);
	/* The direct row writes its rows 0 and 1: destination rows y, y + 1. */
	for (p = 0; p < d->num_planes; p++)
		view->dst.planes[p] = hqv_row(&job->dst, p,
					      p && d->vsub == 2 ? y / 2 : y);
	head->place(view, &head->place_band, 0);
}

/*
 * A flip that copies (the same format on both sides, colours unchanged)
 * mirrors the source rows straight into the destination.
 */
static void mirror_pair(const struct hqv_job *job, struct hqv_band *band,
			uint32_t y)
{
	const struct hqv_format *s = job->src.fmt;
	unsigned int p, r;

	for (p = 0; p < s->num_planes; p++) {
		uint32_t g = s->bytes_per_group[p], w = job->src.width;

		for (r = 0; r < 2; r++) {
			uint32_t sy = job->vflip ? job->src.height - 1 - y - r :
				      y + r;
			const uint8_t *from = hqv_row(&job->src, p, sy);
			uint8_t *to = hqv_row(&job->dst, p, y + r);

			if (job->hflip)
				mirror_row(job, to, from, w, g);
			else
				memcpy(to, from, (size_t)g * w);
		}
	}
}


/*
 * R'G'B' to GREY turned a quarter: converted first, then turned, which
 * gives the same bytes (each luma is its pixel's alone) and moves a byte
 * a pixel, not three or four. A strip of GREY_STRIP source columns, every
 * source row's run converted by the row function into a row of the
 * strip, is turned into the destination rows it holds.
 */
#define GREY_STRIP	32

struct grey_head {
	struct hqv_rgb_yuv k;
};

static size_t grey_strip_offset(void)
{
	return aligned(sizeof(struct grey_head));
}

static void grey_turned_pair(const struct hqv_job *job, struct hqv_band *band,
			     uint32_t y)
{
	const struct hqv_plan *pl = &job->plan;
	struct grey_head *head = band->scratch;
	uint8_t *strip = (uint8_t *)band->scratch + grey_strip_offset();
	uint32_t ib = job->src.fmt->bytes_per_group[0], w = job->src.width;
	uint32_t count = band->end - y, run, left, width, i;
	size_t n = job->dst.width;
	bool forwards = pl->dj_x > 0;
	const uint8_t *s;
	ptrdiff_t step;

	if (band->fresh) {
		/* Checked by hqv_direct_orient_find(). */
		hqv_rgb_yuv_prepare(job, &head->k);
		band->fresh = false;
	}
	if (count > GREY_STRIP)
		count = GREY_STRIP;
	band->written = y + count;
	/*
	 * The run of the lines' source columns, [run, run + count), in a
	 * strip that is whole where the source has the columns: a strip
	 * of fewer would be converted by the row function's C tail.
	 */
	run = hqv_turn_run(pl, y, count);
	width = w < GREY_STRIP ? w : GREY_STRIP;
	/* It starts with the run forwards, and ends with it backwards. */
	left = forwards ? run : run + count >= width ? run + count - width : 0;
	if (left > w - width)
		left = w - width;
	s = hqv_row(&job->src, 0, pl->y0) + (size_t)left * ib;
	step = (ptrdiff_t)pl->di_y * job->src.bytesperline[0];
	for (i = 0; i < n; i++, s += step) {
		struct hqv_row_args a = {
			.in = { s }, .out = { strip + (size_t)i * GREY_STRIP },
			.k = &head->k,
		};

		hqv_job_row(job, ib == 3 ? &hqv_row_rgb3_yuv :
			    &hqv_row_rgb4_yuv, &a, width);
	}
	hqv_turn_bytes(strip + (run - left), GREY_STRIP, n,
		       hqv_row(&job->dst, 0, y), job->dst.bytesperline[0], count,
		       forwards);
}

/*
 * Y'CbCr with subsampled chroma (4:2:0, 4:2:2) to 24- or 32-bit R'G'B'.
 * The destination has no chroma to average down, so each destination
 * pixel is its source pixel's colour: its luma and its chroma as the
 * pipeline interpolates it in source space (docs/engine.md, step 2),
 * through the colour step. So each destination row is made from its
 * oriented line's lumas and the chroma inputs d the direct row in place
 * computes for the same pixels (hqv_yuv_ds()), by the same row function:
 * for flips and half turns those of a source row, read either way; for
 * quarter turns, whose lines are source columns, from tiles of the
 * source's bytes turned TILE_ROWS columns at once, down which chroma is
 * interpolated: a chroma column's vertical sums u = 3 a + b (docs:
 * 3/4 of a chroma row and 1/4 of its neighbour, in sixteenths) for every
 * source row, and a line's d from one column's sums (an even source
 * column) or the mean of two (an odd one).
 */

/* Chroma columns a tile's source columns read: their own and the next. */
#define TILE_CHROMA	(TILE_ROWS / 2 + 2)

struct yuv_head {
	struct hqv_yuv_rgb k;
	/* The lines the tiles hold: [first, first + count); count 0: none. */
	uint32_t first, count;
	/* Their leftmost source column, and chroma column. */
	uint32_t left, qlo;
};

static size_t yuv_head_bytes(void)
{
	return aligned(sizeof(struct yuv_head));
}

/* Bytes of one of the straight rows' arrays, of n elements of size. */
static size_t array_bytes(size_t n, size_t size)
{
	return aligned((n + 2) * size);
}

/*
 * A flip's or a half turn's scratch: the lumas of a packed row, its chroma
 * sums, its d, and a destination row read backwards.
 */
static size_t straight_bytes(const struct hqv_job *job)
{
	size_t w = job->src.width;

	return yuv_head_bytes() + array_bytes(w, 1) +
	       3 * array_bytes(w, sizeof(int16_t)) + array_bytes(w, 4);
}

static void yuv_straight_pair(const struct hqv_job *job,
			      struct hqv_band *band, uint32_t y)
{
	const struct hqv_plan *pl = &job->plan;
	struct yuv_head *head = band->scratch;
	size_t w = job->src.width, ob = job->dst.fmt->bytes_per_group[0];
	uint8_t *lbuf = (uint8_t *)band->scratch + yuv_head_bytes();
	uint16_t *u = (uint16_t *)(lbuf + array_bytes(w, 1));
	int16_t *dcb = (int16_t *)((uint8_t *)u + array_bytes(w, 2));
	int16_t *dcr = (int16_t *)((uint8_t *)dcb + array_bytes(w, 2));
	uint8_t *backwards = (uint8_t *)dcr + array_bytes(w, 2);
	unsigned int r;

	if (band->fresh) {
		/* Checked by hqv_direct_orient_find(). */
		hqv_yuv_rgb_prepare(job, &head->k);
		band->fresh = false;
	}
	for (r = 0; r < 2; r++) {
		int32_t sy = pl->y0 + (int32_t)(y + r) * pl->dj_y;
		uint8_t *row = hqv_row(&job->dst, 0, y + r);
		struct hqv_row_args a = { .k = &head->k };
		const uint8_t *luma;

		hqv_yuv_ds(job, (uint32_t)sy, lbuf, u, dcb, dcr, &luma);
		a.in[0] = luma;
		a.in[1] = (const uint8_t *)dcb;
		a.in[2] = (const uint8_t *)dcr;
		a.out[0] = pl->di_x > 0 ? row : backwards;
		hqv_job_row(job, ob == 3 ? &hqv_row_yuv_rgb3 :
			    &hqv_row_yuv_rgb4, &a, w);
		if (pl->di_x < 0)
			mirror_row(job, row, backwards, w, ob);
	}
}

/* Chroma rows of the source: its height's, or half of it for 4:2:0. */
static uint32_t chroma_rows(const struct hqv_job *job)
{
	return hqv_plane_lines(job->src.fmt, 1, job->src.height);
}

/* Rows of the tile of source bytes: one a byte of the run of a row. */
static uint32_t raw_rows(const struct hqv_job *job)
{
	return (job->src.fmt->family == HQV_FAMILY_PACKED_YUV ? 4 : 2) *
	       TILE_CHROMA;
}

/* The tile of a quarter turn's lumas (not packed ones): a row a line. */
static size_t luma_pitch(const struct hqv_job *job)
{
	return aligned(job->dst.width);
}

/* The tile of chroma bytes: a row of a chroma row's length each. */
static size_t raw_pitch(const struct hqv_job *job)
{
	return aligned(job->src.fmt->vsub == 2 ? chroma_rows(job) :
		       job->dst.width);
}

/* A chroma column's sums, one for each oriented pixel. */
static size_t sums_pitch(const struct hqv_job *job)
{
	return aligned((size_t)job->dst.width * sizeof(uint16_t));
}

/*
 * A quarter turn's scratch, after its head: the lumas' tile, the chroma
 * bytes' tile, each chroma column's sums for each channel, then a line's
 * d of each channel.
 */
static size_t raw_offset(const struct hqv_job *job)
{
	return yuv_head_bytes() + TILE_ROWS * luma_pitch(job);
}

static size_t sums_offset(const struct hqv_job *job, unsigned int c,
			  uint32_t q)
{
	return raw_offset(job) + raw_rows(job) * raw_pitch(job) +
	       (c * TILE_CHROMA + q) * sums_pitch(job);
}

static size_t ds_offset(const struct hqv_job *job, unsigned int c)
{
	return sums_offset(job, 2, 0) + c * sums_pitch(job);
}

static uint8_t *luma_tile(const struct hqv_job *job, void *scratch)
{
	return (uint8_t *)scratch + yuv_head_bytes();
}

static uint8_t *raw_tile(const struct hqv_job *job, void *scratch)
{
	return (uint8_t *)scratch + raw_offset(job);
}

/* Channel c's (0: Cb) sums of the tile's chroma column q - qlo. */
static uint16_t *sums_of(const struct hqv_job *job, void *scratch,
			 unsigned int c, uint32_t q)
{
	return (uint16_t *)((uint8_t *)scratch + sums_offset(job, c, q));
}

static int16_t *ds_of(const struct hqv_job *job, void *scratch,
		      unsigned int c)
{
	return (int16_t *)((uint8_t *)scratch + ds_offset(job, c));
}

/*
 * The sums u of one chroma column for each oriented pixel i, source row
 * y0 + i di_y of n (down: di_y 1), from raw, its samples: one a chroma
 * row, m of them, in source order for 4:2:0 (u = 3 a + b: its own row
 * and the one above for an even source row, below for an odd one,
 * clamped), else one a source row in the oriented order (u = 4 a).
 */
static inline __attribute__((always_inline)) void
column_sums_way(const uint8_t *restrict raw, size_t m, size_t n,
		uint16_t *restrict u, const bool sub_v, const bool down)
{
	size_t k, i;

	if (!sub_v) {
		for (i = 0; i < n; i++)
			u[i] = 4 * raw[i];
		return;
	}
	for (k = 0; k < m; k++) {
		uint16_t a = 3 * raw[k];
		uint16_t above = raw[k ? k - 1 : 0];
		uint16_t below = raw[k + 1 < m ? k + 1 : k];

		u[down ? 2 * k : n - 1 - 2 * k] = a + above;
		if (2 * k + 1 < n)
			u[down ? 2 * k + 1 : n - 2 - 2 * k] = a + below;
	}
}

static HQV_ROW_CLONES void
column_sums(const uint8_t *raw, size_t m, size_t n, uint16_t *u, bool sub_v,
	    bool down)
{
	if (!sub_v)
		column_sums_way(raw, m, n, u, false, true);
	else if (down)
		column_sums_way(raw, m, n, u, true, true);
	else
		column_sums_way(raw, m, n, u, true, false);
}

/* d of one chroma channel of a line: one column's sums, or two's mean. */
static HQV_ROW_CLONES void
line_ds(const uint16_t *restrict a, const uint16_t *restrict b, size_t n,
	int16_t *restrict d)
{
	size_t i;

	if (!b)
		for (i = 0; i < n; i++)
			d[i] = (int16_t)(32 * a[i] - (256 << HQV_FRAC_BITS));
	else
		for (i = 0; i < n; i++)
			d[i] = (int16_t)(16 * (a[i] + b[i]) -
					 (256 << HQV_FRAC_BITS));
}

/* Where one chroma channel of the source is: plane, first byte, step. */
static void chroma_in(const struct hqv_format *f, unsigned int c,
		      unsigned int *plane, uint32_t *offset, uint32_t *step)
{
	switch (f->family) {
	case HQV_FAMILY_PACKED_YUV:
		*plane = 0;
		*offset = f->order[c ? 3 : 1];
		*step = 4;
		break;
	case HQV_FAMILY_SEMIPLANAR:
		*plane = 1;
		*offset = f->order[c];
		*step = 2;
		break;
	default:
		*plane = f->order[1 + c];
		*offset = 0;
		*step = 1;
		break;
	}
}

/*
 * The tiles of lines [first, first + count) of a quarter turn: source
 * columns [left, left + count), their chroma columns [qlo, qhi] (an odd
 * column's right neighbour included, clamped), turned: lumas into a
 * row a column (packed ones stay in the tile of bytes), chroma bytes a
 * row each, then each chroma column's sums.
 */
static void fill_yuv_tiles(const struct hqv_job *job, struct yuv_head *head,
			   void *scratch, uint32_t first, uint32_t count)
{
	const struct hqv_format *f = job->src.fmt;
	const struct hqv_plan *pl = &job->plan;
	bool packed = f->family == HQV_FAMILY_PACKED_YUV;
	uint32_t cw = hqv_plane_groups(f, 1, job->src.width);
	uint32_t left = hqv_turn_run(pl, first, count);
	uint32_t qlo = left / 2, qhi = (left + count - 1) / 2 + 1, nq, q;
	size_t n = job->dst.width, m = raw_pitch(job);
	uint8_t *raw = raw_tile(job, scratch);
	unsigned int plane, c, p_done = ~0u;
	uint32_t offset, step;

	if (qhi > cw - 1)
		qhi = cw - 1;
	nq = qhi - qlo + 1;
	head->first = first;
	head->count = count;
	head->left = left;
	head->qlo = qlo;
	if (!packed)
		hqv_turn_bytes(hqv_row(&job->src, 0, pl->y0) + left,
			       (ptrdiff_t)pl->di_y * job->src.bytesperline[0],
			       n, luma_tile(job, scratch), luma_pitch(job),
			       count, true);
	for (c = 0; c < 2; c++) {
		uint8_t *rows = raw;

		chroma_in(f, c, &plane, &offset, &step);
		if (f->family == HQV_FAMILY_PLANAR)
			rows += c * TILE_CHROMA * m;
		/* Chroma rows down (4:2:0), else lines' pixels in order. */
		if (plane != p_done) {
			const uint8_t *s = hqv_row(&job->src, plane,
						   f->vsub == 2 ? 0 : pl->y0) +
					   (size_t)qlo * step;
			ptrdiff_t down = job->src.bytesperline[plane];

			hqv_turn_bytes(s, f->vsub == 2 ? down : pl->di_y * down,
				       f->vsub == 2 ? chroma_rows(job) : n,
				       rows, m, nq * step, true);
			p_done = plane;
		}
		for (q = 0; q < nq; q++)
			column_sums(rows + (q * step + offset) * m,
				    chroma_rows(job), n,
				    sums_of(job, scratch, c, q), f->vsub == 2,
				    pl->di_y > 0);
	}
}

static void yuv_turned_pair(const struct hqv_job *job, struct hqv_band *band,
			    uint32_t y)
{
	const struct hqv_format *f = job->src.fmt;
	const struct hqv_plan *pl = &job->plan;
	struct yuv_head *head = band->scratch;
	size_t n = job->dst.width, ob = job->dst.fmt->bytes_per_group[0];
	uint32_t cw = hqv_plane_groups(f, 1, job->src.width);
	unsigned int r, c;

	if (band->fresh) {
		/* Checked by hqv_direct_orient_find(). */
		hqv_yuv_rgb_prepare(job, &head->k);
		head->count = 0;
		band->fresh = false;
	}
	if (!head->count || y < head->first ||
	    y + 2 > head->first + head->count) {
		uint32_t left = band->end - y;

		fill_yuv_tiles(job, head, band->scratch, y,
			       left < TILE_ROWS ? left : TILE_ROWS);
	}
	for (r = 0; r < 2; r++) {
		uint32_t x = pl->x0 + (int32_t)(y + r) * pl->dj_x;
		uint32_t q = x / 2 - head->qlo;
		uint32_t q2 = (x / 2 + 1 < cw ? x / 2 + 1 : cw - 1) - head->qlo;
		struct hqv_row_args a = {
			.out = { hqv_row(&job->dst, 0, y + r) },
			.k = &head->k,
		};

		if (f->family == HQV_FAMILY_PACKED_YUV)
			a.in[0] = raw_tile(job, band->scratch) +
				  (2 * x + f->order[0] - 4 * head->qlo) *
				  raw_pitch(job);
		else
			a.in[0] = luma_tile(job, band->scratch) +
				  (x - head->left) * luma_pitch(job);
		for (c = 0; c < 2; c++) {
			int16_t *d = ds_of(job, band->scratch, c);

			line_ds(sums_of(job, band->scratch, c, q),
				x % 2 ? sums_of(job, band->scratch, c, q2) :
					NULL, n, d);
			a.in[1 + c] = (const uint8_t *)d;
		}
		hqv_job_row(job, ob == 3 ? &hqv_row_yuv_rgb3 :
			    &hqv_row_yuv_rgb4, &a, n);
	}
}

/* Y'CbCr with subsampled chroma to 24- or 32-bit R'G'B'. */
static hqv_direct_fn *yuv_to_rgb_find(const struct hqv_job *job,
				       size_t *scratch)
{
	const struct hqv_format *s = job->src.fmt, *d = job->dst.fmt;
	struct hqv_yuv_rgb k;

	if (!s->is_yuv || s->family == HQV_FAMILY_GREY ||
	    d->family != HQV_FAMILY_RGB || !hqv_yuv_rgb_prepare(job, &k))
		return NULL;
	if (!quarter_turn(job)) {
		*scratch = straight_bytes(job);
		return yuv_straight_pair;
	}
	*scratch = ds_offset(job, 2);
	return yuv_turned_pair;
}

hqv_direct_fn *hqv_direct_orient_find(const struct hqv_job *job,
				      size_t *scratch, uint32_t *band_least)
{
	const struct hqv_format *s = job->src.fmt;
	struct hqv_job view;
	size_t place_scratch;

	*scratch = 0;
	if (!(job->rotation || job->hflip || job->vflip) ||
	    !hqv_job_oriented_whole(job))
		return NULL;
	if (s->hsub != 1 || s->vsub != 1)
		return yuv_to_rgb_find(job, scratch);
	if (quarter_turn(job) && s->family == HQV_FAMILY_RGB &&
	    s->bytes_per_group[0] >= 3 &&
	    job->dst.fmt->family == HQV_FAMILY_GREY) {
		struct hqv_rgb_yuv k;

		if (!hqv_rgb_yuv_prepare(job, &k))
			return NULL;
		*scratch = grey_strip_offset() +
			   (size_t)GREY_STRIP * job->dst.width;
		if (*band_least < GREY_STRIP)
			*band_least = GREY_STRIP;
		return grey_turned_pair;
	}
	if (!job->rotation && hqv_direct_copies(job))
		return mirror_pair;
	view_init(job, &view);
	if (!hqv_direct_place_find(&view, &place_scratch))
		return NULL;
	*scratch = place_offset(job) + place_scratch;
	return orient_pair;
}
