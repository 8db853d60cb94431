/*
 * qty.h - Kubernetes resource quantities (k8s.io/apimachinery
 * pkg/api/resource), parsed, compared, added and printed exactly as the API
 * server does, with no floating point anywhere.
 *
 * A struct qf_qty is a value type (no heap, copy freely).  It remembers the
 * format family of the text it was parsed from (DecimalSI, BinarySI,
 * DecimalExponent) because the canonical form depends on it: "2048Mi" prints
 * as "2Gi", "1.5" as "1500m", "0.5Gi" as "512Mi", "1e3" as "1e3".  Values
 * finer than 1n are rounded up to 1n, as Kubernetes does.
 *
 * Errors: parse returns QF_EINVAL for text that is not a quantity and
 * QF_ETOOBIG for one that does not fit; arithmetic returns QF_ETOOBIG on
 * overflow and never wraps.  These functions add no diagnostics: the caller
 * knows the file:line:col and reports it.  All functions are thread-safe.
 *
 * Kueue amounts: Kueue does its quota math on int64 "amounts": millicores for
 * `cpu`, base units (rounded up) for every other resource, saturating at
 * QF_QTY_UNLIMITED.  qf_qty_amount / qf_qty_format_amount convert both ways,
 * with Kueue's printing rules (pkg/resources/resource_formatter.go).
 */
#ifndef QF_QTY_H
#define QF_QTY_H

#include <stdint.h>

#include "core/buf.h"
#include "core/status.h"

enum qf_qty_format {
	QF_QTY_DECIMAL_SI = 0,	/* 12, 1500m, 5k, 3G */
	QF_QTY_BINARY_SI = 1,	/* 512Mi, 2Gi */
	QF_QTY_DECIMAL_EXP = 2, /* 1e3, 12e6 */
};

/*
 * The value is mant * 10^exp10 exactly, normalised so that mant carries no
 * avoidable trailing zeros is NOT required: compare with qf_qty_cmp, never
 * with memcmp.  Treat the fields as private outside qty.c.
 */
struct qf_qty {
	int64_t mant;		   /* signed mantissa */
	int32_t exp10;		   /* decimal exponent, >= -9 */
	enum qf_qty_format format; /* format family for canonical printing */
};

#define QF_QTY_UNLIMITED INT64_MAX

/* Parse Kubernetes quantity text ("500m", "2Gi", "1.5", "1e3", "+12"). */
int qf_qty_parse(struct qf_qty *out, const char *s) QF_MUST_CHECK;

/* A quantity equal to the integer v in the given format family. */
void qf_qty_from_int(struct qf_qty *out, int64_t v, enum qf_qty_format fmt);

/* A quantity equal to milli / 1000 (DecimalSI). */
void qf_qty_from_milli(struct qf_qty *out, int64_t milli);

/* <0, 0, >0 as a is less than, equal to, greater than b (by value only). */
int qf_qty_cmp(const struct qf_qty *a, const struct qf_qty *b);

/* Sign: -1, 0 or 1. */
int qf_qty_sign(const struct qf_qty *q);

/* out = a + b, out = a - b, out = a * n.  The result takes a's format. */
int qf_qty_add(struct qf_qty *out, const struct qf_qty *a,
	       const struct qf_qty *b) QF_MUST_CHECK;
int qf_qty_sub(struct qf_qty *out, const struct qf_qty *a,
	       const struct qf_qty *b) QF_MUST_CHECK;
int qf_qty_mul_int(struct qf_qty *out, const struct qf_qty *a, int64_t n)
	QF_MUST_CHECK;

/* Append the canonical string, as Quantity.String() does. */
void qf_qty_format(struct qf_buf *out, const struct qf_qty *q);

/*
 * The value in milli-units (rounded up), or QF_ETOOBIG when it does not fit
 * in int64.
 */
int qf_qty_to_milli(int64_t *out, const struct qf_qty *q) QF_MUST_CHECK;

/* The value in base units, rounded up (Quantity.Value()). */
int qf_qty_to_int(int64_t *out, const struct qf_qty *q) QF_MUST_CHECK;

/*
 * Kueue amount of q for `resource`: milli-units for "cpu", base units
 * rounded up otherwise; values beyond int64 saturate to QF_QTY_UNLIMITED.
 */
int64_t qf_qty_amount(const struct qf_qty *q, const char *resource);

/*
 * Append a Kueue amount as Kueue prints it: cpu as a DecimalSI
 * milli-quantity ("500m", "1", "2k"), memory, ephemeral-storage and
 * hugepages-* in BinarySI canonical form ("1Gi", "1500"), anything else in
 * DecimalSI ("10", "1k"); QF_QTY_UNLIMITED as "<unlimited>".
 */
void qf_qty_format_amount(struct qf_buf *out, int64_t amount,
			  const char *resource);

/* Saturating int64 arithmetic for amounts (never wraps). */
int64_t qf_amount_add(int64_t a, int64_t b);
int64_t qf_amount_sub(int64_t a, int64_t b);

#endif
