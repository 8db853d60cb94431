/*
 * rt_test.h - helpers for the runtime unit tests: build a model from YAML
 * text, run an engine on it, and look workloads up.
 */
#ifndef QF_RT_TEST_H
#define QF_RT_TEST_H

#include "tests/unit/qf_test.h"

#include <string.h>

#include "core/doc.h"
#include "runtime/engine.h"
#include "runtime/model.h"

struct rt {
	struct qf_model m;
	struct qf_doc *docs[64];
	size_t ndocs;
	struct qf_engine *e;
	struct qf_diags d;
};

/* Load YAML objects into the model; asserts that they load cleanly. */
static inline void rt_load(struct rt *t, const char *yaml)
{
	struct qf_doc *doc = NULL;

	assert_int_equal(qf_doc_load_mem(&doc, "test.yaml", yaml, strlen(yaml),
	                                 NULL, &t->d),
	                 0);
	for (size_t i = 0; i < qf_doc_nobjects(doc); i++)
		assert_int_equal(qf_model_load_obj(
		                         &t->m, doc, qf_doc_object(doc, i)->obj,
		                         QF_MODEL_POLICY | QF_MODEL_WORKLOADS,
		                         NULL, &t->d),
		                 0);
	assert_true(t->ndocs < 64);
	t->docs[t->ndocs++] = doc;
}

static inline void rt_start(struct rt *t, qf_event_sink_fn sink, void *arg)
{
	assert_int_equal(qf_model_resolve(&t->m, &t->d), 0);
	assert_int_equal(qf_engine_new(&t->e, &t->m, sink, arg, 0, &t->d), 0);
}

static inline void rt_init(struct rt *t)
{
	memset(t, 0, sizeof(*t));
	qf_model_init(&t->m);
	qf_diags_init(&t->d);
}

static inline void rt_release(struct rt *t)
{
	qf_engine_free(t->e);
	qf_model_release(&t->m);
	for (size_t i = 0; i < t->ndocs; i++)
		qf_doc_free(t->docs[i]);
	qf_diags_release(&t->d);
}

static inline struct qf_wl *rt_wl(struct rt *t, const char *key)
{
	struct qf_wl *w = qf_engine_find(t->e, key);

	assert_non_null(w);
	return w;
}

/* A Workload with one pod set "main" of `count` pods asking `cpu` each. */
#define RT_WL(name, ns, queue, prio, count, cpu, ts)                      \
	"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"            \
	"metadata: {name: " name ", namespace: " ns                       \
	", creationTimestamp: '" ts "'}\n"                                \
	"spec:\n  queueName: " queue "\n  priority: " prio "\n"           \
	"  podSets:\n  - name: main\n    count: " count "\n"              \
	"    template:\n      spec:\n        containers:\n"               \
	"        - name: c\n          resources: {requests: {cpu: \"" cpu \
	"\"}}\n---\n"

#endif
