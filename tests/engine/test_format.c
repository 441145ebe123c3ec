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
