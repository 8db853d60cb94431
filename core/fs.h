/*
 * fs.h - file-system access with limits and atomicity.
 *
 * Reading: qf_fs_read reads a whole file but never more than max_bytes; past
 * that it fails with QF_ETOOBIG and a diagnostic that names the limit.
 * Listing: qf_fs_collect expands files and directories into a sorted list of
 * input files (never directory order).  Writing: qf_fs_write_atomic writes a
 * temporary file in the target's directory, fsyncs and renames it, so a
 * reader sees the old file or the new one, never half of one.
 *
 * Every failure adds a diagnostic naming the path and the OS error.
 * Not thread-safe (uses errno).
 */
#ifndef QF_FS_H
#define QF_FS_H

#include <stddef.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/strlist.h"

/* Default size limit for one input file: 64 MiB. */
#define QF_FS_MAX_INPUT_BYTES (64u * 1024 * 1024)

/* Read path ("-" = stdin) into out (appended). */
int qf_fs_read(struct qf_buf *out, const char *path, size_t max_bytes,
               struct qf_diags *d) QF_MUST_CHECK;

enum qf_fs_collect_flags {
	/* keep only *.yaml, *.yml, *.json from directories (files named
	 * explicitly are always kept) */
	QF_FS_MANIFESTS = 1 << 0,
};

/*
 * Append to out every file named in paths, expanding directories
 * recursively (hidden entries skipped), then sort and de-duplicate the new
 * entries.  A missing path is an error (QF_ENOTFOUND) but the others are
 * still collected.
 */
int qf_fs_collect(struct qf_strlist *out, const char *const *paths,
                  size_t npaths, unsigned flags,
                  struct qf_diags *d) QF_MUST_CHECK;

/*
 * Atomically replace path with len bytes of data (temp file, fsync, rename).
 * "-" means standard output; an existing path that is not a regular file
 * (/dev/stdout, a FIFO, a terminal) is written in place, never renamed over.
 */
int qf_fs_write_atomic(const char *path, const void *data, size_t len,
                       struct qf_diags *d) QF_MUST_CHECK;

/* mkdir -p; existing directories are fine. */
int qf_fs_mkdirs(const char *path, struct qf_diags *d) QF_MUST_CHECK;

/* rm -rf of a directory tree we created (used to drop temp dirs). */
int qf_fs_remove_tree(const char *path, struct qf_diags *d) QF_MUST_CHECK;

/* 1 when path is an existing directory, else 0. */
int qf_fs_is_dir(const char *path);

#endif
