/*
 * ship_conflict.c - the shipper's report of a fact row on the central
 * server that is not the property's own (docs/central.md, "Conflicts"):
 * each one is logged as an error and recorded as the significant event
 * "central_conflict", once per row while the daemon runs (a row met again
 * at the next connection is not reported twice), and counted for /metrics.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "central/central_int.h"
#include "common/log.h"
#include "store/writer.h"

struct conflict_event {
	const char *property;
	const struct fact_conflict *c;
};

/* Whether the row was reported already; remembers it when not (when there is room). */
static bool
seen_before(struct conflict_log *log, const struct fact_conflict *c)
{
	for (int i = 0; i < log->count; i++)
		if (log->round_id[i] == c->round_id && log->final_event[i] == c->final_event)
			return true;
	if (log->count < CONFLICT_LOG_MAX) {
		log->round_id[log->count] = c->round_id;
		log->final_event[log->count++] = c->final_event;
	}
	return false;
}

static int
record_job(struct store *st, void *arg, struct pb_error *err)
{
	const struct conflict_event *e = arg;
	json_t *detail = json_pack("{s:s,s:I,s:I}", "property", e->property, "central_round", (json_int_t)e->c->round_id,
	    "central_final_event", (json_int_t)e->c->final_event);
	int rc;

	if (detail == NULL)
		return pb_oom(err);
	if (e->c->own_round_id > 0)
		json_object_set_new(detail, "own_round", json_integer(e->c->own_round_id));
	rc = store_significant(st, "pitbossd", "central_conflict", e->c->table_id, detail, err);
	json_decref(detail);
	return rc;
}

void
central_conflicts_record(struct conflict_log *log, struct store_writer *w, const char *property,
    const struct fact_conflict *c, int n, int *fresh, char *last, size_t lastsz)
{
	struct pb_error err;

	*fresh = 0;
	for (int i = 0; i < n; i++) {
		struct conflict_event e = {.property = property, .c = &c[i]};
		if (seen_before(log, &c[i]))
			continue;
		(*fresh)++;
		snprintf(last, lastsz, "round %" PRId64 " of table %s at event %" PRId64 " is not this property's own%s",
		    c[i].round_id, c[i].table_id, c[i].final_event,
		    c[i].own_round_id > 0 ? " (its own fact was not taken)" : " (not taken as the position)");
		log_error("central: conflict: the central server holds a report fact for property %s that it did not "
		    "send: %s", property, last);
		if (store_writer_run(w, record_job, &e, &err) < 0)
			log_error("central: recording the significant event central_conflict: %s", err.message);
	}
}
