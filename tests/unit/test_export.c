/*
 * test_export.c - audit/verify_views.c's load of a bundle's events into
 * its scratch database (audit/export.h): quotaflow events go into chunks
 * with their own ids, every other event into event_rows, and an event
 * whose id a chunk's event holds already is named at its line, as the
 * primary key of event_rows names one that another row holds.
 */
#include "tests/unit/qf_test.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "audit/export.h"
#include "core/fs.h"

/* A bundle folder with an empty evidence/ table of each kind, so that
 * the rebuild makes its scratch database. */
static void bundle_dir(struct qf_buf *dir)
{
	struct qf_buf p = QF_BUF_INIT;
	const char *tmp = getenv("TMPDIR");

	qf_buf_addf(dir, "%s/qf_test_export_XXXXXX",
	            tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir->buf));
	qf_buf_addf(&p, "%s/evidence", dir->buf);
	assert_int_equal(mkdir(p.buf, 0700), 0);
	for (size_t i = 0; i < QF_EXPORT_NEVIDENCE; i++) {
		FILE *f;

		qf_buf_reset(&p);
		qf_buf_addf(&p, "%s/evidence/%s.jsonl", dir->buf,
		            qf_export_evidence[i]);
		f = fopen(p.buf, "w");
		assert_non_null(f);
		assert_int_equal(fclose(f), 0);
	}
	qf_buf_release(&p);
}

/* An event of id `id` and source `source` as verify's line reader gives
 * it (columns in qf_evdb_row_cols order). */
static struct qf_evline event(long long id, const char *source, long long t)
{
	struct qf_evline l;
	static const struct {
		int col;
		const char *text;
	} text[] = { { 1, "c" }, { 8, "Admitted" }, { 9, "ns/w" } };

	memset(&l, 0, sizeof(l));
	for (int i = 0; i < QF_EVDB_ROW_NCOLS; i++)
		l.col[i].type = SQLITE_NULL;
	for (size_t i = 0; i < QF_ARRAY_SIZE(text); i++)
		l.col[text[i].col] =
		        (struct qf_evline_col){ SQLITE_TEXT, text[i].text,
			                        strlen(text[i].text), 0 };
	l.col[3] = (struct qf_evline_col){ SQLITE_TEXT, source, strlen(source),
		                           0 };
	l.col[0] = (struct qf_evline_col){ SQLITE_INTEGER, NULL, 0, id };
	l.col[2] = (struct qf_evline_col){ SQLITE_INTEGER, NULL, 0, id * 7 };
	l.col[4] = (struct qf_evline_col){ SQLITE_INTEGER, NULL, 0, t };
	l.col[5] = l.col[4];
	l.col[6] = (struct qf_evline_col){ SQLITE_INTEGER, NULL, 0, 1 };
	l.id = id;
	return l;
}

/* A Kubernetes event whose id a chunk's event holds (a bundle whose
 * events and chain were rewritten) is named at its line and derives
 * nothing; before it, a row and a chunk load side by side. */
static void test_export_rebuild_names_an_id_a_chunk_holds(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf dir = QF_BUF_INIT;
	struct qf_export_summary sum;
	struct qf_export_rebuild *rb;
	unsigned char chain[32] = { 0 };
	struct qf_evline l;
	const char *msg;
	int rc;

	(void)state;
	bundle_dir(&dir);
	rb = qf_export_rebuild_new(dir.buf);
	l = event(1, "quotaflow", 10);
	qf_export_rebuild_event(rb, &l, chain, 1);
	l = event(2, "quotaflow", 20);
	qf_export_rebuild_event(rb, &l, chain, 2);
	l = event(3, "k8s-event", 30);
	qf_export_rebuild_event(rb, &l, chain, 3);
	l = event(2, "k8s-event", 40);
	qf_export_rebuild_event(rb, &l, chain, 4);
	memset(&sum, 0, sizeof(sum));
	rc = qf_export_rebuild_finish(rb, &sum, &d);
	assert_int_equal(rc, QF_EINVAL);
	assert_int_equal(d.nerrors, 1);
	msg = d.v[0].msg;
	assert_non_null(strstr(msg, "not a row of the events: its id is "
	                            "another event's"));
	assert_int_equal(d.v[0].line, 4);
	assert_non_null(strstr(d.v[0].file, "/events.jsonl"));
	assert_int_equal(sum.views, 0);
	assert_int_equal(qf_export_rebuild_free(rb, &d), QF_OK);
	assert_int_equal(qf_fs_remove_tree(dir.buf, &d), QF_OK);
	qf_diags_release(&d);
	qf_buf_release(&dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_export_rebuild_names_an_id_a_chunk_holds),
	};

	return cmocka_run_group_tests_name("export", tests, NULL, NULL);
}
