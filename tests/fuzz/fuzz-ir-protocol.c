// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * IR protocol names as users type them, and scancodes for them: a name
 * m2m_ir_protocol_from_name() takes comes back from m2m_ir_protocol_name()
 * and has scancode bits; a scancode m2m_ir_check_scancode() accepts, the
 * library's encoder (when it has one) encodes.
 */
#include <stdint.h>

#include <m2m/ir.h>

#include "fuzz-libm2m.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t scancode = 0;
	uint32_t pulses[1024];
	char *name;
	int protocol, ret;

	/* The first 8 bytes are a scancode, the rest the name. */
	if (size >= sizeof(scancode)) {
		memcpy(&scancode, data, sizeof(scancode));
		data += sizeof(scancode);
		size -= sizeof(scancode);
	}
	name = fuzz_string(data, size);
	protocol = m2m_ir_protocol_from_name(name);
	CHECK(protocol >= 0 || protocol == -EINVAL);
	if (protocol >= 0) {
		const char *canonical = m2m_ir_protocol_name(protocol);

		CHECK(canonical);
		CHECK(m2m_ir_protocol_from_name(canonical) == protocol);
		CHECK(m2m_ir_scancode_bits(protocol) != 0);
		ret = m2m_ir_check_scancode(protocol, scancode);
		CHECK(ret == 0 || ret == -ERANGE);
		if (ret == 0 && m2m_ir_encoders() >> protocol & 1)
			CHECK(m2m_ir_encode(pulses, 1024, protocol,
					    (uint32_t)scancode) > 0);
	}
	free(name);
	return 0;
}
