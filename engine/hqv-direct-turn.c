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
 * once, 8 x 8 bytes at a time: straight into the destination when the
 * band holds all of them, else into the band's scratch memory, from which
 * the following pairs of the same band copy theirs; a tile never outlives
 * the band that read it (struct hqv_band).
 */
#define TILE_ROWS	16

/* The chroma tile: TILE_ROWS / 2 destination chroma rows of sums. */
#define CTILE_ROWS	(TILE_ROWS / 2)

/* Bits of scratch_head.valid: which tile holds rows of this band. */
#define VALID_LUMA	1u
#define VALID_CHROMA	2u
/* The luma tile went straight into the destination rows. */
#define VALID_PLACED	4u

struct scratch_head {
	uint32_t valid;		/* zeroed when the band starts */
	uint32_t tile_first;	/* the destination row the tile starts at */
	uint32_t ctile_first;	/* the same for the chroma tile */
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

/* uint16_t per chroma tile row: n + 2 sums, rounded up to 4. */
static size_t ctile_width(const struct hqv_job *job)
{
	return (job->dst.width / 2 + 2 + 3) & ~(size_t)3;
}

/*
 * The chroma tile (quarter turns only): after the luma tile, two
 * channels of CTILE_ROWS rows of ctile_width() sums each, then the byte
 * tile fill_ctile() transposes a run of source chroma into: up to
 * 2 * CTILE_ROWS + 2 rows of n bytes.
 */
static uint16_t *ctile_of(const struct hqv_job *job, void *scratch)
{
	return (uint16_t *)(tile_of(job, scratch) +
			    ((TILE_ROWS * (size_t)job->dst.width + 3) &
			     ~(size_t)3));
}

static size_t ctile_bytes(const struct hqv_job *job)
{
	return 2 * CTILE_ROWS * ctile_width(job) * sizeof(uint16_t) +
	       (2 * CTILE_ROWS + 2) * ctile_width(job);
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

/*
 * The same for four blocks at once, x[r][l] row r of block l: each step
 * is the same on the four, so that the vectoriser does it in one 256-bit
 * register instead of four general ones.
 */
static inline __attribute__((always_inline)) void
transpose8x4(uint64_t x[8][4])
{
	uint64_t t[4];
	unsigned int i, j, l;

	for (i = 0; i < 8; i += 2)
		for (l = 0; l < 4; l++) {
			t[l] = ((x[i][l] >> 8) ^ x[i + 1][l]) &
			       0x00ff00ff00ff00ffULL;
			x[i + 1][l] ^= t[l];
			x[i][l] ^= t[l] << 8;
		}
	for (i = 0; i < 8; i += 4)
		for (j = 0; j < 2; j++)
			for (l = 0; l < 4; l++) {
				t[l] = ((x[i + j][l] >> 16) ^
					x[i + j + 2][l]) &
				       0x0000ffff0000ffffULL;
				x[i + j + 2][l] ^= t[l];
				x[i + j][l] ^= t[l] << 16;
			}
	for (j = 0; j < 4; j++)
		for (l = 0; l < 4; l++) {
			t[l] = ((x[j][l] >> 32) ^ x[j + 4][l]) &
			       0x00000000ffffffffULL;
			x[j + 4][l] ^= t[l];
			x[j][l] ^= t[l] << 32;
		}
}
#define HAVE_TRANSPOSE8	1
#else
#define HAVE_TRANSPOSE8	0
#endif

/*
 * The tiles' passes over four blocks of eight source rows (32 rows) ask
 * the cache for the runs of the rows a pass after the next: the rows of a
 * column are pages apart, which the hardware prefetchers do not follow
 * (as TURN_PREFETCH below), and each row's first read waited on memory.
 * In the 32-row pass from row at (of n), the run of bytes of each row.
 */
#define TILE_PREFETCH	64

static inline __attribute__((always_inline)) void
prefetch_runs(const uint8_t *row, ptrdiff_t step, size_t at, size_t n,
	      size_t bytes)
{
	size_t r;

	if (at + TILE_PREFETCH + 32 > n)
		return;
	for (r = TILE_PREFETCH; r < TILE_PREFETCH + 32; r++) {
		__builtin_prefetch(row + (ptrdiff_t)r * step);
		__builtin_prefetch(row + (ptrdiff_t)r * step + bytes - 1);
	}
}

/*
 * count rows of a quarter turn's tile, pitch bytes apart, from a run of
 * count bytes in each of n source rows: the run of row i is at s + i *
 * step, and tile row t, byte i is its byte t (forwards) or count - 1 - t.
 * Whole blocks of eight bytes of eight rows are transposed at once.
 */
static inline __attribute__((always_inline)) void
turn_bytes_way(const uint8_t *restrict s, ptrdiff_t step, size_t n,
	       uint8_t *restrict tile, size_t pitch, uint32_t count,
	       const bool forwards)
{
	size_t i = 0, t, col, blocks = 0;

#if HAVE_TRANSPOSE8
	blocks = count & ~7u;
	if (blocks) {
		/* Four blocks of eight source rows, one after another. */
		for (; i + 32 <= n; i += 32) {
			const uint8_t *row = s + (ptrdiff_t)i * step;
			unsigned int h, r, c, l;

			prefetch_runs(row, step, i, n, count);
			for (h = 0; h < blocks; h += 8) {
				uint64_t x[8][4];

				for (r = 0; r < 8; r++)
					for (l = 0; l < 4; l++)
						memcpy(&x[r][l], row + h +
						       (ptrdiff_t)(8 * l + r) *
						       step, 8);
				transpose8x4(x);
				for (c = 0; c < 8; c++) {
					t = forwards ? h + c :
						       count - 1 - h - c;
					for (l = 0; l < 4; l++)
						memcpy(tile + t * pitch + i +
						       8 * l, &x[c][l], 8);
				}
			}
		}
		for (; i + 8 <= n; i += 8) {
			unsigned int h, r, c;

			for (h = 0; h < blocks; h += 8) {
				uint64_t x[8];

				for (r = 0; r < 8; r++)
					memcpy(&x[r], s + (ptrdiff_t)(i + r) *
					       step + h, 8);
				transpose8(x);
				for (c = 0; c < 8; c++) {
					t = forwards ? h + c :
						       count - 1 - h - c;
					memcpy(tile + t * pitch + i, &x[c], 8);
				}
			}
		}
	}
#endif
	/* What the blocks leave: the last rows, the run's last bytes. */
	for (col = 0; col < count; col++) {
		size_t k;

		t = forwards ? col : count - 1 - col;
		for (k = col < blocks ? i : 0; k < n; k++)
			tile[t * pitch + k] = s[(ptrdiff_t)k * step +
						(ptrdiff_t)col];
	}
}

/* One function per direction across the source. */
HQV_ROW_CLONES
void hqv_turn_bytes(const uint8_t *s, ptrdiff_t step, size_t n, uint8_t *tile,
		    size_t pitch, uint32_t count, bool forwards)
{
	if (forwards)
		turn_bytes_way(s, step, n, tile, pitch, count, true);
	else
		turn_bytes_way(s, step, n, tile, pitch, count, false);
}

/*
 * Fill the tile with destination rows [first, first + count) of a quarter
 * turn: tile row t, pixel i is source column col(t), row y0 + i * di_y.
 */
static void fill_tile(const struct hqv_job *job, uint8_t *tile, size_t pitch,
		      uint32_t first, uint32_t count)
{
	const struct hqv_plan *p = &job->plan;

	hqv_turn_bytes(hqv_row(&job->src, 0, p->y0) +
		       hqv_turn_run(p, first, count),
		       (ptrdiff_t)p->di_y * job->src.bytesperline[0],
		       job->dst.width, tile, pitch, count, p->dj_x > 0);
}

/* Destination luma rows y and y + 1 of the reoriented source. */
static inline __attribute__((always_inline)) void
luma_pair(const struct hqv_job *job, struct hqv_band *band, uint32_t y)
{
	const struct hqv_plan *p = &job->plan;
	size_t n = job->dst.width, r;
	uint8_t *a = hqv_row(&job->dst, 0, y), *b = hqv_row(&job->dst, 0, y + 1);

	if (p->di_x == 0) {
		/* A quarter turn: rows y, y + 1 are source columns. */
		struct scratch_head *head = band->scratch;
		uint8_t *tile = tile_of(job, band->scratch);
		uint32_t first = y - y % TILE_ROWS;

		if (!(head->valid & VALID_LUMA) || head->tile_first != first) {
			uint32_t count = job->dst.height - first;

			if (count > TILE_ROWS)
				count = TILE_ROWS;
			head->valid &= ~VALID_PLACED;
			/*
			 * A tile whose rows all belong to the band (it starts
			 * here, ends by the band's end) goes straight to the
			 * destination; else to scratch, copied row by row.
			 */
			if (y == first && first + count <= band->end) {
				fill_tile(job, a, job->dst.bytesperline[0],
					  first, count);
				head->valid |= VALID_PLACED;
			} else {
				fill_tile(job, tile, n, first, count);
			}
			head->valid |= VALID_LUMA;
			head->tile_first = first;
		}
		if (!(head->valid & VALID_PLACED)) {
			memcpy(a, tile + (y - first) * n, n);
			memcpy(b, tile + (y + 1 - first) * n, n);
		}
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

/*
 * Chroma tile of a quarter turn: tile row r of each channel holds the sums
 * 3 c[q] + c[q2] that filter_5_10_1() takes, of destination chroma row
 * first / 2 + r. The source chroma rows are visited once per tile rather
 * than once per destination chroma row, each reading the few neighbouring
 * samples all the tile's rows need (q[r] and q2[r] are byte offsets into
 * the row, channel included) while its cache line is at hand.
 */
static inline __attribute__((always_inline)) void
ctile_gather2(const uint8_t *restrict s, ptrdiff_t step, size_t n, size_t w,
	      const uint32_t *restrict qb, const uint32_t *restrict q2b,
	      const uint32_t *restrict qr, const uint32_t *restrict q2r,
	      uint16_t *restrict tb, uint16_t *restrict tr, const size_t rows)
{
	size_t k, r;

	for (k = 0; k < n; k++) {
		const uint8_t *row = s + (ptrdiff_t)k * step;

		for (r = 0; r < rows; r++) {
			tb[r * w + k + 1] = 3 * row[qb[r]] + row[q2b[r]];
			tr[r * w + k + 1] = 3 * row[qr[r]] + row[q2r[r]];
		}
	}
}

/*
 * The same when the tile's rows read one run of source chroma columns,
 * each its own and the next (no clamping): row r reads sample lo + r
 * (forwards) or lo + CTILE_ROWS - 1 - r (backwards) and the one after.
 * First the run's raw bytes (8 * blocks + extra of every source row, both
 * channels of a semi-planar row interleaved) are transposed into the byte
 * tile bt, 8 x 8 at a time, so that bt row j holds byte j of each source
 * row; the sums then read whole bt rows (channel and sample chosen by the
 * row) in loops without gathers.
 */
static inline __attribute__((always_inline)) void
ctile_raw(const uint8_t *restrict s, ptrdiff_t step, size_t n,
	  uint8_t *restrict bt, const size_t blocks, const size_t extra)
{
	/*
	 * The extra bytes come from one more block, ending with them (it
	 * overlaps the last whole one, so it reads no byte more): of its
	 * rows, only the last extra are kept.
	 */
	const size_t bytes = 8 * blocks + extra, last = bytes - 8;
	size_t i = 0, j, k;

#if HAVE_TRANSPOSE8
	/* Four blocks of eight source rows at once. */
	for (; i + 32 <= n; i += 32) {
		const uint8_t *row = s + (ptrdiff_t)i * step;
		size_t h, r, l;

		prefetch_runs(row, step, i, n, bytes);
		for (h = 0; h <= blocks; h++) {
			size_t o = h < blocks ? 8 * h : last;
			size_t r0 = h < blocks ? 0 : 8 - extra;
			uint64_t x[8][4];

			for (r = 0; r < 8; r++)
				for (l = 0; l < 4; l++)
					memcpy(&x[r][l], row + o +
					       (ptrdiff_t)(8 * l + r) * step,
					       8);
			transpose8x4(x);
			for (r = r0; r < 8; r++)
				for (l = 0; l < 4; l++)
					memcpy(bt + (o + r) * n + i + 8 * l,
					       &x[r][l], 8);
		}
	}
	for (; i + 8 <= n; i += 8) {
		size_t h, r;

		for (h = 0; h <= blocks; h++) {
			size_t o = h < blocks ? 8 * h : last;
			size_t r0 = h < blocks ? 0 : 8 - extra;
			uint64_t x[8];

			for (r = 0; r < 8; r++)
				memcpy(&x[r], s + (ptrdiff_t)(i + r) * step +
					      (ptrdiff_t)o, 8);
			transpose8(x);
			for (r = r0; r < 8; r++)
				memcpy(bt + (o + r) * n + i, &x[r], 8);
		}
	}
#endif
	/* What the blocks leave: the last source rows. */
	for (j = 0; j < bytes; j++)
		for (k = i; k < n; k++)
			bt[j * n + k] = (s + (ptrdiff_t)k * step)[j];
}

/* The sums of one channel (byte off of a sample) from the byte tile. */
static inline __attribute__((always_inline)) void
ctile_run_sums(const uint8_t *restrict bt, size_t n, size_t w,
	       const uint32_t off, const uint32_t s_step,
	       uint16_t *restrict t, const bool forwards)
{
	size_t k, r;

	for (r = 0; r < CTILE_ROWS; r++) {
		size_t o = (forwards ? r : CTILE_ROWS - 1 - r) * s_step + off;
		const uint8_t *restrict a = bt + o * n;
		const uint8_t *restrict b = bt + (o + s_step) * n;
		uint16_t *restrict tr = t + r * w + 1;

		for (k = 0; k < n; k++)
			tr[k] = 3 * a[k] + b[k];
	}
}

/* The same for one channel (planar sources: a plane per channel). */
static inline __attribute__((always_inline)) void
ctile_gather1(const uint8_t *restrict s, ptrdiff_t step, size_t n, size_t w,
	      const uint32_t *restrict q, const uint32_t *restrict q2,
	      uint16_t *restrict t, const size_t rows)
{
	size_t k, r;

	for (k = 0; k < n; k++) {
		const uint8_t *row = s + (ptrdiff_t)k * step;

		for (r = 0; r < rows; r++)
			t[r * w + k + 1] = 3 * row[q[r]] + row[q2[r]];
	}
}

/*
 * Whether a full tile's offsets (channel 0) form one run: 1 forwards, -1
 * backwards, 0 not (clamped at the right edge, or a tile of one row).
 */
static int ctile_run(const uint32_t *q, const uint32_t *q2, uint32_t s_step)
{
	bool fw = true, bw = true;
	size_t r;

	for (r = 0; r < CTILE_ROWS; r++) {
		if (q2[r] != q[r] + s_step)
			return 0;
		fw = fw && q[r] == q[0] + r * s_step;
		bw = bw && q[r] + r * s_step == q[0];
	}
	return fw ? 1 : bw ? -1 : 0;
}

static HQV_ROW_CLONES void
fill_ctile(const struct hqv_job *job, uint16_t *restrict tile, uint32_t first,
	   size_t rows, const uint32_t s_step)
{
	const struct hqv_plan *p = &job->plan;
	uint32_t cw = job->src.width / 2, ch = job->src.height / 2;
	uint32_t row0 = p->di_y > 0 ? 0 : ch - 1;
	size_t n = job->dst.width / 2, w = ctile_width(job), r;
	uint32_t qo[2][CTILE_ROWS] = { { 0 } };
	uint32_t q2o[2][CTILE_ROWS] = { { 0 } };
	uint16_t *t[2] = { tile, tile + CTILE_ROWS * w };
	/* The raw bytes of a run, after both channels' sums. */
	uint8_t *bt = (uint8_t *)(tile + 2 * CTILE_ROWS * w);
	struct chroma_at at[2];
	unsigned int c;

	chroma_at(job->src.fmt, 0, &at[0]);
	chroma_at(job->src.fmt, 1, &at[1]);
	for (r = 0; r < rows; r++) {
		/* Source luma columns 2q and 2q + 1, as chroma_sums(). */
		uint32_t y = first + 2 * (uint32_t)r;
		uint32_t q = (p->dj_x > 0 ? p->x0 + (int32_t)y :
					    p->x0 - (int32_t)y - 1) / 2;
		uint32_t q2 = q + 1 < cw ? q + 1 : q;

		for (c = 0; c < 2; c++) {
			qo[c][r] = q * s_step + at[c].offset;
			q2o[c][r] = q2 * s_step + at[c].offset;
		}
	}
	if (at[0].plane == at[1].plane) {
		const uint8_t *s = hqv_row(&job->src, at[0].plane, row0);
		ptrdiff_t step = (ptrdiff_t)p->di_y *
				 job->src.bytesperline[at[0].plane];

		int run = rows == CTILE_ROWS ? ctile_run(qo[0], q2o[0],
							  s_step) : 0;

		if (run && s_step == 2 && at[0].offset + at[1].offset == 1) {
			/* Cb, Cr interleaved: 9 samples, 18 bytes a row. */
			unsigned int lo = at[0].offset ? 1 : 0;

			ctile_raw(s + qo[lo][run > 0 ? 0 : CTILE_ROWS - 1],
				  step, n, bt, 2, 2);
			for (c = 0; c < 2; c++)
				if (run > 0)
					ctile_run_sums(bt, n, w, at[c].offset,
						       2, t[c], true);
				else
					ctile_run_sums(bt, n, w, at[c].offset,
						       2, t[c], false);
		} else if (rows == CTILE_ROWS)
			ctile_gather2(s, step, n, w, qo[0], q2o[0], qo[1],
				      q2o[1], t[0], t[1], CTILE_ROWS);
		else
			ctile_gather2(s, step, n, w, qo[0], q2o[0], qo[1],
				      q2o[1], t[0], t[1], rows);
	} else {
		for (c = 0; c < 2; c++) {
			const uint8_t *s = hqv_row(&job->src, at[c].plane, row0);
			ptrdiff_t step = (ptrdiff_t)p->di_y *
					 job->src.bytesperline[at[c].plane];

			int run = rows == CTILE_ROWS && s_step == 1 ?
				  ctile_run(qo[c], q2o[c], 1) : 0;

			if (run) {
				/* A plane: 9 samples, 9 bytes a row. */
				ctile_raw(s + qo[c][run > 0 ? 0 :
						    CTILE_ROWS - 1],
					  step, n, bt, 1, 1);
				if (run > 0)
					ctile_run_sums(bt, n, w, 0, 1, t[c],
						       true);
				else
					ctile_run_sums(bt, n, w, 0, 1, t[c],
						       false);
			} else if (rows == CTILE_ROWS)
				ctile_gather1(s, step, n, w, qo[c], q2o[c],
					      t[c], CTILE_ROWS);
			else
				ctile_gather1(s, step, n, w, qo[c], q2o[c],
					      t[c], rows);
		}
	}
	/* The ends repeat, as the pipeline clamps. */
	for (c = 0; c < 2; c++)
		for (r = 0; r < rows; r++) {
			uint16_t *tr = t[c] + r * w;

			tr[0] = tr[1];
			tr[n + 1] = tr[n];
		}
}

/*
 * The sums of destination chroma row y / 2 of a quarter turn, both
 * channels, from the chroma tile (filled when y leaves it).
 */
static inline __attribute__((always_inline)) void
turned_sums(const struct hqv_job *job, struct hqv_band *band, uint32_t y,
	    uint16_t *t[2], const uint32_t s_step)
{
	struct scratch_head *head = band->scratch;
	uint16_t *tile = ctile_of(job, band->scratch);
	uint32_t first = y - y % TILE_ROWS;
	size_t w = ctile_width(job), r = (y - first) / 2;

	if (!(head->valid & VALID_CHROMA) || head->ctile_first != first) {
		size_t rows = (job->dst.height - first + 1) / 2;

		fill_ctile(job, tile, first,
			   rows < CTILE_ROWS ? rows : CTILE_ROWS, s_step);
		head->valid |= VALID_CHROMA;
		head->ctile_first = first;
	}
	t[0] = tile + r * w;
	t[1] = tile + (CTILE_ROWS + r) * w;
}

/*
 * The destination chroma row y / 2 of a straight image, both channels,
 * into scratch t[2] (quarter turns take turned_sums()).
 */
static inline __attribute__((always_inline)) void
chroma_sums(const struct hqv_job *job, uint32_t y, uint16_t *t[2],
	    const uint32_t s_step)
{
	const struct hqv_plan *p = &job->plan;
	const struct hqv_format *s = job->src.fmt;
	uint32_t ch = job->src.height / 2;
	size_t n = job->dst.width / 2;
	struct chroma_at at[2];
	unsigned int c;

	chroma_at(s, 0, &at[0]);
	chroma_at(s, 1, &at[1]);
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

/* A band starts with no tile. */
static void band_start(struct hqv_band *band)
{
	struct scratch_head *head = band->scratch;

	if (band->fresh) {
		head->valid = 0;
		band->fresh = false;
	}
}

HQV_ROW_CLONES
static void turn_grey_pair(const struct hqv_job *job, struct hqv_band *band,
			   uint32_t y)
{
	band_start(band);
	luma_pair(job, band, y);
}

/*
 * 4:2:0 to 4:2:0, one wrapper per pair of chroma layouts (semi-planar's
 * step 2, planar's 1), so that the loops see constant steps.
 */
#define TURN_420(name, s_step, d_step)					\
HQV_ROW_CLONES								\
static void name(const struct hqv_job *job, struct hqv_band *band,	\
		 uint32_t y)						\
{									\
	uint16_t *t[2];							\
									\
	band_start(band);						\
	luma_pair(job, band, y);					\
	if (job->plan.di_x == 0) {					\
		turned_sums(job, band, y, t, s_step);			\
	} else {							\
		sums_init(job, band->scratch, t);			\
		chroma_sums(job, y, t, s_step);				\
	}								\
	chroma_out(job, y, t, d_step);					\
}

TURN_420(turn_semi_to_semi, 2, 2)
TURN_420(turn_semi_to_planar, 2, 1)
TURN_420(turn_planar_to_semi, 1, 2)
TURN_420(turn_planar_to_planar, 1, 1)

/*
 * 24- and 32-bit R'G'B' turns, colours unchanged: a destination row is a
 * source column (quarter turns) or a source row read backwards (a half
 * turn), and each pixel's bytes go where the shuffle rows put them
 * (hqv_rgb_shuffle_init()). For quarter turns the rows of a tile take
 * neighbouring pixels of each source row, which share its cache line.
 * Flips alone take the flip rows (hqv-direct-flip.c).
 */
/* Whether each output byte is its input byte's, or filled. */
static bool in_place(const uint8_t map[4])
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (map[i] != i && map[i] != HQV_SHUFFLE_FILL)
			return false;
	return true;
}

/*
 * A quarter turn of words writes up to RGB_TILE_ROWS destination rows at
 * once, the pixels of a source row's cache line (16 of 32 bits), so that
 * each line of the column it walks down is read once, not once a pair
 * (1080 lines of 64 bytes a pair for 1920x1080, more than a core's
 * first-level cache keeps).
 */
#define RGB_TILE_ROWS	16

/*
 * Source rows ahead of the one a turn reads that it asks the cache for:
 * a column's rows are pages apart, which the hardware prefetchers do not
 * follow, so that each row's first read waited on memory (half the
 * turn's time, one core, AMD EPYC, Zen 5).
 */
#define TURN_PREFETCH	16

/*
 * count destination rows, pitch bytes apart from out, of w pixels: row r,
 * pixel x from src + x step + r next.
 */
static inline __attribute__((always_inline)) void
turn_rgb_lines(const uint8_t *restrict src, ptrdiff_t step, ptrdiff_t next,
	       uint8_t *restrict out, size_t pitch, size_t w, size_t count,
	       const struct hqv_shuffle *k, const size_t ib, const size_t ob)
{
	size_t x, r, i;
	uint8_t map[4], fill = k->fill;

	/* Copies the compiler keeps in registers past the byte stores. */
	memcpy(map, k->map, sizeof(map));

	/*
	 * 32-bit pixels whose bytes stay in place, a padding byte filled:
	 * a word each, masked (rotating XBGR32, ARGB32 and their kind).
	 */
	if (ib == 4 && ob == 4 && in_place(map)) {
		uint8_t keep_b[4], fill_b[4];
		uint32_t keep, fills, a;

		for (i = 0; i < 4; i++) {
			bool filled = map[i] == HQV_SHUFFLE_FILL;

			keep_b[i] = filled ? 0 : 0xff;
			fill_b[i] = filled ? fill : 0;
		}
		memcpy(&keep, keep_b, 4);
		memcpy(&fills, fill_b, 4);
		for (x = 0; x < w; x++, src += step) {
			if (x + TURN_PREFETCH < w)
				__builtin_prefetch(src + TURN_PREFETCH * step);
			for (r = 0; r < count; r++) {
				memcpy(&a, src + (ptrdiff_t)r * next, 4);
				a = (a & keep) | fills;
				memcpy(out + r * pitch + 4 * x, &a, 4);
			}
		}
		return;
	}
	for (x = 0; x < w; x++, src += step) {
		if (x + TURN_PREFETCH < w)
			__builtin_prefetch(src + TURN_PREFETCH * step);
		for (r = 0; r < count; r++)
			for (i = 0; i < ob; i++) {
				bool filled = map[i] == HQV_SHUFFLE_FILL;

				out[r * pitch + ob * x + i] = filled ? fill :
					src[(ptrdiff_t)r * next + map[i]];
			}
	}
}

static inline __attribute__((always_inline)) void
turn_rgb_rows(const struct hqv_job *job, struct hqv_band *band, uint32_t y,
	      const size_t ib, const size_t ob)
{
	const struct hqv_plan *p = &job->plan;
	struct hqv_shuffle *k = band->scratch;
	const uint8_t *src;
	uint8_t *out = hqv_row(&job->dst, 0, y);
	size_t pitch = job->dst.bytesperline[0], w = job->dst.width;
	ptrdiff_t step, next;
	uint32_t left = band->end - y;

	if (band->fresh) {
		hqv_rgb_shuffle_init(job, k);
		band->fresh = false;
	}
	/* Oriented pixel (0, y), and the steps to (x + 1, y), (0, y + 1). */
	src = hqv_row(&job->src, 0, (uint32_t)(p->y0 + (int32_t)y * p->dj_y)) +
	      (size_t)(p->x0 + (int32_t)y * p->dj_x) * ib;
	step = (ptrdiff_t)p->di_y * job->src.bytesperline[0] +
	       (ptrdiff_t)p->di_x * (ptrdiff_t)ib;
	next = (ptrdiff_t)p->dj_y * job->src.bytesperline[0] +
	       (ptrdiff_t)p->dj_x * (ptrdiff_t)ib;
	/*
	 * Tiles of constant heights, for the compiler: 16, 8, else a pair;
	 * of words only (a byte at a time, 24-bit pixels took twice as
	 * long in tiles as in pairs).
	 */
	if (!(ib == 4 && ob == 4 && in_place(k->map)))
		left = 2;
	if (p->di_x == 0 && left >= RGB_TILE_ROWS) {
		turn_rgb_lines(src, step, next, out, pitch, w, RGB_TILE_ROWS,
			       k, ib, ob);
		band->written = y + RGB_TILE_ROWS;
	} else if (p->di_x == 0 && left >= RGB_TILE_ROWS / 2) {
		turn_rgb_lines(src, step, next, out, pitch, w,
			       RGB_TILE_ROWS / 2, k, ib, ob);
		band->written = y + RGB_TILE_ROWS / 2;
	} else {
		turn_rgb_lines(src, step, next, out, pitch, w, 2, k, ib, ob);
	}
}

#define TURN_RGB(ib, ob)						\
HQV_ROW_CLONES								\
static void turn_rgb##ib##ob(const struct hqv_job *job,		\
			     struct hqv_band *band, uint32_t y)		\
{									\
	turn_rgb_rows(job, band, y, ib, ob);				\
}

TURN_RGB(3, 3)
TURN_RGB(3, 4)
TURN_RGB(4, 3)
TURN_RGB(4, 4)

static hqv_direct_fn *turn_rgb_find(const struct hqv_job *job, size_t *scratch)
{
	unsigned int ib = job->src.fmt->bytes_per_group[0];
	unsigned int ob = job->dst.fmt->bytes_per_group[0];

	if (!job->rotation || ib < 3 || ob < 3)
		return NULL;
	*scratch = sizeof(struct hqv_shuffle);
	if (ib == 3)
		return ob == 3 ? turn_rgb33 : turn_rgb34;
	return ob == 3 ? turn_rgb43 : turn_rgb44;
}

hqv_direct_fn *hqv_direct_turn_find(const struct hqv_job *job, size_t *scratch)
{
	const struct hqv_format *s = job->src.fmt, *d = job->dst.fmt;
	bool s_luma = s->family == HQV_FAMILY_GREY || planar_420(s);

	*scratch = 0;
	if (!hqv_job_oriented_whole(job) || !job->plan.identity)
		return NULL;
	if (s->family == HQV_FAMILY_RGB && d->family == HQV_FAMILY_RGB)
		return turn_rgb_find(job, scratch);
	if (!s_luma)
		return NULL;
	if (d->family != HQV_FAMILY_GREY && (!planar_420(s) || !planar_420(d)))
		return NULL;
	/*
	 * The chroma filters above take destination rows and columns in
	 * pairs that fall on two source chroma sites each way, which an odd
	 * width or height breaks (reading backwards, a pair straddles a
	 * site): such chroma takes the pipeline. Luma alone moves any size.
	 */
	if (d->family != HQV_FAMILY_GREY &&
	    (job->src.width % 2 || job->src.height % 2))
		return NULL;
	*scratch = sizeof(struct scratch_head) + sums_bytes(job) +
		   ((TILE_ROWS * (size_t)job->dst.width + 3) & ~(size_t)3);
	if (d->family == HQV_FAMILY_GREY)
		return turn_grey_pair;
	if (job->plan.di_x == 0)
		*scratch += ctile_bytes(job);
	if (s->family == HQV_FAMILY_SEMIPLANAR)
		return d->family == HQV_FAMILY_SEMIPLANAR ? turn_semi_to_semi :
							    turn_semi_to_planar;
	return d->family == HQV_FAMILY_SEMIPLANAR ? turn_planar_to_semi :
						    turn_planar_to_planar;
}
