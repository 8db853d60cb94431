/*
 * buf.c - growable buffer.  See buf.h for the invariants; the one subtle
 * point is the shared empty string, which lets QF_BUF_INIT be a constant and
 * must never be written to or freed.
 */
#include "core/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

char qf_buf_empty[1];

void qf_buf_init(struct qf_buf *b)
{
	b->buf = qf_buf_empty;
	b->len = 0;
	b->alloc = 0;
}

void qf_buf_release(struct qf_buf *b)
{
	if (b->alloc)
		free(b->buf);
	qf_buf_init(b);
}

void qf_buf_reset(struct qf_buf *b)
{
	if (b->alloc)
		qf_buf_setlen(b, 0);
}

void qf_buf_grow(struct qf_buf *b, size_t extra)
{
	size_t need = qf_st_add(qf_st_add(b->len, extra), 1);
	size_t n;

	if (need <= b->alloc)
		return;
	n = b->alloc ? b->alloc : 64;
	while (n < need)
		n = qf_st_mult(n, 2);
	if (!b->alloc) {
		b->buf = qf_xmalloc(n);
		b->buf[0] = '\0';
	} else {
		b->buf = qf_xrealloc(b->buf, n);
	}
	b->alloc = n;
}

void qf_buf_add(struct qf_buf *b, const void *mem, size_t len)
{
	if (!len)
		return;
	qf_buf_grow(b, len);
	memcpy(b->buf + b->len, mem, len);
	qf_buf_setlen(b, b->len + len);
}

void qf_buf_adds(struct qf_buf *b, const char *s)
{
	qf_buf_add(b, s, strlen(s));
}

void qf_buf_addch(struct qf_buf *b, int c)
{
	/* the emitters add most of their output a byte at a time */
	if (b->len + 1 >= b->alloc)
		qf_buf_grow(b, 1);
	b->buf[b->len++] = (char)c;
	b->buf[b->len] = '\0';
}

size_t qf_i64_dec(char *out, int64_t v)
{
	static const uint64_t pow10[20] = {
		1ull,
		10ull,
		100ull,
		1000ull,
		10000ull,
		100000ull,
		1000000ull,
		10000000ull,
		100000000ull,
		1000000000ull,
		10000000000ull,
		100000000000ull,
		1000000000000ull,
		10000000000000ull,
		100000000000000ull,
		1000000000000000ull,
		10000000000000000ull,
		100000000000000000ull,
		1000000000000000000ull,
		10000000000000000000ull,
	};
	/* two digits a division: every event's id, key and times are
	 * written twice by an ingest (its hash, its chunk) */
	static const char pairs[201] = "00010203040506070809"
	                               "10111213141516171819"
	                               "20212223242526272829"
	                               "30313233343536373839"
	                               "40414243444546474849"
	                               "50515253545556575859"
	                               "60616263646566676869"
	                               "70717273747576777879"
	                               "80818283848586878889"
	                               "90919293949596979899";
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	/* the digits counted first (log10 from the bit length), then
	 * written in place from the end: no copy from a scratch array */
	unsigned t = (unsigned)(64 - __builtin_clzll(u | 1)) * 1233 >> 12;
	size_t n = t + (u >= pow10[t]);
	char *p;

	n += !n;    /* 0 */
	n += v < 0; /* its sign */
	p = out + n;
	while (u >= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (u % 100), 2);
		u /= 100;
	}
	if (u >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * u, 2);
	} else {
		*--p = (char)('0' + u);
	}
	if (v < 0)
		*--p = '-';
	return n;
}

void qf_buf_add_i64(struct qf_buf *b, int64_t v)
{
	char tmp[QF_I64_DEC_MAX];
	size_t n = qf_i64_dec(tmp, v);

	qf_buf_add(b, tmp, n);
}

/*
 * Format into the spare room first and only when that is too small grow
 * and format again: most additions fit, so printf runs once, not twice.
 */
void qf_buf_vaddf(struct qf_buf *b, const char *fmt, va_list ap)
{
	size_t room = b->alloc ? b->alloc - b->len : 0;
	va_list cp;
	int n;

	va_copy(cp, ap);
	/* cp is initialised by va_copy; the analyzer loses track of it */
	if (room)
		n = vsnprintf(b->buf + b->len, room, fmt, cp); // NOLINT
	else
		n = vsnprintf(NULL, 0, fmt, cp); // NOLINT
	va_end(cp);
	if (n <= 0) {
		if (room)
			b->buf[b->len] = '\0'; /* add nothing */
		return; /* nothing to add, or an encoding error */
	}
	if ((size_t)n < room) {
		b->len += (size_t)n;
		return;
	}
	qf_buf_grow(b, (size_t)n);
	n = vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	if (n > 0)
		qf_buf_setlen(b, b->len + (size_t)n);
}

void qf_buf_addf(struct qf_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	qf_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void qf_buf_setlen(struct qf_buf *b, size_t len)
{
	if (!b->alloc) {
		/* only 0 is valid on the shared empty string */
		return;
	}
	b->len = len < b->alloc ? len : b->alloc - 1;
	b->buf[b->len] = '\0';
}

char *qf_buf_detach(struct qf_buf *b, size_t *len_out)
{
	char *s;

	if (len_out)
		*len_out = b->len;
	if (!b->alloc)
		return qf_xstrdup("");
	s = b->buf;
	qf_buf_init(b);
	return s;
}

size_t qf_buf_utf8_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t cp, min;
	size_t len;

	if (!n)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xC2 && u[0] <= 0xDF) {
		len = 2, cp = u[0] & 0x1Fu, min = 0x80;
	} else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
		len = 3, cp = u[0] & 0x0Fu, min = 0x800;
	} else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
		len = 4, cp = u[0] & 0x07u, min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3Fu);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

int qf_buf_is_utf8(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		uint64_t w;
		size_t l;

		/* ASCII, nearly all of what is checked (every line of an
		 * ingest), 32 then eight bytes to a test: a byte at a time
		 * was a thirtieth of the ingest */
		if (n - i >= 32) {
			uint64_t w1, w2, w3;

			memcpy(&w, s + i, 8);
			memcpy(&w1, s + i + 8, 8);
			memcpy(&w2, s + i + 16, 8);
			memcpy(&w3, s + i + 24, 8);
			if (!((w | w1 | w2 | w3) & 0x8080808080808080ull)) {
				i += 32;
				continue;
			}
		}
		if (n - i >= 8) {
			memcpy(&w, s + i, 8);
			if (!(w & 0x8080808080808080ull)) {
				i += 8;
				continue;
			}
		}
		l = (unsigned char)s[i] < 0x80 ? 1
		                               : qf_buf_utf8_len(s + i, n - i);

		if (!l)
			return 0;
		i += l;
	}
	return 1;
}

size_t qf_json_plain_len(const char *s, size_t n)
{
	size_t i = 0;

#if defined(__SSE2__)
	/* 16 bytes a step (every x86-64 has SSE2): messages and details
	 * are mostly runs of tens of plain bytes; 5% of an audit ingest's
	 * instructions were this scan 8 bytes at a time */
	while (n - i >= 16) {
		unsigned bits = qf_json_special16(_mm_loadu_si128(
		        (const __m128i *)(const void *)(s + i)));

		if (bits)
			return i + (size_t)__builtin_ctz(bits);
		i += 16;
	}
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (n - i >= 8) {
		uint64_t w, m;

		memcpy(&w, s + i, 8);
		m = qf_json_special8(w);
		if (m)
			return i + (size_t)__builtin_ctzll(m) / 8;
		i += 8;
	}
#endif
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == '"' || c == '\\')
			break;
	}
	return i;
}

/* The escape of a C0 control character or DEL, or NULL. */
static const char *c0_escape(unsigned char c)
{
	switch (c) {
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	default:
		return NULL;
	}
}

void qf_buf_add_escaped(struct qf_buf *b, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		size_t n = qf_buf_utf8_len(s + i, len - i);

		if (n == 1 && c >= 0x20 && c != 0x7F) {
			qf_buf_addch(b, c);
		} else if (n == 1 && c0_escape(c)) {
			qf_buf_adds(b, c0_escape(c));
		} else if (n == 2 && c == 0xC2 &&
		           (unsigned char)s[i + 1] < 0xA0) {
			qf_buf_addf(b, "\\u%04x", (unsigned char)s[i + 1]);
		} else if (n > 1) {
			qf_buf_add(b, s + i, n);
		} else {
			qf_buf_addf(b, "\\x%02x", c);
			n = 1;
		}
		i += n;
	}
}

void qf_buf_add_csv(struct qf_buf *b, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		qf_buf_adds(b, s);
		return;
	}
	qf_buf_addch(b, '"');
	for (; *s; s++) {
		if (*s == '"')
			qf_buf_addch(b, '"');
		qf_buf_addch(b, *s);
	}
	qf_buf_addch(b, '"');
}

void qf_buf_add_md_code(struct qf_buf *b, const char *s, int in_table)
{
	struct qf_buf t = QF_BUF_INIT;
	size_t run = 0, longest = 0;
	int pad;

	qf_buf_add_escaped(&t, s, strlen(s));
	pad = t.len && (t.buf[0] == '`' || t.buf[t.len - 1] == '`');
	for (size_t i = 0; i < t.len; i++) {
		run = t.buf[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (size_t i = 0; i <= longest; i++)
		qf_buf_addch(b, '`');
	qf_buf_adds(b, pad ? " " : "");
	for (size_t i = 0; i < t.len; i++) {
		if (in_table && t.buf[i] == '|')
			qf_buf_addch(b, '\\');
		qf_buf_addch(b, t.buf[i]);
	}
	qf_buf_adds(b, pad ? " " : "");
	for (size_t i = 0; i <= longest; i++)
		qf_buf_addch(b, '`');
	qf_buf_release(&t);
}

void qf_buf_add_md_cell(struct qf_buf *b, const char *s)
{
	const char *p = s;

	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	       (*p >= '0' && *p <= '9') || (*p && strchr(" .,:/-", *p)))
		p++;
	if (*p)
		qf_buf_add_md_code(b, s, 1);
	else
		qf_buf_adds(b, s);
}

void qf_buf_add_utf8(struct qf_buf *b, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t n = qf_buf_utf8_len(s + i, len - i);

		if (n) {
			qf_buf_add(b, s + i, n);
			i += n;
		} else {
			qf_buf_adds(b, "\xef\xbf\xbd"); /* U+FFFD */
			i++;
		}
	}
}
