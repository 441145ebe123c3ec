/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef TEST_TRANSPORT_SYSCALL_H
#define TEST_TRANSPORT_SYSCALL_H

#include "transport.h"

extern const struct m2m_transport test_transport_syscall;

#endif /* TEST_TRANSPORT_SYSCALL_H */
