// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The FWHT frame header (the kernel's
 * drivers/media/test-drivers/vicodec/codec-fwht.h, struct fwht_cframe_hdr):
 * two magic words, then nine big-endian words, the last the size of the
 * frame's payload. The one bitstream libm2m reads: it splits an FWHT
 * stream into frames for a decoder whose format is not a continuous byte
 * stream, and gives the stateless decoder its per-frame parameters.
 */
#include <errno.h>
#include <string.h>

#include "m2m/codec.h"
#include "codec.h"

#define FWHT_MAGIC1 0x4f4f4f4fu
#define FWHT_MAGIC2 0xffffffffu

static uint32_t word(const unsigned char *p, unsigned int i)
{
	p += 4 * i;
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

long m2m_fwht_parse_header(struct m2m_fwht_header *hdr, const void *data,
			   size_t size)
{
	const unsigned char *p = data;

	if (!hdr || !data)
		return m2m_error(EINVAL, "m2m_fwht_parse_header: %s is NULL",
				 hdr ? "data" : "hdr");
	if (size < M2M_FWHT_HEADER_SIZE)
		return -EAGAIN;
	/* The magic words are the same in either byte order. */
	if (word(p, 0) != FWHT_MAGIC1 || word(p, 1) != FWHT_MAGIC2)
		return m2m_error(EINVAL, "m2m_fwht_parse_header: no FWHT "
				 "frame header (magic 0x%08x 0x%08x)",
				 word(p, 0), word(p, 1));
	hdr->version = word(p, 2);
	hdr->width = word(p, 3);
	hdr->height = word(p, 4);
	hdr->flags = word(p, 5);
	hdr->colorspace = word(p, 6);
	hdr->xfer_func = word(p, 7);
	hdr->ycbcr_enc = word(p, 8);
	hdr->quantization = word(p, 9);
	hdr->payload_size = word(p, 10);
	return (long)M2M_FWHT_HEADER_SIZE + hdr->payload_size;
}

/*
 * The raw formats vicodec decodes FWHT into, in its own order
 * (codec-v4l2-fwht.c, v4l2_fwht_pixfmts): chroma subsampling, components
 * and pixel encoding, as a frame header's flags give them.
 */
static const struct {
	uint32_t fourcc;
	uint8_t width_div, height_div, components;
	uint32_t pixenc;
} fwht_raw[] = {
	{ V4L2_PIX_FMT_YUV420, 2, 2, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_YVU420, 2, 2, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_YUV422P, 2, 1, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_NV12, 2, 2, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_NV21, 2, 2, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_NV16, 2, 1, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_NV61, 2, 1, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_NV24, 1, 1, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_NV42, 1, 1, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_YUYV, 2, 1, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_YVYU, 2, 1, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_UYVY, 2, 1, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_VYUY, 2, 1, 3, V4L2_FWHT_FL_PIXENC_YUV },
	{ V4L2_PIX_FMT_BGR24, 1, 1, 3, V4L2_FWHT_FL_PIXENC_RGB },
	{ V4L2_PIX_FMT_RGB24, 1, 1, 3, V4L2_FWHT_FL_PIXENC_RGB },
	{ V4L2_PIX_FMT_HSV24, 1, 1, 3, V4L2_FWHT_FL_PIXENC_HSV },
	{ V4L2_PIX_FMT_BGR32, 1, 1, 4, V4L2_FWHT_FL_PIXENC_RGB },
	{ V4L2_PIX_FMT_XBGR32, 1, 1, 4, V4L2_FWHT_FL_PIXENC_RGB },
	{ V4L2_PIX_FMT_ABGR32, 1, 1, 4, V4L2_FWHT_FL_PIXENC_RGB },
	{ V4L2_PIX_FMT_RGB32, 1, 1, 4, V4L2_FWHT_FL_PIXENC_RGB },
	{ V4L2_PIX_FMT_XRGB32, 1, 1, 4, V4L2_FWHT_FL_PIXENC_RGB },
	{ V4L2_PIX_FMT_ARGB32, 1, 1, 4, V4L2_FWHT_FL_PIXENC_RGB },
	{ V4L2_PIX_FMT_BGRX32, 1, 1, 4, V4L2_FWHT_FL_PIXENC_RGB },
	{ V4L2_PIX_FMT_BGRA32, 1, 1, 4, V4L2_FWHT_FL_PIXENC_RGB },
	{ V4L2_PIX_FMT_RGBX32, 1, 1, 4, V4L2_FWHT_FL_PIXENC_RGB },
	{ V4L2_PIX_FMT_RGBA32, 1, 1, 4, V4L2_FWHT_FL_PIXENC_RGB },
	{ V4L2_PIX_FMT_HSV32, 1, 1, 4, V4L2_FWHT_FL_PIXENC_HSV },
	{ V4L2_PIX_FMT_GREY, 1, 1, 1, V4L2_FWHT_FL_PIXENC_RGB },
};

/* Bits 18:16 and 20:19 of the flags: the uapi header's masks use the
 * kernel's GENMASK(), which user space does not have. */
#define FWHT_COMPONENTS_MASK (7u << V4L2_FWHT_FL_COMPONENTS_NUM_OFFSET)
#define FWHT_PIXENC_MASK (3u << V4L2_FWHT_FL_PIXENC_OFFSET)

/* vicodec's vic_round_dim(): whole 8x8 blocks of the subsampled plane. */
static uint32_t coded_dim(uint32_t dim, uint32_t div)
{
	return (dim / div + 7) / 8 * 8 * div;
}

int m2m_fwht_raw_format(uint32_t *fourcc, uint32_t *width, uint32_t *height,
			const struct m2m_fwht_header *hdr, uint32_t wanted)
{
	uint32_t wdiv = hdr->flags & V4L2_FWHT_FL_CHROMA_FULL_WIDTH ? 1 : 2;
	uint32_t hdiv = hdr->flags & V4L2_FWHT_FL_CHROMA_FULL_HEIGHT ? 1 : 2;
	uint32_t components = 3, pixenc = 0;
	size_t i;

	/* Version 1 headers say nothing of components and encoding. */
	if (hdr->version >= 2) {
		components = 1 + ((hdr->flags & FWHT_COMPONENTS_MASK) >>
				  V4L2_FWHT_FL_COMPONENTS_NUM_OFFSET);
		pixenc = hdr->flags & FWHT_PIXENC_MASK;
	}
	for (i = 0; i < sizeof(fwht_raw) / sizeof(fwht_raw[0]); i++) {
		if (fwht_raw[i].width_div != wdiv ||
		    fwht_raw[i].height_div != hdiv ||
		    fwht_raw[i].components != components ||
		    (pixenc && fwht_raw[i].pixenc != pixenc) ||
		    (wanted && fwht_raw[i].fourcc != wanted))
			continue;
		*fourcc = fwht_raw[i].fourcc;
		*width = coded_dim(hdr->width, wdiv);
		*height = coded_dim(hdr->height, hdiv);
		return 0;
	}
	return m2m_error(EINVAL, "m2m_decoder_send: no raw format%s%.4s "
			 "holds an FWHT frame with flags 0x%x",
			 wanted ? " " : "", wanted ? (const char *)&wanted : "",
			 hdr->flags);
}
