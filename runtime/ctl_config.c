/*
 * ctl_config.c - the Kueue Configuration in force in the controller.
 * Kueue reads its Configuration (fairSharing, resources.transformations
 * and excludeResourcePrefixes, job management...) from a file at start;
 * the controller takes it from --manifests (a bare Configuration or the
 * ConfigMap kueue-manager-config that holds one) or from the policy of
 * a GitOps revision, and keeps it in the database beside the objects, so
 * that a restart enforces what was in force before it, before the first
 * sync, and a revision already applied (not applied again) keeps its
 * Configuration.  It is not served through the API: Kueue has no such
 * resource either.
 */
#include "runtime/ctl_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/jdump.h"
#include "core/banned.h"

/* Its row in the objects table: a resource the API never serves. */
#define CONFIG_RES  "configurations.config.kueue.x-k8s.io"
#define CONFIG_NAME "kueue-configuration"

int ctl_config_is_row(const char *res)
{
	return !strcmp(res, CONFIG_RES);
}

/* Requests again under the new Configuration (its transformations and
 * exclusions), for the workloads the model holds. */
static int resolve_workloads(struct ctl *c, struct qf_diags *d)
{
	int rc = QF_OK;

	for (size_t i = 0; i < c->m.nwl; i++)
		if (qf_model_resolve_wl(&c->m, c->m.wls[i], d) < 0)
			rc = QF_EINVAL;
	return rc;
}

int ctl_config_set(struct ctl *c, const struct qf_doc *doc,
                   const struct qf_loc *at, const json_t *cfg, int persist,
                   struct qf_diags *d)
{
	struct qf_buf text = QF_BUF_INIT;
	int rc;

	if (c->config && json_equal(c->config, cfg))
		return QF_OK;
	rc = qf_model_load_config(&c->m, doc, at, cfg, d);
	if (rc == QF_OK)
		rc = resolve_workloads(c, d);
	if (rc == QF_OK && c->e)
		rc = qf_engine_rebuild(c->e, d);
	if (rc < 0)
		return rc;
	json_decref(c->config);
	c->config = json_deep_copy(cfg);
	c->need_cycle = 1;
	c->queues_dirty = 1;
	if (!persist)
		return QF_OK;
	qf_jdump(&text, cfg);
	rc = qf_store_put(c->store, CONFIG_RES, "", CONFIG_NAME, 0, text.buf,
	                  d);
	qf_buf_release(&text);
	return rc;
}
