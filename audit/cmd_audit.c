/*
 * cmd_audit.c - `quotaflow audit <subcommand>`: the subcommand table
 * (STYLE 2.6, the same shape as quotaflow.c's command table), option
 * parsing and output of each subcommand.  The work is in ingest.c,
 * derive.c, query.c, report.c, export.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "audit/export.h"
#include "audit/ingest.h"
#include "audit/query.h"
#include "audit/report.h"
#include "audit/evdb.h"
#include "commands.h"
#include "core/alloc.h"
#include "core/buf.h"
#include "core/cli.h"
#include "core/fs.h"
#include "core/strlist.h"
#include "core/suggest.h"
#include "core/when.h"
#include "core/banned.h"

/*
 * One subcommand.  Its row holds what the option-parsing prologue of every
 * subcommand needs (sub_parse): the usage line, the --help text, the
 * message for a missing required option and the positional arguments it
 * takes.
 */
struct audit_cmd {
	const char *name;
	int (*fn)(const struct audit_cmd *c, int argc, const char **argv,
	          struct qf_ctx *ctx);
	const char *summary;     /* its line in `audit --help` */
	const char *usage;       /* the usage line */
	const char *about;       /* what `audit NAME --help` says it does */
	const char *need_msg;    /* a required option is missing */
	size_t min_pos, max_pos; /* positional arguments taken (0, 0: none) */
	const char *pos_msg;     /* their number is wrong */
};

/* What one subcommand's prologue parses. */
struct sub_opts {
	const struct qf_opt *opts;
	size_t nopts;
	const char *const *need[3]; /* values of required options (NULL end) */
	struct qf_strlist *pos;     /* positional arguments, or NULL */
};

/*
 * The prologue every subcommand shares: parse the options with the row's
 * usage and --help text, then check that the required options were given
 * and the number of positional arguments.  Returns -1 to go on, else the
 * exit code to return now (help printed, or a usage error).
 */
static int sub_parse(const struct audit_cmd *c, const struct sub_opts *o,
                     int argc, const char **argv, struct qf_ctx *ctx)
{
	int rc = qf_cli_parse(o->opts, o->nopts, c->usage, c->about, argc, argv,
	                      o->pos, ctx);

	if (rc >= 0)
		return rc;
	for (size_t i = 0; i < QF_ARRAY_SIZE(o->need) && o->need[i]; i++)
		if (!*o->need[i])
			return qf_cli_usage_error(ctx, c->usage, "audit %s: %s",
			                          c->name, c->need_msg);
	if (o->pos && (o->pos->n < c->min_pos || o->pos->n > c->max_pos))
		return qf_cli_usage_error(ctx, c->usage, "audit %s: %s",
		                          c->name, c->pos_msg);
	return -1;
}

static int finish(int rc, struct qf_diags *d, struct qf_ctx *ctx)
{
	if (qf_cli_print_diags(d, ctx) < 0 && rc == QF_OK)
		rc = QF_EIO;
	return qf_cli_exit_code(rc);
}

/*
 * --cluster tags every row and names files in reports: it must be
 * printable UTF-8 without surrounding spaces.  NULL when fine, else what
 * is wrong.
 */
static const char *bad_cluster_name(const char *n)
{
	size_t len = strlen(n);

	if (!len)
		return "must not be empty";
	if (n[0] == ' ' || n[len - 1] == ' ')
		return "must not start or end with a space";
	for (size_t i = 0; i < len;) {
		size_t l = qf_buf_utf8_len(n + i, len - i);
		unsigned char c = (unsigned char)n[i];

		if (!l)
			return "must be UTF-8 text";
		if (c < 0x20 || c == 0x7f)
			return "must not hold control characters (tabs, "
			       "line breaks)";
		i += l;
	}
	return NULL;
}

/* report --cluster NAME must be one the database holds: a typo would
 * otherwise be an empty report that exits 0. */
static int check_known_cluster(struct qf_evdb *s, const char *db,
                               const char *name, struct qf_diags *d)
{
	struct qf_loc loc = { db, 0, 0 };
	struct qf_buf known = QF_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int found = 0, step = SQLITE_DONE, rc = QF_OK;

	if (sqlite3_prepare_v2(s->db,
	                       "SELECT cluster FROM inputs UNION SELECT "
	                       "cluster FROM event_rows UNION SELECT "
	                       "cluster FROM event_chunks ORDER BY 1",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot list the clusters", d);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 0);

		found |= c && !strcmp(c, name);
		qf_buf_addf(&known, "%s'%s'", known.len ? ", " : "",
		            c ? c : "");
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		rc = qf_evdb_fail(s, "cannot list the clusters", d);
	else if (!found) {
		(void)qf_diag_error(d, &loc, NULL, NULL,
		                    "--cluster '%s': the database holds no "
		                    "evidence of that cluster",
		                    name);
		qf_diag_hint(d, "it holds %s", known.len ? known.buf : "none");
		rc = QF_EUSAGE;
	}
	qf_buf_release(&known);
	return rc;
}

/* report -o FILE without --format: the format its name ends in, so that
 * -o report.html is HTML (it was text); else text. */
static const char *format_of(const char *file)
{
	static const char *const ext[][2] = {
		{ ".html", "html" }, { ".htm", "html" },    { ".json", "json" },
		{ ".csv", "csv" },   { ".md", "markdown" },
	};
	size_t n = strlen(file);

	for (size_t i = 0; i < QF_ARRAY_SIZE(ext); i++) {
		size_t l = strlen(ext[i][0]);

		if (n > l && !strcmp(file + n - l, ext[i][0]))
			return ext[i][1];
	}
	return "text";
}

/* The database or one of SQLite's files beside it (-wal, -shm,
 * -journal): the same file, or by name one that is not there now. */
static int is_db_file(const char *path, const char *db)
{
	static const char *const sides[] = { "", "-wal", "-shm", "-journal" };
	struct qf_buf b = QF_BUF_INIT;
	int hit = 0;

	for (size_t i = 0; !hit && i < QF_ARRAY_SIZE(sides); i++) {
		qf_buf_reset(&b);
		qf_buf_addf(&b, "%s%s", db, sides[i]);
		hit = qf_fs_same_file(path, b.buf) || !strcmp(path, b.buf);
	}
	qf_buf_release(&b);
	return hit;
}

/*
 * An output (report -o, export --out) must not be one of the database's
 * SQLite files: its -wal may hold committed batches not yet copied into
 * the database, and a folder named so stops SQLite opening it.
 */
static int not_db_file(const char *out, const char *opt, const char *db,
                       struct qf_diags *d)
{
	struct qf_buf name = QF_BUF_INIT;
	int rc = QF_OK;

	qf_fs_dir_name(&name, out); /* "x.db-wal/" names x.db-wal */
	if (strcmp(out, "-") != 0 && is_db_file(name.buf, db)) {
		(void)qf_diag_error(d, &(struct qf_loc){ out, 0, 0 }, "QF002",
		                    NULL,
		                    "%s: is a SQLite file of the --db "
		                    "database; writing it would destroy "
		                    "evidence",
		                    opt);
		qf_diag_hint(d, "give another path");
		rc = QF_EUSAGE;
	}
	qf_buf_release(&name);
	return rc;
}

/* The summary line of export and verify; a database has no files, so its
 * line names what was checked instead: the database's events. */
static int print_summary(struct qf_ctx *ctx, const char *what,
                         const struct qf_export_summary *sum, int is_db)
{
	int n = is_db ? fprintf(ctx->out, "%s database: %zu events", what,
	                        sum->events)
	              : fprintf(ctx->out, "%s %zu files, %zu events", what,
	                        sum->files, sum->events);

	if (n >= 0)
		n = fprintf(ctx->out, ", chain head %s\n",
		            sum->head[0] ? sum->head : "-");
	return n < 0 ? QF_EIO : QF_OK;
}

/* verify --db's second and third lines: what the evidence tables and
 * the derived tables were checked against. */
static int print_derived(struct qf_ctx *ctx,
                         const struct qf_export_summary *sum)
{
	int n = sum->digests
	                ? fprintf(ctx->out,
	                          "evidence tables: %zu, as the last ingest "
	                          "stored them\n",
	                          sum->digests)
	                : fputs("evidence tables: not checked: no digests "
	                        "recorded (last written by an earlier "
	                        "quotaflow; the next ingest records them)\n",
	                        ctx->out);

	if (n >= 0)
		n = fputs("derived tables: ", ctx->out);

	if (n >= 0 && sum->derived)
		n = fprintf(ctx->out,
		            "%zu cluster%s derived again from the events, the "
		            "same",
		            sum->derived, sum->derived == 1 ? "" : "s");
	if (n >= 0 && sum->derived_skipped)
		n = fprintf(
		        ctx->out,
		        "%snot compared: %zu cluster%s derived by an earlier "
		        "quotaflow, whose rules may differ (the next ingest "
		        "into one derives it again)",
		        sum->derived ? "; " : "", sum->derived_skipped,
		        sum->derived_skipped == 1 ? "" : "s");
	if (n >= 0 && !sum->derived && !sum->derived_skipped)
		n = fputs("none (no evidence)", ctx->out);
	if (n >= 0)
		n = fputc('\n', ctx->out);
	return n < 0 ? QF_EIO : QF_OK;
}

/* verify DIR's second line: whether the views and the report were
 * derived again from the bundle's own evidence. */
static int print_views(struct qf_ctx *ctx, const struct qf_export_summary *sum)
{
	int n = sum->why_not
	                ? fprintf(ctx->out, "views: not derived again: %s\n",
	                          sum->why_not)
	                : fprintf(ctx->out,
	                          "views: %zu files derived again from the "
	                          "bundle's events and evidence tables, the "
	                          "same\n",
	                          sum->views);

	return n < 0 ? QF_EIO : QF_OK;
}

/* "-" is standard output everywhere else; a bundle is a folder of files,
 * and a folder named "-" made in the working directory is no answer. */
static int stdout_dir(const char *dir, struct qf_diags *d)
{
	struct qf_loc loc = { dir, 0, 0 };

	if (strcmp(dir, "-") != 0)
		return QF_OK;
	(void)qf_diag_error(d, &loc, "QF002", NULL,
	                    "--out: a bundle is a folder of files, which "
	                    "standard output (-) cannot hold");
	qf_diag_hint(d, "give the folder to create, such as --out bundle");
	return QF_EUSAGE;
}

static int audit_export(const struct audit_cmd *c, int argc, const char **argv,
                        struct qf_ctx *ctx)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_export_summary sum;
	struct qf_evdb *s = NULL;
	const char *db = NULL, *dir = NULL;
	int rc;
	const struct qf_opt opts[] = {
		{ "db", 0, QF_OPT_STRING, &db, "FILE", NULL, 0,
		  "the audit database (opened read-only)" },
		{ "out", 0, QF_OPT_STRING, &dir, "DIR", NULL, 0,
		  "the bundle directory to create (must not exist)" },
	};
	const struct sub_opts so = {
		opts, QF_ARRAY_SIZE(opts), { &db, &dir }, NULL
	};

	rc = sub_parse(c, &so, argc, argv, ctx);
	if (rc >= 0)
		goto done;
	rc = stdout_dir(dir, &d);
	if (rc == QF_OK)
		rc = qf_fs_check_parent(dir, "--out", &d);
	if (rc == QF_OK)
		rc = not_db_file(dir, "--out", db, &d);
	if (rc == QF_OK)
		rc = qf_evdb_open(&s, db, QF_EVDB_READONLY, &d);
	if (rc == QF_OK)
		rc = qf_export_bundle(s, dir, &sum, &d);
	if (rc == QF_OK)
		rc = print_summary(ctx, "exported", &sum, 0);
	rc = finish(rc, &d, ctx);
done:
	qf_evdb_close(s);
	qf_diags_release(&d);
	return rc;
}

static int audit_verify(const struct audit_cmd *c, int argc, const char **argv,
                        struct qf_ctx *ctx)
{
	struct qf_strlist pos = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_export_summary sum;
	struct qf_evdb *s = NULL;
	const char *db = NULL;
	int rc;
	const struct qf_opt opts[] = {
		{ "db", 0, QF_OPT_STRING, &db, "FILE", NULL, 0,
		  "verify a database instead: its events' hash chain, its "
		  "evidence tables' digests, its derived tables derived "
		  "again" },
	};
	const struct sub_opts so = {
		opts, QF_ARRAY_SIZE(opts), { NULL }, &pos
	};

	rc = sub_parse(c, &so, argc, argv, ctx);
	if (rc >= 0)
		goto done;
	if ((db != NULL) == (pos.n == 1)) { /* one of the two */
		rc = qf_cli_usage_error(ctx, c->usage, "audit verify: %s",
		                        c->pos_msg);
		goto done;
	}
	if (pos.n == 1 && !*pos.v[0]) { /* as an empty --db is */
		rc = qf_cli_usage_error(ctx, c->usage,
		                        "audit verify: DIR is an empty string; "
		                        "give the directory audit export "
		                        "--out wrote");
		goto done;
	}
	if (db) {
		rc = qf_evdb_open(&s, db, QF_EVDB_READONLY, &d);
		if (rc == QF_OK)
			rc = qf_export_verify_db(s, &sum, &d);
	} else {
		rc = qf_export_verify_dir(pos.v[0], &sum, &d);
	}
	if (rc == QF_OK)
		rc = print_summary(ctx, "verified:", &sum, db != NULL);
	if (rc == QF_OK && db)
		rc = print_derived(ctx, &sum);
	if (rc == QF_OK && !db)
		rc = print_views(ctx, &sum);
	rc = finish(rc, &d, ctx);
done:
	qf_evdb_close(s);
	qf_strlist_release(&pos);
	qf_diags_release(&d);
	return rc;
}

/*
 * An input that can hold no evidence is an error rather than a silent
 * "0 records": an empty file, a folder with no files, the database
 * itself.  (Standard input that ends at once is ingest's to report.)
 */
static int input_unusable(const char *p, const char *db, int below,
                          struct qf_diags *d)
{
	struct qf_loc loc = { p, 0, 0 };
	struct stat st;

	if (!strcmp(p, "-"))
		return 0; /* read as a stream: ingest says when it is empty */
	if (!below && is_db_file(p, db)) {
		(void)qf_diag_error(
		        d, &loc, NULL, NULL,
		        "is the --db database (or its SQLite "
		        "file): evidence goes in, not the database");
		return 1;
	}
	/* reported here, so that no database is created for an input
	 * that cannot be read (ingest --db new.db typo.yaml) */
	if (stat(p, &st)) {
		struct qf_buf to = QF_BUF_INIT;

		if (errno == ENOENT && qf_fs_dangling_link(p, &to))
			(void)qf_diag_error(
			        d, &loc, NULL, NULL,
			        "cannot open: it is a symbolic link "
			        "to %s, which does not exist",
			        to.buf);
		else
			(void)qf_diag_error(d, &loc, NULL, NULL,
			                    "cannot open: %s", strerror(errno));
		qf_buf_release(&to);
		return 1;
	}
	if (S_ISREG(st.st_mode) && st.st_size == 0) {
		(void)qf_diag_error(d, &loc, NULL, NULL,
		                    "is empty: nothing to ingest");
		return 1;
	}
	return 0;
}

/* How many of the inputs are standard input. */
static size_t stdin_named(const struct qf_strlist *pos)
{
	size_t n = 0;

	for (size_t i = 0; i < pos->n; i++)
		n += !strcmp(pos->v[i], "-");
	return n;
}

/* The files already taken as inputs, by device and inode. */
struct seen_files {
	struct {
		dev_t dev;
		ino_t ino;
		char *name; /* owned */
	} * v;
	size_t n, alloc;
};

/*
 * Whether p is a file an earlier input already names (the same path
 * twice, ./f and f, a folder and a file in it): said, and read once.
 * Read twice, its records were counted twice and a FIFO read twice
 * waited for a writer that had gone.
 */
static int seen_before(struct seen_files *s, const char *p, struct qf_diags *d)
{
	struct stat st;

	if (!strcmp(p, "-") || stat(p, &st))
		return 0;
	for (size_t i = 0; i < s->n; i++) {
		if (s->v[i].dev != st.st_dev || s->v[i].ino != st.st_ino)
			continue;
		(void)qf_diag_warn(d, &(struct qf_loc){ p, 0, 0 }, NULL, NULL,
		                   "is the same file as %s, named before: it "
		                   "is read once",
		                   s->v[i].name);
		return 1;
	}
	s->v = qf_grow(s->v, sizeof(*s->v), &s->alloc, s->n + 1);
	s->v[s->n].dev = st.st_dev;
	s->v[s->n].ino = st.st_ino;
	s->v[s->n].name = qf_xstrdup(p);
	s->n++;
	return 0;
}

/*
 * A directory stands for every file below it, sorted, as it does for
 * validate and compile (a folder of saved `kubectl get` dumps), but for
 * the database itself and its SQLite files when they are kept there
 * (--db evidence/audit.db evidence/); files and "-" are kept as given.
 * Unusable inputs (input_unusable) are errors, left out.
 */
static int expand_inputs(struct qf_strlist *out, const struct qf_strlist *pos,
                         const char *db, struct qf_diags *d)
{
	struct seen_files seen = { NULL, 0, 0 };
	int rc = QF_OK;

	for (size_t i = 0; i < pos->n; i++) {
		const char *p = pos->v[i];
		struct qf_strlist below = QF_STRLIST_INIT;
		struct stat st;
		size_t kept = 0;
		int r;

		if (!strcmp(p, "-") || stat(p, &st) || !S_ISDIR(st.st_mode)) {
			if (input_unusable(p, db, 0, d))
				rc = QF_EINVAL;
			else if (!seen_before(&seen, p, d))
				qf_strlist_add(out, p);
			continue;
		}
		r = qf_fs_collect(&below, &p, 1, 0, d);
		if (r < 0)
			rc = r;
		for (size_t j = 0; j < below.n; j++) {
			if (is_db_file(below.v[j], db))
				continue;
			kept++;
			if (input_unusable(below.v[j], db, 1, d))
				rc = QF_EINVAL;
			else if (!seen_before(&seen, below.v[j], d))
				qf_strlist_add(out, below.v[j]);
		}
		if (r == QF_OK && !kept) {
			struct qf_loc loc = { p, 0, 0 };

			(void)qf_diag_error(
			        d, &loc, NULL, NULL,
			        "is a folder with no file to ingest");
			rc = QF_EINVAL;
		}
		qf_strlist_release(&below);
	}
	for (size_t i = 0; i < seen.n; i++)
		free(seen.v[i].name);
	free(seen.v);
	return rc;
}

static int64_t monotonic_ms(void *arg)
{
	struct timespec ts;

	(void)arg;
	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0; /* cannot fail with CLOCK_MONOTONIC */
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int audit_ingest(const struct audit_cmd *c, int argc, const char **argv,
                        struct qf_ctx *ctx)
{
	struct qf_strlist pos = QF_STRLIST_INIT, inputs = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_ingest_options o = {
		.cluster = "default",
		.format = QF_FMT_AUTO,
		.breach_after_ms = -1,
		.bulk = QF_INGEST_BULK_AUTO,
		.derive_interval_ms = QF_INGEST_DERIVE_INTERVAL_MS,
		.mono_ms = monotonic_ms,
	};
	struct qf_ingest_stats st = { 0 };
	struct qf_evdb *s = NULL;
	const char *db = NULL, *fmt = "auto";
	int rc;
	const struct qf_opt opts[] = {
		{ "db", 0, QF_OPT_STRING, &db, "FILE", NULL, 0,
		  "the audit database (created when missing)" },
		{ "cluster", 0, QF_OPT_STRING, &o.cluster, "NAME", NULL, 0,
		  "tag everything ingested with this cluster (default)" },
		{ "format", 0, QF_OPT_ENUM, &fmt, "FORMAT",
		  "auto|quotaflow|k8s-events|workloads|audit-log|manifests", 0,
		  "input format (auto: detected per file and object)" },
		{ "breach-after", 0, QF_OPT_DURATION, &o.breach_after_ms,
		  "DURATION", NULL, 0,
		  "wait that counts as a breach (stored; default 60s)" },
		{ "derive-interval", 0, QF_OPT_DURATION, &o.derive_interval_ms,
		  "DURATION", NULL, 0,
		  "standard input: derive at most this often (default 2s; 0: "
		  "after every batch)" },
	};
	const struct sub_opts so = { opts, QF_ARRAY_SIZE(opts), { &db }, &pos };

	rc = sub_parse(c, &so, argc, argv, ctx);
	if (rc >= 0)
		goto done;
	for (size_t i = 0; i < pos.n; i++) {
		if (*pos.v[i])
			continue;
		/* an unset shell variable: named, not ": cannot open" */
		rc = qf_cli_usage_error(ctx, c->usage,
		                        "audit ingest: INPUT %zu is an empty "
		                        "string; give a file, a folder or -",
		                        i + 1);
		goto done;
	}
	if (bad_cluster_name(o.cluster)) {
		rc = qf_cli_usage_error(ctx, c->usage,
		                        "audit ingest: --cluster %s",
		                        bad_cluster_name(o.cluster));
		goto done;
	}
	if (stdin_named(&pos) > 1) {
		/* the second would read nothing and only warn: a script
		 * that meant two inputs lost one */
		rc = qf_cli_usage_error(ctx, c->usage,
		                        "audit ingest: standard input (-) is "
		                        "named %zu times; it can be read once",
		                        stdin_named(&pos));
		goto done;
	}
	o.format = (enum qf_ingest_format)qf_ingest_format_parse(fmt);
	o.now_ms = ctx->now_ms(ctx->clock_arg);
	/* --db in a folder that does not exist: exit 2 naming it, not
	 * SQLite's "unable to open database file" */
	rc = qf_fs_check_parent(db, "--db", &d);
	if (rc != QF_OK) {
		rc = finish(rc, &d, ctx);
		goto done;
	}
	rc = expand_inputs(&inputs, &pos, db, &d);
	/* the usable inputs are ingested; the database is not created for
	 * none */
	if ((rc == QF_OK || rc == QF_EINVAL) && inputs.n) {
		int r = qf_evdb_open(&s, db, 0, &d);

		if (r == QF_OK)
			r = qf_ingest_run(s, &o, &inputs, &st, &d);
		if (r != QF_OK)
			rc = r;
	}
	/* the counts only once ingest ran (not after a failed open) */
	if (s && (rc == QF_OK || rc == QF_EINVAL || rc == QF_ENOTFOUND))
		if (fprintf(ctx->out,
		            "ingested %zu records: %zu added, %zu rejected\n",
		            st.records, st.added, st.rejected) < 0 &&
		    rc == QF_OK)
			rc = QF_EIO;
	rc = finish(rc, &d, ctx);
done:
	qf_evdb_close(s);
	qf_strlist_release(&inputs);
	qf_strlist_release(&pos);
	qf_diags_release(&d);
	return rc;
}

/* Defaults of audit query's bounds (docs/audit.md). */
#define QUERY_TIMEOUT_MS       60000
#define QUERY_MAX_OUTPUT_BYTES (256LL << 20)

/* Ctrl-C (SIGINT) and SIGTERM are blocked while the query runs, and
 * polled here, so the statement stops between two steps. */
static int stop_pending(void *arg)
{
	sigset_t p;

	(void)arg;
	return !sigpending(&p) &&
	       (sigismember(&p, SIGINT) == 1 || sigismember(&p, SIGTERM) == 1);
}

static int run_query(const char *db, const char *sql,
                     const struct qf_query_limits *lim, struct qf_ctx *ctx)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_evdb *s = NULL;
	sigset_t block, old;
	int rc;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	(void)sigprocmask(SIG_BLOCK, &block, &old); /* cannot fail here */
	rc = qf_evdb_open(&s, db, QF_EVDB_READONLY, &d);
	if (rc == QF_OK)
		rc = qf_query_run(s, sql, lim, ctx->out, &d);
	qf_evdb_close(s);
	rc = finish(rc, &d, ctx);
	qf_diags_release(&d);
	/* a signal that came meanwhile now takes its default course: the
	 * shell sees an interrupted command (nothing was printed) */
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static int audit_query(const struct audit_cmd *c, int argc, const char **argv,
                       struct qf_ctx *ctx)
{
	struct qf_strlist pos = QF_STRLIST_INIT;
	struct qf_query_limits lim = {
		QUERY_TIMEOUT_MS, 0,   "--timeout", "--max-bytes", monotonic_ms,
		stop_pending,     NULL
	};
	long long max_bytes = QUERY_MAX_OUTPUT_BYTES;
	const char *db = NULL;
	int rc;
	const struct qf_opt opts[] = {
		{ "db", 0, QF_OPT_STRING, &db, "FILE", NULL, 0,
		  "the audit database (opened read-only)" },
		{ "timeout", 0, QF_OPT_DURATION, &lim.timeout_ms, "DURATION",
		  NULL, 0, "stop the query after this long (60s; 0: never)" },
		{ "max-bytes", 0, QF_OPT_INT, &max_bytes, "N", NULL, 0,
		  "largest result printed (256 MiB; 0: no limit)" },
	};
	const struct sub_opts so = { opts, QF_ARRAY_SIZE(opts), { &db }, &pos };

	rc = sub_parse(c, &so, argc, argv, ctx);
	if (rc >= 0)
		goto done;
	if (max_bytes < 0) {
		rc = qf_cli_usage_error(ctx, c->usage,
		                        "audit query: --max-bytes must be 0 "
		                        "or more");
		goto done;
	}
	lim.max_output_bytes = (size_t)max_bytes;
	rc = run_query(db, pos.v[0], &lim, ctx);
done:
	qf_strlist_release(&pos);
	return rc;
}

/* --since/--until T: *out in epoch ms, or a usage error naming opt. */
static int parse_when(struct qf_ctx *ctx, const char *usage, const char *opt,
                      const char *s, int64_t *out)
{
	struct qf_buf b = QF_BUF_INIT;
	const char *why = NULL;
	int rc = QF_OK;

	if (s && (qf_when_normalise(&b, s, &why) < 0 ||
	          qf_evdb_parse_time(out, b.buf) < 0))
		rc = qf_cli_usage_error(
		        ctx, usage,
		        "audit report: %s '%s' %s; expected an RFC 3339 time "
		        "(2026-06-12T09:00:00Z, 2026-06-12T11:00:00.5+02:00) or "
		        "a date (2026-06-12: midnight UTC)",
		        opt, s, why ? why : "is not a time");
	qf_buf_release(&b);
	return rc;
}

static int audit_report(const struct audit_cmd *c, int argc, const char **argv,
                        struct qf_ctx *ctx)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_report_options o = { NULL, INT64_MIN, INT64_MAX, -1 };
	struct qf_report rep;
	struct qf_buf out = QF_BUF_INIT;
	struct qf_evdb *s = NULL;
	const char *db = NULL, *fmt = NULL, *file = "-";
	const char *since = NULL, *until = NULL;
	int rc;
	const struct qf_opt opts[] = {
		{ "db", 0, QF_OPT_STRING, &db, "FILE", NULL, 0,
		  "the audit database (opened read-only)" },
		{ "cluster", 0, QF_OPT_STRING, &o.cluster, "NAME", NULL, 0,
		  "only this cluster (default: all)" },
		{ "since", 0, QF_OPT_STRING, &since, "T", NULL, 0,
		  "window start, RFC 3339 or a date (default: first event)" },
		{ "until", 0, QF_OPT_STRING, &until, "T", NULL, 0,
		  "window end, RFC 3339 or a date (default: last event)" },
		{ "breach-after", 0, QF_OPT_DURATION, &o.breach_after_ms,
		  "DURATION", NULL, 0,
		  "breach threshold of this report (default: ingest's)" },
		{ "format", 0, QF_OPT_ENUM, &fmt, "FORMAT",
		  "text|markdown|json|csv|html", 0,
		  "output format (text, or what -o's name ends in)" },
		{ "output", 'o', QF_OPT_STRING, &file, "FILE", NULL, 0,
		  "write here (atomically) instead of standard output" },
	};
	const struct sub_opts so = { opts, QF_ARRAY_SIZE(opts), { &db }, NULL };

	memset(&rep, 0, sizeof(rep));
	rc = sub_parse(c, &so, argc, argv, ctx);
	if (rc >= 0)
		goto done;
	if (o.cluster && bad_cluster_name(o.cluster)) {
		rc = qf_cli_usage_error(ctx, c->usage,
		                        "audit report: --cluster %s",
		                        bad_cluster_name(o.cluster));
		goto done;
	}
	rc = parse_when(ctx, c->usage, "--since", since, &o.since_ms);
	if (rc == QF_OK)
		rc = parse_when(ctx, c->usage, "--until", until, &o.until_ms);
	if (rc == QF_OK && o.since_ms > o.until_ms)
		rc = qf_cli_usage_error(ctx, c->usage,
		                        "audit report: --since %s is after "
		                        "--until %s",
		                        since, until);
	if (rc != QF_OK)
		goto done;
	/* -o the database itself would replace the evidence, and its -wal
	 * file the transactions not yet copied into it */
	rc = qf_fs_check_outputs(&file, 1, &db, 1, &d);
	if (rc == QF_OK)
		rc = not_db_file(file, "-o", db, &d);
	if (rc == QF_OK)
		rc = qf_fs_check_output_file(file, "-o", &d);
	if (rc == QF_OK)
		rc = qf_evdb_open(&s, db, QF_EVDB_READONLY, &d);
	if (rc == QF_OK && o.cluster)
		rc = check_known_cluster(s, db, o.cluster, &d);
	if (rc == QF_OK)
		rc = qf_report_build(&rep, s, &o, &d);
	if (rc == QF_OK) {
		qf_report_render(&out, &rep,
		                 (enum qf_report_format)qf_report_format_parse(
		                         fmt ? fmt : format_of(file)));
		rc = qf_fs_write_atomic(file, out.buf, out.len, &d);
	}
	rc = finish(rc, &d, ctx);
done:
	qf_report_release(&rep);
	qf_buf_release(&out);
	qf_evdb_close(s);
	qf_diags_release(&d);
	return rc;
}

/* Sorted by name. */
static const struct audit_cmd subcommands[] = {
	{ "export", audit_export,
	  "write a signed-ready evidence bundle of every view",
	  "quotaflow audit export --db FILE --out DIR",
	  "Write an evidence bundle: every view as CSV and JSON, the report, "
	  "input digests, the events hash chain, manifest.json and an in-toto "
	  "statement.",
	  "--db FILE and --out DIR are required", 0, 0, NULL },
	{ "ingest", audit_ingest,
	  "store evidence files or a stream in the database",
	  "quotaflow audit ingest --db FILE [--cluster NAME] "
	  "[--format auto|quotaflow|k8s-events|workloads|audit-log|manifests] "
	  "[--breach-after DURATION] [--derive-interval DURATION] INPUT...",
	  "Store evidence in the audit database (- reads standard input). "
	  "Files of quotaflow events are read after the other inputs, so the "
	  "quotas are known first; the views do not depend on the order.",
	  "--db FILE is required", 1, SIZE_MAX, "give at least one INPUT" },
	{ "query", audit_query, "run one read-only SQL statement",
	  "quotaflow audit query --db FILE [--timeout DURATION] "
	  "[--max-bytes N] SQL",
	  "Run one read-only SQL statement; prints a header and tab-separated "
	  "rows (a BLOB as X'..'), all at once when it has finished.",
	  "--db FILE is required", 1, 1, "give exactly one SQL statement" },
	{ "report", audit_report,
	  "per-tenant waits, borrowing, preemptions, breaches, cost",
	  "quotaflow audit report --db FILE [--cluster NAME] [--since T] "
	  "[--until T] [--breach-after DURATION] "
	  "[--format text|markdown|json|csv|html] [-o FILE]",
	  "Per tenant: workloads, waits, pending age, GPU-hours borrowed and "
	  "lent, preemptions, breaches, cost.",
	  "--db FILE is required", 0, 0, NULL },
	{ "verify", audit_verify, "check a bundle or a database for tampering",
	  "quotaflow audit verify DIR | --db FILE",
	  "Recompute every digest and the hash chain; name the first tampered "
	  "file or row (exit 1).",
	  NULL, 0, 1, "give a bundle DIR or --db FILE" },
};

static int audit_help(struct qf_ctx *ctx, FILE *f)
{
	int bad = fprintf(f, "usage: quotaflow audit <subcommand> "
	                     "[options]\n\nWho waited, who borrowed, who was "
	                     "preempted: evidence in SQLite.\n\n") < 0;

	for (size_t i = 0; i < QF_ARRAY_SIZE(subcommands); i++)
		bad |= fprintf(f, "    %-10s%s\n", subcommands[i].name,
		               subcommands[i].summary) < 0;
	bad |= fprintf(f, "\nSee 'quotaflow audit <subcommand> --help'.\n") < 0;
	(void)ctx;
	return bad ? QF_EXIT_USAGE : QF_EXIT_OK;
}

/* argv[0] becomes "audit NAME", so option errors say 'audit NAME --help'. */
static int run_sub(const struct audit_cmd *c, int argc, const char **argv,
                   struct qf_ctx *ctx)
{
	const char **av = qf_xcalloc((size_t)argc, sizeof(*av));
	struct qf_buf name = QF_BUF_INIT;
	int rc;

	qf_buf_addf(&name, "audit %s", c->name);
	av[0] = name.buf;
	for (int i = 2; i < argc; i++)
		av[i - 1] = argv[i];
	rc = c->fn(c, argc - 1, av, ctx);
	free(av);
	qf_buf_release(&name);
	return rc;
}

static int unknown_sub(const char *sub, struct qf_ctx *ctx)
{
	const char *names[QF_ARRAY_SIZE(subcommands)];
	const char *near;

	for (size_t i = 0; i < QF_ARRAY_SIZE(subcommands); i++)
		names[i] = subcommands[i].name;
	near = qf_suggest_closest(sub, names, QF_ARRAY_SIZE(names), 2);
	if (near)
		(void)fprintf(ctx->err,
		              "quotaflow: audit: '%s' is not an audit "
		              "subcommand. Did you mean '%s'? See 'quotaflow "
		              "audit --help'.\n",
		              sub, near);
	else
		(void)fprintf(ctx->err,
		              "quotaflow: audit: '%s' is not an audit "
		              "subcommand. See 'quotaflow audit --help'.\n",
		              sub);
	return QF_EXIT_USAGE;
}

/* Recursive: once at most, "audit help SUB" becomes "audit SUB --help". */
/* NOLINTNEXTLINE(misc-no-recursion) */
int cmd_audit(int argc, const char **argv, struct qf_ctx *ctx)
{
	if (argc < 2) {
		(void)audit_help(ctx, ctx->err);
		return QF_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    (!strcmp(argv[1], "help") && argc == 2))
		return audit_help(ctx, ctx->out);
	if (!strcmp(argv[1], "help")) { /* audit help ingest */
		const char *sub[] = { "audit", argv[2], "--help" };

		return cmd_audit(3, sub, ctx);
	}
	for (size_t i = 0; i < QF_ARRAY_SIZE(subcommands); i++)
		if (!strcmp(subcommands[i].name, argv[1]))
			return run_sub(&subcommands[i], argc, argv, ctx);
	return unknown_sub(argv[1], ctx);
}
