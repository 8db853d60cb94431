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
		(void)fprintf(stderr, "benchtool: %s: %s\n", argv[0],
		              strerror(errno));
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("benchtool: wait4");
		return 2;
	}
	cpu_ms = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
	         (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
	(void)fprintf(stderr,
	              "cpu_ms=%lld maxrss_kb=%ld wall_ms=%lld exit=%d\n",
	              cpu_ms, ru.ru_maxrss, now_ms() - start,
	              WIFEXITED(status) ? WEXITSTATUS(status) : 128);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

/* One "path value" line; non-scalars are walked by flatten(). */
static void print_scalar(const char *path, json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_INTEGER:
		(void)printf("%s %lld\n", path,
		             (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		(void)printf("%s %.3f\n", path, json_real_value(v));
		break;
	case JSON_STRING:
		(void)printf("%s %s\n", path, json_string_value(v));
		break;
	default:
		(void)printf("%s %s\n", path,
		             json_is_true(v) ? "true" : "null");
		break;
	}
}

/*
 * The summary is at most three objects deep ({"workloadClasses": {CLASS:
 * {"count": N}}}), so three nested loops walk it; deeper values are skipped.
 */
static void flatten(json_t *root)
{
	const char *k1, *k2, *k3;
	json_t *v1, *v2, *v3;
	char path[512];

	json_object_foreach (root, k1, v1) {
		if (!json_is_object(v1)) {
			print_scalar(k1, v1);
			continue;
		}
		json_object_foreach (v1, k2, v2) {
			if (!json_is_object(v2)) {
				(void)snprintf(path, sizeof(path), "%s.%s", k1,
				               k2);
				print_scalar(path, v2);
				continue;
			}
			json_object_foreach (v2, k3, v3) {
				if (json_is_object(v3) || json_is_array(v3))
					continue;
				(void)snprintf(path, sizeof(path), "%s.%s.%s",
				               k1, k2, k3);
				print_scalar(path, v3);
			}
		}
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
			(void)fprintf(stderr, "benchtool: %s:%d: %s\n", argv[2],
			              err.line, err.text);
			return 2;
		}
		flatten(root);
		json_decref(root);
		return 0;
	}
	(void)fprintf(stderr, "usage: benchtool rusage CMD [ARG...] | "
	                      "benchtool summary FILE\n");
	return 2;
}
