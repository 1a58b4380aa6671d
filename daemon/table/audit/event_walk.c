/*
 * event_walk.c - verify's one walk over every event of no round, each
 * dispatched to its row's check (event_walk.h).
 */
#include "table/audit/audit.h"

#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"
#include "store/audit.h"
#include "store/store.h"

/*
 * One event: counted under its type, its body parsed once, its row's check
 * called.  A type the registry lacks is the chain walk's to name; a row
 * without a check says why (EVENT_WITH_ROUND, EVENT_NO_ROWS); a body that
 * is not JSON is a problem of the walk.
 */
static int
walk_event(void *ctx, const struct stored_event *e, struct pb_error *err)
{
	struct event_verify *v = ctx;
	const struct event_type *t = event_type_named(e->type);
	json_t *body;
	bool oom;
	int rc;

	if (t == NULL)
		return 0;
	v->seen[event_type_id(t)]++;
	if (t->check == NULL)
		return 0;
	if ((body = json_parse_checked(e->body, &oom)) == NULL)
		return oom ? pb_oom(err) : problem_sink_event(&v->sink, e, err, "a %s event whose body is not JSON", e->type);
	rc = t->check(v, t, e, body, err);
	json_decref(body);
	return rc;
}

/*
 * The walk over every event of no round, then the parts' ends (event_walk.h).
 * The rows the checks rebuild by their rows' apply go into a database in
 * memory of the same schema, closed at the end.
 */
int
event_walk_verify(struct pit *p, json_t *problems, struct pb_error *err)
{
	struct store_options so = {.path = ":memory:"};
	struct event_verify v;
	int rc = -1;

	memset(&v, 0, sizeof(v));
	v.p = p;
	problem_sink_init(&v.sink, problems, EVENT_WALK_PROBLEMS_MAX, "problems of the rows derived from the tables' and "
	    "the players' events (not named)");
	if ((v.rebuilt = store_open(&so, err)) == NULL)
		return -1;
	if (store_table_events(p->store, walk_event, &v, err) < 0)
		goto out;
	if (problem_sink_end(&v.sink, err) < 0 || acct_verify_end(&v, err) < 0 || corrections_verify_end(&v, err) < 0 ||
	    variance_verify_end(&v, err) < 0 || dealer_changes_verify_end(&v, err) < 0 || table_state_verify_end(&v, err) < 0)
		goto out;
	rc = players_verify_end(&v, err);
out:
	store_free(v.rebuilt);
	free(v.tables);
	return rc;
}
