/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The m2m command: one verb per task over libm2m's public API, as
 * v4l2-ctl and ir-ctl are over V4L2 and lirc. Each verb is a function
 * taking its own argv (argv[0] is the verb) and returning an exit code.
 */
#ifndef M2M_TOOL_H
#define M2M_TOOL_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes (documented in m2m.1 and docs/m2m-command.md). */
enum {
	EXIT_OK = 0,      /* done */
	EXIT_FAILED = 1,  /* the device, a file or the library failed */
	EXIT_USAGE = 2,   /* the command line is wrong */
};

/* A verb's usage text: the first line is its synopsis. */
struct verb {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
};

int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_ir(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_transcode(int argc, char **argv);

extern const char convert_help[];
extern const char decode_help[];
extern const char encode_help[];
extern const char transcode_help[];

/* Print "m2m VERB: MESSAGE" on one line; return EXIT_USAGE. */
int usage_error(const char *verb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print "m2m VERB: WHAT: libm2m's message (errno)"; return EXIT_FAILED. */
int lib_error(const char *verb, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Print "m2m VERB: MESSAGE"; return EXIT_FAILED. */
int failure(const char *verb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * getopt_long for a verb: resets getopt, handles --help (prints help,
 * returns 'h' so that the verb returns EXIT_OK) and turns unknown options
 * and missing arguments into one line (returns '?').
 */
int verb_getopt(int argc, char **argv, const char *shortopts,
		const struct option *longopts, const char *verb);

/* Print a verb's help on stdout. */
void print_help(const char *help);

/* Parse helpers: 0 on success, -1 (nothing printed) when malformed. */
int parse_size(const char *s, uint32_t *w, uint32_t *h);
int parse_long(const char *s, long long *v);

/* The decimal number at the start of s, digits only (no sign, space or
 * base), into *v: the character after it, or NULL when s does not start
 * with one or it does not fit 32 bits. */
const char *parse_number(const char *s, uint32_t *v);

/* A pixel format by the table's name in any case ("nv12") or its
 * four-character code, as the Python package takes them; 0 when libm2m
 * does not know it. */
uint32_t parse_format(const char *name);

/* The names of libm2m's formats, comma-separated, for messages. */
const char *known_formats(void);

/* Draw a progress bar of done out of total frames (total unknown: -1)
 * on stderr, over the last one, when stderr is a terminal (else nothing). progress_end() ends its line; every
 * message does that first, so an error never follows the bar on its
 * line. */
void progress(long long done, long long total);
void progress_end(void);

/* The device a verb works on: DEV, or "auto" and a note when it falls
 * back to the in-process engine. Prints the error and returns NULL. */
struct m2m_device;
struct m2m_device *open_device(const char *verb, const char *name);

#endif
