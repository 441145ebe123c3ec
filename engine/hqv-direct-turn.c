// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Direct rows for turns and flips: jobs that only reorient the whole image
 * (no crop, scaling, compose, colour change or deinterlacing) between
 * formats with one byte of luma per pixel in a plane of its own (GREY,
 * semi-planar and planar), and 4:2:0 chroma on both sides when the
 * destination has chroma.
 *
 * Luma is moved, never changed, so a destination row is a source column
 * (quarter turns) or a source row read either way. Chroma sites move, so
 * the pipeline interpolates chroma up to 4:4:4 in source space, reorients
 * it and averages it down in destination space (docs/engine.md, steps 2
 * and 7). Every step of that is exact in its 6 fractional bits (the
 * interpolated samples are multiples of 16, so the halvings never round)
 * and only the final rounding is not, so the whole is one integer filter
 * over the source chroma samples, which is what these rows compute, at
 * chroma resolution:
 *
 * - a destination chroma row covers two destination rows: for a quarter
 *   turn two source columns 2p and 2p + 1, whose interpolated sum is
 *   (3 c[p] + c[p + 1]) / 2; else two source rows 2p and 2p + 1, which
 *   sum to 16 (6 c[p] + c[p - 1] + c[p + 1]) / 8 (or 2 c[p] where chroma
 *   is copied down);
 * - across, the [1 2 1] average over destination columns 2k - 1, 2k and
 *   2k + 1 becomes [5 10 1] over source chroma rows for a quarter turn
 *   (clamped indices; mirrored when reading upwards), and over source
 *   columns [1 6 1] / 2 forwards, [2 2] backwards, or a copy.
 *
 * The sample indices are clamped as the pipeline clamps them, so edges
 * come out the same; tests/engine/test_direct.c holds every variant to the
 * pipeline byte for byte.
 */
#include "hqv-internal.h"

/* Where one chroma channel of an image is: plane, first byte, step. */
struct chroma_at {
	unsigned int plane;
	uint32_t offset, step;
};

static bool planar_420(const struct hqv_format *f)
{
	return (f->family == HQV_FAMILY_SEMIPLANAR ||
		f->family == HQV_FAMILY_PLANAR) && f->hsub == 2 && f->vsub == 2;
}

static void chroma_at(const struct hqv_format *f, unsigned int ch,
		      struct chroma_at *at)
{
	if (f->family == HQV_FAMILY_SEMIPLANAR) {
		at->plane = 1;
		at->offset = f->order[ch];
		at->step = 2;
	} else {
		at->plane = f->order[1 + ch];
		at->offset = 0;
		at->step = 1;
	}
}

static void reverse_copy(uint8_t *restrict d, const uint8_t *restrict s,
			 size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = s[n - 1 - i];
}

/*
 * A quarter turn reads a cache line of every source row for each pair of
 * destination rows. Instead, TILE_ROWS destination rows are transposed at
 * once into the band's scratch memory, 8 x 8 bytes at a time, and the
 * following pairs of the same run copy theirs from there. hqv_job_run()
 * zeroes the scratch's first word before a run, so a tile never outlives
 * the run that read it.
 */
#define TILE_ROWS	16

struct scratch_head {
	uint32_t valid;		/* zeroed by hqv_job_run() */
	uint32_t tile_first;	/* the destination row the tile starts at */
};

/* Bytes of the chroma sums: two channels of n + 2 samples each. */
static size_t sums_bytes(const struct hqv_job *job)
{
	return 2 * ((job->dst.width / 2 + 2 + 3) & ~(size_t)3) *
	       sizeof(uint16_t);
}

static uint8_t *tile_of(const struct hqv_job *job, void *scratch)
{
	return (uint8_t *)scratch + sizeof(struct scratch_head) +
	       sums_bytes(job);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * Transpose 8 x 8 bytes: x[r] holds row r, its byte c (in memory order,
 * so bits 8c to 8c + 7 on a little-endian machine) column c. Three rounds
 * swap 1-, 2- and 4-byte blocks across the diagonal.
 */
static inline __attribute__((always_inline)) void transpose8(uint64_t x[8])
{
	uint64_t t;
	unsigned int i, j;

	for (i = 0; i < 8; i += 2) {
		t = ((x[i] >> 8) ^ x[i + 1]) & 0x00ff00ff00ff00ffULL;
		x[i + 1] ^= t;
		x[i] ^= t << 8;
	}
	for (i = 0; i < 8; i += 4)
		for (j = 0; j < 2; j++) {
			t = ((x[i + j] >> 16) ^ x[i + j + 2]) &
			    0x0000ffff0000ffffULL;
			x[i + j + 2] ^= t;
			x[i + j] ^= t << 16;
		}
	for (j = 0; j < 4; j++) {
		t = ((x[j] >> 32) ^ x[j + 4]) & 0x00000000ffffffffULL;
		x[j + 4] ^= t;
		x[j] ^= t << 32;
	}
}
#define HAVE_TRANSPOSE8	1
#else
#define HAVE_TRANSPOSE8	0
#endif

/*
 * Fill the tile with destination rows [first, first + count) of a quarter
 * turn: tile row t, pixel i is source column col(t), row y0 + i * di_y.
 */
static inline __attribute__((always_inline)) void
fill_tile_way(const struct hqv_job *job, uint8_t *restrict tile,
	      uint32_t first, uint32_t count, const bool forwards)
{
	const struct hqv_plan *p = &job->plan;
	size_t n = job->dst.width, i = 0, t;
	ptrdiff_t step = (ptrdiff_t)p->di_y * job->src.bytesperline[0];
	/* The leftmost source column the tile holds. */
	int32_t left = forwards ? p->x0 + (int32_t)first :
				     p->x0 - (int32_t)first - (int32_t)(count - 1);
	const uint8_t *s = hqv_row(&job->src, 0, p->y0) + left;

#if HAVE_TRANSPOSE8
	if (count == TILE_ROWS) {
		for (; i + 8 <= n; i += 8) {
			unsigned int h, r, c;

			for (h = 0; h < TILE_ROWS; h += 8) {
				uint64_t x[8];

				for (r = 0; r < 8; r++)
					memcpy(&x[r], s + (ptrdiff_t)(i + r) * step + h, 8);
				transpose8(x);
				for (c = 0; c < 8; c++) {
					t = forwards ? h + c : TILE_ROWS - 1 - h - c;
					memcpy(tile + t * n + i, &x[c], 8);
				}
			}
		}
	}
#endif
	/* What the blocks leave: the last rows, a narrow tile. */
	for (t = 0; t < count; t++) {
		size_t col = forwards ? t : count - 1 - t;
		size_t k;

		for (k = i; k < n; k++)
			tile[t * n + k] =
				s[(ptrdiff_t)k * step + (ptrdiff_t)col];
	}
}

/* One function per direction across the source. */
static void fill_tile(const struct hqv_job *job, uint8_t *restrict tile,
		      uint32_t first, uint32_t count)
{
	if (job->plan.dj_x > 0)
		fill_tile_way(job, tile, first, count, true);
	else
		fill_tile_way(job, tile, first, count, false);
}

/* Destination luma rows y and y + 1 of the reoriented source. */
static inline __attribute__((always_inline)) void
luma_pair(const struct hqv_job *job, void *scratch, uint32_t y)
{
	const struct hqv_plan *p = &job->plan;
	size_t n = job->dst.width, r;
	uint8_t *a = hqv_row(&job->dst, 0, y), *b = hqv_row(&job->dst, 0, y + 1);

	if (p->di_x == 0) {
		/* A quarter turn: rows y, y + 1 are source columns. */
		struct scratch_head *head = scratch;
		uint8_t *tile = tile_of(job, scratch);
		uint32_t first = y - y % TILE_ROWS;

		if (!head->valid || head->tile_first != first) {
			uint32_t count = job->dst.height - first;

			fill_tile(job, tile, first,
				  count < TILE_ROWS ? count : TILE_ROWS);
			head->valid = 1;
			head->tile_first = first;
		}
		memcpy(a, tile + (y - first) * n, n);
		memcpy(b, tile + (y + 1 - first) * n, n);
		return;
	}
	for (r = 0; r < 2; r++) {
		const uint8_t *s = hqv_row(&job->src, 0, p->y0 + (int32_t)(y + r) * p->dj_y);
		uint8_t *d = r ? b : a;

		if (p->di_x > 0)
			memcpy(d, s, n);
		else
			reverse_copy(d, s, n);
	}
}

/*
 * Chroma of a quarter turn, one channel: t[k + 1] holds 3 c[p] + c[p2]
 * of the source chroma row the destination's chroma column k sits on
 * (t[0] and t[n + 1] repeat the ends, the pipeline's clamping), and
 * destination chroma sample k is (5 t[k] + 10 t[k + 1] + t[k + 2]) / 64.
 */
static inline __attribute__((always_inline)) void
filter_5_10_1(const uint16_t *restrict t, size_t n, uint8_t *restrict out,
	      const uint32_t step)
{
	size_t k;

	for (k = 0; k < n; k++)
		out[k * step] = (5 * t[k] + 10 * t[k + 1] + t[k + 2] + 32) >> 6;
}

/*
 * Chroma of a straight (flipped or half-turned) image, one channel: t[k +
 * 1] holds the vertical sum of destination chroma column k's source
 * column (weights summing to 8), t[0] and t[n + 1] repeat the ends.
 * Across: forwards [1 6 1], backwards [2 2] (t runs backwards, so its
 * right neighbour is t[k]), or a copy.
 */
static inline __attribute__((always_inline)) void
filter_across(const uint16_t *restrict t, size_t n, uint8_t *restrict out,
	      const uint32_t step, int mode)
{
	size_t k;

	if (mode > 0)
		for (k = 0; k < n; k++)
			out[k * step] = (t[k] + 6 * t[k + 1] + t[k + 2] + 32) >> 6;
	else if (mode < 0)
		for (k = 0; k < n; k++)
			out[k * step] = (t[k] + t[k + 1] + 8) >> 4;
	else
		for (k = 0; k < n; k++)
			out[k * step] = (t[k + 1] + 4) >> 3;
}

/* The chroma filter of a straight image, by mode: a copy, forwards or back. */
static int across_mode(const struct hqv_job *job)
{
	if (job->plan.chroma_copy_h)
		return 0;
	return job->plan.di_x > 0 ? 1 : -1;
}

/*
 * Gather the per-row sums of a quarter turn for both chroma channels at
 * once: source chroma columns q and q2 of each chroma row, in the order
 * the destination's chroma columns visit them.
 */
static inline __attribute__((always_inline)) void
gather_turned(const uint8_t *restrict s, ptrdiff_t step, size_t n,
	      uint32_t o_cb, uint32_t o_cr, uint32_t q, uint32_t q2,
	      uint16_t *restrict tb, uint16_t *restrict tr)
{
	size_t k;

	for (k = 0; k < n; k++) {
		const uint8_t *r = s + (ptrdiff_t)k * step;

		tb[k + 1] = 3 * r[q + o_cb] + r[q2 + o_cb];
		tr[k + 1] = 3 * r[q + o_cr] + r[q2 + o_cr];
	}
	tb[0] = tb[1];
	tr[0] = tr[1];
	tb[n + 1] = tb[n];
	tr[n + 1] = tr[n];
}

/* The same for one channel of a planar source. */
static inline __attribute__((always_inline)) void
gather_turned_plane(const uint8_t *restrict s, ptrdiff_t step, size_t n,
		    uint32_t q, uint32_t q2, uint16_t *restrict t)
{
	size_t k;

	for (k = 0; k < n; k++) {
		const uint8_t *r = s + (ptrdiff_t)k * step;

		t[k + 1] = 3 * r[q] + r[q2];
	}
	t[0] = t[1];
	t[n + 1] = t[n];
}

/*
 * Vertical sums of a straight image, one channel: a, above and below are
 * the source chroma rows (clamped), read forwards or backwards.
 */
static inline __attribute__((always_inline)) void
gather_straight(const uint8_t *restrict a, const uint8_t *restrict above,
		const uint8_t *restrict below, size_t n, const uint32_t step,
		bool copy_v, bool backwards, uint16_t *restrict t)
{
	size_t k;

	if (backwards) {
		a += (n - 1) * step;
		above += (n - 1) * step;
		below += (n - 1) * step;
	}
	if (copy_v && backwards)
		for (k = 0; k < n; k++)
			t[k + 1] = 8 * a[-(ptrdiff_t)(k * step)];
	else if (copy_v)
		for (k = 0; k < n; k++)
			t[k + 1] = 8 * a[k * step];
	else if (backwards)
		for (k = 0; k < n; k++) {
			ptrdiff_t o = -(ptrdiff_t)(k * step);

			t[k + 1] = 6 * a[o] + above[o] + below[o];
		}
	else
		for (k = 0; k < n; k++)
			t[k + 1] = 6 * a[k * step] + above[k * step] +
				   below[k * step];
	t[0] = t[1];
	t[n + 1] = t[n];
}

/* The destination chroma row y / 2, both channels, into scratch t[2]. */
static inline __attribute__((always_inline)) void
chroma_sums(const struct hqv_job *job, uint32_t y, uint16_t *t[2],
	    const uint32_t s_step)
{
	const struct hqv_plan *p = &job->plan;
	const struct hqv_format *s = job->src.fmt;
	uint32_t cw = job->src.width / 2, ch = job->src.height / 2;
	size_t n = job->dst.width / 2;
	struct chroma_at at[2];
	unsigned int c;

	chroma_at(s, 0, &at[0]);
	chroma_at(s, 1, &at[1]);
	if (p->di_x == 0) {
		/* Source luma columns 2q and 2q + 1, whichever way. */
		uint32_t q = (p->dj_x > 0 ? p->x0 + (int32_t)y :
					    p->x0 - (int32_t)y - 1) / 2;
		uint32_t q2 = q + 1 < cw ? q + 1 : q;
		uint32_t first = p->di_y > 0 ? 0 : ch - 1;
		ptrdiff_t step;

		if (at[0].plane == at[1].plane) {
			step = (ptrdiff_t)p->di_y *
			       job->src.bytesperline[at[0].plane];
			gather_turned(hqv_row(&job->src, at[0].plane, first), step, n,
				      at[0].offset, at[1].offset, q * s_step,
				      q2 * s_step, t[0], t[1]);
			return;
		}
		for (c = 0; c < 2; c++) {
			step = (ptrdiff_t)p->di_y *
			       job->src.bytesperline[at[c].plane];
			gather_turned_plane(hqv_row(&job->src, at[c].plane, first),
					    step, n, q, q2, t[c]);
		}
		return;
	}
	{
		/* Source luma rows 2q and 2q + 1, whichever way. */
		uint32_t q = (p->dj_y > 0 ? p->y0 + (int32_t)y :
					    p->y0 - (int32_t)y - 1) / 2;
		uint32_t up = q ? q - 1 : 0, down = q + 1 < ch ? q + 1 : q;

		for (c = 0; c < 2; c++) {
			const uint8_t *a = hqv_row(&job->src, at[c].plane, q);
			const uint8_t *u = hqv_row(&job->src, at[c].plane, up);
			const uint8_t *d = hqv_row(&job->src, at[c].plane, down);

			gather_straight(a + at[c].offset, u + at[c].offset,
					d + at[c].offset, n, s_step,
					p->chroma_copy_v, p->di_x < 0, t[c]);
		}
	}
}

/* Write the destination chroma row y / 2 from the sums. */
static inline __attribute__((always_inline)) void
chroma_out(const struct hqv_job *job, uint32_t y, uint16_t *const t[2],
	   const uint32_t d_step)
{
	size_t n = job->dst.width / 2;
	struct chroma_at at;
	unsigned int c;
	int mode = across_mode(job);

	for (c = 0; c < 2; c++) {
		uint8_t *out;

		chroma_at(job->dst.fmt, c, &at);
		out = hqv_row(&job->dst, at.plane, y / 2) + at.offset;
		if (job->plan.di_x == 0)
			filter_5_10_1(t[c], n, out, d_step);
		else
			filter_across(t[c], n, out, d_step, mode);
	}
}

/* Scratch: after its head, two channels of sums, n + 2 each. */
static void sums_init(const struct hqv_job *job, void *scratch, uint16_t *t[2])
{
	size_t n = (job->dst.width / 2 + 2 + 3) & ~(size_t)3;

	t[0] = (uint16_t *)((uint8_t *)scratch + sizeof(struct scratch_head));
	t[1] = t[0] + n;
}

HQV_ROW_CLONES
static void turn_grey_pair(const struct hqv_job *job, void *scratch, uint32_t y)
{
	luma_pair(job, scratch, y);
}

/*
 * 4:2:0 to 4:2:0, one wrapper per pair of chroma layouts (semi-planar's
 * step 2, planar's 1), so that the loops see constant steps.
 */
#define TURN_420(name, s_step, d_step)					\
HQV_ROW_CLONES								\
static void name(const struct hqv_job *job, void *scratch, uint32_t y)	\
{									\
	uint16_t *t[2];							\
									\
	luma_pair(job, scratch, y);						\
	sums_init(job, scratch, t);					\
	chroma_sums(job, y, t, s_step);					\
	chroma_out(job, y, t, d_step);					\
}

TURN_420(turn_semi_to_semi, 2, 2)
TURN_420(turn_semi_to_planar, 2, 1)
TURN_420(turn_planar_to_semi, 1, 2)
TURN_420(turn_planar_to_planar, 1, 1)

/* Whether the job reorients the whole source into the whole destination. */
static bool whole_images(const struct hqv_job *job)
{
	const struct hqv_plan *p = &job->plan;

	return job->src.field == HQV_FIELD_NONE &&
	       job->crop.left == 0 && job->crop.top == 0 &&
	       job->crop.width == job->src.width &&
	       job->crop.height == job->src.height &&
	       job->compose.left == 0 && job->compose.top == 0 &&
	       job->compose.width == job->dst.width &&
	       job->compose.height == job->dst.height &&
	       p->oriented_width == job->dst.width &&
	       p->oriented_height == job->dst.height;
}

hqv_direct_fn *hqv_direct_turn_find(const struct hqv_job *job, size_t *scratch)
{
	const struct hqv_format *s = job->src.fmt, *d = job->dst.fmt;
	bool s_luma = s->family == HQV_FAMILY_GREY || planar_420(s);

	*scratch = 0;
	if (!whole_images(job) || !job->plan.identity || !s_luma)
		return NULL;
	if (d->family != HQV_FAMILY_GREY && (!planar_420(s) || !planar_420(d)))
		return NULL;
	*scratch = sizeof(struct scratch_head) + sums_bytes(job) +
		   TILE_ROWS * (size_t)job->dst.width;
	if (d->family == HQV_FAMILY_GREY)
		return turn_grey_pair;
	if (s->family == HQV_FAMILY_SEMIPLANAR)
		return d->family == HQV_FAMILY_SEMIPLANAR ? turn_semi_to_semi :
							    turn_semi_to_planar;
	return d->family == HQV_FAMILY_SEMIPLANAR ? turn_planar_to_semi :
						    turn_planar_to_planar;
}
