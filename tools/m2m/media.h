/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The files `m2m convert` reads and writes: raw frames in libm2m's
 * layout, Y4M streams (files or pipes), and single PNG, PPM or PGM
 * pictures. Frames in memory are always libm2m's layout (memory planes
 * one after another, m2m_format_init()'s pitches), as m2m_convert() takes
 * them; each container's own layout is converted on the way in and out.
 */
#ifndef M2M_TOOL_MEDIA_H
#define M2M_TOOL_MEDIA_H

#include <stdint.h>
#include <stdio.h>

#include <m2m/m2m.h>

enum media_kind { MEDIA_RAW, MEDIA_Y4M, MEDIA_PNG, MEDIA_PNM };

/* The verb the messages name ("convert" unless the verb sets it). */
extern const char *media_verb;

struct media {
	enum media_kind kind;
	const char *path;        /* "-" for stdin or stdout */
	FILE *file;
	struct m2m_format fmt;   /* the frames' format (fourcc, size, field,
				  * range when the file says) */
	long long frames;        /* input: how many, or -1 when unknown */
	long long done;          /* frames read or written so far */
	char y4m_rate[24];       /* Y4M frame rate and aspect, carried over */
	char y4m_aspect[24];
	uint8_t *picture;        /* PNG/PNM input: the tightly packed picture */
	char *line;              /* Y4M input: the last header line read */
	size_t line_size;
};

/* The kind of file a path names: by extension; "-" is Y4M. */
enum media_kind media_kind_of(const char *path);

/* Open an input. RAW needs fmt's fourcc and size set by the caller.
 * Returns 0, or prints one line and returns an exit code. */
int media_open_input(struct media *m, const char *path);

/* Read the next frame into buf (m->fmt's frame size): 1, 0 at the end,
 * or prints one line and returns -1. */
int media_read(struct media *m, void *buf);

/* Whether an output of this kind holds frames of fourcc. */
int media_holds(enum media_kind kind, uint32_t fourcc);

/* The same as a check of the user's choice: 0 when it holds fourcc, else
 * prints one line and returns EXIT_USAGE. */
int media_check_output(enum media_kind kind, const char *path,
		       uint32_t fourcc);

/* Open an output for frames of format fmt; Y4M takes rate and aspect
 * from the input's (may be NULL). */
int media_open_output(struct media *m, const char *path,
		      const struct m2m_format *fmt, const struct media *from);

/* Write one frame: 0 or prints one line and returns -1. */
int media_write(struct media *m, const void *buf);

/*
 * Lines of a frame in libm2m's layout: every step-th from first, in each
 * plane (step 1, first 0: all of them; step 2, first 0 or 1: the top or
 * the bottom field of an interlaced frame).
 */
struct frame_lines {
	void *data;
	const struct m2m_format *fmt;
	unsigned int step, first;
};

/* Copy src's lines to dst's, as many as both have, between two layouts of
 * one format and width: a file's and a device's, whose pitches may
 * differ, or a frame and one of its fields. */
void media_copy_lines(const struct frame_lines *dst,
		      const struct frame_lines *src);

/* Close; 0 or prints one line and returns -1 (a write that failed). */
int media_close(struct media *m);

#endif
