/*
 * spec_check.c - the checks that look at several spec objects at once.
 *
 * Budgets (QF311 per account, QF312 per flavour), unique tenant names
 * (QF306), namespaces claimed twice (QF313), and the warnings that say, with
 * numbers, where the compiled policy will admit less than the spec declares:
 * a burst no cohort can ever lend (QF314), a floor a preset cannot reclaim
 * (QF316), idle capacity in an isolated pool (QF319).  The reachability
 * numbers follow Kueue's PotentialAvailable (see
 * ../shared/reference/kueue-admission.md 4.2): with every other tenant
 * idle, a ClusterQueue can hold its private quota plus the whole subtree
 * quota of its cohort tree's root, capped by nominal + borrowingLimit.
 */
#include "compiler/spec.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/banned.h"

int64_t qf_spec_headroom(const struct qf_spec *spec, size_t a, size_t f)
{
	int64_t c = spec->pool.accounts[a].gpus[f];
	int64_t h = (c < 0 ? 0 : c) - qf_spec_committed(spec, a, f);

	return h > 0 ? h : 0;
}

int64_t qf_spec_unsold(const struct qf_spec *spec, size_t f)
{
	int64_t sold = 0, left;
	size_t a;

	for (a = 0; a < spec->pool.naccounts; a++)
		if (spec->pool.accounts[a].gpus[f] > 0)
			sold += spec->pool.accounts[a].gpus[f];
	left = spec->pool.flavours[f].gpus - sold;
	return left > 0 ? left : 0;
}

static int tenant_ok(const struct qf_spec *s, const struct qf_spec_tenant *t)
{
	return t->account < s->pool.naccounts && t->nflavours > 0 &&
	       !t->counts_unread && !t->duplicate;
}

/* 1 when some count of the pool or a tenant could not be read: what a
 * tenant can reach weighs them all, so it is not worked out. */
static int some_unread(const struct qf_spec *s)
{
	const struct qf_spec_pool *p = &s->pool;
	size_t i, f;

	for (i = 0; i < s->ntenants; i++)
		if (s->tenants[i].counts_unread)
			return 1;
	for (f = 0; f < p->nflavours; f++) {
		if (p->flavours[f].gpus == QF_SPEC_GPUS_UNREAD)
			return 1;
		for (i = 0; i < p->naccounts; i++)
			if (p->accounts[i].gpus[f] == QF_SPEC_GPUS_UNREAD)
				return 1;
	}
	return 0;
}

static int check_names(struct qf_spec *s, struct qf_diags *d)
{
	int rc = QF_OK;
	size_t i;

	for (i = 1; i < s->ntenants; i++) {
		const struct qf_spec_tenant *a = &s->tenants[i - 1];
		struct qf_spec_tenant *b = &s->tenants[i];

		if (!*b->name || strcmp(a->name, b->name) != 0)
			continue;
		/* its GPUs and namespaces counted again made up an
		 * overcommit (QF311) and a shared namespace (QF313) */
		b->duplicate = 1;
		rc = qf_diag_error(d, &b->name_loc, "QF306", "metadata.name",
		                   "tenant \"%s\" is defined twice", b->name);
		qf_diag_hint(d, "the other one is at %s:%u", a->name_loc.file,
		             (unsigned)a->name_loc.line);
	}
	if (s->pool.sharing == QF_SPEC_SHARED)
		for (i = 0; i < s->pool.naccounts; i++)
			if (!strcmp(s->pool.accounts[i].name, s->pool.name))
				rc = qf_diag_error(
				        d, &s->pool.accounts[i].loc, "QF320",
				        NULL,
				        "account \"%s\" has the pool's name; "
				        "with sharing: shared the pool's root "
				        "Cohort needs that name",
				        s->pool.name);
	return rc;
}

/* QF311 for account a on flavour f, naming every committing tenant. */
static int overcommitted(const struct qf_spec *s, size_t a, size_t f,
                         struct qf_buf *who, struct qf_diags *d)
{
	const struct qf_spec_pool *p = &s->pool;
	const struct qf_spec_account *acc = &p->accounts[a];
	int64_t have = acc->gpus[f] < 0 ? 0 : acc->gpus[f];
	int64_t want = qf_spec_committed(s, a, f);
	size_t i;
	int rc;

	qf_buf_reset(who);
	for (i = 0; i < s->ntenants; i++) {
		const struct qf_spec_tenant *t = &s->tenants[i];

		if (tenant_ok(s, t) && t->account == a && t->flavours[0] == f &&
		    t->committed > 0)
			qf_buf_addf(who, "%s%s %lld", who->len ? ", " : "",
			            t->name, (long long)t->committed);
	}
	rc = qf_diag_error(d, &acc->gpus_loc[f], "QF311", NULL,
	                   "account \"%s\" is overcommitted on %s: its tenants "
	                   "commit %lld GPUs (%s) but the account has %lld",
	                   acc->name, p->flavours[f].name, (long long)want,
	                   who->buf, (long long)have);
	qf_diag_hint(d,
	             "lower the tenants' committed GPUs or raise the "
	             "account's %s contract by %lld",
	             p->flavours[f].name, (long long)(want - have));
	return rc;
}

/* Fill s->committed and report accounts whose tenants commit too much. */
static int check_accounts(struct qf_spec *s, struct qf_diags *d)
{
	const struct qf_spec_pool *p = &s->pool;
	struct qf_buf who = QF_BUF_INIT;
	int rc = QF_OK;
	size_t i, a, f;

	s->committed = qf_xcalloc(p->naccounts * p->nflavours + 1,
	                          sizeof(*s->committed));
	for (i = 0; i < s->ntenants; i++) {
		const struct qf_spec_tenant *t = &s->tenants[i];

		if (tenant_ok(s, t))
			s->committed[t->account * p->nflavours +
			             t->flavours[0]] += t->committed;
		if (t->nflavours > 1 && !s->per_flavour_burst)
			s->uses_total = 1;
	}
	for (a = 0; a < p->naccounts; a++) {
		const struct qf_spec_account *acc = &p->accounts[a];

		for (f = 0; f < p->nflavours; f++) {
			int64_t have = acc->gpus[f] < 0 ? 0 : acc->gpus[f];
			int64_t want = qf_spec_committed(s, a, f);

			if (want <= have || acc->gpus[f] == QF_SPEC_GPUS_UNREAD)
				continue;
			rc = overcommitted(s, a, f, &who, d);
		}
	}
	qf_buf_release(&who);
	return rc;
}

/* Report flavours sold beyond their physical GPUs; note idle ones. */
static int check_flavours(struct qf_spec *s, struct qf_diags *d)
{
	const struct qf_spec_pool *p = &s->pool;
	struct qf_buf who = QF_BUF_INIT;
	int rc = QF_OK;
	size_t a, f;

	for (f = 0; f < p->nflavours; f++) {
		const struct qf_spec_flavour *fl = &p->flavours[f];
		int64_t sold = 0;
		int unread = 0;

		if (fl->gpus == QF_SPEC_GPUS_UNREAD)
			continue;
		qf_buf_reset(&who);
		for (a = 0; a < p->naccounts; a++) {
			unread |= p->accounts[a].gpus[f] == QF_SPEC_GPUS_UNREAD;
			if (p->accounts[a].gpus[f] > 0) {
				sold += p->accounts[a].gpus[f];
				qf_buf_addf(&who, "%s%s %lld",
				            who.len ? ", " : "",
				            p->accounts[a].name,
				            (long long)p->accounts[a].gpus[f]);
			}
		}
		if (sold > fl->gpus) {
			rc = qf_diag_error(
			        d, &fl->gpus_loc, "QF312", NULL,
			        "flavour %s is oversold: accounts contract "
			        "%lld GPUs (%s) but it has %lld",
			        fl->name, (long long)sold, who.buf,
			        (long long)fl->gpus);
		} else if (sold < fl->gpus && p->sharing == QF_SPEC_ISOLATED &&
		           !unread) {
			(void)qf_diag_add(
			        d, QF_SEV_NOTE, &fl->gpus_loc, "QF319", NULL,
			        "%lld of the %lld %s GPUs are in no account "
			        "and stay idle with sharing: isolated",
			        (long long)(fl->gpus - sold),
			        (long long)fl->gpus, fl->name);
		}
	}
	qf_buf_release(&who);
	return rc;
}

struct ns_claim {
	const char *ns;
	size_t tenant;
	size_t idx; /* in the tenant's namespaces */
};

static int cmp_claim(const void *a, const void *b)
{
	const struct ns_claim *x = a, *y = b;
	int c = strcmp(x->ns, y->ns);

	if (c)
		return c;
	return x->tenant < y->tenant ? -1 : x->tenant > y->tenant;
}

static int check_namespaces(struct qf_spec *s, struct qf_diags *d)
{
	struct ns_claim *v;
	size_t n = 0, i, j;
	int rc = QF_OK;

	for (i = 0; i < s->ntenants; i++)
		n += s->tenants[i].nnamespaces;
	v = qf_xcalloc(n + 1, sizeof(*v));
	n = 0;
	for (i = 0; i < s->ntenants; i++)
		for (j = 0;
		     j < s->tenants[i].nnamespaces && !s->tenants[i].duplicate;
		     j++) {
			v[n].ns = s->tenants[i].namespaces[j];
			v[n].tenant = i;
			v[n].idx = j;
			n++;
		}
	qsort(v, n, sizeof(*v), cmp_claim);
	for (i = 1; i < n; i++) {
		const struct qf_spec_tenant *a = &s->tenants[v[i - 1].tenant];
		const struct qf_spec_tenant *b = &s->tenants[v[i].tenant];

		if (strcmp(v[i - 1].ns, v[i].ns) != 0 || a == b)
			continue;
		rc = qf_diag_error(d, &b->ns_locs[v[i].idx], "QF313",
		                   "spec.namespaces",
		                   "namespace \"%s\" belongs to tenants \"%s\" "
		                   "and \"%s\"; a namespace in two tenants "
		                   "breaks isolation",
		                   v[i].ns, a->name, b->name);
		qf_diag_hint(d, "\"%s\" claims it at %s:%u", a->name,
		             a->ns_locs[v[i - 1].idx].file,
		             (unsigned)a->ns_locs[v[i - 1].idx].line);
	}
	free(v);
	return rc;
}

/*
 * What the root of a tenant's cohort tree holds on flavour f: everything the
 * account (isolated) or the pool (shared) can ever lend on it, the tenant's
 * own lendable part included.
 */
static int64_t tree_quota(const struct qf_spec *s, const int64_t *lendpool,
                          size_t account, size_t f)
{
	const struct qf_spec_pool *p = &s->pool;
	int64_t sum;
	size_t a;

	if (p->sharing == QF_SPEC_ISOLATED)
		return lendpool[account * p->nflavours + f];
	sum = qf_spec_unsold(s, f);
	for (a = 0; a < p->naccounts; a++)
		sum += lendpool[a * p->nflavours + f];
	return sum;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/*
 * The most a tenant's ClusterQueue can ever hold, all others idle: per
 * flavour (per_flavour_out, what per-flavour limits alone allow) and in
 * total once the cross-flavour total (rule T8) applies.
 */
static int64_t reachable(const struct qf_spec *s, const int64_t *lendpool,
                         const struct qf_spec_tenant *t,
                         int64_t *per_flavour_out)
{
	int64_t sum = 0, all = 0, priv = t->committed - qf_spec_lent(t);
	size_t i, f;

	for (i = 0; i < t->nflavours; i++) {
		int64_t pot =
		        tree_quota(s, lendpool, t->account, t->flavours[i]);

		if (i == 0)
			pot += priv;
		sum += min64(t->burst, pot);
	}
	*per_flavour_out = sum;
	if (!s->uses_total)
		return min64(t->burst, sum);
	for (f = 0; f < s->pool.nflavours; f++)
		all += tree_quota(s, lendpool, t->account, f);
	return min64(min64(t->burst, sum), priv + all);
}

static void flavour_list(struct qf_buf *b, const struct qf_spec *s,
                         const struct qf_spec_tenant *t)
{
	size_t i;

	for (i = 0; i < t->nflavours; i++)
		qf_buf_addf(b, "%s%s", i ? ", " : "",
		            s->pool.flavours[t->flavours[i]].name);
}

/* QF315: what the transformation changes for the whole cluster. */
static void note_transformation(const struct qf_spec *s,
                                const struct qf_spec_tenant *worst,
                                int64_t worst_pf, struct qf_diags *d)
{
	const struct qf_spec_pool *p = &s->pool;

	(void)qf_diag_add(
	        d, QF_SEV_NOTE, &p->loc, "QF315", NULL,
	        "tenants may use several flavours, so each tenant's total is "
	        "enforced with the virtual resource %s; the cluster's Kueue "
	        "Configuration needs resources.transformations [{input: %s, "
	        "strategy: Retain, outputs: {%s: 1}}] (kueue-configuration."
	        "yaml), without which tenant \"%s\" could hold %lld GPUs "
	        "instead of its burst of %lld",
	        QF_SPEC_TOTAL_RESOURCE, p->gpu_resource, QF_SPEC_TOTAL_RESOURCE,
	        worst->name, (long long)worst_pf, (long long)worst->burst);
	qf_diag_hint(d,
	             "the transformation applies to every workload in the "
	             "cluster: a ClusterQueue not managed by quotaflow that "
	             "admits %s then needs quota for %s too, or its GPU jobs "
	             "stop being admitted; for a cluster with such queues "
	             "compile with --per-flavour-burst",
	             p->gpu_resource, QF_SPEC_TOTAL_RESOURCE);
}

/* QF323: --per-flavour-burst lets this tenant exceed its burst. */
static void warn_per_flavour(const struct qf_spec *s,
                             const struct qf_spec_tenant *t, int64_t pf,
                             struct qf_diags *d)
{
	struct qf_buf fl = QF_BUF_INIT;

	flavour_list(&fl, s, t);
	(void)qf_diag_warn(d, &t->burst_loc, "QF323", "spec.gpus.burst",
	                   "tenant \"%s\" can hold up to %lld GPUs on %s "
	                   "instead of its burst of %lld: with "
	                   "--per-flavour-burst Kueue caps each flavour "
	                   "separately",
	                   t->name, (long long)pf, fl.buf, (long long)t->burst);
	qf_diag_hint(d, "compile without --per-flavour-burst where every "
	                "ClusterQueue that admits GPUs is compiled by "
	                "quotaflow");
	qf_buf_release(&fl);
}

static void check_reach(struct qf_spec *s, struct qf_diags *d)
{
	const struct qf_spec_pool *p = &s->pool;
	const struct qf_spec_tenant *worst = NULL;
	int64_t *lendpool, worst_pf = 0;
	struct qf_buf fl = QF_BUF_INIT;
	size_t i, a, f;

	lendpool =
	        qf_xcalloc(p->naccounts * p->nflavours + 1, sizeof(*lendpool));
	for (a = 0; a < p->naccounts; a++)
		for (f = 0; f < p->nflavours; f++)
			lendpool[a * p->nflavours + f] =
			        qf_spec_headroom(s, a, f);
	for (i = 0; i < s->ntenants; i++) {
		const struct qf_spec_tenant *t = &s->tenants[i];

		if (tenant_ok(s, t))
			lendpool[t->account * p->nflavours + t->flavours[0]] +=
			        qf_spec_lent(t);
	}
	for (i = 0; i < s->ntenants; i++) {
		const struct qf_spec_tenant *t = &s->tenants[i];
		int64_t pf, r;

		if (!tenant_ok(s, t))
			continue;
		r = reachable(s, lendpool, t, &pf);
		if (pf > t->burst &&
		    (!worst || pf - t->burst > worst_pf - worst->burst)) {
			worst = t;
			worst_pf = pf;
		}
		if (pf > t->burst && s->per_flavour_burst)
			warn_per_flavour(s, t, pf, d);
		if (r >= t->burst)
			continue;
		qf_buf_reset(&fl);
		flavour_list(&fl, s, t);
		(void)qf_diag_warn(
		        d, &t->burst_loc, "QF314", "spec.gpus.burst",
		        "tenant \"%s\" can never reach its burst of %lld "
		        "GPUs: even with every other tenant idle, %s can lend "
		        "it at most %lld on %s, so it tops out at %lld "
		        "(committed %lld)",
		        t->name, (long long)t->burst,
		        p->sharing == QF_SPEC_SHARED ? "the pool"
		                                     : "its account",
		        (long long)(r - t->committed), fl.buf, (long long)r,
		        (long long)t->committed);
		qf_diag_hint(d,
		             "lower burst to %lld, or give the account more "
		             "uncommitted GPUs or its tenants more lendable",
		             (long long)r);
	}
	if (worst && !s->per_flavour_burst)
		note_transformation(s, worst, worst_pf, d);
	qf_buf_release(&fl);
	free(lendpool);
}

static void check_presets(struct qf_spec *s, struct qf_diags *d)
{
	size_t i;

	for (i = 0; i < s->ntenants; i++) {
		const struct qf_spec_tenant *t = &s->tenants[i];
		int64_t lent = qf_spec_lent(t);

		if (t->preset == QF_SPEC_GUARANTEED || lent == 0 ||
		    t->counts_unread || t->duplicate)
			continue;
		(void)qf_diag_warn(
		        d, &t->preset_loc, "QF316", "spec.preemption",
		        "tenant \"%s\" lends up to %lld of its %lld committed "
		        "GPUs, but preemption %s %s; only %lld of its floor "
		        "is guaranteed",
		        t->name, (long long)lent, (long long)t->committed,
		        qf_spec_preset_name(t->preset),
		        t->preset == QF_SPEC_BEST_EFFORT
		                ? "reclaims them only from lower-priority "
		                  "borrowers"
		                : "never reclaims them",
		        (long long)(t->committed - lent));
		qf_diag_hint(d, "use preemption: guaranteed, or lendable: 0");
	}
}

/*
 * Resources every pod may request; a queue that does not cover one makes
 * Kueue reject every Job requesting it ("resource cpu unavailable in
 * ClusterQueue"), unless Kueue is told to ignore it.  Prefixes, as in
 * Kueue's excludeResourcePrefixes; sorted.
 */
static const char *const pod_resources[QF_SPEC_MAX_EXCLUDED] = {
	"cpu",
	"ephemeral-storage",
	"hugepages-",
	"memory",
};

/* 1 when some compiled queue covers a resource starting with prefix. */
static int covered(const struct qf_spec *s, const char *prefix)
{
	const struct qf_spec_pool *p = &s->pool;
	size_t n = strlen(prefix), i, j;

	for (j = 0; j < p->nresources; j++)
		if (!strncmp(p->resources[j].name, prefix, n))
			return 1;
	for (i = 0; i < s->ntenants; i++)
		for (j = 0; j < s->tenants[i].nresources; j++)
			if (!strncmp(s->tenants[i].resources[j].name, prefix,
			             n))
				return 1;
	return 0;
}

size_t qf_spec_excluded(const struct qf_spec *s, const char **out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < QF_ARRAY_SIZE(pod_resources) && n < max; i++)
		if (!covered(s, pod_resources[i]))
			out[n++] = pod_resources[i];
	return n;
}

/* QF326: what excluding the uncovered pod resources changes. */
static void note_excluded(const struct qf_spec *s, struct qf_diags *d)
{
	const char *ex[QF_SPEC_MAX_EXCLUDED];
	size_t i, n = qf_spec_excluded(s, ex, QF_ARRAY_SIZE(ex));
	struct qf_buf list = QF_BUF_INIT;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		qf_buf_addf(&list, "%s%s", i ? ", " : "", ex[i]);
	(void)qf_diag_add(
	        d, QF_SEV_NOTE, &s->pool.loc, "QF326", NULL,
	        "the compiled queues cover no %s, which pods request; the "
	        "cluster's Kueue Configuration needs "
	        "resources.excludeResourcePrefixes [%s] "
	        "(kueue-configuration.yaml), without which Kueue admits no "
	        "Job that requests them",
	        list.buf, list.buf);
	qf_diag_hint(d, "the exclusion applies to every workload in the "
	                "cluster: a ClusterQueue not managed by quotaflow "
	                "that sets quota on these resources stops enforcing "
	                "it; to keep one counted, give it a quota per GPU in "
	                "the pool's resourcesPerGpu instead");
	qf_buf_release(&list);
}

/* 1 when tenant t's queue covers resource name. */
/* 1 when tenant t's queue covers resource name. */
static int tenant_covers(const struct qf_spec_tenant *t, const char *name)
{
	for (size_t j = 0; j < t->nresources; j++)
		if (!strcmp(t->resources[j].name, name))
			return 1;
	return 0;
}

/* A resource some queue covers, and the first tenant (in order) whose does. */
struct coverer {
	const char *name;  /* borrowed from the spec */
	size_t tenant, at; /* at: index in that tenant's resources */
};

static int cmp_coverer_name(const void *a, const void *b)
{
	const struct coverer *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->tenant != y->tenant ? (x->tenant < y->tenant ? -1 : 1)
	                              : (x->at > y->at) - (x->at < y->at);
}

static int cmp_coverer_order(const void *a, const void *b)
{
	const struct coverer *x = a, *y = b;

	return x->tenant != y->tenant ? (x->tenant < y->tenant ? -1 : 1)
	                              : (x->at > y->at) - (x->at < y->at);
}

/*
 * Every covered resource once, with its first coverer, in the order of
 * that tenant and its list; *n_out is their number.  Sorting keeps this
 * n log n: asking each tenant "who covers it first?" for each resource of
 * each other tenant was quadratic in tenants (10,000 tenants: 1.5 s of a
 * 2 s compile, spent twice by diff).
 */
static struct coverer *covered_once(const struct qf_spec *s, size_t *n_out)
{
	struct coverer *v = NULL;
	size_t n = 0, alloc = 0, i, j, w = 0;

	for (i = 0; i < s->ntenants; i++)
		for (j = 0; j < s->tenants[i].nresources; j++) {
			v = qf_grow(v, sizeof(*v), &alloc, n + 1);
			v[n].name = s->tenants[i].resources[j].name;
			v[n].tenant = i;
			v[n++].at = j;
		}
	if (n)
		qsort(v, n, sizeof(*v), cmp_coverer_name);
	for (i = 0; i < n; i++)
		if (!w || strcmp(v[w - 1].name, v[i].name) != 0)
			v[w++] = v[i];
	if (w)
		qsort(v, w, sizeof(*v), cmp_coverer_order);
	*n_out = w;
	return v;
}

/*
 * QF324: a resource some queues cover is counted by Kueue for every
 * workload, so a queue without it admits no Job requesting it.
 */
static void check_coverage(const struct qf_spec *s, struct qf_diags *d)
{
	size_t i, u, nu;
	struct coverer *res = covered_once(s, &nu);

	for (i = 0; i < s->ntenants; i++) {
		const struct qf_spec_tenant *t = &s->tenants[i];

		for (u = 0; u < nu; u++) {
			const char *r = res[u].name;
			const struct qf_spec_tenant *o =
			        &s->tenants[res[u].tenant];

			if (tenant_covers(t, r))
				continue;
			(void)qf_diag_warn(
			        d, &t->name_loc, "QF324", NULL,
			        "tenant \"%s\"'s ClusterQueue does not "
			        "cover %s, which tenant \"%s\"'s does: "
			        "Kueue counts %s for every workload, so "
			        "no Job of \"%s\" that requests it is "
			        "admitted",
			        t->name, r, o->name, r, t->name);
			qf_diag_hint(d,
			             "give \"%s\" a quota per GPU for %s "
			             "in its resourcesPerGpu",
			             t->name, r);
		}
	}
	free(res);
}

int qf_spec_check(struct qf_spec *s, struct qf_diags *d)
{
	int rc = QF_OK;

	if (check_names(s, d) < 0)
		rc = QF_EINVAL;
	if (check_accounts(s, d) < 0)
		rc = QF_EINVAL;
	if (check_flavours(s, d) < 0)
		rc = QF_EINVAL;
	if (check_namespaces(s, d) < 0)
		rc = QF_EINVAL;
	if (!some_unread(s))
		check_reach(s, d);
	check_presets(s, d);
	check_coverage(s, d);
	note_excluded(s, d);
	return rc;
}
