/*
 * simulate_run.c - the runner of `pitboss simulate`: dealer terminals that
 * send planned rounds (simulate_plan.c) to a running pitbossd through its
 * public HTTP API (http_client.c).
 *
 * Each selected table is dealt by one worker at a time; K worker threads
 * share the tables, each with its own kept-alive connection.  A round is
 * planned in full first and then reported step by step or as one
 * whole-round request.
 *
 * Every write carries a fresh Idempotency-Key and is sent again, once, with
 * the same key after a transport failure.  Answers the simulator did not
 * intend (any 5xx, a 4xx it did not provoke on purpose) are printed with
 * their error JSON and make the exit status 1.
 */
#include <jansson.h>
#include <pthread.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/simulate.h"
#include "cli/simulate_json.h"
#include "common/timeutil.h"

atomic_int sim_stop_signals;

/* The answer to one API call. */
struct call {
	int status;                     /* 0: no answer (transport failure) */
	json_t *json;                   /* the parsed body, or NULL */
	char code[PB_ERROR_CODE_MAX];   /* error.code of a refusal, or "" */
	char *sent;                     /* the request body as sent, or NULL */
	char *body;                     /* the answer as received, or NULL */
};

/* ---- small helpers ---- */

/* Monotonic seconds. */
double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool
stopping(void)
{
	return atomic_load(&sim_stop_signals) > 0;
}

/* Sleeps until the monotonic time `until`, in short naps; false when asked to stop meanwhile. */
static bool
sleep_until(double until)
{
	for (;;) {
		double left = until - now_seconds();
		struct timespec ts;

		if (stopping())
			return false;
		if (left <= 0)
			return true;
		if (left > 0.1)
			left = 0.1;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
}

/* A fresh Idempotency-Key: 128 random bits in hex. */
static void
idem_key(char out[33])
{
	unsigned char b[16];

	randombytes_buf(b, sizeof(b));
	sodium_bin2hex(out, 33, b, sizeof(b));
}

/* Appends the percent-encoded form of a table id to a path (ids are normally plain). */
void
sim_path_table(char *out, size_t outsz, const char *fmt_before, const char *id, const char *after)
{
	char enc[TABLE_ID_MAX * 3 + 1];
	size_t n = 0;

	for (const char *p = id; *p != '\0' && n + 4 < sizeof(enc); p++) {
		unsigned char ch = (unsigned char)*p;
		if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		    ch == '-' || ch == '_' || ch == '.' || ch == '~')
			enc[n++] = (char)ch;
		else
			n += (size_t)snprintf(enc + n, sizeof(enc) - n, "%%%02X", ch);
	}
	enc[n] = '\0';
	snprintf(out, outsz, "%s%s%s", fmt_before, enc, after);
}

static void
call_free(struct call *c)
{
	json_decref(c->json);
	free(c->sent);
	free(c->body);
	memset(c, 0, sizeof(*c));
}

/*
 * Reports an answer the simulator did not intend: counted always, printed in
 * full (request and answer) for the first SIM_PRINT_MAX.
 */
static void
unexpected(struct worker *w, const struct sim_table *t, const char *method, const char *path,
    const struct call *c, const char *why)
{
	struct sim *s = w->sim;
	unsigned long n;

	pthread_mutex_lock(&s->lock);
	n = ++s->st.unexpected;
	if (n <= SIM_PRINT_MAX) {
		char where[TABLE_ID_MAX + 16] = "";

		if (t != NULL)
			snprintf(where, sizeof(where), "table %s: ", t->id);
		if (c->status != 0)
			fprintf(stderr, "pitboss simulate: %sunexpected %d on %s %s%s%s\n", where, c->status,
			    method, path, why ? ": " : "", why ? why : "");
		else
			fprintf(stderr, "pitboss simulate: %s%s %s failed: %s\n", where, method, path,
			    why ? why : "no answer");
		if (c->sent != NULL)
			fprintf(stderr, "  sent: %.2000s\n", c->sent);
		if (c->body != NULL && c->status != 0)
			fprintf(stderr, "  got:  %.2000s\n", c->body);
		if (n == SIM_PRINT_MAX)
			fprintf(stderr, "pitboss simulate: further unexpected answers are counted, not printed\n");
	}
	pthread_mutex_unlock(&s->lock);
}

/*
 * Sends one API request and reads the answer into out (any status).  Steals
 * body (NULL: no body).  Writes (every method but GET) carry a fresh
 * Idempotency-Key; any request is sent once more, with the same key, after a
 * transport failure.  Returns 0 when an answer arrived, -1 after two
 * transport failures (counted; out->status 0 and out->body the error).
 */
static int
api(struct worker *w, const char *method, const char *path, json_t *body, struct call *out)
{
	struct sim *s = w->sim;
	struct http_response resp;
	struct pb_error err;
	bool write = strcmp(method, "GET") != 0;
	char key[33];
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (body != NULL) {
		out->sent = json_dumps(body, JSON_COMPACT);
		json_decref(body);
		if (out->sent == NULL) {
			out->body = strdup("cannot encode the request body");
			return -1;
		}
	}
	if (write)
		idem_key(key);
	for (int attempt = 0; attempt < 2; attempt++) {
		double t0 = now_seconds();

		rc = http_request(w->http, method, path, out->sent, write ? key : NULL, &resp, &err);
		stat_latency(s, (now_seconds() - t0) * 1000.0);
		if (rc == 0 || !http_error_is_transport(&err) || attempt == 1)
			break;
		pthread_mutex_lock(&s->lock);
		s->st.retries++;
		pthread_mutex_unlock(&s->lock);
	}
	if (rc == -1) {
		char msg[PB_ERROR_MESSAGE_MAX + PB_ERROR_CODE_MAX + 8];

		snprintf(msg, sizeof(msg), "%s: %s", err.code, err.message);
		out->body = strdup(msg);
		pthread_mutex_lock(&s->lock);
		s->st.transport_errors++;
		pthread_mutex_unlock(&s->lock);
		w->transport_failed = true;
		return -1;
	}
	out->status = resp.status;
	out->body = resp.body;
	resp.body = NULL;
	http_response_free(&resp);
	out->json = json_loads(out->body, JSON_DECODE_ANY, NULL);
	if (out->status >= 400) {
		json_t *code = json_object_get(json_object_get(out->json, "error"), "code");

		if (json_is_string(code))
			snprintf(out->code, sizeof(out->code), "%s", json_string_value(code));
		else
			snprintf(out->code, sizeof(out->code), "http_%d", out->status);
		pthread_mutex_lock(&s->lock);
		stat_refusal_locked(s, out->code);
		pthread_mutex_unlock(&s->lock);
	}
	return 0;
}

/*
 * One step that must succeed: sends it, and reports anything but a 2xx as
 * unexpected.  Steals body (as api() does).  Returns 0 on success; on success *answer (when
 * not NULL) receives the parsed answer, owned by the caller.
 */
int
sim_api_ok(struct worker *w, const struct sim_table *t, const char *method, const char *path, json_t *body,
    json_t **answer)
{
	struct call c;
	int rc = -1;

	if (answer != NULL)
		*answer = NULL;
	if (api(w, method, path, body, &c) == -1)
		unexpected(w, t, method, path, &c, c.body);
	else if (c.status < 200 || c.status > 299)
		unexpected(w, t, method, path, &c, NULL);
	else {
		rc = 0;
		if (answer != NULL) {
			*answer = c.json;
			c.json = NULL;
		}
	}
	call_free(&c);
	return rc;
}

/* The object under "round" of an answer (or the answer itself). */
static json_t *
round_of(json_t *answer)
{
	json_t *r = json_object_get(answer, "round");

	return json_is_object(r) ? r : answer;
}

/* Writes a round id (integer or string) from obj["id"] into out; -1 when missing. */
static int
round_id_of(json_t *obj, char out[ROUND_ID_MAX])
{
	json_t *id = json_object_get(obj, "id");

	if (json_is_integer(id))
		snprintf(out, ROUND_ID_MAX, "%lld", (long long)json_integer_value(id));
	else if (json_is_string(id) && json_string_length(id) > 0 && json_string_length(id) < ROUND_ID_MAX)
		snprintf(out, ROUND_ID_MAX, "%s", json_string_value(id));
	else
		return -1;
	return 0;
}

/* True when a 2xx answer names the round's state and it is not "settled". */
static bool
not_settled(json_t *answer)
{
	json_t *state = json_object_get(round_of(answer), "state");

	return json_is_string(state) && strcmp(json_string_value(state), "settled") != 0;
}

/* Reports a 2xx answer to POST path that is not what was asked for (why says how). */
static void
unexpected_answer(struct worker *w, const struct sim_table *t, const char *path, int status, json_t *answer,
    const char *why)
{
	struct call c = {.status = status, .body = json_dumps(answer, JSON_COMPACT)};

	unexpected(w, t, "POST", path, &c, why);
	call_free(&c);
}

/* Reports a 201 to opening a round at t that is not what was asked for. */
static void
opened_wrong(struct worker *w, const struct sim_table *t, json_t *answer, const char *why)
{
	char path[128];

	sim_path_table(path, sizeof(path), "/api/v1/tables/", t->id, "/rounds");
	unexpected_answer(w, t, path, 201, answer, why);
}

/* ---- rounds ---- */

/* Plans a fresh round at table t with the simulator's player model. */
static void
sim_plan_round(struct sim *s, const struct sim_table *t, struct plan *p)
{
	struct plan_policy pol = {s->raise_min, s->opt.misdeal_rate, !atomic_load(&s->void_forbidden)};

	plan_round(&t->game, &pol, &s->rng, p);
}

/*
 * Voids round id with reason.  Returns 0 when the round is void.  A 403
 * means this token may not void: misdeals are then no longer planned (the
 * refusal is still reported, since the simulator meant to void).
 */
static int
void_round(struct worker *w, const struct sim_table *t, const char *id, const char *reason)
{
	struct sim *s = w->sim;
	char path[96];
	struct call c;
	int rc = -1;

	snprintf(path, sizeof(path), "/api/v1/rounds/%s/void", id);
	if (api(w, "POST", path, json_pack("{s:s}", "reason", reason), &c) == -1) {
		unexpected(w, t, "POST", path, &c, c.body);
	} else if (c.status >= 200 && c.status <= 299) {
		rc = 0;
	} else {
		unexpected(w, t, "POST", path, &c, c.status == 403 ? "this token may not void rounds" : NULL);
		if (c.status == 403 && !atomic_exchange(&s->void_forbidden, true))
			fprintf(stderr, "pitboss simulate: misdeals are off from now on: voiding was refused "
			    "(use a token that may void, or --misdeal-rate 0)\n");
	}
	call_free(&c);
	return rc;
}

/*
 * Reports the plan's remaining steps from `from` on, round id being open.
 * A misdeal voids the round before step p->void_at; if voiding is refused the
 * round is played to the end instead.  After a failed step the round is
 * voided so that the table is free for the next one (unless the daemon is
 * unreachable: the next round finds it then, and finishes it).
 */
static enum outcome
run_steps(struct worker *w, struct sim_table *t, struct plan *p, const char *id, enum step from)
{
	int order[MAX_SEATS], n = plan_seat_order(&t->game, p, order);
	char path[128];
	json_t *answer = NULL;
	enum outcome out = OUT_SETTLED;

	for (int step = from; step < ST_DONE; step++) {
		if (step == p->void_at) {
			if (void_round(w, t, id, "misdeal: exposed card") == 0)
				return OUT_VOIDED;
			p->void_at = -1;
		}
		switch (step) {
		case ST_BETS:
			for (int i = 0; i < n; i++) {
				int seat = order[i];
				if (!seat_bet_any(&p->bets[seat]) || p->bet_sent[seat])
					continue;
				snprintf(path, sizeof(path), "/api/v1/rounds/%s/bets/%d", id, seat);
				if (sim_api_ok(w, t, "PUT", path, plan_bet_json(&p->bets[seat]), NULL) == -1)
					goto fail;
				p->bet_sent[seat] = true;
			}
			break;
		case ST_CLOSE:
			snprintf(path, sizeof(path), "/api/v1/rounds/%s/close", id);
			if (sim_api_ok(w, t, "POST", path, NULL, NULL) == -1)
				goto fail;
			break;
		case ST_DEAL:
			snprintf(path, sizeof(path), "/api/v1/rounds/%s/deal", id);
			if (sim_api_ok(w, t, "POST", path, plan_deal_json(&t->game, p, p->dealer_at_deal), NULL) == -1)
				goto fail;
			if (p->dealer_at_deal)
				p->dealer_sent = true;
			break;
		case ST_DECIDE:
			snprintf(path, sizeof(path), "/api/v1/rounds/%s/decisions", id);
			for (int i = 0; i < n; i++) {
				int seat = order[i];
				if (p->bets[seat].ante == 0 || p->decision_sent[seat])
					continue;
				if (sim_api_ok(w, t, "POST", path, json_pack("{s:i,s:s}", "seat", seat, "action",
				    decision_name(p->decisions[seat])), NULL) == -1)
					goto fail;
				p->decision_sent[seat] = true;
			}
			break;
		case ST_REVEAL:
			if (p->dealer_sent)
				break;
			snprintf(path, sizeof(path), "/api/v1/rounds/%s/reveal", id);
			if (sim_api_ok(w, t, "POST", path, json_pack("{s:o}", "dealer", cards_to_json(p->dealer)), NULL) == -1)
				goto fail;
			p->dealer_sent = true;
			break;
		case ST_SETTLE:
			snprintf(path, sizeof(path), "/api/v1/rounds/%s/settle", id);
			if (sim_api_ok(w, t, "POST", path, NULL, &answer) == -1)
				goto fail;
			if (not_settled(answer)) {
				unexpected_answer(w, t, path, 200, answer, "the settled round is not \"settled\"");
				out = OUT_FAILED;
			}
			json_decref(answer);
			break;
		default:
			break;
		}
	}
	return out;
fail:
	/* Unreachable daemon: the round is finished on the next open, from its 409. */
	if (!w->transport_failed)
		(void)void_round(w, t, id, "simulator: abandoned after an unexpected answer");
	return OUT_FAILED;
}

/* True when a person has been assigned as the dealer of a table (its "dealer", as GET /api/v1/tables shows it). */
static bool
person_at_table(json_t *tab)
{
	json_t *d = json_object_get(tab, "dealer");

	return d != NULL && !json_is_null(d);
}

/* True when the round's answer names a person as its dealer: it is a person's round, never the simulator's. */
static bool
person_round(json_t *round)
{
	json_t *d = json_object_get(round, "dealer");

	return json_is_object(d) && json_is_string(json_object_get(d, "id"));
}

/*
 * Looks whether a person deals at table t now (GET /api/v1/tables/{t}): the
 * simulator never deals there, so that no simulated round is recorded under
 * a person, and says so once each time a person takes or leaves the table.
 * Looked before every round, or at most once a second at --rate 0 (a load
 * run).  A failed look answers the last one.
 */
static bool
person_dealing(struct worker *w, struct sim_table *t)
{
	struct sim *s = w->sim;
	json_t *answer = NULL, *tab;
	char path[128];
	double now = now_seconds();
	bool dealing;

	if (s->opt.rate == 0 && now - t->dealer_checked < 1.0)
		return t->person_dealing;
	sim_path_table(path, sizeof(path), "/api/v1/tables/", t->id, "");
	if (sim_api_ok(w, t, "GET", path, NULL, &answer) == -1)
		return t->person_dealing;
	tab = json_object_get(answer, "table");
	dealing = person_at_table(json_is_object(tab) ? tab : answer);
	json_decref(answer);
	if (dealing != t->person_dealing)
		fprintf(stderr, dealing ? "pitboss simulate: table %s: a person deals here; leaving it to him\n"
		    : "pitboss simulate: table %s: no person deals here any more; dealing again\n", t->id);
	t->person_dealing = dealing;
	t->dealer_checked = now;
	return dealing;
}

/*
 * Finishes a round left in progress at table t (found on opening: after a
 * restart, or a round abandoned earlier): reads it back, keeps what the
 * daemon recorded, plans what is missing and plays it to the end.  When the
 * round cannot be continued it is voided.  Returns 0 when the table is free,
 * 1 when the round is a person's (dealt from the dealer's page: left alone).
 */
static int
recover_round(struct worker *w, struct sim_table *t, const char *id)
{
	struct sim *s = w->sim;
	struct plan_policy pol = {s->raise_min, 0, false};
	struct plan p;
	json_t *answer = NULL, *r;
	const char *state;
	char path[96];
	enum step from;
	bool any_bet;
	enum outcome out;
	int rc = -1;

	snprintf(path, sizeof(path), "/api/v1/rounds/%s", id);
	if (sim_api_ok(w, t, "GET", path, NULL, &answer) == -1)
		return -1;
	r = round_of(answer);
	state = json_string_value(json_object_get(r, "state"));
	if (state == NULL)
		goto void_it;
	if (strcmp(state, "settled") == 0 || strcmp(state, "void") == 0) {
		rc = 0;    /* finished meanwhile */
		goto done;
	}
	if (person_round(r)) {
		/* a person's round (the dealer's page): neither continued nor voided here */
		if (!s->opt.quiet)
			fprintf(stderr, "pitboss simulate: table %s: round %s is a person's; leaving it\n", t->id, id);
		rc = 1;
		goto done;
	}
	if (plan_from_round_json(&t->game, r, state, &p, &from, &any_bet) == -1)
		goto void_it;
	plan_resume(&t->game, &pol, &s->rng, &p, from, any_bet);
	if (!s->opt.quiet)
		fprintf(stderr, "pitboss simulate: table %s: continuing round %s left %s\n", t->id, id, state);
	out = run_steps(w, t, &p, id, from);
	rc = out == OUT_SETTLED || out == OUT_VOIDED ? 0 : -1;
	if (rc == 0) {
		pthread_mutex_lock(&s->lock);
		s->st.recovered++;
		pthread_mutex_unlock(&s->lock);
	}
	goto done;
void_it:
	if (!s->opt.quiet)
		fprintf(stderr, "pitboss simulate: table %s: voiding round %s left in progress\n", t->id, id);
	rc = void_round(w, t, id, "simulator: round left in progress could not be continued");
done:
	json_decref(answer);
	return rc;
}

/* What to do after the table refused to open a round with 409 (PERSON: a person deals there now). */
enum open_409 { AGAIN, CLOSED, PERSON, GIVE_UP };

/* Looks at the table after a 409 on opening: finishes a round in progress, or notices a closed table. */
static enum open_409
after_conflict(struct worker *w, struct sim_table *t)
{
	json_t *answer = NULL, *tab, *cur;
	char path[128], id[ROUND_ID_MAX];
	enum open_409 what = GIVE_UP;

	sim_path_table(path, sizeof(path), "/api/v1/tables/", t->id, "");
	if (sim_api_ok(w, t, "GET", path, NULL, &answer) == -1)
		return GIVE_UP;
	tab = json_object_get(answer, "table");
	if (!json_is_object(tab))
		tab = answer;
	cur = json_object_get(tab, "current_round");
	if (json_is_string(json_object_get(tab, "status")) &&
	    strcmp(json_string_value(json_object_get(tab, "status")), "open") != 0)
		what = CLOSED;
	else if (person_at_table(tab)) {
		t->person_dealing = true;
		t->dealer_checked = now_seconds();
		what = PERSON;
	} else if (cur == NULL || json_is_null(cur))
		what = AGAIN;       /* the round ended meanwhile */
	else {
		json_t *wrap = json_pack("{s:O}", "id", cur);
		int rec = round_id_of(wrap, id) == 0 ? recover_round(w, t, id) : -1;
		if (rec == 0)
			what = AGAIN;
		else if (rec == 1)
			what = PERSON;
		json_decref(wrap);
	}
	json_decref(answer);
	return what;
}

/*
 * Opens a round at table t per the plan (body: {} or the banker, or the
 * whole round), coping with what a fresh simulator can meet: a round left in
 * progress (409: finished first), a closed table (409: skipped for now), and
 * on a player-banked table whose history is unknown a rotation refusal (422:
 * the position is passed clockwise and the plan redone).  On success
 * *answer holds the daemon's answer.
 */
static enum outcome
open_round(struct worker *w, struct sim_table *t, struct plan *p, bool whole, json_t **answer)
{
	struct sim *s = w->sim;
	char path[128];
	int tries = 0, rotations = 0;

	*answer = NULL;
	sim_path_table(path, sizeof(path), "/api/v1/tables/", t->id, "/rounds");
	for (;;) {
		json_t *body;
		struct call c;

		if (whole)
			body = plan_whole_json(&t->game, p);
		else if (t->game.player_banked)
			body = json_pack("{s:o}", "banker", plan_banker_json(p));
		else
			body = json_object();
		if (api(w, "POST", path, body, &c) == -1) {
			unexpected(w, t, "POST", path, &c, c.body);
			call_free(&c);
			return OUT_FAILED;
		}
		if (c.status >= 200 && c.status <= 299) {
			*answer = c.json;
			c.json = NULL;
			call_free(&c);
			if (t->game.player_banked) {
				plan_note_banker(&t->game, p->banker);
				t->rotation_known = true;
			}
			return OUT_SETTLED;
		}
		if (c.status == 409 && tries++ < 3) {
			enum open_409 what = after_conflict(w, t);

			call_free(&c);
			if (what == AGAIN)
				continue;
			if (what == CLOSED) {
				if (!s->opt.quiet)
					fprintf(stderr, "pitboss simulate: table %s is closed; trying again later\n", t->id);
				return OUT_SKIPPED;
			}
			if (what == PERSON)
				return OUT_SKIPPED;
			return OUT_FAILED;
		}
		if (c.status == 403 && !t->explicit_choice && t->played <= 1) {
			if (!s->opt.quiet)
				fprintf(stderr, "pitboss simulate: table %s: this token may not deal here (%s); leaving it\n",
				    t->id, c.code);
			call_free(&c);
			return OUT_RETIRED;
		}
		if (c.status == 422 && t->game.player_banked && !t->rotation_known && rotations++ < t->game.seats) {
			/* The daemon knows a rotation we do not: pass the position on. */
			call_free(&c);
			t->game.banker_seat = p->banker;
			t->game.banker_run = t->game.max_consecutive;
			{
				int void_at = p->void_at;
				bool at_deal = p->dealer_at_deal;
				sim_plan_round(s, t, p);
				p->void_at = void_at;
				p->dealer_at_deal = at_deal;
			}
			continue;
		}
		if (c.status == 422 && t->game.player_banked)
			t->rotation_known = false;   /* relearn from the refusals */
		unexpected(w, t, "POST", path, &c, NULL);
		call_free(&c);
		return OUT_FAILED;
	}
}

/* Plays one round at table t in the mode asked for. */
static enum outcome
play_round(struct worker *w, struct sim_table *t)
{
	struct sim *s = w->sim;
	struct plan p;
	json_t *answer = NULL;
	char id[ROUND_ID_MAX];
	enum outcome out;
	bool whole;

	if (person_dealing(w, t))
		return OUT_SKIPPED;
	sim_plan_round(s, t, &p);
	whole = s->opt.mode == MODE_WHOLE || (s->opt.mode == MODE_MIXED && sim_rng_chance(&s->rng, 0.5));
	if (p.void_at >= 0)
		whole = false;      /* a misdeal happens while dealing, step by step */
	out = open_round(w, t, &p, whole, &answer);
	if (out != OUT_SETTLED)
		goto done;
	if (whole) {
		if (not_settled(answer)) {
			opened_wrong(w, t, answer, "the whole round did not come back settled");
			out = OUT_FAILED;
		}
		goto done;
	}
	if (round_id_of(round_of(answer), id) == -1) {
		opened_wrong(w, t, answer, "the answer holds no round id");
		out = OUT_FAILED;
		goto done;
	}
	out = run_steps(w, t, &p, id, ST_BETS);
done:
	json_decref(answer);
	return out;
}

/*
 * Learns a player-banked table's recent bankers from its round history, so
 * that the first round already honours the rotation: the newest rounds'
 * banker seat and how many rounds in a row it banked.  Best effort: when the
 * history says nothing, the table starts unknown.
 */
static void
learn_rotation(struct worker *w, struct sim_table *t)
{
	char path[160], suffix[48];
	json_t *answer = NULL, *rounds;
	int seat = 0, run = 0;
	size_t i;

	snprintf(suffix, sizeof(suffix), "/rounds?limit=%d", t->game.max_consecutive + 1);
	sim_path_table(path, sizeof(path), "/api/v1/tables/", t->id, suffix);
	if (sim_api_ok(w, t, "GET", path, NULL, &answer) == -1)
		return;
	rounds = json_object_get(answer, "rounds");
	if (!json_is_array(rounds))
		goto done;
	for (i = 0; i < json_array_size(rounds); i++) {
		json_t *b = json_object_get(json_object_get(json_array_get(rounds, i), "banker"), "seat");
		int this;

		if (!json_is_integer(b))
			goto done;       /* no banker in the summary: stay unknown */
		this = (int)json_integer_value(b);
		if (seat == 0)
			seat = this;
		if (this != seat)
			break;
		run++;
	}
	t->game.banker_seat = seat;
	t->game.banker_run = run;
	t->rotation_known = true;
done:
	json_decref(answer);
}

/* ---- scheduling ---- */

/* True when table t still has rounds to play; with s->lock held. */
static bool
table_has_work(const struct sim *s, const struct sim_table *t)
{
	return !t->retired && (s->opt.rounds == 0 || t->played < s->opt.rounds);
}

/*
 * Takes the free table whose next round is due first, for the caller alone.
 * Returns NULL when there is nothing left to play or the simulator stops.
 */
static struct sim_table *
claim_table(struct sim *s)
{
	struct sim_table *best = NULL;

	pthread_mutex_lock(&s->lock);
	while (!stopping()) {
		bool work = false;

		best = NULL;
		for (int i = 0; i < s->table_count; i++) {
			struct sim_table *t = &s->tables[i];
			if (!table_has_work(s, t))
				continue;
			work = true;
			if (!t->busy && (best == NULL || t->next_due < best->next_due))
				best = t;
		}
		if (best != NULL) {
			best->busy = true;
			best->played++;
			break;
		}
		if (!work)
			break;
		{
			struct timespec ts;
			pb_deadline_in(CLOCK_REALTIME, 200, &ts);
			pthread_cond_timedwait(&s->changed, &s->lock, &ts);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return best;
}

/* Gives table t back after a round with outcome out, started at `started`. */
static void
release_table(struct sim *s, struct sim_table *t, enum outcome out, double started)
{
	pthread_mutex_lock(&s->lock);
	t->busy = false;
	switch (out) {
	case OUT_SETTLED:
		s->st.settled++;
		t->fail_streak = 0;
		break;
	case OUT_VOIDED:
		s->st.voided++;
		t->fail_streak = 0;
		break;
	case OUT_FAILED:
		s->st.failed++;
		t->fail_streak++;
		break;
	case OUT_SKIPPED:
		t->played--;
		break;
	case OUT_RETIRED:
		t->played--;
		t->retired = true;
		break;
	}
	if (out == OUT_SKIPPED)
		t->next_due = now_seconds() + 2.0;
	else if (s->opt.rate > 0)
		t->next_due = started + 1.0 / s->opt.rate;
	else
		t->next_due = 0;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

/*
 * A dealer terminal: takes the table due first, waits for its time (--rate),
 * plays a round there, gives it back; until no table has rounds left or a
 * stop is asked.  An unreachable daemon slows it down (0.5 s doubling to 5 s).
 */
void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct sim *s = w->sim;
	struct sim_table *t;
	double backoff = 0.5;

	while ((t = claim_table(s)) != NULL) {
		enum outcome out;
		double started;

		if (!sleep_until(t->next_due)) {
			release_table(s, t, OUT_SKIPPED, now_seconds());
			break;
		}
		if (t->game.player_banked && !t->rotation_known && t->game.banker_seat == 0)
			learn_rotation(w, t);
		started = now_seconds();
		w->transport_failed = false;
		out = play_round(w, t);
		if (out == OUT_FAILED && t->fail_streak + 1 >= SIM_DEAD_AFTER && !w->transport_failed) {
			fprintf(stderr, "pitboss simulate: table %s: %d rounds failed in a row; leaving it\n", t->id,
			    SIM_DEAD_AFTER);
			pthread_mutex_lock(&s->lock);
			t->retired = true;
			pthread_mutex_unlock(&s->lock);
		}
		release_table(s, t, out, started);
		/* The daemon is unreachable: wait a little longer each time, up to 5 s. */
		if (out == OUT_FAILED && w->transport_failed) {
			if (!sleep_until(now_seconds() + backoff))
				break;
			backoff = backoff * 2 > 5.0 ? 5.0 : backoff * 2;
		} else
			backoff = 0.5;
	}
	pthread_mutex_lock(&s->lock);
	s->workers_running--;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}
