// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Rectangles as users give them, on the in-process device: formats of
 * any size the table has, then a crop or compose rectangle of any value.
 * What m2m_set_rect() sets lies within its bounds, and the conversion the
 * device then makes succeeds: the engine gets only jobs it can run.
 */
#include <stdint.h>

#include "fuzz-libm2m.h"

static struct m2m_device *dev;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	CHECK(m2m_open(&dev, M2M_INPROCESS) == 0);
	return 0;
}

/* The input, read in order; zeros once it runs out. */
struct input {
	const uint8_t *data;
	size_t size;
};

static uint32_t take(struct input *in, unsigned int bytes)
{
	uint32_t v = 0;

	while (bytes--) {
		v = v << 8 | (in->size ? *in->data : 0);
		if (in->size) {
			in->data++;
			in->size--;
		}
	}
	return v;
}

static unsigned int table_size(void)
{
	unsigned int n = 0;

	while (m2m_fourcc_at(n))
		n++;
	return n;
}

/* A small format of the table, as the device corrects it. */
static void set_format(struct input *in, enum m2m_queue queue)
{
	struct m2m_format f = { 0 };

	f.fourcc = m2m_fourcc_at(take(in, 1) % table_size());
	f.width = take(in, 1) % 96 + 1;
	f.height = take(in, 1) % 96 + 1;
	f.field = 1;	/* progressive */
	CHECK_RESULT(m2m_set_format(dev, &f, queue));
}

static void check_within(enum m2m_rect_target target,
			 const struct m2m_rect *r)
{
	struct m2m_rect bounds;

	CHECK(m2m_get_rect(dev, &bounds, target == M2M_RECT_CROP ?
			   M2M_RECT_CROP_BOUNDS : M2M_RECT_COMPOSE_BOUNDS) ==
	      0);
	CHECK(r->left >= bounds.left && r->top >= bounds.top);
	CHECK(r->width > 0 && r->height > 0);
	CHECK((int64_t)r->left + r->width <=
	      (int64_t)bounds.left + bounds.width);
	CHECK((int64_t)r->top + r->height <=
	      (int64_t)bounds.top + bounds.height);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct m2m_format src, dst;
	enum m2m_rect_target target;
	struct m2m_rect r;
	uint8_t *a, *b;
	int ret;

	set_format(&in, M2M_QUEUE_OUTPUT);
	set_format(&in, M2M_QUEUE_CAPTURE);
	target = (enum m2m_rect_target)(int8_t)take(&in, 1) % 6;
	r.left = (int32_t)take(&in, 4);
	r.top = (int32_t)take(&in, 4);
	r.width = take(&in, 4);
	r.height = take(&in, 4);
	ret = m2m_set_rect(dev, &r, target);
	CHECK_RESULT(ret);
	if (ret < 0 || (target != M2M_RECT_CROP && target != M2M_RECT_COMPOSE))
		return 0;
	check_within(target, &r);

	CHECK(m2m_get_format(dev, &src, M2M_QUEUE_OUTPUT) == 0);
	CHECK(m2m_get_format(dev, &dst, M2M_QUEUE_CAPTURE) == 0);
	a = calloc(1, m2m_format_frame_size(&src));
	b = malloc(m2m_format_frame_size(&dst));
	CHECK(a && b);
	ret = m2m_convert(dev, b, m2m_format_frame_size(&dst), a,
			  m2m_format_frame_size(&src));
	CHECK(ret == (int)m2m_format_frame_size(&dst));
	free(a);
	free(b);
	return 0;
}
