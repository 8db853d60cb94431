/*
 * buf.h - the growable byte buffer every string in Quotaflow is built with
 * (git's strbuf).
 *
 * Invariants: `buf` is never NULL (an empty buffer points at a shared empty
 * string, so QF_BUF_INIT needs no allocation); buf[len] == '\0' always; the
 * buffer may hold embedded NULs and `len` is the truth.  Appends cannot fail:
 * growth aborts through qf_xrealloc on out-of-memory, so they return void.
 * Untrusted input is bounded where it is read (qf_fs_read), not here.
 * Not thread-safe; a buffer belongs to one thread at a time.
 */
#ifndef QF_BUF_H
#define QF_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct qf_buf {
	char *buf;  /* NUL-terminated contents; owned unless == qf_buf_empty */
	size_t len; /* bytes in use, not counting the NUL */
	size_t alloc; /* bytes allocated; 0 while buf is the shared empty one */
};

extern char qf_buf_empty[];
#define QF_BUF_INIT                \
	{                          \
		qf_buf_empty, 0, 0 \
	}

void qf_buf_init(struct qf_buf *b);
/* Free the contents; b is left as qf_buf_init left it. */
void qf_buf_release(struct qf_buf *b);
/* Empty the buffer but keep its allocation. */
void qf_buf_reset(struct qf_buf *b);
/* Make room for at least `extra` more bytes. */
void qf_buf_grow(struct qf_buf *b, size_t extra);
void qf_buf_add(struct qf_buf *b, const void *mem, size_t len);
void qf_buf_adds(struct qf_buf *b, const char *s);
void qf_buf_addch(struct qf_buf *b, int c);
/* Append v in decimal, as printf's %lld writes it (a tenth of its cost). */
void qf_buf_add_i64(struct qf_buf *b, int64_t v);
/* The same digits written at out (no NUL): their number, at most
 * QF_I64_DEC_MAX. */
#define QF_I64_DEC_MAX 20
size_t qf_i64_dec(char *out, int64_t v);
void qf_buf_addf(struct qf_buf *b, const char *fmt, ...) QF_PRINTF(2, 3);
void qf_buf_vaddf(struct qf_buf *b, const char *fmt, va_list ap)
        QF_PRINTF(2, 0);
/* Set the length (<= alloc) and re-terminate. */
void qf_buf_setlen(struct qf_buf *b, size_t len);
/*
 * Hand the contents to the caller (who frees them) and leave b empty.  The
 * result is always heap-allocated, even for an empty buffer.
 */
char *qf_buf_detach(struct qf_buf *b, size_t *len_out);

/*
 * Length of the valid UTF-8 sequence at s (at most n bytes), or 0 when the
 * bytes there are not one (a stray continuation byte, an overlong form, a
 * surrogate, a code point above U+10FFFF, a sequence cut short).  The rules
 * are jansson's, so text that passes is accepted by json_string.
 */
size_t qf_buf_utf8_len(const char *s, size_t n);

/* 1 when all of s[0..n) is UTF-8 (qf_buf_utf8_len's rules), else 0. */
int qf_buf_is_utf8(const char *s, size_t n);

/* The bytes of the 8 in w that a JSON string must escape (a quote, a
 * backslash, a control character), as their top bits.  SWAR: (x - 1) & ~x
 * has a byte's top bit set where x is 0, and a borrow only carries above
 * such a byte, so the lowest bit set is exact; with w read from memory on
 * a little-endian machine, the lowest is the first such byte. */
static inline uint64_t qf_json_special8(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ull;
	uint64_t q = w ^ (ones * '"'), bs = w ^ (ones * '\\');

	return (((w - ones * 0x20) & ~w) | ((q - ones) & ~q) |
	        ((bs - ones) & ~bs)) &
	       (ones * 0x80);
}

/* How many bytes at the start of s[0..n) a JSON string holds as they are:
 * up to the first quote, backslash or control character (NUL included),
 * or n.  Read a word at a time: the audit's writers and its fast reader
 * scan every byte of every event this way. */
size_t qf_json_plain_len(const char *s, size_t n);

#if defined(__SSE2__)
#include <emmintrin.h>

/* The bits of the bytes of v that a JSON string must escape (quote,
 * backslash, control character), bit i for byte i; every x86-64 has
 * SSE2. */
static inline unsigned qf_json_special16(__m128i v)
{
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	const __m128i c0 = _mm_set1_epi8(0x1f);
	/* a byte <= 0x1f is its own unsigned minimum with 0x1f */
	__m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote),
	                                      _mm_cmpeq_epi8(v, bslash)),
	                         _mm_cmpeq_epi8(_mm_min_epu8(v, c0), v));

	return (unsigned)_mm_movemask_epi8(m);
}
#endif

/*
 * Append untrusted text for a terminal or a CI log: control characters
 * (C0, DEL and C1) and bytes that are not UTF-8 are written as escapes
 * (\n, \r, \t, \xNN for a byte, \u0080..\u009f for a C1 character), so
 * the text can neither start a line (a forged `::error` annotation) nor
 * send a terminal control sequence.  A backslash is kept as it is.
 */
void qf_buf_add_escaped(struct qf_buf *b, const char *s, size_t len);

/* s as a CSV field (RFC 4180): quoted, its quotes doubled, when it holds
 * a comma, a quote or a line break; NULL adds nothing. */
void qf_buf_add_csv(struct qf_buf *b, const char *s);

/*
 * s as one Markdown code span, so that untrusted text is shown as written,
 * never rendered as a link, an image, a mention or HTML: its control
 * characters escaped as qf_buf_add_escaped does (the text reaches
 * terminals and logs too), fenced by one backtick more than its longest
 * run of them (CommonMark), padded when it starts or ends with one.  In a
 * table cell (in_table) a '|' is written "\|", which GitHub's tables read
 * as a '|' of the cell, even in a code span.
 */
void qf_buf_add_md_code(struct qf_buf *b, const char *s, int in_table);

/* s in a Markdown table cell: as it is when it holds only letters,
 * digits, spaces and . , : / - (every Kubernetes name), else as a code
 * span (qf_buf_add_md_code). */
void qf_buf_add_md_cell(struct qf_buf *b, const char *s);

/* Append text as valid UTF-8 for JSON: every byte that does not start a
 * valid sequence becomes U+FFFD.  Control characters are kept (a JSON
 * encoder escapes them). */
void qf_buf_add_utf8(struct qf_buf *b, const char *s, size_t len);

#endif
