/*
 * ruleids.c - every rule id docs/rules.md documents, as one sorted table,
 * and the near-miss suggestion for a mistyped one.  The ids are never
 * reused; one withdrawn before release (QF321, QF325) is simply absent.
 */
#include "core/ruleids.h"

#include <ctype.h>
#include <string.h>

#include "core/status.h"
#include "core/suggest.h"
#include "core/banned.h"

/* Sorted (qf_ruleids_known searches it); check-rules-doc.sh compares it
 * with docs/rules.md. */
static const char *const ids[] = {
	"QF002", "QF003", "QF004", "QF005", "QF010", "QF011", "QF012", "QF013",
	"QF014", "QF015", "QF016", "QF020", "QF021", "QF022", "QF023", "QF024",
	"QF025", "QF100", "QF101", "QF102", "QF103", "QF104", "QF105", "QF106",
	"QF107", "QF108", "QF109", "QF110", "QF111", "QF112", "QF113", "QF114",
	"QF115", "QF116", "QF117", "QF201", "QF202", "QF203", "QF204", "QF205",
	"QF206", "QF207", "QF208", "QF209", "QF210", "QF211", "QF212", "QF213",
	"QF214", "QF215", "QF216", "QF217", "QF218", "QF219", "QF220", "QF221",
	"QF222", "QF223", "QF224", "QF225", "QF226", "QF227", "QF240", "QF241",
	"QF301", "QF302", "QF303", "QF304", "QF305", "QF306", "QF307", "QF308",
	"QF309", "QF310", "QF311", "QF312", "QF313", "QF314", "QF315", "QF316",
	"QF317", "QF318", "QF319", "QF320", "QF322", "QF323", "QF324", "QF326",
	"QF401", "QF402", "QF403", "QF404", "QF405", "QF406", "QF407", "QF408",
	"QF409", "QF410", "QF411", "QF412", "QF413", "QF414", "QF415", "QF416",
	"QF417", "QF418", "QF419", "QF420", "QF421", "QF422", "QF423", "QF424",
	"QF430", "QF431", "QF432", "QF433", "QF501", "QF510", "QF511", "QF512",
	"QF513", "QF520", "QF521", "QF560", "QF561", "QF562", "QF563", "QF564",
	"QF565", "QF600", "QF601", "QF602", "QF603", "QF604", "QF605", "QF606",
	"QF607", "QF701", "QF702", "QF703", "QF704", "QF705", "QF706", "QF900",
};

int qf_ruleids_well_formed(const char *s)
{
	return strlen(s) == 5 && s[0] == 'Q' && s[1] == 'F' &&
	       isdigit((unsigned char)s[2]) && isdigit((unsigned char)s[3]) &&
	       isdigit((unsigned char)s[4]);
}

static const char *find(const char *id)
{
	size_t lo = 0, hi = QF_ARRAY_SIZE(ids);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(ids[mid], id);

		if (!c)
			return ids[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int qf_ruleids_known(const char *id)
{
	return find(id) != NULL;
}

/* The id w is with two neighbours swapped back (QF361), or NULL. */
static const char *swapped(char *w, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		const char *hit;
		char t = w[i];

		w[i] = w[i + 1];
		w[i + 1] = t;
		hit = find(w);
		w[i + 1] = w[i];
		w[i] = t;
		if (hit)
			return hit;
	}
	return NULL;
}

/* The only id one edit away from w (QF3166, QF31); two or more (QF228 is
 * one from QF227, QF218 and QF208 alike) would be a guess. */
static const char *one_edit(const char *w)
{
	const char *hit = NULL;

	for (size_t i = 0; i < QF_ARRAY_SIZE(ids); i++)
		if (qf_suggest_distance(w, ids[i]) == 1) {
			if (hit)
				return NULL;
			hit = ids[i];
		}
	return hit;
}

const char *qf_ruleids_suggest(const char *s)
{
	char w[8];
	size_t n = strlen(s), i;
	const char *hit = NULL;

	if (n >= sizeof(w) - 1)
		return NULL;
	for (i = 0; i <= n; i++) /* qf316 */
		w[i] = (char)toupper((unsigned char)s[i]);
	if (find(w))
		return find(w);
	hit = swapped(w, n);
	return hit ? hit : one_edit(w);
}

/* The number of an id (QF316 is 316). */
static int num(const char *id)
{
	return (id[2] - '0') * 100 + (id[3] - '0') * 10 + (id[4] - '0');
}

void qf_ruleids_ranges(struct qf_buf *out)
{
	size_t i = 0, n = QF_ARRAY_SIZE(ids);

	while (i < n) {
		size_t j = i;

		while (j + 1 < n && num(ids[j + 1]) == num(ids[j]) + 1)
			j++;
		qf_buf_addf(out, "%s%s", i ? ", " : "", ids[i]);
		if (j > i)
			qf_buf_addf(out, "-%s", ids[j]);
		i = j + 1;
	}
}

const char *const *qf_ruleids_all(size_t *n_out)
{
	*n_out = QF_ARRAY_SIZE(ids);
	return ids;
}
