/* SPDX-License-Identifier: Apache-2.0
** schedlint.h: the public API of libschedlint, a linter and fixer for the Kubernetes manifests
** that place ML inference. Opaque handles and libc types only; every function states who owns
** what it returns. */
#ifndef SCHEDLINT_H
#define SCHEDLINT_H

#include "schedlint/atomic.h"
#include "schedlint/config.h"
#include "schedlint/error.h"
#include "schedlint/escape.h"
#include "schedlint/fdio.h"
#include "schedlint/finding.h"
#include "schedlint/lint.h"
#include "schedlint/rules.h"
#include "schedlint/version.h"

/* The version of the library loaded ("0.1.0"): SL_VERSION_STRING when it was built from the
** same release as the headers (schedlint/version.h). */
SL_API const char *sl_version(void);

#endif
