/*
 * status.h - the status codes every fallible Quotaflow function returns, and
 * the attribute macros the whole tree uses.
 *
 * Contract: a function returning int returns QF_OK (0) on success or one of
 * the negative codes below.  A negative return means the function has added
 * at least one error diagnostic to the struct qf_diags its caller passed in
 * (see core/diag.h).  Add a code only when some caller branches on it.
 */
#ifndef QF_STATUS_H
#define QF_STATUS_H

enum qf_status {
	QF_OK = 0,
	QF_ERR = -1,       /* generic failure, details in the diagnostics */
	QF_EINVAL = -2,    /* invalid input (user error: exit 1) */
	QF_ENOTFOUND = -3, /* a file, object or key does not exist */
	QF_ETOOBIG = -4,   /* a named limit was exceeded */
	QF_EIO = -5,       /* an operating-system or library I/O failure */
	QF_EUSAGE = -6,    /* bad command-line usage (exit 2) */
};

#define QF_MUST_CHECK    __attribute__((warn_unused_result))
#define QF_PRINTF(f, a)  __attribute__((format(printf, f, a)))
#define QF_NORETURN      __attribute__((noreturn))
#define QF_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
