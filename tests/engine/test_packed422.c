// SPDX-License-Identifier: LGPL-2.1-or-later
/* The engine's packed 4:2:2 conversions and flips, natively. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "hqv.h"

#define W 16
#define H 6

static const struct hqv_format *fmt(const char *name)
{
	return hqv_format_find(HQV_FOURCC(name[0], name[1], name[2], name[3]));
}

static void image_init(struct hqv_image *img, const char *name, uint8_t *mem)
{
	uint32_t size[HQV_MAX_PLANES];

	memset(img, 0, sizeof(*img));
	img->fmt = fmt(name);
	cr_assert_not_null(img->fmt, "%s is in the table", name);
	img->width = W;
	img->height = H;
	hqv_format_layout(img->fmt, W, H, img->bytesperline, size);
	img->planes[0] = mem;
}

static void fill_random(uint8_t *p, size_t n, unsigned int seed)
{
	srand(seed);
	for (size_t i = 0; i < n; i++)
		p[i] = rand() & 0xff;
}

static void run(struct hqv_job *job)
{
	cr_assert_eq(hqv_job_check(job), 0);
	/* In two bands, as the module cuts frames, to cover band edges. */
	hqv_job_run(job, 0, H / 2);
	hqv_job_run(job, H / 2, H);
}

Test(packed422, yuyv_to_uyvy_swaps_luma_and_chroma_bytes)
{
	uint8_t src[W * H * 2], dst[W * H * 2];
	struct hqv_job job = { 0 };

	fill_random(src, sizeof(src), 1);
	image_init(&job.src, "YUYV", src);
	image_init(&job.dst, "UYVY", dst);
	run(&job);
	for (size_t i = 0; i < sizeof(src); i += 4) {
		cr_assert_eq(dst[i + 0], src[i + 1], "U at byte %zu", i);
		cr_assert_eq(dst[i + 1], src[i + 0], "Y0 at byte %zu", i);
		cr_assert_eq(dst[i + 2], src[i + 3], "V at byte %zu", i);
		cr_assert_eq(dst[i + 3], src[i + 2], "Y1 at byte %zu", i);
	}
}

Test(packed422, yuyv_to_yuyv_is_a_copy)
{
	uint8_t src[W * H * 2], dst[W * H * 2];
	struct hqv_job job = { 0 };

	fill_random(src, sizeof(src), 2);
	image_init(&job.src, "YUYV", src);
	image_init(&job.dst, "YUYV", dst);
	run(&job);
	cr_assert_arr_eq(dst, src, sizeof(src));
}

Test(packed422, every_ordering_round_trips_through_yuyv)
{
	static const char *const names[] = { "UYVY", "YVYU", "VYUY" };
	uint8_t src[W * H * 2], mid[W * H * 2], back[W * H * 2];

	fill_random(src, sizeof(src), 3);
	for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
		struct hqv_job to = { 0 }, from = { 0 };

		image_init(&to.src, "YUYV", src);
		image_init(&to.dst, names[n], mid);
		run(&to);
		image_init(&from.src, names[n], mid);
		image_init(&from.dst, "YUYV", back);
		run(&from);
		cr_assert_arr_eq(back, src, sizeof(src), "via %s", names[n]);
	}
}

Test(packed422, hflip_mirrors_pixels_and_keeps_chroma_pairs)
{
	uint8_t src[W * H * 2], dst[W * H * 2];
	struct hqv_job job = { .hflip = true };

	fill_random(src, sizeof(src), 4);
	image_init(&job.src, "YUYV", src);
	image_init(&job.dst, "YUYV", dst);
	run(&job);
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			const uint8_t *s = src + y * W * 2, *d = dst + y * W * 2;
			int mx = W - 1 - x;

			cr_assert_eq(d[2 * x], s[2 * mx], "Y at %d,%d", x, y);
			/* Chroma of the pair holding x comes from mx's pair. */
			cr_assert_eq(d[4 * (x / 2) + 1], s[4 * (mx / 2) + 1]);
			cr_assert_eq(d[4 * (x / 2) + 3], s[4 * (mx / 2) + 3]);
		}
	}
}

Test(packed422, two_flips_each_way_give_the_input_back)
{
	uint8_t src[W * H * 2], once[W * H * 2], twice[W * H * 2];
	struct hqv_job a = { .hflip = true, .vflip = true };
	struct hqv_job b = { .hflip = true, .vflip = true };

	fill_random(src, sizeof(src), 5);
	image_init(&a.src, "UYVY", src);
	image_init(&a.dst, "VYUY", once);
	run(&a);
	cr_assert(memcmp(once, src, sizeof(src)) != 0);
	image_init(&b.src, "VYUY", once);
	image_init(&b.dst, "UYVY", twice);
	run(&b);
	cr_assert_arr_eq(twice, src, sizeof(src));
}

Test(packed422, vflip_reverses_rows_with_padded_stride)
{
	enum { PITCH = W * 2 + 6 };
	uint8_t src[PITCH * H], dst[PITCH * H];
	struct hqv_job job = { .vflip = true };

	fill_random(src, sizeof(src), 6);
	memset(dst, 0xee, sizeof(dst));
	image_init(&job.src, "YUYV", src);
	image_init(&job.dst, "YUYV", dst);
	job.src.bytesperline[0] = PITCH;
	job.dst.bytesperline[0] = PITCH;
	run(&job);
	for (int y = 0; y < H; y++) {
		cr_assert_arr_eq(dst + y * PITCH, src + (H - 1 - y) * PITCH,
				 W * 2, "row %d", y);
		/* The padding after each row is not written. */
		cr_assert_eq(dst[y * PITCH + W * 2], 0xee);
	}
}

Test(job_check, rejects_what_the_engine_cannot_do)
{
	uint8_t src[W * H * 2], dst[W * H * 2];
	struct hqv_job job = { 0 };

	image_init(&job.src, "YUYV", src);
	image_init(&job.dst, "UYVY", dst);
	cr_assert_eq(hqv_job_check(&job), 0);

	job.dst.width = W - 2;
	cr_assert_eq(hqv_job_check(&job), -EINVAL, "size mismatch");
	job.dst.width = W;

	job.src.width = W + 1;
	cr_assert_eq(hqv_job_check(&job), -EINVAL, "odd width");
	job.src.width = W;

	job.dst.bytesperline[0] = W * 2 - 1;
	cr_assert_eq(hqv_job_check(&job), -EINVAL, "pitch below minimum");
	job.dst.bytesperline[0] = W * 2;

	job.src.planes[0] = NULL;
	cr_assert_eq(hqv_job_check(&job), -EINVAL, "missing plane");
	job.src.planes[0] = src;

	job.src.fmt = NULL;
	cr_assert_eq(hqv_job_check(&job), -EINVAL, "missing format");
}

Test(format, layout_keeps_a_valid_pitch_and_raises_a_short_one)
{
	const struct hqv_format *yuyv = fmt("YUYV");
	uint32_t bpl[HQV_MAX_PLANES] = { 0 }, size[HQV_MAX_PLANES];

	cr_assert_eq(hqv_format_layout(yuyv, 640, 480, bpl, size), 640 * 480 * 2);
	cr_assert_eq(bpl[0], 1280);

	bpl[0] = 1408;
	cr_assert_eq(hqv_format_layout(yuyv, 640, 480, bpl, size), 1408 * 480);
	cr_assert_eq(bpl[0], 1408);

	bpl[0] = 100;
	hqv_format_layout(yuyv, 640, 480, bpl, size);
	cr_assert_eq(bpl[0], 1280);
}

Test(format, clamp_size_bounds_and_evens)
{
	uint32_t w = 0, h = 100000;

	hqv_format_clamp_size(&w, &h);
	cr_assert_eq(w, HQV_MIN_WIDTH);
	cr_assert_eq(h, HQV_MAX_HEIGHT);
	w = 641;
	h = 479;
	hqv_format_clamp_size(&w, &h);
	cr_assert_eq(w, 640);
	cr_assert_eq(h, 478);
}
