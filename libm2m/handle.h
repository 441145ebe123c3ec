/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The lifetime of a handle that any thread may use and any thread may
 * close: libm2m's devices (device.c) and IR handles (ir.c), and the
 * in-process device's contexts (inprocess/context.c) each embed a struct
 * m2m_handle and list it in a registry of their kind.
 *
 * - A call finds its handle by key in the registry and takes a reference
 *   (m2m_handle_get()); a key that is not listed (never opened, closed,
 *   forged) is refused without anything behind it being read. A handle
 *   with a lock serialises its calls: m2m_handle_enter() takes the
 *   reference and the lock, m2m_handle_leave() drops both.
 * - Closing (m2m_handle_close()) marks the handle closing: from then on
 *   m2m_handle_get() refuses it, and calls that hold a reference see
 *   m2m_handle_closing(). The closer then wakes the calls that wait (how
 *   is the handle's own business), waits until its reference is the last
 *   (m2m_handle_drain()), which unlists the handle, and only then frees
 *   what the handle owns.
 *
 * So nothing is freed while another thread can still reach it.
 */
#ifndef M2M_HANDLE_H
#define M2M_HANDLE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct m2m_handle {
	uintptr_t key;		/* what calls name the handle by */
	pthread_mutex_t *lock;	/* what enter takes, or NULL */
	unsigned int users;	/* references: calls in flight, the closer */
	bool closing;
	struct m2m_handle *next;
};

struct m2m_registry {
	pthread_mutex_t lock;
	/* A reference was dropped: a closer may be waiting for it. */
	pthread_cond_t released;
	struct m2m_handle *list;
};

#define M2M_REGISTRY_INIT \
	{ PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL }

/* The structure a struct m2m_handle is embedded in, as the kernel's. */
#define m2m_container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/*
 * List a new handle under key, with the lock its calls take (or NULL); it
 * cannot fail (the list is intrusive).
 */
void m2m_handle_add(struct m2m_registry *reg, struct m2m_handle *h,
		    uintptr_t key, pthread_mutex_t *lock);

/*
 * The handle listed under key, with a reference for the caller: 0,
 * -ENOENT when none is listed, -ESHUTDOWN when it is closing.
 */
int m2m_handle_get(struct m2m_registry *reg, uintptr_t key,
		   struct m2m_handle **out);

/* Drop a reference m2m_handle_get() or m2m_handle_close() gave. */
void m2m_handle_put(struct m2m_registry *reg, struct m2m_handle *h);

/*
 * m2m_handle_get(), then the handle's lock: 0, or -ENOENT, or -ESHUTDOWN
 * when it is closing, also when it began closing while the call waited
 * for the lock (nothing is then held).
 */
int m2m_handle_enter(struct m2m_registry *reg, uintptr_t key,
		     struct m2m_handle **out);

/* The end of a call m2m_handle_enter() began: unlock, drop the reference. */
void m2m_handle_leave(struct m2m_registry *reg, struct m2m_handle *h);

/*
 * Start closing the handle listed under key, with a reference for the
 * closer; NULL when none is listed or another thread is closing it.
 */
struct m2m_handle *m2m_handle_close(struct m2m_registry *reg, uintptr_t key);

/*
 * Wait until the closer's reference is the only one, then unlist the
 * handle: no other thread can reach it any more.
 */
void m2m_handle_drain(struct m2m_registry *reg, struct m2m_handle *h);

/* Whether the handle is closing; for calls that hold a reference. */
bool m2m_handle_closing(const struct m2m_handle *h);

#endif /* M2M_HANDLE_H */
