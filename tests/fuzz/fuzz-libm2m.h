/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What libm2m's fuzzers share: a property that must hold, and a name. */
#ifndef FUZZ_LIBM2M_H
#define FUZZ_LIBM2M_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <m2m/m2m.h>

/* A property that does not hold is a finding: libFuzzer keeps the input. */
#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: %s does not hold (%s)\n",  \
				__FILE__, __LINE__, #cond,                 \
				m2m_last_error());                         \
			abort();                                           \
		}                                                          \
	} while (0)

/* A call that failed did so with a negative errno and a message. */
#define CHECK_RESULT(ret)                                                  \
	CHECK((ret) >= 0 || ((ret) > -4096 && strcmp(m2m_last_error(),     \
						     "no error")))

/* The input as a C string, as a user would type it (freed by the caller). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	CHECK(s);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif /* FUZZ_LIBM2M_H */
