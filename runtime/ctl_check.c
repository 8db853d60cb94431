/*
 * ctl_check.c - the controller's start-up checks (runtime/ctl.h
 * qf_ctl_check): every option that names something outside the process
 * (the address, the token, the TLS pair, the git repository and ref, the
 * manifests folder, the database path) is checked before the database is
 * created, so a run that fails its checks exits 2 and leaves nothing
 * behind; and the clean-up of what a start that failed later created.
 */
#include "runtime/ctl_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "core/fs.h"
#include "runtime/sync.h"
#include "core/banned.h"

/* A bearer token is a line of a few KiB at most (a JWT included). */
#define MAX_TOKEN_BYTES ((size_t)64 << 10)
/* A PEM certificate chain or key. */
#define MAX_PEM_BYTES ((size_t)1 << 20)

int qf_ctl_read_token(char **out, const char *path, const char *opt,
                      struct qf_diags *d)
{
	struct qf_buf b = QF_BUF_INIT;
	struct qf_loc loc = { path, 1, 0 };
	int rc = QF_OK;

	*out = NULL;
	if (qf_fs_read(&b, path, MAX_TOKEN_BYTES, d) < 0) {
		qf_diag_hint(d,
		             "%s wants a readable file holding the bearer "
		             "token",
		             opt);
		rc = QF_EUSAGE;
	}
	while (rc == QF_OK && b.len &&
	       (b.buf[b.len - 1] == '\n' || b.buf[b.len - 1] == '\r'))
		qf_buf_setlen(&b, b.len - 1);
	if (rc == QF_OK && !b.len) {
		(void)qf_diag_error(d, &loc, QF_CTL_RULE, NULL,
		                    "%s: the file is empty; it must hold the "
		                    "bearer token",
		                    opt);
		rc = QF_EUSAGE;
	}
	/* it goes into an HTTP header as it is: no spaces, no controls, no
	 * NUL that would cut it short, no second line */
	for (size_t i = 0; rc == QF_OK && i < b.len; i++) {
		unsigned char ch = (unsigned char)b.buf[i];

		if (ch > 0x20 && ch < 0x7f)
			continue;
		loc.col = (uint32_t)i + 1;
		(void)qf_diag_error(
		        d, &loc, QF_CTL_RULE, NULL,
		        "%s: byte 0x%02x cannot be part of a bearer "
		        "token",
		        opt, ch);
		qf_diag_hint(d, "the file holds the token alone, on one line: "
		                "printable ASCII without spaces");
		rc = QF_EUSAGE;
	}
	if (rc == QF_OK)
		*out = qf_buf_detach(&b, NULL);
	qf_buf_release(&b);
	return rc;
}

/* Refuse to ask for a passphrase on the terminal: an encrypted key is an
 * error, as it is for libmicrohttpd. */
static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
	(void)buf;
	(void)size;
	(void)rwflag;
	(void)u;
	return -1;
}

/* The certificate and key must load and belong together (a mismatch is
 * otherwise only "cannot listen"). */
static int check_tls(const char *cert_path, const char *key_path,
                     struct qf_diags *d)
{
	struct qf_buf cert = QF_BUF_INIT, key = QF_BUF_INIT;
	struct qf_loc cl = { cert_path, 0, 0 }, kl = { key_path, 0, 0 };
	BIO *bc = NULL, *bk = NULL;
	X509 *x = NULL;
	EVP_PKEY *k = NULL;
	int rc = QF_EUSAGE;

	if (qf_fs_read(&cert, cert_path, MAX_PEM_BYTES, d) < 0 ||
	    qf_fs_read(&key, key_path, MAX_PEM_BYTES, d) < 0)
		goto done;
	bc = BIO_new_mem_buf(cert.buf, (int)cert.len);
	bk = BIO_new_mem_buf(key.buf, (int)key.len);
	x = bc ? PEM_read_bio_X509(bc, NULL, no_passphrase, NULL) : NULL;
	k = bk ? PEM_read_bio_PrivateKey(bk, NULL, no_passphrase, NULL) : NULL;
	if (!x) {
		(void)qf_diag_error(
		        d, &cl, "QF561", NULL,
		        "--tls-cert: no PEM certificate in the file");
		qf_diag_hint(d, "expected -----BEGIN CERTIFICATE----- (the "
		                "server's certificate first)");
	}
	if (!k) {
		(void)qf_diag_error(d, &kl, "QF561", NULL,
		                    "--tls-key: no usable PEM private key in "
		                    "the file (an encrypted key is not)");
		qf_diag_hint(d, "expected -----BEGIN PRIVATE KEY----- (or RSA, "
		                "EC), without a passphrase");
	}
	if (x && k && X509_check_private_key(x, k) != 1) {
		(void)qf_diag_error(d, &kl, "QF561", NULL,
		                    "--tls-key does not belong to the "
		                    "certificate in --tls-cert %s",
		                    cert_path);
		qf_diag_hint(d, "give the key the certificate was made for");
	} else if (x && k) {
		rc = QF_OK;
	}
done:
	X509_free(x);
	EVP_PKEY_free(k);
	BIO_free(bc);
	BIO_free(bk);
	qf_buf_release(&cert);
	qf_buf_release(&key);
	return rc;
}

/* --db: a new file in a folder that exists, or a regular file (the store
 * says whether it is the controller's and whether it is free). */
static int check_db(const char *path, struct qf_diags *d)
{
	static const char magic[16] = "SQLite format 3"; /* and its NUL */
	char head[16];
	struct qf_loc loc = { path, 0, 0 };
	FILE *f;
	size_t n = 0;

	if (qf_fs_check_file(path, 0, d) < 0) {
		qf_diag_hint(d, "--db wants a SQLite file that the controller "
		                "made, or a new path to create one at");
		return QF_EUSAGE;
	}
	/* a file that is not SQLite at all (notes, a YAML file): said here,
	 * not as SQLite's "file is not a database" */
	f = fopen(path, "rb");
	if (f) {
		n = fread(head, 1, sizeof(head), f);
		(void)fclose(f); /* read only */
	}
	if (n && (n < sizeof(head) || memcmp(head, magic, sizeof(head)) != 0)) {
		(void)qf_diag_error(d, &loc, "QF560", NULL,
		                    "--db: is not a SQLite database");
		qf_diag_hint(d, "--db wants a SQLite file that the controller "
		                "made, or a new path to create one at");
		return QF_EUSAGE;
	}
	return qf_fs_check_parent(path, "--db", d);
}

static int check_folder(const char *path, const char *opt, struct qf_diags *d)
{
	struct qf_loc loc = { path, 0, 0 };
	struct stat st;

	if (!stat(path, &st))
		return QF_OK;
	(void)qf_diag_error(d, &loc, QF_CTL_RULE, NULL, "%s: %s", opt,
	                    strerror(errno));
	return QF_EUSAGE;
}

/*
 * A secret in "-", a FIFO or <(pass show token) can be read only once: the
 * start reads (and checks) it then.  Everything else is read here too; a
 * missing file is reported here.
 */
static int read_twice(const char *path)
{
	struct stat st;

	return strcmp(path, "-") != 0 &&
	       (stat(path, &st) || S_ISREG(st.st_mode));
}

int qf_ctl_check(const struct qf_ctl_options *o, qf_compile_specs_fn compile,
                 struct qf_diags *d)
{
	int rc = QF_OK;
	char *token = NULL;

	if (qf_http_check_listen(o->listen, d) < 0)
		rc = QF_EUSAGE;
	if (o->token_file && read_twice(o->token_file) &&
	    qf_ctl_read_token(&token, o->token_file, "--token-file", d) < 0)
		rc = QF_EUSAGE;
	free(token);
	if (o->tls_cert && read_twice(o->tls_cert) && read_twice(o->tls_key) &&
	    check_tls(o->tls_cert, o->tls_key, d) < 0)
		rc = QF_EUSAGE;
	if (o->manifests && check_folder(o->manifests, "--manifests", d) < 0)
		rc = QF_EUSAGE;
	if (o->git_repo) {
		struct qf_sync_options so = { o->git_repo, o->git_ref,
			                      o->git_path, compile };

		if (qf_sync_check(
		            &so,
		            ctl_path_absent(o->db) ? 0 : QF_SYNC_CHECK_RESTART,
		            d) < 0)
			rc = QF_EUSAGE;
	}
	if (check_db(o->db, d) < 0)
		rc = QF_EUSAGE;
	/* whether it is a log to append to is checked when it is opened */
	if (o->events && qf_fs_check_output_file(o->events, "--events", d) < 0)
		rc = QF_EUSAGE;
	return rc;
}

int ctl_path_absent(const char *path)
{
	struct stat st;

	return path && lstat(path, &st) && errno == ENOENT;
}

void ctl_remove_created(const struct qf_ctl_options *o, int db, int events)
{
	static const char *const sides[] = { "", "-wal", "-shm", "-journal" };

	for (size_t i = 0; db && i < QF_ARRAY_SIZE(sides); i++) {
		struct qf_buf p = QF_BUF_INIT;

		qf_buf_addf(&p, "%s%s", o->db, sides[i]);
		(void)unlink(p.buf); /* best effort: it may not exist */
		qf_buf_release(&p);
	}
	if (events)
		(void)unlink(o->events);
}
