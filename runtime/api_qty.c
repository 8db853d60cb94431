/*
 * api_qty.c - runtime/api.h: the resource quantities of a Job's pod
 * template as kube-apiserver stores them.  A built-in kind is decoded into
 * its Go type and encoded again, so every resource.Quantity comes back as
 * Go's Quantity.String() gives it ("1000m" is "1", a JSON number 2 is
 * "2"; text that already looks canonical, "+1" or "1.500", as typed) and
 * a value that is no quantity fails the decoding with ParseQuantity's
 * error (its scanner's, or "unable to parse quantity's suffix").  A
 * custom resource (every Kueue kind) is stored as sent; Kueue's webhooks
 * decode its quantities the same way (api_webhook.c).
 */
#include "runtime/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/qty.h"
#include "core/status.h"
#include "core/banned.h"

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

/* What kube stores for quantity v (a string or a number; a new
 * reference): Quantity.String() of what ParseQuantity reads, the text as
 * typed where Go keeps it, else the canonical form.  NULL with *why,
 * ParseQuantity's error, when it is none. */
static json_t *canonical(const json_t *v, const char **why)
{
	struct qf_buf b = QF_BUF_INIT;
	char num[48];
	const char *s = num;
	json_t *out = NULL;

	if (json_is_number(v))
		number_text(num, v);
	else if (json_is_string(v))
		s = json_string_value(v);
	else /* UnmarshalJSON reads the JSON text itself: true, {} */
		s = "";
	*why = qf_qty_go_error(s);
	if (!*why && qf_qty_go_string(&b, s) == 0)
		out = json_string(b.buf);
	qf_buf_release(&b);
	return out;
}

/* Member key of o, a quantity, as stored; 0 when absent, -1 with *why. */
static int one(json_t *o, const char *key, const char **why)
{
	const json_t *v = json_object_get(o, key);
	json_t *c;

	if (!v || json_is_null(v))
		return 0;
	c = canonical(v, why);
	if (!c)
		return -1;
	json_object_set_new(o, key, c);
	return 0;
}

/* Every member of map o (requests, limits, overhead), a quantity. */
static int map(json_t *o, const char **why)
{
	const char *key;
	json_t *v;

	if (!json_is_object(o))
		return 0;
	json_object_foreach (o, key, v)
		if (one(o, key, why) < 0)
			return -1;
	return 0;
}

/* A ResourceRequirements (a container's, a pod's, a claim template's). */
static int requirements(json_t *r, const char **why)
{
	return map(json_object_get(r, "requests"), why) < 0 ||
	                       map(json_object_get(r, "limits"), why) < 0
	               ? -1
	               : 0;
}

/* The quantities of a PodSpec: core/v1 types.go's resource.Quantity
 * fields. */
static int pod_spec(json_t *spec, const char **why)
{
	static const char *const lists[] = { "containers", "initContainers",
		                             "ephemeralContainers" };
	size_t i;
	json_t *x;

	for (size_t l = 0; l < QF_ARRAY_SIZE(lists); l++)
		json_array_foreach (json_object_get(spec, lists[l]), i, x)
			if (requirements(json_object_get(x, "resources"), why) <
			    0)
				return -1;
	if (map(json_object_get(spec, "overhead"), why) < 0 ||
	    requirements(json_object_get(spec, "resources"), why) < 0)
		return -1;
	json_array_foreach (json_object_get(spec, "volumes"), i, x) {
		json_t *ed = json_object_get(x, "emptyDir");
		json_t *eph = json_object_get(
		        json_object_get(json_object_get(x, "ephemeral"),
		                        "volumeClaimTemplate"),
		        "spec");

		if ((json_is_object(ed) && one(ed, "sizeLimit", why) < 0) ||
		    requirements(json_object_get(eph, "resources"), why) < 0)
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
	const char *why = NULL;

	if (!json_is_object(spec) || pod_spec(spec, &why) == 0)
		return 0;
	return qf_api_fail(err, 400, "BadRequest",
	                   "Job in version \"%s\" cannot be handled as a Job: "
	                   "%s",
	                   version ? version : "v1", why);
}

int qf_api_pod_quantities(const json_t *spec, const char **why)
{
	json_t *t = json_deep_copy(spec);
	int rc = json_is_object(t) ? pod_spec(t, why) : 0;

	json_decref(t);
	return rc;
}

const char *qf_api_qty_string(struct qf_buf *out, const json_t *v)
{
	const char *why = NULL;
	json_t *c;

	if (!v || json_is_null(v))
		return NULL;
	c = canonical(v, &why);
	if (c && out)
		qf_buf_adds(out, json_string_value(c));
	json_decref(c);
	return why;
}
