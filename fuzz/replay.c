/*
 * replay.c - runs a libFuzzer target's entry point over saved inputs with
 * the normal compiler (the idea of SQLite's fuzzcheck.c), so `make test`
 * replays every committed corpus file and every minimised crash.  Each
 * argument is a file or a directory of files.  Each input gets
 * QF_TEST_TIMEOUT seconds (120): one that runs away ends the replay with
 * its name and exit 1 instead of hanging CI.
 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/fs.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *volatile current = "(none)"; /* the input replayed */
static unsigned limit_s = 120;

static void put(const char *s)
{
	/* nothing to do if stderr is gone: we exit either way */
	if (write(2, s, strlen(s)) < 0)
		return;
}

/* Async-signal-safe: write and _exit only. */
static void on_alarm(int sig)
{
	(void)sig;
	put("replay: timed out: ");
	put(current);
	put(" ran longer than QF_TEST_TIMEOUT allows\n");
	_exit(1);
}

static void arm_timeout(void)
{
	const char *env = getenv("QF_TEST_TIMEOUT");
	struct sigaction sa;
	char *end = NULL;
	long v = env ? strtol(env, &end, 10) : 0;

	if (env && end && !*end && v > 0 && v < 86400)
		limit_s = (unsigned)v;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
}

static int replay_file(const char *path)
{
	struct qf_buf b = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	int rc;

	current = path;
	alarm(limit_s);
	rc = qf_fs_read(&b, path, QF_FS_MAX_INPUT_BYTES, &d);
	if (!rc)
		LLVMFuzzerTestOneInput((const uint8_t *)b.buf, b.len);
	else
		fprintf(stderr, "replay: cannot read %s\n", path);
	alarm(0);
	qf_buf_release(&b);
	qf_diags_release(&d);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	int bad = 0;

	arm_timeout();
	if (qf_fs_collect(&files, (const char *const *)argv + 1,
	                  (size_t)argc - 1, 0, &d))
		bad = 1;
	for (size_t i = 0; i < files.n; i++)
		bad |= replay_file(files.v[i]);
	printf("replayed %zu inputs\n", files.n);
	qf_strlist_release(&files);
	qf_diags_release(&d);
	return bad;
}
