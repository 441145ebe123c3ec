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
#include "m2m-private.h"

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
