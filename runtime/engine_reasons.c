/*
 * engine_reasons.c - the reasons Kueue writes for a workload it has not
 * admitted, under the UnadmittedWorkloadsObservability gate.  The engine
 * decides with the granular reasons (WaitingForQuota, Misconfigured, ...)
 * and writes them as they are while the gate is on (Kueue's default on the
 * v0.20 line); with it off (v0.18.x-v0.19.2 by default) this file turns
 * them into the legacy ones at the moment they are written, so that the
 * Workload's conditions, the dump and the Events say what such a cluster
 * says.
 */
#include "runtime/engine.h"

#include <string.h>

#include "core/banned.h"

/* Kueue: scheduler.go requeueAndUpdate and waitForPodsReadyIfNeeded
 * (UnadmittedWorkloadReasonWithFallback): the scheduler's reason, which is
 * also its Warning event's. */
const char *qf_engine_sched_reason(const struct qf_engine *e,
                                   const char *reason)
{
	if (!e->m->cfg.legacy_unadmitted)
		return reason;
	return !strcmp(reason, "WaitingForPodsReady") ? "Waiting" : "Pending";
}

/*
 * A QuotaReserved=False reason written by the workload controller or the
 * job reconciler: the queue blockers (Misconfigured, Suspended) are
 * Inadmissible, a workload back in the queue (PendingEvaluation) Pending.
 * Deactivated and the scheduler's granular reasons are never written by
 * those with the gate off (resolveLegacyUnadmittedQuotaReservedCondition
 * only looks at the queues): NULL, nothing is written.  Any other reason
 * (Pending, Waiting, QuotaReserved, AdmissionGated, ...) stays.
 */
static const char *legacy_qr(const char *reason)
{
	static const char *const dropped[] = {
		"Deactivated",
		"WaitingForQuota",
		"NoMatchingFlavor",
		"ExceedsMaxQuota",
		"TopologyPlacementFailed",
		"WaitingForPreemptedWorkloads",
	};

	if (!strcmp(reason, "Misconfigured") || !strcmp(reason, "Suspended"))
		return "Inadmissible";
	if (!strcmp(reason, "PendingEvaluation"))
		return "Pending";
	if (!strcmp(reason, "WaitingForPodsReady"))
		return "Waiting";
	for (size_t i = 0; i < QF_ARRAY_SIZE(dropped); i++)
		if (!strcmp(reason, dropped[i]))
			return NULL;
	return reason;
}

/*
 * Kueue: admissionchecks.go SyncAdmittedCondition with the gate off: it
 * writes only when Admitted=True no longer holds, so a workload never
 * admitted never gets Admitted=False, and one that lost its admission
 * keeps the first False it got; no reservation with checks not all Ready
 * is NoReservationUnsatisfiedChecks, UnsatisfiedAdmissionChecks is
 * UnsatisfiedChecks.
 */
static int legacy_admitted(const struct qf_wl *w, const char **reason,
                           const char **message)
{
	const struct qf_cond *c = &w->cond[QF_COND_ADMITTED];

	if (!c->set || !c->status)
		return 0;
	if (!strcmp(*reason, "UnsatisfiedAdmissionChecks")) {
		*reason = "UnsatisfiedChecks";
	} else if (!strcmp(*reason, "NoReservation") &&
	           !qf_engine_checks_ready(w)) {
		*reason = "NoReservationUnsatisfiedChecks";
		*message = "The workload has no reservation and not all "
		           "checks ready";
	}
	return 1;
}

int qf_engine_legacy_cond(const struct qf_engine *e, const struct qf_wl *w,
                          enum qf_cond_type t, int status, const char **reason,
                          const char **message)
{
	if (!e->m->cfg.legacy_unadmitted || status || !*reason)
		return 1;
	if (t == QF_COND_QUOTA_RESERVED) {
		*reason = legacy_qr(*reason);
		return *reason != NULL;
	}
	if (t == QF_COND_ADMITTED)
		return legacy_admitted(w, reason, message);
	return 1;
}
