// SPDX-License-Identifier: MIT
/*
 * A program built against an installed libm2m: it calls the library
 * without a device (the format table, and an open that must fail cleanly)
 * and prints what it got, so that tests/install/check-install can see it
 * linked and ran.
 */
#include <errno.h>
#include <stdio.h>

#include <m2m/m2m.h>

int main(void)
{
	struct m2m_format nv12;
	struct m2m_device *dev;
	int ret;

	if (m2m_format_init(&nv12, M2M_FOURCC('N', 'V', '1', '2'), 64,
			    48) < 0 ||
	    m2m_format_frame_size(&nv12) != 64 * 48 * 3 / 2) {
		fprintf(stderr, "consumer: m2m_format_init: %s\n",
			m2m_last_error());
		return 1;
	}
	ret = m2m_open(&dev, "/nonexistent/video9");
	if (ret != -ENOENT) {
		fprintf(stderr, "consumer: m2m_open gave %d, not -ENOENT\n",
			ret);
		return 1;
	}
	printf("consumer: libm2m %d.%d.%d, %s 64x48 is %zu bytes; %s\n",
	       M2M_VERSION_MAJOR, M2M_VERSION_MINOR, M2M_VERSION_PATCH,
	       m2m_fourcc_to_name(nv12.fourcc), m2m_format_frame_size(&nv12),
	       m2m_last_error());
	return 0;
}
