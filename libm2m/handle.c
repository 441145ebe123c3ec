// SPDX-License-Identifier: LGPL-2.1-or-later
/* Handles any thread may use and close: see handle.h. */
#include <errno.h>

#include "handle.h"

void m2m_handle_add(struct m2m_registry *reg, struct m2m_handle *h,
		    uintptr_t key, pthread_mutex_t *lock)
{
	h->key = key;
	h->lock = lock;
	h->users = 0;
	h->closing = false;
	pthread_mutex_lock(&reg->lock);
	h->next = reg->list;
	reg->list = h;
	pthread_mutex_unlock(&reg->lock);
}

/* The handle listed under key, or NULL; with reg->lock held. */
static struct m2m_handle *find(struct m2m_registry *reg, uintptr_t key)
{
	struct m2m_handle *h;

	for (h = reg->list; h && h->key != key; h = h->next)
		;
	return h;
}

int m2m_handle_get(struct m2m_registry *reg, uintptr_t key,
		   struct m2m_handle **out)
{
	struct m2m_handle *h;
	int ret = 0;

	pthread_mutex_lock(&reg->lock);
	h = find(reg, key);
	if (!h)
		ret = -ENOENT;
	else if (h->closing)
		ret = -ESHUTDOWN;
	else
		h->users++;
	pthread_mutex_unlock(&reg->lock);
	*out = ret ? NULL : h;
	return ret;
}

void m2m_handle_put(struct m2m_registry *reg, struct m2m_handle *h)
{
	pthread_mutex_lock(&reg->lock);
	h->users--;
	pthread_cond_broadcast(&reg->released);
	pthread_mutex_unlock(&reg->lock);
}

int m2m_handle_enter(struct m2m_registry *reg, uintptr_t key,
		     struct m2m_handle **out)
{
	int ret = m2m_handle_get(reg, key, out);

	if (ret)
		return ret;
	pthread_mutex_lock((*out)->lock);
	if (!m2m_handle_closing(*out))
		return 0;
	m2m_handle_leave(reg, *out);
	*out = NULL;
	return -ESHUTDOWN;
}

void m2m_handle_leave(struct m2m_registry *reg, struct m2m_handle *h)
{
	pthread_mutex_unlock(h->lock);
	m2m_handle_put(reg, h);
}

struct m2m_handle *m2m_handle_close(struct m2m_registry *reg, uintptr_t key)
{
	struct m2m_handle *h;

	pthread_mutex_lock(&reg->lock);
	h = find(reg, key);
	if (h && h->closing) {
		h = NULL;
	} else if (h) {
		__atomic_store_n(&h->closing, true, __ATOMIC_RELEASE);
		h->users++;
	}
	pthread_mutex_unlock(&reg->lock);
	return h;
}

void m2m_handle_drain(struct m2m_registry *reg, struct m2m_handle *h)
{
	struct m2m_handle **p;

	pthread_mutex_lock(&reg->lock);
	while (h->users > 1)
		pthread_cond_wait(&reg->released, &reg->lock);
	for (p = &reg->list; *p != h; p = &(*p)->next)
		;
	*p = h->next;
	h->users = 0;
	pthread_mutex_unlock(&reg->lock);
}

bool m2m_handle_closing(const struct m2m_handle *h)
{
	return __atomic_load_n(&h->closing, __ATOMIC_ACQUIRE);
}
