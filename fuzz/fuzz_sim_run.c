/*
 * fuzz_sim_run.c - a whole `quotaflow simulate` run with the input as its
 * --trace (runtime/sim.c, sim_trace.c, sim_out.c through qf_sim_run): the
 * trace is parsed, sorted and resolved, the event loop runs on a fixed
 * two-queue cluster, and the --summary file, the --format json report and
 * the queue summary are written.  Invariants: a negative status comes
 * with an error diagnostic and no summary file; a zero status leaves a
 * summary file that parses as JSON and a report that parses as JSON.
 * abort() marks a broken invariant.  Inputs above 8 KiB are skipped.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/diag.h"
#include "core/strlist.h"
#include "runtime/sim.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char cluster[] =
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
        "metadata: {name: default}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\n"
        "metadata: {name: high}\nvalue: 100\n"
        "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
        "metadata: {name: team-a}\nspec:\n  cohortName: shared\n"
        "  namespaceSelector: {}\n  preemption: {withinClusterQueue: "
        "LowerPriority, reclaimWithinCohort: Any}\n  resourceGroups:\n"
        "  - coveredResources: [cpu]\n    flavors:\n    - name: default\n"
        "      resources:\n      - {name: cpu, nominalQuota: \"4\"}\n"
        "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
        "metadata: {name: team-b}\nspec:\n  cohortName: shared\n"
        "  namespaceSelector: {}\n  resourceGroups:\n"
        "  - coveredResources: [cpu]\n    flavors:\n    - name: default\n"
        "      resources:\n      - {name: cpu, nominalQuota: \"4\"}\n"
        "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
        "metadata: {name: main, namespace: team-a}\n"
        "spec: {clusterQueue: team-a}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
        "metadata: {name: main, namespace: team-b}\n"
        "spec: {clusterQueue: team-b}\n";

static char dir[64];

static void put(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f))
		abort();
}

static void paths(char *c, char *t, char *s, size_t n)
{
	if (snprintf(c, n, "%s/cluster.yaml", dir) >= (int)n ||
	    snprintf(t, n, "%s/trace.jsonl", dir) >= (int)n ||
	    snprintf(s, n, "%s/summary.json", dir) >= (int)n)
		abort();
}

/* Leave no scratch directory behind (replay runs in `make test`). */
static void cleanup(void)
{
	char c[96], t[96], s[96];

	paths(c, t, s, sizeof(c));
	(void)unlink(c);
	(void)unlink(t);
	(void)unlink(s);
	(void)rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char c[96], t[96], s[96];
	struct qf_strlist files = QF_STRLIST_INIT, apply = QF_STRLIST_INIT;
	struct qf_sim_options o;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf report = QF_BUF_INIT;
	json_error_t err;
	json_t *j;
	int rc;

	if (size > 8192)
		return 0;
	if (!*dir) {
		memcpy(dir, "/tmp/qf-fuzz-sim-XXXXXX", 24);
		if (!mkdtemp(dir) || atexit(cleanup))
			abort();
	}
	paths(c, t, s, sizeof(c));
	put(c, cluster, sizeof(cluster) - 1);
	put(t, data, size);
	(void)unlink(s);
	memset(&o, 0, sizeof(o));
	qf_strlist_add(&files, c);
	o.files = &files;
	o.apply = &apply;
	o.trace = t;
	o.cycles = -1;
	o.until_ms = -1;
	o.summary = s;
	o.json_report = 1;
	rc = qf_sim_run(&o, &report, &d);
	if ((rc < 0) != (d.nerrors > 0))
		abort();
	j = json_load_file(s, 0, &err);
	if ((rc == 0) != (j != NULL))
		abort();
	json_decref(j);
	if (rc == 0) {
		j = json_loads(report.buf, 0, &err);
		if (!j)
			abort();
		json_decref(j);
	}
	qf_strlist_release(&files);
	qf_buf_release(&report);
	qf_diags_release(&d);
	return 0;
}
