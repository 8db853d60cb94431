/*
 * replay.c - runs a libFuzzer target's entry point over saved inputs with
 * the normal compiler (the idea of SQLite's fuzzcheck.c), so `make test`
 * replays every committed corpus file and every minimised crash.  Each
 * argument is a file or a directory of files.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/fs.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	struct qf_buf b = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	int rc = qf_fs_read(&b, path, QF_FS_MAX_INPUT_BYTES, &d);

	if (!rc)
		LLVMFuzzerTestOneInput((const uint8_t *)b.buf, b.len);
	else
		fprintf(stderr, "replay: cannot read %s\n", path);
	qf_buf_release(&b);
	qf_diags_release(&d);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	int bad = 0;

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
