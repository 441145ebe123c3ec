/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the raw-V4L2 programs of the debug kernel's lane share
 * (vhqv-stress.c, vhqv-fuzz.c): an ioctl that EINTR does not fail, and
 * one seeded random sequence, the same everywhere for a seed, so that a
 * run can be repeated from the seed it printed.
 */
#ifndef VHQV_TEST_H
#define VHQV_TEST_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/ioctl.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static inline int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do
		ret = ioctl(fd, req, arg);
	while (ret < 0 && errno == EINTR);
	return ret;
}

/* xorshift64*: small, and the same sequence everywhere for a seed. */
static uint64_t rng_state;

static inline void rng_seed(uint64_t seed)
{
	rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
}

static inline uint32_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (rng_state * 0x2545f4914f6cdd1dull) >> 32;
}

/* 0 to n - 1 (0 for 0). */
static inline uint32_t below(uint32_t n)
{
	return n ? rng() % n : 0;
}

static inline bool chance(uint32_t one_in)
{
	return below(one_in) == 0;
}

/* An element of an array, at random. */
#define PICK(a)	((a)[below(ARRAY_SIZE(a))])

#endif
