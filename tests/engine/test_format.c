// SPDX-License-Identifier: LGPL-2.1-or-later
/* The format table and the plane arithmetic derived from it. */
#include <criterion/criterion.h>

#include "frames.h"

Test(format, table_lists_exactly_the_documented_formats)
{
	unsigned int i, count = 0;

	for (i = 0; i < NUM_FORMATS; i++)
		cr_assert_not_null(format_by_name(format_names[i]));
	while (hqv_format_at(count))
		count++;
	cr_assert_eq(count, NUM_FORMATS, "the table has %u formats, "
		     "docs/engine.md lists %u", count, NUM_FORMATS);
}

Test(format, find_returns_the_format_of_a_fourcc_and_null_for_others)
{
	const struct hqv_format *nv12 = format_by_name("NV12");

	cr_assert_eq(hqv_format_find(HQV_FOURCC('N', 'V', '1', '2')), nv12);
	cr_assert_null(hqv_format_find(HQV_FOURCC('N', 'V', '4', '2')));
}

Test(format, layout_keeps_a_valid_pitch_and_raises_a_short_one)
{
	const struct hqv_format *yuyv = format_by_name("YUYV");
	uint32_t bpl[HQV_MAX_PLANES] = { 0 }, size[HQV_MAX_PLANES];

	cr_assert_eq(hqv_format_layout(yuyv, 640, 480, bpl, size),
		     640 * 480 * 2);
	cr_assert_eq(bpl[0], 1280);

	bpl[0] = 1408;
	cr_assert_eq(hqv_format_layout(yuyv, 640, 480, bpl, size), 1408 * 480);
	cr_assert_eq(bpl[0], 1408);

	bpl[0] = 100;
	hqv_format_layout(yuyv, 640, 480, bpl, size);
	cr_assert_eq(bpl[0], 1280);
}

/* V4L2: NV12's chroma line is as long as its luma line, YUV420's half,
 * NV24's twice; the planes follow each other in one buffer. */
Test(format, layout_derives_chroma_pitches_from_the_luma_pitch)
{
	static const struct {
		const char *name;
		uint32_t chroma_pitch, total;
	} cases[] = {
		{ "NV12", 100, 100 * 48 + 100 * 24 },
		{ "YUV420", 50, 100 * 48 + 2 * 50 * 24 },
		{ "NV24", 200, 100 * 48 + 200 * 48 },
		{ "YUV422P", 50, 100 * 48 + 2 * 50 * 48 },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct hqv_format *f = format_by_name(cases[i].name);
		uint32_t bpl[HQV_MAX_PLANES] = { 100 }, size[HQV_MAX_PLANES];
		uint32_t total = hqv_format_layout(f, 64, 48, bpl, size);

		cr_assert_eq(bpl[1], cases[i].chroma_pitch, "%s", f->name);
		cr_assert_eq(total, cases[i].total, "%s", cases[i].name);
	}
}

Test(format, clamp_size_bounds_and_keeps_odd_sizes)
{
	uint32_t w = 0, h = 100000;

	hqv_format_clamp_size(&w, &h);
	cr_assert_eq(w, 1);
	cr_assert_eq(h, HQV_MAX_HEIGHT);
	w = 641;
	h = 479;
	hqv_format_clamp_size(&w, &h);
	cr_assert_eq(w, 641);
	cr_assert_eq(h, 479);
}

/*
 * Odd sizes: chroma rounds up, as libyuv and FFmpeg do (a 4:2:0 plane of
 * 451x427 is 226x214 samples); a packed 4:2:2 line holds 226 whole
 * macropixels; in one buffer, the luma pitch rounds up so that the chroma
 * pitch V4L2 derives from it (YUV420: half) holds a chroma line; one
 * buffer per plane keeps each plane's own minimum.
 */
Test(format, layout_of_odd_sizes_rounds_chroma_up)
{
	static const struct {
		const char *name;
		uint32_t pitch[3];
		uint32_t total;
	} cases[] = {
		{ "YUYV", { 904 }, 904 * 427 },
		{ "UYVY", { 904 }, 904 * 427 },
		{ "YUV420", { 452, 226, 226 }, 452 * 427 + 2 * 226 * 214 },
		{ "YVU420", { 452, 226, 226 }, 452 * 427 + 2 * 226 * 214 },
		{ "NV12", { 452, 452 }, 452 * 427 + 452 * 214 },
		{ "NV61", { 452, 452 }, 452 * 427 + 452 * 427 },
		{ "YUV422P", { 452, 226, 226 }, 452 * 427 + 2 * 226 * 427 },
		{ "NV24", { 451, 902 }, 451 * 427 + 902 * 427 },
		{ "YUV420M", { 451, 226, 226 }, 451 * 427 + 2 * 226 * 214 },
		{ "NV21M", { 451, 452 }, 451 * 427 + 452 * 214 },
		{ "YUV444M", { 451, 451, 451 }, 3 * 451 * 427 },
		{ "GREY", { 451 }, 451 * 427 },
		{ "RGB24", { 1353 }, 1353 * 427 },
		{ "RGB565", { 902 }, 902 * 427 },
		{ "XRGB32", { 1804 }, 1804 * 427 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct hqv_format *f = format_by_name(cases[i].name);
		uint32_t bpl[HQV_MAX_PLANES] = { 0 }, size[HQV_MAX_PLANES];
		uint32_t total = hqv_format_layout(f, 451, 427, bpl, size);

		for (unsigned int p = 0; p < f->num_planes; p++)
			cr_assert_eq(bpl[p], cases[i].pitch[p], "%s plane %u: "
				     "pitch %u, expected %u", f->name, p,
				     bpl[p], cases[i].pitch[p]);
		cr_assert_eq(total, cases[i].total, "%s: %u bytes, expected "
			     "%u", f->name, total, cases[i].total);
	}
}

/* A pitch asked for in one buffer rounds up to keep chroma lines whole. */
Test(format, layout_rounds_an_odd_one_buffer_pitch_up)
{
	const struct hqv_format *f = format_by_name("YUV420");
	uint32_t bpl[HQV_MAX_PLANES] = { 461 }, size[HQV_MAX_PLANES];

	hqv_format_layout(f, 451, 427, bpl, size);
	cr_assert_eq(bpl[0], 462);
	cr_assert_eq(bpl[1], 231);
}

/* The smallest image: one sample of each plane. */
Test(format, one_pixel_has_one_sample_per_plane)
{
	for (unsigned int i = 0; i < NUM_FORMATS; i++) {
		const struct hqv_format *f = format_by_name(format_names[i]);

		for (unsigned int p = 0; p < f->num_planes; p++) {
			cr_assert_eq(hqv_plane_groups(f, p, 1),
				     f->family == HQV_FAMILY_PACKED_YUV ? 2 : 1,
				     "%s plane %u", f->name, p);
			cr_assert_eq(hqv_plane_lines(f, p, 1), 1, "%s plane %u",
				     f->name, p);
		}
	}
}
