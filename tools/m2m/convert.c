// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * m2m convert: frames from a file or pipe through a device, one
 * m2m_convert() each. The job is set up as the Python package sets it up
 * (bindings/python/m2m/device.py): controls, OUTPUT's format, CAPTURE's,
 * then the crop and compose rectangles.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/videodev2.h>
#include <m2m/m2m.h>

#include "m2m-tool.h"
#include "media.h"

#define VERB "convert"

const char convert_help[] =
	"usage: m2m convert [OPTIONS] IN OUT\n"
	"\n"
	"Convert frames through a device. IN and OUT are files or - (stdin,\n"
	"stdout), of a kind given by the name: .y4m (YUV4MPEG2, many frames),\n"
	".png, .ppm/.pgm (one picture), - (Y4M), anything else raw frames in\n"
	"libm2m's layout (raw input needs --from and --from-size).\n"
	"  ffmpeg -i in.mp4 -f yuv4mpegpipe - | m2m convert --size 640x360 - out.y4m\n"
	"\n"
	"  -d, --device DEV       vhqv, vim2m, a /dev/videoN node, inprocess, or\n"
	"                         auto (default: the first m2m node, else\n"
	"                         inprocess, said on stderr)\n"
	"      --from FMT         raw input's format (NV12, YUYV, RGB24, ...)\n"
	"      --from-size WxH    raw input's size\n"
	"  -t, --to FMT           the result's format (default: the input's;\n"
	"                         RGB24 for PNG/PPM, GREY for PGM)\n"
	"  -s, --size WxH         the result's size (default: the input's)\n"
	"      --fit MODE         stretch (default), letterbox or crop, when the\n"
	"                         aspect ratios differ\n"
	"      --crop L,T,WxH     take this part of each input frame\n"
	"  -r, --rotate DEG       0, 90, 180 or 270\n"
	"      --hflip, --vflip   mirror\n"
	"      --deinterlace MODE progressive frames: weave, bob, blend or\n"
	"                         motion_adaptive (Y4M says its field order; raw\n"
	"                         and pictures are top first). Without it,\n"
	"                         interlaced Y4M stays so, field by field\n"
	"      --scaler MODE      nearest, bilinear or area\n"
	"      --background RGB   0xRRGGBB around a letterboxed picture\n"
	"      --matrix M         result's matrix: bt601, bt709, bt2020\n"
	"      --range R          result's range: limited or full\n"
	"      --from-matrix M    input's matrix (default: bt601 for Y'CbCr)\n"
	"      --from-range R     input's range (default: Y4M's XCOLORRANGE,\n"
	"                         limited for Y'CbCr, full for RGB and GREY)\n"
	"      --brightness N, --contrast N, --saturation N, --hue N  proc-amp\n"
	"  -q, --quiet            no progress bar (shown on a terminal only)\n";

enum {
	OPT_FROM = 256, OPT_FROM_SIZE, OPT_FIT, OPT_CROP, OPT_HFLIP, OPT_VFLIP,
	OPT_DEINTERLACE, OPT_SCALER, OPT_BACKGROUND, OPT_MATRIX, OPT_RANGE,
	OPT_FROM_MATRIX, OPT_FROM_RANGE,
	/* in the order of procamp[] */
	OPT_BRIGHTNESS, OPT_CONTRAST, OPT_SATURATION, OPT_HUE,
};

static const struct option options[] = {
	{ "device", required_argument, NULL, 'd' },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "from-size", required_argument, NULL, OPT_FROM_SIZE },
	{ "to", required_argument, NULL, 't' },
	{ "size", required_argument, NULL, 's' },
	{ "fit", required_argument, NULL, OPT_FIT },
	{ "crop", required_argument, NULL, OPT_CROP },
	{ "rotate", required_argument, NULL, 'r' },
	{ "hflip", no_argument, NULL, OPT_HFLIP },
	{ "vflip", no_argument, NULL, OPT_VFLIP },
	{ "deinterlace", required_argument, NULL, OPT_DEINTERLACE },
	{ "scaler", required_argument, NULL, OPT_SCALER },
	{ "background", required_argument, NULL, OPT_BACKGROUND },
	{ "matrix", required_argument, NULL, OPT_MATRIX },
	{ "range", required_argument, NULL, OPT_RANGE },
	{ "from-matrix", required_argument, NULL, OPT_FROM_MATRIX },
	{ "from-range", required_argument, NULL, OPT_FROM_RANGE },
	{ "brightness", required_argument, NULL, OPT_BRIGHTNESS },
	{ "contrast", required_argument, NULL, OPT_CONTRAST },
	{ "saturation", required_argument, NULL, OPT_SATURATION },
	{ "hue", required_argument, NULL, OPT_HUE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

/* The proc-amp controls, named as the options and libm2m name them. */
static const char *const procamp[] = {
	"brightness", "contrast", "saturation", "hue"
};

enum fit { FIT_STRETCH, FIT_LETTERBOX, FIT_CROP };

/* A colour tag: V4L2's encoding with the colorspace it belongs to. */
struct matrix { const char *name; uint32_t ycbcr_enc, colorspace; };
static const struct matrix matrices[] = {
	{ "bt601", V4L2_YCBCR_ENC_601, V4L2_COLORSPACE_SMPTE170M },
	{ "bt709", V4L2_YCBCR_ENC_709, V4L2_COLORSPACE_REC709 },
	{ "bt2020", V4L2_YCBCR_ENC_BT2020, V4L2_COLORSPACE_BT2020 },
};

struct job {
	const char *device, *in, *out, *deinterlace, *scaler;
	uint32_t to, from;	/* fourccs, 0 when not given */
	uint32_t from_w, from_h, w, h;
	enum fit fit;
	int has_crop, quiet;
	struct m2m_rect crop;
	long long rotate, hflip, vflip, background;
	const struct matrix *matrix, *from_matrix;
	uint32_t range, from_range;
	long long procamp[4];
	unsigned int procamp_set; /* bits of procamp[] given */
	unsigned int fields;	/* 2: each field converted apart, else 1 */
};

static const struct matrix *parse_matrix(const char *s)
{
	for (size_t i = 0; i < sizeof(matrices) / sizeof(matrices[0]); i++)
		if (strcmp(s, matrices[i].name) == 0)
			return &matrices[i];
	return NULL;
}

static uint32_t parse_range(const char *s)
{
	return !strcmp(s, "limited") ? V4L2_QUANTIZATION_LIM_RANGE :
	       !strcmp(s, "full") ? V4L2_QUANTIZATION_FULL_RANGE : 0;
}

/* An option's long name, as messages name it whichever way it was given. */
static const char *option_name(int opt)
{
	for (const struct option *o = options; o->name; o++)
		if (o->val == opt)
			return o->name;
	return "?";
}

/* L,T,WxH: whole numbers, the size as --size takes it. */
static int parse_crop(const char *s, struct m2m_rect *r)
{
	uint32_t left, top;

	s = parse_number(s, &left);
	if (!s || *s != ',' || left > INT32_MAX)
		return -1;
	s = parse_number(s + 1, &top);
	if (!s || *s != ',' || top > INT32_MAX)
		return -1;
	r->left = (int32_t)left;
	r->top = (int32_t)top;
	return parse_size(s + 1, &r->width, &r->height);
}

static int parse_format_option(uint32_t *fourcc, int opt, const char *name)
{
	*fourcc = parse_format(name);
	if (!*fourcc)
		return usage_error(VERB, "--%s: unknown pixel format '%s' "
				   "(known: %s)", option_name(opt), name,
				   known_formats());
	return 0;
}

static int parse_options(struct job *job, int argc, char **argv)
{
	int opt, index;

	job->rotate = job->hflip = job->vflip = 0;
	job->background = -1;
	optind = 0;
	while ((opt = verb_getopt(argc, argv, "d:t:s:r:qh", options, VERB)) !=
	       -1) {
		switch (opt) {
		case 'd': job->device = optarg; break;
		case 't':
		case OPT_FROM:
			if (parse_format_option(opt == 't' ? &job->to : &job->from,
						opt, optarg))
				return EXIT_USAGE;
			break;
		case 'q': job->quiet = 1; break;
		case OPT_HFLIP: job->hflip = 1; break;
		case OPT_VFLIP: job->vflip = 1; break;
		case OPT_DEINTERLACE: job->deinterlace = optarg; break;
		case OPT_SCALER: job->scaler = optarg; break;
		case 's':
			if (parse_size(optarg, &job->w, &job->h))
				return usage_error(VERB, "--size takes WxH, not "
						   "'%s'", optarg);
			break;
		case OPT_FROM_SIZE:
			if (parse_size(optarg, &job->from_w, &job->from_h))
				return usage_error(VERB, "--from-size takes WxH, "
						   "not '%s'", optarg);
			break;
		case OPT_FIT:
			if (!strcmp(optarg, "stretch"))
				job->fit = FIT_STRETCH;
			else if (!strcmp(optarg, "letterbox"))
				job->fit = FIT_LETTERBOX;
			else if (!strcmp(optarg, "crop"))
				job->fit = FIT_CROP;
			else
				return usage_error(VERB, "--fit takes stretch, "
						   "letterbox or crop, not '%s'",
						   optarg);
			break;
		case OPT_CROP:
			if (parse_crop(optarg, &job->crop))
				return usage_error(VERB, "--crop takes LEFT,TOP,"
						   "WxH, not '%s'", optarg);
			job->has_crop = 1;
			break;
		case 'r':
			if (parse_long(optarg, &job->rotate) ||
			    job->rotate % 90 || job->rotate < 0 ||
			    job->rotate > 270)
				return usage_error(VERB, "--rotate takes 0, 90, "
						   "180 or 270, not '%s'", optarg);
			break;
		case OPT_BACKGROUND:
			if (parse_long(optarg, &job->background) ||
			    job->background < 0 || job->background > 0xffffff)
				return usage_error(VERB, "--background takes "
						   "0xRRGGBB, not '%s'", optarg);
			break;
		case OPT_MATRIX:
		case OPT_FROM_MATRIX: {
			const struct matrix *m = parse_matrix(optarg);

			if (!m)
				return usage_error(VERB, "--%s takes bt601, bt709 "
						   "or bt2020, not '%s'",
						   option_name(opt), optarg);
			*(opt == OPT_MATRIX ? &job->matrix : &job->from_matrix) = m;
			break;
		}
		case OPT_RANGE:
		case OPT_FROM_RANGE: {
			uint32_t r = parse_range(optarg);

			if (!r)
				return usage_error(VERB, "--%s takes limited or "
						   "full, not '%s'",
						   option_name(opt), optarg);
			*(opt == OPT_RANGE ? &job->range : &job->from_range) = r;
			break;
		}
		case OPT_BRIGHTNESS:
		case OPT_CONTRAST:
		case OPT_SATURATION:
		case OPT_HUE:
			index = opt - OPT_BRIGHTNESS;
			if (parse_long(optarg, &job->procamp[index]))
				return usage_error(VERB, "--%s takes a number, "
						   "not '%s'", option_name(opt),
						   optarg);
			job->procamp_set |= 1 << index;
			break;
		default:
			return opt == 'h' ? -1 : EXIT_USAGE;
		}
	}
	if (argc - optind != 2)
		return usage_error(VERB, "takes IN and OUT, %d given",
				   argc - optind);
	job->in = argv[optind];
	job->out = argv[optind + 1];
	return 0;
}

static int floor_div2(long long x) { return (int)(x >= 0 ? x / 2 : (x - 1) / 2); }

static uint32_t nearest_within(double x, uint32_t limit)
{
	long long v = (long long)floor(x + 0.5);

	return v < 1 ? 1 : v > limit ? limit : (uint32_t)v;
}

/* Where a picture of pw x ph goes in w x h, whole, at its aspect ratio. */
static struct m2m_rect letterbox(uint32_t pw, uint32_t ph, uint32_t w,
				 uint32_t h)
{
	double scale = fmin((double)w / pw, (double)h / ph);
	struct m2m_rect r = { 0, 0, nearest_within(pw * scale, w),
			      nearest_within(ph * scale, h) };

	r.left = floor_div2((long long)w - r.width);
	r.top = floor_div2((long long)h - r.height);
	return r;
}

/* The largest part of a pw x ph picture with w x h's aspect ratio. */
static void centre_part(uint32_t pw, uint32_t ph, uint32_t w, uint32_t h,
			uint32_t *cw, uint32_t *ch)
{
	if ((uint64_t)pw * h > (uint64_t)ph * w) {
		*cw = nearest_within((double)ph * w / h, pw);
		*ch = ph;
	} else {
		*cw = pw;
		*ch = nearest_within((double)pw * h / w, ph);
	}
}

/* Set a menu control by its identifier name ("deinterlacing_mode") to
 * an item typed as an identifier ("motion_adaptive" is "Motion Adaptive"). */
static int set_menu(struct m2m_device *dev, const char *control,
		    const char *item, const char *option)
{
	struct m2m_control_info c;
	char name[32];
	int err;

	snprintf(name, sizeof(name), "%s", item);
	for (char *p = name; *p; p++)
		if (*p == '_')
			*p = ' ';
	err = m2m_find_control(dev, &c, control, 0);
	if (err == 0)
		err = m2m_set_control_menu(dev, c.id, name);
	return err < 0 ? lib_error(VERB, err, "%s %s", option, item) : 0;
}

static int set_control(struct m2m_device *dev, const char *control,
		       long long value, const char *option)
{
	int err = m2m_set_control_by_name(dev, control, value);

	return err < 0 ? lib_error(VERB, err, "%s %lld", option, value) : 0;
}

static int set_controls(struct m2m_device *dev, const struct job *job)
{
	char option[24];

	if ((job->rotate && set_control(dev, "rotate", job->rotate, "--rotate")) ||
	    (job->hflip && set_control(dev, "horizontal_flip", 1, "--hflip")) ||
	    (job->vflip && set_control(dev, "vertical_flip", 1, "--vflip")) ||
	    (job->background >= 0 && set_control(dev, "background_colour",
						 job->background, "--background")) ||
	    (job->scaler && set_menu(dev, "scaling_filter", job->scaler,
				     "--scaler")) ||
	    (job->deinterlace && set_menu(dev, "deinterlacing_mode",
					  job->deinterlace, "--deinterlace")))
		return EXIT_FAILED;
	for (int i = 0; i < 4; i++) {
		if (!(job->procamp_set & 1u << i))
			continue;
		snprintf(option, sizeof(option), "--%s", procamp[i]);
		if (set_control(dev, procamp[i], job->procamp[i], option))
			return EXIT_FAILED;
	}
	return 0;
}

/* The format a result is written in when --to does not say. */
static uint32_t default_to(enum media_kind kind, const char *out,
			   uint32_t from)
{
	size_t len = strlen(out);

	switch (kind) {
	case MEDIA_PNG:
		return media_holds(kind, from) ? from :
		       m2m_fourcc_from_name("RGB24");
	case MEDIA_PNM:
		return m2m_fourcc_from_name(len > 4 &&
			!strcasecmp(out + len - 4, ".pgm") ? "GREY" : "RGB24");
	case MEDIA_Y4M:
		return media_holds(kind, from) ? from :
		       m2m_fourcc_from_name("YUV420");
	default:
		return from;
	}
}

static int check_colour(const struct m2m_format *took, const struct job *job)
{
	if (job->matrix && took->ycbcr_enc != job->matrix->ycbcr_enc)
		return failure(VERB, "the device does not give %s results "
			       "with --matrix %s (the result's Y'CbCr matrix; "
			       "the input's is --from-matrix)",
			       m2m_fourcc_to_name(took->fourcc),
			       job->matrix->name);
	if (job->range && took->quantization != job->range)
		return failure(VERB, "the device does not give %s results "
			       "with --range %s", m2m_fourcc_to_name(took->fourcc),
			       job->range == V4L2_QUANTIZATION_FULL_RANGE ?
			       "full" : "limited");
	return 0;
}

static const char *field_name(uint32_t field)
{
	switch (field) {
	case V4L2_FIELD_NONE: return "progressive";
	case V4L2_FIELD_INTERLACED_TB: return "interlaced (top field first)";
	case V4L2_FIELD_INTERLACED_BT: return "interlaced (bottom field first)";
	default: return "field-based";
	}
}

/* Whether a plane of an interlaced frame of this format and size has an
 * odd number of lines, which its two fields cannot share (4:2:0 at a
 * height that is not a multiple of 4). */
static int fields_uneven(uint32_t fourcc, uint32_t width, uint32_t height)
{
	struct m2m_plane_layout pl[M2M_MAX_PLANES];
	struct m2m_format fmt;
	int n;

	if (m2m_format_init(&fmt, fourcc, width, height) < 0)
		return 0; /* a size set_up() reports */
	n = m2m_format_planes(pl, &fmt);
	for (int p = 0; p < n; p++)
		if (pl[p].height % 2)
			return 1;
	return 0;
}

#define WHOLE_FIELDS "each field needs whole lines in every plane: a " \
		     "height that is a multiple of 4 for 4:2:0, of 2 otherwise"

/*
 * Interlaced frames stay interlaced unless --deinterlace says how to make
 * them progressive, as FFmpeg keeps a clip's fields when not asked to
 * deinterlace: each field goes through the device on its own, as a
 * picture of half the frame's height, and the results are woven into
 * frames again, the top field still on top. So scaling, colour and flips
 * never mix the fields' lines; a quarter turn would make them columns.
 * From here on, the job's geometry is a field's; field is the device's
 * input format.
 */
static int keep_fields(struct job *job, const struct media *in, uint32_t to,
		       struct m2m_format *field)
{
	uint32_t w, h;

	if (job->rotate == 90 || job->rotate == 270)
		return usage_error(VERB, "--rotate %lld would turn the lines of "
				   "interlaced %s into columns: give "
				   "--deinterlace MODE", job->rotate, in->path);
	if (job->has_crop && (job->crop.top % 2 || job->crop.height % 2))
		return usage_error(VERB, "--crop of interlaced %s takes an even "
				   "top and height (whole fields), or give "
				   "--deinterlace MODE", in->path);
	w = job->w ? job->w : job->has_crop ? job->crop.width : in->fmt.width;
	h = job->h ? job->h : job->has_crop ? job->crop.height : in->fmt.height;
	if (fields_uneven(to, w, h))
		return usage_error(VERB, "the result, interlaced %s %ux%u: "
				   WHOLE_FIELDS " (give --size, or "
				   "--deinterlace MODE)",
				   m2m_fourcc_to_name(to), w, h);
	job->w = w;
	job->h = h / 2;
	job->crop.top /= 2;
	job->crop.height /= 2;
	job->fields = 2;
	m2m_format_init(field, in->fmt.fourcc, in->fmt.width,
			in->fmt.height / 2);
	field->colorspace = in->fmt.colorspace;
	field->xfer_func = in->fmt.xfer_func;
	field->ycbcr_enc = in->fmt.ycbcr_enc;
	field->quantization = in->fmt.quantization;
	return 0;
}

/* Formats and rectangles: in is the input's, cap gets the result's. */
static int set_up(struct m2m_device *dev, const struct job *job,
		  struct m2m_format *out, struct m2m_format *cap, uint32_t to)
{
	struct m2m_rect crop = { 0, 0, out->width, out->height }, compose;
	struct m2m_format asked;
	int turned = job->rotate == 90 || job->rotate == 270, err;
	uint32_t ow, oh, w, h;

	if (job->has_crop)
		crop = job->crop;
	ow = turned ? crop.height : crop.width;
	oh = turned ? crop.width : crop.height;
	w = job->w ? job->w : ow;
	h = job->h ? job->h : oh;

	if (job->deinterlace && out->field == V4L2_FIELD_NONE)
		out->field = V4L2_FIELD_INTERLACED_TB;
	if (job->from_matrix) {
		out->ycbcr_enc = job->from_matrix->ycbcr_enc;
		out->colorspace = job->from_matrix->colorspace;
	}
	if (job->from_range)
		out->quantization = job->from_range;
	asked = *out;
	err = m2m_set_format(dev, out, M2M_QUEUE_OUTPUT);
	if (err < 0)
		return lib_error(VERB, err, "%ux%u %s input",
				 out->width, out->height,
				 m2m_fourcc_to_name(out->fourcc));
	/* Frames are read as asked: a device that would take others (a
	 * height cut to whole fields, no field order) would misread them. */
	if (out->fourcc != asked.fourcc || out->width != asked.width ||
	    out->height != asked.height || out->field != asked.field)
		return failure(VERB, "the device does not take %ux%u %s %s "
			       "input: it offers %ux%u %s %s", asked.width,
			       asked.height, m2m_fourcc_to_name(asked.fourcc),
			       field_name(asked.field), out->width, out->height,
			       m2m_fourcc_to_name(out->fourcc),
			       field_name(out->field));

	err = m2m_format_init(cap, to, w, h);
	if (err < 0)
		return lib_error(VERB, err, "%ux%u %s result", w, h,
				 m2m_fourcc_to_name(to));
	if (job->matrix)
		cap->ycbcr_enc = job->matrix->ycbcr_enc;
	if (job->range)
		cap->quantization = job->range;
	err = m2m_set_format(dev, cap, M2M_QUEUE_CAPTURE);
	if (err < 0)
		return lib_error(VERB, err, "%ux%u %s result", w, h,
				 m2m_fourcc_to_name(to));
	if (cap->width != w || cap->height != h || cap->fourcc != to)
		return failure(VERB, "the device gives %ux%u %s, not %ux%u %s",
			       cap->width, cap->height,
			       m2m_fourcc_to_name(cap->fourcc), w, h,
			       m2m_fourcc_to_name(to));
	if (check_colour(cap, job))
		return EXIT_FAILED;

	if (job->fit == FIT_CROP) {
		uint32_t cw, ch;

		centre_part(ow, oh, w, h, &cw, &ch);
		if (turned) {
			uint32_t t = cw; cw = ch; ch = t;
		}
		crop.left += floor_div2((long long)crop.width - cw);
		crop.top += floor_div2((long long)crop.height - ch);
		crop.width = cw;
		crop.height = ch;
	}
	if (job->has_crop || job->fit == FIT_CROP) {
		struct m2m_rect asked = crop;

		err = m2m_set_rect(dev, &crop, M2M_RECT_CROP);
		if (err < 0)
			return lib_error(VERB, err, "crop %d,%d,%ux%u",
					 asked.left, asked.top, asked.width,
					 asked.height);
		if (memcmp(&crop, &asked, sizeof(crop)))
			return failure(VERB, "the device takes crop %d,%d,%ux%u, "
				       "not %d,%d,%ux%u (inside the frame)",
				       crop.left, crop.top, crop.width,
				       crop.height, asked.left, asked.top,
				       asked.width, asked.height);
	}
	if (job->fit == FIT_LETTERBOX) {
		compose = letterbox(ow, oh, w, h);
		err = m2m_set_rect(dev, &compose, M2M_RECT_COMPOSE);
		if (err < 0)
			return lib_error(VERB, err, "letterbox");
	}
	return 0;
}

static int run(struct m2m_device *dev, struct media *in, struct media *out,
	       const struct m2m_format *device_in,
	       const struct m2m_format *device_out, unsigned int fields,
	       int show_progress)
{
	size_t in_size = m2m_format_frame_size(&in->fmt);
	size_t dev_in_size = m2m_format_frame_size(device_in);
	size_t dev_out_size = m2m_format_frame_size(device_out);
	size_t out_size = m2m_format_frame_size(&out->fmt);
	uint8_t *src = malloc(in_size), *dsrc = malloc(dev_in_size);
	uint8_t *ddst = malloc(dev_out_size), *dst = malloc(out_size);
	int ret = EXIT_FAILED, got;

	if (!src || !dsrc || !ddst || !dst) {
		failure(VERB, "out of memory");
		goto out;
	}
	while ((got = media_read(in, src)) == 1) {
		/* The frame, or each of its fields (keep_fields()). */
		for (unsigned int f = 0; f < fields; f++) {
			struct frame_lines file_in = { src, &in->fmt, fields, f };
			struct frame_lines file_out = { dst, &out->fmt, fields, f };
			struct frame_lines dev_in = { dsrc, device_in, 1, 0 };
			struct frame_lines dev_out = { ddst, device_out, 1, 0 };
			int n;

			media_copy_lines(&dev_in, &file_in);
			n = m2m_convert(dev, ddst, dev_out_size, dsrc,
					dev_in_size);
			if (n < 0) {
				lib_error(VERB, n, "frame %lld", in->done);
				goto out;
			}
			media_copy_lines(&file_out, &dev_out);
		}
		if (media_write(out, dst) < 0)
			goto out;
		if (show_progress && (in->frames > 1 || in->done > 1))
			progress(in->done, in->frames);
	}
	progress_end();
	if (got < 0)
		goto out;
	if (in->done == 0) {
		failure(VERB, "%s: no whole frame in the input", in->path);
		goto out;
	}
	ret = EXIT_OK;
out:
	free(src);
	free(dsrc);
	free(ddst);
	free(dst);
	return ret;
}

int cmd_convert(int argc, char **argv)
{
	struct job job = { 0 };
	struct media in = { 0 }, out = { 0 };
	struct m2m_format device_in, device_out, file_out;
	struct m2m_device *dev = NULL;
	uint32_t to;
	int ret;

	ret = parse_options(&job, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	in.kind = media_kind_of(job.in);
	if (in.kind == MEDIA_RAW || job.from) {
		if (!job.from || !job.from_w)
			return usage_error(VERB, "%s is raw: give --from FMT and "
					   "--from-size WxH", job.in);
		in.kind = MEDIA_RAW;
		if (m2m_format_init(&in.fmt, job.from, job.from_w,
				    job.from_h) < 0)
			return usage_error(VERB, "--from %s --from-size %ux%u: %s",
					   m2m_fourcc_to_name(job.from),
					   job.from_w, job.from_h,
					   m2m_last_error());
	} else if (job.from_w) {
		return usage_error(VERB, "--from-size is for raw input; %s says "
				   "its own size", job.in);
	}
	out.kind = media_kind_of(job.out);
	if (job.to && media_check_output(out.kind, job.out, job.to))
		return EXIT_USAGE;

	ret = EXIT_FAILED;
	if (media_open_input(&in, job.in))
		goto fail;
	to = job.to ? job.to : default_to(out.kind, job.out, in.fmt.fourcc);
	if ((in.fmt.field != V4L2_FIELD_NONE || job.deinterlace) &&
	    fields_uneven(in.fmt.fourcc, in.fmt.width, in.fmt.height)) {
		failure(VERB, "%s: interlaced %s %ux%u: " WHOLE_FIELDS, job.in,
			m2m_fourcc_to_name(in.fmt.fourcc), in.fmt.width,
			in.fmt.height);
		goto fail;
	}
	device_in = in.fmt;
	job.fields = 1;
	if (in.fmt.field != V4L2_FIELD_NONE && !job.deinterlace) {
		ret = keep_fields(&job, &in, to, &device_in);
		if (ret)
			goto fail;
		ret = EXIT_FAILED;
	}
	dev = open_device(VERB, job.device);
	if (!dev)
		goto fail;
	if (set_controls(dev, &job) ||
	    set_up(dev, &job, &device_in, &device_out, to))
		goto fail;
	/* The file holds frames in libm2m's own layout. */
	m2m_format_init(&file_out, device_out.fourcc, device_out.width,
			device_out.height * job.fields);
	file_out.field = job.fields == 2 ? in.fmt.field : device_out.field;
	file_out.quantization = device_out.quantization;
	if (media_open_output(&out, job.out, &file_out, &in))
		goto fail;
	ret = run(dev, &in, &out, &device_in, &device_out, job.fields,
		  !job.quiet);
	m2m_close(dev);
	media_close(&in);
	if (media_close(&out) < 0)
		ret = EXIT_FAILED;
	return ret;
fail:
	m2m_close(dev);
	media_close(&in);
	media_close(&out);
	return ret;
}
