// SPDX-License-Identifier: LGPL-2.1-or-later
/* Controls by V4L2 id. */
#include <errno.h>

#include "m2m-private.h"

int m2m_set_control(struct m2m_device *dev, uint32_t id, int32_t value)
{
	struct v4l2_control ctrl = { .id = id, .value = value };

	M2M_CHECK_DEVICE(dev);
	return M2M_IOCTL(dev, VIDIOC_S_CTRL, &ctrl);
}

int m2m_get_control(struct m2m_device *dev, int32_t *value, uint32_t id)
{
	struct v4l2_control ctrl = { .id = id };
	int ret;

	M2M_CHECK_DEVICE(dev);
	if (!value)
		return m2m_error(EINVAL, "m2m_get_control: value is NULL");
	ret = M2M_IOCTL(dev, VIDIOC_G_CTRL, &ctrl);
	if (ret < 0)
		return ret;
	*value = ctrl.value;
	return 0;
}
