/*
 * chain.c - walking the chains and checking the checkpoints (they are made
 * by core/checkpoint.c).
 */
#include "common/json_text.h"
#include "store/store.h"
#include "table/audit/audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/round.h"

#define CHAIN_BATCH 5000

const char CHAIN_GENESIS[PB_SHA256_HEX_LEN] =
    "0000000000000000000000000000000000000000000000000000000000000000";

/* The hash an event should carry given its stored prev_hash. */
static void
event_hash_of(const struct stored_event *e, char out[PB_SHA256_HEX_LEN])
{
	store_event_hash_fields(e->prev_hash, e->table_id, e->table_seq, e->round_id, e->type, e->at, e->actor, e->body,
	    strlen(e->body), out);
}

/*
 * The event's type t (NULL: not in the registry, table/core/event_types.h)
 * belongs to the chain it stands in: a type pitboss never records is named,
 * with the table and the event, even when every hash around it was
 * recomputed.  This is the one place verify names an unknown type.  -1 when
 * the problem could not be recorded (out of memory).
 */
static int
check_event_type(const struct stored_event *e, const struct event_type *t, json_t *problems)
{
	const char *wrong;

	if (t == NULL)
		return audit_problem(problems, e->table_id, e->round_id, e->table_seq,
		    "event %lld of table %s has the type \"%.64s\", which is no type of event pitboss records (pitboss "
		    "event-types lists them)", (long long)e->table_seq, e->table_id, e->type);
	if ((wrong = event_chain_mismatch(t, e->table_id, e->round_id)) != NULL)
		return audit_problem(problems, e->table_id, e->round_id, e->table_seq, "event %lld (%s) of table %s: %s",
		    (long long)e->table_seq, e->type, e->table_id, wrong);
	return 0;
}

/* chain_check_event with the event's row already looked up (t, NULL for an unknown type). */
static int
check_event(const struct stored_event *e, const struct event_type *t, bool canonical, json_t *problems,
    struct pb_error *err)
{
	char h[PB_SHA256_HEX_LEN];
	json_t *body;
	char *canon = NULL;
	bool oom = false;
	int rc = 0;

	event_hash_of(e, h);
	if (strcmp(h, e->hash) != 0 && audit_problem(problems, e->table_id, e->round_id, e->table_seq,
	    "event %lld (%s): its hash does not match its content; the event was altered after it was recorded",
	    (long long)e->table_seq, e->type) < 0)
		return pb_oom(err);
	if (!canonical)
		return 0;
	if (check_event_type(e, t, problems) < 0)
		return pb_oom(err);
	body = json_parse_checked(e->body, &oom);
	if (body != NULL)
		canon = canonical_text_why(body, NULL, &oom);
	if (oom)
		rc = pb_oom(err);
	else if ((canon == NULL || strcmp(canon, e->body) != 0) && audit_problem(problems, e->table_id, e->round_id,
	    e->table_seq, "event %lld (%s): its body is not canonical JSON", (long long)e->table_seq, e->type) < 0)
		rc = pb_oom(err);
	free(canon);
	json_decref(body);
	return rc;
}

int
chain_check_event(const struct stored_event *e, bool canonical, json_t *problems, struct pb_error *err)
{
	return check_event(e, canonical ? event_type_named(e->type) : NULL, canonical, problems, err);
}

void
chain_walk_init(struct chain_walk *w, const char *table_id, int64_t from, const char *prev, int64_t to)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->table_id, sizeof(w->table_id), "%s", table_id);
	snprintf(w->prev, sizeof(w->prev), "%s", prev);
	w->next = from;
	w->to = to;
}

int
chain_walk_event(struct chain_walk *w, const struct stored_event *e, json_t *problems, struct pb_error *err)
{
	const struct event_type *t = event_type_named(e->type);

	if (e->table_seq != w->next && audit_problem(problems, w->table_id, e->round_id, e->table_seq,
	    "events %lld to %lld are missing (deleted)", (long long)w->next, (long long)e->table_seq - 1) < 0)
		return pb_oom(err);
	if (strcmp(e->prev_hash, w->prev) != 0 && audit_problem(problems, w->table_id, e->round_id, e->table_seq,
	    "event %lld: its prev_hash does not match the hash of the event before it (an event was deleted, inserted or "
	    "replaced)", (long long)e->table_seq) < 0)
		return pb_oom(err);
	if (check_event(e, t, w->canonical, problems, err) < 0)
		return -1;
	if (t != NULL && t->step == STEP_OPEN)
		w->rounds_opened++;
	memcpy(w->prev, e->hash, sizeof(w->prev));
	w->next = e->table_seq + 1;
	w->walked++;
	if (w->to > 0 && w->next > w->to)
		w->done = true;
	return 0;
}

/* Checks the events of one chunk, in chain order, against what the walk expects next.  -1: out of memory. */
static int
chain_walk_events(struct chain_walk *w, const struct event_list *evs, json_t *problems, struct pb_error *err)
{
	for (int i = 0; i < evs->count; i++)
		if (chain_walk_event(w, &evs->events[i], problems, err) < 0)
			return -1;
	return 0;
}

int
chain_walk_step(struct store *s, struct chain_walk *w, int max, json_t *problems, struct pb_error *err)
{
	struct event_list evs;
	int64_t hi;

	if (w->done)
		return 0;
	if (max < 1)
		max = 1;
	if (w->to > 0 && w->next > w->to) {
		w->done = true;
		return 0;
	}
	hi = w->next + max - 1;
	if (w->to > 0 && hi > w->to)
		hi = w->to;
	if (store_events_range(s, w->table_id, w->next, hi, &evs, err) < 0)
		return -1;
	if (evs.count == 0) {
		/* A gap of a whole chunk or more, or the end: look for anything further on. */
		int64_t head;
		char hh[PB_SHA256_HEX_LEN];

		event_list_free(&evs);
		if (store_chain_head(s, w->table_id, &head, hh, err) < 0)
			return -1;
		if (head < w->next) {
			w->done = true;
			return 0;
		}
		if (audit_problem(problems, w->table_id, 0, w->next, "events %lld to %lld are missing", (long long)w->next,
		    (long long)hi) < 0)
			return pb_oom(err);
		w->next = hi + 1;
	} else {
		int rc = chain_walk_events(w, &evs, problems, err);

		event_list_free(&evs);
		if (rc < 0)
			return -1;
	}
	if (w->to > 0 && w->next > w->to)
		w->done = true;
	return 0;
}

int64_t
chain_walk_all(struct pit *p, const char *table_id, int64_t from, const char *prev_in, bool canonical, json_t *problems,
    int64_t *rounds_seen, struct pb_error *err)
{
	struct chain_walk w;

	chain_walk_init(&w, table_id, from, prev_in, 0);
	w.canonical = canonical;
	while (!w.done)
		if (chain_walk_step(p->store, &w, CHAIN_BATCH, problems, err) < 0)
			return -1;
	if (rounds_seen != NULL)
		*rounds_seen += w.rounds_opened;
	return w.walked;
}

int
chain_check_checkpoint(struct pit *p, const struct checkpoint *c, const char *want_key, json_t *problems,
    struct pb_error *err)
{
	struct event_list evs;
	int rc = 0;

	if (checkpoint_verify_signature(c, NULL) < 0) {
		rc = audit_problem(problems, c->table_id, 0, c->table_seq, "checkpoint %lld (%s at event %lld): the signature "
		    "does not verify", (long long)c->id, c->table_id, (long long)c->table_seq);
	} else if (want_key != NULL && strcmp(want_key, c->public_key) != 0) {
		rc = audit_problem(problems, c->table_id, 0, c->table_seq, "checkpoint %lld: signed by key %.16s..., not the "
		    "expected key %.16s...", (long long)c->id, c->public_key, want_key);
	}
	if (rc < 0)
		return pb_oom(err);
	if (store_events_range(p->store, c->table_id, c->table_seq, c->table_seq, &evs, err) < 0)
		return -1;
	if (evs.count == 0)
		rc = audit_problem(problems, c->table_id, 0, c->table_seq, "checkpoint %lld: event %lld, signed as the chain "
		    "head, is gone (the chain was truncated)", (long long)c->id, (long long)c->table_seq);
	else if (strcmp(evs.events[0].hash, c->head_hash) != 0)
		rc = audit_problem(problems, c->table_id, 0, c->table_seq, "checkpoint %lld: event %lld no longer has the "
		    "signed hash; the chain before the checkpoint was rewritten", (long long)c->id, (long long)c->table_seq);
	event_list_free(&evs);
	return rc < 0 ? pb_oom(err) : 0;
}
