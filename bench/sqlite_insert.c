/*
 * sqlite_insert.c - the peer figure for `audit ingest` (bench/bench_audit.sh):
 * SQLite's own prepared-insert ceiling for rows shaped like our events.
 *
 *   sqlite_insert DB N [wal|delete]
 *
 * Inserts N rows into a table with the columns of audit's `events` (no
 * index, no hash, values made in memory, nothing parsed), with one
 * prepared statement in one transaction under the same pragmas as the
 * audit database (synchronous=FULL; WAL, or with `delete` the rollback
 * journal a new audit database's first load uses), and prints rows/s of
 * CPU time.
 * Built by bench/bench_audit.sh; not part of quotaflow.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "core/banned.h"

static const char *const reasons[] = { "QuotaReserved", "Admitted", "Finished",
	                               "WaitingForQuota" };

int main(int argc, char **argv)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 1000000;
	char wl[64], cq[32], msg[160], detail[200];
	struct timespec a, b;
	double cpu;

	if (argc < 3 || sqlite3_open(argv[1], &db) != SQLITE_OK)
		return 2;
	sqlite3_exec(db,
	             argc > 3 && !strcmp(argv[3], "delete")
	                     ? "PRAGMA journal_mode=DELETE;"
	                     : "PRAGMA journal_mode=WAL;",
	             NULL, NULL, NULL);
	sqlite3_exec(db,
	             "PRAGMA synchronous=FULL;"
	             " PRAGMA cache_size=-65536;"
	             "CREATE TABLE events(id INTEGER PRIMARY KEY, cluster TEXT,"
	             " dkey INTEGER, source TEXT, time_ms INTEGER, last_ms"
	             " INTEGER, count INTEGER, type TEXT, reason TEXT,"
	             " workload TEXT, uid TEXT, cluster_queue TEXT, message"
	             " TEXT, preemptor TEXT, preemption_reason TEXT, detail"
	             " TEXT, input_id INTEGER, chain BLOB)",
	             NULL, NULL, NULL);
	if (sqlite3_prepare_v2(db,
	                       "INSERT INTO events(cluster, dkey, source,"
	                       " time_ms, last_ms, count, type, reason,"
	                       " workload, cluster_queue, message, detail,"
	                       " input_id, chain) VALUES(?1,?2,?3,?4,?4,1,?5,"
	                       "?6,?7,?8,?9,?10,1,?11)",
	                       -1, &st, NULL) != SQLITE_OK)
		return 2;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	for (long i = 0; i < n; i++) {
		unsigned char chain[32];

		memset(chain, (int)(i & 0xff), sizeof(chain));
		(void)snprintf(wl, sizeof(wl), "team-%ld/job-w%ld", i % 8,
		               i / 5);
		(void)snprintf(cq, sizeof(cq), "team-%ld", i % 8);
		(void)snprintf(
		        msg, sizeof(msg),
		        "Quota reserved in ClusterQueue %s, wait time since "
		        "queued was %lds",
		        cq, i % 90);
		(void)snprintf(
		        detail, sizeof(detail),
		        "{\"flavors\":{\"main\":{\"nvidia.com/gpu\":\"h100\"}},"
		        "\"usage\":{\"h100\":{\"nvidia.com/gpu\":\"%ld\"}},"
		        "\"borrowed\":{\"h100\":{\"nvidia.com/gpu\":\"0\"}}}",
		        1 + i % 4);
		sqlite3_bind_text(st, 1, "default", -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)i * 2654435761u);
		sqlite3_bind_text(st, 3, "quotaflow", -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, i * 97);
		sqlite3_bind_text(st, 5, "Normal", -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, reasons[i % 4], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 7, wl, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 8, cq, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 9, msg, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 10, detail, -1, SQLITE_STATIC);
		sqlite3_bind_blob(st, 11, chain, 32, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			return 1;
		sqlite3_reset(st);
	}
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	cpu = (double)(b.tv_sec - a.tv_sec) +
	      (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	printf("rows=%ld cpu_s=%.3f rows_per_s=%.0f\n", n, cpu,
	       (double)n / cpu);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return 0;
}
