/*
 * simulate.c - `pitboss simulate`: dealer terminals that play realistic
 * rounds against a running pitbossd through its public HTTP API.
 *
 * Each selected table is dealt by one worker at a time; K worker threads
 * share the tables, each with its own kept-alive connection.  A round is
 * planned in full first (banker, bets within the table's limits, a deck
 * shuffled by Fisher-Yates from libsodium's CSPRNG, three cards a seat and
 * three for the dealer, play/fold by the Q-6-4 rule, an occasional misdeal)
 * and then reported step by step or as one whole-round request.
 *
 * Every write carries a fresh Idempotency-Key and is sent again, once, with
 * the same key after a transport failure.  Answers the simulator did not
 * intend (any 5xx, a 4xx it did not provoke on purpose) are printed with
 * their error JSON and make the exit status 1.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/http_client.h"
#include "common/error.h"
#include "engine/cards.h"
#include "engine/hand3.h"
#include "engine/settle.h"

#define SIM_MAX_TABLES 64
#define SIM_MAX_CLIENTS 256
#define SIM_MAX_CODES 64
#define SIM_PRINT_MAX 30          /* unexpected answers printed in full */
#define SIM_DEAD_AFTER 5          /* consecutive failed rounds that retire a table */
#define SIM_LAT_BUCKETS 200       /* latency histogram: 20 buckets a decade from 1 us */
#define TABLE_ID_MAX 64
#define ROUND_ID_MAX 32

/* Probabilities of the player model. */
#define P_PAIR_PLUS 0.45
#define P_SIX_CARD 0.20
#define P_PAIR_PLUS_ALONE 0.05
#define P_DEALER_AT_DEAL 0.5
#define P_BANKER_STAYS 0.85
#define P_SEAT_DECLINES 0.20

enum mode { MODE_STEPS, MODE_WHOLE, MODE_MIXED };

/* The steps of a round in step mode; a misdeal voids the round before one of them. */
enum step { ST_OPEN, ST_BETS, ST_CLOSE, ST_DEAL, ST_DECIDE, ST_REVEAL, ST_SETTLE, ST_DONE };

enum outcome {
	OUT_SETTLED,
	OUT_VOIDED,
	OUT_FAILED,
	OUT_SKIPPED,     /* nothing played: table closed, or stopping; not counted */
	OUT_RETIRED      /* the token may not deal here: the table is left alone */
};

struct options {
	const char *url;
	const char *token;
	char *tables;              /* comma-separated ids, or NULL for every open table */
	long rounds;               /* per table; 0 = until stopped */
	double rate;               /* rounds per second per table; 0 = as fast as possible */
	enum mode mode;
	double misdeal_rate;
	int clients;               /* 0 = one per table */
	int timeout_ms;
	bool quiet;
};

struct limit {
	bool offered;
	int64_t min;
	int64_t max;
};

struct sim_table {
	char id[TABLE_ID_MAX];
	int seats;
	bool player_banked;
	int max_consecutive;
	int64_t min_bank;
	int64_t max_bank;
	struct limit ante;
	struct limit pair_plus;
	struct limit six_card;
	bool pair_plus_requires_ante;
	bool explicit_choice;       /* named by --tables */

	/* Scheduling, under sim.lock. */
	bool busy;
	bool retired;
	long played;                /* rounds started, counting the one in progress */
	double next_due;            /* monotonic seconds */
	int fail_streak;

	/* Banker rotation, touched only by the worker holding the table. */
	bool rotation_known;        /* banker_seat/banker_run reflect the daemon's record */
	int banker_seat;            /* last round's banker; 0 = none yet */
	int banker_run;             /* rounds in a row banked by banker_seat */
};

struct refusal {
	char code[PB_ERROR_CODE_MAX];
	unsigned long count;
};

struct stats {
	unsigned long settled;
	unsigned long voided;
	unsigned long failed;
	unsigned long recovered;
	unsigned long requests;
	unsigned long retries;
	unsigned long transport_errors;
	unsigned long unexpected;
	int refusal_count;
	struct refusal refusals[SIM_MAX_CODES];
	unsigned long latency[SIM_LAT_BUCKETS];
	double latency_max_ms;
	double latency_sum_ms;
};

struct sim {
	struct options opt;
	struct sim_table tables[SIM_MAX_TABLES];
	int table_count;
	hand3_value_t raise_min;        /* Q-6-4 */
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct stats st;
	int workers_running;
	atomic_bool void_forbidden;
	double started;
};

struct worker {
	struct sim *sim;
	struct http_client *http;
	pthread_t thread;
	bool transport_failed;          /* the last round failed for want of a connection */
};

/* A planned (or recovered) round, complete before the first request. */
struct plan {
	int banker;                             /* player-banked: the banker's seat */
	int64_t bank;
	struct seat_bet bets[MAX_SEATS + 1];
	bool bet_sent[MAX_SEATS + 1];           /* recovery: already recorded by the daemon */
	card_t hands[MAX_SEATS + 1][3];
	bool hand_sent[MAX_SEATS + 1];
	card_t dealer[3];
	bool dealer_sent;
	bool dealer_at_deal;
	enum decision decisions[MAX_SEATS + 1];
	bool decision_sent[MAX_SEATS + 1];
	int void_at;                            /* the step a misdeal voids before; -1 none */
};

/* The answer to one API call. */
struct call {
	int status;                     /* 0: no answer (transport failure) */
	json_t *json;                   /* the parsed body, or NULL */
	char code[PB_ERROR_CODE_MAX];   /* error.code of a refusal, or "" */
	char *sent;                     /* the request body as sent, or NULL */
	char *body;                     /* the answer as received, or NULL */
};

static atomic_int stop_signals;

/* ---- small helpers ---- */

static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool
stopping(void)
{
	return atomic_load(&stop_signals) > 0;
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

/* A uniform integer in [0, n) from the CSPRNG; n <= UINT32_MAX. */
static uint32_t
rnd(uint32_t n)
{
	return n <= 1 ? 0 : randombytes_uniform(n);
}

/* True with probability p. */
static bool
chance(double p)
{
	if (p <= 0)
		return false;
	if (p >= 1)
		return true;
	return (double)randombytes_uniform(1000000000u) < p * 1e9;
}

/* A uniform amount in [lo, hi] on a 100-cent grid (lo and hi multiples of 100). */
static int64_t
rnd_hundreds(int64_t lo, int64_t hi)
{
	int64_t steps = (hi - lo) / 100;

	if (steps <= 0)
		return lo;
	if (steps >= (int64_t)UINT32_MAX)
		steps = UINT32_MAX - 1;
	return lo + 100 * (int64_t)rnd((uint32_t)steps + 1);
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
static void
path_table(char *out, size_t outsz, const char *fmt_before, const char *id, const char *after)
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

/* ---- statistics and reports ---- */

/* Counts one request and files its latency in the log-scale histogram. */
static void
stat_latency(struct sim *s, double ms)
{
	double us = ms * 1000.0;
	int b = us < 1.0 ? 0 : (int)(log10(us) * 20.0);

	if (b >= SIM_LAT_BUCKETS)
		b = SIM_LAT_BUCKETS - 1;
	pthread_mutex_lock(&s->lock);
	s->st.requests++;
	s->st.latency[b]++;
	s->st.latency_sum_ms += ms;
	if (ms > s->st.latency_max_ms)
		s->st.latency_max_ms = ms;
	pthread_mutex_unlock(&s->lock);
}

/* The latency (ms) below which a fraction q of the requests fell: the upper edge of its bucket. */
static double
latency_quantile(const struct stats *st, double q)
{
	unsigned long total = 0, seen = 0;

	for (int i = 0; i < SIM_LAT_BUCKETS; i++)
		total += st->latency[i];
	if (total == 0)
		return 0;
	for (int i = 0; i < SIM_LAT_BUCKETS; i++) {
		seen += st->latency[i];
		if ((double)seen >= q * (double)total) {
			double edge = pow(10.0, (double)(i + 1) / 20.0) / 1000.0;
			return edge < st->latency_max_ms ? edge : st->latency_max_ms;
		}
	}
	return st->latency_max_ms;
}

/* Counts a refusal (4xx) or server error (5xx) by its error code; called with s->lock held. */
static void
stat_refusal_locked(struct sim *s, const char *code)
{
	struct stats *st = &s->st;
	int i;

	for (i = 0; i < st->refusal_count; i++)
		if (strcmp(st->refusals[i].code, code) == 0)
			break;
	if (i == st->refusal_count) {
		if (st->refusal_count == SIM_MAX_CODES)
			i = SIM_MAX_CODES - 1;    /* the last slot collects the overflow */
		else
			st->refusal_count++;
		snprintf(st->refusals[i].code, sizeof(st->refusals[i].code), "%s", code);
	}
	st->refusals[i].count++;
}

/* Writes "code=n code=n" (or "none") into out. */
static void
format_refusals(const struct stats *st, char *out, size_t outsz)
{
	size_t n = 0;

	out[0] = '\0';
	for (int i = 0; i < st->refusal_count && n + 1 < outsz; i++)
		n += (size_t)snprintf(out + n, outsz - n, "%s%s=%lu", i ? " " : "", st->refusals[i].code,
		    st->refusals[i].count);
	if (st->refusal_count == 0)
		snprintf(out, outsz, "none");
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
static int
api_ok(struct worker *w, const struct sim_table *t, const char *method, const char *path, json_t *body,
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

/* ---- the player model ---- */

/* A bet within a limit: mostly a few times the minimum, sometimes anything up to the maximum. */
static int64_t
bet_amount(const struct limit *l)
{
	int64_t lo = (l->min + 99) / 100 * 100, hi = l->max / 100 * 100, amt;

	if (lo < 100)
		lo = 100;
	if (lo > hi)
		return l->min;      /* limits off the 100-cent grid: the minimum is always good */
	if (chance(0.7))
		amt = lo * (int64_t)(1 + rnd(4));
	else
		amt = rnd_hundreds(lo, hi);
	return amt > hi ? hi : amt;
}

/* The table's bank stake: between the minimum and the maximum (10x the minimum when open-ended). */
static int64_t
bank_amount(const struct sim_table *t)
{
	int64_t lo = (t->min_bank + 99) / 100 * 100, hi;

	hi = t->max_bank > 0 ? t->max_bank : (t->min_bank > 0 ? t->min_bank * 10 : 100000);
	hi = hi / 100 * 100;
	if (lo < 100)
		lo = 100;
	if (lo > hi)
		return t->min_bank > 0 ? t->min_bank : lo;
	return rnd_hundreds(lo, hi);
}

/* The seat after seat s, clockwise. */
static int
next_seat(const struct sim_table *t, int s)
{
	return s % t->seats + 1;
}

/*
 * Chooses this round's banker by the rotation rule: the seat that banked
 * last keeps the bank (most of the time) until it has banked
 * max_consecutive rounds in a row; then the position passes clockwise, and a
 * seat that declines passes it on.  The current banker never gets a round
 * beyond max_consecutive.
 */
static int
choose_banker(const struct sim_table *t)
{
	int cur = t->banker_seat, cand;

	if (cur == 0)
		return 1 + (int)rnd((uint32_t)t->seats);
	if (t->banker_run < t->max_consecutive && chance(P_BANKER_STAYS))
		return cur;
	cand = next_seat(t, cur);
	for (int hops = 1; hops < t->seats - 1; hops++) {
		if (!chance(P_SEAT_DECLINES))
			break;
		cand = next_seat(t, cand);
	}
	return cand;
}

/* The order seats act and are paid in: from the dealer's left, or from the seat after the banker. */
static int
seat_order(const struct sim_table *t, const struct plan *p, int order[MAX_SEATS])
{
	int n = 0, first = t->player_banked ? next_seat(t, p->banker) : 1;

	for (int i = 0, s = first; i < t->seats; i++, s = next_seat(t, s))
		if (!t->player_banked || s != p->banker)
			order[n++] = s;
	return n;
}

/* A properly shuffled deck: Fisher-Yates driven by the CSPRNG. */
static void
shuffle_deck(card_t deck[CARD_COUNT])
{
	for (int i = 0; i < CARD_COUNT; i++)
		deck[i] = (card_t)i;
	for (int i = CARD_COUNT - 1; i > 0; i--) {
		int j = (int)rnd((uint32_t)i + 1);
		card_t tmp = deck[i];
		deck[i] = deck[j];
		deck[j] = tmp;
	}
}

/* Chooses one seat's wagers; false when the seat could not bet at this table. */
static bool
plan_seat_bet(const struct sim_table *t, struct seat_bet *b)
{
	bool can_alone = !t->pair_plus_requires_ante && (t->pair_plus.offered || t->six_card.offered);

	memset(b, 0, sizeof(*b));
	if (t->ante.offered && !(can_alone && chance(P_PAIR_PLUS_ALONE))) {
		b->ante = bet_amount(&t->ante);
		if (t->pair_plus.offered && chance(P_PAIR_PLUS))
			b->pair_plus = bet_amount(&t->pair_plus);
		if (t->six_card.offered && chance(P_SIX_CARD))
			b->six_card = bet_amount(&t->six_card);
		return true;
	}
	if (!can_alone)
		return false;
	/* A side bet alone, where the game allows it. */
	if (t->pair_plus.offered && (!t->six_card.offered || chance(0.8)))
		b->pair_plus = bet_amount(&t->pair_plus);
	if (t->six_card.offered && (b->pair_plus == 0 || chance(0.3)))
		b->six_card = bet_amount(&t->six_card);
	return true;
}

/*
 * Deals from a shuffled deck the cards the plan still lacks (skipping cards
 * already dealt), and decides play/fold by the Q-6-4 rule for every Ante
 * seat without a decision.
 */
static void
plan_cards(const struct sim *s, struct plan *p)
{
	card_set_t used = 0;
	card_t deck[CARD_COUNT];
	int next = 0;

	for (int seat = 1; seat <= MAX_SEATS; seat++)
		if (p->hand_sent[seat])
			for (int i = 0; i < 3; i++)
				used = card_set_add(used, p->hands[seat][i]);
	if (p->dealer_sent)
		for (int i = 0; i < 3; i++)
			used = card_set_add(used, p->dealer[i]);
	shuffle_deck(deck);
	for (int seat = 1; seat <= MAX_SEATS; seat++) {
		if (!seat_bet_any(&p->bets[seat]) || p->hand_sent[seat])
			continue;
		for (int i = 0; i < 3; i++) {
			while (card_set_has(used, deck[next]))
				next++;
			p->hands[seat][i] = deck[next];
			used = card_set_add(used, deck[next++]);
		}
	}
	if (!p->dealer_sent)
		for (int i = 0; i < 3; i++) {
			while (card_set_has(used, deck[next]))
				next++;
			p->dealer[i] = deck[next];
			used = card_set_add(used, deck[next++]);
		}
	for (int seat = 1; seat <= MAX_SEATS; seat++)
		if (p->bets[seat].ante > 0 && !p->decision_sent[seat])
			p->decisions[seat] = hand3_value(p->hands[seat]) >= s->raise_min ? DECISION_PLAY : DECISION_FOLD;
}

/* Places bets on a random number of the free seats (at least one). */
static void
plan_bets(const struct sim_table *t, struct plan *p)
{
	int free_seats[MAX_SEATS], nfree = 0, want;

	for (int s = 1; s <= t->seats; s++)
		if (!t->player_banked || s != p->banker)
			free_seats[nfree++] = s;
	for (int i = nfree - 1; i > 0; i--) {
		int j = (int)rnd((uint32_t)i + 1), tmp = free_seats[i];
		free_seats[i] = free_seats[j];
		free_seats[j] = tmp;
	}
	want = 1 + (int)rnd((uint32_t)nfree);
	for (int i = 0; i < want; i++)
		plan_seat_bet(t, &p->bets[free_seats[i]]);
}

/* Plans a whole fresh round at table t. */
static void
plan_round(struct sim *s, const struct sim_table *t, struct plan *p)
{
	memset(p, 0, sizeof(*p));
	p->void_at = -1;
	if (t->player_banked) {
		p->banker = choose_banker(t);
		p->bank = bank_amount(t);
	}
	plan_bets(t, p);
	plan_cards(s, p);
	p->dealer_at_deal = chance(P_DEALER_AT_DEAL);
	if (!atomic_load(&s->void_forbidden) && chance(s->opt.misdeal_rate))
		p->void_at = ST_BETS + (int)rnd(ST_SETTLE - ST_BETS + 1);
}

/* ---- JSON of the plan ---- */

static json_t *
bet_json(const struct seat_bet *b)
{
	json_t *o = json_object();

	if (b->ante > 0)
		json_object_set_new(o, "ante", json_integer(b->ante));
	if (b->pair_plus > 0)
		json_object_set_new(o, "pair_plus", json_integer(b->pair_plus));
	if (b->six_card > 0)
		json_object_set_new(o, "six_card", json_integer(b->six_card));
	return o;
}

static json_t *
cards_json(const card_t c[3])
{
	json_t *a = json_array();
	char text[3];

	for (int i = 0; i < 3; i++) {
		card_format(c[i], text);
		json_array_append_new(a, json_string(text));
	}
	return a;
}

static json_t *
banker_json(const struct plan *p)
{
	return json_pack("{s:i,s:I}", "seat", p->banker, "bank", (json_int_t)p->bank);
}

/* {"hands": {...}} for the seats not dealt yet, with "dealer" when given at the deal. */
static json_t *
deal_json(const struct sim_table *t, const struct plan *p, bool with_dealer)
{
	json_t *hands = json_object(), *o;
	char key[8];

	for (int seat = 1; seat <= t->seats; seat++)
		if (seat_bet_any(&p->bets[seat]) && !p->hand_sent[seat]) {
			snprintf(key, sizeof(key), "%d", seat);
			json_object_set_new(hands, key, cards_json(p->hands[seat]));
		}
	o = json_pack("{s:o}", "hands", hands);
	if (with_dealer)
		json_object_set_new(o, "dealer", cards_json(p->dealer));
	return o;
}

/* The body of a whole round in one request. */
static json_t *
whole_json(const struct sim_table *t, const struct plan *p)
{
	json_t *o = deal_json(t, p, true), *bets = json_object(), *dec = json_object();
	int order[MAX_SEATS], n = seat_order(t, p, order);
	char key[8];

	for (int i = 0; i < n; i++) {
		int seat = order[i];
		if (!seat_bet_any(&p->bets[seat]))
			continue;
		snprintf(key, sizeof(key), "%d", seat);
		json_object_set_new(bets, key, bet_json(&p->bets[seat]));
		if (p->bets[seat].ante > 0)
			json_object_set_new(dec, key, json_string(decision_name(p->decisions[seat])));
	}
	json_object_set_new(o, "bets", bets);
	json_object_set_new(o, "decisions", dec);
	if (t->player_banked)
		json_object_set_new(o, "banker", banker_json(p));
	return o;
}

/* ---- rounds ---- */

/* Records that a round opened with banker seat at table t (void rounds count too: passing early is always allowed). */
static void
note_banker(struct sim_table *t, int seat)
{
	if (seat <= 0)
		return;
	if (seat == t->banker_seat)
		t->banker_run++;
	else {
		t->banker_seat = seat;
		t->banker_run = 1;
	}
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
	int order[MAX_SEATS], n = seat_order(t, p, order);
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
				if (api_ok(w, t, "PUT", path, bet_json(&p->bets[seat]), NULL) == -1)
					goto fail;
				p->bet_sent[seat] = true;
			}
			break;
		case ST_CLOSE:
			snprintf(path, sizeof(path), "/api/v1/rounds/%s/close", id);
			if (api_ok(w, t, "POST", path, NULL, NULL) == -1)
				goto fail;
			break;
		case ST_DEAL:
			snprintf(path, sizeof(path), "/api/v1/rounds/%s/deal", id);
			if (api_ok(w, t, "POST", path, deal_json(t, p, p->dealer_at_deal), NULL) == -1)
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
				if (api_ok(w, t, "POST", path, json_pack("{s:i,s:s}", "seat", seat, "action",
				    decision_name(p->decisions[seat])), NULL) == -1)
					goto fail;
				p->decision_sent[seat] = true;
			}
			break;
		case ST_REVEAL:
			if (p->dealer_sent)
				break;
			snprintf(path, sizeof(path), "/api/v1/rounds/%s/reveal", id);
			if (api_ok(w, t, "POST", path, json_pack("{s:o}", "dealer", cards_json(p->dealer)), NULL) == -1)
				goto fail;
			p->dealer_sent = true;
			break;
		case ST_SETTLE:
			snprintf(path, sizeof(path), "/api/v1/rounds/%s/settle", id);
			if (api_ok(w, t, "POST", path, NULL, &answer) == -1)
				goto fail;
			{
				json_t *state = json_object_get(round_of(answer), "state");
				if (json_is_string(state) && strcmp(json_string_value(state), "settled") != 0) {
					struct call c = {.status = 200, .body = json_dumps(answer, JSON_COMPACT)};
					unexpected(w, t, "POST", path, &c, "the settled round is not \"settled\"");
					call_free(&c);
					out = OUT_FAILED;
				}
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

/* Reads a seat key "1".."8" of the round's JSON; 0 when it is not one. */
static int
seat_key(const char *k, int seats)
{
	char *end;
	long v = strtol(k, &end, 10);

	return (*end == '\0' && v >= 1 && v <= seats) ? (int)v : 0;
}

/* Reads three cards from a JSON array, or from {"cards": [...]}; -1 when absent or bad. */
static int
answer_cards(json_t *v, card_t out[3])
{
	if (json_is_object(v))
		v = json_object_get(v, "cards");
	return cards_from_json(v, out);
}

/*
 * Finishes a round left in progress at table t (found on opening: after a
 * restart, or a round abandoned earlier): reads it back, keeps what the
 * daemon recorded, plans what is missing and plays it to the end.  When the
 * round cannot be continued it is voided.  Returns 0 when the table is free.
 */
static int
recover_round(struct worker *w, struct sim_table *t, const char *id)
{
	struct sim *s = w->sim;
	struct plan p;
	json_t *answer = NULL, *r, *v, *obj;
	const char *state, *k;
	char path[96];
	enum step from;
	bool any_bet = false;
	enum outcome out;
	int rc = -1;

	snprintf(path, sizeof(path), "/api/v1/rounds/%s", id);
	if (api_ok(w, t, "GET", path, NULL, &answer) == -1)
		return -1;
	r = round_of(answer);
	state = json_string_value(json_object_get(r, "state"));
	if (state == NULL)
		goto void_it;
	if (strcmp(state, "settled") == 0 || strcmp(state, "void") == 0) {
		rc = 0;    /* finished meanwhile */
		goto done;
	}
	memset(&p, 0, sizeof(p));
	p.void_at = -1;
	if (t->player_banked) {
		v = json_object_get(json_object_get(r, "banker"), "seat");
		if (!json_is_integer(v) || (p.banker = (int)json_integer_value(v)) < 1 || p.banker > t->seats)
			goto void_it;
		note_banker(t, p.banker);
	}
	obj = json_object_get(r, "bets");
	json_object_foreach(obj, k, v) {
		int seat = seat_key(k, t->seats);
		if (seat == 0)
			goto void_it;
		p.bets[seat].ante = json_integer_value(json_object_get(v, "ante"));
		p.bets[seat].pair_plus = json_integer_value(json_object_get(v, "pair_plus"));
		p.bets[seat].six_card = json_integer_value(json_object_get(v, "six_card"));
		p.bet_sent[seat] = true;
		any_bet = any_bet || seat_bet_any(&p.bets[seat]);
	}
	obj = json_object_get(r, "hands");
	json_object_foreach(obj, k, v) {
		int seat = seat_key(k, t->seats);
		if (seat == 0 || answer_cards(v, p.hands[seat]) == -1)
			goto void_it;
		p.hand_sent[seat] = true;
	}
	if ((v = json_object_get(r, "dealer")) != NULL && !json_is_null(v)) {
		if (answer_cards(v, p.dealer) == -1)
			goto void_it;
		p.dealer_sent = true;
	}
	obj = json_object_get(r, "decisions");
	json_object_foreach(obj, k, v) {
		int seat = seat_key(k, t->seats), d;
		if (seat == 0 || !json_is_string(v) || (d = decision_from_name(json_string_value(v))) < 0)
			goto void_it;
		p.decisions[seat] = (enum decision)d;
		p.decision_sent[seat] = true;
	}
	if (strcmp(state, "betting") == 0) {
		from = ST_BETS;
		if (!any_bet)
			plan_bets(t, &p);
	} else if (strcmp(state, "closed") == 0)
		from = ST_DEAL;
	else if (strcmp(state, "dealt") == 0)
		from = ST_DECIDE;
	else if (strcmp(state, "revealed") == 0)
		from = ST_SETTLE;
	else
		goto void_it;
	plan_cards(s, &p);
	p.dealer_at_deal = !p.dealer_sent && from <= ST_DEAL;
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

/* What to do after the table refused to open a round with 409. */
enum open_409 { AGAIN, CLOSED, GIVE_UP };

/* Looks at the table after a 409 on opening: finishes a round in progress, or notices a closed table. */
static enum open_409
after_conflict(struct worker *w, struct sim_table *t)
{
	json_t *answer = NULL, *tab, *cur;
	char path[128], id[ROUND_ID_MAX];
	enum open_409 what = GIVE_UP;

	path_table(path, sizeof(path), "/api/v1/tables/", t->id, "");
	if (api_ok(w, t, "GET", path, NULL, &answer) == -1)
		return GIVE_UP;
	tab = json_object_get(answer, "table");
	if (!json_is_object(tab))
		tab = answer;
	cur = json_object_get(tab, "current_round");
	if (json_is_string(json_object_get(tab, "status")) &&
	    strcmp(json_string_value(json_object_get(tab, "status")), "open") != 0)
		what = CLOSED;
	else if (cur == NULL || json_is_null(cur))
		what = AGAIN;       /* the round ended meanwhile */
	else {
		json_t *wrap = json_pack("{s:O}", "id", cur);
		if (round_id_of(wrap, id) == 0 && recover_round(w, t, id) == 0)
			what = AGAIN;
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
	path_table(path, sizeof(path), "/api/v1/tables/", t->id, "/rounds");
	for (;;) {
		json_t *body;
		struct call c;

		if (whole)
			body = whole_json(t, p);
		else if (t->player_banked)
			body = json_pack("{s:o}", "banker", banker_json(p));
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
			if (t->player_banked) {
				note_banker(t, p->banker);
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
			return OUT_FAILED;
		}
		if (c.status == 403 && !t->explicit_choice && t->played <= 1) {
			if (!s->opt.quiet)
				fprintf(stderr, "pitboss simulate: table %s: this token may not deal here (%s); leaving it\n",
				    t->id, c.code);
			call_free(&c);
			return OUT_RETIRED;
		}
		if (c.status == 422 && t->player_banked && !t->rotation_known && rotations++ < t->seats) {
			/* The daemon knows a rotation we do not: pass the position on. */
			call_free(&c);
			t->banker_seat = p->banker;
			t->banker_run = t->max_consecutive;
			{
				int void_at = p->void_at;
				bool at_deal = p->dealer_at_deal;
				plan_round(s, t, p);
				p->void_at = void_at;
				p->dealer_at_deal = at_deal;
			}
			continue;
		}
		if (c.status == 422 && t->player_banked)
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

	plan_round(s, t, &p);
	whole = s->opt.mode == MODE_WHOLE || (s->opt.mode == MODE_MIXED && chance(0.5));
	if (p.void_at >= 0)
		whole = false;      /* a misdeal happens while dealing, step by step */
	out = open_round(w, t, &p, whole, &answer);
	if (out != OUT_SETTLED)
		goto done;
	if (whole) {
		json_t *state = json_object_get(round_of(answer), "state");
		if (json_is_string(state) && strcmp(json_string_value(state), "settled") != 0) {
			char path[128];
			struct call c = {.status = 201, .body = json_dumps(answer, JSON_COMPACT)};

			path_table(path, sizeof(path), "/api/v1/tables/", t->id, "/rounds");
			unexpected(w, t, "POST", path, &c, "the whole round did not come back settled");
			call_free(&c);
			out = OUT_FAILED;
		}
		goto done;
	}
	if (round_id_of(round_of(answer), id) == -1) {
		char path[128];
		struct call c = {.status = 201, .body = json_dumps(answer, JSON_COMPACT)};

		path_table(path, sizeof(path), "/api/v1/tables/", t->id, "/rounds");
		unexpected(w, t, "POST", path, &c, "the answer holds no round id");
		call_free(&c);
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

	snprintf(suffix, sizeof(suffix), "/rounds?limit=%d", t->max_consecutive + 1);
	path_table(path, sizeof(path), "/api/v1/tables/", t->id, suffix);
	if (api_ok(w, t, "GET", path, NULL, &answer) == -1)
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
	t->banker_seat = seat;
	t->banker_run = run;
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
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 200 * 1000000L;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
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
static void *
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
		if (t->player_banked && !t->rotation_known && t->banker_seat == 0)
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

/* ---- setup: options and tables ---- */

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: pitboss simulate --url URL --token TOKEN [--tables T1,T2] [--rounds N]\n"
	    "                        [--rate R] [--mode steps|whole|mixed] [--misdeal-rate P]\n"
	    "                        [--clients K] [--timeout MS] [--quiet]\n"
	    "  --url URL          pitbossd's base URL (default $PITBOSS_URL or http://127.0.0.1:8080)\n"
	    "  --token TOKEN      a dealer token for the tables (default $PITBOSS_TOKEN)\n"
	    "  --tables LIST      tables to deal at, comma-separated (default: every open table)\n"
	    "  --rounds N         rounds per table, then stop (default 0: until interrupted)\n"
	    "  --rate R           rounds per second per table (default 1; 0: as fast as possible)\n"
	    "  --mode M           steps, whole (one request a round) or mixed (default mixed)\n"
	    "  --misdeal-rate P   share of rounds voided as misdeals (default 0.01)\n"
	    "  --clients K        parallel connections/threads (default: one per table)\n"
	    "  --timeout MS       network timeout per request (default 10000)\n"
	    "  --quiet            no progress lines, only the final summary\n");
}

static int
parse_long(const char *opt, const char *v, long lo, long hi, long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0' || n < lo || n > hi) {
		fprintf(stderr, "pitboss simulate: %s: expected a whole number %ld..%ld, got \"%s\"\n", opt, lo, hi, v);
		return -1;
	}
	*out = n;
	return 0;
}

static int
parse_double(const char *opt, const char *v, double lo, double hi, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno != 0 || end == v || *end != '\0' || !isfinite(d) || d < lo || d > hi) {
		fprintf(stderr, "pitboss simulate: %s: expected a number %g..%g, got \"%s\"\n", opt, lo, hi, v);
		return -1;
	}
	*out = d;
	return 0;
}

/* Reads the options; returns 0, 1 for --help, -1 on a usage error (printed). */
static int
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option LONG[] = {
		{"url", required_argument, NULL, 'u'},
		{"token", required_argument, NULL, 't'},
		{"tables", required_argument, NULL, 'T'},
		{"rounds", required_argument, NULL, 'n'},
		{"rate", required_argument, NULL, 'r'},
		{"mode", required_argument, NULL, 'm'},
		{"misdeal-rate", required_argument, NULL, 'd'},
		{"clients", required_argument, NULL, 'k'},
		{"timeout", required_argument, NULL, 'w'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	long n;
	int ch;

	memset(o, 0, sizeof(*o));
	o->url = getenv("PITBOSS_URL") ? getenv("PITBOSS_URL") : "http://127.0.0.1:8080";
	o->token = getenv("PITBOSS_TOKEN");
	o->rate = 1.0;
	o->mode = MODE_MIXED;
	o->misdeal_rate = 0.01;
	o->timeout_ms = HTTP_CLIENT_DEFAULT_TIMEOUT_MS;
	optind = 1;
	opterr = 1;
	while ((ch = getopt_long(argc, argv, "qh", LONG, NULL)) != -1) {
		switch (ch) {
		case 'u':
			o->url = optarg;
			break;
		case 't':
			o->token = optarg;
			break;
		case 'T':
			o->tables = optarg;
			break;
		case 'n':
			if (parse_long("--rounds", optarg, 0, LONG_MAX / 2, &o->rounds) == -1)
				return -1;
			break;
		case 'r':
			if (parse_double("--rate", optarg, 0, 1e6, &o->rate) == -1)
				return -1;
			break;
		case 'm':
			if (strcmp(optarg, "steps") == 0)
				o->mode = MODE_STEPS;
			else if (strcmp(optarg, "whole") == 0)
				o->mode = MODE_WHOLE;
			else if (strcmp(optarg, "mixed") == 0)
				o->mode = MODE_MIXED;
			else {
				fprintf(stderr, "pitboss simulate: --mode: steps, whole or mixed, not \"%s\"\n", optarg);
				return -1;
			}
			break;
		case 'd':
			if (parse_double("--misdeal-rate", optarg, 0, 1, &o->misdeal_rate) == -1)
				return -1;
			break;
		case 'k':
			if (parse_long("--clients", optarg, 1, SIM_MAX_CLIENTS, &n) == -1)
				return -1;
			o->clients = (int)n;
			break;
		case 'w':
			if (parse_long("--timeout", optarg, 1, 3600000, &n) == -1)
				return -1;
			o->timeout_ms = (int)n;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			return 1;
		default:
			return -1;    /* getopt_long said what is wrong */
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pitboss simulate: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	if (o->token == NULL || *o->token == '\0') {
		fprintf(stderr, "pitboss simulate: --token is required (or set PITBOSS_TOKEN)\n");
		return -1;
	}
	return 0;
}

/* Reads {"min","max"} of one wager from limits; absent means not offered. */
static void
limit_from_json(json_t *limits, const char *name, struct limit *out)
{
	json_t *l = json_object_get(limits, name);

	memset(out, 0, sizeof(*out));
	if (!json_is_object(l) || !json_is_integer(json_object_get(l, "min")) ||
	    !json_is_integer(json_object_get(l, "max")))
		return;
	out->min = json_integer_value(json_object_get(l, "min"));
	out->max = json_integer_value(json_object_get(l, "max"));
	out->offered = out->max > 0 && out->max >= out->min;
}

/* True when id is in the comma-separated list. */
static bool
list_has_id(const char *list, const char *id)
{
	size_t n = strlen(id);

	while (*list != '\0') {
		size_t len = strcspn(list, ",");
		if (len == n && strncmp(list, id, n) == 0)
			return true;
		list += len;
		if (*list == ',')
			list++;
	}
	return false;
}

/*
 * Fills t from a table's JSON (as GET /api/v1/tables lists it; rules,
 * banker and limits as GET /api/v1/tables/{id} shows them).  Returns 0 when
 * the simulator can deal there, -1 with a reason in why.
 */
static int
table_from_json(json_t *o, struct sim_table *t, char *why, size_t whysz)
{
	json_t *limits = json_object_get(o, "limits"), *rules = json_object_get(o, "rules"), *v;
	const char *id = json_string_value(json_object_get(o, "id"));
	const char *banking = json_string_value(json_object_get(o, "banking"));

	memset(t, 0, sizeof(*t));
	if (id == NULL || strlen(id) >= sizeof(t->id)) {
		snprintf(why, whysz, "no usable id");
		return -1;
	}
	snprintf(t->id, sizeof(t->id), "%s", id);
	v = json_object_get(o, "seats");
	if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > MAX_SEATS) {
		snprintf(why, whysz, "no seat count 1..%d", MAX_SEATS);
		return -1;
	}
	t->seats = (int)json_integer_value(v);
	t->player_banked = banking != NULL && strcmp(banking, "player") == 0;
	limit_from_json(limits, "ante", &t->ante);
	limit_from_json(limits, "pair_plus", &t->pair_plus);
	limit_from_json(limits, "six_card", &t->six_card);
	t->pair_plus_requires_ante = true;
	if (json_is_object(rules)) {
		v = json_object_get(rules, "pair_plus_requires_ante");
		if (json_is_boolean(v))
			t->pair_plus_requires_ante = json_is_true(v);
		/* A game without a wager's pay table does not take it, whatever the limits say. */
		if (json_object_get(rules, "pair_plus") == NULL || json_is_null(json_object_get(rules, "pair_plus")))
			t->pair_plus.offered = false;
		if (json_object_get(rules, "six_card_bonus") == NULL ||
		    json_is_null(json_object_get(rules, "six_card_bonus")))
			t->six_card.offered = false;
	}
	if (t->player_banked) {
		json_t *b = json_object_get(o, "banker");

		t->max_consecutive = 2;
		t->min_bank = 10000;
		if (json_is_integer(json_object_get(b, "max_consecutive")) &&
		    json_integer_value(json_object_get(b, "max_consecutive")) >= 1)
			t->max_consecutive = (int)json_integer_value(json_object_get(b, "max_consecutive"));
		if (json_is_integer(json_object_get(b, "min_bank")))
			t->min_bank = json_integer_value(json_object_get(b, "min_bank"));
		if (json_is_integer(json_object_get(b, "max_bank")))
			t->max_bank = json_integer_value(json_object_get(b, "max_bank"));
		if (t->seats < 2) {
			snprintf(why, whysz, "a player-banked table needs two seats at least");
			return -1;
		}
	}
	if (!t->ante.offered && (t->pair_plus_requires_ante || (!t->pair_plus.offered && !t->six_card.offered))) {
		snprintf(why, whysz, "it takes no wager the simulator can place");
		return -1;
	}
	return 0;
}

/*
 * Reads the tables to deal at: GET /api/v1/tables, then GET
 * /api/v1/tables/{id} for each chosen one (rules, banker).  Closed tables
 * and tables the simulator cannot use are left out with a note.  Returns 0
 * when at least one table is usable.
 */
static int
load_tables(struct sim *s, struct worker *w)
{
	struct sim_table probe;
	json_t *answer = NULL, *list, *o;
	size_t i;
	int rc = -1;

	if (api_ok(w, NULL, "GET", "/api/v1/tables", NULL, &answer) == -1)
		goto done;
	list = json_object_get(answer, "tables");
	if (!json_is_array(list)) {
		fprintf(stderr, "pitboss simulate: GET /api/v1/tables: no \"tables\" array in the answer\n");
		goto done;
	}
	json_array_foreach(list, i, o) {
		const char *id = json_string_value(json_object_get(o, "id"));
		const char *status = json_string_value(json_object_get(o, "status"));
		json_t *detail = NULL, *full = o;
		char path[128], why[128];
		struct sim_table *t;

		if (id == NULL || (s->opt.tables != NULL && !list_has_id(s->opt.tables, id)))
			continue;
		if (status != NULL && strcmp(status, "open") != 0) {
			fprintf(stderr, "pitboss simulate: table %s is %s; skipping it\n", id, status);
			continue;
		}
		if (s->table_count == SIM_MAX_TABLES) {
			fprintf(stderr, "pitboss simulate: more than %d tables; dealing at the first %d\n",
			    SIM_MAX_TABLES, SIM_MAX_TABLES);
			break;
		}
		t = &s->tables[s->table_count];
		path_table(path, sizeof(path), "/api/v1/tables/", id, "");
		snprintf(probe.id, sizeof(probe.id), "%s", id);
		if (json_object_get(o, "rules") == NULL && api_ok(w, &probe, "GET", path, NULL, &detail) == 0) {
			full = json_object_get(detail, "table");
			if (!json_is_object(full))
				full = detail;
		}
		if (table_from_json(full, t, why, sizeof(why)) == -1) {
			fprintf(stderr, "pitboss simulate: table %s: %s; skipping it\n", id, why);
			json_decref(detail);
			continue;
		}
		json_decref(detail);
		t->explicit_choice = s->opt.tables != NULL;
		s->table_count++;
	}
	if (s->opt.tables != NULL) {
		const char *p = s->opt.tables;

		while (*p != '\0') {
			size_t len = strcspn(p, ",");
			bool found = false;

			json_array_foreach(list, i, o) {
				const char *id = json_string_value(json_object_get(o, "id"));
				if (id != NULL && strlen(id) == len && strncmp(id, p, len) == 0)
					found = true;
			}
			if (!found && len > 0)
				fprintf(stderr, "pitboss simulate: table %.*s: not listed by the daemon for this token\n",
				    (int)len, p);
			p += len;
			if (*p == ',')
				p++;
		}
	}
	if (s->table_count == 0) {
		fprintf(stderr, "pitboss simulate: no open table to deal at\n");
		goto done;
	}
	rc = 0;
done:
	json_decref(answer);
	return rc;
}

/* ---- signals and output ---- */

/* SIGINT/SIGTERM: the first asks the workers to stop after their round; the second quits at once. */
static void
on_signal(int sig)
{
	static const char msg[] = "\npitboss simulate: stopping after the current rounds (again to quit now)\n";

	(void)sig;
	if (atomic_fetch_add(&stop_signals, 1) > 0)
		_exit(130);
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
}

/* One line of figures: rounds, rate, refusals.  With s->lock held. */
static void
print_progress(struct sim *s, double elapsed, double rate)
{
	char refusals[512];
	unsigned long rounds = s->st.settled + s->st.voided + s->st.failed;

	format_refusals(&s->st, refusals, sizeof(refusals));
	fprintf(stderr, "simulate: %7.1fs  %lu rounds (%lu settled, %lu void, %lu failed)  %.1f rounds/s"
	    "  refusals: %s  unexpected: %lu\n", elapsed, rounds, s->st.settled, s->st.voided, s->st.failed,
	    rate, refusals, s->st.unexpected);
}

/* The final line on stdout, always printed: what load tests and benchmarks read. */
static void
print_summary(struct sim *s, double elapsed)
{
	char refusals[1024];
	unsigned long rounds = s->st.settled + s->st.voided + s->st.failed;

	format_refusals(&s->st, refusals, sizeof(refusals));
	printf("simulate: %lu rounds in %.2f s (%.1f rounds/s) at %d table(s): %lu settled, %lu void, %lu failed, "
	    "%lu recovered; %lu requests (%lu retried, %lu network errors), latency ms mean %.2f p50 %.2f "
	    "p99 %.2f max %.2f; refusals: %s; unexpected: %lu\n",
	    rounds, elapsed, elapsed > 0 ? (double)rounds / elapsed : 0.0, s->table_count, s->st.settled,
	    s->st.voided, s->st.failed, s->st.recovered, s->st.requests, s->st.retries, s->st.transport_errors,
	    s->st.requests ? s->st.latency_sum_ms / (double)s->st.requests : 0.0,
	    latency_quantile(&s->st, 0.50), latency_quantile(&s->st, 0.99), s->st.latency_max_ms,
	    refusals, s->st.unexpected);
	fflush(stdout);
}

/* ---- the command ---- */

/*
 * `pitboss simulate`: reads the options and the tables, starts the workers
 * with SIGINT/SIGTERM blocked (this thread alone takes them), prints progress
 * every second, joins the workers and prints the summary.  Exit status 0 when
 * every answer was intended, 1 otherwise, 2 on usage or setup failure.
 */
int
cmd_simulate(int argc, char **argv)
{
	struct sim *s = NULL;
	struct worker *workers = NULL;
	struct pb_error err;
	struct sigaction sa, old_int, old_term;
	sigset_t block, saved;
	int nworkers = 0, started = 0, rc = 2, opt_rc;
	unsigned long last_rounds = 0;
	double last_print;

	if ((s = calloc(1, sizeof(*s))) == NULL) {
		fprintf(stderr, "pitboss simulate: out of memory\n");
		return 2;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->changed, NULL);
	atomic_init(&s->void_forbidden, false);
	atomic_store(&stop_signals, 0);
	if ((opt_rc = parse_options(argc, argv, &s->opt)) != 0) {
		usage(opt_rc == 1 ? stdout : stderr);
		rc = opt_rc == 1 ? 0 : 2;
		goto out;
	}
	if (sodium_init() < 0) {
		fprintf(stderr, "pitboss simulate: libsodium failed to initialise\n");
		goto out;
	}
	if (hand3_parse_high_card("Q-6-4", &s->raise_min, &err) == -1) {
		fprintf(stderr, "pitboss simulate: %s\n", err.message);
		goto out;
	}

	/* One worker first, to read the tables; the others once their number is known. */
	if ((workers = calloc(SIM_MAX_CLIENTS, sizeof(*workers))) == NULL) {
		fprintf(stderr, "pitboss simulate: out of memory\n");
		goto out;
	}
	workers[0].sim = s;
	if ((workers[0].http = http_client_new(s->opt.url, s->opt.token, &err)) == NULL) {
		fprintf(stderr, "pitboss simulate: --url: %s\n", err.message);
		goto out;
	}
	http_client_set_timeout(workers[0].http, s->opt.timeout_ms);
	nworkers = 1;
	if (load_tables(s, &workers[0]) == -1)
		goto out;
	{
		int want = s->opt.clients > 0 ? s->opt.clients : s->table_count;
		if (want > s->table_count) {
			if (s->opt.clients > 0)
				fprintf(stderr, "pitboss simulate: %d clients for %d tables: one table takes one "
				    "client at a time, using %d\n", want, s->table_count, s->table_count);
			want = s->table_count;
		}
		for (; nworkers < want; nworkers++) {
			workers[nworkers].sim = s;
			workers[nworkers].http = http_client_new(s->opt.url, s->opt.token, &err);
			if (workers[nworkers].http == NULL) {
				fprintf(stderr, "pitboss simulate: %s\n", err.message);
				goto out;
			}
			http_client_set_timeout(workers[nworkers].http, s->opt.timeout_ms);
		}
	}
	if (!s->opt.quiet) {
		fprintf(stderr, "simulate: dealing at %d table%s (", s->table_count, s->table_count == 1 ? "" : "s");
		for (int i = 0; i < s->table_count; i++)
			fprintf(stderr, "%s%s%s", i ? ", " : "", s->tables[i].id,
			    s->tables[i].player_banked ? " player-banked" : "");
		fprintf(stderr, ") with %d client%s\n", nworkers, nworkers == 1 ? "" : "s");
	}

	/* Workers never see SIGINT/SIGTERM; this thread turns them into a stop request. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &saved);
	s->started = now_seconds();
	last_print = s->started;
	for (started = 0; started < nworkers; started++) {
		pthread_mutex_lock(&s->lock);
		s->workers_running++;
		pthread_mutex_unlock(&s->lock);
		if (pthread_create(&workers[started].thread, NULL, worker_main, &workers[started]) != 0) {
			pthread_mutex_lock(&s->lock);
			s->workers_running--;
			pthread_mutex_unlock(&s->lock);
			fprintf(stderr, "pitboss simulate: cannot start a thread\n");
			atomic_fetch_add(&stop_signals, 1);
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &saved, NULL);

	for (;;) {
		struct timespec nap = {0, 100 * 1000000L};
		bool running;
		double now;

		nanosleep(&nap, NULL);
		now = now_seconds();
		pthread_mutex_lock(&s->lock);
		running = s->workers_running > 0;
		if (!s->opt.quiet && running && now - last_print >= 1.0) {
			unsigned long rounds = s->st.settled + s->st.voided + s->st.failed;
			print_progress(s, now - s->started, (double)(rounds - last_rounds) / (now - last_print));
			last_rounds = rounds;
			last_print = now;
		}
		pthread_mutex_unlock(&s->lock);
		if (!running)
			break;
	}
	for (int i = 0; i < started; i++)
		pthread_join(workers[i].thread, NULL);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);

	print_summary(s, now_seconds() - s->started);
	rc = (s->st.unexpected > 0 || s->st.transport_errors > 0 || s->st.failed > 0) ? 1 : 0;
out:
	if (workers != NULL)
		for (int i = 0; i < nworkers; i++)
			http_client_free(workers[i].http);
	free(workers);
	pthread_cond_destroy(&s->changed);
	pthread_mutex_destroy(&s->lock);
	free(s);
	return rc;
}
