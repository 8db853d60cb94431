/*
 * loopback.h - what the controller's load client (tests/controller/
 * ctl_load.c) and the etcd benchmark client (bench/etcd_put.c) share:
 * a monotonic clock in milliseconds, a TCP connection to a loopback port
 * with Nagle off (one small request at a time, as kube-apiserver's), and
 * the comparison qsort needs for latency percentiles.  Header only and
 * libc only, because etcd_put is built alone by bench/bench_etcd.sh.
 * No state, so nothing to own or lock.
 */
#ifndef QF_TESTS_LOOPBACK_H
#define QF_TESTS_LOOPBACK_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static inline double lb_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* A connected socket to 127.0.0.1:port, or -1. */
static inline int lb_dial(int port)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* qsort order of doubles, ascending. */
static inline int lb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif
