/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the decoder and the encoder share (codec.c): the codec commands,
 * the OUTPUT buffers they fill, and copying a frame between two layouts.
 */
#ifndef M2M_CODEC_PRIVATE_H
#define M2M_CODEC_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "m2m/codec.h"
#include "m2m-private.h"

/*
 * The handles of decoders, encoders and chains, with m2m_device's thread
 * contract (handle.h, m2m.h): each kind is listed in a registry of its
 * own, so that a NULL, closed or forged pointer (or one of another kind)
 * is refused with -EINVAL and never read; a call holds a reference and
 * the object's lock, which it drops while it waits on a device
 * (m2m_codec_wait(); the chain's own poll between m2m_codec_unlock() and
 * m2m_codec_relock()), so that one thread may send while another waits to
 * receive. Closing marks the handle closing and interrupts the object's
 * devices (m2m_codec_interrupt()): every wait on them, now or to come,
 * ends at once, and the calls in flight return -EINVAL; the object is
 * freed once they have all left.
 */
struct m2m_codec_kind {
	struct m2m_registry registry;
	const char *name;	/* "decoder", "encoder", "chain": for messages */
	const char *arg;	/* the functions' argument: "dec", "enc" */
};

#define M2M_CODEC_KIND_INIT(name, arg) { M2M_REGISTRY_INIT, name, arg }

struct m2m_codec_handle {
	struct m2m_handle handle;
	pthread_mutex_t lock;
	struct m2m_codec_kind *kind;
	/* Bumped each time a thread lets the lock go: a wait that sees it
	 * move knows another call may have taken what it waits for. */
	unsigned int unlocks;
};

/* A new object's handle, not listed yet; m2m_codec_handle_destroy()
 * undoes it (after m2m_codec_close_end() once listed). */
void m2m_codec_handle_init(struct m2m_codec_handle *ch,
			   struct m2m_codec_kind *kind);
void m2m_codec_handle_destroy(struct m2m_codec_handle *ch);

/* List the handle of obj, opened: from now on any thread may call it. */
void m2m_codec_handle_add(struct m2m_codec_handle *ch, const void *obj);

/* Take a reference on obj and its lock: 0, or -EINVAL naming func when
 * obj is NULL, not an open object of this kind, or closing. */
int m2m_codec_enter(struct m2m_codec_kind *kind, const void *obj,
		    const char *func);

/* m2m_codec_enter() for the function it begins, returning its refusal. */
#define M2M_CODEC_ENTER(kind, obj)                                         \
	do {                                                               \
		int enter_ret_ = m2m_codec_enter(kind, obj, __func__);     \
		if (enter_ret_ < 0)                                        \
			return enter_ret_;                                 \
	} while (0)

/* The end of a call that m2m_codec_enter() began, returning ret; -EINVAL
 * naming func instead of a failure when the object began closing
 * meanwhile (what failed was the close's doing). */
int m2m_codec_leave(struct m2m_codec_handle *ch, int ret, const char *func);

/* Start closing obj: NULL when it is not open or another thread closes
 * it; else its handle, closing, which m2m_codec_close_end() drains once
 * the closer has interrupted the object's devices. */
struct m2m_codec_handle *m2m_codec_close_begin(struct m2m_codec_kind *kind,
					       const void *obj);
void m2m_codec_close_end(struct m2m_codec_handle *ch);

/* End every wait on dev, those going on and those to come, for a close. */
void m2m_codec_interrupt(struct m2m_device *dev);

/* Drop the lock of the call in flight for a wait, and take it back: 0, or
 * -EINVAL when the object began closing meanwhile. */
void m2m_codec_unlock(struct m2m_codec_handle *ch);
int m2m_codec_relock(struct m2m_codec_handle *ch);

/*
 * The deadline of a call that may wait more than once, timeout_ms from
 * now (-1: none), and the ms left until it (0 once it passed, -1 when
 * there is none): each wait gets what is left, so that the call as a
 * whole returns within its timeout.
 */
int64_t m2m_codec_deadline(int timeout_ms);
int m2m_codec_left(int64_t deadline);

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

/*
 * Wait up to timeout_ms, without ch's lock, for what a codec takes from
 * its device (enum m2m_ready bits): 1 when some came, or when another
 * call ran meanwhile (it may have taken what this one waited for: the
 * caller looks again); 0 on timeout or when the device is merely idle;
 * -EINVAL when the object began closing meanwhile; or a negative errno.
 */
int m2m_codec_wait(struct m2m_codec_handle *ch, struct m2m_device *dev,
		   unsigned int wanted, int timeout_ms);

/* Take back every OUTPUT buffer the device is done with. */
int m2m_codec_take_output(struct m2m_device *dev);

/* An OUTPUT buffer the device does not hold, or NULL. */
struct m2m_buffer *m2m_codec_free_output(struct m2m_device *dev);

/*
 * A decoder's CAPTURE buffers on the caller's side: the frames decoded and
 * not yet received, in the order they came, and those the caller holds.
 */
struct m2m_codec_frames {
	unsigned int count;	/* CAPTURE buffers */
	unsigned int *ready;
	unsigned int ready_head, ready_count;
	bool *held;
	unsigned int held_count;
};

/* For count CAPTURE buffers, none ready or held; on failure (-ENOMEM)
 * f is as it was. */
int m2m_codec_frames_alloc(struct m2m_codec_frames *f, unsigned int count);
void m2m_codec_frames_free(struct m2m_codec_frames *f);
/* CAPTURE buffer index holds a decoded frame for the caller. */
void m2m_codec_frames_add(struct m2m_codec_frames *f, unsigned int index);
/* The oldest ready frame's buffer, held by the caller from now when hold
 * says so (received), else not (dropped); there must be one. */
unsigned int m2m_codec_frames_take(struct m2m_codec_frames *f, bool hold);
/* The caller gives frame back: its buffer index, or -EINVAL with a
 * message when the caller does not hold it. */
int m2m_codec_frames_release(struct m2m_codec_frames *f,
			     struct m2m_device *dev,
			     const struct m2m_frame *frame);

/* A decoded frame of buf in that format and picture. */
void m2m_codec_fill_frame(struct m2m_frame *frame,
			  const struct m2m_format *format,
			  const struct m2m_rect *visible,
			  struct m2m_buffer *buf);

/*
 * stateless.c: the decoder on a stateless node, which m2m_decoder_open()
 * picks when the node's OUTPUT lists 'SFWH' (and not 'FWHT') and the
 * caller sends FWHT; the decoder's calls go to their counterparts here,
 * their arguments checked.
 */
struct m2m_stateless;
bool m2m_stateless_takes(struct m2m_device *dev, uint32_t coded_fourcc);
int m2m_stateless_open(struct m2m_stateless **out, struct m2m_device *dev,
		       struct m2m_codec_handle *owner,
		       const struct m2m_decoder_options *opts);
void m2m_stateless_close(struct m2m_stateless *sl);
int m2m_stateless_send(struct m2m_stateless *sl, const void *data,
		       size_t size, uint64_t timestamp_ns);
int m2m_stateless_drain(struct m2m_stateless *sl);
int m2m_stateless_receive(struct m2m_stateless *sl, struct m2m_frame *frame,
			  int timeout_ms);
int m2m_stateless_release(struct m2m_stateless *sl,
			  const struct m2m_frame *frame);
int m2m_stateless_seek(struct m2m_stateless *sl);
int m2m_stateless_get_format(struct m2m_stateless *sl,
			     struct m2m_format *format,
			     struct m2m_rect *visible);

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

/*
 * fwht.c: the raw format vicodec decodes an FWHT frame of this header
 * into (wanted, when it is one that fits; else the first that does), and
 * the coded size, in whole blocks: 0, or -EINVAL when none fits.
 */
int m2m_fwht_raw_format(uint32_t *fourcc, uint32_t *width, uint32_t *height,
			const struct m2m_fwht_header *hdr, uint32_t wanted);

#endif
