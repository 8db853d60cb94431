/*
 * api_jobdef.c - runtime/api.h: a Job as kube-apiserver defaults it.
 * Every decoded Job gets the defaults of k8s.io/kubernetes
 * pkg/apis/batch/v1/defaults.go (SetDefaults_Job) and of its pod template
 * (pkg/apis/core/v1/defaults.go: SetDefaults_PodSpec, _Container,
 * _ContainerPort, _Probe, _HTTPGetAction); a new one also gets the
 * selector and pod labels the Job strategy generates
 * (pkg/registry/batch/job/strategy.go generateSelector).  Kueue copies
 * the defaulted pod template into the Job's Workload, so these show there
 * too, as on a cluster.
 */
#include "runtime/api.h"

#include <string.h>

#include "core/status.h"
#include "core/banned.h"

/* key := value where key is absent (value's reference taken). */
static void set_default(json_t *o, const char *key, json_t *value)
{
	if (json_is_object(o) && !json_object_get(o, key))
		json_object_set_new(o, key, value);
	else
		json_decref(value);
}

static json_t *child(json_t *o, const char *key)
{
	return json_object_get(o, key);
}

/* docker's reference grammar, as kube's parsers.ParseImageName reads
 * it: the tag is what follows the last ':' after the last '/', unless a
 * digest is given; none means "latest". */
static const char *pull_policy(const char *image)
{
	const char *slash, *colon;

	if (!image || strchr(image, '@'))
		return "IfNotPresent"; /* no tag read: not "latest" */
	slash = strrchr(image, '/');
	colon = strrchr(slash ? slash : image, ':');
	if (!colon || !strcmp(colon + 1, "latest"))
		return "Always";
	return "IfNotPresent";
}

static void probe(json_t *p)
{
	json_t *get = child(p, "httpGet");

	if (!json_is_object(p))
		return;
	set_default(p, "timeoutSeconds", json_integer(1));
	set_default(p, "periodSeconds", json_integer(10));
	set_default(p, "successThreshold", json_integer(1));
	set_default(p, "failureThreshold", json_integer(3));
	set_default(get, "path", json_string("/"));
	set_default(get, "scheme", json_string("HTTP"));
}

static void container(json_t *x)
{
	static const char *const probes[] = { "livenessProbe", "readinessProbe",
		                              "startupProbe" };
	size_t i;
	json_t *port;

	if (!json_is_object(x))
		return;
	set_default(
	        x, "imagePullPolicy",
	        json_string(pull_policy(json_string_value(child(x, "image")))));
	set_default(x, "terminationMessagePath",
	            json_string("/dev/termination-log"));
	set_default(x, "terminationMessagePolicy", json_string("File"));
	/* a struct, not a pointer, in Go: always written */
	set_default(x, "resources", json_object());
	json_array_foreach (child(x, "ports"), i, port)
		set_default(port, "protocol", json_string("TCP"));
	for (size_t k = 0; k < QF_ARRAY_SIZE(probes); k++)
		probe(child(x, probes[k]));
}

static void pod_spec(json_t *spec)
{
	static const char *const lists[] = { "containers", "initContainers",
		                             "ephemeralContainers" };
	size_t i;
	json_t *x;

	if (!json_is_object(spec))
		return;
	set_default(spec, "dnsPolicy", json_string("ClusterFirst"));
	set_default(spec, "restartPolicy", json_string("Always"));
	set_default(spec, "securityContext", json_object());
	set_default(spec, "terminationGracePeriodSeconds", json_integer(30));
	set_default(spec, "schedulerName", json_string("default-scheduler"));
	for (size_t l = 0; l < QF_ARRAY_SIZE(lists); l++)
		json_array_foreach (child(spec, lists[l]), i, x)
			container(x);
}

void qf_api_job_defaults(json_t *job)
{
	json_t *spec = child(job, "spec"), *tmpl = child(spec, "template");
	json_t *labels = child(child(tmpl, "metadata"), "labels");
	json_t *meta = child(job, "metadata");

	if (!json_is_object(spec))
		return;
	if (!child(spec, "completions") && !child(spec, "parallelism"))
		json_object_set_new(spec, "completions", json_integer(1));
	set_default(spec, "parallelism", json_integer(1));
	set_default(spec, "backoffLimit",
	            json_integer(child(spec, "backoffLimitPerIndex")
	                                 ? 2147483647
	                                 : 6));
	/* the template's labels are the Job's when it has none */
	if (json_object_size(labels) && json_is_object(meta) &&
	    !json_object_size(child(meta, "labels")))
		json_object_set_new(meta, "labels", json_deep_copy(labels));
	set_default(spec, "completionMode", json_string("NonIndexed"));
	set_default(spec, "suspend", json_false());
	set_default(spec, "podReplacementPolicy",
	            json_string(child(spec, "podFailurePolicy")
	                                ? "Failed"
	                                : "TerminatingOrFailed"));
	pod_spec(child(tmpl, "spec"));
}

/* labels[key] := value where absent, labels made if need be. */
static void label(json_t *o, const char *key, const char *value)
{
	json_t *labels = child(o, "labels");

	if (!json_is_object(labels)) {
		labels = json_object();
		json_object_set_new(o, "labels", labels);
	}
	set_default(labels, key, json_string(value));
}

void qf_api_job_selector(json_t *job)
{
	json_t *spec = child(job, "spec"), *tmpl = child(spec, "template");
	const char *name = qf_api_meta_str(job, "name");
	const char *uid = qf_api_meta_str(job, "uid");
	json_t *tmeta, *sel;

	if (!json_is_object(tmpl) || !name || !uid ||
	    json_is_true(child(spec, "manualSelector")))
		return;
	tmeta = child(tmpl, "metadata");
	if (!json_is_object(tmeta)) {
		tmeta = json_object();
		json_object_set_new(tmpl, "metadata", tmeta);
	}
	label(tmeta, "batch.kubernetes.io/controller-uid", uid);
	label(tmeta, "batch.kubernetes.io/job-name", name);
	label(tmeta, "controller-uid", uid);
	label(tmeta, "job-name", name);
	sel = child(spec, "selector");
	if (!json_is_object(sel)) {
		sel = json_object();
		json_object_set_new(spec, "selector", sel);
	}
	if (!json_is_object(child(sel, "matchLabels")))
		json_object_set_new(sel, "matchLabels", json_object());
	set_default(child(sel, "matchLabels"),
	            "batch.kubernetes.io/controller-uid", json_string(uid));
}
