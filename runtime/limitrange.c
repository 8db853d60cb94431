/*
 * limitrange.c - LimitRange validation of runtime/limitrange.h.  The
 * namespace's LimitRanges are few and small, so each check walks them
 * directly; amounts are compared as Kueue's ResourceValue (millicores for
 * cpu, whole units otherwise).
 */
#include "runtime/limitrange.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/banned.h"

#define QF_LIMITRANGE_MAX_NAMES 64

/*
 * The summary bound for `res` over the namespace's LimitRange items of
 * `type`: field "max" keeps the smallest, "min" the largest (Kueue:
 * limitrange.Summarize).  Returns 0 when no item bounds res.
 */
static int bound(const struct qf_model *m, const char *ns, const char *type,
                 const char *field, const char *res, int64_t *out)
{
	int found = 0, is_max = !strcmp(field, "max");

	for (size_t i = 0; i < m->nlr; i++) {
		const json_t *items = m->lr[i].limits;

		if (strcmp(m->lr[i].ns, ns) != 0)
			continue;
		for (size_t j = 0; j < json_array_size(items); j++) {
			const json_t *it = json_array_get(items, j);
			const char *t =
			        json_string_value(json_object_get(it, "type"));
			const json_t *q = json_object_get(
			        json_object_get(it, field), res);
			int64_t v;

			if (!q || !t || strcmp(t, type) != 0)
				continue;
			v = qf_model_resource_value(q, res);
			if (!found || (is_max ? v < *out : v > *out))
				*out = v;
			found = 1;
		}
	}
	return found;
}

struct errs {
	struct qf_buf b;
	size_t n;
};

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One field.Invalid error listing `names` (sorted here). */
static void add_err(struct errs *e, const char *path, const char **names,
                    size_t n, const char *msg)
{
	if (!n)
		return;
	qsort(names, n, sizeof(*names), cmp_cstr);
	qf_buf_addf(&e->b, "%s%s: Invalid value: [", e->n ? ", " : "", path);
	for (size_t i = 0; i < n; i++)
		qf_buf_addf(&e->b, "%s\"%s\"", i ? "," : "", names[i]);
	qf_buf_addf(&e->b, "]: %s", msg);
	e->n++;
}

static const char max_msg[] = "requests must not be above the limitRange max";
static const char min_msg[] = "requests must not be below the limitRange min";

/* The larger (want_max) or smaller of a container's request and limit for
 * res; 0 when it names neither. */
static int side(const json_t *rr, const char *res, int want_max, int64_t *out)
{
	const json_t *r = json_object_get(json_object_get(rr, "requests"), res);
	const json_t *l = json_object_get(json_object_get(rr, "limits"), res);
	int64_t a, b;

	if (!r && !l)
		return 0;
	a = r ? qf_model_resource_value(r, res)
	      : qf_model_resource_value(l, res);
	b = l ? qf_model_resource_value(l, res) : a;
	*out = want_max ? (a > b ? a : b) : (a < b ? a : b);
	return 1;
}

/* Kueue: limitrange.go validatePodSpecContainers, one container. */
static void check_container(const struct qf_model *m, const char *ns,
                            const json_t *rr, const char *path, struct errs *e)
{
	const char *over[QF_LIMITRANGE_MAX_NAMES],
	        *under[QF_LIMITRANGE_MAX_NAMES];
	size_t nover = 0, nunder = 0;
	const char *lists[2] = { "requests", "limits" };
	const char *k;
	json_t *v;

	for (size_t l = 0; l < 2; l++) {
		json_object_foreach (json_object_get(rr, lists[l]), k, v) {
			int64_t have, lim;

			/* a resource in both lists is seen once */
			if (l == 1 &&
			    json_object_get(json_object_get(rr, "requests"), k))
				continue;
			if (nover < QF_LIMITRANGE_MAX_NAMES &&
			    side(rr, k, 1, &have) &&
			    bound(m, ns, "Container", "max", k, &lim) &&
			    have > lim)
				over[nover++] = k;
			if (nunder < QF_LIMITRANGE_MAX_NAMES &&
			    side(rr, k, 0, &have) &&
			    bound(m, ns, "Container", "min", k, &lim) &&
			    lim > have)
				under[nunder++] = k;
		}
	}
	add_err(e, path, over, nover, max_msg);
	add_err(e, path, under, nunder, min_msg);
}

struct cctx {
	const struct qf_model *m;
	const char *ns;
	struct errs *e;
};

static void check_one(void *arg, const json_t *rr, const char *path)
{
	struct cctx *c = arg;

	check_container(c->m, c->ns, rr, path, c->e);
}

/* Kueue: limitrange.go ValidatePodSpec, the Pod type on the pod's total. */
static void check_pod(const struct qf_model *m, const char *ns,
                      const struct qf_model_podset *ps, const char *path,
                      struct errs *e)
{
	const char *over[QF_LIMITRANGE_MAX_NAMES],
	        *under[QF_LIMITRANGE_MAX_NAMES];
	size_t nover = 0, nunder = 0;

	for (size_t i = 0; i < ps->nraw && i < QF_LIMITRANGE_MAX_NAMES; i++) {
		const char *res = m->res.v[ps->raw[i].res];
		int64_t lim;

		if (bound(m, ns, "Pod", "max", res, &lim) &&
		    ps->raw[i].amount > lim)
			over[nover++] = res;
		if (bound(m, ns, "Pod", "min", res, &lim) &&
		    lim > ps->raw[i].amount)
			under[nunder++] = res;
	}
	add_err(e, path, over, nover, max_msg);
	add_err(e, path, under, nunder, min_msg);
}

static int has_ranges(const struct qf_model *m, const char *ns)
{
	for (size_t i = 0; i < m->nlr; i++)
		if (!strcmp(m->lr[i].ns, ns))
			return 1;
	return 0;
}

char *qf_limitrange_check(const struct qf_model *m, const struct qf_model_wl *w)
{
	struct errs e = { QF_BUF_INIT, 0 };
	struct cctx c = { m, w->ns, &e };
	struct qf_buf path = QF_BUF_INIT, out = QF_BUF_INIT;

	if (!has_ranges(m, w->ns))
		return NULL;
	for (size_t i = 0; i < w->nps; i++) {
		/* Kueue validates the pod sets it adjusted (defaults) */
		const json_t *spec = json_object_get(
		        json_object_get(json_array_get(qf_model_podsets(w), i),
		                        "template"),
		        "spec");

		qf_model_each_container(spec, i, check_one, &c);
		qf_buf_reset(&path);
		qf_buf_addf(&path, "spec.podSets[%zu].template.spec", i);
		check_pod(m, w->ns, &w->ps[i], path.buf, &e);
	}
	qf_buf_release(&path);
	if (!e.n) {
		qf_buf_release(&e.b);
		return NULL;
	}
	/* Kueue: resources.go ValidateAdmissibility; ToAggregate prints one
	 * error bare, several in [..] */
	qf_buf_addf(&out,
	            "resources didn't satisfy LimitRange constraints: %s%s%s",
	            e.n > 1 ? "[" : "", e.b.buf, e.n > 1 ? "]" : "");
	qf_buf_release(&e.b);
	return qf_buf_detach(&out, NULL);
}
