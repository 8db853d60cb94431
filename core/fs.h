/*
 * fs.h - file-system access with limits and atomicity.
 *
 * Reading: qf_fs_read reads a whole file but never more than max_bytes; past
 * that it fails with QF_ETOOBIG and a diagnostic that names the limit.
 * Listing: qf_fs_collect expands files and directories into a sorted list of
 * input files (never directory order), reading each directory once (link
 * loops end) and skipping FIFOs and devices.  Writing: qf_fs_write_atomic
 * and qf_fs_replace_at write a temporary file in the target's directory,
 * fsync and rename it, so a reader sees the old file or the new one, never
 * half of one; the replaced file's mode is kept.  Removing never follows a
 * link.  The *_at functions work below an open directory and never follow
 * a link under it: the -o writer (compiler/compile_dir.c) is built on them.
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

/*
 * Every temporary file we create starts with this (hidden, so no walk reads
 * it as input; qf_fs_clean_tmp removes those a killed run left).
 */
#define QF_FS_TMP_PREFIX ".quotaflow-tmp-"

/* 1 when path is a symbolic link to nothing, with its target appended to
 * to: "No such file or directory" of a name ls shows needs saying so. */
int qf_fs_dangling_link(const char *path, struct qf_buf *to);

/* Read path ("-" = stdin) into out (appended). */
int qf_fs_read(struct qf_buf *out, const char *path, size_t max_bytes,
               struct qf_diags *d) QF_MUST_CHECK;

enum qf_fs_collect_flags {
	/* keep only *.yaml, *.yml, *.json from directories (files named
	 * explicitly are always kept) */
	QF_FS_MANIFESTS = 1 << 0,
	/* skip links below the paths given (files and folders) */
	QF_FS_NOFOLLOW = 1 << 1,
	/* every entry below the paths given, for a check that a folder
	 * holds nothing but what it should (audit verify): hidden ones
	 * too, and links (never followed) and other files that are not
	 * regular (FIFOs, devices) are listed, not skipped; the caller
	 * lstat()s each */
	QF_FS_EVERY = 1 << 2,
};

/*
 * Append to out every file named in paths, expanding directories
 * recursively (hidden entries skipped), then sort and de-duplicate the new
 * entries.  A missing path is an error (QF_ENOTFOUND) but the others are
 * still collected.  Links are followed, but a directory reached a second
 * time (a loop such as a link to `.`, or two links to one folder) is
 * skipped with a QF005 note, and so is an entry that is not a regular file
 * (FIFO, socket, device).  A path named in paths is kept whatever it is.
 * A file reached under two names (a.yaml ./a.yaml, a folder and a file in
 * it, a link beside its target) is kept once, under the first name that
 * is not a link, the others noted (QF005); not with QF_FS_EVERY.
 */
int qf_fs_collect(struct qf_strlist *out, const char *const *paths,
                  size_t npaths, unsigned flags,
                  struct qf_diags *d) QF_MUST_CHECK;

/*
 * Set out to path without its trailing slashes ("out/" and "out//" name the
 * directory "out"; "/" stays "/"), for code that derives sibling names from
 * a directory the user typed.
 */
void qf_fs_dir_name(struct qf_buf *out, const char *path);

/*
 * Atomically replace path with len bytes of data (temp file, fsync, rename,
 * fsync of the directory).  "-" means standard output; an existing path
 * that is not a regular file (/dev/stdout, a FIFO, a terminal) is written in
 * place, never renamed over; a link named here is followed (the file it
 * points to is replaced and keeps its mode); a regular file the caller may
 * not write (access(2)) is an error, not replaced.
 */
int qf_fs_write_atomic(const char *path, const void *data, size_t len,
                       struct qf_diags *d) QF_MUST_CHECK;

/*
 * mkdir -p; existing directories are fine.  A ".." after a folder that does
 * not exist is refused (QF002, QF_EUSAGE) before anything is made, and the
 * folders made before a failure are removed again: nothing is left behind
 * by a path that is refused or fails.
 */
int qf_fs_mkdirs(const char *path, struct qf_diags *d) QF_MUST_CHECK;

/* 1 when qf_fs_mkdirs would refuse path (a ".." after a missing folder). */
int qf_fs_mkdirs_refuses(const char *path);

/*
 * Append path written lexically clean, as Go's filepath.Clean: repeated
 * '/', "." segments and a trailing '/' dropped, each ".." taking back the
 * segment before it ("t/sub/../../out" is "out"; no link is followed).  A
 * relative path stays relative and keeps the ".." it starts with
 * ("../b"); "/.." is "/"; nothing left is ".".
 */
void qf_fs_clean_path(struct qf_buf *out, const char *path);

/*
 * rm -rf: remove path and, for a directory, everything under it, never
 * following a link (a link inside, or path itself, is removed as a link).
 */
int qf_fs_remove_tree(const char *path, struct qf_diags *d) QF_MUST_CHECK;

/* Open the directory path (a link naming it is followed) into *out. */
int qf_fs_open_dir(int *out, const char *path,
                   struct qf_diags *d) QF_MUST_CHECK;

enum qf_fs_subdir_flags {
	QF_FS_CREATE = 1 << 0, /* mkdir missing components (0777 - umask) */
};

/*
 * Open the directory rel ("a/b", plain names) below dirfd into *out (the
 * caller closes it; rel "" or "." are not allowed).  No component may be a
 * link: that is an error (QF_EINVAL) telling the user quotaflow does not
 * write through links.  shown is dirfd's path, for messages.
 */
int qf_fs_open_subdir(int *out, int dirfd, const char *shown, const char *rel,
                      unsigned flags, struct qf_diags *d) QF_MUST_CHECK;

/*
 * Atomically replace the regular file name in dirfd (or create it): a
 * QF_FS_TMP_PREFIX file in dirfd gets the data and the old file's mode
 * (new files 0666 less the umask), is fsynced and renamed over name.  An
 * existing name that is not a regular file (a link, a directory) is an
 * error.  The caller fsyncs dirfd (qf_fs_sync_dir) once it is done.
 */
int qf_fs_replace_at(int dirfd, const char *name, const char *shown,
                     const void *data, size_t len,
                     struct qf_diags *d) QF_MUST_CHECK;

/*
 * Write the temp file (QF_FS_TMP_PREFIX, in dirfd) that is to replace
 * name: data and name's mode, as qf_fs_replace_at, but not renamed (its
 * name goes to tmp) and fsynced only where qf_fs_sync_fs cannot do it for
 * the whole batch.  The caller makes the batch durable with
 * qf_fs_sync_fs, renames each temp over its name, then syncs again.
 */
int qf_fs_write_tmp_at(struct qf_buf *tmp, int dirfd, const char *name,
                       const char *shown, const void *data, size_t len,
                       struct qf_diags *d) QF_MUST_CHECK;

/*
 * Make everything written on fd's file system durable: syncfs(2) on Linux
 * (then qf_fs_sync_is_global() is 1 and per-folder fsyncs are not
 * needed), else an fsync of fd alone.
 */
int qf_fs_sync_fs(int fd, const char *shown, struct qf_diags *d) QF_MUST_CHECK;
int qf_fs_sync_is_global(void);

/* fsync a directory, so the renames and removals in it are durable. */
int qf_fs_sync_dir(int dirfd, const char *shown,
                   struct qf_diags *d) QF_MUST_CHECK;

/*
 * Read the regular file name in dirfd into out (appended), never through a
 * link and never blocking on a FIFO; either is an error.
 */
int qf_fs_read_at(struct qf_buf *out, int dirfd, const char *name,
                  const char *shown, size_t max_bytes,
                  struct qf_diags *d) QF_MUST_CHECK;

/* Remove the QF_FS_TMP_PREFIX regular files in dirfd (best effort). */
void qf_fs_clean_tmp(int dirfd);

/*
 * Remove what a killed quotaflow left in dir (best effort): the
 * QF_FS_TMP_PREFIX files and folders whose name carries the id of a
 * process that no longer runs here (QF_FS_TMP_PREFIX, pid, '-', ...).  A
 * link is never followed.  qf_fs_write_atomic and qf_fs_mkdir_tmp call it
 * on the folder they write in.
 */
void qf_fs_clean_stale_tmp(const char *dir);

enum qf_fs_file_flags {
	QF_FS_MUST_EXIST = 1 << 0, /* a missing file is an error */
};

/*
 * Check that the folder an output path is to be created in exists (a
 * command creates its output, not the folders above it): trailing slashes
 * are ignored, "-" is fine.  Returns QF_EUSAGE with a QF002 error naming
 * opt, path and the missing folder.
 */
int qf_fs_check_parent(const char *path, const char *opt,
                       struct qf_diags *d) QF_MUST_CHECK;

/*
 * The same for an output file: also not a folder, nor a link to a missing
 * file, nor a file the caller may not write ("-" is fine).  Returns QF_EUSAGE
 * with a QF002 error naming opt and path.
 */
int qf_fs_check_output_file(const char *path, const char *opt,
                            struct qf_diags *d) QF_MUST_CHECK;

/*
 * Check path before a library that cannot be told opens it as a file (an
 * SQLite database): it must be a regular file, or missing unless
 * QF_FS_MUST_EXIST.  A FIFO (opening it would block forever), a directory
 * or a device is an error naming what it is, and so is a link to a missing
 * file (the file would be created wherever the link points; quotaflow does
 * not create files through links).  A link to an existing regular file is
 * fine.  Returns QF_EIO with a QF002 error naming path.
 */
int qf_fs_check_file(const char *path, unsigned flags,
                     struct qf_diags *d) QF_MUST_CHECK;

/*
 * Create a new directory next to path for it to be built in, to be renamed
 * into place with qf_fs_rename_new: a hidden QF_FS_TMP_PREFIX name (with
 * the pid, then path's name) in path's parent, made with mkdir (never an
 * existing one, never removed if it is not ours).  Its name goes to tmp.
 */
int qf_fs_mkdir_tmp(struct qf_buf *tmp, const char *path,
                    struct qf_diags *d) QF_MUST_CHECK;

/*
 * Rename from to to, failing when to exists (whatever it is: a file, a
 * link, an empty directory) instead of replacing it: renameat2's
 * RENAME_NOREPLACE on Linux, else a check before the rename.
 */
int qf_fs_rename_new(const char *from, const char *to,
                     struct qf_diags *d) QF_MUST_CHECK;

/*
 * Open path to append JSON lines to it, for a log that outlives the run
 * (controller --events) into *fd_out (the caller closes it).  A regular
 * file that is not empty must be such a log already, its first line a
 * JSON object: anything else (a README, a YAML file) is not ours and is
 * refused, never appended to.  A last line without its newline (the torn
 * write of a killed run) is cut off so that the next line does not glue
 * onto it; *torn_bytes says how many bytes went.  A link to a missing file
 * is refused (as qf_fs_check_file); a FIFO without a reader is an error
 * instead of a wait; other files (a terminal, /dev/stdout) are used as
 * they are.
 */
int qf_fs_open_log(int *fd_out, const char *path, size_t *torn_bytes,
                   struct qf_diags *d) QF_MUST_CHECK;

/*
 * Append len bytes to the log open at fd, all or nothing: after a short or
 * failed write (a full disk) a regular file is cut back to its size before
 * the call, so no half line is left for the next append to glue onto.
 */
int qf_fs_append_log(int fd, const char *path, const void *data, size_t len,
                     struct qf_diags *d) QF_MUST_CHECK;

/* 1 or 2 when path names standard output or standard error ("-" is
 * standard output; /dev/stdout, /dev/fd/2 ...), else -1. */
int qf_fs_std_stream(const char *path);

/* 1 when a and b both exist and are the same file (device and inode). */
int qf_fs_same_file(const char *a, const char *b);

/*
 * Check a command's outputs against its inputs before anything is
 * written: an output that is the same file as an input (by device and
 * inode, so a link or another spelling counts; an input directory stands
 * for the manifests below it) or as another output is an error naming
 * both, for writing it would destroy what was read (`audit report --db
 * a.db -o a.db`).  Two outputs on one standard stream ("-",
 * /dev/stdout, /dev/fd/2 ...) clash too; NULL entries are skipped.
 * Returns QF_EUSAGE (exit 2) with a QF002 error per clash.
 */
int qf_fs_check_outputs(const char *const *outputs, size_t nout,
                        const char *const *inputs, size_t nin,
                        struct qf_diags *d) QF_MUST_CHECK;

/* 1 when path is an existing directory, else 0. */
int qf_fs_is_dir(const char *path);

/* 1 when name ends in .yaml, .yml or .json (a manifest's name). */
int qf_fs_is_manifest(const char *name);

/*
 * 1 when name ends in one of them in another case (.YAML, .Json): a
 * manifest by intent that is not read (kubectl and Argo CD skip it too),
 * which the walks of folders and git trees note (QF005) with
 * QF_FS_OTHER_CASE_NOTE, so that its tenants are not left out unsaid.
 */
int qf_fs_is_manifest_other_case(const char *name);
#define QF_FS_OTHER_CASE_NOTE                                                 \
	"skipped: only names ending in .yaml, .yml or .json, in lower case, " \
	"are read (as kubectl and Argo CD read them); rename it if it is a "  \
	"manifest"

#endif
