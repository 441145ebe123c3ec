// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Colour: what libm2m takes an untagged frame to be, and what it asks a
 * device for (docs/libm2m.md, "Colour").
 *
 * A colorimetry field left 0 is untagged. On OUTPUT, libm2m fills it in
 * with what OpenCV, FFmpeg and libyuv assume of a frame that says nothing:
 * Y'CbCr is BT.601 limited range; R'G'B' and GREY are full range (GREY as
 * OpenCV's, Pillow's, GStreamer's and FFmpeg's grey pictures are). On
 * CAPTURE it follows vhqv's rule (docs/vhqv.md, "Colour"), with GREY
 * counted among the pictures rather than the video formats: the same
 * kind keeps OUTPUT's encoding and range, the other kind takes its own
 * defaults. libm2m asks for that colour, or for the fields the caller
 * set, with V4L2_PIX_FMT_FLAG_SET_CSC.
 */
#include <errno.h>

#include "hqv-format.h"
#include "m2m-private.h"

/* Video formats: Y'CbCr with chroma, limited range unless tagged. */
static bool is_video(const struct hqv_format *hf)
{
	return hf->is_yuv && hf->family != HQV_FAMILY_GREY;
}

/* V4L2's DEFAULT encoding and quantization, as a device reads them. */
static void v4l2_resolve(struct m2m_format *f, const struct hqv_format *hf)
{
	if (!f->ycbcr_enc)
		f->ycbcr_enc = V4L2_MAP_YCBCR_ENC_DEFAULT(f->colorspace);
	if (!f->quantization)
		f->quantization = V4L2_MAP_QUANTIZATION_DEFAULT(
			!hf->is_yuv, f->colorspace, f->ycbcr_enc);
}

void m2m_colour_untagged_output(struct m2m_format *f)
{
	const struct hqv_format *hf = hqv_format_find(f->fourcc);

	if (!hf)
		return;
	if (!f->colorspace)
		f->colorspace = is_video(hf) ? V4L2_COLORSPACE_SMPTE170M :
			       V4L2_COLORSPACE_SRGB;
	if (!f->ycbcr_enc)
		f->ycbcr_enc = V4L2_MAP_YCBCR_ENC_DEFAULT(f->colorspace);
	if (!f->quantization)
		f->quantization = is_video(hf) ?
			V4L2_MAP_QUANTIZATION_DEFAULT(false, f->colorspace,
						      f->ycbcr_enc) :
			V4L2_QUANTIZATION_FULL_RANGE;
}

int m2m_colour_wanted_capture(struct m2m_format *want,
			      const struct m2m_format *cap,
			      const struct m2m_format *out)
{
	const struct hqv_format *hc = hqv_format_find(cap->fourcc);
	const struct hqv_format *ho = hqv_format_find(out->fourcc);
	struct m2m_format o = *out;

	*want = *cap;
	if (!hc || !ho)
		return -ENOENT;
	v4l2_resolve(&o, ho);
	if (!want->colorspace)
		want->colorspace = o.colorspace;
	if (!want->ycbcr_enc)
		want->ycbcr_enc = is_video(hc) == is_video(ho) ? o.ycbcr_enc :
				  V4L2_MAP_YCBCR_ENC_DEFAULT(o.colorspace);
	if (!want->quantization && is_video(hc) == is_video(ho))
		want->quantization = o.quantization;
	else if (!want->quantization)
		want->quantization = is_video(hc) ?
			V4L2_MAP_QUANTIZATION_DEFAULT(false, o.colorspace,
						      want->ycbcr_enc) :
			V4L2_QUANTIZATION_FULL_RANGE;
	return 0;
}
