/*
 * dump.h - the simulator's final state as Kueue writes it (--dump-state).
 *
 * Contract: qf_dump_state renders every Workload the engine knows (not
 * deleted; sorted by "ns/name"), every ClusterQueue (sorted by name) and
 * every LocalQueue (sorted by namespace and name) as one Kubernetes v1 List, in
 * the shape a real cluster returns for `kubectl get workloads,clusterqueues -o
 * json`: kueue.x-k8s.io/v1beta2 Workloads with status.conditions (in the order
 * Kueue added them), status.admission, resourceRequests, schedulingStats;
 * ClusterQueues with the input's apiVersion, metadata and spec and Kueue's
 * status.  Times are RFC 3339 seconds of the engine's clock (virtual ms since
 * the epoch); t0 stands in for conditions whose time is unknown.
 * docs/runtime.md lists what still differs from Kueue.
 *
 * Ownership: the returned List is the caller's (json_decref); the engine
 * is only read.  Errors: none (out of memory aborts).  Not thread-safe.
 */
#ifndef QF_DUMP_H
#define QF_DUMP_H

#include <stdint.h>

#include <jansson.h>

#include "runtime/engine.h"

json_t *qf_dump_state(struct qf_engine *e, int64_t t0);

/* One Workload as qf_dump_state renders it (the controller serves and
 * stores each one as it changes); the caller owns the result. */
json_t *qf_dump_workload(struct qf_engine *e, const struct qf_wl *w,
                         int64_t t0);

/* A ClusterQueue's status.flavorsReservation (admitted_only 0) or
 * status.flavorsUsage (1), engine index cq; the caller owns the result. */
json_t *qf_dump_cq_flavors(struct qf_engine *e, size_t cq, int admitted_only);

/* A ClusterQueue's Active condition (engine index cq), as qf_dump_state
 * renders it (lastTransitionTime t0 unless it is terminating); the caller
 * owns the result. */
json_t *qf_dump_cq_active(struct qf_engine *e, size_t cq, int64_t t0);

/* A LocalQueue's Active condition: qf_engine_lq_active's status (as
 * *status), reason and message.  The strings are static. */
void qf_dump_lq_active(const struct qf_engine *e, const struct qf_model_lq *lq,
                       int *status, const char **reason, const char **msg);

/* A LocalQueue's status.flavorsReservation (admitted 0) or flavorsUsage
 * (1): each flavor of ClusterQueue cq's resource groups, each covered
 * resource by name (Kueue: filterLocalQueueUsage), totals from use
 * ([admitted * nfr + flavor-resource]); the caller owns the result. */
json_t *qf_dump_lq_flavors(const struct qf_engine *e,
                           const struct qf_model_cq *cq, const int64_t *use,
                           int admitted);

#endif
