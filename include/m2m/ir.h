/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file ir.h
 * @brief libm2m's IR API: Linux remote-control (rc-core) devices.
 *
 * An rc device receives infrared as mark/space timings that the kernel
 * decodes into scancodes (the protocols enabled in sysfs), and may send
 * them. libm2m finds such devices (vhqv's "vhqv-ir" loopback device, or
 * any receiver), enables protocols, sends raw pulses or scancodes
 * (encoded by the kernel, or by the library's own encoders for devices
 * without kernel encoding) and reads decoded scancodes or raw timings,
 * with a timeout and a pollable fd. It speaks lirc (`/dev/lircN`) and the
 * rc class in sysfs (`/sys/class/rc/rcN`).
 *
 * Protocols are numbered as `enum rc_proto` of <linux/lirc.h>
 * (RC_PROTO_NEC, RC_PROTO_RC5, ...); m2m_ir_protocol_name() and
 * m2m_ir_protocol_from_name() translate, with the names lirc and
 * ir-ctl use ("nec", "nec-x", "rc-6-0", "sony-12", ...).
 *
 * The error convention and thread rules are libm2m's (m2m.h, "Thread
 * safety"): negative errno returns and m2m_last_error(); every function
 * may be called from any thread. Calls on one handle are serialised,
 * except that m2m_ir_read_scancode() and m2m_ir_read_raw() wait without
 * the handle's lock, so that one thread may read while another sends.
 * m2m_ir_close() from another thread ends those waits at once: they, and
 * any call made on the closing handle, return -EINVAL; it frees the
 * handle once they have returned.
 */
#ifndef M2M_IR_H
#define M2M_IR_H

#include "m2m.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An open rc device: its lirc node and its sysfs directory. */
struct m2m_ir;

/** What an rc device says about itself. */
struct m2m_ir_info {
	char name[64];        /**< Device name, e.g. "vhqv-ir". */
	char driver[32];      /**< Driver name, e.g. "vhqv". */
	char sysfs[64];       /**< Its directory, e.g. "/sys/class/rc/rc0". */
	char lirc[32];        /**< Its lirc node, e.g. "/dev/lirc0"; "" if none. */
	uint64_t protocols;   /**< Protocols it can decode: 1 << enum rc_proto. */
	uint64_t enabled;     /**< Protocols enabled now. */
	int can_send;         /**< 1 when it has a transmitter. */
};

/**
 * List the rc devices of the system, in /sys/class/rc order.
 * @param[out] out    an array to release with m2m_ir_free_list()
 * @param[out] count  its number of entries (may be 0)
 * @return 0 or a negative errno
 */
M2M_EXPORT int m2m_ir_list(struct m2m_ir_info **out, size_t *count);

/** Free what m2m_ir_list() returned. NULL is ignored. */
M2M_EXPORT void m2m_ir_free_list(struct m2m_ir_info *list);

/**
 * Open an rc device.
 * @param[out] out  the device; NULL on failure
 * @param name      its device name ("vhqv-ir"), its driver name, "rcN",
 *                  a lirc node path ("/dev/lirc0"), or "auto" (the first
 *                  device that can send, else the first)
 * @return 0, -ENOENT when there is no such device, -ENODEV when it has no
 *         lirc node, or a negative errno
 * @code
 * struct m2m_ir *ir;
 * if (m2m_ir_open(&ir, "vhqv-ir") == 0) {
 *         m2m_ir_set_protocols(ir, 1ull << RC_PROTO_NEC);
 *         m2m_ir_send_scancode(ir, RC_PROTO_NEC, 0x04a1);
 *         m2m_ir_close(ir);
 * }
 * @endcode
 */
M2M_EXPORT int m2m_ir_open(struct m2m_ir **out, const char *name);

/**
 * Close an rc device. Reads other threads wait in end with -EINVAL, and
 * the handle is freed once every call on it has returned. NULL, and a
 * handle already closed, are ignored.
 */
M2M_EXPORT void m2m_ir_close(struct m2m_ir *ir);

/** Describe an open rc device (its protocols as they are now). */
M2M_EXPORT int m2m_ir_get_info(struct m2m_ir *ir, struct m2m_ir_info *info);

/**
 * The name of a protocol ("nec-x"), or NULL for an unknown one.
 */
M2M_EXPORT const char *m2m_ir_protocol_name(unsigned int protocol);

/**
 * The bits a protocol's scancodes may have (the kernel's scancode_bits in
 * drivers/media/rc/rc-main.c; 32 bits for xmp and 16 for cec, which it
 * does not bound), or 0 for a protocol libm2m does not know.
 * @code
 * m2m_ir_scancode_bits(RC_PROTO_RC5);     // 0x1f7f: 5 address, 7 command
 * @endcode
 */
M2M_EXPORT uint64_t m2m_ir_scancode_bits(unsigned int protocol);

/**
 * Whether a protocol can carry a scancode: within its bits
 * (m2m_ir_scancode_bits()) and not one the kernel refuses because it
 * would decode as another protocol's (its rc_validate_scancode(): a nec-x
 * address whose low byte is its high byte inverted is nec's, and so on).
 * @return 0, -ERANGE with a message saying why not, or -EINVAL for an
 *         unknown protocol
 * @code
 * if (m2m_ir_check_scancode(RC_PROTO_NECX, sc) < 0)
 *         fprintf(stderr, "%s\n", m2m_last_error());
 * @endcode
 */
M2M_EXPORT int m2m_ir_check_scancode(unsigned int protocol,
				     uint64_t scancode);

/**
 * A protocol by name, as m2m_ir_protocol_name() gives it (any case; also
 * ir-ctl's spellings without the dash, e.g. "sony12", "rc6_0").
 * @return the enum rc_proto value, or -EINVAL
 */
M2M_EXPORT int m2m_ir_protocol_from_name(const char *name);

/**
 * Enable exactly these decoders (sysfs `protocols`, as `ir-keytable -p`):
 * a protocol bit enables its kernel decoder, which decodes its whole
 * family (NEC also NEC-X and NEC-32).
 * @param protocols  1 << enum rc_proto, or-ed; 0 disables all
 * @return 0, -EINVAL for a protocol the device cannot decode, or a
 *         negative errno
 */
M2M_EXPORT int m2m_ir_set_protocols(struct m2m_ir *ir, uint64_t protocols);

/**
 * Send mark/space timings in microseconds, a mark first (an odd count,
 * none 0), as a transmitter does (lirc LIRC_MODE_PULSE).
 * @return 0, -EINVAL for timings lirc refuses, or a negative errno
 */
M2M_EXPORT int m2m_ir_send_raw(struct m2m_ir *ir, const uint32_t *durations,
			       size_t count);

/**
 * Send a scancode, encoded by the kernel's encoder for the protocol (lirc
 * LIRC_MODE_SCANCODE).
 * @return 0, -EINVAL for a scancode the protocol cannot carry, or a
 *         negative errno
 */
M2M_EXPORT int m2m_ir_send_scancode(struct m2m_ir *ir, unsigned int protocol,
				    uint64_t scancode);

/**
 * Encode a scancode with libm2m's own encoders, for devices without
 * kernel encoding: NEC, NEC-X, NEC-32, RC-5, RC-6 mode 0 and Sony 12, with
 * the kernel's scancode layouts and timings.
 * @param[out] durations  mark/space timings in microseconds, a mark first
 * @param max             room in durations
 * @param protocol        enum rc_proto
 * @param scancode        the scancode
 * @return the number of timings (odd), -EINVAL for a protocol the library
 *         does not encode or a scancode out of its range, -ENOSPC when
 *         max is too small
 * @code
 * uint32_t pulses[128];
 * int n = m2m_ir_encode(pulses, 128, RC_PROTO_RC5, 0x1e05);
 * if (n > 0)
 *         m2m_ir_send_raw(ir, pulses, n);
 * @endcode
 */
M2M_EXPORT int m2m_ir_encode(uint32_t *durations, size_t max,
			     unsigned int protocol, uint32_t scancode);

/**
 * The protocols m2m_ir_encode() encodes, as 1 << enum rc_proto bits.
 * @code
 * if (m2m_ir_encoders() & 1ull << RC_PROTO_RC5)
 *         n = m2m_ir_encode(pulses, 128, RC_PROTO_RC5, 0x1e05);
 * @endcode
 */
M2M_EXPORT uint64_t m2m_ir_encoders(void);

/** A decoded scancode (lirc's struct lirc_scancode). */
struct m2m_ir_scancode {
	uint64_t timestamp_ns; /**< When it was decoded (CLOCK_MONOTONIC). */
	uint32_t protocol;     /**< enum rc_proto. */
	uint32_t flags;        /**< LIRC_SCANCODE_FLAG_TOGGLE, _REPEAT. */
	uint64_t scancode;     /**< The scancode. */
	uint32_t keycode;      /**< The key it maps to, KEY_RESERVED if none. */
};

/**
 * Read the next decoded scancode.
 * @param[out] sc     the scancode
 * @param timeout_ms  how long to wait: 0 not at all, -1 forever
 * @return 0, -ETIMEDOUT when none came in time, -EINVAL when another
 *         thread closes the handle meanwhile, or a negative errno
 */
M2M_EXPORT int m2m_ir_read_scancode(struct m2m_ir *ir,
				    struct m2m_ir_scancode *sc,
				    int timeout_ms);

/**
 * Read received raw timings (lirc LIRC_MODE_MODE2): each value is a
 * duration in microseconds with its kind in the top byte (lirc's
 * LIRC_MODE2_PULSE, _SPACE, _FREQUENCY, _TIMEOUT, _OVERFLOW; use
 * LIRC_IS_PULSE() and LIRC_VALUE() from <linux/lirc.h>). Raw timings are
 * kept apart from scancodes: each has its own lirc file.
 * @param[out] values  where they go
 * @param max          room in values
 * @param timeout_ms   how long to wait for the first: 0, -1 forever
 * @return the number read (at least 1), -ETIMEDOUT, -EINVAL when another
 *         thread closes the handle meanwhile, or a negative errno
 */
M2M_EXPORT int m2m_ir_read_raw(struct m2m_ir *ir, uint32_t *values,
			       size_t max, int timeout_ms);

/**
 * An fd for event loops: readable when m2m_ir_read_scancode() has a
 * scancode. Owned by the handle.
 */
M2M_EXPORT int m2m_ir_get_fd(struct m2m_ir *ir);

/**
 * An fd for event loops: readable when m2m_ir_read_raw() has timings
 * (its own lirc file, apart from the scancodes'). Owned by the handle.
 * @code
 * struct pollfd pfd = { .fd = m2m_ir_get_raw_fd(ir), .events = POLLIN };
 * if (poll(&pfd, 1, 1000) == 1)
 *         n = m2m_ir_read_raw(ir, values, 512, 0);
 * @endcode
 */
M2M_EXPORT int m2m_ir_get_raw_fd(struct m2m_ir *ir);

#ifdef __cplusplus
}
#endif

#endif /* M2M_IR_H */
