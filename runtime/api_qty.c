/*
 * api_qty.c - runtime/api.h: the resource quantities of a Job's pod
 * template as kube-apiserver stores them.  A built-in kind is decoded into
 * its Go type and encoded again, so every resource.Quantity comes back in
 * canonical form ("1000m" is "1", a JSON number 2 is "2") and a value that
 * is no quantity fails the decoding.  A custom resource (every Kueue kind)
 * is stored as sent, so nothing here touches those.
 */
#include "runtime/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/qty.h"
#include "core/status.h"
#include "core/banned.h"

/* apimachinery's resource.ErrFormatWrong */
#define QTY_FORMAT_WRONG                                \
	"quantities must match the regular expression " \
	"'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"

/* The text of a JSON number as Go's encoder wrote it, which is what kube
 * decodes (kubectl turns YAML into JSON with it): the shortest digits
 * that read back as the same double, in fixed notation from 1e-6 to
 * 1e21 ("1000", "0.5"), else as "1e+21", "1e-7". */
static void number_text(char out[48], const json_t *v)
{
	double d, a;
	char *x;
	int p, e;

	if (json_is_integer(v)) {
		(void)snprintf(out, 48, "%" JSON_INTEGER_FORMAT,
		               json_integer_value(v));
		return;
	}
	d = json_real_value(v);
	for (p = 0; p < 17; p++) {
		(void)snprintf(out, 48, "%.*e", p, d);
		if (strtod(out, NULL) == d)
			break;
	}
	x = strchr(out, 'e');
	e = (int)strtol(x + 1, NULL, 10);
	a = d < 0 ? -d : d;
	if (a == 0 || (a >= 1e-6 && a < 1e21))
		(void)snprintf(out, 48, "%.*f", p > e ? p - e : 0, d);
	else /* the mantissa kept, Go's exponent: no leading zeros */
		(void)snprintf(x, 48 - (size_t)(x - out), "e%c%d",
		               e < 0 ? '-' : '+', e < 0 ? -e : e);
}

/* The canonical form of quantity v (a string or a number), a new
 * reference; NULL when it is none. */
static json_t *canonical(const json_t *v)
{
	struct qf_buf b = QF_BUF_INIT;
	struct qf_qty q;
	char num[48];
	const char *s = num;
	json_t *out = NULL;

	if (json_is_number(v))
		number_text(num, v);
	else
		s = json_string_value(v);
	if (s && qf_qty_parse(&q, s) == 0) {
		qf_qty_format(&b, &q);
		out = json_string(b.buf);
	}
	qf_buf_release(&b);
	return out;
}

/* Member key of o, a quantity, made canonical; 0 when absent. */
static int one(json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	json_t *c;

	if (!v || json_is_null(v))
		return 0;
	c = canonical(v);
	if (!c)
		return -1;
	json_object_set_new(o, key, c);
	return 0;
}

/* Every member of map o (requests, limits, overhead), a quantity. */
static int map(json_t *o)
{
	const char *key;
	json_t *v;

	if (!json_is_object(o))
		return 0;
	json_object_foreach (o, key, v)
		if (one(o, key) < 0)
			return -1;
	return 0;
}

/* A ResourceRequirements (a container's, a pod's, a claim template's). */
static int requirements(json_t *r)
{
	return map(json_object_get(r, "requests")) < 0 ||
	                       map(json_object_get(r, "limits")) < 0
	               ? -1
	               : 0;
}

/* The quantities of a PodSpec: core/v1 types.go's resource.Quantity
 * fields. */
static int pod_spec(json_t *spec)
{
	static const char *const lists[] = { "containers", "initContainers",
		                             "ephemeralContainers" };
	size_t i;
	json_t *x;

	for (size_t l = 0; l < QF_ARRAY_SIZE(lists); l++)
		json_array_foreach (json_object_get(spec, lists[l]), i, x)
			if (requirements(json_object_get(x, "resources")) < 0)
				return -1;
	if (map(json_object_get(spec, "overhead")) < 0 ||
	    requirements(json_object_get(spec, "resources")) < 0)
		return -1;
	json_array_foreach (json_object_get(spec, "volumes"), i, x) {
		json_t *ed = json_object_get(x, "emptyDir");
		json_t *eph = json_object_get(
		        json_object_get(json_object_get(x, "ephemeral"),
		                        "volumeClaimTemplate"),
		        "spec");

		if ((json_is_object(ed) && one(ed, "sizeLimit") < 0) ||
		    requirements(json_object_get(eph, "resources")) < 0)
			return -1;
	}
	return 0;
}

int qf_api_job_quantities(json_t *job, const char *version,
                          struct qf_api_err *err)
{
	json_t *spec = json_object_get(
	        json_object_get(json_object_get(job, "spec"), "template"),
	        "spec");

	if (!json_is_object(spec) || pod_spec(spec) == 0)
		return 0;
	return qf_api_fail(err, 400, "BadRequest",
	                   "Job in version \"%s\" cannot be handled as a Job: "
	                   "%s",
	                   version ? version : "v1", QTY_FORMAT_WRONG);
}
