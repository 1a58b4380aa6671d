/*
 * verify_facts.c - `central verify`'s check of the report facts against the
 * rounds they stand for: while the events are walked in chain order, each
 * round's events are kept until it finishes, the round is rebuilt from them
 * by the table layer's replay (the function pitboss verify uses), its
 * report row made by store_round_hour (the function the facts were made
 * by), and compared with the next fact of its table (the facts of a table,
 * read through a cursor of their own in finishing order, come in the same
 * order as its finished rounds).  Facts behind the events (shipping lag)
 * are not a problem; a fact out of step stops the table's comparison after
 * one problem, so that one gap is not reported a thousand times.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "central/central_int.h"
#include "store/reports.h"
#include "table/rounds/rounds.h"

#define FACTS_FETCH "FETCH 1000 FROM pitboss_facts"

static const char FACTS[] =
    "DECLARE pitboss_facts NO SCROLL CURSOR FOR SELECT round_id, hour, dealer, voided, hands, handle, house_win, lines, "
    "opened_ms, settled_ms, banked_rounds, banked_handle, banked_win, banked_lines, collections FROM pitboss.round_facts "
    "WHERE property = $1 AND table_id = $2 ORDER BY final_event";

struct facts_walk {
	PGconn *c;
	char property[PB_ID_MAX], table[PB_ID_MAX];
	bool open;                       /* the facts cursor is declared for (property, table) */
	bool stopped;                    /* out of step, or out of facts: no more comparing at this table */
	PGresult *facts;
	int next;
	struct event_list round;         /* the events of the table's round under way */
	struct round_record *rec;
	int64_t rounds;                  /* rounds compared */
};

struct facts_walk *
facts_walk_new(PGconn *c, struct pb_error *err)
{
	struct facts_walk *w = calloc(1, sizeof(*w));

	if (w == NULL || (w->rec = malloc(sizeof(*w->rec))) == NULL) {
		free(w);
		pb_oom(err);
		return NULL;
	}
	w->c = c;
	return w;
}

/* Ends the table's walk: its cursor closed, its round forgotten. */
static int
end_table(struct facts_walk *w, struct pb_error *err)
{
	PQclear(w->facts);
	w->facts = NULL;
	w->next = 0;
	w->stopped = false;
	event_list_free(&w->round);
	if (!w->open)
		return 0;
	w->open = false;
	return central_exec(w->c, "CLOSE pitboss_facts", 0, NULL, NULL, err);
}

/* The next fact of the table, or -1 with *row -1 when there is none (yet). */
static int
next_fact(struct facts_walk *w, int *row, struct pb_error *err)
{
	const char *p[2] = {w->property, w->table};

	*row = -1;
	if (!w->open) {
		if (central_exec(w->c, FACTS, 2, p, NULL, err) < 0)
			return -1;
		w->open = true;
	}
	if (w->facts == NULL || w->next >= PQntuples(w->facts)) {
		PQclear(w->facts);
		w->next = 0;
		if (central_exec(w->c, FACTS_FETCH, 0, NULL, &w->facts, err) < 0)
			return -1;
	}
	if (w->next < PQntuples(w->facts))
		*row = w->next++;
	return 0;
}

/* "{1,2,3}" equal to v[0..n). */
static bool
same_array(const char *text, const int64_t *v, int n)
{
	char want[WAGER_COUNT * 24 + 4];
	size_t len = 0;

	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(want + len, sizeof(want) - len, "%c%" PRId64, i == 0 ? '{' : ',', v[i]);
	snprintf(want + len, sizeof(want) - len, "}");
	return strcmp(text, want) == 0;
}

/* The first figure in which fact row i differs from the round's report row, or NULL. */
static const char *
fact_differs(PGresult *f, int i, const struct report_hour *h)
{
#define NUM(col) strtoll(PQgetvalue(f, i, (col)), NULL, 10)
	if (NUM(1) != h->hour || strcmp(PQgetvalue(f, i, 2), h->dealer) != 0)
		return "hour or dealer";
	if ((PQgetvalue(f, i, 3)[0] == 't') != (h->voids == 1) || NUM(4) != h->hands)
		return "void or hands";
	if (!same_array(PQgetvalue(f, i, 5), h->handle, WAGER_COUNT) || !same_array(PQgetvalue(f, i, 6), h->house_win, WAGER_COUNT) ||
	    !same_array(PQgetvalue(f, i, 7), h->lines, WAGER_COUNT))
		return "handle, win or lines";
	if (NUM(8) != h->first_ms || NUM(9) != h->last_ms)
		return "opening or settlement time";
	if (NUM(10) != h->banked_rounds || !same_array(PQgetvalue(f, i, 11), h->banked_handle, WAGER_COUNT) ||
	    !same_array(PQgetvalue(f, i, 12), h->banked_win, WAGER_COUNT) ||
	    !same_array(PQgetvalue(f, i, 13), h->banked_lines, WAGER_COUNT) || NUM(14) != h->collections)
		return "player-banked part or collections";
#undef NUM
	return NULL;
}

/* The round just finished against the table's next fact. */
static int
check_round(struct facts_walk *w, const struct stored_event *last, facts_problem_fn problem, void *arg,
    struct pb_error *err)
{
	struct report_hour h;
	struct pb_error sub;
	const char *what;
	char msg[200], seq[24];
	int row;

	snprintf(seq, sizeof(seq), "%" PRId64, last->table_seq);
	if (audit_round_from_events(&w->round, w->rec, NULL, &sub) < 0 || store_round_hour(w->rec, &h, &sub) < 0) {
		/* An unreadable round is the chain check's to name; one that could not be rebuilt is not checked: a failure. */
		if (pb_is_oom(&sub))
			return pb_oom(err);
		return 0;
	}
	if (next_fact(w, &row, err) < 0)
		return -1;
	if (row < 0) {
		w->stopped = true;     /* the facts are behind the events: shipping lag */
		return 0;
	}
	w->rounds++;
	if (strtoll(PQgetvalue(w->facts, row, 0), NULL, 10) != last->round_id) {
		snprintf(msg, sizeof(msg), "report facts out of step with the rounds: round %" PRId64 " finished here, the next "
		    "fact is round %s (a fact missing, or one added)", last->round_id, PQgetvalue(w->facts, row, 0));
		problem(arg, w->property, w->table, seq, msg);
		w->stopped = true;
	} else if ((what = fact_differs(w->facts, row, &h)) != NULL) {
		snprintf(msg, sizeof(msg), "round %" PRId64 ": its report facts differ from a replay of its events (%s)",
		    last->round_id, what);
		problem(arg, w->property, w->table, seq, msg);
	}
	return 0;
}

/* A copy of an event into the round's list. */
static int
keep_event(struct facts_walk *w, const struct stored_event *e, struct pb_error *err)
{
	struct event_list *l = &w->round;

	if (l->count == l->cap) {
		int cap = l->cap ? l->cap * 2 : 32;
		struct stored_event *n = realloc(l->events, (size_t)cap * sizeof(*n));
		if (n == NULL)
			return pb_oom(err);
		l->events = n;
		l->cap = cap;
	}
	l->events[l->count] = *e;
	if ((l->events[l->count].body = strdup(e->body)) == NULL)
		return pb_oom(err);
	l->count++;
	return 0;
}

int
facts_walk_event(struct facts_walk *w, const char *property, const struct stored_event *e, facts_problem_fn problem,
    void *arg, struct pb_error *err)
{
	const struct event_type *t;
	int step, rc;

	if (strcmp(property, w->property) != 0 || strcmp(e->table_id, w->table) != 0) {
		if (end_table(w, err) < 0)
			return -1;
		snprintf(w->property, sizeof(w->property), "%s", property);
		snprintf(w->table, sizeof(w->table), "%s", e->table_id);
	}
	if (w->stopped || e->round_id <= 0)
		return 0;
	t = event_type_named(e->type);
	step = t != NULL ? t->step : EVENT_NO_STEP;
	if (step == STEP_OPEN)
		event_list_free(&w->round);
	if (keep_event(w, e, err) < 0)
		return -1;
	if (step != STEP_SETTLE && step != STEP_VOID)
		return 0;
	rc = check_round(w, e, problem, arg, err);
	event_list_free(&w->round);
	return rc;
}

int64_t
facts_walk_rounds(const struct facts_walk *w)
{
	return w->rounds;
}

int
facts_walk_free(struct facts_walk *w, struct pb_error *err)
{
	int rc;

	if (w == NULL)
		return 0;
	rc = end_table(w, err);
	free(w->rec);
	free(w);
	return rc;
}
