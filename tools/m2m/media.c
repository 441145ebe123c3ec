// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Raw, Y4M, PNG and PNM files for `m2m convert` (media.h).
 *
 * Y4M (YUV4MPEG2, as FFmpeg's yuv4mpegpipe writes it) and PNM hold
 * planes tightly packed; libm2m's frames may pad a line (YUV420 at an odd
 * width), so frames go through tight_copy(), which walks
 * m2m_format_planes(), as media_copy_lines() does: the library's layout
 * is never restated here.
 */
#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/videodev2.h>

#include "m2m-tool.h"
#include "media.h"

/* The verb whose files these are, for its messages. */
const char *media_verb = "convert";
#define VERB media_verb

/*
 * Y4M's colour spaces (the C tag) and libm2m's formats for them; the first
 * for a format is what is written. A 4:2:0 tag also says where chroma
 * sits, as FFmpeg reads it: 420mpeg2 co-sited with even luma columns and
 * between two rows (FFmpeg's "left"), 420jpeg and plain 420 centred
 * ("center"), 420paldv on even columns and rows ("topleft"). V4L2 and
 * libm2m have no way to say it and the engine takes every 4:2:0 frame as
 * MPEG-2 sited (docs/engine.md), so each is converted as 420mpeg2, and
 * results are written as 420mpeg2.
 */
static const struct { const char *tag; const char *format; } y4m_tags[] = {
	{ "420mpeg2", "YUV420" },
	{ "420jpeg", "YUV420" },
	{ "420paldv", "YUV420" },
	{ "420", "YUV420" },
	{ "422", "YUV422P" },
	{ "444", "YUV444M" },
	{ "mono", "GREY" },
};
#define NUM_Y4M_TAGS (sizeof(y4m_tags) / sizeof(y4m_tags[0]))

enum media_kind media_kind_of(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (strcmp(path, "-") == 0)
		return MEDIA_Y4M;
	if (!dot)
		return MEDIA_RAW;
	if (strcasecmp(dot, ".y4m") == 0)
		return MEDIA_Y4M;
	if (strcasecmp(dot, ".png") == 0)
		return MEDIA_PNG;
	if (strcasecmp(dot, ".ppm") == 0 || strcasecmp(dot, ".pgm") == 0 ||
	    strcasecmp(dot, ".pnm") == 0)
		return MEDIA_PNM;
	return MEDIA_RAW;
}

/* Where a colour plane starts in a frame of libm2m's layout: its memory
 * plane's, after the memory planes before it, then its offset there. */
static size_t plane_start(const struct m2m_format *fmt,
			  const struct m2m_plane_layout *pl)
{
	size_t start = pl->offset;

	for (uint32_t i = 0; i < pl->memory_plane; i++)
		start += fmt->plane_size[i];
	return start;
}

static size_t row_bytes(const struct m2m_plane_layout *pl)
{
	return (size_t)pl->width * pl->channels * pl->sample_bytes;
}

/* Copy a frame between libm2m's layout and tightly packed planes. */
static size_t tight_copy(uint8_t *frame, const struct m2m_format *fmt,
			 uint8_t *tight, int to_frame)
{
	struct m2m_plane_layout pl[M2M_MAX_PLANES];
	int n = m2m_format_planes(pl, fmt);
	size_t pos = 0;

	for (int p = 0; p < n; p++) {
		size_t row = row_bytes(&pl[p]);
		uint8_t *line = frame + plane_start(fmt, &pl[p]);

		for (uint32_t y = 0; y < pl[p].height; y++) {
			if (to_frame)
				memcpy(line, tight + pos, row);
			else
				memcpy(tight + pos, line, row);
			line += pl[p].bytesperline;
			pos += row;
		}
	}
	return pos;
}

static size_t tight_size(const struct m2m_format *fmt)
{
	struct m2m_plane_layout pl[M2M_MAX_PLANES];
	int n = m2m_format_planes(pl, fmt);
	size_t size = 0;

	for (int p = 0; p < n; p++)
		size += row_bytes(&pl[p]) * pl[p].height;
	return size;
}

void media_copy_lines(const struct frame_lines *dst,
		      const struct frame_lines *src)
{
	struct m2m_plane_layout dpl[M2M_MAX_PLANES], spl[M2M_MAX_PLANES];
	int n = m2m_format_planes(dpl, dst->fmt);

	m2m_format_planes(spl, src->fmt);
	for (int p = 0; p < n; p++) {
		uint32_t lines = dpl[p].height / dst->step;
		size_t dpitch = (size_t)dpl[p].bytesperline * dst->step;
		size_t spitch = (size_t)spl[p].bytesperline * src->step;
		uint8_t *d = (uint8_t *)dst->data + plane_start(dst->fmt, &dpl[p]) +
			     (size_t)dpl[p].bytesperline * dst->first;
		const uint8_t *s = (const uint8_t *)src->data +
				   plane_start(src->fmt, &spl[p]) +
				   (size_t)spl[p].bytesperline * src->first;

		if (spl[p].height / src->step < lines)
			lines = spl[p].height / src->step;
		for (uint32_t y = 0; y < lines; y++, d += dpitch, s += spitch)
			memcpy(d, s, row_bytes(&dpl[p]));
	}
}

static FILE *open_file(const char *path, int output)
{
	if (strcmp(path, "-") == 0)
		return output ? stdout : stdin;
	return fopen(path, output ? "wb" : "rb");
}

/* How many frames of frame_size a regular file holds after header. */
static long long count_frames(FILE *f, long header, size_t frame_size)
{
	struct stat st;

	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode) || !frame_size)
		return -1;
	return (st.st_size - header) / (long long)frame_size;
}

/*
 * The next line of a Y4M stream into m->line, whatever its length (the
 * format sets none): 1, or 0 at the end of the input.
 */
static int y4m_line(struct media *m)
{
	return getline(&m->line, &m->line_size, m->file) > 0;
}

static int y4m_dimension(struct media *m, const char *tag, uint32_t *v)
{
	const char *end = parse_number(tag + 1, v);

	if (!end || *end || !*v)
		return failure(VERB, "%s: Y4M header's %s is not a size from 1 "
			       "to 4294967295", m->path, tag);
	return 0;
}

/* The header's parameters: the line after "YUV4MPEG2 ". */
static int y4m_parse_header(struct media *m, char *line)
{
	uint32_t w = 0, h = 0;
	const char *format = "YUV420";
	uint32_t field = V4L2_FIELD_NONE, range = 0;

	for (char *t = strtok(line, " \n"); t; t = strtok(NULL, " \n")) {
		switch (t[0]) {
		case 'W':
			if (y4m_dimension(m, t, &w))
				return EXIT_FAILED;
			break;
		case 'H':
			if (y4m_dimension(m, t, &h))
				return EXIT_FAILED;
			break;
		case 'F': snprintf(m->y4m_rate, sizeof(m->y4m_rate), "%s", t);
			break;
		case 'A': snprintf(m->y4m_aspect, sizeof(m->y4m_aspect), "%s",
				   t);
			break;
		case 'I':
			field = t[1] == 't' ? V4L2_FIELD_INTERLACED_TB :
				t[1] == 'b' ? V4L2_FIELD_INTERLACED_BT :
				V4L2_FIELD_NONE;
			if (t[1] == 'm')
				return failure(VERB, "%s: Y4M with mixed field "
					       "orders (Im) is not supported",
					       m->path);
			break;
		case 'C': {
			size_t i;

			for (i = 0; i < NUM_Y4M_TAGS; i++)
				if (strcmp(t + 1, y4m_tags[i].tag) == 0)
					break;
			if (i == NUM_Y4M_TAGS)
				return failure(VERB, "%s: Y4M colour space %s is "
					       "not supported (C420jpeg, "
					       "C420mpeg2, C420paldv, C422, "
					       "C444, Cmono)", m->path, t);
			format = y4m_tags[i].format;
			break;
		}
		case 'X':
			if (strcmp(t, "XCOLORRANGE=FULL") == 0)
				range = V4L2_QUANTIZATION_FULL_RANGE;
			else if (strcmp(t, "XCOLORRANGE=LIMITED") == 0)
				range = V4L2_QUANTIZATION_LIM_RANGE;
			break;
		}
	}
	if (m2m_format_init(&m->fmt, m2m_fourcc_from_name(format), w, h) < 0)
		return failure(VERB, "%s: Y4M size %ux%u: %s", m->path, w, h,
			       m2m_last_error());
	m->fmt.field = field;
	m->fmt.quantization = range;
	return 0;
}

static int pnm_parse_header(struct media *m)
{
	char magic[3] = "";
	unsigned int w, h, maxval;

	if (fscanf(m->file, "%2s", magic) != 1 ||
	    (strcmp(magic, "P5") && strcmp(magic, "P6")))
		return failure(VERB, "%s: not a binary PPM (P6) or PGM (P5)",
			       m->path);
	/* Numbers, with comments between them, then one whitespace. */
	for (unsigned int *v[] = { &w, &h, &maxval }, i = 0; i < 3; i++) {
		int c;

		while ((c = fgetc(m->file)) == '#' || c == ' ' || c == '\t' ||
		       c == '\n' || c == '\r')
			if (c == '#')
				while ((c = fgetc(m->file)) != '\n' && c != EOF)
					;
		ungetc(c, m->file);
		if (fscanf(m->file, "%u", v[i]) != 1)
			return failure(VERB, "%s: malformed PNM header",
				       m->path);
	}
	fgetc(m->file);
	if (maxval != 255)
		return failure(VERB, "%s: PNM with maxval %u; only 8-bit (255) "
			       "is supported", m->path, maxval);
	if (m2m_format_init(&m->fmt, m2m_fourcc_from_name(
			    magic[1] == '6' ? "RGB24" : "GREY"), w, h) < 0)
		return failure(VERB, "%s: %s", m->path, m2m_last_error());
	m->picture = malloc(tight_size(&m->fmt));
	if (!m->picture ||
	    fread(m->picture, tight_size(&m->fmt), 1, m->file) != 1)
		return failure(VERB, "%s: short PNM picture", m->path);
	m->frames = 1;
	return 0;
}

static int png_read(struct media *m)
{
	png_image image = { .version = PNG_IMAGE_VERSION };
	const char *name;

	if (!png_image_begin_read_from_stdio(&image, m->file))
		return failure(VERB, "%s: %s", m->path, image.message);
	/*
	 * 16-bit samples are sRGB-encoded, as Pillow, ImageMagick and FFmpeg
	 * read them; libpng's simplified API would take them as linear light
	 * (32768 as 186) unless the file says otherwise.
	 */
	image.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
	/*
	 * Any alpha is kept, so grey with alpha is read as RGBA: libpng would
	 * composite it onto black to give grey alone.
	 */
	if (image.format & PNG_FORMAT_FLAG_ALPHA) {
		name = "RGBA32";
		image.format = PNG_FORMAT_RGBA;
	} else if (image.format & PNG_FORMAT_FLAG_COLOR) {
		name = "RGB24";
		image.format = PNG_FORMAT_RGB;
	} else {
		name = "GREY";
		image.format = PNG_FORMAT_GRAY;
	}
	if (m2m_format_init(&m->fmt, m2m_fourcc_from_name(name), image.width,
			    image.height) < 0) {
		failure(VERB, "%s: %s", m->path, m2m_last_error());
		goto fail;
	}
	m->picture = malloc(PNG_IMAGE_SIZE(image));
	if (!m->picture) {
		failure(VERB, "%s: out of memory for a %ux%u picture", m->path,
			image.width, image.height);
		goto fail;
	}
	if (!png_image_finish_read(&image, NULL, m->picture, 0, NULL)) {
		failure(VERB, "%s: %s", m->path, image.message);
		goto fail;
	}
	m->frames = 1;
	return 0;
fail:
	/* libpng frees its own on an error it reports; this is for ours. */
	png_image_free(&image);
	free(m->picture);
	m->picture = NULL;
	return EXIT_FAILED;
}

int media_open_input(struct media *m, const char *path)
{
	char magic[10];
	size_t got;

	m->path = path;
	m->frames = -1;
	m->file = open_file(path, 0);
	if (!m->file)
		return failure(VERB, "%s: %s", path, strerror(errno));
	switch (m->kind) {
	case MEDIA_RAW:
		m->frames = count_frames(m->file, 0,
					 m2m_format_frame_size(&m->fmt));
		return 0;
	case MEDIA_Y4M:
		/* The magic first: a line of anything else may be long. */
		got = fread(magic, 1, sizeof(magic), m->file);
		if (!got)
			return failure(VERB, "%s: empty input", path);
		if (got < sizeof(magic) ||
		    memcmp(magic, "YUV4MPEG2 ", sizeof(magic)) || !y4m_line(m))
			return failure(VERB, "%s: not a Y4M stream (no YUV4MPEG2 "
				       "header)", path);
		if (y4m_parse_header(m, m->line))
			return EXIT_FAILED;
		m->frames = count_frames(m->file, ftell(m->file),
					 tight_size(&m->fmt) + 6);
		return 0;
	case MEDIA_PNG:
		return png_read(m) ? EXIT_FAILED : 0;
	case MEDIA_PNM:
		return pnm_parse_header(m) ? EXIT_FAILED : 0;
	}
	return EXIT_FAILED;
}

int media_read(struct media *m, void *buf)
{
	size_t size;

	switch (m->kind) {
	case MEDIA_RAW:
		size = m2m_format_frame_size(&m->fmt);
		if (fread(buf, 1, size, m->file) != size)
			return 0; /* a partial frame at the end is dropped */
		break;
	case MEDIA_Y4M: {
		uint8_t *tight;

		if (!y4m_line(m))
			return 0;
		if (strncmp(m->line, "FRAME", 5) != 0) {
			failure(VERB, "%s: frame %lld: no FRAME header", m->path,
				m->done + 1);
			return -1;
		}
		size = tight_size(&m->fmt);
		tight = malloc(size);
		if (!tight || fread(tight, size, 1, m->file) != 1) {
			free(tight);
			failure(VERB, "%s: frame %lld is short", m->path,
				m->done + 1);
			return -1;
		}
		tight_copy(buf, &m->fmt, tight, 1);
		free(tight);
		break;
	}
	case MEDIA_PNG:
	case MEDIA_PNM:
		if (m->done)
			return 0;
		tight_copy(buf, &m->fmt, m->picture, 1);
		break;
	}
	m->done++;
	return 1;
}

static const char *y4m_tag_of(uint32_t fourcc)
{
	for (size_t i = 0; i < NUM_Y4M_TAGS; i++)
		if (m2m_fourcc_from_name(y4m_tags[i].format) == fourcc)
			return y4m_tags[i].tag;
	return NULL;
}

/* What an output of this kind holds, when fourcc is not among it; NULL
 * when it holds fourcc. */
static const char *holds_only(enum media_kind kind, uint32_t fourcc)
{
	const char *name = m2m_fourcc_to_name(fourcc);

	switch (kind) {
	case MEDIA_Y4M:
		return y4m_tag_of(fourcc) ? NULL :
		       "Y4M holds YUV420, YUV422P, YUV444M or GREY";
	case MEDIA_PNG:
		return !strcmp(name, "RGB24") || !strcmp(name, "RGBA32") ||
		       !strcmp(name, "GREY") ? NULL :
		       "PNG holds RGB24, RGBA32 or GREY";
	case MEDIA_PNM:
		return !strcmp(name, "RGB24") || !strcmp(name, "GREY") ? NULL :
		       "PPM holds RGB24 and PGM GREY";
	case MEDIA_RAW:
		break;
	}
	return NULL;
}

int media_holds(enum media_kind kind, uint32_t fourcc)
{
	return !holds_only(kind, fourcc);
}

int media_check_output(enum media_kind kind, const char *path,
		       uint32_t fourcc)
{
	const char *only = holds_only(kind, fourcc);

	if (only)
		return usage_error(VERB, "%s: %s, not %s", path, only,
				   m2m_fourcc_to_name(fourcc));
	return 0;
}

int media_open_output(struct media *m, const char *path,
		      const struct m2m_format *fmt, const struct media *from)
{
	m->path = path;
	m->fmt = *fmt;
	m->file = open_file(path, 1);
	if (!m->file)
		return failure(VERB, "%s: %s", path, strerror(errno));
	if (m->kind != MEDIA_Y4M)
		return 0;
	fprintf(m->file, "YUV4MPEG2 W%u H%u %s I%c %s C%s%s\n", fmt->width,
		fmt->height,
		from && from->y4m_rate[0] ? from->y4m_rate : "F25:1",
		fmt->field == V4L2_FIELD_INTERLACED_TB ? 't' :
		fmt->field == V4L2_FIELD_INTERLACED_BT ? 'b' : 'p',
		from && from->y4m_aspect[0] ? from->y4m_aspect : "A1:1",
		y4m_tag_of(fmt->fourcc),
		fmt->quantization == V4L2_QUANTIZATION_FULL_RANGE ?
		" XCOLORRANGE=FULL" : fmt->quantization ==
		V4L2_QUANTIZATION_LIM_RANGE ? " XCOLORRANGE=LIMITED" : "");
	return 0;
}

int media_write(struct media *m, const void *buf)
{
	size_t size = tight_size(&m->fmt);
	uint8_t *tight;
	int ok = 1;

	if (m->kind == MEDIA_RAW) {
		size = m2m_format_frame_size(&m->fmt);
		ok = fwrite(buf, size, 1, m->file) == 1;
		goto out;
	}
	if ((m->kind == MEDIA_PNG || m->kind == MEDIA_PNM) && m->done) {
		failure(VERB, "%s holds one picture and the input has more "
			"frames (write Y4M or raw)", m->path);
		return -1;
	}
	tight = malloc(size);
	if (!tight) {
		failure(VERB, "%s: out of memory", m->path);
		return -1;
	}
	tight_copy((uint8_t *)buf, &m->fmt, tight, 0);
	if (m->kind == MEDIA_Y4M) {
		ok = fputs("FRAME\n", m->file) >= 0 &&
		     fwrite(tight, size, 1, m->file) == 1;
	} else if (m->kind == MEDIA_PNM) {
		int grey = m->fmt.fourcc == m2m_fourcc_from_name("GREY");

		ok = fprintf(m->file, "P%c\n%u %u\n255\n", grey ? '5' : '6',
			     m->fmt.width, m->fmt.height) > 0 &&
		     fwrite(tight, size, 1, m->file) == 1;
	} else {
		png_image image = { .version = PNG_IMAGE_VERSION,
				    .width = m->fmt.width,
				    .height = m->fmt.height };
		const char *name = m2m_fourcc_to_name(m->fmt.fourcc);

		image.format = !strcmp(name, "GREY") ? PNG_FORMAT_GRAY :
			       !strcmp(name, "RGBA32") ? PNG_FORMAT_RGBA :
			       PNG_FORMAT_RGB;
		ok = png_image_write_to_stdio(&image, m->file, 0, tight, 0,
					      NULL);
		if (!ok) {
			free(tight);
			failure(VERB, "%s: %s", m->path, image.message);
			return -1;
		}
	}
	free(tight);
out:
	if (!ok) {
		failure(VERB, "%s: writing: %s", m->path, strerror(errno));
		return -1;
	}
	m->done++;
	return 0;
}

int media_close(struct media *m)
{
	int err = 0;

	free(m->picture);
	m->picture = NULL;
	free(m->line);
	m->line = NULL;
	if (!m->file)
		return 0;
	if (m->file == stdout)
		err = fflush(stdout);
	else if (m->file != stdin)
		err = fclose(m->file);
	m->file = NULL;
	if (err) {
		failure(VERB, "%s: %s", m->path, strerror(errno));
		return -1;
	}
	return 0;
}
