/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the engine tests share: images in exactly-sized heap buffers (so a
 * sanitizer catches a read or write past a plane), test pictures, running a
 * job in bands, and comparing the engine's frame with the reference model's.
 */
#ifndef FRAMES_H
#define FRAMES_H

#include <stdarg.h>

#include "hqv.h"
#include "reference.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Every format docs/engine.md lists, by the table's names. */
#define NUM_FORMATS 29
extern const char *const format_names[NUM_FORMATS];

const struct hqv_format *format_by_name(const char *name);


enum pattern {
	PATTERN_RANDOM,	/* every byte, padding and X bytes too */
	PATTERN_RAMPS,	/* each channel a ramp in its own direction */
	PATTERN_EDGES,	/* checkers, stripes and a one-pixel line */
	PATTERN_BARS,	/* bars of extremes: 0, 16, 235, 240, 255 */
	NUM_PATTERNS,
};

extern const char *const pattern_names[NUM_PATTERNS];

/*
 * An image of a format from the table, with default colorimetry (BT.601,
 * limited range for Y'CbCr, full for R'G'B'). pad bytes are asked for above
 * each plane's minimum pitch (hqv_format_layout() rounds them up where the
 * planes share a buffer); each memory plane is its own heap buffer of
 * exactly its size.
 */
void image_alloc(struct hqv_image *img, const char *format, uint32_t width,
		 uint32_t height, uint32_t pad);
/* A field-based source: an ALTERNATE buffer holds height / 2 lines. */
void image_alloc_field(struct hqv_image *img, const char *format,
		       uint32_t width, uint32_t height, enum hqv_field field);
/* Another image laid out as img, in buffers of its own. */
void image_alloc_like(struct hqv_image *copy, const struct hqv_image *img);
void image_free(struct hqv_image *img);
void image_set_colour(struct hqv_image *img, enum hqv_encoding enc,
		      enum hqv_quantization quant);
void image_fill(struct hqv_image *img, enum pattern pattern, uint32_t seed);
void image_fill_byte(struct hqv_image *img, uint8_t value);

void job_free(struct hqv_job *job);

/* Asserts hqv_job_prepare() accepts the job, then produces the frame in
 * bands of band_rows rows (an even number), one scratch buffer per band. */
void engine_run(struct hqv_job *job, uint32_t band_rows);
/* The same for a job already prepared (its plan perhaps changed). */
void engine_run_prepared(struct hqv_job *job, uint32_t band_rows);

/* Rows per band in the comparisons: even, and not a power of two, so that
 * band edges fall on rows that are not multiples of 4. */
#define BAND_ROWS 14

/*
 * The outcome of the many cases one test runs: each failing case adds a line,
 * and the test fails once, at the end, listing them all.
 */
struct verdict {
	unsigned int cases;
	unsigned int failures;
	unsigned int untold;	/* failures the report had no room for */
	size_t len;
	char report[32768];
};

#define VERDICT_INIT { 0 }

/* Records a case and, when failed is true, what went wrong. */
void verdict_case(struct verdict *v, bool failed, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Asserts that no case failed, naming those that did. */
void expect_no_failure(const struct verdict *v);

/*
 * Runs the job through the engine (in bands of BAND_ROWS) and the model and
 * records a case that fails when hqv_job_prepare() refuses the job or when
 * a sample differs by more than tolerance (RGB565: each 5- or 6-bit field;
 * X bytes included). A failure names the worst sample, both values and how
 * many samples are off.
 */
void check_matches_reference(struct verdict *v, struct hqv_job *job,
			     int tolerance, const char *what, ...)
	__attribute__((format(printf, 4, 5)));

/* Asserts two images of one layout hold the same samples, byte for byte. */
void expect_same_samples(const struct hqv_image *a, const struct hqv_image *b,
			 const char *what, ...)
	__attribute__((format(printf, 3, 4)));

/* Asserts no byte of the padding after each line holds anything but
 * value (what image_fill_byte() wrote before the engine ran). */
void expect_padding_is(const struct hqv_image *img, uint8_t value,
		       const char *what);

#endif /* FRAMES_H */
