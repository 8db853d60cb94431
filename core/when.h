/*
 * when.h - the time forms a user types on the command line (audit report
 * --since/--until, simulate --start), read by one parser so that every
 * option that takes a time accepts the same forms: RFC 3339, a date alone
 * (midnight UTC), minutes without seconds, a fraction of any length, `t`,
 * `z` and a space for `T`, an offset as +02:00, +0200 or +02.  A time
 * without an offset is refused: local time of which zone?
 *
 * Output is the RFC 3339 text every reader of times in the tree accepts
 * (YYYY-MM-DDThh:mm:ss[.f]+hh:mm), appended to a qf_buf the caller owns.
 * No state; thread-safe.
 */
#ifndef QF_WHEN_H
#define QF_WHEN_H

#include "core/buf.h"

/*
 * Write s as RFC 3339 into out.  Returns 0, or -1 when s is not one of the
 * forms or names no time (a month, day, hour, minute or second past its
 * range, a leap second, which Go's time.Parse refuses, an offset past
 * +-23:59, text after it); *why is then NULL (not one of the forms) or says
 * what is wrong in words that follow the text itself ("has no UTC offset",
 * "names no day of the calendar").
 */
int qf_when_normalise(struct qf_buf *out, const char *s, const char **why);

/*
 * 1 when s is an RFC 3339 date-time as Kubernetes takes it (metav1.Time, a
 * CRD field of format date-time): YYYY-MM-DDThh:mm:ss[.frac] then Z or an
 * offset from -23:59 to +23:59; a day the month has; no leap second (Go's
 * time.Parse refuses :60 as out of range); any year 0000-9999.  Else 0,
 * with *why NULL or saying what is wrong ("the month has no such day").
 * The one check of the times read from manifests (validate's QF107,
 * simulate's objects), so they agree.
 */
int qf_when_is_rfc3339(const char *s, const char **why);

/* Days of month m (1-12) of year y, leap years counted. */
int qf_when_days_in_month(int y, int m);

#endif
