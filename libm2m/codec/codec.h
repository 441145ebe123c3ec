/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the decoder and the encoder share (codec.c): the codec commands,
 * the OUTPUT buffers they fill, and copying a frame between two layouts.
 */
#ifndef M2M_CODEC_PRIVATE_H
#define M2M_CODEC_PRIVATE_H

#include <stdbool.h>

#include "m2m/codec.h"
#include "m2m-private.h"

/* Where a codec's stream is: OUTPUT started, a drain asked for, done. */
struct m2m_codec_flow {
	bool decoder;
	bool output_streaming;
	bool draining, drained;
};

/* Queue a filled OUTPUT buffer, starting OUTPUT on the first. */
int m2m_codec_queue_output(struct m2m_device *dev, struct m2m_codec_flow *flow,
			   struct m2m_buffer *buf);

/* Drain: STOP, or done at once when nothing was sent; 0 when a drain is
 * going on or done already. */
int m2m_codec_drain(struct m2m_device *dev, struct m2m_codec_flow *flow);

/* VIDIOC_DECODER_CMD (decoder) or VIDIOC_ENCODER_CMD, logged on failure;
 * with quiet_busy, EBUSY (a drain going on) is 0 and not logged. */
int m2m_codec_cmd(struct m2m_device *dev, bool decoder, uint32_t cmd,
		  bool quiet_busy);

/* Whether a queue of dev lists fourcc as a compressed format: OUTPUT
 * for a decoder, CAPTURE for an encoder. */
bool m2m_codec_lists_coded(struct m2m_device *dev, enum m2m_queue queue,
			   uint32_t fourcc);

/* Take back every OUTPUT buffer the device is done with. */
int m2m_codec_take_output(struct m2m_device *dev);

/* An OUTPUT buffer the device does not hold, or NULL. */
struct m2m_buffer *m2m_codec_free_output(struct m2m_device *dev);

/* Copy the lines both layouts of one fourcc have, plane by plane. */
int m2m_codec_copy_frame(void *dst, const struct m2m_format *dst_fmt,
			 const void *src, const struct m2m_format *src_fmt);

/* The encoder with OUTPUT buffers of the memory given: m2m_encoder_open()
 * is MMAP; a chain (chain.c) imports its converter's frames as DMABUF. */
int m2m_encoder_open_memory(struct m2m_encoder **out, const char *name,
			    const struct m2m_encoder_options *opts,
			    enum m2m_memory output_memory);

/* A DMABUF encoder's frame: OUTPUT buffer index, filled by another
 * device in the encoder's own layout (its OUTPUT format), as fd. */
int m2m_encoder_queue_dmabuf(struct m2m_encoder *enc, unsigned int index,
			     int fd, uint64_t timestamp_ns);

#endif
