// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Control and menu item names as users type them, on the in-process
 * device: m2m_find_control() by name finds a control that its id finds
 * too, or gives -ENOENT; reading and setting by that name, and choosing a
 * menu item by it, succeed or fail with an errno and a message.
 */
#include <stdint.h>

#include <linux/videodev2.h>

#include "fuzz-libm2m.h"

static struct m2m_device *dev;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	CHECK(m2m_open(&dev, M2M_INPROCESS) == 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = fuzz_string(data, size);
	struct m2m_control_info info, by_id;
	int64_t value;
	int ret;

	ret = m2m_find_control(dev, &info, name, 0);
	CHECK(ret == 0 || ret == -ENOENT);
	if (ret == 0) {
		CHECK(m2m_find_control(dev, &by_id, NULL, info.id) == 0);
		CHECK(by_id.id == info.id && info.name[0]);
		CHECK(m2m_get_control_by_name(dev, &value, name) == 0);
		ret = m2m_set_control_by_name(dev, name, info.default_value);
		CHECK_RESULT(ret);
	} else {
		CHECK(m2m_get_control_by_name(dev, &value, name) == -ENOENT);
	}
	ret = m2m_set_control_menu(dev, V4L2_CID_DEINTERLACING_MODE, name);
	CHECK(ret == 0 || ret == -ERANGE);
	free(name);
	return 0;
}
