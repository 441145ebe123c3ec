// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vhqv-fuzz: a coverage-guided, structure-aware fuzzer of vhqv, for the
 * debug kernel, whose KCOV instruments vhqv, v4l2-mem2mem and videobuf2
 * (scripts/debug-kernel.config, kmod/Kbuild). tests/vm/fuzz runs it;
 * docs/testing.md ("Fuzzing") has its figures.
 *
 * A program is a list of calls over four file slots, each open on one of
 * vhqv's nodes (single-planar, multi-planar, the IR receiver's lirc
 * node): open and close, the format, buffer, stream, control, event,
 * selection and drain ioctls with plausible arguments, mmap, poll, lirc
 * writes. Its text is one call a line, "name arg=value ...", so that the
 * corpus (tests/vm/fuzz-corpus/) reads and writes by hand. Each program
 * runs on fresh files and ends by closing them, which waits for the frame
 * in progress, so that a program's frames count for that program.
 *
 * Coverage is the calls' own (KCOV_ENABLE on the thread that makes them)
 * and that of the frames vhqv runs in its workqueue for them (the main
 * thread's KCOV_REMOTE_ENABLE with a common handle, which the calling
 * thread inherits and vhqv hands to kcov_remote_start_common():
 * kmod/vhqv-run.c). The signal is edges, hashes of consecutive PCs, as
 * syzkaller's: a program that reaches an edge not seen before joins the
 * corpus, from which programs are mutated (an argument changed, a call
 * inserted, deleted, repeated or moved to another file, two programs
 * spliced), beside new ones generated.
 *
 * It fails (exit 1) on a result no argument can explain: an errno the
 * kernel keeps for itself (512 and up), EFAULT for memory that is ours,
 * a successful call whose result breaks V4L2's rules (a TRY_FMT result
 * that TRY_FMT changes, an S_FMT result that G_FMT does not return, a
 * buffer with more planes than its format or more bytes used than its
 * length, a poll() on an open file that says POLLNVAL), or a call that
 * takes over a minute. The kernel's own reports are scripts/vm-run's.
 *
 * Usage: vhqv-fuzz [-t SECONDS] [-s SEED] [-c CORPUS_DIR]... [-o DIR]
 *                  [-F FUNCTIONS] [-R FUNCTION]... [-S STATS] [-n]
 *                  VIDEO MPLANE_VIDEO [LIRC]
 *        vhqv-fuzz -m DIR [-M MOST] -c CORPUS_DIR... [-S STATS]
 *                  VIDEO MPLANE_VIDEO [LIRC]
 *        vhqv-fuzz -r PROGRAM [-S STATS] VIDEO MPLANE_VIDEO [LIRC]
 *   -t  fuzz this long after the corpus has run (default 120 s)
 *   -s  seed of every random choice (default 26; timing still varies)
 *   -c  run the programs of this directory first, and mutate them
 *   -o  write each program kept (new edges) there, named by its hash
 *   -F  the instrumented functions, lines "MODULE OBJECT FUNCTION"
 *       (tests/vm/fuzz makes it with nm): report which were reached
 *   -R  fail unless FUNCTION, a module's, was reached (coverage works
 *       end to end)
 *   -S  vhqv's debugfs statistics file, read by the "stats" call
 *   -n  without KCOV: run the corpus, then random programs, keep nothing
 *   -m  reduce: copy to DIR the files of the other -c directories that
 *       add the most edges to the first's, chosen greedily, until none
 *       adds one or -M of them (default 40) are chosen; and stop
 *   -r  run one program, printing each call and its result
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/kcov.h>
#include <linux/lirc.h>
#include <linux/videodev2.h>

#include "vhqv-test.h"

#define SLOTS		4
#define MAX_CALLS	48
#define MAX_ARGS	11
#define DMABUFS		8
#define MAPS		32
/* 2 MiB of PCs a side: a program of 48 calls and its frames fit. */
#define COVER_WORDS	(256 << 10)
/* USERPTR memory: 16 slices; a buffer may run past its slice. */
#define USER_POOL	(4 << 20)
#define USER_SLICES	16
#define CALL_TIMEOUT_S	60
#define POLL_MAX_MS	2000

static const char *prog_name = "vhqv-fuzz";

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		die("out of memory");
	return p;
}

/*
 * What the nodes offer, asked once: formats of each queue, controls.
 */

enum node { NODE_VIDEO, NODE_MPLANE, NODE_LIRC, NODES };

#define MAX_FORMATS	64
#define MAX_CTRLS	32

struct node_info {
	const char *path;
	uint32_t fourcc[2][MAX_FORMATS];	/* OUTPUT, CAPTURE */
	unsigned int n_fourcc[2];
};

struct ctrl_info {
	uint32_t id;
	int32_t min, max, def;
};

static struct node_info nodes[NODES];
static unsigned int n_nodes;
static struct ctrl_info ctrls[MAX_CTRLS];
static unsigned int n_ctrls;
static const char *stats_path;

static bool type_is_mplane(uint32_t type)
{
	return type == V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE ||
	       type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
}

static void learn_node(enum node n)
{
	static const uint32_t types[NODES][2] = {
		{ V4L2_BUF_TYPE_VIDEO_OUTPUT, V4L2_BUF_TYPE_VIDEO_CAPTURE },
		{ V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE,
		  V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE },
	};
	struct node_info *ni = &nodes[n];
	int fd = open(ni->path, O_RDWR | O_NONBLOCK);
	unsigned int q;

	if (fd < 0)
		die("cannot open %s: %s", ni->path, strerror(errno));
	for (q = 0; q < 2; q++) {
		struct v4l2_fmtdesc f = { .type = types[n][q] };

		while (ni->n_fourcc[q] < MAX_FORMATS &&
		       (f.index = ni->n_fourcc[q],
			xioctl(fd, VIDIOC_ENUM_FMT, &f) == 0))
			ni->fourcc[q][ni->n_fourcc[q]++] = f.pixelformat;
		if (!ni->n_fourcc[q])
			die("%s offers no format on queue %u", ni->path, q);
	}
	if (n == NODE_VIDEO) {
		struct v4l2_query_ext_ctrl qc = {
			.id = V4L2_CTRL_FLAG_NEXT_CTRL,
		};

		while (n_ctrls < MAX_CTRLS &&
		       xioctl(fd, VIDIOC_QUERY_EXT_CTRL, &qc) == 0) {
			if (qc.type != V4L2_CTRL_TYPE_CTRL_CLASS)
				ctrls[n_ctrls++] = (struct ctrl_info){
					qc.id, qc.minimum, qc.maximum,
					qc.default_value,
				};
			qc.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
		}
		if (!n_ctrls)
			die("%s has no controls", ni->path);
	}
	close(fd);
}

/*
 * Programs and their text
 */

enum kind {
	K_SLOT, K_NODE, K_QUEUE, K_FOURCC, K_SIZE, K_BYTES, K_FIELD, K_COUNT,
	K_MEMORY, K_INDEX, K_BUFFLAGS, K_LEN, K_OFFSET, K_PLANES, K_DMABUF,
	K_CTRL, K_VALUE, K_WHICH, K_COLORSPACE, K_FMTFLAGS, K_TARGET,
	K_SELFLAGS, K_POS, K_CMD, K_CMDFLAGS, K_EVENT, K_EVFLAGS, K_EVENTS,
	K_MS, K_SMALL, K_LIRC_GET, K_LIRC_SET, K_LIRC_VALUE, K_PROTO,
	K_SCANCODE, K_DURATION, K_NOISE, K_SEED,
};

struct named {
	uint32_t value;
	const char *name;
};

static const struct named node_names[] = {
	{ NODE_VIDEO, "video" }, { NODE_MPLANE, "mplane" },
	{ NODE_LIRC, "lirc" }, { 0, NULL },
};

/* A queue of the slot's node, or a type the node does not have. */
enum { Q_OUT, Q_CAP, Q_OUT_OTHER, Q_CAP_OTHER, Q_NONE, Q_OVERLAY };
static const struct named queue_names[] = {
	{ Q_OUT, "out" }, { Q_CAP, "cap" }, { Q_OUT_OTHER, "out-other" },
	{ Q_CAP_OTHER, "cap-other" }, { Q_NONE, "none" },
	{ Q_OVERLAY, "overlay" }, { 0, NULL },
};

static const struct named memory_names[] = {
	{ V4L2_MEMORY_MMAP, "mmap" }, { V4L2_MEMORY_USERPTR, "userptr" },
	{ V4L2_MEMORY_DMABUF, "dmabuf" }, { 0, NULL },
};

/* A plane's length or bytesused, from the length QUERYBUF gives. */
enum { LEN_FULL, LEN_ZERO, LEN_HALF, LEN_ONE, LEN_OVER, LEN_PAGE };
static const struct named len_names[] = {
	{ LEN_FULL, "full" }, { LEN_ZERO, "zero" }, { LEN_HALF, "half" },
	{ LEN_ONE, "one" }, { LEN_OVER, "over" }, { LEN_PAGE, "page" },
	{ 0, NULL },
};

/* A dma-buf: one the program exported (0-7), none, or not a dma-buf. */
enum { DMABUF_NONE = DMABUFS, DMABUF_NOT };
static const struct named dmabuf_names[] = {
	{ DMABUF_NONE, "none" }, { DMABUF_NOT, "not-dmabuf" }, { 0, NULL },
};

enum { EXT_GET, EXT_SET, EXT_TRY };
static const struct named which_names[] = {
	{ EXT_GET, "get" }, { EXT_SET, "set" }, { EXT_TRY, "try" },
	{ 0, NULL },
};

/* lirc's ioctls by name; the value is the request. */
static const struct named lirc_get_names[] = {
	{ LIRC_GET_FEATURES, "features" }, { LIRC_GET_SEND_MODE, "send-mode" },
	{ LIRC_GET_REC_MODE, "rec-mode" },
	{ LIRC_GET_REC_RESOLUTION, "resolution" },
	{ LIRC_GET_MIN_TIMEOUT, "min-timeout" },
	{ LIRC_GET_MAX_TIMEOUT, "max-timeout" },
	{ LIRC_GET_REC_TIMEOUT, "timeout" }, { LIRC_GET_LENGTH, "length" },
	{ 0, NULL },
};

static const struct named lirc_set_names[] = {
	{ LIRC_SET_SEND_MODE, "send-mode" }, { LIRC_SET_REC_MODE, "rec-mode" },
	{ LIRC_SET_SEND_CARRIER, "send-carrier" },
	{ LIRC_SET_SEND_DUTY_CYCLE, "duty-cycle" },
	{ LIRC_SET_TRANSMITTER_MASK, "tx-mask" },
	{ LIRC_SET_REC_TIMEOUT, "timeout" },
	{ LIRC_SET_REC_TIMEOUT_REPORTS, "timeout-reports" },
	{ LIRC_SET_MEASURE_CARRIER_MODE, "measure-carrier" },
	{ LIRC_SET_REC_CARRIER, "rec-carrier" },
	{ LIRC_SET_REC_CARRIER_RANGE, "rec-carrier-range" },
	{ LIRC_SET_WIDEBAND_RECEIVER, "wideband" }, { 0, NULL },
};

/* How a kind's values print: by name, in hex, signed or as a fourcc. */
enum print { P_DEC, P_HEX, P_SIGNED, P_FOURCC };

static const struct kind_desc {
	const struct named *names;
	enum print print;
	uint32_t def;		/* when a program line leaves it out */
} kinds[] = {
	[K_NODE] = { node_names },
	[K_QUEUE] = { queue_names },
	[K_FOURCC] = { NULL, P_FOURCC },
	[K_MEMORY] = { memory_names, P_DEC, V4L2_MEMORY_MMAP },
	[K_BUFFLAGS] = { NULL, P_HEX },
	[K_LEN] = { len_names },
	[K_DMABUF] = { dmabuf_names, P_DEC, DMABUF_NONE },
	[K_CTRL] = { NULL, P_HEX },
	[K_VALUE] = { NULL, P_SIGNED },
	[K_WHICH] = { which_names },
	[K_FMTFLAGS] = { NULL, P_HEX },
	[K_TARGET] = { NULL, P_HEX },
	[K_POS] = { NULL, P_SIGNED },
	[K_CMDFLAGS] = { NULL, P_HEX },
	[K_LIRC_GET] = { lirc_get_names, P_HEX },
	[K_LIRC_SET] = { lirc_set_names, P_HEX },
	[K_SCANCODE] = { NULL, P_HEX },
	[K_DURATION] = { NULL, P_DEC },
	[K_SEED] = { NULL, P_HEX },
};

struct arg_desc {
	const char *name;
	enum kind kind;
};

enum target { ON_NONE, ON_VIDEO, ON_LIRC };

enum op {
	OP_OPEN, OP_CLOSE, OP_QUERYCAP, OP_ENUM_FMT, OP_ENUM_FRAMESIZES,
	OP_G_FMT, OP_S_FMT, OP_TRY_FMT, OP_REQBUFS, OP_CREATE_BUFS,
	OP_QUERYBUF, OP_MMAP, OP_MUNMAP, OP_QBUF, OP_PREPARE_BUF, OP_DQBUF,
	OP_EXPBUF, OP_STREAMON, OP_STREAMOFF, OP_S_CTRL, OP_G_CTRL,
	OP_EXT_CTRLS, OP_QUERYCTRL, OP_QUERYMENU, OP_ENC_CMD,
	OP_TRY_ENC_CMD, OP_DEC_CMD, OP_SUBSCRIBE, OP_UNSUBSCRIBE,
	OP_DQEVENT, OP_G_SELECTION, OP_S_SELECTION, OP_POLL, OP_PRIORITY,
	OP_LIRC_GET, OP_LIRC_SET, OP_LIRC_SEND, OP_LIRC_PULSES,
	OP_LIRC_READ, OP_IR_NOISE, OP_STATS, OPS
};

#define SLOT		{ "slot", K_SLOT }
#define QUEUE		{ "queue", K_QUEUE }
#define FORMAT_ARGS	SLOT, QUEUE, { "fourcc", K_FOURCC }, \
			{ "width", K_SIZE }, { "height", K_SIZE }, \
			{ "field", K_FIELD }, { "bpl", K_BYTES }, \
			{ "sizeimage", K_BYTES }, \
			{ "colorspace", K_COLORSPACE }, \
			{ "flags", K_FMTFLAGS }, { "planes", K_PLANES }
#define BUFFER_ARGS	SLOT, QUEUE, { "memory", K_MEMORY }, \
			{ "index", K_INDEX }, { "length", K_LEN }, \
			{ "bytesused", K_LEN }, { "field", K_FIELD }, \
			{ "flags", K_BUFFLAGS }, { "offset", K_OFFSET }, \
			{ "dmabuf", K_DMABUF }, { "planes", K_PLANES }
#define CMD_ARGS	SLOT, { "cmd", K_CMD }, { "flags", K_CMDFLAGS }

static const struct op_desc {
	const char *name;
	enum target on;
	unsigned int weight;
	struct arg_desc args[MAX_ARGS];
} ops[OPS] = {
	[OP_OPEN] = { "open", ON_NONE, 4, { SLOT, { "node", K_NODE } } },
	[OP_CLOSE] = { "close", ON_NONE, 2, { SLOT } },
	[OP_QUERYCAP] = { "querycap", ON_VIDEO, 1, { SLOT } },
	[OP_ENUM_FMT] = { "enum_fmt", ON_VIDEO, 1,
			  { SLOT, QUEUE, { "index", K_INDEX } } },
	[OP_ENUM_FRAMESIZES] = { "enum_framesizes", ON_VIDEO, 1,
		{ SLOT, QUEUE, { "fourcc", K_FOURCC }, { "index", K_SMALL } } },
	[OP_G_FMT] = { "g_fmt", ON_VIDEO, 2, { SLOT, QUEUE } },
	[OP_S_FMT] = { "s_fmt", ON_VIDEO, 6, { FORMAT_ARGS } },
	[OP_TRY_FMT] = { "try_fmt", ON_VIDEO, 3, { FORMAT_ARGS } },
	[OP_REQBUFS] = { "reqbufs", ON_VIDEO, 5,
		{ SLOT, QUEUE, { "memory", K_MEMORY }, { "count", K_COUNT } } },
	[OP_CREATE_BUFS] = { "create_bufs", ON_VIDEO, 3,
		{ SLOT, QUEUE, { "memory", K_MEMORY }, { "count", K_COUNT },
		  { "fourcc", K_FOURCC }, { "width", K_SIZE },
		  { "height", K_SIZE }, { "sizeimage", K_BYTES } } },
	[OP_QUERYBUF] = { "querybuf", ON_VIDEO, 2,
		{ SLOT, QUEUE, { "memory", K_MEMORY }, { "index", K_INDEX } } },
	[OP_MMAP] = { "mmap", ON_VIDEO, 3,
		      { SLOT, QUEUE, { "index", K_INDEX } } },
	[OP_MUNMAP] = { "munmap", ON_VIDEO, 1,
			{ SLOT, { "which", K_SMALL } } },
	[OP_QBUF] = { "qbuf", ON_VIDEO, 10, { BUFFER_ARGS } },
	[OP_PREPARE_BUF] = { "prepare_buf", ON_VIDEO, 2, { BUFFER_ARGS } },
	[OP_DQBUF] = { "dqbuf", ON_VIDEO, 8,
		       { SLOT, QUEUE, { "memory", K_MEMORY } } },
	[OP_EXPBUF] = { "expbuf", ON_VIDEO, 2,
		{ SLOT, QUEUE, { "index", K_INDEX }, { "plane", K_SMALL },
		  { "to", K_SMALL } } },
	[OP_STREAMON] = { "streamon", ON_VIDEO, 5, { SLOT, QUEUE } },
	[OP_STREAMOFF] = { "streamoff", ON_VIDEO, 2, { SLOT, QUEUE } },
	[OP_S_CTRL] = { "s_ctrl", ON_VIDEO, 4,
		{ SLOT, { "id", K_CTRL }, { "value", K_VALUE } } },
	[OP_G_CTRL] = { "g_ctrl", ON_VIDEO, 1, { SLOT, { "id", K_CTRL } } },
	[OP_EXT_CTRLS] = { "ext_ctrls", ON_VIDEO, 3,
		{ SLOT, { "which", K_WHICH }, { "default", K_SMALL },
		  { "count", K_SMALL }, { "id", K_CTRL },
		  { "value", K_VALUE }, { "id2", K_CTRL },
		  { "value2", K_VALUE } } },
	[OP_QUERYCTRL] = { "queryctrl", ON_VIDEO, 1,
		{ SLOT, { "id", K_CTRL }, { "next", K_SMALL } } },
	[OP_QUERYMENU] = { "querymenu", ON_VIDEO, 1,
		{ SLOT, { "id", K_CTRL }, { "index", K_SMALL } } },
	[OP_ENC_CMD] = { "encoder_cmd", ON_VIDEO, 3, { CMD_ARGS } },
	[OP_TRY_ENC_CMD] = { "try_encoder_cmd", ON_VIDEO, 1, { CMD_ARGS } },
	[OP_DEC_CMD] = { "decoder_cmd", ON_VIDEO, 1, { CMD_ARGS } },
	[OP_SUBSCRIBE] = { "subscribe", ON_VIDEO, 3,
		{ SLOT, { "type", K_EVENT }, { "id", K_CTRL },
		  { "flags", K_EVFLAGS } } },
	[OP_UNSUBSCRIBE] = { "unsubscribe", ON_VIDEO, 1,
		{ SLOT, { "type", K_EVENT }, { "id", K_CTRL } } },
	[OP_DQEVENT] = { "dqevent", ON_VIDEO, 3, { SLOT } },
	[OP_G_SELECTION] = { "g_selection", ON_VIDEO, 2,
		{ SLOT, QUEUE, { "target", K_TARGET } } },
	[OP_S_SELECTION] = { "s_selection", ON_VIDEO, 3,
		{ SLOT, QUEUE, { "target", K_TARGET },
		  { "flags", K_SELFLAGS }, { "left", K_POS },
		  { "top", K_POS }, { "width", K_SIZE },
		  { "height", K_SIZE } } },
	[OP_POLL] = { "poll", ON_NONE, 6,
		{ SLOT, { "events", K_EVENTS }, { "ms", K_MS } } },
	[OP_PRIORITY] = { "priority", ON_VIDEO, 1,
			  { SLOT, { "value", K_SMALL } } },
	[OP_LIRC_GET] = { "lirc_get", ON_LIRC, 1,
			  { SLOT, { "which", K_LIRC_GET } } },
	[OP_LIRC_SET] = { "lirc_set", ON_LIRC, 3,
		{ SLOT, { "which", K_LIRC_SET }, { "value", K_LIRC_VALUE } } },
	[OP_LIRC_SEND] = { "lirc_send", ON_LIRC, 2,
		{ SLOT, { "proto", K_PROTO }, { "scancode", K_SCANCODE } } },
	[OP_LIRC_PULSES] = { "lirc_pulses", ON_LIRC, 1,
		{ SLOT, { "count", K_COUNT }, { "us", K_DURATION } } },
	[OP_LIRC_READ] = { "lirc_read", ON_LIRC, 1, { SLOT } },
	/* vhqv's module parameters: noise on what the receiver hears */
	[OP_IR_NOISE] = { "ir_noise", ON_LIRC, 1,
		{ SLOT, { "jitter", K_NOISE }, { "glitch", K_NOISE },
		  { "seed", K_SEED } } },
	[OP_STATS] = { "stats", ON_NONE, 1, { { NULL } } },
};

struct call {
	enum op op;
	uint32_t arg[MAX_ARGS];
};

struct program {
	unsigned int n;
	struct call calls[MAX_CALLS];
};

static unsigned int op_args(enum op op)
{
	unsigned int n = 0;

	while (n < MAX_ARGS && ops[op].args[n].name)
		n++;
	return n;
}

static int arg_index(enum op op, enum kind kind)
{
	unsigned int i;

	for (i = 0; i < op_args(op); i++)
		if (ops[op].args[i].kind == kind)
			return i;
	return -1;
}

static const char *name_of(const struct named *names, uint32_t v)
{
	for (; names && names->name; names++)
		if (names->value == v)
			return names->name;
	return NULL;
}

static void print_value(FILE *f, enum kind kind, uint32_t v)
{
	const struct kind_desc *k = &kinds[kind];
	const char *name = name_of(k->names, v);
	char cc[5];
	int i;

	if (name) {
		fputs(name, f);
		return;
	}
	switch (k->print) {
	case P_FOURCC:
		for (i = 0; i < 4; i++) {
			cc[i] = v >> (8 * i);
			if (cc[i] < '0' || cc[i] > 'z' ||
			    (cc[i] > '9' && cc[i] < 'A'))
				break;
		}
		cc[4] = 0;
		if (i == 4 && !(cc[0] == '0' && cc[1] == 'x')) {
			fputs(cc, f);
			return;
		}
		/* fall through */
	case P_HEX:
		fprintf(f, "0x%" PRIx32, v);
		return;
	case P_SIGNED:
		fprintf(f, "%" PRId32, (int32_t)v);
		return;
	case P_DEC:
		fprintf(f, "%" PRIu32, v);
		return;
	}
}

static void print_call(FILE *f, const struct call *c)
{
	unsigned int i;

	fputs(ops[c->op].name, f);
	for (i = 0; i < op_args(c->op); i++) {
		fprintf(f, " %s=", ops[c->op].args[i].name);
		print_value(f, ops[c->op].args[i].kind, c->arg[i]);
	}
	fputc('\n', f);
}

static void print_program(FILE *f, const struct program *p)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		print_call(f, &p->calls[i]);
}

static bool parse_value(enum kind kind, const char *s, uint32_t *v)
{
	const struct named *names = kinds[kind].names;
	char *end;

	for (; names && names->name; names++)
		if (!strcmp(names->name, s)) {
			*v = names->value;
			return true;
		}
	if (kinds[kind].print == P_FOURCC && strlen(s) == 4 &&
	    strncmp(s, "0x", 2)) {
		*v = v4l2_fourcc(s[0], s[1], s[2], s[3]);
		return true;
	}
	errno = 0;
	if (kinds[kind].print == P_SIGNED)
		*v = (uint32_t)strtol(s, &end, 0);
	else
		*v = strtoul(s, &end, 0);
	return !errno && end != s && !*end;
}

/* One line, "name arg=value ..."; false with *why set if it is wrong. */
static bool parse_call(char *line, struct call *c, const char **why)
{
	char *tok = strtok(line, " \t\n"), *eq;
	unsigned int i, n;
	int op;

	for (op = 0; op < OPS && strcmp(ops[op].name, tok); op++)
		;
	if (op == OPS) {
		*why = "unknown call";
		return false;
	}
	c->op = op;
	n = op_args(op);
	for (i = 0; i < n; i++)
		c->arg[i] = kinds[ops[op].args[i].kind].def;
	while ((tok = strtok(NULL, " \t\n"))) {
		eq = strchr(tok, '=');
		if (!eq) {
			*why = "an argument without '='";
			return false;
		}
		*eq = 0;
		for (i = 0; i < n && strcmp(ops[op].args[i].name, tok); i++)
			;
		if (i == n) {
			*why = "unknown argument";
			return false;
		}
		if (!parse_value(ops[op].args[i].kind, eq + 1, &c->arg[i])) {
			*why = "a value it cannot read";
			return false;
		}
	}
	if (n && c->arg[0] >= SLOTS) {
		*why = "a slot past 3";
		return false;
	}
	return true;
}

static bool load_program(const char *path, struct program *p)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	const char *why;
	unsigned int lineno = 0;

	if (!f)
		die("cannot open %s: %s", path, strerror(errno));
	p->n = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[strspn(line, " \t\n")] == 0 || line[0] == '#')
			continue;
		if (p->n == MAX_CALLS)
			die("%s: more than %d calls", path, MAX_CALLS);
		if (!parse_call(line, &p->calls[p->n++], &why))
			die("%s:%u: %s", path, lineno, why);
	}
	fclose(f);
	return p->n > 0;
}

/*
 * Generating and mutating programs
 */

/* Which node each slot is open on (-1: closed) before call `upto`. */
static void slots_before(const struct program *p, unsigned int upto,
			 int open_on[SLOTS])
{
	unsigned int i;

	for (i = 0; i < SLOTS; i++)
		open_on[i] = -1;
	for (i = 0; i < upto && i < p->n; i++) {
		const struct call *c = &p->calls[i];

		if (c->op == OP_OPEN)
			open_on[c->arg[0]] = c->arg[1] < n_nodes ?
					     (int)c->arg[1] : NODE_VIDEO;
		else if (c->op == OP_CLOSE)
			open_on[c->arg[0]] = -1;
	}
}

static uint32_t pick_named(const struct named *names)
{
	uint32_t n = 0;

	while (names[n].name)
		n++;
	return names[below(n)].value;
}

static uint32_t gen_size(void)
{
	static const uint32_t edges[] = {
		0, 1, 2, 3, 15, 16, 17, 255, 256, 257, 1920, 4096, 8191,
		8192, 8193, 65535, 0x7fffffff, 0xffffffff,
	};

	if (chance(8))
		return PICK(edges);
	return 1 + below(chance(3) ? 256 : 64);
}

static uint32_t gen_fourcc(enum node n, uint32_t queue)
{
	static const uint32_t odd[] = {
		0, 0xffffffff, v4l2_fourcc('A', 'B', 'C', 'D'),
		V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_H264,
	};
	const struct node_info *ni = &nodes[n == NODE_MPLANE];
	unsigned int q = queue & 1;

	if (chance(16))
		return PICK(odd);
	if (chance(6))
		q ^= 1;
	if (chance(6))
		ni = &nodes[!(n == NODE_MPLANE)];
	return ni->fourcc[q][below(ni->n_fourcc[q])];
}

static const struct ctrl_info *find_ctrl(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < n_ctrls; i++)
		if (ctrls[i].id == id)
			return &ctrls[i];
	return NULL;
}

static uint32_t gen_ctrl(void)
{
	static const uint32_t odd[] = {
		0, V4L2_CID_GAIN, V4L2_CID_USER_CLASS, V4L2_CID_PRIVATE_BASE,
		0xffffffff, V4L2_CTRL_FLAG_NEXT_CTRL,
	};

	return chance(10) ? PICK(odd) : ctrls[below(n_ctrls)].id;
}

static int32_t gen_value(uint32_t ctrl)
{
	const struct ctrl_info *ci = find_ctrl(ctrl);
	static const int32_t odd[] = {
		0, 1, -1, 90, 180, 270, 45, 360, INT32_MIN, INT32_MAX,
	};

	if (!ci || chance(8))
		return PICK(odd);
	switch (below(5)) {
	case 0:
		return ci->min;
	case 1:
		return ci->max;
	case 2:
		return ci->def;
	case 3:
		return chance(2) ? ci->min - 1 : ci->max + 1;
	default:
		return ci->min +
		       (int32_t)below((uint32_t)(ci->max - ci->min) + 1);
	}
}

/*
 * A value for argument i of a call under construction (arguments before
 * i are set): the kind says what is plausible, the node of the call's
 * slot and its queue narrow it.
 */
static uint32_t gen_arg(const struct call *c, unsigned int i, enum node node)
{
	static const uint32_t fields[] = {
		V4L2_FIELD_NONE, V4L2_FIELD_ANY, V4L2_FIELD_INTERLACED,
		V4L2_FIELD_TOP, V4L2_FIELD_BOTTOM, V4L2_FIELD_SEQ_TB,
		V4L2_FIELD_SEQ_BT, V4L2_FIELD_ALTERNATE,
		V4L2_FIELD_INTERLACED_TB, V4L2_FIELD_INTERLACED_BT, 10, 0xff,
	};
	static const uint32_t memories[] = {
		V4L2_MEMORY_MMAP, V4L2_MEMORY_MMAP, V4L2_MEMORY_MMAP,
		V4L2_MEMORY_MMAP, V4L2_MEMORY_USERPTR, V4L2_MEMORY_DMABUF,
		0, 3, 99,
	};
	static const uint32_t buf_flags[] = {
		V4L2_BUF_FLAG_LAST, V4L2_BUF_FLAG_TIMECODE,
		V4L2_BUF_FLAG_KEYFRAME, V4L2_BUF_FLAG_TIMESTAMP_COPY,
		V4L2_BUF_FLAG_REQUEST_FD, V4L2_BUF_FLAG_NO_CACHE_INVALIDATE,
		V4L2_BUF_FLAG_NO_CACHE_CLEAN, V4L2_BUF_FLAG_ERROR,
		V4L2_BUF_FLAG_TSTAMP_SRC_SOE, V4L2_BUF_FLAG_BFRAME,
	};
	static const uint32_t targets[] = {
		V4L2_SEL_TGT_CROP, V4L2_SEL_TGT_CROP_DEFAULT,
		V4L2_SEL_TGT_CROP_BOUNDS, V4L2_SEL_TGT_NATIVE_SIZE,
		V4L2_SEL_TGT_COMPOSE, V4L2_SEL_TGT_COMPOSE_DEFAULT,
		V4L2_SEL_TGT_COMPOSE_BOUNDS, V4L2_SEL_TGT_COMPOSE_PADDED,
		0x77,
	};
	static const uint32_t events[] = {
		V4L2_EVENT_EOS, V4L2_EVENT_SOURCE_CHANGE, V4L2_EVENT_CTRL,
		V4L2_EVENT_FRAME_SYNC, V4L2_EVENT_ALL, V4L2_EVENT_VSYNC, 77,
	};
	/* Short: a poll for what cannot come waits it out. */
	static const uint32_t ms[] = { 0, 0, 10, 50, 200, 1000 };
	static const uint32_t lirc_values[] = {
		LIRC_MODE_PULSE, LIRC_MODE_SCANCODE, LIRC_MODE_MODE2, 0, 1,
		19000, 20000, 36000, 38000, 40000, 56000, 60000, 61000, 25,
		33, 50, 100, 101, 9999, 10000, 125000, 1000000, 0xffffffff,
	};
	static const uint32_t protos[] = {
		RC_PROTO_NEC, RC_PROTO_NECX, RC_PROTO_NEC32, RC_PROTO_RC5,
		RC_PROTO_RC6_0, RC_PROTO_RC6_MCE, RC_PROTO_SONY12,
		RC_PROTO_SANYO, RC_PROTO_JVC, RC_PROTO_SHARP,
		RC_PROTO_RCMM12, RC_PROTO_RCMM32, RC_PROTO_XMP,
		RC_PROTO_IMON, RC_PROTO_UNKNOWN, 99,
	};
	int q = arg_index(c->op, K_QUEUE);
	uint32_t queue = q >= 0 ? c->arg[q] : Q_OUT;
	int id;

	switch (ops[c->op].args[i].kind) {
	case K_SLOT:
		return below(SLOTS);
	case K_NODE:
		return below(n_nodes) == NODE_LIRC && !chance(3) ?
		       below(2) : below(n_nodes);
	case K_QUEUE:
		return chance(16) ? 2 + below(4) : below(2);
	case K_FOURCC:
		return gen_fourcc(node, queue);
	case K_SIZE:
		return gen_size();
	case K_BYTES:
		/* bytesperline and sizeimage: mostly "the driver's choice" */
		return chance(3) ? gen_size() * (1 + below(4)) : 0;
	case K_FIELD:
		return chance(2) ? V4L2_FIELD_NONE : PICK(fields);
	case K_COUNT:
		/* IR: an odd count of pulses and spaces, as a frame has */
		if (c->op == OP_LIRC_PULSES && !chance(8))
			return 1 + 2 * below(40);
		return chance(10) ? PICK(((const uint32_t[]){ 8, 32, 33, 64,
					  0xffffffff })) : below(5);
	case K_MEMORY:
		return PICK(memories);
	case K_INDEX:
		return chance(12) ? PICK(((const uint32_t[]){ 31, 64,
					  0xffffffff })) : below(4);
	case K_BUFFLAGS:
		if (!chance(4))
			return 0;
		return chance(4) ? rng() : PICK(buf_flags);
	case K_LEN:
		return chance(2) ? LEN_FULL : below(ARRAY_SIZE(len_names) - 1);
	case K_OFFSET:
		return chance(4) ? PICK(((const uint32_t[]){ 1, 16, 4096,
					  0xffffffff })) : 0;
	case K_PLANES:
		return chance(6) ? PICK(((const uint32_t[]){ 1, 2, 3, 4, 9,
					  0xffffffff })) : 0;
	case K_DMABUF:
		return chance(6) ? DMABUF_NONE + below(2) : below(DMABUFS);
	case K_CTRL:
		if (c->op == OP_SUBSCRIBE || c->op == OP_UNSUBSCRIBE)
			return c->arg[1] == V4L2_EVENT_CTRL ? gen_ctrl() :
			       below(2);
		return gen_ctrl();
	case K_VALUE:
		id = (int)i - 1;
		return (uint32_t)gen_value(c->arg[id]);
	case K_WHICH:
		return below(3);
	case K_COLORSPACE:
		return chance(2) ? 0 : below(13);
	case K_FMTFLAGS:
		return chance(4) ? V4L2_PIX_FMT_FLAG_SET_CSC : 0;
	case K_TARGET:
		return PICK(targets);
	case K_SELFLAGS:
		return chance(2) ? 0 : below(8);
	case K_POS:
		return chance(3) ? (uint32_t)PICK(((const int32_t[]){ -1, -64,
				   INT32_MIN, INT32_MAX, 4096 })) : below(64);
	case K_CMD:
		return chance(6) ? below(8) : V4L2_ENC_CMD_STOP - below(2);
	case K_CMDFLAGS:
		return chance(6) ? rng() : 0;
	case K_EVENT:
		return PICK(events);
	case K_EVFLAGS:
		return below(4);
	case K_EVENTS:
		return 1 + below(7);
	case K_MS:
		return PICK(ms);
	case K_SMALL:
		return below(chance(8) ? 16 : 4);
	case K_LIRC_GET:
		return pick_named(lirc_get_names);
	case K_LIRC_SET:
		return pick_named(lirc_set_names);
	case K_LIRC_VALUE:
		return PICK(lirc_values);
	case K_PROTO:
		return PICK(protos);
	case K_SCANCODE:
		return chance(4) ? rng() : below(0x10000);
	case K_NOISE:
		return chance(3) ? 0 : below(chance(4) ? 1001 : 100);
	case K_SEED:
		return chance(4) ? below(2) : rng();
	case K_DURATION:
		return chance(8) ? PICK(((const uint32_t[]){ 0, 1, 100000,
					  0xffffff })) : 100 + below(1900);
	}
	return 0;
}

static enum op pick_op(enum target on)
{
	unsigned int total = 0, r, op;

	for (op = 0; op < OPS; op++)
		if (ops[op].on == on || (ops[op].on == ON_NONE &&
					 (op != OP_STATS || stats_path)))
			total += ops[op].weight;
	r = below(total);
	for (op = 0; op < OPS; op++) {
		if (ops[op].on != on && (ops[op].on != ON_NONE ||
					 (op == OP_STATS && !stats_path)))
			continue;
		if (r < ops[op].weight)
			return op;
		r -= ops[op].weight;
	}
	return OP_POLL;
}

static void gen_call(struct call *c, enum op op, unsigned int slot,
		     enum node node)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->op = op;
	for (i = 0; i < op_args(op); i++)
		c->arg[i] = i == 0 ? slot : gen_arg(c, i, node);
}

/* A call that fits what is open before position `at`: else an open. */
static void gen_call_at(const struct program *p, unsigned int at,
			struct call *c)
{
	int open_on[SLOTS];
	unsigned int slot = below(SLOTS);
	enum target on;

	slots_before(p, at, open_on);
	if (open_on[slot] < 0 || chance(30)) {
		gen_call(c, chance(8) ? OP_CLOSE : OP_OPEN, slot, NODE_VIDEO);
		if (open_on[slot] < 0)
			gen_call(c, OP_OPEN, slot, NODE_VIDEO);
		return;
	}
	on = open_on[slot] == NODE_LIRC ? ON_LIRC : ON_VIDEO;
	gen_call(c, pick_op(on), slot, open_on[slot]);
}

static void push(struct program *p, const struct call *c)
{
	if (p->n < MAX_CALLS)
		p->calls[p->n++] = *c;
}

static void push_call(struct program *p, enum op op, unsigned int slot,
		      enum node node, const uint32_t *fixed, unsigned int n)
{
	struct call c;

	gen_call(&c, op, slot, node);
	memcpy(&c.arg[1], fixed, n * sizeof(*fixed));
	push(p, &c);
}

/*
 * A file that streams: formats, buffers on both queues, STREAMON, a wait
 * and the frames back, a drain. The rest of a new program is random
 * calls; a sequence this long is what random calls seldom find.
 */
static void gen_session(struct program *p, unsigned int slot, enum node node)
{
	uint32_t memory = chance(3) ? PICK(((const uint32_t[]){
		V4L2_MEMORY_USERPTR, V4L2_MEMORY_DMABUF })) : V4L2_MEMORY_MMAP;
	uint32_t count = 1 + below(3), q, i, mem[2];
	struct call c;

	push_call(p, OP_OPEN, slot, node, (uint32_t[]){ node }, 1);
	for (q = 0; q < 2; q++) {
		gen_call(&c, OP_S_FMT, slot, node);
		c.arg[1] = q;
		c.arg[2] = gen_fourcc(node, q);
		c.arg[3] = 1 + below(chance(4) ? 256 : 64);
		c.arg[4] = 1 + below(chance(4) ? 256 : 64);
		c.arg[5] = V4L2_FIELD_NONE;
		push(p, &c);
	}
	if (chance(3)) {
		gen_call(&c, OP_S_CTRL, slot, node);
		push(p, &c);
	}
	/* DMABUF imports on OUTPUT what CAPTURE's MMAP buffers export. */
	mem[0] = memory;
	mem[1] = memory == V4L2_MEMORY_DMABUF ? V4L2_MEMORY_MMAP : memory;
	for (q = 0; q < 2; q++)
		push_call(p, OP_REQBUFS, slot, node,
			  (uint32_t[]){ q, mem[q], count }, 3);
	for (i = 0; i < count; i++) {
		if (memory == V4L2_MEMORY_DMABUF)
			push_call(p, OP_EXPBUF, slot, node,
				  (uint32_t[]){ Q_CAP, i, 0, i }, 4);
		for (q = 0; q < 2; q++) {
			gen_call(&c, OP_QBUF, slot, node);
			c.arg[1] = q;
			c.arg[2] = mem[q];
			c.arg[3] = i;
			c.arg[4] = LEN_FULL;
			c.arg[5] = q ? LEN_ZERO : LEN_FULL;
			c.arg[7] = 0;
			c.arg[8] = 0;
			c.arg[9] = i;
			c.arg[10] = 0;
			push(p, &c);
		}
	}
	for (q = 0; q < 2; q++)
		push_call(p, OP_STREAMON, slot, node, (uint32_t[]){ q }, 1);
	if (chance(2))
		push_call(p, OP_SUBSCRIBE, slot, node,
			  (uint32_t[]){ V4L2_EVENT_EOS, 0, 0 }, 3);
	push_call(p, OP_POLL, slot, node, (uint32_t[]){ 3, 1000 }, 2);
	for (q = 0; q < 2; q++)
		push_call(p, OP_DQBUF, slot, node,
			  (uint32_t[]){ q, mem[q] }, 2);
	if (chance(2)) {
		push_call(p, OP_ENC_CMD, slot, node,
			  (uint32_t[]){ V4L2_ENC_CMD_STOP, 0 }, 2);
		push_call(p, OP_POLL, slot, node, (uint32_t[]){ 7, 1000 }, 2);
		push_call(p, OP_DQBUF, slot, node,
			  (uint32_t[]){ Q_CAP, V4L2_MEMORY_MMAP }, 2);
		push_call(p, OP_DQEVENT, slot, node, NULL, 0);
	}
}

static void gen_program(struct program *p)
{
	unsigned int n = 4 + below(20);
	struct call c;

	p->n = 0;
	if (chance(2))
		gen_session(p, below(SLOTS), below(2));
	while (p->n < n) {
		gen_call_at(p, p->n, &c);
		push(p, &c);
	}
}

static void mutate_arg(struct program *p)
{
	struct call *c = &p->calls[below(p->n)];
	unsigned int n = op_args(c->op), i;
	int open_on[SLOTS];
	enum node node;

	if (n < 2)
		return;
	i = 1 + below(n - 1);
	slots_before(p, c - p->calls, open_on);
	node = open_on[c->arg[0]] >= 0 ? open_on[c->arg[0]] : NODE_VIDEO;
	switch (below(6)) {
	case 0:
		c->arg[i] += 1 + below(4);
		break;
	case 1:
		c->arg[i] -= 1 + below(4);
		break;
	case 2:
		c->arg[i] ^= 1u << below(32);
		break;
	default:
		c->arg[i] = gen_arg(c, i, node);
		break;
	}
	/* A slot or a node out of range is no longer the same program. */
	if (ops[c->op].args[i].kind == K_NODE && c->arg[i] >= n_nodes)
		c->arg[i] = below(n_nodes);
}

static void mutate(struct program *p, const struct program *other)
{
	struct call c;
	unsigned int at, cut;

	switch (below(10)) {
	case 0:
	case 1:
	case 2:
	case 3:
		mutate_arg(p);
		break;
	case 4:
	case 5:
		at = below(p->n + 1);
		if (p->n == MAX_CALLS)
			break;
		gen_call_at(p, at, &c);
		memmove(&p->calls[at + 1], &p->calls[at],
			(p->n - at) * sizeof(c));
		p->calls[at] = c;
		p->n++;
		break;
	case 6:
		if (p->n < 2)
			break;
		at = below(p->n);
		memmove(&p->calls[at], &p->calls[at + 1],
			(p->n - at - 1) * sizeof(c));
		p->n--;
		break;
	case 7:
		cut = below(p->n + 1);
		at = below(other->n + 1);
		while (cut < MAX_CALLS && at < other->n)
			p->calls[cut++] = other->calls[at++];
		p->n = cut;
		break;
	case 8:
		if (p->n == MAX_CALLS)
			break;
		at = below(p->n);
		c = p->calls[at];
		cut = at + below(p->n - at) + 1;
		memmove(&p->calls[cut + 1], &p->calls[cut],
			(p->n - cut) * sizeof(c));
		p->calls[cut] = c;
		p->n++;
		break;
	default:
		at = below(p->n);
		if (op_args(p->calls[at].op))
			p->calls[at].arg[0] = below(SLOTS);
		break;
	}
}

/*
 * Running programs
 */

struct mapping {
	void *addr;
	size_t len;
};

struct slot {
	int fd;
	enum node node;
	struct mapping maps[MAPS];
	unsigned int n_maps;
};

struct exec {
	struct slot slot[SLOTS];
	int dmabuf[DMABUFS];
	uint8_t *user;
	bool noisy;		/* ir_noise changed vhqv's parameters */
	bool verbose;
	/* what failed, if a result was impossible */
	char failure[256];
	unsigned long calls[OPS], ok[OPS];
};

/* The program running, for the watchdog's message. */
static const struct program *running;
static volatile unsigned int running_call;

static void on_alarm(int sig)
{
	(void)sig;
	fprintf(stderr, "%s: call %u took over %d s; the program:\n",
		prog_name, running_call + 1, CALL_TIMEOUT_S);
	if (running)
		print_program(stderr, running);
	_exit(1);
}

static void impossible(struct exec *x, const char *fmt, ...)
{
	va_list ap;

	if (x->failure[0])
		return;
	va_start(ap, fmt);
	vsnprintf(x->failure, sizeof(x->failure), fmt, ap);
	va_end(ap);
}

static uint32_t buf_type(const struct slot *s, uint32_t queue)
{
	bool mp = s->node == NODE_MPLANE;

	switch (queue) {
	case Q_OUT:
		return mp ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
			    V4L2_BUF_TYPE_VIDEO_OUTPUT;
	case Q_CAP:
		return mp ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
			    V4L2_BUF_TYPE_VIDEO_CAPTURE;
	case Q_OUT_OTHER:
		return mp ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
			    V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE;
	case Q_CAP_OTHER:
		return mp ? V4L2_BUF_TYPE_VIDEO_CAPTURE :
			    V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
	case Q_NONE:
		return 0;
	}
	return V4L2_BUF_TYPE_VIDEO_OVERLAY;
}

static uint32_t plane_len(uint32_t mode, uint32_t len)
{
	switch (mode) {
	case LEN_FULL:
		return len;
	case LEN_ZERO:
		return 0;
	case LEN_HALF:
		return len / 2;
	case LEN_ONE:
		return 1;
	case LEN_OVER:
		return len + 1;
	}
	return 4096;
}

static void fill_format(struct v4l2_format *f, uint32_t type,
			const uint32_t *a)
{
	unsigned int p;

	memset(f, 0, sizeof(*f));
	f->type = type;
	if (type_is_mplane(type)) {
		struct v4l2_pix_format_mplane *mp = &f->fmt.pix_mp;

		mp->pixelformat = a[2];
		mp->width = a[3];
		mp->height = a[4];
		mp->field = a[5];
		mp->colorspace = a[8];
		mp->flags = a[9];
		mp->num_planes = a[10];
		for (p = 0; p < VIDEO_MAX_PLANES; p++) {
			mp->plane_fmt[p].bytesperline = a[6];
			mp->plane_fmt[p].sizeimage = a[7];
		}
	} else {
		struct v4l2_pix_format *pix = &f->fmt.pix;

		pix->pixelformat = a[2];
		pix->width = a[3];
		pix->height = a[4];
		pix->field = a[5];
		pix->bytesperline = a[6];
		pix->sizeimage = a[7];
		pix->colorspace = a[8];
		pix->flags = a[9];
		pix->priv = V4L2_PIX_FMT_PRIV_MAGIC;
	}
}

/* The fields a driver decides; false if two formats differ in one. */
static bool same_format(const struct v4l2_format *a,
			const struct v4l2_format *b)
{
	const struct v4l2_pix_format_mplane *x = &a->fmt.pix_mp,
					    *y = &b->fmt.pix_mp;
	unsigned int p;

	if (!type_is_mplane(a->type))
		return a->fmt.pix.pixelformat == b->fmt.pix.pixelformat &&
		       a->fmt.pix.width == b->fmt.pix.width &&
		       a->fmt.pix.height == b->fmt.pix.height &&
		       a->fmt.pix.field == b->fmt.pix.field &&
		       a->fmt.pix.bytesperline == b->fmt.pix.bytesperline &&
		       a->fmt.pix.sizeimage == b->fmt.pix.sizeimage &&
		       a->fmt.pix.colorspace == b->fmt.pix.colorspace &&
		       a->fmt.pix.ycbcr_enc == b->fmt.pix.ycbcr_enc &&
		       a->fmt.pix.quantization == b->fmt.pix.quantization &&
		       a->fmt.pix.xfer_func == b->fmt.pix.xfer_func;
	if (x->pixelformat != y->pixelformat || x->width != y->width ||
	    x->height != y->height || x->field != y->field ||
	    x->num_planes != y->num_planes ||
	    x->colorspace != y->colorspace || x->ycbcr_enc != y->ycbcr_enc ||
	    x->quantization != y->quantization ||
	    x->xfer_func != y->xfer_func)
		return false;
	for (p = 0; p < x->num_planes && p < VIDEO_MAX_PLANES; p++) {
		const struct v4l2_plane_pix_format *u = &x->plane_fmt[p],
						   *v = &y->plane_fmt[p];

		if (u->bytesperline != v->bytesperline ||
		    u->sizeimage != v->sizeimage)
			return false;
	}
	return true;
}

static int do_fmt(struct exec *x, struct slot *s, const struct call *c)
{
	uint32_t type = buf_type(s, c->arg[1]);
	struct v4l2_format f, again;
	unsigned long req = c->op == OP_S_FMT ? VIDIOC_S_FMT : VIDIOC_TRY_FMT;

	fill_format(&f, type, c->arg);
	if (xioctl(s->fd, req, &f) < 0)
		return -1;
	/* TRY_FMT's answer is its own fixed point; G_FMT returns S_FMT's. */
	again = f;
	if (c->op == OP_S_FMT) {
		memset(&again.fmt, 0, sizeof(again.fmt));
		if (xioctl(s->fd, VIDIOC_G_FMT, &again) < 0)
			impossible(x, "G_FMT failed after S_FMT: %s",
				   strerror(errno));
	} else if (xioctl(s->fd, VIDIOC_TRY_FMT, &again) < 0) {
		impossible(x, "TRY_FMT refused its own result: %s",
			   strerror(errno));
	}
	if (!x->failure[0] && !same_format(&f, &again))
		impossible(x, c->op == OP_S_FMT ?
			   "G_FMT differs from what S_FMT returned" :
			   "TRY_FMT changed its own result");
	return 0;
}

static int do_create_bufs(struct slot *s, const struct call *c)
{
	struct v4l2_create_buffers cb = {
		.memory = c->arg[2], .count = c->arg[3],
	};
	uint32_t args[MAX_ARGS] = { 0 };

	/* fourcc 0: the queue's format, with sizeimage if one is given */
	cb.format.type = buf_type(s, c->arg[1]);
	if (c->arg[4]) {
		args[2] = c->arg[4];
		args[3] = c->arg[5];
		args[4] = c->arg[6];
		args[7] = c->arg[7];
		fill_format(&cb.format, cb.format.type, args);
		if (xioctl(s->fd, VIDIOC_TRY_FMT, &cb.format) < 0)
			fill_format(&cb.format, cb.format.type, args);
	} else if (xioctl(s->fd, VIDIOC_G_FMT, &cb.format) < 0) {
		return -1;
	}
	if (c->arg[7]) {
		if (type_is_mplane(cb.format.type))
			cb.format.fmt.pix_mp.plane_fmt[0].sizeimage = c->arg[7];
		else
			cb.format.fmt.pix.sizeimage = c->arg[7];
	}
	return xioctl(s->fd, VIDIOC_CREATE_BUFS, &cb);
}

/* QUERYBUF; on the multi-planar node, its plane count must be G_FMT's. */
static int query_buffer(struct exec *x, struct slot *s, struct v4l2_buffer *b,
			struct v4l2_plane *planes)
{
	struct v4l2_format f = { .type = b->type };

	b->m.planes = planes;
	b->length = VIDEO_MAX_PLANES;
	if (xioctl(s->fd, VIDIOC_QUERYBUF, b) < 0)
		return -1;
	if (type_is_mplane(b->type) &&
	    xioctl(s->fd, VIDIOC_G_FMT, &f) == 0 &&
	    b->length != f.fmt.pix_mp.num_planes)
		impossible(x, "buffer %u has %u planes, its format %u",
			   b->index, b->length, f.fmt.pix_mp.num_planes);
	return 0;
}

static void map_buffer(struct exec *x, struct slot *s, const struct call *c)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer b = {
		.type = buf_type(s, c->arg[1]), .memory = V4L2_MEMORY_MMAP,
		.index = c->arg[2],
	};
	unsigned int p, n;

	memset(planes, 0, sizeof(planes));
	if (query_buffer(x, s, &b, planes) < 0)
		return;
	n = type_is_mplane(b.type) ? b.length : 1;
	for (p = 0; p < n && s->n_maps < MAPS; p++) {
		size_t len = type_is_mplane(b.type) ? planes[p].length :
						      b.length;
		off_t off = type_is_mplane(b.type) ? planes[p].m.mem_offset :
						     b.m.offset;
		void *addr = mmap(NULL, len, PROT_READ | PROT_WRITE,
				  MAP_SHARED, s->fd, off);

		if (addr == MAP_FAILED)
			return;
		memset(addr, 0x40 + b.index, len);
		s->maps[s->n_maps++] = (struct mapping){ addr, len };
	}
}

static void unmap_all(struct slot *s)
{
	while (s->n_maps) {
		s->n_maps--;
		munmap(s->maps[s->n_maps].addr, s->maps[s->n_maps].len);
	}
}

static int dmabuf_fd(struct exec *x, const struct slot *s, uint32_t which)
{
	if (which < DMABUFS)
		return x->dmabuf[which];
	return which == DMABUF_NOT ? s->fd : -1;
}

static int do_qbuf(struct exec *x, struct slot *s, const struct call *c)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer b = {
		.type = buf_type(s, c->arg[1]), .memory = c->arg[2],
		.index = c->arg[3],
	};
	uint32_t len[VIDEO_MAX_PLANES] = { 0 }, n = 1, p;
	size_t slice = USER_POOL / USER_SLICES;
	unsigned long req = c->op == OP_QBUF ? VIDIOC_QBUF :
					       VIDIOC_PREPARE_BUF;

	/* The buffer's planes as allocated, when it is there. */
	memset(planes, 0, sizeof(planes));
	if (query_buffer(x, s, &b, planes) == 0) {
		n = type_is_mplane(b.type) ? b.length : 1;
		for (p = 0; p < n; p++)
			len[p] = type_is_mplane(b.type) ? planes[p].length :
							  b.length;
	}
	memset(&b, 0, sizeof(b));
	memset(planes, 0, sizeof(planes));
	b.type = buf_type(s, c->arg[1]);
	b.memory = c->arg[2];
	b.index = c->arg[3];
	b.field = c->arg[6];
	b.flags = c->arg[7];
	b.timestamp.tv_usec = 1000 * b.index;
	if (c->arg[10])
		n = c->arg[10];
	for (p = 0; p < n && p < VIDEO_MAX_PLANES; p++) {
		struct v4l2_plane *pl = &planes[p];
		uint32_t l = len[p] ? len[p] : 4096;

		pl->length = plane_len(c->arg[4], l);
		pl->bytesused = plane_len(c->arg[5], l);
		pl->data_offset = c->arg[8];
		if (b.memory == V4L2_MEMORY_USERPTR)
			pl->m.userptr = (unsigned long)x->user + slice *
				((b.index * VIDEO_MAX_PLANES + p) %
				 USER_SLICES);
		else if (b.memory == V4L2_MEMORY_DMABUF)
			pl->m.fd = dmabuf_fd(x, s, c->arg[9] < DMABUFS ?
					     (c->arg[9] + p) % DMABUFS :
					     c->arg[9]);
	}
	if (type_is_mplane(b.type)) {
		b.m.planes = planes;
		b.length = n;
	} else {
		b.length = planes[0].length;
		b.bytesused = planes[0].bytesused;
		b.m.userptr = planes[0].m.userptr;
		if (b.memory == V4L2_MEMORY_DMABUF)
			b.m.fd = planes[0].m.fd;
	}
	return xioctl(s->fd, req, &b);
}

static int do_dqbuf(struct exec *x, struct slot *s, const struct call *c)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer b = {
		.type = buf_type(s, c->arg[1]), .memory = c->arg[2],
		.m.planes = planes, .length = VIDEO_MAX_PLANES,
	};
	unsigned int p;

	memset(planes, 0, sizeof(planes));
	if (xioctl(s->fd, VIDIOC_DQBUF, &b) < 0)
		return -1;
	if (!type_is_mplane(b.type)) {
		if (b.bytesused > b.length)
			impossible(x, "DQBUF: %u bytes used of %u",
				   b.bytesused, b.length);
		return 0;
	}
	for (p = 0; p < b.length && p < VIDEO_MAX_PLANES; p++)
		if (planes[p].bytesused > planes[p].length)
			impossible(x, "DQBUF: plane %u: %u bytes used of %u",
				   p, planes[p].bytesused, planes[p].length);
	return 0;
}

static int do_expbuf(struct exec *x, struct slot *s, const struct call *c)
{
	struct v4l2_exportbuffer e = {
		.type = buf_type(s, c->arg[1]), .index = c->arg[2],
		.plane = c->arg[3], .flags = O_RDWR | O_CLOEXEC,
	};
	unsigned int to = c->arg[4] % DMABUFS;

	if (xioctl(s->fd, VIDIOC_EXPBUF, &e) < 0)
		return -1;
	if (x->dmabuf[to] >= 0)
		close(x->dmabuf[to]);
	x->dmabuf[to] = e.fd;
	return 0;
}

static int do_ext_ctrls(struct slot *s, const struct call *c)
{
	static const unsigned long reqs[] = {
		VIDIOC_G_EXT_CTRLS, VIDIOC_S_EXT_CTRLS, VIDIOC_TRY_EXT_CTRLS,
	};
	struct v4l2_ext_control ctrl[2] = {
		{ .id = c->arg[4], .value = (int32_t)c->arg[5] },
		{ .id = c->arg[6], .value = (int32_t)c->arg[7] },
	};
	struct v4l2_ext_controls ec = {
		.which = c->arg[2] ? V4L2_CTRL_WHICH_DEF_VAL :
				     V4L2_CTRL_WHICH_CUR_VAL,
		.count = c->arg[3] > 2 ? 2 : c->arg[3],
		.controls = ctrl,
	};

	return xioctl(s->fd, reqs[c->arg[1] % 3], &ec);
}

static int do_selection(struct slot *s, const struct call *c)
{
	struct v4l2_selection sel = {
		.type = buf_type(s, c->arg[1]), .target = c->arg[2],
	};

	if (c->op == OP_G_SELECTION)
		return xioctl(s->fd, VIDIOC_G_SELECTION, &sel);
	sel.flags = c->arg[3];
	sel.r.left = (int32_t)c->arg[4];
	sel.r.top = (int32_t)c->arg[5];
	sel.r.width = c->arg[6];
	sel.r.height = c->arg[7];
	return xioctl(s->fd, VIDIOC_S_SELECTION, &sel);
}

static int do_poll(struct exec *x, struct slot *s, const struct call *c)
{
	struct pollfd pfd = { .fd = s->fd };
	int ret;

	if (c->arg[1] & 1)
		pfd.events |= POLLIN;
	if (c->arg[1] & 2)
		pfd.events |= POLLOUT;
	if (c->arg[1] & 4)
		pfd.events |= POLLPRI;
	do
		ret = poll(&pfd, 1, c->arg[2] > POLL_MAX_MS ? POLL_MAX_MS :
				    (int)c->arg[2]);
	while (ret < 0 && errno == EINTR);
	if (ret < 0)
		impossible(x, "poll: %s", strerror(errno));
	else if (pfd.revents & POLLNVAL)
		impossible(x, "poll on an open file: POLLNVAL");
	return ret < 0 ? -1 : 0;
}

/*
 * Pulses and spaces of 1, 2 and 3 times a duration; past rc-core's 1024
 * they must be refused, and rc-core refuses more than 500 ms in all,
 * which bounds the time the write sleeps while they are "sent".
 */
static int do_lirc_pulses(struct slot *s, const struct call *c)
{
	static uint32_t durations[1100];
	unsigned int n = c->arg[1] < ARRAY_SIZE(durations) ? c->arg[1] :
			 ARRAY_SIZE(durations), i;

	for (i = 0; i < n; i++)
		durations[i] = c->arg[2] * (1 + i % 3);
	return write(s->fd, durations, n * sizeof(uint32_t)) < 0 ? -1 : 0;
}

static int do_lirc_send(struct slot *s, const struct call *c)
{
	struct lirc_scancode sc = {
		.rc_proto = c->arg[1], .scancode = c->arg[2],
	};

	return write(s->fd, &sc, sizeof(sc)) < 0 ? -1 : 0;
}

/* A parameter of vhqv's, written; the program's end writes it back. */
static int set_param(const char *name, uint32_t value)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/vhqv/parameters/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%" PRIu32 "\n", value);
	return fclose(f) ? -1 : 0;
}

static int do_ir_noise(struct exec *x, const struct call *c)
{
	x->noisy = true;
	if (set_param("ir_jitter_us", c->arg[1]) ||
	    set_param("ir_glitch_permille", c->arg[2]))
		return -1;
	return set_param("ir_seed", c->arg[3]);
}

static int do_stats(void)
{
	char buf[4096];
	int fd = open(stats_path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return n < 0 ? -1 : 0;
}

static void close_slot(struct slot *s)
{
	if (s->fd < 0)
		return;
	/* Closed first: the buffers outlive the file in their mappings. */
	close(s->fd);
	s->fd = -1;
	unmap_all(s);
}

static int do_open(struct slot *s, const struct call *c)
{
	enum node n = c->arg[1] < n_nodes ? c->arg[1] : NODE_VIDEO;

	close_slot(s);
	s->fd = open(nodes[n].path, O_RDWR | O_NONBLOCK);
	s->node = n;
	return s->fd < 0 ? -1 : 0;
}

/* The call on its slot: the ioctl's result, 0 or -1 with errno. */
static int do_call(struct exec *x, struct slot *s, const struct call *c)
{
	const uint32_t *a = c->arg;
	union {
		struct v4l2_capability cap;
		struct v4l2_fmtdesc fd;
		struct v4l2_frmsizeenum fs;
		struct v4l2_format f;
		struct v4l2_requestbuffers rb;
		struct v4l2_buffer b;
		struct v4l2_control ctrl;
		struct v4l2_query_ext_ctrl qc;
		struct v4l2_querymenu qm;
		struct v4l2_encoder_cmd ec;
		struct v4l2_decoder_cmd dc;
		struct v4l2_event_subscription sub;
		struct v4l2_event ev;
		uint32_t u32[64];
		int type;
	} u;
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	static const uint32_t next[] = {
		0, V4L2_CTRL_FLAG_NEXT_CTRL, V4L2_CTRL_FLAG_NEXT_COMPOUND,
		V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND,
	};

	memset(&u, 0, sizeof(u));
	switch (c->op) {
	case OP_OPEN:
		return do_open(s, c);
	case OP_CLOSE:
		close_slot(s);
		return 0;
	case OP_QUERYCAP:
		return xioctl(s->fd, VIDIOC_QUERYCAP, &u.cap);
	case OP_ENUM_FMT:
		u.fd.type = buf_type(s, a[1]);
		u.fd.index = a[2];
		return xioctl(s->fd, VIDIOC_ENUM_FMT, &u.fd);
	case OP_ENUM_FRAMESIZES:
		u.fs.pixel_format = a[2];
		u.fs.index = a[3];
		return xioctl(s->fd, VIDIOC_ENUM_FRAMESIZES, &u.fs);
	case OP_G_FMT:
		u.f.type = buf_type(s, a[1]);
		return xioctl(s->fd, VIDIOC_G_FMT, &u.f);
	case OP_S_FMT:
	case OP_TRY_FMT:
		return do_fmt(x, s, c);
	case OP_REQBUFS:
		u.rb.type = buf_type(s, a[1]);
		u.rb.memory = a[2];
		u.rb.count = a[3];
		if (xioctl(s->fd, VIDIOC_REQBUFS, &u.rb) < 0)
			return -1;
		if (!a[3] != !u.rb.count)
			impossible(x, "REQBUFS(%u) gave %u buffers", a[3],
				   u.rb.count);
		return 0;
	case OP_CREATE_BUFS:
		return do_create_bufs(s, c);
	case OP_QUERYBUF:
		u.b.type = buf_type(s, a[1]);
		u.b.memory = a[2];
		u.b.index = a[3];
		return query_buffer(x, s, &u.b, planes);
	case OP_MMAP:
		map_buffer(x, s, c);
		return 0;
	case OP_MUNMAP:
		if (s->n_maps) {
			struct mapping *m = &s->maps[a[1] % s->n_maps];

			munmap(m->addr, m->len);
			*m = s->maps[--s->n_maps];
		}
		return 0;
	case OP_QBUF:
	case OP_PREPARE_BUF:
		return do_qbuf(x, s, c);
	case OP_DQBUF:
		return do_dqbuf(x, s, c);
	case OP_EXPBUF:
		return do_expbuf(x, s, c);
	case OP_STREAMON:
	case OP_STREAMOFF:
		u.type = buf_type(s, a[1]);
		return xioctl(s->fd, c->op == OP_STREAMON ? VIDIOC_STREAMON :
				     VIDIOC_STREAMOFF, &u.type);
	case OP_S_CTRL:
	case OP_G_CTRL:
		u.ctrl.id = a[1];
		u.ctrl.value = (int32_t)a[2];
		return xioctl(s->fd, c->op == OP_S_CTRL ? VIDIOC_S_CTRL :
				     VIDIOC_G_CTRL, &u.ctrl);
	case OP_EXT_CTRLS:
		return do_ext_ctrls(s, c);
	case OP_QUERYCTRL:
		u.qc.id = a[1] | next[a[2] % 4];
		return xioctl(s->fd, VIDIOC_QUERY_EXT_CTRL, &u.qc);
	case OP_QUERYMENU:
		u.qm.id = a[1];
		u.qm.index = a[2];
		return xioctl(s->fd, VIDIOC_QUERYMENU, &u.qm);
	case OP_ENC_CMD:
	case OP_TRY_ENC_CMD:
		u.ec.cmd = a[1];
		u.ec.flags = a[2];
		return xioctl(s->fd, c->op == OP_ENC_CMD ? VIDIOC_ENCODER_CMD :
				     VIDIOC_TRY_ENCODER_CMD, &u.ec);
	case OP_DEC_CMD:
		u.dc.cmd = a[1];
		u.dc.flags = a[2];
		return xioctl(s->fd, VIDIOC_DECODER_CMD, &u.dc);
	case OP_SUBSCRIBE:
	case OP_UNSUBSCRIBE:
		u.sub.type = a[1];
		u.sub.id = a[2];
		u.sub.flags = c->op == OP_SUBSCRIBE ? a[3] : 0;
		return xioctl(s->fd, c->op == OP_SUBSCRIBE ?
				     VIDIOC_SUBSCRIBE_EVENT :
				     VIDIOC_UNSUBSCRIBE_EVENT, &u.sub);
	case OP_DQEVENT:
		return xioctl(s->fd, VIDIOC_DQEVENT, &u.ev);
	case OP_G_SELECTION:
	case OP_S_SELECTION:
		return do_selection(s, c);
	case OP_POLL:
		return do_poll(x, s, c);
	case OP_PRIORITY:
		u.type = a[1];
		return xioctl(s->fd, VIDIOC_S_PRIORITY, &u.type);
	case OP_LIRC_GET:
		return xioctl(s->fd, a[1], &u.u32[0]);
	case OP_LIRC_SET:
		u.u32[0] = a[2];
		return xioctl(s->fd, a[1], &u.u32[0]);
	case OP_LIRC_SEND:
		return do_lirc_send(s, c);
	case OP_LIRC_PULSES:
		return do_lirc_pulses(s, c);
	case OP_LIRC_READ:
		return read(s->fd, u.u32, sizeof(u.u32)) < 0 ? -1 : 0;
	case OP_IR_NOISE:
		return do_ir_noise(x, c);
	case OP_STATS:
		return do_stats();
	case OPS:
		break;
	}
	return 0;
}

/*
 * The calls that may meet EFAULT: a USERPTR buffer that runs past the
 * memory, and a DMABUF one smaller than the plane, which videobuf2's
 * vmalloc allocator refuses with EFAULT (vb2_vmalloc_attach_dmabuf()).
 */
static bool may_fault(const struct call *c)
{
	return (c->op == OP_QBUF || c->op == OP_PREPARE_BUF) &&
	       (c->arg[2] == V4L2_MEMORY_USERPTR ||
		c->arg[2] == V4L2_MEMORY_DMABUF);
}

/* Whether the call applies to its slot: no call on a closed file. */
static bool applies(const struct exec *x, const struct call *c)
{
	const struct slot *s;

	if (ops[c->op].on == ON_NONE)
		return c->op != OP_POLL || x->slot[c->arg[0]].fd >= 0;
	s = &x->slot[c->arg[0]];
	if (s->fd < 0)
		return false;
	return (ops[c->op].on == ON_LIRC) == (s->node == NODE_LIRC);
}

static void run_call(struct exec *x, const struct call *c)
{
	struct slot *s = &x->slot[op_args(c->op) ? c->arg[0] : 0];
	int ret, err;

	if (!applies(x, c))
		return;
	alarm(CALL_TIMEOUT_S);
	errno = 0;
	ret = do_call(x, s, c);
	err = errno;
	alarm(0);
	x->calls[c->op]++;
	if (ret == 0)
		x->ok[c->op]++;
	if (x->verbose) {
		printf("%-24s ", ret ? strerror(err) : "ok");
		print_call(stdout, c);
	}
	if (ret == 0)
		return;
	if (err >= 512)
		impossible(x, "%s: errno %d, the kernel's own", ops[c->op].name,
			   err);
	else if (err == EFAULT && !may_fault(c))
		impossible(x, "%s: EFAULT with the fuzzer's own memory",
			   ops[c->op].name);
}

static void exec_init(struct exec *x)
{
	unsigned int i;

	memset(x, 0, sizeof(*x));
	for (i = 0; i < SLOTS; i++)
		x->slot[i].fd = -1;
	for (i = 0; i < DMABUFS; i++)
		x->dmabuf[i] = -1;
	x->user = aligned_alloc(4096, USER_POOL);
	if (!x->user)
		die("out of memory");
	memset(x->user, 0x5a, USER_POOL);
}

/* The program on fresh files; false if a result was impossible. */
static bool run_program(struct exec *x, const struct program *p)
{
	unsigned int i;

	running = p;
	x->failure[0] = 0;
	for (i = 0; i < p->n && !x->failure[0]; i++) {
		running_call = i;
		run_call(x, &p->calls[i]);
	}
	for (i = 0; i < SLOTS; i++)
		close_slot(&x->slot[i]);
	for (i = 0; i < DMABUFS; i++) {
		if (x->dmabuf[i] >= 0)
			close(x->dmabuf[i]);
		x->dmabuf[i] = -1;
	}
	if (x->noisy) {
		set_param("ir_jitter_us", 0);
		set_param("ir_glitch_permille", 0);
		set_param("ir_seed", 1);
		x->noisy = false;
	}
	if (!x->failure[0])
		return true;
	fprintf(stderr, "%s: impossible result at call %u: %s\n", prog_name,
		running_call + 1, x->failure);
	fprintf(stderr, "%s: the program:\n", prog_name);
	print_program(stderr, p);
	return false;
}

/*
 * Coverage: a hash set of 64-bit values (edges, PCs)
 */

struct set {
	uint64_t *v;
	size_t cap, n;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x ? x : 1;
}

static bool set_add(struct set *s, uint64_t v);

static void set_grow(struct set *s)
{
	struct set bigger = { .cap = s->cap ? s->cap * 2 : 1 << 16 };
	size_t i;

	bigger.v = xcalloc(bigger.cap, sizeof(uint64_t));
	for (i = 0; i < s->cap; i++)
		if (s->v[i])
			set_add(&bigger, s->v[i]);
	free(s->v);
	*s = bigger;
}

static bool set_has(const struct set *s, uint64_t v)
{
	size_t i;

	if (!s->cap)
		return false;
	for (i = mix(v) & (s->cap - 1); s->v[i]; i = (i + 1) & (s->cap - 1))
		if (s->v[i] == v)
			return true;
	return false;
}

/* v != 0; true if it was not there. */
static bool set_add(struct set *s, uint64_t v)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap)
		set_grow(s);
	for (i = mix(v) & (s->cap - 1); s->v[i]; i = (i + 1) & (s->cap - 1))
		if (s->v[i] == v)
			return false;
	s->v[i] = v;
	s->n++;
	return true;
}

struct cover {
	int fd;
	unsigned long *area;
};

static bool cover_open(struct cover *c)
{
	c->fd = open("/sys/kernel/debug/kcov", O_RDWR);
	if (c->fd < 0)
		return false;
	if (ioctl(c->fd, KCOV_INIT_TRACE, COVER_WORDS) < 0)
		die("KCOV_INIT_TRACE: %s", strerror(errno));
	c->area = mmap(NULL, COVER_WORDS * sizeof(unsigned long),
		       PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (c->area == MAP_FAILED)
		die("mmap of kcov: %s", strerror(errno));
	return true;
}

static void cover_reset(struct cover *c)
{
	__atomic_store_n(&c->area[0], 0, __ATOMIC_RELAXED);
}

/* The trace's edges and PCs into the sets; how many edges were new. */
static size_t cover_collect(const struct cover *c, struct set *edges,
			    struct set *pcs)
{
	unsigned long n = __atomic_load_n(&c->area[0], __ATOMIC_RELAXED), i;
	uint64_t prev = 0;
	size_t fresh = 0;

	if (n > COVER_WORDS - 1)
		n = COVER_WORDS - 1;
	for (i = 0; i < n; i++) {
		uint64_t pc = c->area[i + 1];

		fresh += set_add(edges, mix(pc ^ (prev << 1 | prev >> 63)));
		set_add(pcs, pc);
		prev = pc;
	}
	return fresh;
}

/*
 * The fuzzing loop, in a thread of its own (see the top of the file)
 */

/*
 * A program of the corpus; when reducing, its file, its own edges, and
 * whether it is in the corpus already (or chosen).
 */
struct entry {
	struct program prog;
	char *path;
	struct set edges;
	bool base;
};

struct fuzzer {
	struct exec x;
	struct cover local, remote;
	bool coverage;
	struct set edges, pcs;
	struct entry **corpus;
	size_t n_corpus, cap_corpus;
	const char **corpus_dirs;
	unsigned int n_corpus_dirs;
	const char *out_dir, *reduce_dir;
	unsigned int reduce_most;
	unsigned int seconds;
	unsigned long runs, from_corpus, mutated, kept;
	bool failed;
};

static struct entry *corpus_add(struct fuzzer *z, const struct program *p)
{
	if (z->n_corpus == z->cap_corpus) {
		z->cap_corpus = z->cap_corpus ? 2 * z->cap_corpus : 256;
		z->corpus = realloc(z->corpus,
				    z->cap_corpus * sizeof(*z->corpus));
		if (!z->corpus)
			die("out of memory");
	}
	z->corpus[z->n_corpus] = xcalloc(1, sizeof(struct entry));
	z->corpus[z->n_corpus]->prog = *p;
	return z->corpus[z->n_corpus++];
}

static void write_program(const char *dir, const struct program *p)
{
	char path[4096], *text;
	size_t len, i;
	uint64_t hash = 0xcbf29ce484222325ull;
	FILE *mem = open_memstream(&text, &len), *f;

	if (!mem)
		die("out of memory");
	print_program(mem, p);
	fclose(mem);
	for (i = 0; i < len; i++)
		hash = (hash ^ (uint8_t)text[i]) * 0x100000001b3ull;
	snprintf(path, sizeof(path), "%s/%016" PRIx64, dir, hash);
	f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		die("cannot write %s", path);
	free(text);
}

/*
 * Runs a program: the edges new to `edges` (the fuzzer's, or the
 * program's own when reducing), or -1 if a result was impossible.
 */
static long run_covered(struct fuzzer *z, const struct program *p,
			struct set *edges)
{
	size_t fresh;

	if (z->coverage) {
		cover_reset(&z->local);
		cover_reset(&z->remote);
	}
	z->runs++;
	if (!run_program(&z->x, p))
		return -1;
	if (!z->coverage)
		return 0;
	fresh = cover_collect(&z->local, edges, &z->pcs);
	fresh += cover_collect(&z->remote, edges, &z->pcs);
	return fresh;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static bool run_corpus_dir(struct fuzzer *z, const char *dir)
{
	struct dirent **names;
	struct program p;
	struct entry *e;
	struct set mine;
	char path[4096];
	size_t k;
	int n, i;

	n = scandir(dir, &names, NULL, by_name);
	if (n < 0)
		die("cannot read %s: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (!load_program(path, &p))
			continue;
		z->from_corpus++;
		memset(&mine, 0, sizeof(mine));
		if (run_covered(z, &p, z->reduce_dir ? &mine : &z->edges) < 0) {
			fprintf(stderr, "%s: (corpus program %s)\n", prog_name,
				path);
			return false;
		}
		e = corpus_add(z, &p);
		if (!z->reduce_dir)
			continue;
		for (k = 0; k < mine.cap; k++)
			if (mine.v[k])
				set_add(&z->edges, mine.v[k]);
		e->edges = mine;
		e->path = strdup(path);
		e->base = dir == z->corpus_dirs[0];
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return true;
}

static void copy_file(const char *path, const char *dir)
{
	const char *base = strrchr(path, '/');
	char to[4096], buf[4096];
	FILE *in = fopen(path, "r"), *out;
	size_t n;

	snprintf(to, sizeof(to), "%s/%s", dir, base ? base + 1 : path);
	out = fopen(to, "w");
	if (!in || !out)
		die("cannot copy %s to %s", path, dir);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			die("cannot write %s", to);
	fclose(in);
	if (fclose(out))
		die("cannot write %s", to);
}

static void reach(struct set *reached, const struct entry *e)
{
	size_t k;

	for (k = 0; k < e->edges.cap; k++)
		if (e->edges.v[k])
			set_add(reached, e->edges.v[k]);
}

/*
 * What other programs add to the corpus (the first -c directory): the
 * program that adds the most edges not yet reached, again and again,
 * until nothing is left that adds one; their files are copied to the
 * reduce directory.
 */
static void reduce(struct fuzzer *z)
{
	struct set reached = { 0 };
	size_t i, k, best, gain, best_gain, chosen = 0, base = 0;
	struct entry *e;

	while (base < z->n_corpus && z->corpus[base]->base)
		reach(&reached, z->corpus[base++]);
	printf("%s: reduce: the corpus's %zu programs reach %zu edges\n",
	       prog_name, base, reached.n);
	while (chosen < z->reduce_most) {
		best = 0;
		best_gain = 0;
		for (i = 0; i < z->n_corpus; i++) {
			e = z->corpus[i];
			gain = 0;
			for (k = 0; k < e->edges.cap; k++)
				gain += e->edges.v[k] &&
					!set_has(&reached, e->edges.v[k]);
			if (gain > best_gain) {
				best = i;
				best_gain = gain;
			}
		}
		if (!best_gain)
			break;
		e = z->corpus[best];
		e->base = true;
		reach(&reached, e);
		copy_file(e->path, z->reduce_dir);
		chosen++;
		printf("%s: reduce: %s adds %zu edges\n", prog_name, e->path,
		       best_gain);
	}
	printf("%s: reduce: %zu programs of %zu chosen, %zu edges in all\n",
	       prog_name, chosen, z->n_corpus - base, reached.n);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *fuzz_thread(void *arg)
{
	struct fuzzer *z = arg;
	const struct entry *other;
	struct program p;
	unsigned int i;
	double end;
	long fresh;

	if (z->coverage && ioctl(z->local.fd, KCOV_ENABLE, KCOV_TRACE_PC) < 0)
		die("KCOV_ENABLE: %s", strerror(errno));
	for (i = 0; i < z->n_corpus_dirs; i++)
		if (!run_corpus_dir(z, z->corpus_dirs[i])) {
			z->failed = true;
			return NULL;
		}
	printf("%s: corpus: %lu programs, %zu edges\n", prog_name,
	       z->from_corpus, z->edges.n);
	fflush(stdout);
	if (z->reduce_dir) {
		reduce(z);
		return NULL;
	}
	end = now() + z->seconds;
	while (now() < end) {
		if (z->n_corpus && !chance(5)) {
			p = z->corpus[below(z->n_corpus)]->prog;
			for (i = 0; i < 1 + below(3); i++) {
				other = z->corpus[below(z->n_corpus)];
				mutate(&p, &other->prog);
			}
			z->mutated++;
		} else {
			gen_program(&p);
		}
		if (!p.n)
			continue;
		fresh = run_covered(z, &p, &z->edges);
		if (fresh < 0) {
			if (z->out_dir)
				write_program(z->out_dir, &p);
			z->failed = true;
			return NULL;
		}
		if (fresh > 0) {
			corpus_add(z, &p);
			z->kept++;
			if (z->out_dir)
				write_program(z->out_dir, &p);
		}
	}
	return NULL;
}

/*
 * The report: vhqv's functions reached, from /proc/kallsyms
 */

struct sym {
	uint64_t addr;
	char *name;	/* without a suffix such as .isra.0 or .cold */
	char *module;	/* NULL: the kernel's own */
	bool reached;
};

static int by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static struct sym *load_kallsyms(size_t *n)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], module[64], type;
	struct sym *syms = NULL;
	size_t cap = 0;
	uint64_t addr;
	int fields;

	if (!f)
		die("cannot open /proc/kallsyms: %s", strerror(errno));
	*n = 0;
	while (fgets(line, sizeof(line), f)) {
		fields = sscanf(line, "%" SCNx64 " %c %255s [%63[^]]]", &addr,
				&type, name, module);
		if (fields < 3 || (type != 't' && type != 'T'))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 4096;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				die("out of memory");
		}
		name[strcspn(name, ".")] = 0;
		syms[*n] = (struct sym){
			addr, strdup(name), fields == 4 ? strdup(module) : NULL,
			false,
		};
		(*n)++;
	}
	fclose(f);
	if (!*n || !syms[*n - 1].addr)
		die("/proc/kallsyms shows no addresses (not root?)");
	qsort(syms, *n, sizeof(*syms), by_addr);
	return syms;
}

static void mark_reached(struct sym *syms, size_t n, const struct set *pcs)
{
	size_t i, lo, hi, mid;

	for (i = 0; i < pcs->cap; i++) {
		uint64_t pc = pcs->v[i];

		if (!pc || pc < syms[0].addr)
			continue;
		lo = 0;
		hi = n;
		while (hi - lo > 1) {
			mid = (lo + hi) / 2;
			if (syms[mid].addr <= pc)
				lo = mid;
			else
				hi = mid;
		}
		syms[lo].reached = true;
	}
}

/* 1: reached, 0: in the module but not reached, -1: not in it. */
static int function_state(const struct sym *syms, size_t n,
			  const char *module, const char *name)
{
	int state = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!syms[i].module || strcmp(syms[i].module, module) ||
		    strcmp(syms[i].name, name))
			continue;
		if (syms[i].reached)
			return 1;
		state = 0;
	}
	return state;
}

struct tally {
	char module[64];
	unsigned int reached, present;
	char *unreached, *absent;
	size_t unreached_len, absent_len;
	FILE *unreached_f, *absent_f;
};

/*
 * Prints, per module, the functions of -F reached; false if one of the
 * functions that must be reached was not.
 */
static bool report_functions(const struct set *pcs, const char *list,
			     const char **required, unsigned int n_required)
{
	struct tally t[8];
	unsigned int n_t = 0;
	char line[512], module[64], object[128], name[256];
	size_t n_syms, i, k;
	struct sym *syms = load_kallsyms(&n_syms);
	FILE *f = fopen(list, "r");
	bool ok = true;
	int state;

	if (!f)
		die("cannot open %s: %s", list, strerror(errno));
	mark_reached(syms, n_syms, pcs);
	/* The modules' functions are what the report names. */
	for (i = k = 0; i < n_syms; i++) {
		if (syms[i].module)
			syms[k++] = syms[i];
		else
			free(syms[i].name);
	}
	n_syms = k;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %127s %255s", module, object, name) != 3)
			continue;
		/* objtool's padding before each function is not one */
		if (!strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6))
			continue;
		name[strcspn(name, ".")] = 0;
		for (k = 0; k < n_t && strcmp(t[k].module, module); k++)
			;
		if (k == n_t) {
			if (n_t == ARRAY_SIZE(t))
				continue;
			memset(&t[k], 0, sizeof(t[k]));
			snprintf(t[k].module, sizeof(t[k].module), "%s",
				 module);
			t[k].unreached_f = open_memstream(&t[k].unreached,
							  &t[k].unreached_len);
			t[k].absent_f = open_memstream(&t[k].absent,
						       &t[k].absent_len);
			n_t++;
		}
		state = function_state(syms, n_syms, module, name);
		if (state < 0) {
			fprintf(t[k].absent_f, " %s", name);
			continue;
		}
		t[k].present++;
		if (state > 0)
			t[k].reached++;
		else
			fprintf(t[k].unreached_f, " %s (%s)", name, object);
	}
	fclose(f);
	for (k = 0; k < n_t; k++) {
		fclose(t[k].unreached_f);
		fclose(t[k].absent_f);
		printf("%s: %s: %u of %u functions reached (%u%%)\n", prog_name,
		       t[k].module, t[k].reached, t[k].present,
		       t[k].present ? 100 * t[k].reached / t[k].present : 0);
		printf("%s: %s: never reached:%s\n", prog_name, t[k].module,
		       t[k].unreached_len ? t[k].unreached : " none");
		if (t[k].absent_len)
			printf("%s: %s: not in the running module (init "
			       "code, freed once loaded):%s\n", prog_name,
			       t[k].module, t[k].absent);
		free(t[k].unreached);
		free(t[k].absent);
	}
	for (i = 0; i < n_required; i++) {
		size_t j;
		bool reached = false;

		for (j = 0; j < n_syms; j++)
			reached |= syms[j].reached &&
				   !strcmp(syms[j].name, required[i]);
		if (!reached) {
			fprintf(stderr, "%s: %s was never reached: coverage "
				"does not reach it (-R)\n", prog_name,
				required[i]);
			ok = false;
		}
	}
	for (i = 0; i < n_syms; i++) {
		free(syms[i].name);
		free(syms[i].module);
	}
	free(syms);
	return ok;
}

static void print_calls(const struct exec *x)
{
	unsigned int op;

	printf("%s: calls made (succeeded/made):", prog_name);
	for (op = 0; op < OPS; op++)
		if (x->calls[op])
			printf(" %s %lu/%lu", ops[op].name, x->ok[op],
			       x->calls[op]);
	printf("\n");
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [-t SECONDS] [-s SEED] [-c CORPUS]... [-o DIR] "
		"[-F FUNCTIONS] [-R FUNCTION]... [-S STATS] [-n] "
		"VIDEO MPLANE_VIDEO [LIRC]\n"
		"       %s -m DIR [-M MOST] -c CORPUS... [-S STATS] "
		"VIDEO MPLANE_VIDEO [LIRC]\n"
		"       %s -r PROGRAM [-S STATS] VIDEO MPLANE_VIDEO [LIRC]\n",
		prog_name, prog_name, prog_name);
	exit(2);
}

static unsigned long number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	static struct fuzzer z = {
		.seconds = 120, .coverage = true, .reduce_most = 40,
	};
	static const char *dirs[16], *required[16];
	const char *functions = NULL, *replay = NULL;
	unsigned int n_required = 0;
	unsigned long seed = 26;
	struct kcov_remote_arg remote = { .trace_mode = KCOV_TRACE_PC };
	pthread_t thread;
	double start;
	int opt, i;

	while ((opt = getopt(argc, argv, "t:s:c:o:m:M:F:R:S:nr:")) != -1) {
		switch (opt) {
		case 't':
			z.seconds = number(optarg);
			break;
		case 's':
			seed = number(optarg);
			break;
		case 'c':
			if (z.n_corpus_dirs == ARRAY_SIZE(dirs))
				usage();
			dirs[z.n_corpus_dirs++] = optarg;
			break;
		case 'o':
			z.out_dir = optarg;
			break;
		case 'm':
			z.reduce_dir = optarg;
			break;
		case 'M':
			z.reduce_most = number(optarg);
			break;
		case 'F':
			functions = optarg;
			break;
		case 'R':
			if (n_required == ARRAY_SIZE(required))
				usage();
			required[n_required++] = optarg;
			break;
		case 'S':
			stats_path = optarg;
			break;
		case 'n':
			z.coverage = false;
			break;
		case 'r':
			replay = optarg;
			break;
		default:
			usage();
		}
	}
	if (argc - optind < 2 || argc - optind > 3 ||
	    (z.reduce_dir && (!z.coverage || !z.n_corpus_dirs)))
		usage();
	for (i = optind; i < argc; i++)
		nodes[n_nodes++].path = argv[i];
	learn_node(NODE_VIDEO);
	learn_node(NODE_MPLANE);
	rng_seed(seed);
	exec_init(&z.x);
	signal(SIGALRM, on_alarm);
	signal(SIGPIPE, SIG_IGN);

	if (replay) {
		struct program p;

		z.x.verbose = true;
		if (!load_program(replay, &p))
			die("%s has no calls", replay);
		return run_program(&z.x, &p) ? 0 : 1;
	}

	/*
	 * The frames' coverage goes to this thread's kcov, through the common
	 * handle that the fuzzing thread inherits when it is created.
	 */
	z.corpus_dirs = dirs;
	if (z.coverage) {
		if (!cover_open(&z.remote) || !cover_open(&z.local))
			die("cannot open /sys/kernel/debug/kcov: %s (a kernel "
			    "with KCOV, debugfs mounted; -n runs without)",
			    strerror(errno));
		remote.area_size = COVER_WORDS;
		remote.common_handle = kcov_remote_handle(KCOV_SUBSYSTEM_COMMON,
							  getpid());
		if (ioctl(z.remote.fd, KCOV_REMOTE_ENABLE, &remote) < 0)
			die("KCOV_REMOTE_ENABLE: %s", strerror(errno));
	}
	printf("%s: seed %lu, %u s after the corpus, nodes", prog_name, seed,
	       z.seconds);
	for (i = 0; i < (int)n_nodes; i++)
		printf(" %s", nodes[i].path);
	printf("\n");
	fflush(stdout);
	start = now();
	if (pthread_create(&thread, NULL, fuzz_thread, &z) ||
	    pthread_join(thread, NULL))
		die("cannot run the fuzzing thread");

	print_calls(&z.x);
	printf("%s: %lu programs run in %.0f s (%lu from the corpus, %lu "
	       "mutated, the rest new); %zu edges, %zu PCs; %lu programs "
	       "kept\n", prog_name, z.runs, now() - start, z.from_corpus,
	       z.mutated, z.edges.n, z.pcs.n, z.kept);
	if (z.failed)
		return 1;
	if (z.coverage && !z.edges.n)
		die("no edge at all: KCOV does not reach vhqv");
	if (z.coverage && functions &&
	    !report_functions(&z.pcs, functions, required, n_required))
		return 1;
	return 0;
}
