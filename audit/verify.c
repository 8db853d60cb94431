/*
 * verify.c - `quotaflow audit verify`: recompute what an evidence bundle
 * or a database claims (audit/export.h).  Bundle checks, in order: every
 * file of manifest.json has its digest and nothing is added; every in-toto
 * subject matches its file; the events hash chain recomputed from
 * events.jsonl matches each row's link and the statement's chainHead;
 * then the views and the report derived again (verify_views.c).
 */
#include "audit/export.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "audit/evchunk.h"
#include "audit/evdigest.h"
#include "audit/evline.h"
#include "audit/rederive.h"
#include "core/fs.h"
#include "core/strlist.h"
#include "core/banned.h"

/*
 * Open path to read a file of the bundle: a regular file only, never
 * through a link (a bundle is copied and archived as it is, so a link
 * would point elsewhere then) and never waiting on a FIFO.  NULL with
 * *why saying what it is instead.
 */
static FILE *open_regular(const char *path, const char **why)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f = NULL;

	*why = "missing or unreadable";
	if (fd < 0) {
		if (errno == ELOOP)
			*why = "a symbolic link; a bundle holds only regular "
			       "files";
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		*why = S_ISDIR(st.st_mode)
		               ? "a folder where a file is listed"
		               : "not a regular file (a FIFO, socket or "
		                 "device); a bundle holds only regular files";
	else
		f = fdopen(fd, "rb");
	if (!f)
		close(fd);
	return f;
}

/* The SHA-256 of path into hex; NULL, else what is wrong with it. */
static const char *file_sha(const char *path, struct qf_buf *hex)
{
	unsigned char h[32], buf[65536];
	const char *why = NULL;
	FILE *f = open_regular(path, &why);
	EVP_MD_CTX *md;
	size_t n;

	qf_buf_reset(hex);
	if (!f)
		return why;
	md = EVP_MD_CTX_new();
	EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		EVP_DigestUpdate(md, buf, n);
	EVP_DigestFinal_ex(md, h, NULL);
	EVP_MD_CTX_free(md);
	n = (size_t)ferror(f);
	(void)fclose(f); /* read only: the error is in ferror */
	if (n)
		return "unreadable";
	qf_evdb_hex(hex, h, 32);
	return NULL;
}

static int tampered(struct qf_diags *d, const char *path, const char *why)
{
	struct qf_buf msg = QF_BUF_INIT;
	int said = 0;

	qf_buf_addf(&msg, "tampered: %s", why);
	/* a link checked against the manifest and the statement: once */
	for (size_t i = 0; !said && i < d->n; i++)
		said = d->v[i].file && !strcmp(d->v[i].file, path) &&
		       !strcmp(d->v[i].msg, msg.buf);
	if (!said)
		qf_diag_error(d, &(struct qf_loc){ path, 0, 0 }, NULL, NULL,
		              "%s", msg.buf);
	qf_buf_release(&msg);
	return QF_EINVAL;
}

static json_t *load_json(const char *path, struct qf_diags *d)
{
	const char *why = NULL;
	FILE *f = open_regular(path, &why);
	json_error_t err;
	json_t *v;

	if (!f) {
		(void)tampered(d, path, why);
		return NULL;
	}
	v = json_loadf(f, 0, &err);
	(void)fclose(f); /* read only: jansson reported a read error */
	if (!v)
		qf_diag_error(
		        d,
		        &(struct qf_loc){ path,
		                          err.line > 0 ? (uint32_t)err.line : 0,
		                          err.line > 0 && err.column > 0
		                                  ? (uint32_t)err.column
		                          : err.line > 0 ? 1
		                                         : 0 },
		        NULL, NULL, "tampered: not JSON: %s", err.text);
	return v;
}

/* The digests of the bundle's files, each read once: the manifest and
 * the statement list the same files, and events.jsonl is most of the
 * bundle.  An entry is "HEX NAME" (a bundle has a score of files). */
struct digests {
	struct qf_strlist v;
};

/* file_sha of dir/name (path in p), or the digest it had before. */
static const char *digest_of(struct digests *seen, struct qf_buf *p,
                             struct qf_buf *hex, const char *name)
{
	const char *why;

	for (size_t i = 0; i < seen->v.n; i++)
		if (!strcmp(seen->v.v[i] + 65, name)) {
			qf_buf_reset(hex);
			qf_buf_add(hex, seen->v.v[i], 64);
			return NULL;
		}
	why = file_sha(p->buf, hex);
	if (!why && hex->len == 64) {
		struct qf_buf e = QF_BUF_INIT;

		qf_buf_addf(&e, "%s %s", hex->buf, name);
		qf_strlist_add_take(&seen->v, qf_buf_detach(&e, NULL));
	}
	return why;
}

/*
 * dir/name has the SHA-256 `want`; else an error that it is `missing` (or
 * unreadable) or `differs`.  p and hex are the caller's scratch buffers:
 * p is left holding the file's path.
 */
static int check_digest(struct digests *seen, struct qf_buf *p,
                        struct qf_buf *hex, const char *dir, const char *name,
                        const char *want, const char *missing,
                        const char *differs, struct qf_diags *d)
{
	const char *why;

	qf_buf_reset(p);
	qf_buf_addf(p, "%s/%s", dir, name);
	why = digest_of(seen, p, hex, name);
	if (why && !strcmp(why, "missing or unreadable"))
		return tampered(d, p->buf, missing);
	if (why)
		return tampered(d, p->buf, why);
	if (strcmp(hex->buf, want) != 0)
		return tampered(d, p->buf, differs);
	return QF_OK;
}

/* Each listed file exists with its digest; *listed collects the names. */
static int check_manifest(const char *dir, struct qf_strlist *listed,
                          struct digests *seen, struct qf_diags *d)
{
	struct qf_buf p = QF_BUF_INIT, hex = QF_BUF_INIT;
	json_t *m, *f;
	size_t i;
	int rc = QF_OK;

	qf_buf_addf(&p, "%s/manifest.json", dir);
	m = load_json(p.buf, d);
	if (!m) {
		qf_buf_release(&p);
		return QF_EINVAL;
	}
	if (!json_is_array(json_object_get(m, "files")))
		rc = tampered(d, p.buf, "it has no \"files\" list");
	json_array_foreach (json_object_get(m, "files"), i, f) {
		const char *name =
		        json_string_value(json_object_get(f, "path"));
		const char *want =
		        json_string_value(json_object_get(f, "sha256"));

		if (!name || !want || strstr(name, "..")) {
			rc = tampered(d, p.buf, "a malformed file entry");
			continue;
		}
		qf_strlist_add(listed, name);
		if (check_digest(seen, &p, &hex, dir, name, want,
		                 "listed in manifest.json but missing or "
		                 "unreadable",
		                 "its SHA-256 differs from manifest.json",
		                 d) < 0)
			rc = QF_EINVAL;
	}
	json_decref(m);
	qf_buf_release(&p);
	qf_buf_release(&hex);
	return rc;
}

/*
 * No file was added beside the listed ones: hidden ones included, and a
 * link or FIFO is named as such (the listed ones check_digest checks).
 */
static int check_extra(const char *dir, struct qf_strlist *listed,
                       struct qf_diags *d)
{
	struct qf_strlist all = QF_STRLIST_INIT;
	const char *paths[1] = { dir };
	size_t skip = strlen(dir) + 1;
	int rc = qf_fs_collect(&all, paths, 1, QF_FS_NOFOLLOW | QF_FS_EVERY, d);

	qf_strlist_add(listed, "manifest.json");
	qf_strlist_add(listed, "statement.intoto.json");
	/* every extra one is named, not only the first */
	for (size_t i = 0; i < all.n; i++) {
		struct stat sb;

		if (strlen(all.v[i]) <= skip ||
		    qf_strlist_find(listed, all.v[i] + skip) >= 0)
			continue;
		if (!lstat(all.v[i], &sb) && S_ISLNK(sb.st_mode))
			rc = tampered(d, all.v[i],
			              "a symbolic link; a bundle holds only "
			              "regular files");
		else if (!lstat(all.v[i], &sb) && !S_ISREG(sb.st_mode))
			rc = tampered(d, all.v[i],
			              "not a regular file (a FIFO, socket or "
			              "device); a bundle holds only regular "
			              "files");
		else
			rc = tampered(d, all.v[i], "not in manifest.json");
	}
	qf_strlist_release(&all);
	return rc;
}

static int check_statement(const char *dir, json_t **st_out,
                           struct digests *seen, struct qf_diags *d)
{
	struct qf_buf p = QF_BUF_INIT, hex = QF_BUF_INIT;
	json_t *st, *s;
	size_t i;
	int rc = QF_OK;

	qf_buf_addf(&p, "%s/statement.intoto.json", dir);
	st = load_json(p.buf, d);
	*st_out = st;
	if (!st) {
		qf_buf_release(&p);
		return QF_EINVAL;
	}
	if (!json_array_size(json_object_get(st, "subject")))
		rc = tampered(d, p.buf, "the statement has no subjects");
	json_array_foreach (json_object_get(st, "subject"), i, s) {
		const char *name =
		        json_string_value(json_object_get(s, "name"));
		const char *want = json_string_value(json_object_get(
		        json_object_get(s, "digest"), "sha256"));

		if (!name || !want || strstr(name, ".."))
			continue;
		if (check_digest(seen, &p, &hex, dir, name, want,
		                 "a subject of the in-toto statement, missing "
		                 "or unreadable",
		                 "its SHA-256 differs from the in-toto "
		                 "statement's subject",
		                 d) < 0)
			rc = QF_EINVAL;
	}
	qf_buf_release(&p);
	qf_buf_release(&hex);
	return rc;
}

/* What the one read of events.jsonl found (read_events). */
struct events_read {
	const char *why; /* not read: what it is instead; NULL: read */
	uint32_t lines;  /* read, up to the first that breaks the chain */
	uint32_t broken; /* the line whose link does not follow; 0: none */
	long long broken_id;
	char head[65]; /* hex of the last link, "" when no line */
};

/* A line of events.jsonl read: its link checked, its event handed to
 * rb; 0 when the chain breaks there. */
static int chain_line(struct events_read *er, struct qf_evdb_hasher *h,
                      const char *line, struct qf_buf *strs,
                      unsigned char chain[32], struct qf_export_rebuild *rb)
{
	struct qf_buf hex = QF_BUF_INIT;
	struct qf_evline l;
	int ok;

	er->lines++;
	(void)qf_evline_read(h, line, strs->buf, chain, &l);
	qf_evdb_hex(&hex, chain, 32);
	ok = l.link && l.link_len == hex.len &&
	     !memcmp(l.link, hex.buf, hex.len);
	if (ok) {
		qf_export_rebuild_event(rb, &l, chain, er->lines);
		memcpy(er->head, hex.buf, 65);
	} else {
		er->broken = er->lines;
		er->broken_id = l.id;
	}
	qf_evline_release(&l);
	qf_buf_release(&hex);
	return ok;
}

/*
 * Read events.jsonl once: its SHA-256 (into seen, for the manifest and
 * the statement), the chain over its lines up to the first that breaks
 * it, and each event whose link holds handed to rb (NULL: none).  It is
 * most of a bundle: reading it three times was a fifth of verify.
 */
static void read_events(const char *dir, struct digests *seen,
                        struct qf_export_rebuild *rb, struct events_read *er)
{
	struct qf_buf p = QF_BUF_INIT, strs = QF_BUF_INIT, e = QF_BUF_INIT;
	struct qf_evdb_hasher *h = qf_evdb_hasher_new();
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned char chain[32] = { 0 }, sha[32];
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	memset(er, 0, sizeof(*er));
	qf_buf_addf(&p, "%s/events.jsonl", dir);
	f = open_regular(p.buf, &er->why);
	if (!f)
		goto done;
	er->why = NULL;
	(void)setvbuf(f, NULL, _IOFBF, 1 << 20); /* fewer reads; best effort */
	EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	while ((n = getline(&line, &cap, f)) > 0) {
		EVP_DigestUpdate(md, line, (size_t)n);
		if (er->broken)
			continue; /* only the digest is wanted now */
		qf_buf_grow(&strs, cap);
		(void)chain_line(er, h, line, &strs, chain, rb);
	}
	EVP_DigestFinal_ex(md, sha, NULL);
	if (ferror(f)) {
		er->why = "unreadable";
	} else { /* as digest_of keeps it */
		qf_evdb_hex(&e, sha, 32);
		qf_buf_adds(&e, " events.jsonl");
		qf_strlist_add_take(&seen->v, qf_buf_detach(&e, NULL));
	}
	(void)fclose(f); /* read only: the error is in ferror */
done:
	free(line);
	EVP_MD_CTX_free(md);
	qf_evdb_hasher_free(h);
	qf_buf_release(&p);
	qf_buf_release(&strs);
	qf_buf_release(&e);
}

/* The chain over events.jsonl as read_events found it, against the
 * statement's chainHead. */
static int check_events(const char *dir, const json_t *st,
                        const struct events_read *er,
                        struct qf_export_summary *sum, struct qf_diags *d)
{
	struct qf_buf p = QF_BUF_INIT;
	const char *head = json_string_value(
	        json_object_get(json_object_get(st, "predicate"), "chainHead"));
	int rc = QF_OK;

	qf_buf_addf(&p, "%s/events.jsonl", dir);
	if (er->why && strcmp(er->why, "unreadable") != 0) {
		rc = tampered(d, p.buf, er->why);
	} else if (er->broken) {
		qf_diag_error(d, &(struct qf_loc){ p.buf, er->broken, 1 }, NULL,
		              NULL,
		              "tampered: event id %lld: the hash chain "
		              "breaks here (this row or one before it "
		              "was changed, added or removed)",
		              er->broken_id);
		rc = QF_EINVAL;
	} else if (strcmp(head ? head : "", er->head) != 0) {
		rc = tampered(d, p.buf,
		              "the last link differs from the "
		              "statement's chainHead (rows removed "
		              "at the end?)");
	}
	sum->events = er->broken ? er->broken - 1 : er->lines;
	if (rc == QF_OK)
		memcpy(sum->head, er->head, sizeof(sum->head));
	qf_buf_release(&p);
	return rc;
}

/*
 * A folder with neither seal is not a bundle (verify /etc listed every
 * file as tampered); with one of them gone it is a tampered bundle.
 */
static int is_bundle(const char *dir)
{
	static const char *const seals[] = { "manifest.json",
		                             "statement.intoto.json" };
	struct qf_buf p = QF_BUF_INIT;
	int any = 0;

	for (size_t i = 0; !any && i < QF_ARRAY_SIZE(seals); i++) {
		qf_buf_reset(&p);
		qf_buf_addf(&p, "%s/%s", dir, seals[i]);
		any = !access(p.buf, F_OK);
	}
	qf_buf_release(&p);
	return any;
}

int qf_export_verify_dir(const char *in_dir, struct qf_export_summary *sum,
                         struct qf_diags *d)
{
	struct qf_strlist listed = QF_STRLIST_INIT;
	struct digests seen = { QF_STRLIST_INIT };
	struct qf_buf name = QF_BUF_INIT;
	struct qf_export_rebuild *rb;
	struct events_read er;
	const char *dir;
	json_t *st = NULL;
	int rc, r;

	memset(sum, 0, sizeof(*sum));
	qf_fs_dir_name(&name, in_dir); /* "bundle/" lists as "bundle" */
	dir = name.buf;
	if (!qf_fs_is_dir(dir) || !is_bundle(dir)) {
		struct stat sb;
		int there = !stat(dir, &sb);

		(void)qf_diag_error(d, &(struct qf_loc){ dir, 0, 0 }, NULL,
		                    NULL, "not an evidence bundle: %s",
		                    qf_fs_is_dir(dir)
		                            ? "it holds neither manifest.json "
		                              "nor statement.intoto.json"
		                    : there ? "it is a file, not a directory"
		                            : "no such directory");
		qf_diag_hint(d, "give the directory audit export --out wrote");
		/* a path that names no bundle is a usage error (exit 2); a
		 * bundle emptied of both files is evidence of tampering */
		rc = qf_fs_is_dir(dir) ? QF_EINVAL : QF_EUSAGE;
		qf_buf_release(&name);
		return rc;
	}
	/* events.jsonl is read first, once: its digest for the seals, its
	 * chain, its events loaded to derive the views again, which only
	 * happens if all holds (views derived from evidence that does not
	 * hold prove nothing); what it finds is said in its turn */
	rb = qf_export_rebuild_new(dir);
	read_events(dir, &seen, rb, &er);
	rc = check_manifest(dir, &listed, &seen, d);
	/* without a manifest every file would be "not in manifest.json" */
	r = listed.n ? check_extra(dir, &listed, d) : QF_OK;
	rc = rc < 0 ? rc : r;
	sum->files = listed.n; /* with manifest.json and the statement */
	r = check_statement(dir, &st, &seen, d);
	rc = rc < 0 ? rc : r;
	if (st) {
		r = check_events(dir, st, &er, sum, d);
		rc = rc < 0 ? rc : r;
	}
	if (rc == QF_OK)
		rc = qf_export_rebuild_finish(rb, sum, d);
	r = qf_export_rebuild_free(rb, d);
	rc = rc < 0 ? rc : r;
	json_decref(st);
	qf_strlist_release(&listed);
	qf_strlist_release(&seen.v);
	qf_buf_release(&name);
	return rc;
}

/* How many events, and the chain's head. */
static int db_summary(struct qf_evdb *s, struct qf_export_summary *sum,
                      struct qf_diags *d)
{
	struct qf_buf hex = QF_BUF_INIT;
	unsigned char head[32];
	sqlite3_stmt *st = NULL;
	int64_t last;
	int rc = qf_evchunk_last(s, &last, head, d);

	if (rc < 0)
		return rc;
	if (sqlite3_prepare_v2(
	            s->db,
	            "SELECT (SELECT COUNT(*) FROM event_rows) +"
	            " (SELECT COALESCE(SUM(n), 0) FROM event_chunks)",
	            -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		sum->events = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (last)
		qf_evdb_hex(&hex, head, 32);
	memcpy(sum->head, hex.buf, hex.len + 1 <= 65 ? hex.len + 1 : 1);
	qf_buf_release(&hex);
	return QF_OK;
}

int qf_export_verify_db(struct qf_evdb *s, struct qf_export_summary *sum,
                        struct qf_diags *d)
{
	int64_t bad = 0;
	int rc;

	memset(sum, 0, sizeof(*sum));
	rc = qf_evdb_verify_chain(s, &bad, d);
	if (rc < 0)
		return rc;
	if (bad) {
		qf_diag_error(d, &(struct qf_loc){ s->path, 0, 0 }, NULL, NULL,
		              "tampered: events row id %lld: the hash chain "
		              "breaks here (this row or one before it was "
		              "changed, added or removed)",
		              (long long)bad);
		return QF_EINVAL;
	}
	rc = db_summary(s, sum, d);
	if (rc == QF_OK)
		rc = qf_evdigest_check(s, &sum->digests, d);
	/* derived from edited evidence, the tables would only agree with it */
	if (rc == QF_OK)
		rc = qf_rederive_compare(s, &sum->derived,
		                         &sum->derived_skipped, d);
	return rc;
}
