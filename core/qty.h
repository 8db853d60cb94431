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
 * Fidelity (Kubernetes: k8s.io/apimachinery pkg/api/resource/quantity.go):
 *  1. The grammar is ParseQuantity's scanner, quirks included: no
 *     whitespace, "1." and ".5" are numbers, and "+", "-" and "." alone
 *     parse as zero.  BinarySI magnitudes above 2^63-1 are capped to
 *     2^63-1; everything else is rounded up (away from zero) to 1n.
 *  2. qf_qty_format is CanonicalizeBytes.  Kubernetes' String() echoes the
 *     parsed text when it already looks canonical ("+1", "1E3", "1.500"
 *     stay as typed); we always print the canonical form.
 *  3. A DecimalSI value whose canonical exponent is above 18 prints in
 *     exponent form ("1000E" -> "1e21"), as kubernetes/kubernetes#140459
 *     does; older releases dropped the exponent and printed "1".
 *  4. Limits Kubernetes does not have (its inf.Dec is unbounded): more
 *     significant digits than fit in 64 bits, or an exponent outside int32
 *     (Go silently wraps it), is QF_ETOOBIG.
 *  5. The Kueue CRDs also match quantity text against an OpenAPI pattern
 *     that demands a digit ("Ki" or "." alone parse here, as in Go, but the
 *     API server rejects them); that check belongs to schema validation.
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
	QF_QTY_DECIMAL_SI = 0,  /* 12, 1500m, 5k, 3G */
	QF_QTY_BINARY_SI = 1,   /* 512Mi, 2Gi */
	QF_QTY_DECIMAL_EXP = 2, /* 1e3, 12e6 */
};

/*
 * The value is (neg ? -1 : 1) * mag * 10^exp10 exactly.  qty.c keeps it
 * normalised: mag has no trailing decimal zeros, zero is {0, 0, false}, and
 * exp10 >= -9 (nothing finer than 1n exists).  A magnitude is unsigned so
 * that every int64 (INT64_MIN too) and every mantissa up to 2^64-1 fits;
 * values whose significant digits do not fit in 64 bits are QF_ETOOBIG.
 * A BinarySI quantity that is a whole number always has mag * 10^exp10 <
 * 2^64 (parsing caps BinarySI at 2^63-1 as Kubernetes does; arithmetic
 * that would break this returns QF_ETOOBIG).  Compare with qf_qty_cmp,
 * never memcmp.  Treat the fields as private outside qty.c.
 */
struct qf_qty {
	uint64_t mag;              /* magnitude of the mantissa */
	int32_t exp10;             /* decimal exponent, >= -9 */
	int neg;                   /* 1 if the value is negative */
	enum qf_qty_format format; /* format family for canonical printing */
};

#define QF_QTY_UNLIMITED INT64_MAX

/* What a quantity looks like, for a hint after text that is not one. */
#define QF_QTY_EXPECTED \
	"expected a Kubernetes quantity such as 10, 500m, 1.5 or 2Gi"

/* Parse Kubernetes quantity text ("500m", "2Gi", "1.5", "1e3", "+12"). */
int qf_qty_parse(struct qf_qty *out, const char *s) QF_MUST_CHECK;

/* apimachinery's errors of ParseQuantity, word for word. */
#define QF_QTY_GO_ERR_FORMAT                            \
	"quantities must match the regular expression " \
	"'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
#define QF_QTY_GO_ERR_SUFFIX "unable to parse quantity's suffix"

/*
 * For a caller that answers as the API server: the error Go's
 * ParseQuantity gives for s (QF_QTY_GO_ERR_FORMAT when its scanner
 * refuses it, QF_QTY_GO_ERR_SUFFIX for a suffix it does not know or an
 * exponent beyond int64), or NULL when Go reads it, which includes what
 * qf_qty_parse refuses as QF_ETOOBIG (limit 4 above: Go has no limit on
 * digits and cuts an exponent to int32).
 */
const char *qf_qty_go_error(const char *s);

/*
 * Append what Kubernetes stores for quantity text s: Quantity.String()
 * of ParseQuantity(s), the text as typed where Go keeps it (its int64
 * fast path for text already canonical: "+1", "1.500", "-01"), else the
 * canonical form, with any number of digits and an exponent cut to int32
 * as Go cuts it ("1e4294967296" is "1").  QF_EINVAL, appending nothing,
 * where qf_qty_go_error says why.
 */
int qf_qty_go_string(struct qf_buf *out, const char *s) QF_MUST_CHECK;

/* A quantity equal to the integer v in the given format family. */
void qf_qty_from_int(struct qf_qty *out, int64_t v, enum qf_qty_format fmt);

/* A quantity equal to milli / 1000 (DecimalSI). */
void qf_qty_from_milli(struct qf_qty *out, int64_t milli);

/* <0, 0, >0 as a is less than, equal to, greater than b (by value only). */
int qf_qty_cmp(const struct qf_qty *a, const struct qf_qty *b);

/* Sign: -1, 0 or 1. */
int qf_qty_sign(const struct qf_qty *q);

/*
 * out = a + b, out = a - b, out = a * n.  The result takes a's format, or
 * b's when a is zero (Quantity.Add/Sub).  QF_ETOOBIG when the exact result
 * does not fit (out is then left untouched).
 */
int qf_qty_add(struct qf_qty *out, const struct qf_qty *a,
               const struct qf_qty *b) QF_MUST_CHECK;
int qf_qty_sub(struct qf_qty *out, const struct qf_qty *a,
               const struct qf_qty *b) QF_MUST_CHECK;
int qf_qty_mul_int(struct qf_qty *out, const struct qf_qty *a,
                   int64_t n) QF_MUST_CHECK;

/* Append the canonical string, as Quantity.String() does. */
void qf_qty_format(struct qf_buf *out, const struct qf_qty *q);

/*
 * The value in milli-units, rounded up away from zero (MilliValue()), or
 * QF_ETOOBIG when it does not fit in int64.
 */
int qf_qty_to_milli(int64_t *out, const struct qf_qty *q) QF_MUST_CHECK;

/*
 * The value in base units, rounded up away from zero (Quantity.Value()), or
 * QF_ETOOBIG when it does not fit in int64.
 */
int qf_qty_to_int(int64_t *out, const struct qf_qty *q) QF_MUST_CHECK;

/* The value as a double (approximate, as Quantity.AsApproximateFloat64). */
double qf_qty_to_double(const struct qf_qty *q);

/* A non-negative DecimalSI quantity of v rounded down to 1n, as Kueue's
 * resource.MulByFloat rounds (NaN, infinities and v <= 0 give 0). */
void qf_qty_from_double(struct qf_qty *out, double v);

/*
 * Kueue amount of q for `resource` (Kueue: pkg/resources/amount.go
 * AmountFromQuantity): milli-units for "cpu", base units otherwise, rounded
 * up.  A cpu quantity >= (2^63-1)/1000 cores or any other quantity >=
 * 2^63-1 is QF_QTY_UNLIMITED; a value below INT64_MIN clamps to INT64_MIN.
 */
int64_t qf_qty_amount(const struct qf_qty *q, const char *resource);

/*
 * What Kueue counts for quota text s (nominalQuota, borrowingLimit,
 * lendingLimit: text qf_qty_parse reads) of `resource`, or of a fair-sharing
 * weight when resource is NULL, against what s says.  QF_QTY_QUOTA_OK, or
 * the first problem, with why it is one appended to why ("\"0.5\" is not a
 * whole number: Kueue counts nvidia.com/gpu in whole units and rounds it
 * up to 1"):
 *   PAST_RANGE  past the 64-bit range: Kubernetes caps it (a BinarySI value
 *               above 2^63-1) or Kueue reads it as unlimited (a cpu quota
 *               above (2^63-1)/1000 cores, any other above 2^63-1 units,
 *               a weight whose milli-value does not fit in int64);
 *   ROUNDED     Kubernetes rounds it up to 1n, or Kueue to a whole unit
 *               (a millicore for cpu): a fraction of a GPU counts as 1;
 *   BINARY      a binary suffix (Ki ... Ei, powers of 1024) on a resource
 *               that is not counted in bytes: 1Ki GPUs are 1024, not 1000.
 * Zero in any spelling ("-0", "0Ki") is fine: Kubernetes stores "0".
 */
enum qf_qty_quota {
	QF_QTY_QUOTA_OK = 0,
	QF_QTY_QUOTA_PAST_RANGE,
	QF_QTY_QUOTA_ROUNDED,
	QF_QTY_QUOTA_BINARY,
};
enum qf_qty_quota qf_qty_quota_check(struct qf_buf *why, const char *s,
                                     const char *resource);

/*
 * Append a Kueue amount as Kueue prints it: cpu as a DecimalSI
 * milli-quantity ("500m", "1", "2k"), memory, ephemeral-storage and
 * hugepages-* in BinarySI canonical form ("1Gi", "1500"), anything else in
 * DecimalSI ("10", "1k"); QF_QTY_UNLIMITED as "<unlimited>".
 */
void qf_qty_format_amount(struct qf_buf *out, int64_t amount,
                          const char *resource);

/*
 * Amount arithmetic as Kueue's Amount.Add/Sub: QF_QTY_UNLIMITED is sticky
 * (unlimited + x = unlimited, unlimited - bounded = unlimited, bounded -
 * unlimited = INT64_MIN, unlimited - unlimited = 0); bounded results
 * saturate at INT64_MAX / INT64_MIN and never wrap.
 */
int64_t qf_amount_add(int64_t a, int64_t b);
int64_t qf_amount_sub(int64_t a, int64_t b);

#endif
