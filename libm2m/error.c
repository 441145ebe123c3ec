// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The library's one error convention: a negative errno returned, and a
 * message naming what failed kept per thread for m2m_last_error(). Errors
 * and, at M2M_LOG_DEBUG, every ioctl also go to the application's log
 * callback when it set one; the library itself never prints.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "m2m-private.h"

static _Thread_local char last_error[256] = "no error";

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static m2m_log_fn log_fn;
static enum m2m_log_level log_max_level;
static void *log_payload;
/*
 * The most detailed level a callback takes, -1 with none, read without
 * the lock: messages no one takes (every ioctl's at M2M_LOG_DEBUG) are
 * not formatted.
 */
static int log_wanted = -1;

const char *m2m_last_error(void)
{
	return last_error;
}

void m2m_set_log_callback(m2m_log_fn fn, enum m2m_log_level max_level,
			  void *payload)
{
	pthread_mutex_lock(&log_lock);
	log_fn = fn;
	log_max_level = max_level;
	log_payload = payload;
	__atomic_store_n(&log_wanted, fn ? (int)max_level : -1,
			 __ATOMIC_RELAXED);
	pthread_mutex_unlock(&log_lock);
}

static void log_message(enum m2m_log_level level, const char *message)
{
	m2m_log_fn fn;
	void *payload;

	pthread_mutex_lock(&log_lock);
	fn = level <= log_max_level ? log_fn : NULL;
	payload = log_payload;
	pthread_mutex_unlock(&log_lock);
	if (fn)
		fn(level, message, payload);
}

void m2m_log(enum m2m_log_level level, const char *fmt, ...)
{
	char message[256];
	va_list ap;

	if ((int)level > __atomic_load_n(&log_wanted, __ATOMIC_RELAXED))
		return;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	log_message(level, message);
}

int m2m_error(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	log_message(M2M_LOG_ERROR, last_error);
	return -abs(err);
}
