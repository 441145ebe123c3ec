// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A direct row for bilinear scaling (docs/engine.md, step 5) of planar,
 * semi-planar and GREY images into the same format, with a crop: what the
 * pipeline computes (chroma up to 4:4:4, a horizontal pass, a vertical
 * pass, chroma down again), with the same roundings, but with the
 * arithmetic folded so that each stage is a simple loop over a row.
 *
 * The fold that matters is chroma. Up-sampled chroma at luma column x is
 * a fixed mix of at most two chroma samples, and every such 4:4:4 sample
 * (6 fractional bits) is a multiple of 8: with v = 3 a + b down a 4:2:0
 * plane (a this row's chroma, b its neighbour's; v = 4 a when chroma is
 * not interpolated down), it is 8 (2 v[k]) on a co-sited column and
 * 8 (v[k] + v[k + 1]) between two. The pipeline's horizontal tap,
 * (U[i] (65536 - f) + U[i + 1] f + 32768) >> 16, is then exactly
 * (v[k] wa + v[k + 1] wb + 4096) >> 13 with per-column k, wa and wb
 * computed once per band: the 4:4:4 line at source width is never made.
 * Luma is the same with v = 4 Y' and u = 2 v.
 *
 * The tap is linear up to its rounding: v[k] wa + v[k + 1] wb is
 * 3 A + B, where A and B are the same sums over the chroma rows a and b
 * themselves (B = A when v = 4 a). A chroma row of a 4:2:0 plane is a or
 * b for four luma rows, so its sums are made once and kept, and each luma
 * row only adds its two rows' sums and rounds.
 *
 * Horizontally scaled rows (all three channels) are kept in two slots,
 * as the pipeline's cached_row() keeps them, for the next row of the band.
 */
#include "hqv-internal.h"

#define ONE32	(1ULL << 32)

/*
 * Horizontal taps of one destination column: v[idx] wa + v[idx + 1] wb.
 * wa + wb is always 2 << 16 (each of the pipeline's two samples brings
 * twice its weight), so only wb is kept and the tap is
 * (v[idx] << 17) + (v[idx + 1] - v[idx]) wb: one product fewer.
 */
struct taps {
	int32_t *idx;
	int32_t *wb;
};

/*
 * Chroma rows whose sums are kept: consecutive luma rows 2k and 2k + 1
 * use rows k - 1, k and k + 1 of a 4:2:0 plane between them.
 */
#define SUM_ROWS	3

struct scale_state {
	int32_t row[2];		/* source rows the slots hold, or -1 */
	struct taps taps[2];	/* luma, chroma (the same for 4:4:4) */
	uint8_t *table;		/* luma's taps for the htap1 row */
	uint8_t *plane[4];	/* R'G'B': a source row's bytes, split */
	uint32_t *cc;		/* Cb and Cr, as pairs */
	uint32_t *sum[SUM_ROWS][2];	/* chroma rows' taps, Cb and Cr */
	const uint8_t *sum_row[SUM_ROWS];	/* Cb of its row, or NULL */
	uint32_t sum_age[SUM_ROWS];	/* sums_made when it was summed */
	uint32_t sums_made;
	uint16_t *h[2][4];	/* slots: rows scaled across, per channel */
	uint16_t *l[2][2];	/* chroma of rows y, y + 1 (or the sum), down */
	uint8_t *c[2];		/* a destination chroma row, Cb and Cr */
	struct hqv_vtap down;	/* luma or R'G'B': the vertical taps */
};

static size_t round32(size_t n)
{
	return (n + 31) & ~(size_t)31;
}

/*
 * A layout's next array: ptr, count elements at offset at of base (when
 * s, the state, is not NULL: a NULL s only counts the bytes).
 */
#define TAKE(ptr, count) do {						\
		if (s)							\
			(ptr) = (void *)(base + at);			\
		at += round32((count) * sizeof(*(ptr)));		\
	} while (0)

/* Carves the state's arrays out of the scratch memory after it. */
static size_t layout(const struct hqv_job *job, struct scale_state *s)
{
	size_t n = job->compose.width, w = job->src.width, at, i, c;
	uint8_t *base = (uint8_t *)s;

	at = round32(sizeof(*s));
	for (i = 0; i < 2; i++) {
		TAKE(s->taps[i].idx, n);
		TAKE(s->taps[i].wb, n);
	}
	TAKE(s->table, HQV_HTAP_TABLE_BYTES(n));
	for (c = 0; c < 4; c++)
		TAKE(s->plane[c], w);
	TAKE(s->cc, w);
	for (i = 0; i < SUM_ROWS; i++)
		for (c = 0; c < 2; c++)
			TAKE(s->sum[i][c], n);
	for (i = 0; i < 2; i++)
		for (c = 0; c < 4; c++)
			TAKE(s->h[i][c], n);
	/* One more: chroma_pack()'s right neighbour of an odd last column. */
	for (i = 0; i < 2; i++)
		for (c = 0; c < 2; c++)
			TAKE(s->l[i][c], n + 1);
	for (c = 0; c < 2; c++)
		TAKE(s->c[c], n);
	return at;
}

/*
 * The taps of each destination column for v samples of one kind: luma or
 * chroma not subsampled across (hdiv 1: u[x] = 2 v[x]), or chroma
 * subsampled across (hdiv 2), interpolated between co-sited columns or
 * not. count is the v samples of a row; the pipeline clamps the sample
 * right of the last one to it.
 */
static inline __attribute__((always_inline)) void
taps_of(const struct hqv_job *job, struct taps *t, const uint32_t hdiv,
	bool interp, uint32_t count)
{
	uint32_t n_in = job->crop.width, n_out = job->compose.width;
	uint32_t left = job->crop.left, d;
	uint64_t step = job->plan.step_x;
	int64_t pos = (int64_t)(step / 2) - (int64_t)(ONE32 / 2);
	int64_t last = (int64_t)(n_in - 1) << 32;

	for (d = 0; d < n_out; d++, pos += step) {
		int64_t u = pos < 0 ? 0 : pos > last ? last : pos;
		uint32_t i = u >> 32, f = (u >> 16) & 0xffff;
		uint32_t j = i + 1 < n_in ? i + 1 : i;
		uint32_t xs[2] = { left + i, left + j };
		uint32_t ws[2] = { 65536 - f, f };
		uint32_t base = (left + i) / hdiv, c[3] = { 0, 0, 0 }, e;

		for (e = 0; e < 2; e++) {
			uint32_t x = xs[e], k = x / hdiv;

			if (hdiv == 1 || !interp || x % 2 == 0) {
				c[k - base] += 2 * ws[e];
			} else {
				uint32_t k2 = k + 1 < count ? k + 1 : k;

				c[k - base] += ws[e];
				c[k2 - base] += ws[e];
			}
		}
		/* Both samples inside the row: the last pairs with its left. */
		if (base + 1 >= count) {
			c[1] = c[0];
			c[0] = 0;
			base--;
		}
		t->idx[d] = base;
		t->wb[d] = c[1];
	}
}

/*
 * Made at the start of every band: hdiv (a format's hsub, 1 or 2) a
 * constant in each copy, so that its divisions are shifts.
 */
static void make_taps(const struct hqv_job *job, struct taps *t,
		      uint32_t hdiv, bool interp, uint32_t count)
{
	if (hdiv == 2)
		taps_of(job, t, 2, interp, count);
	else
		taps_of(job, t, 1, interp, count);
}

/*
 * A luma row y (or an R'G'B' channel's) scaled across into out, in 4:4:4
 * samples with 6 fractional bits: (4 Y' wa + 4 Y'' wb + 4096) >> 13 with
 * the 4 taken out of the shift, by the htap1 row (hqv-rows.h).
 */
static inline __attribute__((always_inline)) void
luma_across(const struct hqv_job *job, const struct scale_state *s,
	    const uint8_t *y, uint16_t *out)
{
	const struct hqv_htap k = { .row = y };
	const struct hqv_row_args a = {
		.in = { (const uint8_t *)s->taps[0].idx,
			(const uint8_t *)s->taps[0].wb, s->table },
		.out = { (uint8_t *)out },
		.k = &k,
	};

	hqv_job_row(job, &hqv_row_htap1, &a, job->compose.width);
}

/*
 * Two rows of bytes in pairs, a byte each, so that one load serves two
 * rows with the same taps: p[k], p[k + 1], q[k], q[k + 1]. p and q are Cb
 * and Cr of a chroma row (step 1 planar, 2 semi-planar).
 * Made as two 16-bit halves, GCC widens fewer lanes.
 */
static inline __attribute__((always_inline)) void
pairs_of_two(const uint8_t *restrict p, const uint8_t *restrict q,
	     const size_t step, uint32_t *restrict pq, size_t n)
{
	size_t k;

	for (k = 0; k + 1 < n; k++) {
		uint32_t pp = p[k * step] | p[(k + 1) * step] << 8;
		uint32_t qq = q[k * step] | q[(k + 1) * step] << 8;

		pq[k] = pp | qq << 16;
	}
}

/*
 * A chroma row's taps, Cb and Cr through one load (they share their
 * taps), not rounded: at most 255 (wa + wb) = 255 << 17 each, so 3 A + B
 * still fits 32 bits.
 */
static inline __attribute__((always_inline)) void
chroma_across(const uint32_t *restrict cc, const struct taps *t,
	      uint32_t *restrict cb, uint32_t *restrict cr, size_t n)
{
	const int32_t *restrict idx = t->idx;
	const int32_t *restrict wb = t->wb;
	size_t d;

	for (d = 0; d < n; d++) {
		uint32_t quad = cc[idx[d]];

		cb[d] = hqv_tap(quad & 0xff, quad >> 8 & 0xff, wb[d]);
		cr[d] = hqv_tap(quad >> 16 & 0xff, quad >> 24, wb[d]);
	}
}

/*
 * The entry holding the sums of r's chroma row e (0: its own, 1: its
 * neighbour), made unless one does; entry keep stays (-1: none), and
 * the oldest other gives way.
 */
static inline __attribute__((always_inline)) unsigned int
sums_of(struct scale_state *s, const struct hqv_yuv_row *r, unsigned int e,
	size_t n, int keep)
{
	unsigned int i, old = keep == 0 ? 1 : 0;

	for (i = 0; i < SUM_ROWS; i++)
		if (s->sum_row[i] == r->cb[e])
			return i;
	for (i = 0; i < SUM_ROWS; i++)
		if ((int)i != keep && s->sum_age[i] < s->sum_age[old])
			old = i;
	if (r->c_step == 2)
		pairs_of_two(r->cb[e], r->cr[e], 2, s->cc, r->c_count);
	else
		pairs_of_two(r->cb[e], r->cr[e], 1, s->cc, r->c_count);
	chroma_across(s->cc, &s->taps[1], s->sum[old][0], s->sum[old][1], n);
	s->sum_row[old] = r->cb[e];
	s->sum_age[old] = ++s->sums_made;
	return old;
}

/* 3 a + b of two chroma rows' sums, rounded to a 4:4:4 sample. */
static inline __attribute__((always_inline)) void
chroma_mix(const uint32_t *restrict a, const uint32_t *restrict b,
	   uint16_t *restrict out, size_t n)
{
	size_t d;

	for (d = 0; d < n; d++)
		out[d] = (3 * a[d] + b[d] + 4096) >> 13;
}

/* Chroma of source row j of the crop, scaled across, into slot i. */
static inline __attribute__((always_inline)) void
fill_chroma(const struct hqv_job *job, struct scale_state *s, unsigned int i,
	    uint32_t j)
{
	const size_t n = job->compose.width;
	struct hqv_yuv_row r;
	unsigned int a, b, c;

	hqv_yuv_row_init(&r, job, &job->src, job->crop.top + j);
	/* Not interpolated down, b is a: 3 a + a = 4 a. */
	a = sums_of(s, &r, 0, n, -1);
	b = sums_of(s, &r, 1, n, a);
	for (c = 0; c < 2; c++)
		chroma_mix(s->sum[a][c], s->sum[b][c], s->h[i][c + 1], n);
}

/*
 * R'G'B' (24- and 32-bit pixels of one format): hqv_unpack() makes each
 * channel, and alpha, a line of code * HQV_ONE as it makes luma, and the
 * colour step leaves them alone (plan.identity), so each is scaled as
 * luma is: the split rows (hqv-rows.h) make each byte of the pixels a
 * row of its own, which luma_across() takes.
 */
static inline __attribute__((always_inline)) void
rgb_across(const struct hqv_job *job, struct scale_state *s, unsigned int i,
	   const uint8_t *p, const size_t step)
{
	const uint8_t *o = job->src.fmt->order;
	const unsigned int channels =
		hqv_format_has_alpha(job->src.fmt) ? 4 : 3;
	const struct hqv_row_args a = {
		.in = { p },
		.out = { s->plane[0], s->plane[1], s->plane[2], s->plane[3] },
	};
	unsigned int c;

	hqv_job_row(job, step == 3 ? &hqv_row_split3 : &hqv_row_split4, &a,
		    job->src.width);
	for (c = 0; c < channels; c++)
		luma_across(job, s, s->plane[o[c]], s->h[i][c]);
}

/* Source row j of the crop, its R'G'B' channels scaled across, into slot i. */
static inline __attribute__((always_inline)) void
fill_rgb_slot(const struct hqv_job *job, struct scale_state *s,
	      unsigned int i, uint32_t j)
{
	const uint8_t *p = hqv_row(&job->src, 0, job->crop.top + j);

	/* Constant steps, for the vectoriser. */
	if (job->src.fmt->bytes_per_group[0] == 3)
		rgb_across(job, s, i, p, 3);
	else
		rgb_across(job, s, i, p, 4);
}

/*
 * A destination R'G'B' row from its channels (0-2 R, G, B, 3 alpha): byte
 * order[c] of a pixel is channel c, a 32-bit pixel's fourth byte alpha,
 * or 0xff without (pack_rgb()): s->o[3] then holds 0xff throughout.
 */
static inline __attribute__((always_inline)) void
rgb_store(const struct hqv_format *fmt, uint8_t *const o[4],
	  uint8_t *restrict p, size_t n)
{
	const uint8_t *b[4];
	size_t x;

	b[fmt->order[0]] = o[0];
	b[fmt->order[1]] = o[1];
	b[fmt->order[2]] = o[2];
	if (fmt->bytes_per_group[0] == 4)
		b[6 - fmt->order[0] - fmt->order[1] - fmt->order[2]] = o[3];
	if (fmt->bytes_per_group[0] == 3) {
		const uint8_t *restrict b0 = b[0], *restrict b1 = b[1];
		const uint8_t *restrict b2 = b[2];

		for (x = 0; x < n; x++) {
			p[3 * x] = b0[x];
			p[3 * x + 1] = b1[x];
			p[3 * x + 2] = b2[x];
		}
	} else {
		const uint8_t *restrict b0 = b[0], *restrict b1 = b[1];
		const uint8_t *restrict b2 = b[2], *restrict b3 = b[3];

		for (x = 0; x < n; x++) {
			p[4 * x] = b0[x];
			p[4 * x + 1] = b1[x];
			p[4 * x + 2] = b2[x];
			p[4 * x + 3] = b3[x];
		}
	}
}

/* Source row j of the crop, scaled across, into slot i. */
static inline __attribute__((always_inline)) void
fill_slot(const struct hqv_job *job, struct scale_state *s, unsigned int i,
	  uint32_t j)
{
	if (job->src.fmt->family == HQV_FAMILY_RGB) {
		fill_rgb_slot(job, s, i, j);
		return;
	}
	luma_across(job, s, hqv_row(&job->src, 0, job->crop.top + j),
		    s->h[i][0]);
	if (job->src.fmt->family != HQV_FAMILY_GREY)
		fill_chroma(job, s, i, j);
}

/*
 * Source rows j and j + 1 into slots 0 and 1.
 */
static inline __attribute__((always_inline)) void
fill_slots(const struct hqv_job *job, struct scale_state *s, uint32_t j)
{
	uint32_t row = job->crop.top + j;

	s->row[0] = j;
	s->row[1] = j + 1;
	if (job->src.fmt->family == HQV_FAMILY_RGB) {
		fill_rgb_slot(job, s, 0, j);
		fill_rgb_slot(job, s, 1, j + 1);
		return;
	}
	luma_across(job, s, hqv_row(&job->src, 0, row), s->h[0][0]);
	luma_across(job, s, hqv_row(&job->src, 0, row + 1), s->h[1][0]);
	if (job->src.fmt->family != HQV_FAMILY_GREY) {
		fill_chroma(job, s, 0, j);
		fill_chroma(job, s, 1, j + 1);
	}
}

/* Whether a slot holds source row j. */
static bool held(const struct scale_state *s, uint32_t j)
{
	return s->row[0] == (int32_t)j || s->row[1] == (int32_t)j;
}

/* The slot holding source row j, filled unless it does; keep stays. */
static inline __attribute__((always_inline)) unsigned int
slot_of(const struct hqv_job *job, struct scale_state *s, uint32_t j, int keep)
{
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (s->row[i] == (int32_t)j)
			return i;
	i = keep == 0 ? 1 : keep == 1 ? 0 : s->row[0] == (int32_t)j - 1 ? 1 : 0;
	fill_slot(job, s, i, j);
	s->row[i] = j;
	return i;
}

/*
 * Luma or the R'G'B' channels of slots a and b: the vertical tap, then
 * rounding to a code value, in one shift (the vtap rows, hqv-rows.h), into
 * destination row y. layout() takes a slot's channels one after another,
 * so that each is the same bytes after the one before.
 */
static inline __attribute__((always_inline)) void
luma_down(const struct hqv_job *job, struct scale_state *s, unsigned int a,
	  unsigned int b, uint32_t g, uint32_t y)
{
	const struct hqv_format *fmt = job->dst.fmt;
	const struct hqv_row_op *op = fmt->family != HQV_FAMILY_RGB ?
		&hqv_row_vtap1 : fmt->bytes_per_group[0] == 3 ?
		&hqv_row_vtap3 : &hqv_row_vtap4;
	const struct hqv_row_args args = {
		.in = { (const uint8_t *)s->h[a][0],
			(const uint8_t *)s->h[b][0] },
		.out = { hqv_row(&job->dst, 0, y) },
		.in_pitch = (uint8_t *)s->h[0][1] - (uint8_t *)s->h[0][0],
		.k = &s->down,
	};

	s->down.g = g;
	hqv_job_row(job, op, &args, job->compose.width);
}

/*
 * Chroma: the vertical tap, kept with its 6 fractional bits, and added to
 * the row above when the two are averaged down (sum, or NULL): nothing is
 * rounded between the two, so chroma_pack() need read only one row.
 */
static inline __attribute__((always_inline)) void
chroma_down(const uint16_t *restrict a, const uint16_t *restrict b,
	    uint32_t g, const uint16_t *restrict sum, uint16_t *restrict out,
	    size_t n)
{
	const uint32_t ga = 65536 - g;
	size_t x;

	if (sum)
		for (x = 0; x < n; x++)
			out[x] = sum[x] +
				 ((a[x] * ga + b[x] * g + 32768) >> 16);
	else
		for (x = 0; x < n; x++)
			out[x] = (a[x] * ga + b[x] * g + 32768) >> 16;
}

/*
 * One destination chroma row from a row of 4:4:4 samples, or the sum of
 * two (rows 2), as hqv-pack.c's chroma_row_down() averages (or picks)
 * them. a holds n samples and one more, which this sets to the last (the
 * pipeline clamps the column right of an odd width's last to it).
 */
static inline __attribute__((always_inline)) void
chroma_pack(uint16_t *restrict a, unsigned int rows, uint32_t hdiv,
	    bool average_h, uint8_t *restrict out, size_t n, size_t cw)
{
	/* A sum of two rows has one more bit to shift out. */
	const unsigned int two = rows == 2, half = 1 << (5 + two);
	size_t k;

	/* The co-sited samples; a constant stride vectorises. */
	if (!average_h && hdiv == 2) {
		for (k = 0; k < cw; k++)
			out[k] = (a[2 * k] + half) >> (6 + two);
		return;
	}
	if (!average_h) {
		for (k = 0; k < cw; k++)
			out[k] = (a[k] + half) >> (6 + two);
		return;
	}
	a[n] = a[n - 1];
	/* Column 0 has no left neighbour: it counts itself twice. */
	out[0] = (3 * a[0] + a[1] + 4 * half) >> (8 + two);
	for (k = 1; k < cw; k++)
		out[k] = (a[2 * k - 1] + 2 * a[2 * k] + a[2 * k + 1] +
			  4 * half) >> (8 + two);
}

/* Store Cb and Cr of a destination chroma row: step 1 planar, 2 NV. */
static inline __attribute__((always_inline)) void
chroma_store(const struct hqv_job *job, struct scale_state *s, uint32_t row,
	     size_t cw)
{
	const struct hqv_format *d = job->dst.fmt;
	const uint8_t *restrict cb = s->c[0], *restrict cr = s->c[1];
	size_t k;

	if (d->family == HQV_FAMILY_SEMIPLANAR) {
		uint8_t *restrict o = hqv_row(&job->dst, 1, row);

		if (d->order[0] == 0) {
			for (k = 0; k < cw; k++) {
				o[2 * k] = cb[k];
				o[2 * k + 1] = cr[k];
			}
		} else {
			for (k = 0; k < cw; k++) {
				o[2 * k] = cr[k];
				o[2 * k + 1] = cb[k];
			}
		}
	} else {
		memcpy(hqv_row(&job->dst, d->order[1], row), cb, cw);
		memcpy(hqv_row(&job->dst, d->order[2], row), cr, cw);
	}
}

static HQV_ROW_CLONES void
bilinear_pair(const struct hqv_job *job, struct hqv_band *band, uint32_t y)
{
	static const uint8_t grey_order[3] = { 0, 1, 2 };
	const struct hqv_format *fmt = job->dst.fmt;
	const struct hqv_plan *p = &job->plan;
	struct scale_state *s = band->scratch;
	const bool grey = fmt->family == HQV_FAMILY_GREY;
	const bool rgb = fmt->family == HQV_FAMILY_RGB;
	const bool vsub = fmt->vsub == 2;
	const bool average_h = fmt->hsub == 2 && !p->chroma_copy_h;
	const bool average_v = vsub && !p->chroma_copy_v;
	const size_t n = job->compose.width, cw = hqv_plane_groups(fmt, 1, n);
	const int64_t last = (int64_t)(p->oriented_height - 1) << 32;
	unsigned int r, c;

	if (band->fresh) {
		layout(job, s);
		make_taps(job, &s->taps[0], 1, false, job->src.width);
		hqv_htap_table(s->table, s->taps[0].idx, s->taps[0].wb, n,
			       job->src.width);
		if (rgb) {
			hqv_vtap_init(&s->down, fmt->bytes_per_group[0],
				      fmt->order, hqv_format_has_alpha(fmt));
		} else {
			hqv_vtap_init(&s->down, 1, grey_order, false);
		}
		if (!rgb && !grey) {
			make_taps(job, &s->taps[1], fmt->hsub,
				  !p->chroma_copy_h,
				  hqv_plane_groups(fmt, 1, job->src.width));
		}
		s->row[0] = s->row[1] = -1;
		for (c = 0; c < SUM_ROWS; c++) {
			s->sum_row[c] = NULL;
			s->sum_age[c] = 0;
		}
		s->sums_made = 0;
		band->fresh = false;
	}

	for (r = 0; r < 2; r++) {
		uint32_t yr = y + r, j, g;
		int64_t v = (int64_t)(yr * p->step_y + p->step_y / 2) -
			    (int64_t)(ONE32 / 2);
		unsigned int a, b;

		v = v < 0 ? 0 : v > last ? last : v;
		j = v >> 32;
		g = (v >> 16) & 0xffff;
		/* Downscaling, both rows are often new: fill them at once. */
		if (g && !held(s, j) && !held(s, j + 1)) {
			fill_slots(job, s, j);
			a = 0;
			b = 1;
		} else {
			a = slot_of(job, s, j, -1);
			b = g ? slot_of(job, s, j + 1, a) : a;
		}
		luma_down(job, s, a, b, g, yr);
		if (rgb || grey || (vsub && r && !average_v))
			continue;
		for (c = 0; c < 2; c++)
			chroma_down(s->h[a][c + 1], s->h[b][c + 1], g,
				    r && average_v ? s->l[0][c] : NULL,
				    s->l[r][c], n);
		if (vsub)
			continue;
		/* A chroma row per row. */
		for (c = 0; c < 2; c++)
			chroma_pack(s->l[r][c], 1, fmt->hsub, average_h,
				    s->c[c], n, cw);
		chroma_store(job, s, yr, cw);
	}
	if (grey || rgb || !vsub)
		return;
	for (c = 0; c < 2; c++)
		chroma_pack(s->l[average_v][c], 1 + average_v, fmt->hsub,
			    average_h, s->c[c], n, cw);
	chroma_store(job, s, y / 2, cw);
}

/*
 * A direct row for area scaling (docs/engine.md, step 5) of GREY and
 * R'G'B' images into the same format, with a crop: what the pipeline
 * computes (hqv.c's area_rows()), with the same sums and roundings,
 * straight from the source bytes. Each channel's sample is code * HQV_ONE
 * there, as luma's is, and the colour step leaves them alone
 * (plan.identity), so a box's sum of samples is HQV_ONE times its sum of
 * bytes. Down first, as libyuv's box filter does: the rows of a box that
 * weigh whole are added as bytes into 16-bit sums, each byte of a pixel
 * alike; then each box's columns are weighed and summed once. Each
 * destination column's weights are made once per band; whole boxes
 * (area_whole()) need none, and are summed across by a row function.
 */
struct area_state {
	uint32_t *first;	/* per column: its first source pixel */
	uint32_t *count;	/* how many it touches */
	uint32_t *w_first;	/* their weights (hqv_area_span()) */
	uint32_t *w_last;
	uint32_t *total;
	uint64_t *inverse;	/* UINT64_MAX / total, for hqv_div_by() */
	uint16_t *sum;		/* per byte of a row: whole rows, added */
	uint32_t *acc;		/* per byte of a row: a box's rows, weighed */
	uint8_t *o[4];		/* a destination row, per channel */
	struct hqv_area across;	/* whole boxes: the row function's k */
};

/* Whole rows a 16-bit sum of bytes takes at a time: 256 * 255 < 2^16. */
#define AREA_SUM_ROWS	256

static size_t area_layout(const struct hqv_job *job, struct area_state *s)
{
	size_t n = job->compose.width, at, c;
	size_t bytes = (size_t)job->crop.width * job->src.fmt->bytes_per_group[0];
	uint8_t *base = (uint8_t *)s;

	at = round32(sizeof(*s));
	TAKE(s->first, n);
	TAKE(s->count, n);
	TAKE(s->w_first, n);
	TAKE(s->w_last, n);
	TAKE(s->total, n);
	TAKE(s->inverse, n);
	/* The area rows' SIMD entries read 16 bytes past it. */
	TAKE(s->sum, bytes + 8);
	TAKE(s->acc, bytes);
	for (c = 0; c < 4; c++)
		TAKE(s->o[c], n);
	return at;
}

static void area_columns(const struct hqv_job *job, struct area_state *s)
{
	struct hqv_area_span span;
	uint32_t d;

	for (d = 0; d < job->compose.width; d++) {
		hqv_area_span(job->plan.step_x, job->crop.width, d, &span);
		s->first[d] = span.first;
		s->count[d] = span.count;
		s->w_first[d] = span.w_first;
		s->w_last[d] = span.w_last;
		s->total[d] = span.total;
		s->inverse[d] = hqv_div_u64(UINT64_MAX, span.total);
	}
}

/* Crop row i's first byte. */
static inline const uint8_t *area_src(const struct hqv_job *job, uint32_t i,
				      size_t bpp)
{
	return hqv_row(&job->src, 0, job->crop.top + i) +
	       (size_t)job->crop.left * bpp;
}

/*
 * s->acc = the crop rows of box down, each weighed (whole ones
 * whole), per byte: under 2^24. Whole rows are added as they are, up to
 * AREA_SUM_ROWS at a time, then weighed once.
 */
static inline __attribute__((always_inline)) void
area_down(const struct hqv_job *job, struct area_state *s,
	  const struct hqv_area_span *down, const size_t bpp)
{
	const uint32_t whole = hqv_area_whole(job->plan.step_y);
	const size_t bytes = (size_t)job->crop.width * bpp;
	uint16_t *restrict sum = s->sum;
	uint32_t *restrict acc = s->acc;
	bool started = false;
	uint32_t i = 0, w;
	size_t x;

	while (i < down->count) {
		const uint8_t *restrict p = area_src(job, down->first + i, bpp);
		uint32_t added = 0;

		w = i == 0 ? down->w_first :
		    i == down->count - 1 ? down->w_last : whole;
		if (w != whole) {
			for (x = 0; x < bytes; x++)
				acc[x] = (started ? acc[x] : 0) + w * p[x];
			started = true;
			i++;
			continue;
		}
		for (x = 0; x < bytes; x++)
			sum[x] = p[x];
		/* The whole rows after it, to the box's last or a partial. */
		for (i++, added = 1; i < down->count && added < AREA_SUM_ROWS;
		     i++, added++) {
			if (i == down->count - 1 && down->w_last != whole)
				break;
			p = area_src(job, down->first + i, bpp);
			for (x = 0; x < bytes; x++)
				sum[x] += p[x];
		}
		for (x = 0; x < bytes; x++)
			acc[x] = (started ? acc[x] : 0) + whole * sum[x];
		started = true;
	}
}

/*
 * Destination row channels from s->acc: each column's box summed across,
 * its weights times the rows' (under 2^40), and rounded once to a sample
 * (as area_rows()), then to a code value, as pack does. The division by
 * both totals is two by inverses, floor(floor(a / b) / c) being
 * floor(a / (b c)): one inverse a row, one a column.
 */
static inline __attribute__((always_inline)) void
area_across(const struct hqv_job *job, struct area_state *s,
	    const struct hqv_area_span *down, const size_t bpp,
	    const unsigned int channels, const uint8_t *order)
{
	const uint32_t whole = hqv_area_whole(job->plan.step_x);
	const uint64_t total_y2 = 2 * (uint64_t)down->total;
	const uint64_t inverse_y2 = hqv_div_u64(UINT64_MAX, total_y2);
	const uint32_t *restrict acc = s->acc;
	uint32_t d, i;
	size_t b;
	unsigned int c;

	for (d = 0; d < job->compose.width; d++) {
		const uint32_t *a = acc + (size_t)s->first[d] * bpp;
		const uint32_t count = s->count[d];
		uint64_t sum[4] = { 0, 0, 0, 0 }, inner[4] = { 0, 0, 0, 0 };
		const uint64_t total = (uint64_t)s->total[d] * down->total;

		for (b = 0; b < bpp; b++)
			sum[b] = (uint64_t)s->w_first[d] * a[b];
		if (count > 1) {
			for (i = 1; i + 1 < count; i++)
				for (b = 0; b < bpp; b++)
					inner[b] += a[i * bpp + b];
			for (b = 0; b < bpp; b++)
				sum[b] += (uint64_t)s->w_last[d] *
					  a[(count - 1) * bpp + b] +
					  whole * inner[b];
		}
		for (c = 0; c < channels; c++) {
			uint64_t twice = 2 * HQV_ONE * sum[order[c]] + total;
			uint64_t sample = hqv_div_by(hqv_div_by(twice, total_y2,
								inverse_y2),
						     s->total[d], s->inverse[d]);

			s->o[c][d] = (sample + HQV_ONE / 2) >> HQV_FRAC_BITS;
		}
	}
}

/*
 * Whole boxes: where both steps are whole numbers of pixels, every pixel
 * of a box weighs whole (hqv_area_span()), so the weights cancel and a
 * box of N pixels whose bytes sum to S gives, for area_across()'s
 * sample floor((2 HQV_ONE S + N) / 2N) rounded to a code value,
 * floor((S + h) / N) with h = floor((HQV_ONE + 1) N / (2 HQV_ONE)): the
 * same bytes from 16-bit row sums and the area rows (hqv-rows.h), with no
 * weights and one division by a multiplication. That takes boxes of at
 * most AREA_SUM_ROWS rows and under 2^16 pixels (S + h < 2^24).
 */
static bool area_whole(const struct hqv_job *job)
{
	const uint64_t sx = job->plan.step_x, sy = job->plan.step_y;

	return !(uint32_t)sx && !(uint32_t)sy && sy >> 32 <= AREA_SUM_ROWS &&
	       (sx >> 32) * (sy >> 32) < 1u << 16;
}

/*
 * Whole boxes' columns: box d's first pixel is d times the step's, as
 * hqv_area_span() finds, and every box has the same pixels, so one
 * division serves them all.
 */
static void area_whole_columns(const struct hqv_job *job,
			       struct area_state *s)
{
	const struct hqv_format *fmt = job->dst.fmt;
	const uint32_t across = job->plan.step_x >> 32;
	const unsigned int bpp = fmt->bytes_per_group[0];
	uint8_t fill = 4;
	uint32_t d;

	for (d = 0; d < job->compose.width; d++)
		s->first[d] = d * across;
	/* A 4-byte pixel without alpha: its fourth byte is 0xff. */
	if (bpp == 4 && !hqv_format_has_alpha(fmt))
		fill = 6 - fmt->order[0] - fmt->order[1] - fmt->order[2];
	hqv_area_init(&s->across, bpp, across, job->plan.step_y >> 32, fill);
	s->across.row = s->sum;
	memset(s->sum + (size_t)job->crop.width * bpp, 0, 16);
}

/* s->sum = the crop rows of box down added, per byte, two at a time. */
static inline __attribute__((always_inline)) void
area_down_whole(const struct hqv_job *job, struct area_state *s,
		const struct hqv_area_span *down, const size_t bpp)
{
	const size_t bytes = (size_t)job->crop.width * bpp;
	uint16_t *restrict sum = s->sum;
	const uint8_t *restrict p = area_src(job, down->first, bpp);
	const uint8_t *restrict q;
	uint32_t i = 1;
	size_t x;

	if (down->count == 1) {
		for (x = 0; x < bytes; x++)
			sum[x] = p[x];
	} else {
		q = area_src(job, down->first + 1, bpp);
		for (x = 0; x < bytes; x++)
			sum[x] = (uint16_t)(p[x] + q[x]);
		i = 2;
	}
	for (; i + 1 < down->count; i += 2) {
		p = area_src(job, down->first + i, bpp);
		q = area_src(job, down->first + i + 1, bpp);
		for (x = 0; x < bytes; x++)
			sum[x] += (uint16_t)(p[x] + q[x]);
	}
	if (i < down->count) {
		p = area_src(job, down->first + i, bpp);
		for (x = 0; x < bytes; x++)
			sum[x] += p[x];
	}
}

/* Destination row dst from s->sum, each column's box added across. */
static void area_across_whole(const struct hqv_job *job,
			      struct area_state *s, size_t bpp, uint8_t *dst)
{
	const struct hqv_row_op *op = bpp == 1 ? &hqv_row_area1 :
				      bpp == 3 ? &hqv_row_area3 :
						 &hqv_row_area4;
	const struct hqv_row_args args = {
		.in = { (const uint8_t *)s->first },
		.out = { dst },
		.k = &s->across,
	};

	hqv_job_row(job, op, &args, job->compose.width);
}

/* One destination row: constant steps and channels, for the compiler. */
static inline __attribute__((always_inline)) void
area_row(const struct hqv_job *job, struct area_state *s,
	 const struct hqv_area_span *down, const size_t bpp,
	 const unsigned int channels, const uint8_t *order, bool whole,
	 uint8_t *dst)
{
	const struct hqv_format *fmt = job->dst.fmt;

	if (whole) {
		area_down_whole(job, s, down, bpp);
		area_across_whole(job, s, bpp, dst);
		return;
	}
	area_down(job, s, down, bpp);
	area_across(job, s, down, bpp, channels, order);
	if (fmt->family == HQV_FAMILY_GREY)
		memcpy(dst, s->o[0], job->compose.width);
	else
		rgb_store(fmt, s->o, dst, job->compose.width);
}

static HQV_ROW_CLONES void
area_pair(const struct hqv_job *job, struct hqv_band *band, uint32_t y)
{
	static const uint8_t grey_order[4] = { 0, 0, 0, 0 };
	const struct hqv_format *fmt = job->dst.fmt;
	const struct hqv_plan *p = &job->plan;
	struct area_state *s = band->scratch;
	const bool grey = fmt->family == HQV_FAMILY_GREY;
	const unsigned int channels = grey ? 1 :
				      hqv_format_has_alpha(fmt) ? 4 : 3;
	const size_t bpp = fmt->bytes_per_group[0];
	const uint8_t *order = grey ? grey_order : fmt->order;
	struct hqv_area_span down;
	const bool whole = area_whole(job);
	uint32_t r;

	if (band->fresh) {
		area_layout(job, s);
		if (whole) {
			area_whole_columns(job, s);
		} else {
			area_columns(job, s);
			memset(s->o[3], 0xff, job->compose.width);
		}
		band->fresh = false;
	}

	for (r = 0; r < 2; r++) {
		uint8_t *dst = hqv_row(&job->dst, 0, y + r);

		hqv_area_span(p->step_y, p->oriented_height, y + r, &down);
		if (bpp == 1)
			area_row(job, s, &down, 1, 1, order, whole, dst);
		else if (bpp == 3)
			area_row(job, s, &down, 3, 3, order, whole, dst);
		else
			area_row(job, s, &down, 4, channels, order, whole,
				 dst);
	}
}

static hqv_direct_fn *scale_find(const struct hqv_job *job, size_t *scratch)
{
	const struct hqv_format *s = job->src.fmt;

	if (job->src.field != HQV_FIELD_NONE || job->rotation ||
	    job->hflip || job->vflip || s != job->dst.fmt ||
	    !job->plan.identity || job->compose.left || job->compose.top ||
	    job->compose.width != job->dst.width ||
	    job->compose.height != job->dst.height)
		return NULL;
	if (job->scaler == HQV_SCALER_AREA &&
	    (s->family == HQV_FAMILY_GREY || s->family == HQV_FAMILY_RGB)) {
		*scratch = area_layout(job, NULL);
		return area_pair;
	}
	if (job->scaler != HQV_SCALER_BILINEAR)
		return NULL;
	if (s->family != HQV_FAMILY_GREY && s->family != HQV_FAMILY_PLANAR &&
	    s->family != HQV_FAMILY_SEMIPLANAR && s->family != HQV_FAMILY_RGB)
		return NULL;
	/* Taps pair a sample with its right neighbour: two per row. */
	if (hqv_plane_groups(s, 1, job->src.width) < 2)
		return NULL;
	*scratch = layout(job, NULL);
	return bilinear_pair;
}

hqv_direct_fn *hqv_direct_scale_find(const struct hqv_job *job,
				     size_t *scratch)
{
	hqv_direct_fn *fn;

	*scratch = 0;
	fn = scale_find(job, scratch);
	return fn ? fn : hqv_direct_deint_find(job, scratch);
}
