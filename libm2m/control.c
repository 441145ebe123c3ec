// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Controls: read once at open (VIDIOC_QUERY_EXT_CTRL), found by id or by
 * name, checked against their range, step and menu before they are set,
 * so a wrong value gets -ERANGE and a message that says what the control
 * takes, where V4L2 would silently clamp it.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "m2m-private.h"

int m2m_controls_load(struct m2m_device *dev)
{
	struct v4l2_query_ext_ctrl q = { 0 };
	struct m2m_control_info *controls = NULL;
	unsigned int n = 0;

	for (;;) {
		struct m2m_control_info *c;

		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
		if (m2m_xioctl_quiet(dev, VIDIOC_QUERY_EXT_CTRL, &q) < 0)
			break;
		if (q.type == V4L2_CTRL_TYPE_CTRL_CLASS ||
		    q.flags & V4L2_CTRL_FLAG_DISABLED)
			continue;
		c = realloc(controls, (n + 1) * sizeof(*c));
		if (!c) {
			free(controls);
			return m2m_error(ENOMEM, "m2m_open: out of memory");
		}
		controls = c;
		c = &controls[n++];
		memset(c, 0, sizeof(*c));
		c->id = q.id;
		c->type = q.type;
		memcpy(c->name, q.name, sizeof(c->name) - 1);
		c->minimum = q.minimum;
		c->maximum = q.maximum;
		c->step = q.step;
		c->default_value = q.default_value;
		c->flags = q.flags;
	}
	dev->controls = controls;
	dev->num_controls = n;
	return 0;
}

/* "Horizontal Flip" as an identifier: "horizontal_flip". */
static void identifier(char *out, size_t size, const char *name)
{
	size_t n = 0;
	bool gap = false;

	for (; *name && n + 1 < size; name++) {
		if (isalnum((unsigned char)*name)) {
			if (gap && n)
				out[n++] = '_';
			if (n + 1 < size)
				out[n++] = (char)tolower((unsigned char)*name);
			gap = false;
		} else {
			gap = true;
		}
	}
	out[n] = '\0';
}

static const struct m2m_control_info *find(const struct m2m_device *dev,
					   const char *name, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < dev->num_controls; i++) {
		const struct m2m_control_info *c = &dev->controls[i];
		char ident[sizeof(c->name)];

		if (!name) {
			if (c->id == id)
				return c;
			continue;
		}
		identifier(ident, sizeof(ident), c->name);
		if (!strcasecmp(c->name, name) || !strcmp(ident, name))
			return c;
	}
	return NULL;
}

static int not_found(const struct m2m_device *dev, const char *func,
		     const char *name, uint32_t id)
{
	if (name)
		return m2m_error(ENOENT, "%s: %s has no control \"%s\"", func,
				 dev->info.path, name);
	return m2m_error(ENOENT, "%s: %s has no control 0x%08x", func,
			 dev->info.path, id);
}

int m2m_control_count(struct m2m_device *dev)
{
	M2M_ENTER(dev);
	return m2m_leave(dev, (int)dev->num_controls);
}

int m2m_control_at(struct m2m_device *dev, struct m2m_control_info *info,
		   unsigned int index)
{
	M2M_ENTER(dev);
	if (!info)
		return m2m_leave(dev, m2m_error(EINVAL,
				 "m2m_control_at: info is NULL"));
	if (index >= dev->num_controls)
		return m2m_leave(dev, m2m_error(ENOENT, "m2m_control_at: %s "
				 "has %u controls", dev->info.path,
				 dev->num_controls));
	*info = dev->controls[index];
	return m2m_leave(dev, 0);
}

int m2m_find_control(struct m2m_device *dev, struct m2m_control_info *info,
		     const char *name, uint32_t id)
{
	const struct m2m_control_info *c;

	M2M_ENTER(dev);
	if (!info)
		return m2m_leave(dev, m2m_error(EINVAL,
				 "m2m_find_control: info is NULL"));
	c = find(dev, name, id);
	if (!c)
		return m2m_leave(dev, not_found(dev, __func__, name, id));
	*info = *c;
	return m2m_leave(dev, 0);
}

static bool is_menu(const struct m2m_control_info *c)
{
	return c->type == V4L2_CTRL_TYPE_MENU ||
	       c->type == V4L2_CTRL_TYPE_INTEGER_MENU;
}

/* QUERYMENU: 0, or -ENOENT for an index the menu skips. */
static int query_menu(struct m2m_device *dev, const struct m2m_control_info *c,
		      uint32_t index, struct v4l2_querymenu *m)
{
	memset(m, 0, sizeof(*m));
	m->id = c->id;
	m->index = index;
	if (index < c->minimum || index > c->maximum ||
	    m2m_xioctl_quiet(dev, VIDIOC_QUERYMENU, m) < 0)
		return -ENOENT;
	return 0;
}

int m2m_get_menu_item(struct m2m_device *dev, struct m2m_menu_item *item,
		      uint32_t id, uint32_t index)
{
	const struct m2m_control_info *c;
	struct v4l2_querymenu m;

	M2M_ENTER(dev);
	if (!item)
		return m2m_leave(dev, m2m_error(EINVAL,
				 "m2m_get_menu_item: item is NULL"));
	c = find(dev, NULL, id);
	if (!c)
		return m2m_leave(dev, not_found(dev, __func__, NULL, id));
	if (!is_menu(c))
		return m2m_leave(dev, m2m_error(EINVAL, "m2m_get_menu_item: "
				 "\"%s\" is not a menu", c->name));
	if (query_menu(dev, c, index, &m) < 0)
		return m2m_leave(dev, m2m_error(ENOENT, "m2m_get_menu_item: "
				 "\"%s\" has no item %u", c->name, index));
	memset(item, 0, sizeof(*item));
	item->index = index;
	if (c->type == V4L2_CTRL_TYPE_MENU)
		memcpy(item->name, m.name, sizeof(item->name) - 1);
	else
		item->value = m.value;
	return m2m_leave(dev, 0);
}

/* Whether the control takes value; -ERANGE with a message if not. */
static int check_value(struct m2m_device *dev,
		       const struct m2m_control_info *c, int64_t value,
		       const char *func)
{
	struct v4l2_querymenu m;

	if (c->flags & V4L2_CTRL_FLAG_READ_ONLY)
		return m2m_error(EACCES, "%s: \"%s\" is read-only", func,
				 c->name);
	if (c->type == V4L2_CTRL_TYPE_BUTTON)
		return 0;
	if (value < c->minimum || value > c->maximum)
		return m2m_error(ERANGE, "%s: %" PRId64 " is out of the range "
				 "of \"%s\", %" PRId64 " to %" PRId64, func,
				 value, c->name, c->minimum, c->maximum);
	if (is_menu(c)) {
		if (query_menu(dev, c, (uint32_t)value, &m) < 0)
			return m2m_error(ERANGE, "%s: \"%s\" has no menu item "
					 "%" PRId64, func, c->name, value);
		return 0;
	}
	if (c->type != V4L2_CTRL_TYPE_BITMASK && c->step > 1 &&
	    (uint64_t)(value - c->minimum) % c->step)
		return m2m_error(ERANGE, "%s: \"%s\" takes %" PRId64 " plus "
				 "multiples of %" PRIu64 ", not %" PRId64,
				 func, c->name, c->minimum, c->step, value);
	return 0;
}

static int set_value(struct m2m_device *dev, const struct m2m_control_info *c,
		     int64_t value, const char *func)
{
	struct v4l2_ext_control ctrl = { .id = c->id };
	struct v4l2_ext_controls ctrls = {
		.which = V4L2_CTRL_WHICH_CUR_VAL,
		.count = 1,
		.controls = &ctrl,
	};
	int ret = check_value(dev, c, value, func);

	if (ret < 0)
		return ret;
	if (c->type == V4L2_CTRL_TYPE_INTEGER64)
		ctrl.value64 = value;
	else
		ctrl.value = (int32_t)value;
	return M2M_IOCTL(dev, VIDIOC_S_EXT_CTRLS, &ctrls);
}

static int get_value(struct m2m_device *dev, const struct m2m_control_info *c,
		     int64_t *value)
{
	struct v4l2_ext_control ctrl = { .id = c->id };
	struct v4l2_ext_controls ctrls = {
		.which = V4L2_CTRL_WHICH_CUR_VAL,
		.count = 1,
		.controls = &ctrl,
	};
	int ret = M2M_IOCTL(dev, VIDIOC_G_EXT_CTRLS, &ctrls);

	if (ret == 0)
		*value = c->type == V4L2_CTRL_TYPE_INTEGER64 ? ctrl.value64 :
			 ctrl.value;
	return ret;
}

/* The control for a setter or getter, by name or by id. */
static int lookup(struct m2m_device *dev, const struct m2m_control_info **c,
		  const char *name, uint32_t id, bool by_name,
		  const char *func)
{
	if (by_name && !name)
		return m2m_error(EINVAL, "%s: name is NULL", func);
	*c = find(dev, by_name ? name : NULL, id);
	return *c ? 0 : not_found(dev, func, by_name ? name : NULL, id);
}

int m2m_set_control(struct m2m_device *dev, uint32_t id, int64_t value)
{
	const struct m2m_control_info *c;
	int ret;

	M2M_ENTER(dev);
	ret = lookup(dev, &c, NULL, id, false, __func__);
	if (ret == 0)
		ret = set_value(dev, c, value, __func__);
	return m2m_leave(dev, ret);
}

int m2m_set_control_by_name(struct m2m_device *dev, const char *name,
			    int64_t value)
{
	const struct m2m_control_info *c;
	int ret;

	M2M_ENTER(dev);
	ret = lookup(dev, &c, name, 0, true, __func__);
	if (ret == 0)
		ret = set_value(dev, c, value, __func__);
	return m2m_leave(dev, ret);
}

int m2m_set_control_menu(struct m2m_device *dev, uint32_t id,
			 const char *item)
{
	const struct m2m_control_info *c;
	struct v4l2_querymenu m;
	int64_t i;
	int ret;

	M2M_ENTER(dev);
	ret = lookup(dev, &c, NULL, id, false, __func__);
	if (ret == 0 && !item)
		ret = m2m_error(EINVAL, "m2m_set_control_menu: item is NULL");
	if (ret == 0 && c->type != V4L2_CTRL_TYPE_MENU)
		ret = m2m_error(EINVAL, "m2m_set_control_menu: \"%s\" is not "
				"a menu of names", c->name);
	if (ret < 0)
		return m2m_leave(dev, ret);
	for (i = c->minimum; i <= c->maximum; i++)
		if (query_menu(dev, c, (uint32_t)i, &m) == 0 &&
		    !strcasecmp((const char *)m.name, item))
			return m2m_leave(dev, set_value(dev, c, i, __func__));
	return m2m_leave(dev, m2m_error(ERANGE, "m2m_set_control_menu: "
			 "\"%s\" has no item \"%s\"", c->name, item));
}

int m2m_get_control(struct m2m_device *dev, int64_t *value, uint32_t id)
{
	const struct m2m_control_info *c;
	int ret;

	M2M_ENTER(dev);
	ret = lookup(dev, &c, NULL, id, false, __func__);
	if (ret == 0 && !value)
		ret = m2m_error(EINVAL, "m2m_get_control: value is NULL");
	if (ret == 0)
		ret = get_value(dev, c, value);
	return m2m_leave(dev, ret);
}

int m2m_get_control_by_name(struct m2m_device *dev, int64_t *value,
			    const char *name)
{
	const struct m2m_control_info *c;
	int ret;

	M2M_ENTER(dev);
	ret = lookup(dev, &c, name, 0, true, __func__);
	if (ret == 0 && !value)
		ret = m2m_error(EINVAL, "m2m_get_control_by_name: value is NULL");
	if (ret == 0)
		ret = get_value(dev, c, value);
	return m2m_leave(dev, ret);
}

int m2m_set_control_request(struct m2m_device *dev, uint32_t id,
			    const void *ptr, uint32_t size, int request_fd)
{
	const struct m2m_control_info *c;
	struct v4l2_ext_control ctrl = {
		.id = id,
		.size = size,
		.ptr = (void *)ptr,
	};
	struct v4l2_ext_controls ctrls = {
		.which = V4L2_CTRL_WHICH_REQUEST_VAL,
		.request_fd = request_fd,
		.count = 1,
		.controls = &ctrl,
	};
	int ret;

	M2M_ENTER(dev);
	ret = lookup(dev, &c, NULL, id, false, __func__);
	if (ret == 0 && c->type < V4L2_CTRL_COMPOUND_TYPES)
		ret = m2m_error(EINVAL, "%s: \"%s\" is not a compound control",
				__func__, c->name);
	if (ret == 0)
		ret = M2M_IOCTL(dev, VIDIOC_S_EXT_CTRLS, &ctrls);
	return m2m_leave(dev, ret);
}
