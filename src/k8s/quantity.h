/* SPDX-License-Identifier: Apache-2.0
** quantity.h: Kubernetes resource.Quantity (apimachinery pkg/api/resource) without floats:
** the parse verdicts and error wording of ParseQuantity, exact comparison, the checks container
** resource validation makes (negative, MilliValue()%1000 integer test) and String()'s text.
** A quantity is sign x digits x 10^exp with the parse-time rounding (up, to 1n) and the BinarySI
** cap (2^63-1) applied, so two quantities compare exactly. No allocation; thread-safe. */
#ifndef SL_K8S_QUANTITY_H
#define SL_K8S_QUANTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Significant digits schedlint keeps; apimachinery has no limit (see SL_QUANTITY_ETOOLONG). */
#define SL_QUANTITY_MAX_DIGITS 128

typedef enum sl_quantity_format {
	SL_QFMT_DECIMAL_SI = 0,    /* 12M, 500m, 1 */
	SL_QFMT_BINARY_SI,         /* 12Mi */
	SL_QFMT_DECIMAL_EXPONENT   /* 12e6 */
} sl_quantity_format;

typedef enum sl_quantity_status {
	SL_QUANTITY_OK = 0,
	SL_QUANTITY_EFORMAT,    /* ErrFormatWrong: "quantities must match the regular expression ..." */
	SL_QUANTITY_ENUMERIC,   /* ErrNumeric: "unable to parse numeric part of quantity" */
	SL_QUANTITY_ESUFFIX,    /* ErrSuffix: "unable to parse quantity's suffix" */
	SL_QUANTITY_ETOOLONG    /* valid for the API server, but more significant digits than
				   SL_QUANTITY_MAX_DIGITS: schedlint cannot represent it */
} sl_quantity_status;

typedef struct sl_quantity {
	bool neg;                   /* value < 0 (never set for zero) */
	sl_quantity_format format;  /* the format String() uses, after parse-time adjustments */
	bool verbatim;              /* apimachinery keeps the parsed text as String() (its fast
				       path found it canonical): sl_quantity_string returns it */
	int64_t exp;                /* value = digits x 10^exp */
	uint32_t ndigits;           /* 0 for zero */
	char digits[SL_QUANTITY_MAX_DIGITS]; /* '0'..'9', no leading or trailing zero, no NUL */
} sl_quantity;

/* Parses s[0..n) exactly as apimachinery's ParseQuantity (no trimming: " 1" and "1 " fail;
** note the API server's JSON decoder trims spaces before calling it). Fills *out on
** SL_QUANTITY_OK only. Upstream quirks kept: "-", "+", "Ki", "m" parse as 0; "1e4294967296"
** is 1 (the exponent wraps to int32); "1000E" prints as "1" (no suffix above E). */
sl_quantity_status sl_quantity_parse(const char *s, size_t n, sl_quantity *out);

/* The error text for st, the API server's own for the three parse errors; "" for OK. Static. */
const char *sl_quantity_strerror(sl_quantity_status st);

/* Exact comparison: <0, 0, >0 as a < b, a == b, a > b (Quantity.Cmp). */
int sl_quantity_cmp(const sl_quantity *a, const sl_quantity *b);

/* q == 0 / q < 0 (Sign()). */
bool sl_quantity_is_zero(const sl_quantity *q);
bool sl_quantity_is_negative(const sl_quantity *q);

/* True when MilliValue() % 1000 == 0, the test validation applies to extended and other
** integer resources ("must be an integer"). MilliValue rounds up, so 0.9999 passes and 1.0001
** does not; computed exactly (upstream MilliValue wraps for |q| beyond int64 milli). */
bool sl_quantity_is_integer(const sl_quantity *q);

/* q x 10^-scale rounded away from zero to an integer, as ScaledValue(scale) for values that fit:
** scale 0 is Value(), -3 MilliValue(). Returns false (out untouched) when it does not fit int64. */
bool sl_quantity_scaled_value(const sl_quantity *q, int scale, int64_t *out);

/* Writes the canonical form (CanonicalizeBytes: "1500m", "1536Mi", "1e3") into buf as snprintf
** does: NUL-terminated, truncated to bufsz; returns the length the full text needs. */
size_t sl_quantity_canonical(const sl_quantity *q, char *buf, size_t bufsz);

/* Writes what apimachinery's String() returns for the quantity parsed from src[0..n): src
** itself when q->verbatim ("+1k" stays "+1k"), else the canonical form. Same return contract. */
size_t sl_quantity_string(const sl_quantity *q, const char *src, size_t n, char *buf,
			  size_t bufsz);

#endif
