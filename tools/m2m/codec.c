// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * m2m decode: a coded stream through a stateful decoder node
 * (include/m2m/codec.h). The coded side is the layout v4l2-ctl's
 * --stream-to-hdr writes and --stream-from-hdr reads: each frame is the
 * fourcc "Vhdr" and its length, as big-endian words, then its bytes. The
 * raw side is the visible picture of each frame (the decoder's COMPOSE
 * rectangle, not its coded size) tightly packed, as v4l2-ctl --stream-to
 * writes a codec's frames: back to back for OUT ending in .yuv, whose
 * size may change mid-stream, else in Y4M, which cannot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <m2m/codec.h>
#include <m2m/m2m.h>

#include "m2m-tool.h"
#include "media.h"

#define VERB "decode"
#define HDR_ID M2M_FOURCC('V', 'h', 'd', 'r')
#define MAX_CONTROLS 16

const char decode_help[] =
	"usage: m2m decode [-d DEV] [-c CODED] [-n COUNT] IN OUT\n"
	"\n"
	"Decode a coded stream on a stateful decoder (vicodec's, or any m2m\n"
	"decoder node), as the kernel's dev-decoder.rst says: resolution\n"
	"changes mid-stream, and a drain at the end that loses no frame.\n"
	"\n"
	"IN is a stream as `v4l2-ctl --stream-to-hdr` writes it, or FWHT frames\n"
	"back to back as GStreamer's v4l2fwhtenc makes them (- for stdin).\n"
	"OUT gets each frame's visible picture, tightly packed, as\n"
	"`v4l2-ctl --stream-to` writes a decoder's frames: back to back when\n"
	"OUT ends in .yuv (any name but .y4m and -), where the size may change\n"
	"mid-stream; in Y4M for .y4m or - (stdout), which fails when it does.\n"
	"\n"
	"  -d, --device DEV   a decoder node, or a driver name (default: the\n"
	"                     first m2m node whose OUTPUT takes CODED)\n"
	"  -c, --coded FMT    the coded format's fourcc (default: FWHT)\n"
	"  -n, --count N      stop after N frames\n";

static const struct option options[] = {
	{ "device", required_argument, NULL, 'd' },
	{ "coded", required_argument, NULL, 'c' },
	{ "count", required_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

const char encode_help[] =
	"usage: m2m encode [-d DEV] [-c CODED] [-C NAME=VALUE]... [-n COUNT]\n"
	"                  [-s WxH -f FORMAT] IN OUT\n"
	"\n"
	"Encode frames on a stateful encoder (vicodec's, or any m2m encoder\n"
	"node), as the kernel's dev-encoder.rst says.\n"
	"\n"
	"IN is Y4M (- for stdin), or raw frames back to back with --size and\n"
	"--format. OUT gets the stream as `v4l2-ctl --stream-to-hdr` writes it\n"
	"(- for stdout): each frame is the fourcc Vhdr and its length, as\n"
	"big-endian words, then its bytes.\n"
	"\n"
	"  -d, --device DEV       an encoder node, or a driver name (default:\n"
	"                         the first m2m node whose CAPTURE makes CODED)\n"
	"  -c, --coded FMT        the coded format's fourcc (default: FWHT)\n"
	"  -C, --control N=V      set a control before encoding, by name as\n"
	"                         `m2m info` lists them (gop_size=5); it is read\n"
	"                         back, and one the encoder does not keep fails\n"
	"  -n, --count N          stop after N frames\n"
	"  -s, --size WxH         raw input's size\n"
	"  -f, --format FORMAT    raw input's format (yuv420, nv12, ...)\n";

static const struct option encode_options[] = {
	{ "device", required_argument, NULL, 'd' },
	{ "coded", required_argument, NULL, 'c' },
	{ "control", required_argument, NULL, 'C' },
	{ "count", required_argument, NULL, 'n' },
	{ "size", required_argument, NULL, 's' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* Room for size bytes in *buf; 0, or -1 after printing why. */
static int grow(unsigned char **buf, size_t *cap, size_t size)
{
	unsigned char *bigger;

	if (size <= *cap)
		return 0;
	bigger = realloc(*buf, size);
	if (!bigger)
		return failure(VERB, "no memory for a frame of %zu bytes",
			       size), -1;
	*buf = bigger;
	*cap = size;
	return 0;
}

/*
 * The next frame of IN into *buf: its size, 0 at the end, or -1 after
 * printing why. IN is v4l2-ctl's --stream-to-hdr layout, or FWHT frames
 * back to back (as GStreamer's v4l2fwhtenc and filesink write them),
 * split by each frame's own header (m2m_fwht_parse_header()).
 */
static long read_packet(FILE *in, const char *path, unsigned char **buf,
			size_t *cap)
{
	unsigned char word[8];
	size_t n = fread(word, 1, sizeof(word), in);
	struct m2m_fwht_header hdr;
	long whole;
	uint32_t size;

	if (n == 0 && feof(in))
		return 0;
	if (n == sizeof(word) && be32(word) == 0x4f4f4f4f &&
	    be32(word + 4) == 0xffffffff) {
		if (grow(buf, cap, M2M_FWHT_HEADER_SIZE))
			return -1;
		memcpy(*buf, word, sizeof(word));
		if (fread(*buf + 8, 1, M2M_FWHT_HEADER_SIZE - 8, in) !=
		    M2M_FWHT_HEADER_SIZE - 8)
			return failure(VERB, "%s: the stream ends inside an "
				       "FWHT header", path), -1;
		whole = m2m_fwht_parse_header(&hdr, *buf,
					      M2M_FWHT_HEADER_SIZE);
		if (whole < 0 || grow(buf, cap, whole))
			return whole < 0 ? lib_error(VERB, (int)whole,
						     "%s", path), -1 : -1;
		if (fread(*buf + M2M_FWHT_HEADER_SIZE, 1,
			  whole - M2M_FWHT_HEADER_SIZE, in) !=
		    (size_t)whole - M2M_FWHT_HEADER_SIZE)
			return failure(VERB, "%s: the stream ends inside an "
				       "FWHT frame of %ld bytes", path,
				       whole), -1;
		return whole;
	}
	if (n != sizeof(word) || be32(word) != HDR_ID)
		return failure(VERB, "%s: not a v4l2-ctl --stream-to-hdr "
			       "stream nor FWHT frames", path), -1;
	size = be32(word + 4);
	if (grow(buf, cap, size))
		return -1;
	if (fread(*buf, 1, size, in) != size)
		return failure(VERB, "%s: the stream ends inside a frame of "
			       "%u bytes", path, size), -1;
	return size;
}

/* The codec node: DEV as given when it is a path, else the first m2m
 * node (of driver DEV, when given) whose queue lists coded: OUTPUT for a
 * decoder, CAPTURE for an encoder. */
static int find_codec(const char *verb, char *path, size_t size,
		      const char *dev, uint32_t coded, enum m2m_queue queue)
{
	struct m2m_device_info *list;
	size_t count, i, f;
	int err, found = 0;

	if (dev && strchr(dev, '/')) {
		snprintf(path, size, "%s", dev);
		return 0;
	}
	err = m2m_list_devices(&list, &count);
	if (err < 0)
		return lib_error(verb, err, "listing the m2m devices");
	for (i = 0; i < count && !found; i++) {
		const struct m2m_device_info *d = &list[i];

		if (dev && strcmp(dev, "auto") && strcmp(d->driver, dev))
			continue;
		for (f = 0; f < d->num_formats[queue]; f++)
			if (d->formats[queue][f] == coded)
				found = 1;
		if (found)
			snprintf(path, size, "%s", d->path);
	}
	m2m_free_device_list(list);
	if (!found)
		return failure(verb, "no m2m node%s%s %s %.4s",
			       dev ? " of driver " : "", dev ? dev : "",
			       queue == M2M_QUEUE_OUTPUT ? "takes" : "makes",
			       (const char *)&coded);
	return 0;
}

struct output {
	const char *path;
	int raw;               /* frames back to back; else Y4M */
	struct media media;
	struct m2m_format fmt; /* the visible picture, in libm2m's layout */
	void *picture;
};

/* Write the visible picture of a decoded frame: 0, or -1 after printing
 * why. Raw output follows a change of size; Y4M cannot. */
static int write_frame(struct output *o, const struct m2m_frame *f)
{
	struct frame_lines dst, src;
	int first = !o->picture;

	if (!first && f->visible.width == o->fmt.width &&
	    f->visible.height == o->fmt.height)
		goto copy;
	if (!first && !o->raw)
		return failure(VERB, "%s: the stream changes size from %ux%u "
			       "to %ux%u, which Y4M cannot hold (write .yuv)",
			       o->path, o->fmt.width, o->fmt.height,
			       f->visible.width, f->visible.height), -1;
	if (m2m_format_init(&o->fmt, f->format.fourcc, f->visible.width,
			    f->visible.height) < 0)
		return failure(VERB, "%s: libm2m cannot lay out the decoder's "
			       "%.4s frames", o->path,
			       (const char *)&f->format.fourcc), -1;
	free(o->picture);
	o->picture = malloc(m2m_format_frame_size(&o->fmt));
	if (!o->picture)
		return failure(VERB, "no memory for a frame"), -1;
	if (!first) {
		o->media.fmt = o->fmt;
	} else {
		o->media.kind = media_kind_of(o->path);
		if (media_check_output(o->media.kind, o->path, o->fmt.fourcc) ||
		    media_open_output(&o->media, o->path, &o->fmt, NULL))
			return -1;
	}
copy:
	dst = (struct frame_lines){ o->picture, &o->fmt, 1, 0 };
	src = (struct frame_lines){ f->data[0], &f->format, 1, 0 };
	media_copy_lines(&dst, &src);
	return media_write(&o->media, o->picture);
}

/* Take every frame ready (wait up to timeout_ms for one): the number
 * written, or -1 after printing why. Stops at -EAGAIN or -ENODATA. */
static long take_frames(struct m2m_decoder *dec, struct output *o,
			int timeout_ms, long long *left, int *ended)
{
	struct m2m_frame f;
	long written = 0;
	int err = 0;

	while (*left && (err = m2m_decoder_receive(dec, &f, timeout_ms)) == 0) {
		int bad = write_frame(o, &f);

		m2m_decoder_release(dec, &f);
		if (bad)
			return -1;
		written++;
		if (*left > 0)
			(*left)--;
	}
	if (!*left || err == -ENODATA) {
		*ended = 1;
		return written;
	}
	if (err != -EAGAIN)
		return lib_error(VERB, err, "receiving a frame"), -1;
	return written;
}

static int decode(struct m2m_decoder *dec, FILE *in, const char *in_path,
		  struct output *o, long long count)
{
	unsigned char *pkt = NULL;
	size_t cap = 0;
	long long done = 0, left = count;
	uint64_t ts = 0;
	int ended = 0, status = EXIT_FAILED;
	long size, n;

	while (!ended && (size = read_packet(in, in_path, &pkt, &cap)) > 0) {
		int err;

		/* Timestamps number the frames, as v4l2-ctl's do not matter. */
		ts += 1000;
		while ((err = m2m_decoder_send(dec, pkt, size, ts)) == -EAGAIN) {
			n = take_frames(dec, o, 1000, &left, &ended);
			if (n < 0)
				goto out;
			done += n;
		}
		if (err < 0 && !ended) {
			lib_error(VERB, err, "sending a frame");
			goto out;
		}
		n = take_frames(dec, o, 0, &left, &ended);
		if (n < 0)
			goto out;
		done += n;
		progress(done, -1);
	}
	if (size < 0)
		goto out;
	if (!ended) {
		int err = m2m_decoder_drain(dec);

		if (err < 0) {
			lib_error(VERB, err, "draining the decoder");
			goto out;
		}
		while (!ended) {
			n = take_frames(dec, o, 5000, &left, &ended);
			if (n < 0)
				goto out;
			if (n == 0 && !ended) {
				failure(VERB, "the decoder gave no frame in "
					"5 s and did not end its drain");
				goto out;
			}
			done += n;
		}
	}
	progress_end();
	status = EXIT_OK;
out:
	free(pkt);
	return status;
}

int cmd_decode(int argc, char **argv)
{
	struct m2m_decoder_options opts = M2M_DECODER_OPTIONS_INIT;
	const char *dev = NULL;
	char node[64];
	long long count = -1;
	struct output o = { 0 };
	struct m2m_decoder *dec;
	FILE *in;
	int opt, err, status;

	media_verb = VERB;
	opts.coded_fourcc = M2M_FOURCC('F', 'W', 'H', 'T');
	while ((opt = verb_getopt(argc, argv, "d:c:n:h", options, VERB)) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'c':
			if (strlen(optarg) != 4)
				return usage_error(VERB, "--coded %s is not a "
						   "fourcc (four characters, "
						   "e.g. FWHT)", optarg);
			opts.coded_fourcc = M2M_FOURCC(optarg[0], optarg[1],
						       optarg[2], optarg[3]);
			break;
		case 'n':
			if (parse_long(optarg, &count) || count < 1)
				return usage_error(VERB, "--count %s is not a "
						   "number of frames from 1",
						   optarg);
			break;
		case 'h':
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2)
		return usage_error(VERB, "needs IN and OUT (m2m decode --help)");
	o.path = argv[optind + 1];
	o.raw = media_kind_of(o.path) == MEDIA_RAW;
	if (!o.raw && media_kind_of(o.path) != MEDIA_Y4M)
		return usage_error(VERB, "OUT %s: write .yuv (raw frames) or "
				   ".y4m", o.path);
	if (find_codec(VERB, node, sizeof(node), dev, opts.coded_fourcc,
		       M2M_QUEUE_OUTPUT))
		return EXIT_FAILED;
	in = strcmp(argv[optind], "-") ? fopen(argv[optind], "rb") : stdin;
	if (!in)
		return failure(VERB, "%s: %s", argv[optind], strerror(errno));
	err = m2m_decoder_open(&dec, node, &opts);
	if (err < 0) {
		fclose(in);
		return lib_error(VERB, err, "opening the decoder %s", node);
	}
	status = decode(dec, in, argv[optind], &o, count);
	m2m_decoder_close(dec);
	if (in != stdin)
		fclose(in);
	if (o.picture && media_close(&o.media) && status == EXIT_OK)
		status = EXIT_FAILED;
	free(o.picture);
	return status;
}

static int parse_coded(const char *verb, const char *s, uint32_t *fourcc)
{
	if (strlen(s) != 4)
		return usage_error(verb, "--coded %s is not a fourcc (four "
				   "characters, e.g. FWHT)", s);
	*fourcc = M2M_FOURCC(s[0], s[1], s[2], s[3]);
	return 0;
}

/* A --control NAME=VALUE, checked and kept for resolve_controls(): 0,
 * or after a usage message, -1. */
static int add_control(const char *verb, char **specs, unsigned int *n,
		       char *arg)
{
	long long v;

	if (!strchr(arg, '=') || arg[0] == '=')
		return usage_error(verb, "--control %s is not NAME=VALUE", arg),
		       -1;
	if (parse_long(strchr(arg, '=') + 1, &v))
		return usage_error(verb, "--control %s: the value is not a "
				   "number", arg), -1;
	if (*n == MAX_CONTROLS)
		return usage_error(verb, "at most %d --control", MAX_CONTROLS),
		       -1;
	specs[(*n)++] = arg;
	return 0;
}

/* Controls by name (NAME=VALUE), resolved on the encoder's node. */
static int resolve_controls(const char *verb, const char *node, char **specs,
			    unsigned int n, struct m2m_encoder_control *out)
{
	struct m2m_device *dev;
	unsigned int i;
	int err = m2m_open(&dev, node);

	if (err < 0)
		return lib_error(verb, err, "opening %s", node);
	for (i = 0; i < n; i++) {
		struct m2m_control_info info;
		char *eq = strchr(specs[i], '=');
		long long v;

		*eq = '\0';
		err = m2m_find_control(dev, &info, specs[i], 0);
		if (err < 0) {
			m2m_close(dev);
			return lib_error(verb, err, "--control %s", specs[i]);
		}
		parse_long(eq + 1, &v);
		out[i].id = info.id;
		out[i].value = v;
	}
	m2m_close(dev);
	return 0;
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static int write_packet(FILE *out, const struct m2m_packet *p)
{
	unsigned char word[8];

	put_be32(word, HDR_ID);
	put_be32(word + 4, (uint32_t)p->size);
	return fwrite(word, 1, 8, out) == 8 &&
	       fwrite(p->data, 1, p->size, out) == p->size ? 0 : -1;
}

/* Where packets come from: an encoder (m2m encode) or a chain (m2m
 * transcode). */
struct packet_source {
	const char *verb;
	int (*receive)(void *obj, struct m2m_packet *p, int timeout_ms);
	int (*release)(void *obj, const struct m2m_packet *p);
	int (*drain)(void *obj);
	void *obj;
};

static int encoder_receive(void *enc, struct m2m_packet *p, int timeout_ms)
{
	return m2m_encoder_receive(enc, p, timeout_ms);
}

static int encoder_release(void *enc, const struct m2m_packet *p)
{
	return m2m_encoder_release(enc, p);
}

static int encoder_drain(void *enc)
{
	return m2m_encoder_drain(enc);
}

static int chain_receive(void *chain, struct m2m_packet *p, int timeout_ms)
{
	return m2m_chain_receive(chain, p, timeout_ms);
}

static int chain_release(void *chain, const struct m2m_packet *p)
{
	return m2m_chain_release(chain, p);
}

static int chain_drain(void *chain)
{
	return m2m_chain_drain(chain);
}

/* Write every packet ready: the number, or -1 after printing why; stops
 * at -EAGAIN, and at -ENODATA (*ended). */
static long take_packets(const struct packet_source *src, FILE *out,
			 const char *path, int timeout_ms, int *ended)
{
	struct m2m_packet p;
	long written = 0;
	int err;

	while ((err = src->receive(src->obj, &p, timeout_ms)) == 0) {
		int bad = write_packet(out, &p);

		src->release(src->obj, &p);
		if (bad)
			return failure(src->verb, "%s: %s", path,
				       strerror(errno)), -1;
		written++;
	}
	if (err == -ENODATA)
		*ended = 1;
	else if (err != -EAGAIN)
		return lib_error(src->verb, err, "receiving a packet"), -1;
	return written;
}

/* Drain, and write the packets until the last: 0, or -1 after printing
 * why. */
static int drain_packets(const struct packet_source *src, FILE *out,
			 const char *path, int ended)
{
	int err = src->drain(src->obj);

	if (err < 0)
		return lib_error(src->verb, err, "draining"), -1;
	while (!ended) {
		long n = take_packets(src, out, path, 5000, &ended);

		if (n < 0)
			return -1;
		if (n == 0 && !ended)
			return failure(src->verb, "no packet came in 5 s and "
				       "the drain did not end"), -1;
	}
	return 0;
}

static int encode(struct m2m_encoder *enc, struct media *in, FILE *out,
		  const char *out_path, long long count)
{
	const struct packet_source src = { "encode", encoder_receive,
					   encoder_release, encoder_drain, enc };
	size_t size = m2m_format_frame_size(&in->fmt);
	unsigned char *frame = malloc(size);
	long long sent = 0;
	int ended = 0, got = 0, err, status = EXIT_FAILED;

	if (!frame)
		return failure("encode", "no memory for a frame");
	while ((count < 0 || sent < count) && (got = media_read(in, frame)) > 0) {
		while ((err = m2m_encoder_send(enc, frame, size,
					       (uint64_t)(sent + 1) * 1000)) ==
		       -EAGAIN)
			if (take_packets(&src, out, out_path, 1000, &ended) < 0)
				goto out;
		if (err < 0) {
			lib_error("encode", err, "sending frame %lld", sent);
			goto out;
		}
		if (take_packets(&src, out, out_path, 0, &ended) < 0)
			goto out;
		progress(++sent, in->frames);
	}
	if (got < 0 || drain_packets(&src, out, out_path, ended))
		goto out;
	progress_end();
	status = EXIT_OK;
out:
	free(frame);
	return status;
}

int cmd_encode(int argc, char **argv)
{
	struct m2m_encoder_options opts = M2M_ENCODER_OPTIONS_INIT;
	struct m2m_encoder_control controls[MAX_CONTROLS];
	char *specs[MAX_CONTROLS];
	unsigned int num_specs = 0;
	const char *dev = NULL, *out_path;
	uint32_t w = 0, h = 0, fourcc = 0;
	long long count = -1;
	struct media in = { 0 };
	struct m2m_encoder *enc;
	char node[64];
	FILE *out;
	int opt, err, status;

	media_verb = "encode";
	opts.coded_fourcc = M2M_FOURCC('F', 'W', 'H', 'T');
	while ((opt = verb_getopt(argc, argv, "d:c:C:n:s:f:h", encode_options,
				  "encode")) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'c':
			if (parse_coded("encode", optarg, &opts.coded_fourcc))
				return EXIT_USAGE;
			break;
		case 'C':
			if (add_control("encode", specs, &num_specs, optarg))
				return EXIT_USAGE;
			break;
		case 'n':
			if (parse_long(optarg, &count) || count < 1)
				return usage_error("encode", "--count %s is not "
						   "a number of frames from 1",
						   optarg);
			break;
		case 's':
			if (parse_size(optarg, &w, &h))
				return usage_error("encode", "--size %s is not "
						   "WxH", optarg);
			break;
		case 'f':
			fourcc = parse_format(optarg);
			if (!fourcc)
				return usage_error("encode", "--format %s: "
						   "known formats are %s",
						   optarg, known_formats());
			break;
		case 'h':
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2)
		return usage_error("encode", "needs IN and OUT (m2m encode "
				   "--help)");
	in.kind = media_kind_of(argv[optind]);
	if (in.kind == MEDIA_RAW) {
		if (!w || !fourcc)
			return usage_error("encode", "raw IN %s needs --size "
					   "and --format", argv[optind]);
		if (m2m_format_init(&in.fmt, fourcc, w, h) < 0)
			return usage_error("encode", "--size %ux%u: %s", w, h,
					   m2m_last_error());
	} else if (in.kind != MEDIA_Y4M) {
		return usage_error("encode", "IN %s: Y4M or raw frames",
				   argv[optind]);
	}
	if (find_codec("encode", node, sizeof(node), dev, opts.coded_fourcc,
		       M2M_QUEUE_CAPTURE))
		return EXIT_FAILED;
	if (resolve_controls("encode", node, specs, num_specs, controls))
		return EXIT_FAILED;
	if (media_open_input(&in, argv[optind]))
		return EXIT_FAILED;
	opts.raw_fourcc = in.fmt.fourcc;
	opts.width = in.fmt.width;
	opts.height = in.fmt.height;
	opts.controls = controls;
	opts.num_controls = num_specs;
	err = m2m_encoder_open(&enc, node, &opts);
	if (err < 0) {
		media_close(&in);
		return lib_error("encode", err, "opening the encoder %s", node);
	}
	out_path = argv[optind + 1];
	out = strcmp(out_path, "-") ? fopen(out_path, "wb") : stdout;
	if (!out) {
		m2m_encoder_close(enc);
		media_close(&in);
		return failure("encode", "%s: %s", out_path, strerror(errno));
	}
	status = encode(enc, &in, out, out_path, count);
	m2m_encoder_close(enc);
	media_close(&in);
	if (out != stdout && fclose(out) && status == EXIT_OK)
		status = failure("encode", "%s: %s", out_path, strerror(errno));
	return status;
}

const char transcode_help[] =
	"usage: m2m transcode [-d DEC] [-p CONV] [-e ENC] [-c CODED] [-s WxH]\n"
	"                     [-C NAME=VALUE]... [--copy] IN OUT\n"
	"\n"
	"Decode, convert and encode again in one chain of devices (libm2m's\n"
	"m2m_chain): the decoder's frames go to the converter, which crops\n"
	"them to the picture and scales them to --size, and its results to\n"
	"the encoder, each device's buffers handed to the next by DMABUF, so\n"
	"that no frame is copied. It prints how many bytes were copied and\n"
	"shared.\n"
	"\n"
	"IN and OUT are streams as `v4l2-ctl --stream-to-hdr` writes them\n"
	"(- for stdin and stdout); IN may also be FWHT frames back to back.\n"
	"A stream that changes size mid-way fails: a chain takes one size.\n"
	"\n"
	"  -d, --decoder DEC      the decoder (default: the first m2m node\n"
	"                         whose OUTPUT takes CODED)\n"
	"  -p, --converter CONV   the converter (default: vhqv)\n"
	"  -e, --encoder ENC      the encoder (default: the first m2m node\n"
	"                         whose CAPTURE makes CODED)\n"
	"  -c, --coded FMT        the coded format's fourcc, both sides\n"
	"                         (default: FWHT)\n"
	"  -s, --size WxH         the encoded size (default: the decoded one)\n"
	"  -C, --control N=V      set an encoder control, as m2m encode does\n"
	"      --copy             copy the frames between devices instead\n";

static const struct option transcode_options[] = {
	{ "decoder", required_argument, NULL, 'd' },
	{ "converter", required_argument, NULL, 'p' },
	{ "encoder", required_argument, NULL, 'e' },
	{ "coded", required_argument, NULL, 'c' },
	{ "size", required_argument, NULL, 's' },
	{ "control", required_argument, NULL, 'C' },
	{ "copy", no_argument, NULL, 'K' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

static int transcode(struct m2m_chain *chain, FILE *in, const char *in_path,
		     FILE *out, const char *out_path)
{
	const struct packet_source src = { "transcode", chain_receive,
					   chain_release, chain_drain, chain };
	unsigned char *pkt = NULL;
	size_t cap = 0;
	long long done = 0;
	uint64_t ts = 0;
	int ended = 0, err, status = EXIT_FAILED;
	long size, n;

	while ((size = read_packet(in, in_path, &pkt, &cap)) > 0) {
		ts += 1000;
		while ((err = m2m_chain_send(chain, pkt, size, ts)) == -EAGAIN) {
			n = take_packets(&src, out, out_path, 1000, &ended);
			if (n < 0)
				goto out;
			done += n;
		}
		if (err < 0) {
			lib_error("transcode", err, "sending a frame");
			goto out;
		}
		n = take_packets(&src, out, out_path, 0, &ended);
		if (n < 0)
			goto out;
		done += n;
		progress(done, -1);
	}
	if (size < 0 || drain_packets(&src, out, out_path, ended))
		goto out;
	progress_end();
	status = EXIT_OK;
out:
	free(pkt);
	return status;
}

int cmd_transcode(int argc, char **argv)
{
	struct m2m_chain_options opts = M2M_CHAIN_OPTIONS_INIT;
	struct m2m_encoder_control controls[MAX_CONTROLS];
	struct m2m_chain_stats st;
	char *specs[MAX_CONTROLS];
	unsigned int num_specs = 0;
	const char *dec = NULL, *conv = "vhqv", *enc = NULL, *out_path;
	char dec_node[64], enc_node[64];
	uint32_t coded = M2M_FOURCC('F', 'W', 'H', 'T');
	struct m2m_chain *chain;
	FILE *in, *out;
	int opt, err, status;

	media_verb = "transcode";
	while ((opt = verb_getopt(argc, argv, "d:p:e:c:s:C:h",
				  transcode_options, "transcode")) != -1) {
		switch (opt) {
		case 'd':
			dec = optarg;
			break;
		case 'p':
			conv = optarg;
			break;
		case 'e':
			enc = optarg;
			break;
		case 'c':
			if (parse_coded("transcode", optarg, &coded))
				return EXIT_USAGE;
			break;
		case 's':
			if (parse_size(optarg, &opts.encoder.width,
				       &opts.encoder.height))
				return usage_error("transcode", "--size %s is "
						   "not WxH", optarg);
			break;
		case 'C':
			if (add_control("transcode", specs, &num_specs, optarg))
				return EXIT_USAGE;
			break;
		case 'K':
			opts.flags |= M2M_CHAIN_COPY;
			break;
		case 'h':
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2)
		return usage_error("transcode", "needs IN and OUT (m2m "
				   "transcode --help)");
	if (find_codec("transcode", dec_node, sizeof(dec_node), dec, coded,
		       M2M_QUEUE_OUTPUT) ||
	    find_codec("transcode", enc_node, sizeof(enc_node), enc, coded,
		       M2M_QUEUE_CAPTURE) ||
	    resolve_controls("transcode", enc_node, specs, num_specs, controls))
		return EXIT_FAILED;
	opts.decoder.coded_fourcc = coded;
	opts.encoder.coded_fourcc = coded;
	opts.encoder.controls = controls;
	opts.encoder.num_controls = num_specs;
	in = strcmp(argv[optind], "-") ? fopen(argv[optind], "rb") : stdin;
	if (!in)
		return failure("transcode", "%s: %s", argv[optind],
			       strerror(errno));
	err = m2m_chain_open(&chain, dec_node, conv, enc_node, &opts);
	if (err < 0) {
		if (in != stdin)
			fclose(in);
		return lib_error("transcode", err, "opening the chain %s -> "
				 "%s -> %s", dec_node, conv, enc_node);
	}
	out_path = argv[optind + 1];
	out = strcmp(out_path, "-") ? fopen(out_path, "wb") : stdout;
	if (!out) {
		status = failure("transcode", "%s: %s", out_path,
				 strerror(errno));
	} else {
		status = transcode(chain, in, argv[optind], out, out_path);
		if (out != stdout && fclose(out) && status == EXIT_OK)
			status = failure("transcode", "%s: %s", out_path,
					 strerror(errno));
	}
	if (status == EXIT_OK && m2m_chain_get_stats(chain, &st) == 0)
		fprintf(stderr, "m2m transcode: %llu frames, %llu bytes copied, "
			"%llu shared by DMABUF (%u of 2 links)\n",
			(unsigned long long)st.frames,
			(unsigned long long)st.bytes_copied,
			(unsigned long long)st.bytes_shared, st.dmabuf_links);
	m2m_chain_close(chain);
	if (in != stdin)
		fclose(in);
	return status;
}
