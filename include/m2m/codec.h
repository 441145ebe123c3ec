/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file codec.h
 * libm2m's codecs: a stateful decoder and a stateful encoder, driven
 * exactly as the kernel's Documentation/userspace-api/media/v4l/
 * dev-decoder.rst and dev-encoder.rst say, over any m2m codec node
 * (vicodec's, bcm2835-codec, venus, MFC, coda, wave5); the same decoder
 * on a stateless FWHT node (vicodec's, dev-stateless-decoder.rst, the
 * request API); chains of a decoder, a converter and an encoder that hand
 * buffers on by DMABUF; and the FWHT bitstream's frame header, the one
 * bitstream libm2m parses (vicodec's format).
 *
 * The decoder is a pull loop, as FFmpeg's send_packet/receive_frame:
 * m2m_decoder_send() gives it coded bytes, m2m_decoder_receive() takes a
 * decoded frame, which stays the caller's until m2m_decoder_release().
 * The encoder is the same loop the other way: m2m_encoder_send() takes a
 * frame, m2m_encoder_receive() gives a packet. A chain is the decoder's
 * loop with the encoder's packets coming out.
 * Threads: decoders, encoders and chains keep m2m_device's contract
 * (m2m.h; docs/libm2m.md, "Threads"). Every function may be called from
 * any thread; a NULL or closed object gives -EINVAL with a message, never
 * a crash. Calls on one object are serialised by its lock, except that
 * their waits (a receive with a timeout, a send waiting for room, a
 * chain's polls) happen without it, so one thread may send while another
 * receives with timeout -1. No call waits past its timeout. A close from
 * another thread ends the waits at once: the calls waiting, and those
 * made from then on, return -EINVAL; the object is freed once every call
 * in flight has returned.
 *
 * @code
 * struct m2m_decoder_options opts = M2M_DECODER_OPTIONS_INIT;
 * struct m2m_decoder *dec;
 * struct m2m_frame frame;
 * opts.coded_fourcc = M2M_FOURCC('F', 'W', 'H', 'T');
 * m2m_decoder_open(&dec, "/dev/video3", &opts);
 * while (read_packet(&pkt)) {
 *         while (m2m_decoder_send(dec, pkt.data, pkt.size, pkt.pts) == -EAGAIN)
 *                 if (m2m_decoder_receive(dec, &frame, -1) == 0) {
 *                         show(&frame);
 *                         m2m_decoder_release(dec, &frame);
 *                 }
 * }
 * m2m_decoder_drain(dec);
 * while (m2m_decoder_receive(dec, &frame, -1) == 0) {
 *         show(&frame);
 *         m2m_decoder_release(dec, &frame);
 * }
 * m2m_decoder_close(dec);
 * @endcode
 */
#ifndef M2M_CODEC_H
#define M2M_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include <m2m/m2m.h>

#ifdef __cplusplus
extern "C" {
#endif

struct m2m_decoder;

/** Version of struct m2m_decoder_options this header describes. */
#define M2M_DECODER_OPTIONS_VERSION 1

/** How to open a decoder; start from M2M_DECODER_OPTIONS_INIT. */
struct m2m_decoder_options {
	unsigned int version;  /**< M2M_DECODER_OPTIONS_VERSION */
	/** The coded format (V4L2 fourcc) the caller sends; required. */
	uint32_t coded_fourcc;
	/** The decoded format wanted; 0 takes the decoder's choice. */
	uint32_t capture_fourcc;
	/**
	 * The coded size, when the caller knows it (0: the decoder reads it
	 * from the stream). With it, CAPTURE is set up before the first
	 * frame, without waiting for a SOURCE_CHANGE event that a decoder
	 * need not send when the size it was given is right.
	 */
	uint32_t width, height;
	/** Frames the caller holds at once (0: 2): CAPTURE gets the decoder's
	 *  MIN_BUFFERS_FOR_CAPTURE plus these plus one. */
	unsigned int held_frames;
	/** OUTPUT buffers for coded data (0: 4). */
	unsigned int output_buffers;
	/** How long a send may wait for the decoder to take data, in ms
	 *  (0: 5000). */
	int timeout_ms;
};

/** Default options. */
#define M2M_DECODER_OPTIONS_INIT { M2M_DECODER_OPTIONS_VERSION, 0, 0, 0, 0, 0, 0, 0 }

/** A decoded frame, the caller's from m2m_decoder_receive() until
 *  m2m_decoder_release(). */
struct m2m_frame {
	/** Its layout: the decoder's CAPTURE format when it was made (a
	 *  coded size, whose lines may go past the picture). */
	struct m2m_format format;
	/** The picture within it (V4L2's COMPOSE rectangle on CAPTURE; on
	 *  a stateless node, the frame header's size). */
	struct m2m_rect visible;
	/** Its memory planes, mapped; format.num_planes of them. */
	void *data[M2M_MAX_PLANES];
	/** Bytes of each plane that hold the frame. */
	uint32_t bytesused[M2M_MAX_PLANES];
	/** The timestamp of the coded data it came from: in microseconds,
	 *  as V4L2 carries it (ns / 1000 * 1000); on a stateless node, to
	 *  the nanosecond as sent. */
	uint64_t timestamp_ns;
	/** Frame number on CAPTURE, from 0 after open, a seek or a drain. */
	uint32_t sequence;
	/** M2M_BUFFER_ERROR when the decoder says the frame is damaged. */
	uint32_t flags;
	/** The CAPTURE buffer holding it (to export, m2m_export_buffer()). */
	struct m2m_buffer *buffer;
};

/**
 * Open a stateful decoder node and set up its OUTPUT side (dev-decoder.rst,
 * "Initialization"): the coded format, the OUTPUT buffers, STREAMON, and a
 * subscription to SOURCE_CHANGE. CAPTURE is set up when the decoder has
 * read the stream's header, or at once when the options give the size.
 *
 * A node whose OUTPUT lists 'SFWH' (V4L2_PIX_FMT_FWHT_STATELESS) and not
 * 'FWHT' is a stateless FWHT decoder: with coded_fourcc 'FWHT' (or
 * 'SFWH') the decoder drives it through the request API, its media device
 * (the one whose topology lists the node) open with the decoder and one
 * request per OUTPUT buffer. The caller sends the same FWHT frames; the
 * differences are told at each call. CAPTURE is set up at the first
 * frame, from its header, with held_frames + 2 buffers (the frames held,
 * the one decoded into, and the reference).
 *
 * @param[out] out  the decoder; NULL on failure
 * @param name      a device node, or a driver name: the first of that
 *                  driver's nodes that decodes coded_fourcc (vicodec's
 *                  decoder, not its encoder, which is listed first)
 * @param opts      options (coded_fourcc required)
 * @return 0, -ENODEV when the node does not decode coded_fourcc (its
 *         OUTPUT queue does not list it as a compressed format), or is a
 *         stateless node with no media device or whose OUTPUT takes no
 *         requests; -ENOENT when no node of the driver named decodes it;
 *         or a negative errno
 */
M2M_EXPORT int m2m_decoder_open(struct m2m_decoder **out, const char *name,
				const struct m2m_decoder_options *opts);

/**
 * Close the decoder: its device stops and its buffers are freed, frames
 * the caller still holds too. NULL is ignored.
 */
M2M_EXPORT void m2m_decoder_close(struct m2m_decoder *dec);

/** The decoder's device, for what the decoder does not wrap (controls). */
M2M_EXPORT struct m2m_device *m2m_decoder_device(struct m2m_decoder *dec);

/**
 * Give the decoder coded data: one frame, or where the coded format is
 * flagged CONTINUOUS_BYTESTREAM, any chunk of the stream. It is copied
 * into an OUTPUT buffer. Sending after a drain ended starts a new stream
 * (V4L2_DEC_CMD_START, and CAPTURE restarted), losing no frame.
 *
 * On a stateless node: exactly one whole FWHT frame (header and
 * payload), queued in a media request with the header's fields, which
 * then need not be unique timestamps: the decoder uses its own to find
 * references. A frame larger than CAPTURE's format waits for the frames
 * in flight and for the caller to release the frames it holds (-EAGAIN),
 * then CAPTURE is reallocated. Sending after a drain goes on with the
 * same stream.
 *
 * @param data          the bytes
 * @param size          how many, at most an OUTPUT buffer's size
 * @param timestamp_ns  carried to the frame decoded from them
 * @return 0; -EAGAIN when every OUTPUT buffer is taken and the decoder
 *         waits for the caller to receive or release frames first;
 *         -ETIMEDOUT when it took nothing within the options' timeout;
 *         -ENOSPC when size is more than an OUTPUT buffer holds;
 *         -EIO when the decoder failed; on a stateless node -EINVAL,
 *         with nothing queued, when the bytes are not one whole FWHT
 *         frame, when a P-frame has no frame to refer to (the first, or
 *         the first after a seek or a reallocation of CAPTURE: it needs
 *         an I-frame), or when the node refuses the header; or a
 *         negative errno
 */
M2M_EXPORT int m2m_decoder_send(struct m2m_decoder *dec, const void *data,
				size_t size, uint64_t timestamp_ns);

/**
 * Drain (dev-decoder.rst, "Drain"): V4L2_DEC_CMD_STOP; the decoder
 * finishes what it was sent, and m2m_decoder_receive() gives those frames,
 * then -ENODATA. The end is the CAPTURE buffer flagged LAST or -EPIPE,
 * never a count of buffers, nor the deprecated EOS event. A stateless
 * node has no command (dev-stateless-decoder.rst): the drain is over when
 * every frame sent came back and was received.
 * @return 0 or a negative errno
 */
M2M_EXPORT int m2m_decoder_drain(struct m2m_decoder *dec);

/**
 * Take the next decoded frame, in the order the decoder gives them. A
 * resolution change (dev-decoder.rst, "Dynamic Resolution Change") is
 * handled here: the frames of the old size come first; then CAPTURE
 * restarts in the new format, reusing its buffers when they are large
 * enough, otherwise allocating new ones, which waits until the caller has
 * released every frame it holds (-EBUSY until then). On a stateless
 * node, -EAGAIN comes at once when nothing can come: no frame in flight,
 * or every CAPTURE buffer held by the caller or kept as the reference.
 *
 * @param[out] frame    the frame
 * @param timeout_ms    how long to wait: 0 not at all, -1 forever
 * @return 0; -EAGAIN when none came within the timeout; -ENODATA after a
 *         drain's last frame; -EBUSY (above); -EIO when the decoder
 *         failed; -EINVAL when the device was closed; or a negative errno
 */
M2M_EXPORT int m2m_decoder_receive(struct m2m_decoder *dec,
				   struct m2m_frame *frame, int timeout_ms);

/** Give a frame back to the decoder (its buffer is queued again; on a
 *  stateless node, the newest frame's buffer once a newer frame is out,
 *  since the node reads the next P-frame's reference from it). Frames
 *  are the decoder's to read, not to write. */
M2M_EXPORT int m2m_decoder_release(struct m2m_decoder *dec,
				   const struct m2m_frame *frame);

/**
 * Seek (dev-decoder.rst, "Seek"): the coded data sent so far and not yet
 * decoded is dropped (STREAMOFF and STREAMON of OUTPUT), and so is every
 * frame decoded from it that was not received; data sent afterwards
 * decodes as a new start, from a key frame (on a stateless node, a
 * P-frame next is -EINVAL).
 * @return 0 or a negative errno
 */
M2M_EXPORT int m2m_decoder_seek(struct m2m_decoder *dec);

/**
 * The decoded format (CAPTURE), and the picture within it (on a
 * stateless node, the last frame sent's).
 * @return 0, -EAGAIN before the decoder has read the stream's header (on
 *         a stateless node, before the first frame), or a negative errno
 */
M2M_EXPORT int m2m_decoder_get_format(struct m2m_decoder *dec,
				      struct m2m_format *format,
				      struct m2m_rect *visible);

struct m2m_encoder;

/** A control an encoder is opened with (V4L2_CID_*, and its value). */
struct m2m_encoder_control {
	uint32_t id;
	int64_t value;
};

/** Version of struct m2m_encoder_options this header describes. */
#define M2M_ENCODER_OPTIONS_VERSION 1

/** How to open an encoder; start from M2M_ENCODER_OPTIONS_INIT. */
struct m2m_encoder_options {
	unsigned int version;  /**< M2M_ENCODER_OPTIONS_VERSION */
	uint32_t coded_fourcc; /**< the coded format made (required) */
	uint32_t raw_fourcc;   /**< the frames' format (required) */
	uint32_t width, height; /**< the frames' size (required) */
	/** Frames a second, as a fraction (0/0: the encoder's default). */
	uint32_t rate_num, rate_den;
	/** Controls set before streaming starts, each read back. */
	const struct m2m_encoder_control *controls;
	unsigned int num_controls;
	/** Packets the caller holds at once (0: 2). */
	unsigned int held_packets;
	/** OUTPUT buffers for frames (0: 4). */
	unsigned int output_buffers;
	/** How long a send may wait for the encoder, in ms (0: 5000). */
	int timeout_ms;
};

/** Default options. */
#define M2M_ENCODER_OPTIONS_INIT \
	{ M2M_ENCODER_OPTIONS_VERSION, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 0 }

/** Coded data an encoder made, the caller's from m2m_encoder_receive()
 *  until m2m_encoder_release(). */
struct m2m_packet {
	const void *data;      /**< its bytes, mapped */
	size_t size;           /**< how many */
	uint64_t timestamp_ns; /**< the frame's it was made from */
	uint32_t sequence;     /**< packet number on CAPTURE */
	/** V4L2_BUF_FLAG_KEYFRAME, _PFRAME, _BFRAME as the encoder says
	 *  (for FWHT, which vicodec does not flag, as the frame header
	 *  says: KEYFRAME for an I-frame, else PFRAME); M2M_BUFFER_ERROR
	 *  when it failed the frame. */
	uint32_t flags;
	struct m2m_buffer *buffer; /**< the CAPTURE buffer holding it */
};

/**
 * Open a stateful encoder node and set it up as dev-encoder.rst says
 * ("Initialization"): CAPTURE's coded format first, then OUTPUT's raw
 * format and the picture (CROP) at the size given, then the frame rate
 * (S_PARM), then each control, read back: a control the encoder does not
 * keep is an error (-EINVAL, naming it), not a setting silently ignored.
 * Then the buffers of both queues and STREAMON.
 *
 * name is a device node, or a driver name: the first of that driver's
 * nodes that makes coded_fourcc.
 *
 * @return 0, -ENODEV when the node does not make coded_fourcc (its
 *         CAPTURE queue does not list it as a compressed format), -ENOENT
 *         when no node of the driver named makes it, or a negative errno
 */
M2M_EXPORT int m2m_encoder_open(struct m2m_encoder **out, const char *name,
				const struct m2m_encoder_options *opts);

/** Close the encoder; packets the caller holds go too. NULL is ignored. */
M2M_EXPORT void m2m_encoder_close(struct m2m_encoder *enc);

/** The encoder's device, for what the encoder does not wrap. */
M2M_EXPORT struct m2m_device *m2m_encoder_device(struct m2m_encoder *enc);

/**
 * The layout m2m_encoder_send() takes frames in: libm2m's tightly packed
 * one (m2m_format_init()) for the options' format and size.
 */
M2M_EXPORT int m2m_encoder_get_format(struct m2m_encoder *enc,
				      struct m2m_format *raw);

/**
 * Give the encoder a frame, laid out as m2m_encoder_get_format() says; it
 * is copied into an OUTPUT buffer in the encoder's own layout. Sending
 * after a drain ended starts a new stream (V4L2_ENC_CMD_START).
 * @return 0; -EAGAIN when every OUTPUT buffer is taken and the encoder
 *         waits for the caller to receive or release packets first;
 *         -ETIMEDOUT; -ENOSPC when size is less than a frame; or a
 *         negative errno
 */
M2M_EXPORT int m2m_encoder_send(struct m2m_encoder *enc, const void *frame,
				size_t size, uint64_t timestamp_ns);

/**
 * Drain (dev-encoder.rst, "Drain"): V4L2_ENC_CMD_STOP; the packets still
 * to come are received, then -ENODATA. The end is the CAPTURE buffer
 * flagged LAST, or -EPIPE.
 */
M2M_EXPORT int m2m_encoder_drain(struct m2m_encoder *enc);

/**
 * Take the next packet.
 * @return 0; -EAGAIN when none came within timeout_ms (0: do not wait,
 *         -1: forever); -ENODATA after a drain's last packet; or a
 *         negative errno
 */
M2M_EXPORT int m2m_encoder_receive(struct m2m_encoder *enc,
				   struct m2m_packet *packet, int timeout_ms);

/** Give a packet back to the encoder (its buffer is queued again). */
M2M_EXPORT int m2m_encoder_release(struct m2m_encoder *enc,
				   const struct m2m_packet *packet);

/** The FWHT frame header (vicodec's codec-fwht.h), in host order. */
struct m2m_fwht_header {
	uint32_t version;
	uint32_t width, height;
	uint32_t flags;
	uint32_t colorspace, xfer_func, ycbcr_enc, quantization;
	uint32_t payload_size; /**< bytes of the frame after its header */
};

/** Bytes of an FWHT frame header. */
#define M2M_FWHT_HEADER_SIZE 44

/**
 * Read the FWHT frame header at data.
 * @return the bytes of the whole frame (header and payload), which may
 *         be more than size; -EAGAIN when size is less than a header;
 *         -EINVAL when data is not an FWHT frame header
 */
M2M_EXPORT long m2m_fwht_parse_header(struct m2m_fwht_header *hdr,
				      const void *data, size_t size);

struct m2m_chain;

/** Version of struct m2m_chain_options this header describes. */
#define M2M_CHAIN_OPTIONS_VERSION 1

/** Flags of a chain. */
enum m2m_chain_flags {
	/** Copy every frame between the devices (MMAP on both sides), as
	 *  when two devices cannot agree on a layout: the same results,
	 *  and the copies counted. For comparison and for drivers whose
	 *  DMABUF import is broken. */
	M2M_CHAIN_COPY = 1 << 0,
};

/** How to open a chain; start from M2M_CHAIN_OPTIONS_INIT. */
struct m2m_chain_options {
	unsigned int version; /**< M2M_CHAIN_OPTIONS_VERSION */
	/** The decoder's options (coded_fourcc required). */
	struct m2m_decoder_options decoder;
	/** The encoder's options (coded_fourcc required; controls). Its
	 *  raw_fourcc 0 takes the decoder's; width and height are the
	 *  converter's result: 0 keeps the decoded picture's size. */
	struct m2m_encoder_options encoder;
	unsigned int flags; /**< enum m2m_chain_flags */
};

/** Default options. */
#define M2M_CHAIN_OPTIONS_INIT { M2M_CHAIN_OPTIONS_VERSION, \
	M2M_DECODER_OPTIONS_INIT, M2M_ENCODER_OPTIONS_INIT, 0 }

/** What a chain moved, by the library's count. */
struct m2m_chain_stats {
	uint64_t frames;       /**< frames the converter was given */
	/** Bytes of frames the library copied from one device's buffer to
	 *  another's: 0 when every link shares buffers by DMABUF. */
	uint64_t bytes_copied;
	/** Bytes of frames handed on by DMABUF, uncopied. */
	uint64_t bytes_shared;
	/** Links sharing by DMABUF (0, 1 or 2): decoder to converter,
	 *  converter to encoder. */
	unsigned int dmabuf_links;
};

/**
 * Open a chain: a decoder's frames go through a converter (scaling to the
 * encoder's size, and any format change) into an encoder, one device
 * handing its CAPTURE buffers to the next one's OUTPUT by DMABUF (export,
 * then import), so that no frame is copied. Where two devices do not
 * agree on a layout (the receiving device will not take the sender's
 * line pitch), or M2M_CHAIN_COPY asks for it, that link copies each
 * frame instead, counted in m2m_chain_stats. The converter and the
 * encoder are set up when the decoder has read the stream's header. The
 * chain takes one picture size: a resolution change mid-stream is
 * -ENOTSUP.
 * It is a loop like the decoder's: m2m_chain_send() gives it coded data,
 * m2m_chain_receive() takes a packet. Each device's buffers stay with it
 * until the next device is done with them: a stage that falls behind
 * holds the ones before it back (-EAGAIN from send).
 * @param decoder, converter, encoder  device nodes or driver names, as
 *        m2m_open() takes
 * @return 0 or a negative errno
 */
M2M_EXPORT int m2m_chain_open(struct m2m_chain **out, const char *decoder,
			      const char *converter, const char *encoder,
			      const struct m2m_chain_options *opts);

/** Close the chain and its three devices. NULL is ignored. */
M2M_EXPORT void m2m_chain_close(struct m2m_chain *chain);

/**
 * Give the chain coded data, as m2m_decoder_send() takes it.
 * @return 0; -EAGAIN when the chain holds as much as it can and waits for
 *         the caller to receive packets; -ETIMEDOUT; -ENOTSUP when the
 *         picture size changed; or a negative errno
 */
M2M_EXPORT int m2m_chain_send(struct m2m_chain *chain, const void *data,
			      size_t size, uint64_t timestamp_ns);

/** Drain: every frame sent comes out as packets, then -ENODATA. */
M2M_EXPORT int m2m_chain_drain(struct m2m_chain *chain);

/**
 * Take the next packet, as m2m_encoder_receive() says.
 * @return 0; -EAGAIN when none came within timeout_ms (0: do not wait,
 *         -1: forever); -ENODATA after a drain's last packet; -ENOTSUP
 *         when the picture size changed; or a negative errno
 */
M2M_EXPORT int m2m_chain_receive(struct m2m_chain *chain,
				 struct m2m_packet *packet, int timeout_ms);

/** Give a packet back to the chain's encoder. */
M2M_EXPORT int m2m_chain_release(struct m2m_chain *chain,
				 const struct m2m_packet *packet);

/** What the chain moved so far. */
M2M_EXPORT int m2m_chain_get_stats(struct m2m_chain *chain,
				   struct m2m_chain_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* M2M_CODEC_H */
