/*
 * derive_int.h - state shared by derive.c (the walk over the timeline:
 * workloads, waits, preemptions) and derive_borrow.c (usage per
 * ClusterQueue, flavor and resource; borrowing intervals and lenders).
 * Private to audit/.
 */
#ifndef QF_AUDIT_DERIVE_INT_H
#define QF_AUDIT_DERIVE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "audit/evdb.h"
#include "core/buf.h"

/* A string-keyed open-addressing map to indices (derive.c). */
struct dmap_slot {
	uint64_t hash; /* compared before the key; reused when growing */
	char *key;     /* owned; NULL: empty slot */
	size_t len;    /* key length (keys may hold NULs) */
	size_t val;
};

struct dmap {
	struct dmap_slot *s; /* one array: a probe touches one line */
	size_t cap, n;
};

void qf_dmap_release(struct dmap *m);
/* Index stored for key, or (size_t)-1. */
size_t qf_dmap_get(const struct dmap *m, const char *key, size_t len);
void qf_dmap_put(struct dmap *m, const char *key, size_t len, size_t val);

/* One quota row: in force from from_ms until the key's next row (D3). */
struct quota {
	int64_t from_ms, nominal, lending; /* lending -1 = no limit */
	size_t group; /* its (cohort, flavor, resource), or -1: no cohort */
};

/* One (ClusterQueue, flavor, resource): its usage and borrowing. */
struct ukey {
	char *cq, *flavor, *resource; /* owned */
	struct quota *q;              /* owned, by from_ms */
	size_t nq, aq;
	int64_t usage;    /* milli-units now */
	int64_t borrowed; /* usage - nominal when > 0, else 0 */
	int dirty;        /* usage or quota changed at this instant */
	/* the open interval (D4), borrowing within group igroup */
	int open;
	size_t igroup;
	int64_t start_ms, peak;
	double amount;           /* milli-units x ms (double: bytes x ms
	                          * overflows int64 within hours) */
	struct qf_buf workloads; /* "a,b", in admission order */
	struct dmap wseen;       /* the workloads listed, to list each once */
	char **lender;           /* owned names */
	double *lent;            /* milli x ms per lender */
	size_t nlender, alender;
};

/* A reservation at the current instant, resolved when it closes. */
struct admit {
	size_t k;
	char *workload; /* owned */
};

/* A (cohort, flavor, resource): every key that is ever a member of it
 * (D3: whether it is one at t depends on its quota row in force at t). */
struct group {
	char *cohort;    /* owned */
	size_t *members; /* key indices */
	size_t n, alloc;
	size_t acap;
	int64_t *cap; /* scratch: lendable capacity per member */
};

/* A quota row of key k taking effect at t. */
struct qchange {
	int64_t t;
	size_t k;
};

struct borrow {
	struct qf_evdb *s;
	const char *cluster;
	struct ukey *k;
	size_t nk, ak;
	struct dmap kmap;
	struct group *g;
	size_t ng, ag;
	struct dmap gmap;
	int64_t now_ms;
	int any_open;
	struct qchange *qc; /* quota rows by time: instants to judge (D4) */
	size_t nqc, aqc, iqc;
	/* Lists (qf_borrow_list) the workloads holding a reservation of key
	 * k, in reservation order: an interval opened by a quota change. */
	void (*holders)(void *arg, size_t k);
	void *holders_arg;
	struct admit *adm; /* reservations of the current instant */
	size_t nadm, aadm;
	sqlite3_stmt *ins_borrow, *ins_lend, *ins_usage;
};

int qf_borrow_init(struct borrow *b, struct qf_evdb *s, const char *cluster,
                   struct qf_diags *d);
void qf_borrow_release(struct borrow *b);
/* Key index of (cq, flavor, resource), created when new. */
size_t qf_borrow_key(struct borrow *b, const char *cq, const char *flavor,
                     const char *resource);
/* Nominal quota of key k at time t, or -1 when unknown (D3). */
int64_t qf_borrow_nominal(const struct ukey *k, int64_t t);
/* Usage of key k changes by delta at the current instant. */
void qf_borrow_change(struct borrow *b, size_t k, int64_t delta);
/* Move the clock to t: close the instant (D4) and integrate (D5); quota
 * rows that take effect on the way are judged at their own instants. */
int qf_borrow_advance(struct borrow *b, int64_t t, struct qf_diags *d);
/* A workload whose reservation touched key k at this instant (D4). */
void qf_borrow_admitted(struct borrow *b, size_t k, const char *workload);
/* List a workload in key k's open interval (once per interval). */
void qf_borrow_list(struct borrow *b, size_t k, const char *workload);
/* Flush open intervals and lending totals. */
int qf_borrow_finish(struct borrow *b, struct qf_diags *d);

#endif
