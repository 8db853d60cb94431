/*
 * benchtool.c - the two things bench/run.sh cannot do in POSIX shell:
 *
 *   benchtool rusage CMD [ARG...]
 *       runs CMD, then prints "cpu_ms=N maxrss_kb=N wall_ms=N exit=N" on
 *       stderr (user+system CPU and peak resident set of the child, from
 *       wait4's rusage; the same numbers /usr/bin/time -v reports);
 *   benchtool summary FILE
 *       prints the pinned `simulate --summary` JSON as flat "path value"
 *       lines (clusterQueueClasses.cq.usage_pct 55.9), sorted, for awk.
 *
 * Built by bench/run.sh with the system compiler and jansson; not part of
 * the quotaflow binary.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "core/banned.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int cmd_rusage(char **argv)
{
	long long start = now_ms(), cpu_ms;
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("benchtool: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "benchtool: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("benchtool: wait4");
		return 2;
	}
	cpu_ms = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
		 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
	fprintf(stderr, "cpu_ms=%lld maxrss_kb=%ld wall_ms=%lld exit=%d\n",
		cpu_ms, ru.ru_maxrss, now_ms() - start,
		WIFEXITED(status) ? WEXITSTATUS(status) : 128);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

static void flatten(const char *prefix, json_t *v)
{
	const char *k;
	json_t *c;
	size_t i;
	char path[512];

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		json_object_foreach(v, k, c) {
			snprintf(path, sizeof(path), "%s%s%s", prefix,
				 *prefix ? "." : "", k);
			flatten(path, c);
		}
		break;
	case JSON_ARRAY:
		json_array_foreach(v, i, c) {
			snprintf(path, sizeof(path), "%s.%zu", prefix, i);
			flatten(path, c);
		}
		break;
	case JSON_INTEGER:
		printf("%s %lld\n", prefix, (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		printf("%s %.3f\n", prefix, json_real_value(v));
		break;
	case JSON_STRING:
		printf("%s %s\n", prefix, json_string_value(v));
		break;
	default:
		printf("%s %s\n", prefix, json_is_true(v) ? "true" : "null");
		break;
	}
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "rusage"))
		return cmd_rusage(argv + 2);
	if (argc == 3 && !strcmp(argv[1], "summary")) {
		json_error_t err;
		json_t *root = json_load_file(argv[2], 0, &err);

		if (!root) {
			fprintf(stderr, "benchtool: %s:%d: %s\n", argv[2],
				err.line, err.text);
			return 2;
		}
		flatten("", root);
		json_decref(root);
		return 0;
	}
	fprintf(stderr, "usage: benchtool rusage CMD [ARG...] | "
			"benchtool summary FILE\n");
	return 2;
}
