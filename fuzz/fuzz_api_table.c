/*
 * fuzz_api_table.c - runtime/api_table.c and api_list.c: the input, split
 * at its first newline, is an Accept header and a continue token; the
 * whole input is also a printer-column JSONPath evaluated on a fixed
 * object, and a JSON object, when it parses, is printed as a Table of
 * every kind.  A result outside its contract (an Accept answer other
 * than -1 or a QF_API_AS_* value, an error code other than 406 or 400, a
 * decoded token without a key) aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "runtime/api.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char object_text[] =
        "{\"metadata\":{\"name\":\"w\",\"namespace\":\"ns\"},\"status\":"
        "{\"conditions\":[{\"type\":\"Admitted\",\"status\":\"True\"}]}}";

static void accept_and_token(const char *accept, const char *token)
{
	struct qf_api_err err = { 0, NULL, "", 0, "", "", "", 0 };
	int as = qf_api_accept(accept, &err);
	int64_t rv;
	char *key;

	if (as < -1 || as > QF_API_AS_TABLE_V1BETA1 ||
	    (as < 0 && err.code != 406))
		abort();
	if (qf_api_continue_decode(&rv, &key, token, &err) == 0) {
		struct qf_buf b = QF_BUF_INIT;

		if (!key || rv <= 0)
			abort();
		qf_api_continue_encode(&b, rv, key);
		free(key);
		qf_buf_release(&b);
	} else if (err.code != 400 || key) {
		abort();
	}
}

static void tables(json_t *obj)
{
	struct qf_api_table_opts o = { QF_API_AS_TABLE, QF_API_INCLUDE_OBJECT,
		                       0, 0 };

	for (size_t k = 0; k < qf_api_nkinds; k++) {
		json_t *t = qf_api_table((int)k, "v1beta1", &obj, 1, &o);

		if (!json_is_array(json_object_get(t, "rows")))
			abort();
		json_decref(t);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *all = qf_xstrndup((const char *)data, size);
	char *nl = strchr(all, '\n');
	json_t *obj = json_loads(object_text, 0, NULL), *in;

	(void)qf_api_jsonpath(obj, all);
	if (nl) {
		*nl = 0;
		accept_and_token(all, nl + 1);
		*nl = '\n';
	} else {
		accept_and_token(all, all);
	}
	in = json_loadb((const char *)data, size, 0, NULL);
	if (json_is_object(in))
		tables(in);
	json_decref(in);
	json_decref(obj);
	free(all);
	return 0;
}
