// SPDX-License-Identifier: LGPL-2.1-or-later
/* The library's one error convention: negative errno plus a message. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "m2m-private.h"

static _Thread_local char last_error[256] = "no error";

const char *m2m_last_error(void)
{
	return last_error;
}

int m2m_error(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return -abs(err);
}
