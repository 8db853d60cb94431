/*
 * schema_kube.c - the words kube-apiserver uses for a custom resource that
 * fails its CRD schema (core/schema_int.h; qf_schema_validate_kube walks
 * with them).  apiextensions-apiserver turns each kube-openapi error into a
 * field.Error (validation.go kubeOpenAPIResultToFieldErrors) whose body
 * (ErrorBody, k8s.io/apimachinery v0.32) is the error type's words, the
 * bad value as Go prints it, and a detail that is kube-openapi's own
 * message ("spec.x in body should match '^a$'").  Here is how a value is
 * printed (%q for a string, %v for a number or a bool, %#v for a list or
 * a map) and each message kind.
 */
#include "core/schema_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/banned.h"

/* The exponent of a number printed with %e. */
static int atoi_exp(const char *s)
{
	const char *e = strchr(s, 'e');

	return e ? (int)strtol(e + 1, NULL, 10) : 0;
}

/* Go's strconv.Quote of a UTF-8 string: \" \\ and the C escapes, other
 * control bytes as \x.., printable characters as they are. */
static void go_quote(struct qf_buf *b, const char *s, size_t n)
{
	static const char esc[] = "\a\b\f\n\r\t\v";
	static const char name[] = "abfnrtv";

	qf_buf_addch(b, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = c ? strchr(esc, c) : NULL;

		if (c == '"' || c == '\\')
			qf_buf_addf(b, "\\%c", c);
		else if (e)
			qf_buf_addf(b, "\\%c", name[e - esc]);
		else if (c < 0x20 || c == 0x7f)
			qf_buf_addf(b, "\\x%02x", c);
		else
			qf_buf_addch(b, (char)c);
	}
	qf_buf_addch(b, '"');
}

/* A number as Go's %v prints a float64 (strconv 'g', shortest): the
 * fewest digits that read back the same, with an exponent when it is
 * below -4 or at least 6 (1e+06, 1.5e-05, 123456.5). */
static void go_float(struct qf_buf *b, double r)
{
	char tmp[48];
	int prec = 1, exp;

	for (; prec < 17; prec++) {
		(void)snprintf(tmp, sizeof(tmp), "%.*e", prec - 1, r);
		if (strtod(tmp, NULL) == r)
			break;
	}
	(void)snprintf(tmp, sizeof(tmp), "%.*e", prec - 1, r);
	exp = atoi_exp(tmp);
	if (exp < -4 || exp >= 6)
		qf_buf_adds(b, tmp);
	else
		qf_buf_addf(b, "%.*f", prec - 1 - exp > 0 ? prec - 1 - exp : 0,
		            r);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Recursive: as deep as the value, at most QF_DOC_MAX_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void go_syntax(struct qf_buf *b, const json_t *x)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_object(x)) {
		/* %#v of map[string]interface {}: keys sorted */
		const char **keys =
		        qf_xcalloc(json_object_size(x) + 1, sizeof(char *));
		size_t n = 0;

		json_object_foreach ((json_t *)x, key, v)
			keys[n++] = key;
		qsort(keys, n, sizeof(*keys), cmp_str);
		qf_buf_adds(b, "map[string]interface {}{");
		for (i = 0; i < n; i++) {
			qf_buf_adds(b, i ? ", " : "");
			go_quote(b, keys[i], strlen(keys[i]));
			qf_buf_addch(b, ':');
			go_syntax(b, json_object_get(x, keys[i]));
		}
		qf_buf_addch(b, '}');
		free(keys);
	} else if (json_is_array(x)) {
		qf_buf_adds(b, "[]interface {}{");
		json_array_foreach (x, i, v) {
			qf_buf_adds(b, i ? ", " : "");
			go_syntax(b, v);
		}
		qf_buf_addch(b, '}');
	} else if (json_is_null(x)) {
		qf_buf_adds(b, "interface {}(nil)");
	} else {
		qf_schema__go_value(b, x);
	}
}

/* Recursive through go_syntax: as deep as the value, at most
 * QF_DOC_MAX_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
void qf_schema__go_value(struct qf_buf *b, const json_t *x)
{
	switch (json_typeof(x)) {
	case JSON_STRING:
		go_quote(b, json_string_value(x), json_string_length(x));
		break;
	case JSON_INTEGER:
		qf_buf_addf(b, "%lld", (long long)json_integer_value(x));
		break;
	case JSON_REAL:
		go_float(b, json_real_value(x));
		break;
	case JSON_TRUE:
		qf_buf_adds(b, "true");
		break;
	case JSON_FALSE:
		qf_buf_adds(b, "false");
		break;
	case JSON_NULL:
		qf_buf_adds(b, "null");
		break;
	default:
		go_syntax(b, x);
	}
}

void qf_schema__kube_enum(struct qf_buf *b, const json_t *value,
                          const json_t *allowed)
{
	json_t *e;
	size_t i;

	/* field.NotSupported: each allowed value quoted, a non-string one
	 * as its JSON first */
	qf_buf_adds(b, "Unsupported value: ");
	qf_schema__go_value(b, value);
	qf_buf_adds(b, ": supported values: ");
	json_array_foreach (allowed, i, e) {
		char *j =
		        json_is_string(e)
		                ? NULL
		                : json_dumps(e, JSON_COMPACT | JSON_ENCODE_ANY);
		const char *s = j ? j : json_string_value(e);

		qf_buf_adds(b, i ? ", " : "");
		go_quote(b, s ? s : "", s ? strlen(s) : 0);
		free(j);
	}
}

void qf_schema__kube_invalid(struct qf_buf *b, const json_t *value,
                             const char *path, const char *fmt, ...)
{
	va_list ap;

	/* field.Invalid(path, value, kube-openapi's "<path> in body ...") */
	qf_buf_adds(b, "Invalid value: ");
	qf_schema__go_value(b, value);
	qf_buf_addf(b, ": %s in body ", path);
	va_start(ap, fmt);
	qf_buf_vaddf(b, fmt, ap);
	va_end(ap);
}
