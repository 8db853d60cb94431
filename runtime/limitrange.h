/*
 * limitrange.h - a namespace's LimitRanges (core/v1) as Kueue applies them
 * before flavour assignment (Kueue: pkg/util/limitrange/limitrange.go,
 * pkg/workload/resources.go ValidateLimitRange).
 *
 * Contract: the model keeps each LimitRange's spec.limits (a jansson
 * reference, struct qf_model_lr); qf_limitrange_check reads them for one
 * workload and returns the pending message Kueue writes, or NULL.  The
 * summary is Kueue's: per limit type, max is the smallest and min the
 * largest over the namespace's LimitRanges.  A container is checked with
 * the larger of its request and limit against max and the smaller against
 * min; the pod type with the pod's total request.  Only resources named
 * on both sides are compared.  Not thread-safe.
 */
#ifndef QF_LIMITRANGE_H
#define QF_LIMITRANGE_H

#include "runtime/model.h"

/*
 * "resources didn't satisfy LimitRange constraints: <errors>" when some
 * pod set of w breaks its namespace's LimitRanges, else NULL.  The string
 * is the caller's (free()).
 */
char *qf_limitrange_check(const struct qf_model *m,
                          const struct qf_model_wl *w);

#endif
