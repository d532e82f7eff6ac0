/* SPDX-License-Identifier: Apache-2.0
** error.h: the error codes every libschedlint call returns.
** A finding is not an error: a YAML syntax error in an input is a finding (yaml-syntax).
** Errors are what stops a call from doing its job: memory, I/O, a bad config, a bug. */
#ifndef SCHEDLINT_ERROR_H
#define SCHEDLINT_ERROR_H

#include "schedlint/export.h"

typedef enum sl_err {
	SL_OK = 0,      /* success */
	SL_ENOMEM,      /* an allocation failed; outputs are untouched */
	SL_EIO,         /* a file could not be read or written */
	SL_EPARSE,      /* input that cannot be parsed where parsing must succeed */
	SL_ECONFIG,     /* the configuration file is invalid */
	SL_ENOTFOUND,   /* a named thing (rule, file) does not exist */
	SL_EUSAGE,      /* the caller passed invalid arguments */
	SL_EINTERNAL,   /* a bug in schedlint */
	SL_ERR__COUNT
} sl_err;

/* A static string describing err ("out of memory"); never NULL. */
SL_API const char *sl_strerror(sl_err err);

#endif
