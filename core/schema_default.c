/*
 * schema_default.c - structural defaulting (schema.h): the `default`
 * values of a compiled schema filled into a JSON tree.
 */
#include "core/schema.h"

#include "core/schema_int.h"
#include "core/banned.h"

/* Recursive: as deep as the value (bounded by the body limits). */
/* NOLINTNEXTLINE(misc-no-recursion) */
void qf_schema_default(const struct qf_schema *s, json_t *value)
{
	const char *key;
	json_t *v;
	size_t i;

	if (!s || !value)
		return;
	if (json_is_array(value)) {
		json_array_foreach (value, i, v) {
			qf_schema_default(s->items, v);
		}
		return;
	}
	if (!json_is_object(value))
		return;
	for (i = 0; i < s->nprops; i++) {
		const struct qf_schema *p = s->props[i].s;
		json_t *x = json_object_get(value, s->props[i].name);

		if (p->dflt &&
		    (!x || (json_is_null(x) && !(p->flags & SF_NULLABLE))))
			json_object_set_new(value, s->props[i].name,
			                    json_deep_copy(p->dflt));
	}
	json_object_foreach (value, key, v) {
		const struct qf_schema *p = qf_schema__prop(s, key);

		qf_schema_default(p ? p : s->addl, v);
	}
}
