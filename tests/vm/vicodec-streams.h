/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The material tests/vm/vicodec-decode prepares, read by the codec tests
 * (test_vicodec_codec.c, test_vicodec_chain.c): files named by
 * environment variables, and v4l2-ctl's --stream-to-hdr streams split
 * into frames. Criterion asserts; header-only, as the tests are one file
 * each.
 */
#ifndef VICODEC_STREAMS_H
#define VICODEC_STREAMS_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <m2m/m2m.h>

struct bytes {
	unsigned char *data;
	size_t size;
};

/* $var, which vicodec-decode or vm-run sets. */
static inline const char *env(const char *var)
{
	const char *v = getenv(var);

	cr_assert(v, "$%s is not set (run by tests/vm/vicodec-decode)", var);
	return v;
}

/* The file $var names, whole. */
static inline struct bytes read_file(const char *var)
{
	const char *path = env(var);
	struct bytes b = { 0 };
	FILE *f = fopen(path, "rb");

	cr_assert(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	b.size = ftell(f);
	fseek(f, 0, SEEK_SET);
	b.data = malloc(b.size ? b.size : 1);
	cr_assert(fread(b.data, 1, b.size, f) == b.size);
	fclose(f);
	return b;
}

static inline uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/*
 * The frames of a v4l2-ctl --stream-to-hdr file: each is the fourcc
 * "Vhdr" and the frame's length, both as big-endian words, then the frame.
 * Returns how many, up to max.
 */
static inline unsigned int split(const struct bytes *s,
				 const unsigned char **frames, size_t *sizes,
				 unsigned int max)
{
	size_t at = 0;
	unsigned int n = 0;

	while (at + 8 <= s->size && n < max) {
		cr_assert_eq(be32(s->data + at), M2M_FOURCC('V', 'h', 'd', 'r'),
			     "no Vhdr at byte %zu", at);
		sizes[n] = be32(s->data + at + 4);
		frames[n] = s->data + at + 8;
		at += 8 + sizes[n];
		cr_assert(at <= s->size, "frame %u runs past the file", n);
		n++;
	}
	return n;
}

#endif
