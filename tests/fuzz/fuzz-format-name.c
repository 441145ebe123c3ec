// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Format names as users type them (m2m_fourcc_from_name()): a name of the
 * table comes back from m2m_fourcc_to_name() and makes a format; a
 * four-character code is its characters; anything else is 0.
 */
#include <stdint.h>

#include "fuzz-libm2m.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = fuzz_string(data, size);
	uint32_t fourcc = m2m_fourcc_from_name(name);
	const char *back = m2m_fourcc_to_name(fourcc);
	struct m2m_format fmt;

	if (back) {
		CHECK(m2m_fourcc_from_name(back) == fourcc);
		CHECK(m2m_format_init(&fmt, fourcc, 64, 64) == 0);
		CHECK(m2m_format_frame_size(&fmt) > 0);
	} else if (fourcc) {
		CHECK(strlen(name) == 4);
		CHECK(fourcc == M2M_FOURCC(name[0], name[1], name[2], name[3]));
		CHECK(m2m_format_init(&fmt, fourcc, 64, 64) == -EINVAL);
	}
	free(name);
	return 0;
}
