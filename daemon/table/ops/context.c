/*
 * context.c - the front end's window on the store (ops.h).
 */
#include "table/ops/ops.h"
#include "table/reports/reports.h"

#include "store/audit.h"
#include "store/state.h"
#include "store/writer.h"

struct store *
pit_connect(const char *database, const char *synchronous, struct pb_error *err)
{
	struct store_options opt = {0};

	opt.path = database;
	opt.synchronous = synchronous;
	return store_open(&opt, err);
}

void
pit_disconnect(struct store *s)
{
	store_free(s);
}

int
pit_data_state(struct pit *p, struct pit_data_state *out, struct pb_error *err)
{
	struct store_data_state st;

	if (store_data_state(p->store, &st, err) < 0)
		return -1;
	out->data_version = st.data_version;
	out->own_changes = st.own_changes;
	return 0;
}

bool
pit_data_state_equal(const struct pit_data_state *a, const struct pit_data_state *b)
{
	return a->data_version == b->data_version && a->own_changes == b->own_changes;
}

void
pit_writer_stats(struct store_writer *w, struct pit_writer_stats *out)
{
	struct store_writer_stats ws;

	store_writer_stats(w, &ws);
	out->groups = ws.groups;
	out->jobs = ws.jobs;
	out->jobs_failed = ws.jobs_failed;
	out->groups_failed = ws.groups_failed;
	out->largest_group = ws.largest_group;
	out->queued = ws.queued;
}

uint64_t
pit_idempotency_pruned_total(void)
{
	return store_idempotency_pruned_total();
}

int
pit_significant_events(struct pit *p, const struct actor *a, int64_t after, int limit, json_t **out,
    struct pb_error *err)
{
	json_t *list;

	if (authorize(a, OP_AUDIT_READ, NULL, err) < 0)
		return -1;
	list = store_significant_list(p->store, after, limit, err);
	if (list == NULL)
		return -1;
	if (pit_events_round_nos(p, list, err) < 0) {
		json_decref(list);
		return -1;
	}
	*out = json_pack("{s:o}", "events", list);
	return 0;
}
