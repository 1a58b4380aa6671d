/*
 * routes.h - the API's routes as one table (routes.c): each a method, a
 * path pattern, the /metrics route it counts under, the operation it is
 * (table/core/core.h), flags and its handler.  Handlers live with their
 * subject: tables.c, rounds.c, audit.c, reports.c, metrics.c, people.c.
 *
 * A pattern's segments are literals or parameters: {table} (any id; the
 * pit says whether there is such a table), {round} (a positive id or a
 * round's label TABLE-NO such as T1-277, else 404 round_not_found), {round_text} (the segment as sent: GET verify reads
 * it with strtoll, as it always has), {person} (any id; the pit says
 * whether there is such a person), {serial} (any segment; the pit says
 * whether there is such a document) and {seat} (1..9, else 422
 * invalid_seat).  Patterns are disjoint: a path has at most one pattern,
 * whose routes (one per method) make the Allow list of a 405.
 */
#ifndef PB_HTTP_ROUTES_H
#define PB_HTTP_ROUTES_H

#include "http/answer.h"
#include "http/http.h"
#include "table/people/people.h"

/* Route indexes for /metrics (their names: api_route_names). */
enum route_metric {
	ROUTE_OTHER = 0,
	ROUTE_HEALTH,
	ROUTE_METRICS,
	ROUTE_TABLES,
	ROUTE_TABLE,
	ROUTE_TABLE_STATUS,
	ROUTE_TABLE_LIMITS,
	ROUTE_TABLE_ROUNDS,
	ROUTE_TABLE_BANKERS,
	ROUTE_ROUND,
	ROUTE_ROUND_BET,
	ROUTE_ROUND_STEP,
	ROUTE_ROUND_VERIFY,
	ROUTE_REPORTS,
	ROUTE_EVENTS,
	ROUTE_INTEGRITY,
	ROUTE_CHECKPOINTS,
	ROUTE_STATIC,
	ROUTE_READY,
	ROUTE_PEOPLE,
	ROUTE_SESSIONS,
	ROUTE_ACCOUNTING,
	ROUTE_COUNT
};

/* Route flags. */
#define RT_PUBLIC     0x01u   /* no token: answered before authentication */
#define RT_AUTHORIZE  0x02u   /* the operation's roles are checked here, before the handler reads anything */
#define RT_BODY       0x04u   /* the handler takes the parsed JSON body */
#define RT_IDEMPOTENT 0x08u   /* the handler takes the Idempotency-Key */
#define RT_HEAD       0x10u   /* HEAD is served as GET (not listed in Allow) */
#define RT_LONG       0x20u   /* a long read: run by the reader pool, off the workers (http/longread.h) */
#define RT_SIGN_IN    0x40u   /* no token: the body and the thread's connection, not the actor (POST /sessions) */
#define RT_MUST_CHANGE 0x80u  /* open to a session that must change its password first (403 password_change_required elsewhere) */
#define RT_PASSWORD   0x100u  /* hashes a password: run by the password pool (so is any body with a "witness") */
#define RT_REPORT     0x200u  /* a short read asked again and again (a report, a verify): run by the report pool */

/* One call of a handler: who asks, the request, and what the route's pattern parsed from the path. */
struct route_call {
	struct app *app;
	struct pit *pit;                  /* NULL on RT_PUBLIC routes */
	const struct actor *actor;        /* NULL on RT_PUBLIC and RT_SIGN_IN routes */
	const struct pit_session *session; /* the caller's session; NULL for a terminal token (and without a token) */
	const struct http_request *req;
	const struct route *route;
	const char *table;                /* {table} */
	const char *person;               /* {person}: an id as sent */
	const char *round_text;           /* {round_text} */
	const char *serial;               /* {serial}: a fill's or credit's serial as sent */
	const char *id;                   /* {id}: a transaction's or CTR item's id as sent */
	const char *gaming_day;           /* {gaming_day}: a gaming day as sent (YYYY-MM-DD) */
	int64_t round;                    /* {round} */
	int seat;                         /* {seat} */
	const json_t *body;               /* RT_BODY: never NULL */
	const struct idempotency *idem;   /* RT_IDEMPOTENT */
};

typedef void (*route_handler)(const struct route_call *c, struct http_answer *ans);

struct route {
	const char *method;
	const char *pattern;
	enum route_metric metric;
	enum pit_operation op;
	unsigned flags;
	route_handler handler;
	int arg;                          /* the handler's own: a round step, a report kind, open or close */
};

extern const struct route api_routes[];
extern const size_t api_route_count;

/* Route names for /metrics, indexed by http_answer.route. */
extern const char *const api_route_names[METRIC_ROUTES];

/* metrics.c */
void handle_health(const struct route_call *c, struct http_answer *ans);
void handle_ready(const struct route_call *c, struct http_answer *ans);
void handle_metrics(const struct route_call *c, struct http_answer *ans);
void record_refusal(struct app *app, const struct http_answer *ans);

/* tables.c */
void handle_tables(const struct route_call *c, struct http_answer *ans);
void handle_table(const struct route_call *c, struct http_answer *ans);
void handle_table_open(const struct route_call *c, struct http_answer *ans);
void handle_table_limits(const struct route_call *c, struct http_answer *ans);
void handle_table_dealer(const struct route_call *c, struct http_answer *ans);
void handle_bank_offer(const struct route_call *c, struct http_answer *ans);
void handle_table_rounds(const struct route_call *c, struct http_answer *ans);
void handle_round_open(const struct route_call *c, struct http_answer *ans);
void handle_table_bankers(const struct route_call *c, struct http_answer *ans);

/* rounds.c */
void handle_round(const struct route_call *c, struct http_answer *ans);

/* players.c */
void handle_players(const struct route_call *c, struct http_answer *ans);
void handle_player_add(const struct route_call *c, struct http_answer *ans);
void handle_player(const struct route_call *c, struct http_answer *ans);
void handle_player_change(const struct route_call *c, struct http_answer *ans);
void handle_player_rating(const struct route_call *c, struct http_answer *ans);
void handle_player_manual_rating(const struct route_call *c, struct http_answer *ans);
void handle_table_seats(const struct route_call *c, struct http_answer *ans);
void handle_seat_player(const struct route_call *c, struct http_answer *ans);
void handle_table_transaction(const struct route_call *c, struct http_answer *ans);
void handle_players_report(const struct route_call *c, struct http_answer *ans);
void handle_title31_ack(const struct route_call *c, struct http_answer *ans);
void handle_ctr_update(const struct route_call *c, struct http_answer *ans);
void handle_cage_transaction(const struct route_call *c, struct http_answer *ans);
void handle_transactions(const struct route_call *c, struct http_answer *ans);
void handle_transaction_void(const struct route_call *c, struct http_answer *ans);
void handle_player_merge(const struct route_call *c, struct http_answer *ans);
void handle_round_step(const struct route_call *c, struct http_answer *ans);
void handle_round_correction(const struct route_call *c, struct http_answer *ans);

/* audit.c */
void handle_round_verify(const struct route_call *c, struct http_answer *ans);
void handle_integrity(const struct route_call *c, struct http_answer *ans);
void handle_checkpoints(const struct route_call *c, struct http_answer *ans);
void handle_events(const struct route_call *c, struct http_answer *ans);
void handle_backup(const struct route_call *c, struct http_answer *ans);
void handle_table_acknowledge(const struct route_call *c, struct http_answer *ans);

/* accounting.c */
void handle_acct_inventory(const struct route_call *c, struct http_answer *ans);
void handle_acct_transfer(const struct route_call *c, struct http_answer *ans);
void handle_acct_void(const struct route_call *c, struct http_answer *ans);
void handle_acct_receipt(const struct route_call *c, struct http_answer *ans);
void handle_acct_drop(const struct route_call *c, struct http_answer *ans);
void handle_acct_documents(const struct route_call *c, struct http_answer *ans);
void handle_acct_acknowledge(const struct route_call *c, struct http_answer *ans);
void handle_variance_investigate(const struct route_call *c, struct http_answer *ans);
void handle_serial_explain(const struct route_call *c, struct http_answer *ans);

/* reports.c */
void handle_report(const struct route_call *c, struct http_answer *ans);
void handle_central_summary(const struct route_call *c, struct http_answer *ans);

/* people.c */
void handle_people(const struct route_call *c, struct http_answer *ans);
void handle_person(const struct route_call *c, struct http_answer *ans);
void handle_person_add(const struct route_call *c, struct http_answer *ans);
void handle_person_change(const struct route_call *c, struct http_answer *ans);
void handle_person_password(const struct route_call *c, struct http_answer *ans);
void handle_session_open(const struct route_call *c, struct http_answer *ans);
void handle_session_close(const struct route_call *c, struct http_answer *ans);

#endif
