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
/* Remove key (nothing when absent). */
void qf_dmap_del(struct dmap *m, const char *key, size_t len);
/* The same with the key's hash, qf_dmap_hash(key, len), computed once
 * by a caller that looks a key up in several places. */
uint64_t qf_dmap_hash(const char *key, size_t len);
size_t qf_dmap_get_h(const struct dmap *m, uint64_t h, const char *key,
                     size_t len);
void qf_dmap_put_h(struct dmap *m, uint64_t h, const char *key, size_t len,
                   size_t val);
void qf_dmap_del_h(struct dmap *m, uint64_t h, const char *key, size_t len);

/* One quota row: in force from from_ms until the key's next row (D3). */
struct quota {
	int64_t from_ms, nominal;
	int64_t borrowing, lending; /* -1 = no limit */
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
	double amount; /* milli-units x ms (double: bytes x ms
	                * overflows int64 within hours) */
	int64_t iser;  /* the interval's serial: a workload is listed once */
	/* "a,b", in admission order: the tail; the head is in d_wlist
	 * parts 0 .. nparts-1 once the list grows long (flat memory) */
	struct qf_buf workloads;
	int64_t nparts;
	char **lender; /* owned names */
	double *lent;  /* milli x ms per lender */
	size_t nlender, alender;
	const char **lsrc; /* the pointer lend() last named each by (or
	                    * NULL), to find it again without strcmp */
	size_t lhint;      /* the lender lend() tries first */
	/* its usage series' segment not yet written (derive_series.c):
	 * "[[at - seg_from_ms,usage,nominal],..." without the closing ] */
	struct qf_buf seg;
	int64_t seg_from_ms, seg_to_ms; /* its first and last point */
	size_t seg_n;                   /* points in it */
	size_t term; /* its ClusterQueue's first terminating stretch
	              * (borrow.term), or -1: never deleted */
};

/* A reservation at the current instant, resolved when it closes. */
struct admit {
	size_t k;
	size_t wid; /* the walk's workload slot */
};

/* A (cohort, flavor, resource): every key that is ever a member of it
 * (D3: whether it is one at t depends on its quota row in force at t),
 * the cohort's own quota, and its parent over time (D6). */
struct group {
	char *cohort;            /* owned */
	char *lname;             /* owned: "cohort/<cohort>", a lender's
	                          * name (D6), made when first needed */
	char *flavor, *resource; /* owned */
	size_t *members;         /* key indices */
	size_t n, alloc;
	size_t acap;
	int64_t *cap;    /* scratch: lendable capacity per member */
	size_t fr;       /* its (flavor, resource): groups of one tree */
	struct quota *q; /* owned: the Cohort's own quota rows, by from_ms */
	size_t nq, aq;
	size_t co;  /* its Cohort object (b->co), or -1: implicit */
	size_t *pg; /* owned, parallel to that object's rows: the parent's
	             * group for this (flavor, resource), or -1 */
	/* scratch of one instant (D6) */
	size_t par;  /* parent group now, or -1 */
	int64_t own; /* the cohort's own quota still to lend */
	/* the Cohort's limits now, still to use: what its subtree may give
	 * to borrowers outside it, and take from lenders outside it (< 0:
	 * no limit) */
	double lend_left, borrow_left;
	/* scratch of one level (D6): its depth below the level's top
	 * (-1: not at the level), what its subtree has unused, and the
	 * part of it that it gives (its lendingLimit left over that) */
	size_t depth;
	double acc, fac;
};

/* A Cohort or ClusterQueue object from from_ms on (D3). */
struct orow {
	int64_t from_ms;
	char *parent; /* owned: cohort (of a queue), parent (of a cohort) */
	int deleted;
};

/* A Cohort object over time: its parent (D6). */
struct cohort {
	char *name;       /* owned */
	struct orow *row; /* owned, by from_ms */
	size_t n, a;
};

/* A ClusterQueue terminating (D3, D8): from its deletion until it was
 * removed (INT64_MAX: not seen removed). */
struct term {
	char *cq; /* owned */
	int64_t from_ms, to_ms;
	size_t *keys; /* owned, in a ClusterQueue's first stretch: its keys */
	size_t nkeys, akeys;
};

/* A quota row of key k taking effect at t (k -1: a Cohort's row). */
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
	struct term *term; /* by ClusterQueue, then from_ms */
	size_t nterm, aterm;
	struct cohort *co; /* Cohort objects by name (D6) */
	size_t nco, aco;
	struct dmap comap;
	size_t nfr; /* distinct (flavor, resource) of groups */
	struct dmap frmap;
	size_t *byfr;   /* owned: group indices by fr (a tree each) */
	size_t *frbeg;  /* owned: nfr + 1 offsets into byfr */
	size_t *korder; /* owned: keys with quota, by (flavor, resource,
	                 * ClusterQueue): the borrowers' order (D6) */
	size_t nkorder, akorder;
	int64_t now_ms;
	int any_open;
	struct qchange *qc; /* quota rows by time: instants to judge (D4) */
	size_t nqc, aqc, iqc;
	/* Lists (qf_borrow_list) the workloads holding a reservation of key
	 * k, in reservation order: an interval opened by a quota change. */
	int (*holders)(void *arg, size_t k, struct qf_diags *d);
	void *holders_arg;
	/* Workload wid's name; whether it is listed in interval iser of
	 * key k yet (and from now on it is). */
	const char *(*wname)(void *arg, size_t wid);
	int (*listed)(void *arg, size_t wid, size_t k, int64_t iser);
	int64_t next_iser;
	struct admit *adm; /* reservations of the current instant */
	size_t nadm, aadm;
	sqlite3_stmt *ins_borrow, *ins_lend;
	sqlite3_stmt *ins_usage; /* a d_usage_series row (derive_series.c) */
	size_t seg_bytes;        /* of all keys' segments in memory */
	sqlite3_stmt *part_put, *part_get, *part_del;
};

enum wstate { W_IDLE, W_QUEUED, W_RESERVED, W_ADMITTED, W_DONE };

struct cell {
	size_t k;
	int64_t amount; /* milli-units */
};

/* A request without a flavor (a Workload's podSets, D8). */
struct want {
	char *resource; /* owned */
	int64_t amount; /* milli-units */
};

struct lmark {
	size_t k;
	int64_t iser;
};

/*
 * One workload.  A finished one (W_DONE) leaves memory at the next
 * instant: its state goes to d_wdone and a later event for it loads it
 * back (derive_state.c), so memory holds the workloads in flight only.
 */
struct wl {
	char *key; /* "ns/name", owned */
	char *cq;  /* owned, may be NULL */
	char *lq;  /* its LocalQueue's name (Workload spec.queueName), owned */
	enum wstate st;
	int64_t queued_ms, reserved_ms, admitted_ms;
	struct cell *held; /* owned */
	size_t nheld;
	struct cell *prev; /* owned: what its last reservation held */
	size_t nprev;
	struct want *want; /* owned: what its Workload object requests */
	size_t nwant;
	struct cell *arrival; /* usage of its queue's keys at queueing */
	size_t narrival;
	int arriving; /* queued at this instant: arrival not yet taken */
	int64_t last_preempt_ms; /* duplicate suppression (D7) */
	char *last_preemptor;
	/* the interval of each key it was last listed in (D4) */
	struct lmark *lm; /* owned */
	size_t nlm;
	int64_t seq;      /* first seen: the order of rows at the end */
	uint64_t ck_hash; /* of its state as stored last, or 0 */
	int64_t ck_id;    /* its row in d_wlive (in flight), or 0 */
	int ck_active;    /* stored last as in flight (else finished) */
};

/* A finished workload's record: the hash of its name, its batch. */
struct wkey {
	int64_t h, batch;
};

/*
 * Finished workloads (derive_wdone.c): their records are appended to
 * batches (d_wdone rows, in the order they finish) and found by the hash
 * of their name, through one sorted run of (hash, batch) in d_wkeys and
 * the keys of the batches since (l0: in memory, bounded, merged into the
 * run when full).
 */
struct wdone {
	struct qf_buf pend; /* records of the batch being filled */
	int64_t pend_id;    /* its id in d_wdone (0: not known yet) */
	struct wkey *l0;    /* keys not in the run yet */
	size_t nl0, al0;
	uint32_t *tab; /* open addressing over l0: index + 1, 0: empty */
	size_t ntab;   /* its slots: a power of 2, twice l0 at least */
	size_t nidx;   /* l0's first keys, in tab (the rest: not yet) */
	size_t nsaved; /* l0's first keys, in run -1 already */
	int64_t part;  /* the next row of run -1 (its lo) */
	int64_t run;   /* the cluster's run in d_wkeys, -1: none */
	sqlite3_stmt *put, *get, *kput, *kget;
};

/* A LocalQueue's ClusterQueue from from_ms on (D9). */
struct lqrow {
	int64_t from_ms;
	char *cq;   /* owned; NULL: deleted then */
	size_t run; /* on a LocalQueue's first row: how many rows it has */
};

/* A d_admissions row waiting for its batch (derive.c); strings are
 * offsets into walk.atext. */
#define ADM_BATCH 32
#define ADM_COLS  8 /* the columns after cluster */
struct arow {
	size_t key, ns_len; /* "ns/name" and the length of ns */
	size_t cq;          /* or -1: NULL */
	int64_t queued_ms, admitted_ms, u0, nom;
	int admitted, ok;
};

struct walk {
	struct qf_evdb *s;
	const char *cluster;
	struct qf_diags *d;
	struct borrow b;
	struct wl *w;
	size_t nw, aw;
	struct dmap wmap;
	sqlite3_stmt *ins_adm, *ins_pre, *usage_lookup;
	sqlite3_stmt *ins_adms; /* ADM_BATCH rows of d_admissions */
	struct arow arow[ADM_BATCH];
	size_t narow;
	struct qf_buf atext;
	size_t *arr; /* workloads queued at this instant (D8) */
	size_t narr, aarr;
	struct dmap lqmap; /* "ns/name" -> its first row in lqs */
	struct lqrow *lqs; /* local_queues by ns/name, then valid-from */
	size_t nlq, alq;
	struct dmap uids; /* uid -> index in uidwl */
	/* preemptor uids no Workload or event named yet (D7) */
	struct dmap unresolved;
	char **uidwl; /* owned workload keys */
	size_t nuid, auid;
	int64_t first_ms, last_ms;
	int64_t last_rank; /* of the last event walked (QF_DERIVE_RANK) */
	/* flat memory and checkpoints (derive_state.c) */
	size_t *freew; /* free slots of w (key NULL) */
	size_t nfree, afree;
	size_t *done; /* finished at this instant: to leave memory */
	size_t ndone, adone;
	int64_t next_seq;
	unsigned char *bloom; /* finished keys stored by this walk */
	int bloom_complete;   /* the walk started from scratch */
	sqlite3_stmt *ws_put, *ws_upd, *ws_del; /* in flight: d_wlive */
	struct wdone wd;
};

int qf_borrow_init(struct borrow *b, struct qf_evdb *s, const char *cluster,
                   struct qf_diags *d);
/* Only the quota over time of a cluster (D3), for readers of it (the
 * report): b can answer qf_borrow_quota_sum and must be released. */
int qf_borrow_quotas(struct borrow *b, struct qf_evdb *s, const char *cluster,
                     struct qf_diags *d);
/* Sum over ClusterQueue cq's (flavor, resource) keys whose resource
 * passes want (NULL: all) of the row in force at t (D3): nominal quota,
 * and nominal plus borrowing limit (-1 when one of them has none; a row
 * in no cohort adds its nominal: it cannot borrow). */
void qf_borrow_quota_sum(const struct borrow *b, const char *cq,
                         int (*want)(const char *resource), int64_t t,
                         int64_t *nominal, int64_t *burst);
void qf_borrow_release(struct borrow *b);
/* Key index of (cq, flavor, resource), created when new. */
size_t qf_borrow_key(struct borrow *b, const char *cq, const char *flavor,
                     const char *resource);
/* Whether ClusterQueue cq terminated at some time of [from, to] (D8). */
int qf_borrow_terminating(const struct borrow *b, const char *cq, int64_t from,
                          int64_t to);
/* Nominal quota of key k at time t, or -1 when unknown (D3). */
int64_t qf_borrow_nominal(const struct ukey *k, int64_t t);
/* Usage of key k changes by delta at the current instant. */
void qf_borrow_change(struct borrow *b, size_t k, int64_t delta);
/* Move the clock to t: close the instant (D4) and integrate (D5); quota
 * rows that take effect on the way are judged at their own instants. */
int qf_borrow_advance(struct borrow *b, int64_t t, struct qf_diags *d);
/* A workload whose reservation touched key k at this instant (D4). */
void qf_borrow_admitted(struct borrow *b, size_t k, size_t wid);
/* List workload wid in key k's open interval (once per interval). */
int qf_borrow_list(struct borrow *b, size_t k, size_t wid, struct qf_diags *d);
/* Flush open intervals and lending totals. */
int qf_borrow_finish(struct borrow *b, struct qf_diags *d);
/* The borrow state into / out of a checkpoint (derive_state.c). */
void qf_borrow_save(const struct borrow *b, struct qf_buf *out);
int qf_borrow_load(struct borrow *b, const unsigned char **p,
                   const unsigned char *end);

/* ---- derive_series.c: d_usage as series of points per key ---- */

/* Key k's usage at now_ms (nominal -1: no quota row in force) joins its
 * segment in memory, written into d_usage_series when full (or when the
 * segments in memory grow past a bound). */
int qf_series_add(struct borrow *b, size_t k, int64_t nominal,
                  struct qf_diags *d);
/* Write every key's segment held in memory. */
int qf_series_flush(struct borrow *b, struct qf_diags *d);
/* The segments in memory into / out of a checkpoint: the next ingest
 * carries on with them (their rows, written after the checkpoint, are
 * deleted with the rows of the end). */
void qf_series_save(const struct borrow *b, struct qf_buf *out);
int qf_series_load(struct borrow *b, const unsigned char **p,
                   const unsigned char *end);
/* Free the segments in memory of b's keys. */
void qf_series_release(struct borrow *b);

/* One point of a series, as read back. */
struct qf_series_point {
	int64_t at_ms, usage_milli;
	int64_t nominal_milli; /* -1: NULL (no quota row in force) */
};
/* Reads the points of one d_usage_series row (its text borrowed). */
struct qf_series_cur {
	const char *p, *end;
	int64_t from_ms; /* the row's */
	int64_t last_ms; /* of the last point read */
	size_t n;        /* points read */
};
void qf_series_open(struct qf_series_cur *c, const char *text, size_t len,
                    int64_t from_ms);
/* The next point: 1 and *out set, 0 after the last, -1 when the text is
 * not what qf_series_add writes (a damaged row: its first point is at
 * from_ms, the others in time order). */
int qf_series_next(struct qf_series_cur *c, struct qf_series_point *out);

/* Checkpoint encoding: zigzag varints, doubles by their 8 bytes,
 * strings as a length (-1: NULL) and bytes. */
void qf_ck_i64(struct qf_buf *out, int64_t v);
void qf_ck_f64(struct qf_buf *out, double v);
void qf_ck_str(struct qf_buf *out, const char *s, size_t n);
/* Readers: 0, or -1 past the end (then *p is set to end). */
int qf_ck_get_i64(const unsigned char **p, const unsigned char *end,
                  int64_t *v);
int qf_ck_get_f64(const unsigned char **p, const unsigned char *end, double *v);
/* *s owned (NULL for a NULL string). */
int qf_ck_get_str(const unsigned char **p, const unsigned char *end, char **s,
                  size_t *n);

/* D6: the lender of what no quota in the evidence covers. */
#define QF_DERIVE_UNCOVERED "(uncovered)"

/* D1: the causal rank of an event among those of the same instant. */
#define QF_DERIVE_RANK                                                   \
	"CASE WHEN reason IN ('Finished','FinishedWorkload','Deleted')"  \
	" THEN 0 WHEN reason LIKE 'EvictedDueTo%' THEN 1"                \
	" WHEN reason = 'Preempted' THEN 2"                              \
	" WHEN reason = 'PreemptedWorkload' THEN 3"                      \
	" WHEN reason = 'Requeued' THEN 4 WHEN reason = 'QuotaReserved'" \
	" THEN 6 WHEN reason = 'Admitted' THEN 7 ELSE 5 END"

/* QF_DERIVE_RANK of a reason, in C (SQL's LIKE ignores ASCII case). */
int64_t qf_derive_rank(const char *reason);

/* ---- derive_state.c: stored workloads, checkpoints ---- */

/* Slot of workload key, loaded from its stored state or created; -1 on a
 * database error (a diagnostic added). */
size_t qf_wl_get(struct walk *wk, const char *key);
/* The same for a key of length n and hash qf_dmap_hash(key, n). */
size_t qf_wl_get_h(struct walk *wk, const char *key, size_t n, uint64_t h);
/* Ask the memory for what looking up the workload of hash h will read
 * (its slot in the map, its bit in the Bloom filter): a cache miss each,
 * asked for when its event joins the instant, before it is walked. */
void qf_wl_prefetch(const struct walk *wk, uint64_t h);
/* Slot of a known workload, or -1 when there is none (or an error). */
size_t qf_wl_find(struct walk *wk, const char *key);
/* A slot whose workload finished: leaves memory at the next instant. */
void qf_wl_finished(struct walk *wk, size_t i);
/* The instant is over: finished workloads go to d_wdone. */
int qf_wl_flush(struct walk *wk);
void qf_wl_free(struct wl *w);
/* The error of a stored state of workload key that cannot be read. */
void qf_wl_unreadable(struct walk *wk, const char *key);
/* What the walk holds for derive_state.c (statements, buffers). */
void qf_wl_release(struct walk *wk);

/* Run st (bound already) to its end and reset it: QF_OK, or an error
 * (a diagnostic added). */
int qf_ck_step(struct walk *wk, sqlite3_stmt *st);

/* ---- derive_wdone.c: finished workloads' records ---- */

/* Append workload key's record (its seq and state) as finished. */
int qf_wdone_put(struct walk *wk, const char *key, int64_t seq,
                 const struct qf_buf *state);
/* The newest record of key into *seq and state (reset first): 1, or 0
 * when there is none, < 0 on error. */
int qf_wdone_get(struct walk *wk, const char *key, size_t n, int64_t *seq,
                 struct qf_buf *state);
/* At a checkpoint: the batch being filled and l0 are written. */
int qf_wdone_save(struct walk *wk);
/* On resume: l0 as the checkpoint left it. */
int qf_wdone_load(struct walk *wk);
void qf_wdone_release(struct wdone *wd);

/* Store the walk's state (before its end is derived); marks are the
 * rowids from which the end's rows start. */
int qf_ck_save(struct walk *wk, struct qf_buf *state);
/* Resume from the checkpoint: 1 when resumed, 0 when the derivation
 * must start from scratch (no checkpoint, or the evidence changed before
 * where it stopped), < 0 on error.  *from_id: events after it are new. */
int qf_ck_resume(struct walk *wk, int64_t *from_id);
int qf_ck_write(struct walk *wk, const struct qf_buf *state,
                const struct qf_buf *marks);

/* ---- derive.c: the walk a feed drives (derive_feed.c) ---- */

struct qf_evchunk_ev;
struct qf_buf;
struct feedwalk;

/* A derivation's walk over everything stored (carrying on from the
 * checkpoint when it can, as qf_derive_cluster), its last instant left
 * open for events stored after it.  *out NULL on error. */
int qf_walk_open(struct feedwalk **out, struct qf_evdb *s, const char *cluster,
                 struct qf_diags *d);
/* Whether e, stored after everything the walk has, comes after it in the
 * D1 order (time, rank, id) where a derivation may carry on: else the
 * walk cannot take it. */
int qf_walk_follows(const struct feedwalk *fw, const struct qf_evchunk_ev *e);
/* A run is stored next, its first event at tmin: the events pending
 * before tmin are walked.  0 when the run starts before what the walk
 * took (it cannot take it), 1 when it may come, < 0 on error. */
int qf_walk_run(struct feedwalk *fw, int64_t tmin);
/* Take e (qf_walk_follows), just stored with the next id, of the run
 * qf_walk_run announced, its strings in the run's buffer that starts at
 * base: walked once no run to come can hold older. */
int qf_walk_add(struct feedwalk *fw, const struct qf_evchunk_ev *e,
                const char *base);
/* The run announced is stored: the walk takes its buffer (the one the
 * events taken point into) and leaves *arena an empty one. */
void qf_walk_keep(struct feedwalk *fw, struct qf_buf *arena);
/* Walk the open instant, store the checkpoint and derive the end, as
 * qf_derive_cluster ends; fw is freed either way. */
int qf_walk_close(struct feedwalk *fw);
/* Free fw, writing nothing more (NULL: nothing). */
void qf_walk_drop(struct feedwalk *fw);

#endif
