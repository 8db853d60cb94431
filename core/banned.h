/*
 * banned.h - turns unsafe libc string and number functions into compile
 * errors (the idea of git's banned.h).  Include it last in every .c file, so
 * that system headers are not affected.  Use qf_buf_*, snprintf with its
 * result checked, qf_parse_i64 and gmtime_r instead.
 */
#ifndef QF_BANNED_H
#define QF_BANNED_H

#define QF_BANNED(func) sorry_##func##_is_banned_in_quotaflow

#undef strcpy
#define strcpy(x, y) QF_BANNED(strcpy)
#undef strcat
#define strcat(x, y) QF_BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) QF_BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) QF_BANNED(strncat)
#undef sprintf
#define sprintf(...) QF_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) QF_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) QF_BANNED(strtok)
#undef gets
#define gets(x) QF_BANNED(gets)
#undef atoi
#define atoi(x) QF_BANNED(atoi)
#undef atol
#define atol(x) QF_BANNED(atol)
#undef atof
#define atof(x) QF_BANNED(atof)
#undef mktemp
#define mktemp(x) QF_BANNED(mktemp)
#undef tmpnam
#define tmpnam(x) QF_BANNED(tmpnam)
#undef gmtime
#define gmtime(x) QF_BANNED(gmtime)
#undef localtime
#define localtime(x) QF_BANNED(localtime)

#endif
