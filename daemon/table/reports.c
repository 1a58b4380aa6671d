/*
 * reports.c - the reports: request checks, grouping of the per-hour
 * aggregates, hold, theoretical win and its interval, hands per hour, the
 * largest payouts, the exceptions, and their CSV form.  docs/reports.md
 * says how every figure is computed; keep the two in step.
 *
 * Money is summed in int64 cents and never passes through a double; only
 * ratios (hold, hands per hour) and the statistical figures (theoretical
 * win before rounding to the cent, its standard deviation) are doubles.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/analyze.h"
#include "engine/hand3.h"
#include "engine/hand6.h"
#include "store/reports.h"
#include "table/reports.h"
#include "table/rollup.h"
#include "table/txn.h"

#define HOUR_MS 3600000LL
#define DAY_MS 86400000LL
#define TZ_OFFSET_MAX 1080              /* minutes: +-18 h, as ISO 8601 allows */
#define HOLD_Z 1.96                     /* two-sided 95% */
#define KEY_MAX 48

/*
 * Significant-event codes (schema 003) that the exceptions report lists,
 * as SQLite GLOB patterns.  Add a code here when a new kind of refusal or
 * alarm is recorded; docs/reports.md lists them.
 */
static const char *const EXCEPTION_CODE_PATTERNS[] = {
	"*refused*",            /* refused steps, banker rotation refusals */
	"*lockout*",            /* authentication lockouts */
	"*locked_out*",
	"integrity*",           /* integrity check failures, holds */
	"*_integrity*",
	"*tamper*",
	"chain_*",
	"checkpoint_failed",
	"backup_failed",
	NULL,
};

static const char *const GROUP_NAMES[] = {"hour", "day", "shift", "table", "dealer"};

/* ---- request checks ---- */

static int
invalid(struct pb_error *err, const char *fmt, const char *name, const char *value)
{
	return pb_fail(err, 400, "invalid_query", fmt, name, value ? value : "");
}

/* A decimal integer in [lo, hi], nothing else around it. */
static int
parse_integer(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
	char *end;
	long long v;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int64_t
floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	if (a % b != 0 && ((a < 0) != (b < 0)))
		q--;
	return q;
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* "06:00,14:00,22:00" into sorted minutes after midnight; duplicates refused. */
static int
parse_shifts(const char *text, struct report_query *q, struct pb_error *err)
{
	const char *p = text;

	q->shift_count = 0;
	for (;;) {
		int h, m;

		if (q->shift_count == REPORT_SHIFTS_MAX)
			return invalid(err, "%s: at most 24 shift start times, e.g. 06:00,14:00,22:00 (got \"%.60s\")", "shifts", text);
		if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]) || p[2] != ':' ||
		    !isdigit((unsigned char)p[3]) || !isdigit((unsigned char)p[4]) || (p[5] != ',' && p[5] != '\0'))
			return invalid(err, "%s: local start times as HH:MM separated by commas, e.g. 06:00,14:00,22:00 (got \"%.60s\")",
			    "shifts", text);
		h = (p[0] - '0') * 10 + (p[1] - '0');
		m = (p[3] - '0') * 10 + (p[4] - '0');
		if (h > 23 || m > 59)
			return invalid(err, "%s: %.60s: hours are 00..23 and minutes 00..59", "shifts", text);
		q->shifts[q->shift_count++] = h * 60 + m;
		if (p[5] == '\0')
			break;
		p += 6;
	}
	qsort(q->shifts, (size_t)q->shift_count, sizeof(q->shifts[0]), cmp_int);
	for (int i = 1; i < q->shift_count; i++)
		if (q->shifts[i] == q->shifts[i - 1])
			return invalid(err, "%s: \"%.60s\" names the same start time twice", "shifts", text);
	return 0;
}

/* One bound of the range; a date-only "to" is the end of that day. */
static int
parse_bound(const char *name, const char *text, bool is_to, int64_t *ms, struct pb_error *err)
{
	if (pb_time_parse(text, ms) < 0)
		return invalid(err, "%s: \"%.40s\" is not an ISO 8601 UTC time such as 2026-11-21 or 2026-11-21T06:00Z", name, text);
	if (is_to && strlen(text) == 10)
		*ms += DAY_MS;
	return 0;
}

int
report_query_parse(enum report_kind kind, const struct report_params *rp, int64_t now_ms,
    struct report_query *q, struct pb_error *err)
{
	int64_t v;

	memset(q, 0, sizeof(*q));
	q->kind = kind;
	if (rp->table != NULL) {
		if (!pb_valid_id(rp->table))
			return invalid(err, "%s: \"%.40s\" is not a table id", "table", rp->table);
		snprintf(q->table, sizeof(q->table), "%s", rp->table);
	}
	if (rp->tz_offset != NULL) {
		if (parse_integer(rp->tz_offset, -TZ_OFFSET_MAX, TZ_OFFSET_MAX, &v) < 0)
			return invalid(err, "%s: minutes east of UTC, -1080..1080, e.g. -300 for UTC-05:00 (got \"%.20s\")",
			    "tz_offset", rp->tz_offset);
		q->tz_offset = (int)v;
	}

	/* The range: by default the current day at tz_offset. */
	q->from_ms = floor_div(now_ms + q->tz_offset * 60000LL, DAY_MS) * DAY_MS - q->tz_offset * 60000LL;
	q->to_ms = q->from_ms + DAY_MS;
	if (rp->from != NULL && parse_bound("from", rp->from, false, &q->from_ms, err) < 0)
		return -1;
	if (rp->to != NULL && parse_bound("to", rp->to, true, &q->to_ms, err) < 0)
		return -1;
	if (kind == REPORT_SUMMARY) {
		/* The aggregates are hourly: widen to whole hours. */
		q->from_ms = floor_div(q->from_ms, HOUR_MS) * HOUR_MS;
		q->to_ms = floor_div(q->to_ms + HOUR_MS - 1, HOUR_MS) * HOUR_MS;
	}
	if (q->from_ms >= q->to_ms)
		return pb_fail(err, 400, "invalid_query", "from must be before to");

	switch (kind) {
	case REPORT_SUMMARY:
		q->group = REPORT_GROUP_DAY;
		if (rp->group != NULL) {
			int g = -1;
			for (int i = 0; i < (int)(sizeof(GROUP_NAMES) / sizeof(GROUP_NAMES[0])); i++)
				if (strcmp(rp->group, GROUP_NAMES[i]) == 0)
					g = i;
			if (g < 0)
				return invalid(err, "%s: one of hour, day, shift, table, dealer (got \"%.20s\")", "group", rp->group);
			q->group = (enum report_group)g;
		}
		if (parse_shifts(rp->shifts ? rp->shifts : REPORT_DEFAULT_SHIFTS, q, err) < 0)
			return -1;
		if (q->group == REPORT_GROUP_HOUR && (q->to_ms - q->from_ms) / HOUR_MS > REPORT_HOUR_GROUPS_MAX)
			return pb_fail(err, 400, "invalid_query", "group=hour: at most %d hours at once; narrow from/to or group by day",
			    REPORT_HOUR_GROUPS_MAX);
		/* A bucket is a UTC hour: day and shift boundaries must fall on one. */
		if (q->group == REPORT_GROUP_DAY && q->tz_offset % 60 != 0)
			return pb_fail(err, 400, "invalid_query",
			    "group=day: with tz_offset %d local midnight is not a UTC hour; the aggregates are hourly", q->tz_offset);
		if (q->group == REPORT_GROUP_SHIFT)
			for (int i = 0; i < q->shift_count; i++)
				if (((q->shifts[i] - q->tz_offset) % 60 + 60) % 60 != 0)
					return pb_fail(err, 400, "invalid_query",
					    "shifts: the shift starting %02d:%02d local does not begin on a UTC hour at tz_offset %d; "
					    "the aggregates are hourly", q->shifts[i] / 60, q->shifts[i] % 60, q->tz_offset);
		break;
	case REPORT_PAYOUTS:
		q->min_net = REPORT_PAYOUTS_DEFAULT_MIN;
		q->limit = REPORT_PAYOUTS_DEFAULT_LIMIT;
		if (rp->min != NULL && parse_integer(rp->min, 1, PB_MONEY_MAX * 1000, &q->min_net) < 0)
			return invalid(err, "%s: the smallest net win listed, in cents, a positive integer (got \"%.20s\")", "min", rp->min);
		if (rp->limit != NULL) {
			if (parse_integer(rp->limit, 1, REPORT_PAYOUTS_MAX_LIMIT, &v) < 0)
				return invalid(err, "%s: 1..1000 (got \"%.20s\")", "limit", rp->limit);
			q->limit = (int)v;
		}
		break;
	case REPORT_EXCEPTIONS:
		q->limit = REPORT_EXCEPTIONS_DEFAULT_LIMIT;
		if (rp->limit != NULL) {
			if (parse_integer(rp->limit, 1, REPORT_EXCEPTIONS_MAX_LIMIT, &v) < 0)
				return invalid(err, "%s: 1..10000 (got \"%.20s\")", "limit", rp->limit);
			q->limit = (int)v;
		}
		break;
	case REPORT_BANKERS:
		break;
	}
	return 0;
}

/* ---- access and scope ---- */

/*
 * Checks the role and the table, and builds the scope: a JSON array of the
 * tables the report may read, or NULL (*scope) for every table.
 */
static int
report_scope(struct pit *p, const struct actor *a, const struct report_query *q, char **scope, struct pb_error *err)
{
	json_t *arr;

	*scope = NULL;
	if (authorize(a, OP_REPORT_READ, NULL, err) < 0)
		return -1;
	if (q->table[0] != '\0') {
		if (config_table(p->cfg, q->table) == NULL)
			return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", q->table);
		if (pit_check_table_access(a, q->table, false, err) < 0)
			return -1;
		arr = json_pack("[s]", q->table);
	} else if (a->token != NULL && !a->token->all_tables) {
		arr = json_array();
		for (size_t i = 0; i < a->token->table_count; i++)
			json_array_append_new(arr, json_string(a->token->tables[i]));
	} else {
		return 0;
	}
	*scope = arr ? json_dumps(arr, JSON_COMPACT) : NULL;
	json_decref(arr);
	if (*scope == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory");
	return 0;
}

static json_t *
time_json(int64_t ms)
{
	char t[PB_TIME_LEN];

	pb_time_format_ms(ms, t);
	return json_string(t);
}

/* ---- the analysis of each game, cached per process ---- */

#define FIGURES_CACHE_MAX 64

static pthread_mutex_t figures_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char sha256[PB_SHA256_HEX_LEN];
	struct game_figures f;
} figures_cache[FIGURES_CACHE_MAX];
static int figures_count, figures_next;

static bool
figures_cached(const char *sha256, struct game_figures *out)
{
	bool found = false;

	pthread_mutex_lock(&figures_lock);
	for (int i = 0; i < figures_count && !found; i++)
		if (strcmp(figures_cache[i].sha256, sha256) == 0) {
			*out = figures_cache[i].f;
			found = true;
		}
	pthread_mutex_unlock(&figures_lock);
	return found;
}

/*
 * Analyses the rules (outside the lock: two threads may both compute a new
 * game once, which is harmless) and keeps the per-unit edges and variances.
 */
int
report_game_figures(const struct rules *r, const char *sha256, struct game_figures *out, struct pb_error *err)
{
	struct analysis *an;
	int slot;

	if (figures_cached(sha256, out))
		return 0;
	an = malloc(sizeof(*an));
	if (an == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory");
	if (analyze_rules(r, an, err) < 0) {
		free(an);
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->edge[WAGER_ANTE] = an->ante_play.house_edge;
	out->variance[WAGER_ANTE] = an->ante_play.net.variance;
	if (an->has_pair_plus) {
		out->edge[WAGER_PAIR_PLUS] = an->pair_plus.house_edge;
		out->variance[WAGER_PAIR_PLUS] = an->pair_plus.net.variance;
	}
	if (an->has_six_card) {
		out->edge[WAGER_SIX_CARD] = an->six_card.house_edge;
		out->variance[WAGER_SIX_CARD] = an->six_card.net.variance;
	}
	free(an);

	pthread_mutex_lock(&figures_lock);
	slot = -1;
	for (int i = 0; i < figures_count; i++)
		if (strcmp(figures_cache[i].sha256, sha256) == 0)
			slot = i;
	if (slot < 0) {
		if (figures_count < FIGURES_CACHE_MAX) {
			slot = figures_count++;
		} else {
			slot = figures_next;
			figures_next = (figures_next + 1) % FIGURES_CACHE_MAX;
		}
		snprintf(figures_cache[slot].sha256, sizeof(figures_cache[slot].sha256), "%s", sha256);
		figures_cache[slot].f = *out;
	}
	pthread_mutex_unlock(&figures_lock);
	return 0;
}

/* The figures of the games of one request, by rules id. */
struct game_list {
	struct {
		int64_t rules_id;
		struct game_figures f;
	} *items;
	int count;
	int cap;
};

static int
game_figures_by_id(struct pit *p, struct game_list *gl, int64_t rules_id, const struct game_figures **out,
    struct pb_error *err)
{
	struct rules r;
	char sha[PB_SHA256_HEX_LEN];

	for (int i = 0; i < gl->count; i++)
		if (gl->items[i].rules_id == rules_id) {
			*out = &gl->items[i].f;
			return 0;
		}
	if (gl->count == gl->cap) {
		int cap = gl->cap ? gl->cap * 2 : 8;
		void *n = realloc(gl->items, (size_t)cap * sizeof(gl->items[0]));
		if (n == NULL)
			return pb_fail(err, 500, "out_of_memory", "out of memory");
		gl->items = n;
		gl->cap = cap;
	}
	/* The hash first: a game analysed before needs no parsing. */
	if (store_rules_sha256(p->store, rules_id, sha, err) < 0)
		return -1;
	if (!figures_cached(sha, &gl->items[gl->count].f) && (store_rules_get(p->store, rules_id, &r, sha, err) < 0 ||
	    report_game_figures(&r, sha, &gl->items[gl->count].f, err) < 0))
		return -1;
	gl->items[gl->count].rules_id = rules_id;
	*out = &gl->items[gl->count++].f;
	return 0;
}

/* ---- the summary ---- */

/* The handle and resolved lines of one game within a group: what theoretical win and variance need. */
struct game_part {
	int64_t rules_id;
	int64_t handle[WAGER_COUNT];
	int64_t lines[WAGER_COUNT];
};

/* The sums of one group. */
struct group_acc {
	char key[KEY_MAX];
	int64_t rounds, voids, hands;
	int64_t handle[WAGER_COUNT];
	int64_t win[WAGER_COUNT];
	int64_t play_ms;
	struct game_part *parts;
	int part_count;
};

/* A series: one table, dealer and game; its latest row waits for the next hour's to know if play went on. */
struct series {
	struct report_hour row;
	bool joined_before;                /* row continues the hour before it */
};

struct summary {
	const struct report_query *q;
	int64_t from_hour, to_hour;        /* Unix seconds: the rows reported */
	struct group_acc *groups;
	size_t count, cap;
	size_t *slots;                     /* open addressing: group index + 1, 0 = empty */
	size_t slot_cap;
	struct group_acc totals;
	struct series *series;             /* open addressing by table, dealer, game; hour 0 = empty */
	size_t series_count, series_cap;
	int64_t emit_from, emit_to;        /* hour rows outside are neighbours, read only for the joins */
	int64_t spans_from;                /* the first roll-up start read: its carry is not the range's */
	int64_t last_hour;                 /* hour, day, shift: the group of the last hour added */
	size_t last_group;                 /* its index + 1 */
};

static uint64_t
key_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int
add_checked(int64_t *a, int64_t b, struct pb_error *err)
{
	if (__builtin_add_overflow(*a, b, a))
		return pb_fail(err, 500, "report_overflow", "a report sum exceeds 64 bits; narrow the range");
	return 0;
}

/* Adds a row's sums (and play time) to a group. */
static int
acc_add(struct group_acc *g, const struct report_hour *row, int64_t play_ms, struct pb_error *err)
{
	struct game_part *part = NULL;
	int rc = 0;

	for (int i = 0; i < g->part_count; i++)
		if (g->parts[i].rules_id == row->rules_id)
			part = &g->parts[i];
	if (part == NULL) {
		struct game_part *n = realloc(g->parts, (size_t)(g->part_count + 1) * sizeof(*n));
		if (n == NULL)
			return pb_fail(err, 500, "out_of_memory", "out of memory");
		g->parts = n;
		/* Kept in rules_id order: the theoretical figures sum the games in that order, whatever the rows' order. */
		int at = g->part_count;
		while (at > 0 && g->parts[at - 1].rules_id > row->rules_id)
			at--;
		memmove(&g->parts[at + 1], &g->parts[at], (size_t)(g->part_count - at) * sizeof(*n));
		g->part_count++;
		part = &g->parts[at];
		memset(part, 0, sizeof(*part));
		part->rules_id = row->rules_id;
	}
	rc |= add_checked(&g->rounds, row->rounds, err);
	rc |= add_checked(&g->voids, row->voids, err);
	rc |= add_checked(&g->hands, row->hands, err);
	rc |= add_checked(&g->play_ms, play_ms, err);
	for (int w = 0; w < WAGER_COUNT; w++) {
		rc |= add_checked(&g->handle[w], row->handle[w], err);
		rc |= add_checked(&g->win[w], row->house_win[w], err);
		rc |= add_checked(&part->handle[w], row->handle[w], err);
		rc |= add_checked(&part->lines[w], row->lines[w], err);
	}
	return rc ? -1 : 0;
}

static void
acc_free(struct group_acc *g)
{
	free(g->parts);
	g->parts = NULL;
	g->part_count = 0;
}

/* The group of this key, created when new. */
static struct group_acc *
group_get(struct summary *sm, const char *key, struct pb_error *err)
{
	size_t i;

	if ((sm->count + 1) * 2 > sm->slot_cap) {
		size_t cap = sm->slot_cap ? sm->slot_cap * 2 : 256;
		size_t *slots = calloc(cap, sizeof(*slots));
		if (slots == NULL) {
			pb_fail(err, 500, "out_of_memory", "out of memory");
			return NULL;
		}
		for (size_t g = 0; g < sm->count; g++) {
			for (i = key_hash(sm->groups[g].key) & (cap - 1); slots[i] != 0; i = (i + 1) & (cap - 1))
				;
			slots[i] = g + 1;
		}
		free(sm->slots);
		sm->slots = slots;
		sm->slot_cap = cap;
	}
	for (i = key_hash(key) & (sm->slot_cap - 1); sm->slots[i] != 0; i = (i + 1) & (sm->slot_cap - 1))
		if (strcmp(sm->groups[sm->slots[i] - 1].key, key) == 0)
			return &sm->groups[sm->slots[i] - 1];
	if (sm->count == sm->cap) {
		size_t cap = sm->cap ? sm->cap * 2 : 64;
		struct group_acc *n = realloc(sm->groups, cap * sizeof(*n));
		if (n == NULL) {
			pb_fail(err, 500, "out_of_memory", "out of memory");
			return NULL;
		}
		sm->groups = n;
		sm->cap = cap;
	}
	memset(&sm->groups[sm->count], 0, sizeof(sm->groups[0]));
	snprintf(sm->groups[sm->count].key, KEY_MAX, "%s", key);
	sm->slots[i] = sm->count + 1;
	return &sm->groups[sm->count++];
}

static void
utc_date(int64_t unix_s, struct tm *tm)
{
	time_t t = (time_t)unix_s;

	gmtime_r(&t, tm);
}

/* The key of the group a UTC hour (Unix seconds) of a row belongs to. */
static void
group_key(const struct report_query *q, const struct report_hour *row, char key[KEY_MAX])
{
	struct tm tm;
	int64_t local = row->hour + (int64_t)q->tz_offset * 60, day;
	int tod, i;

	switch (q->group) {
	case REPORT_GROUP_HOUR:
		utc_date(row->hour, &tm);
		snprintf(key, KEY_MAX, "%04d-%02d-%02dT%02d:00Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour);
		return;
	case REPORT_GROUP_DAY:
		utc_date(local, &tm);
		snprintf(key, KEY_MAX, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
		return;
	case REPORT_GROUP_SHIFT:
		day = floor_div(local, 86400) * 86400;
		tod = (int)((local - day) / 60);
		for (i = q->shift_count - 1; i >= 0 && q->shifts[i] > tod; i--)
			;
		if (i < 0) {
			/* Before the day's first shift: the last shift of the day before. */
			i = q->shift_count - 1;
			day -= 86400;
		}
		utc_date(day, &tm);
		snprintf(key, KEY_MAX, "%04d-%02d-%02d %02d:%02d-%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		    q->shifts[i] / 60, q->shifts[i] % 60, q->shifts[(i + 1) % q->shift_count] / 60,
		    q->shifts[(i + 1) % q->shift_count] % 60);
		return;
	case REPORT_GROUP_TABLE:
		snprintf(key, KEY_MAX, "%s", row->table_id);
		return;
	case REPORT_GROUP_DEALER:
		snprintf(key, KEY_MAX, "%s", row->dealer);
		return;
	}
	key[0] = '\0';
}

/*
 * Adds a roll-up row's carry (play owed to the hour before the row's start)
 * to the group of that hour: for groups by table or dealer the row's own,
 * for groups by day the day before.
 */
static int
summary_carry(struct summary *sm, const struct report_hour *row, struct pb_error *err)
{
	struct report_hour before = *row;
	char key[KEY_MAX];
	struct group_acc *g;

	if (row->carry_ms == 0)
		return 0;
	before.hour = row->hour - 3600;
	group_key(sm->q, &before, key);
	if ((g = group_get(sm, key, err)) == NULL)
		return -1;
	if (add_checked(&g->play_ms, row->carry_ms, err) < 0)
		return -1;
	return add_checked(&sm->totals.play_ms, row->carry_ms, err);
}

/* A roll-up row's carry alone (the row itself lies after the range read from roll-ups). */
static int
summary_carry_only(void *arg, const struct report_hour *row, struct pb_error *err)
{
	return summary_carry(arg, row, err);
}

/*
 * Adds one row to its group and to the totals.  Its play time is the part
 * of its hour from its first round's opening to its last round's
 * settlement, extended to the hour's start (end) when play went on from the
 * hour before (into the hour after) with the same table, dealer and game.
 */
static int
summary_add(struct summary *sm, const struct report_hour *row, int64_t play_ms, struct pb_error *err)
{
	char key[KEY_MAX];
	struct group_acc *g;

	if (sm->q->group <= REPORT_GROUP_SHIFT && sm->last_group > 0 && sm->last_hour == row->hour) {
		g = &sm->groups[sm->last_group - 1];
	} else {
		group_key(sm->q, row, key);
		if ((g = group_get(sm, key, err)) == NULL)
			return -1;
		sm->last_hour = row->hour;
		sm->last_group = (size_t)(g - sm->groups) + 1;
	}
	if (acc_add(g, row, play_ms, err) < 0)
		return -1;
	return acc_add(&sm->totals, row, play_ms, err);
}

static int
summary_emit(struct summary *sm, const struct report_hour *row, bool joined_before, bool joined_after,
    struct pb_error *err)
{
	if (row->hour < sm->emit_from || row->hour >= sm->emit_to)
		return 0;     /* a neighbour read only to see whether play went on */
	return summary_add(sm, row, report_hour_play_ms(row, joined_before, joined_after), err);
}

/*
 * A roll-up row (report_spans): its sums and play time, and its carry (the
 * play owed to the hour before its start) unless it starts the roll-ups
 * read, whose hour before lies outside them.
 */
static int
summary_span(void *arg, const struct report_hour *row, struct pb_error *err)
{
	struct summary *sm = arg;

	if (summary_add(sm, row, row->play_ms, err) < 0)
		return -1;
	if (row->hour != sm->spans_from && summary_carry(sm, row, err) < 0)
		return -1;
	return 0;
}

static uint64_t
series_hash(const struct report_hour *r)
{
	return key_hash(r->table_id) * 31 + key_hash(r->dealer) * 7 + (uint64_t)r->rules_id;
}

static bool
same_series(const struct report_hour *a, const struct report_hour *b)
{
	return a->rules_id == b->rules_id && strcmp(a->table_id, b->table_id) == 0 && strcmp(a->dealer, b->dealer) == 0;
}

/* The slot of the row's series (empty when new); grows the table as needed. */
static struct series *
series_slot(struct summary *sm, const struct report_hour *row, struct pb_error *err)
{
	size_t i;

	if ((sm->series_count + 1) * 2 > sm->series_cap) {
		size_t cap = sm->series_cap ? sm->series_cap * 2 : 256;
		struct series *n = calloc(cap, sizeof(*n));
		if (n == NULL) {
			pb_fail(err, 500, "out_of_memory", "out of memory");
			return NULL;
		}
		for (size_t k = 0; k < sm->series_cap; k++) {
			if (sm->series[k].row.hour == 0)
				continue;
			for (i = series_hash(&sm->series[k].row) & (cap - 1); n[i].row.hour != 0; i = (i + 1) & (cap - 1))
				;
			n[i] = sm->series[k];
		}
		free(sm->series);
		sm->series = n;
		sm->series_cap = cap;
	}
	for (i = series_hash(row) & (sm->series_cap - 1); sm->series[i].row.hour != 0; i = (i + 1) & (sm->series_cap - 1))
		if (same_series(&sm->series[i].row, row))
			return &sm->series[i];
	sm->series_count++;
	return &sm->series[i];
}

/*
 * The rows come in hour order.  Each waits in its series until the series'
 * next row shows whether play went on into the following hour (that row
 * is for the next hour and began within JOIN_GAP_MS of this one's last
 * round); then it is added.  summary_flush adds the last of each series.
 */
static int
summary_row(void *arg, const struct report_hour *row, struct pb_error *err)
{
	struct summary *sm = arg;
	struct series *se;
	bool joined = false;

	if (row->hour <= 0)
		return 0;     /* before 1970: not a time this record holds */
	if ((se = series_slot(sm, row, err)) == NULL)
		return -1;
	if (se->row.hour != 0) {
		joined = report_joined(&se->row, row);
		if (summary_emit(sm, &se->row, se->joined_before, joined, err) < 0)
			return -1;
	}
	se->row = *row;
	se->joined_before = joined;
	return 0;
}

static int
summary_flush(struct summary *sm, struct pb_error *err)
{
	for (size_t i = 0; i < sm->series_cap; i++)
		if (sm->series[i].row.hour != 0 && summary_emit(sm, &sm->series[i].row, sm->series[i].joined_before, false, err) < 0)
			return -1;
	return 0;
}

static int
cmp_group(const void *a, const void *b)
{
	return strcmp(((const struct group_acc *)a)->key, ((const struct group_acc *)b)->key);
}

/*
 * Rounding and the square root without libm (the daemon's link line does
 * not promise it to this layer).  The values are far inside int64 range:
 * theoretical wins and their deviations in cents.
 */
static int64_t
floor_to_int(double v)
{
	int64_t i;

	if (!(v > -9e18 && v < 9e18))
		return v > 0 ? INT64_MAX : INT64_MIN;
	i = (int64_t)v;
	return (double)i > v ? i - 1 : i;
}

static int64_t
ceil_to_int(double v)
{
	return -floor_to_int(-v);
}

/* Half away from zero, as llround. */
static int64_t
round_to_int(double v)
{
	return v < 0 ? -floor_to_int(-v + 0.5) : floor_to_int(v + 0.5);
}

/* Newton's iteration from above: decreases to the root, stops when it no longer does. */
static double
square_root(double x)
{
	double r;

	if (!(x > 0) || !isfinite(x))
		return 0;
	r = x > 1 ? x : 1;
	for (int i = 0; i < 2100; i++) {
		double next = 0.5 * (r + x / r);
		if (!(next < r))
			break;
		r = next;
	}
	return r;
}

/* num / den as a JSON number, or null when den is 0. */
static json_t *
ratio_json(double num, double den)
{
	double v;

	if (den == 0)
		return json_null();
	v = num / den;
	return isfinite(v) ? json_real(v) : json_null();
}

/* A group's (or the totals') figures as the API shows them. */
static json_t *
group_json(struct pit *p, struct game_list *gl, const struct group_acc *g, bool with_key, struct pb_error *err)
{
	int64_t handle = 0, win = 0;
	double theo = 0, var = 0, sd;
	json_t *o, *flag = json_null(), *interval = json_null();

	for (int w = 0; w < WAGER_COUNT; w++) {
		handle += g->handle[w];
		win += g->win[w];
	}
	for (int i = 0; i < g->part_count; i++) {
		const struct game_part *pt = &g->parts[i];
		const struct game_figures *f;
		static const enum wager GAME_WAGERS[] = {WAGER_ANTE, WAGER_PAIR_PLUS, WAGER_SIX_CARD};

		if (game_figures_by_id(p, gl, pt->rules_id, &f, err) < 0)
			return NULL;
		for (size_t k = 0; k < sizeof(GAME_WAGERS) / sizeof(GAME_WAGERS[0]); k++) {
			enum wager w = GAME_WAGERS[k];
			double h = (double)pt->handle[w];
			theo += f->edge[w] * h;
			if (pt->lines[w] > 0)
				var += f->variance[w] * h * h / (double)pt->lines[w];
		}
	}
	sd = square_root(var);
	if (handle > 0 && sd > 0) {
		/* win is an integer: win > x exactly when win > floor(x), win < y when win < ceil(y). */
		int64_t lo = ceil_to_int(theo - HOLD_Z * sd), hi = floor_to_int(theo + HOLD_Z * sd);
		interval = json_pack("{s:I,s:I}", "low", (json_int_t)lo, "high", (json_int_t)hi);
		if (win > hi)
			flag = json_string("high");
		else if (win < lo)
			flag = json_string("low");
	}
	o = json_pack("{s:I,s:I,s:I,s:{s:I,s:I,s:I,s:I,s:I},s:{s:I,s:I,s:I,s:I,s:I,s:I},s:o,s:I,s:o,s:o,s:o,s:o,s:o,s:f}",
	    "rounds", (json_int_t)g->rounds, "voids", (json_int_t)g->voids, "hands", (json_int_t)g->hands,
	    "handle", "ante", (json_int_t)g->handle[WAGER_ANTE], "play", (json_int_t)g->handle[WAGER_PLAY],
	    "pair_plus", (json_int_t)g->handle[WAGER_PAIR_PLUS], "six_card", (json_int_t)g->handle[WAGER_SIX_CARD],
	    "total", (json_int_t)handle,
	    "house_win", "ante", (json_int_t)g->win[WAGER_ANTE], "play", (json_int_t)g->win[WAGER_PLAY],
	    "pair_plus", (json_int_t)g->win[WAGER_PAIR_PLUS], "six_card", (json_int_t)g->win[WAGER_SIX_CARD],
	    "ante_bonus", (json_int_t)g->win[WAGER_ANTE_BONUS], "total", (json_int_t)win,
	    "hold", ratio_json((double)win, (double)handle),
	    "theoretical_win", (json_int_t)round_to_int(theo),
	    "theoretical_hold", ratio_json(theo, (double)handle),
	    "hold_flag", flag,
	    "win_interval", interval,
	    "hands_per_hour", ratio_json((double)g->hands * (double)HOUR_MS, (double)g->play_ms),
	    "average_bet", g->hands > 0 ? json_integer((2 * handle + g->hands) / (2 * g->hands)) : json_null(),
	    "play_seconds", (double)g->play_ms / 1000.0);
	if (o == NULL) {
		pb_fail(err, 500, "out_of_memory", "out of memory");
		return NULL;
	}
	if (with_key) {
		json_t *k = json_pack("{s:s}", "key", g->key);
		if (k == NULL || json_object_update(k, o) < 0) {
			json_decref(k);
			json_decref(o);
			pb_fail(err, 500, "out_of_memory", "out of memory");
			return NULL;
		}
		json_decref(o);
		o = k;
	}
	return o;
}

/* Reads hour rows [from, to) into the summary, emitting those in [emit_from, emit_to); then adds the series' last rows. */
static int
summary_hours(struct pit *p, const char *scope, struct summary *sm, int64_t from, int64_t to, int64_t emit_from,
    int64_t emit_to, struct pb_error *err)
{
	int rc;

	sm->emit_from = emit_from;
	sm->emit_to = emit_to;
	if ((rc = store_report_hours(p->store, scope, from, to, summary_row, sm, err)) != 0)
		return rc;
	if (summary_flush(sm, err) < 0)
		return -1;
	/* The next read starts new series: forget these. */
	if (sm->series != NULL)
		memset(sm->series, 0, sm->series_cap * sizeof(sm->series[0]));
	sm->series_count = 0;
	return 0;
}

/*
 * Reads the rows of the range into the summary, in one read snapshot.
 * Groupings that do not divide a day (table, dealer, and day at UTC) read
 * the roll-ups (report_spans) of the whole days rolled up, months where
 * whole months fit (not for day), and hours at the two ends:
 *   hours [from, A), with A's first hour read only for the joins;
 *   spans [A, B), each with its carry except the first;
 *   the carry of day B (owed to B's hour before), then hours [B, to), with
 *   the hour before B read only for the joins.
 * B is before the last day rolled up, so that day B's carry exists.  Other
 * groupings, and ranges without a whole day rolled up, read the hours.
 */
static int
summary_read(struct pit *p, const struct report_query *q, const char *scope, struct summary *sm, struct pb_error *err)
{
	int64_t from = sm->from_hour, to = sm->to_hour, a, b, days_before, m1, m2;
	bool by_dealer = q->group == REPORT_GROUP_DEALER, months = q->group != REPORT_GROUP_DAY;
	bool spans = !q->hours_only && (q->group == REPORT_GROUP_TABLE || by_dealer ||
	    (q->group == REPORT_GROUP_DAY && q->tz_offset == 0));
	/* By dealer: over every table when the reader sees every table, else per table within the scope. */
	int kind_day = !by_dealer ? REPORT_SPAN_DAY_TABLE : scope == NULL ? REPORT_SPAN_DAY_DEALER_ALL : REPORT_SPAN_DAY_DEALER;
	int kind_month = !by_dealer ? REPORT_SPAN_MONTH_TABLE :
	    scope == NULL ? REPORT_SPAN_MONTH_DEALER_ALL : REPORT_SPAN_MONTH_DEALER;
	int rc = -1;

	if (store_snapshot_begin(p->store, err) < 0)
		return -1;
	a = b = 0;
	if (spans) {
		if (store_report_rollup_get(p->store, &days_before, err) < 0)
			goto out;
		a = floor_div(from + 86399, 86400) * 86400;
		if (a < 86400)
			a = 86400;
		b = floor_div(to, 86400) * 86400;
		if (b > days_before - 86400)
			b = days_before - 86400;
	}
	if (!spans || b <= a) {
		rc = summary_hours(p, scope, sm, from - 3600, to + 3600, from, to, err);
		goto out;
	}
	if (from < a && (rc = summary_hours(p, scope, sm, from - 3600, a + 3600, from, a, err)) != 0)
		goto out;
	sm->spans_from = a;
	m1 = months ? report_month_start(a) : a;
	if (m1 < a)
		m1 = report_month_next(m1);
	m2 = months ? report_month_start(b) : a;
	if (m2 > m1) {
		if ((rc = store_report_spans(p->store, scope, kind_day, a, m1, summary_span, sm, err)) != 0 ||
		    (rc = store_report_spans(p->store, scope, kind_month, m1, m2, summary_span, sm, err)) != 0 ||
		    (rc = store_report_spans(p->store, scope, kind_day, m2, b, summary_span, sm, err)) != 0)
			goto out;
	} else if ((rc = store_report_spans(p->store, scope, kind_day, a, b, summary_span, sm, err)) != 0) {
		goto out;
	}
	if ((rc = store_report_spans(p->store, scope, kind_day, b, b + 86400, summary_carry_only, sm, err)) != 0)
		goto out;
	rc = summary_hours(p, scope, sm, b - 3600, to + 3600, b, to, err);
out:
	store_snapshot_end(p->store);
	return rc;
}

static void
summary_free(struct summary *sm)
{
	for (size_t i = 0; i < sm->count; i++)
		acc_free(&sm->groups[i]);
	free(sm->groups);
	free(sm->slots);
	free(sm->series);
	acc_free(&sm->totals);
}

int
pit_report_summary(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err)
{
	struct summary sm;
	struct game_list gl = {0};
	char *scope = NULL;
	json_t *groups = NULL, *o = NULL;
	int rc = -1;

	*out = NULL;
	memset(&sm, 0, sizeof(sm));
	if (report_scope(p, a, q, &scope, err) < 0)
		return -1;
	sm.q = q;
	sm.from_hour = q->from_ms / 1000;
	sm.to_hour = q->to_ms / 1000;
	if (summary_read(p, q, scope, &sm, err) != 0)
		goto out;
	if (sm.count > 0)
		qsort(sm.groups, sm.count, sizeof(sm.groups[0]), cmp_group);
	groups = json_array();
	for (size_t i = 0; i < sm.count; i++) {
		json_t *g = group_json(p, &gl, &sm.groups[i], true, err);
		if (g == NULL)
			goto out;
		json_array_append_new(groups, g);
	}
	if ((o = group_json(p, &gl, &sm.totals, false, err)) == NULL)
		goto out;
	*out = json_pack("{s:o,s:o,s:s,s:o,s:i,s:o,s:o}", "from", time_json(q->from_ms), "to", time_json(q->to_ms),
	    "group", GROUP_NAMES[q->group], "table", q->table[0] ? json_string(q->table) : json_null(),
	    "tz_offset", q->tz_offset, "groups", groups, "totals", o);
	groups = o = NULL;
	if (*out == NULL) {
		pb_fail(err, 500, "out_of_memory", "out of memory");
		goto out;
	}
	if (q->group == REPORT_GROUP_SHIFT) {
		json_t *sh = json_array();
		for (int i = 0; i < q->shift_count; i++) {
			char t[8];
			snprintf(t, sizeof(t), "%02d:%02d", q->shifts[i] / 60, q->shifts[i] % 60);
			json_array_append_new(sh, json_string(t));
		}
		json_object_set_new(*out, "shifts", sh);
	}
	rc = 0;
out:
	json_decref(groups);
	json_decref(o);
	summary_free(&sm);
	free(gl.items);
	free(scope);
	return rc;
}

/* ---- the largest payouts ---- */

static json_t *
cards_json(const card_t c[3], int n)
{
	json_t *a = json_array();
	char t[3];

	for (int i = 0; i < n; i++) {
		card_format(c[i], t);
		json_array_append_new(a, json_string(t));
	}
	return a;
}

/* The hand a line was paid on: best five of six for the six card bonus, else the seat's three cards. */
static json_t *
payout_hand(const struct report_payout *rp)
{
	if (!rp->has_cards)
		return json_null();
	if (rp->wager == WAGER_SIX_CARD) {
		card_t six[6];
		if (!rp->has_dealer)
			return json_null();
		memcpy(six, rp->cards, 3);
		memcpy(six + 3, rp->dealer, 3);
		return json_string(hand6_category_name(hand6_category(six)));
	}
	return json_string(hand3_category_name(HAND3_CATEGORY(hand3_value(rp->cards))));
}

int
pit_report_payouts(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err)
{
	struct report_payout *rows = NULL;
	char from[PB_TIME_LEN], to[PB_TIME_LEN], *scope = NULL;
	json_t *arr;
	int n = 0, rc = -1;

	*out = NULL;
	if (report_scope(p, a, q, &scope, err) < 0)
		return -1;
	rows = calloc((size_t)q->limit, sizeof(*rows));
	if (rows == NULL) {
		pb_fail(err, 500, "out_of_memory", "out of memory");
		goto out;
	}
	pb_time_format_ms(q->from_ms, from);
	pb_time_format_ms(q->to_ms, to);
	if (store_report_payouts(p->store, scope, q->min_net, from, to, q->limit, rows, &n, err) < 0)
		goto out;
	arr = json_array();
	for (int i = 0; i < n; i++) {
		const struct report_payout *r = &rows[i];
		json_array_append_new(arr, json_pack("{s:I,s:s,s:i,s:s,s:I,s:I,s:o,s:o,s:o,s:s}",
		    "round", (json_int_t)r->round_id, "table", r->table_id, "seat", r->seat, "wager", wager_name(r->wager),
		    "stake", (json_int_t)r->stake, "net", (json_int_t)r->net, "hand", payout_hand(r),
		    "cards", r->has_cards ? cards_json(r->cards, 3) : json_null(),
		    "dealer", r->has_dealer ? cards_json(r->dealer, 3) : json_null(), "at", r->at));
	}
	*out = json_pack("{s:s,s:s,s:o,s:I,s:i,s:o}", "from", from, "to", to,
	    "table", q->table[0] ? json_string(q->table) : json_null(), "min", (json_int_t)q->min_net, "limit", q->limit,
	    "payouts", arr);
	if (*out == NULL) {
		pb_fail(err, 500, "out_of_memory", "out of memory");
		goto out;
	}
	rc = 0;
out:
	free(rows);
	free(scope);
	return rc;
}

/* ---- exceptions ---- */

static int
cmp_exception(const void *a, const void *b)
{
	const struct report_exception *x = a, *y = b;
	int c = strcmp(x->at, y->at);

	if (c != 0)
		return c;
	if (x->round_id != y->round_id)
		return x->round_id < y->round_id ? -1 : 1;
	if (x->event_id != y->event_id)
		return x->event_id < y->event_id ? -1 : 1;
	if (x->seat != y->seat)
		return x->seat < y->seat ? -1 : 1;
	if (x->wager != y->wager)
		return x->wager < y->wager ? -1 : 1;
	return strcmp(x->kind, y->kind);
}

static json_t *
exception_json(const struct report_exception *e)
{
	json_t *o = json_pack("{s:s,s:o,s:o,s:s}", "at", e->at,
	    "table", e->table_id[0] ? json_string(e->table_id) : json_null(),
	    "round", e->round_id ? json_integer(e->round_id) : json_null(), "kind", e->kind);
	char detail[256];

	if (o == NULL)
		return NULL;
	if (strcmp(e->kind, "coverage_short") == 0) {
		snprintf(detail, sizeof(detail), "seat %d %s: a win of %lld was paid %lld; %lld short, the bank ran out", e->seat,
		    wager_name(e->wager), (long long)(e->net + e->short_amount), (long long)e->net, (long long)e->short_amount);
		json_object_set_new(o, "detail", json_string(detail));
		json_object_set_new(o, "seat", json_integer(e->seat));
		json_object_set_new(o, "wager", json_string(wager_name(e->wager)));
		json_object_set_new(o, "stake", json_integer(e->stake));
		json_object_set_new(o, "net", json_integer(e->net));
		json_object_set_new(o, "short", json_integer(e->short_amount));
	} else {
		json_object_set_new(o, "detail", json_string(e->detail ? e->detail : ""));
	}
	if (e->event_id != 0) {
		json_object_set_new(o, "event", json_integer(e->event_id));
		json_object_set_new(o, "source", json_string(e->source));
	}
	return o;
}

int
pit_report_exceptions(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err)
{
	struct report_exception_list list = {0};
	char from[PB_TIME_LEN], to[PB_TIME_LEN], *scope = NULL, *codes = NULL;
	json_t *arr = NULL, *pat;
	int rc = -1, n;

	*out = NULL;
	if (report_scope(p, a, q, &scope, err) < 0)
		return -1;
	pat = json_array();
	for (int i = 0; EXCEPTION_CODE_PATTERNS[i] != NULL; i++)
		json_array_append_new(pat, json_string(EXCEPTION_CODE_PATTERNS[i]));
	codes = json_dumps(pat, JSON_COMPACT);
	json_decref(pat);
	if (codes == NULL) {
		pb_fail(err, 500, "out_of_memory", "out of memory");
		goto out;
	}
	pb_time_format_ms(q->from_ms, from);
	pb_time_format_ms(q->to_ms, to);
	/* Each source oldest first, one more than the limit: merged, cut, and "truncated" says so. */
	if (store_report_voids(p->store, scope, from, to, q->limit + 1, &list, err) < 0 ||
	    store_report_shorts(p->store, scope, from, to, q->limit + 1, &list, err) < 0 ||
	    store_report_significant(p->store, scope, codes, from, to, q->limit + 1, &list, err) < 0)
		goto out;
	if (list.count > 0)
		qsort(list.items, (size_t)list.count, sizeof(list.items[0]), cmp_exception);
	n = list.count < q->limit ? list.count : q->limit;
	arr = json_array();
	for (int i = 0; i < n; i++) {
		json_t *e = exception_json(&list.items[i]);
		if (e == NULL) {
			pb_fail(err, 500, "out_of_memory", "out of memory");
			goto out;
		}
		json_array_append_new(arr, e);
	}
	*out = json_pack("{s:s,s:s,s:o,s:i,s:b,s:o}", "from", from, "to", to,
	    "table", q->table[0] ? json_string(q->table) : json_null(), "limit", q->limit,
	    "truncated", list.count > q->limit, "exceptions", arr);
	arr = NULL;
	if (*out == NULL) {
		pb_fail(err, 500, "out_of_memory", "out of memory");
		goto out;
	}
	rc = 0;
out:
	json_decref(arr);
	report_exception_list_free(&list);
	free(codes);
	free(scope);
	return rc;
}

int
pit_report(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out, struct pb_error *err)
{
	switch (q->kind) {
	case REPORT_SUMMARY: return pit_report_summary(p, a, q, out, err);
	case REPORT_PAYOUTS: return pit_report_payouts(p, a, q, out, err);
	case REPORT_EXCEPTIONS: return pit_report_exceptions(p, a, q, out, err);
	case REPORT_BANKERS: return pit_report_bankers(p, a, q, out, err);
	}
	return pb_fail(err, 500, "internal_error", "unknown report");
}

/* ---- CSV ---- */

struct csv {
	char *buf;
	size_t len, cap;
	bool oom;
	bool row_start;
};

static void
csv_raw(struct csv *c, const char *s, size_t n)
{
	if (c->oom)
		return;
	if (c->len + n + 1 > c->cap) {
		size_t cap = c->cap ? c->cap : 4096;
		char *nb;
		while (c->len + n + 1 > cap)
			cap *= 2;
		if ((nb = realloc(c->buf, cap)) == NULL) {
			c->oom = true;
			return;
		}
		c->buf = nb;
		c->cap = cap;
	}
	memcpy(c->buf + c->len, s, n);
	c->len += n;
	c->buf[c->len] = '\0';
}

static void
csv_sep(struct csv *c)
{
	if (!c->row_start)
		csv_raw(c, ",", 1);
	c->row_start = false;
}

/*
 * A text field, quoted when it holds a comma, quote, CR or LF (RFC 4180).
 * free_text: a value a person typed (a void reason, an event's detail) that
 * starts with = + - @ or a tab is prefixed with ' so that a spreadsheet
 * shows it rather than evaluating it as a formula.
 */
static void
csv_text(struct csv *c, const char *s, bool free_text)
{
	bool quote = strpbrk(s, ",\"\r\n") != NULL;

	csv_sep(c);
	if (quote)
		csv_raw(c, "\"", 1);
	if (free_text && strchr("=+-@\t\r", s[0]) != NULL && s[0] != '\0')
		csv_raw(c, "'", 1);
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			csv_raw(c, "\"\"", 2);
		else
			csv_raw(c, p, 1);
	}
	if (quote)
		csv_raw(c, "\"", 1);
}

static void
csv_end_row(struct csv *c)
{
	csv_raw(c, "\r\n", 2);
	c->row_start = true;
}

/* The shortest decimal that reads back as the same double. */
static void
format_real(double v, char *out, size_t outsz)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(out, outsz, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			return;
	}
}

/* A JSON scalar as a field: null empty, integers exact, reals shortest, arrays of strings space-joined. */
static void
csv_json(struct csv *c, const json_t *v, bool free_text)
{
	char t[64];

	if (v == NULL || json_is_null(v)) {
		csv_sep(c);
	} else if (json_is_integer(v)) {
		snprintf(t, sizeof(t), "%lld", (long long)json_integer_value(v));
		csv_text(c, t, false);
	} else if (json_is_real(v)) {
		format_real(json_real_value(v), t, sizeof(t));
		csv_text(c, t, false);
	} else if (json_is_string(v)) {
		csv_text(c, json_string_value(v), free_text);
	} else if (json_is_boolean(v)) {
		csv_text(c, json_is_true(v) ? "true" : "false", false);
	} else if (json_is_array(v)) {
		struct csv part = {0};
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) {
			if (i > 0)
				csv_raw(&part, " ", 1);
			if (json_is_string(x))
				csv_raw(&part, json_string_value(x), strlen(json_string_value(x)));
		}
		c->oom = c->oom || part.oom;
		csv_text(c, part.buf ? part.buf : "", false);
		free(part.buf);
	} else {
		csv_sep(c);
	}
}

/* Cents as a decimal amount: 123456 -> "1234.56", -5 -> "-0.05"; empty for null. */
static void
csv_amount(struct csv *c, const json_t *v)
{
	char t[40];
	long long cents, whole;

	if (!json_is_integer(v)) {
		csv_sep(c);
		return;
	}
	cents = json_integer_value(v);
	whole = cents / 100;
	snprintf(t, sizeof(t), "%s%lld.%02lld", cents < 0 ? "-" : "", whole < 0 ? -whole : whole,
	    cents % 100 < 0 ? -(cents % 100) : cents % 100);
	csv_text(c, t, false);
}

/* The summary's columns: a JSON path of one or two keys, as an amount or as is. */
static const struct summary_column {
	const char *header;
	const char *k1, *k2;
	bool amount;
} SUMMARY_COLUMNS[] = {
	{"key", "key", NULL, false},
	{"rounds", "rounds", NULL, false},
	{"voids", "voids", NULL, false},
	{"hands", "hands", NULL, false},
	{"handle_ante", "handle", "ante", false},
	{"handle_play", "handle", "play", false},
	{"handle_pair_plus", "handle", "pair_plus", false},
	{"handle_six_card", "handle", "six_card", false},
	{"handle_total", "handle", "total", false},
	{"house_win_ante", "house_win", "ante", false},
	{"house_win_play", "house_win", "play", false},
	{"house_win_pair_plus", "house_win", "pair_plus", false},
	{"house_win_six_card", "house_win", "six_card", false},
	{"house_win_ante_bonus", "house_win", "ante_bonus", false},
	{"house_win_total", "house_win", "total", false},
	{"hold", "hold", NULL, false},
	{"theoretical_win", "theoretical_win", NULL, false},
	{"theoretical_hold", "theoretical_hold", NULL, false},
	{"hold_flag", "hold_flag", NULL, false},
	{"win_interval_low", "win_interval", "low", false},
	{"win_interval_high", "win_interval", "high", false},
	{"hands_per_hour", "hands_per_hour", NULL, false},
	{"average_bet", "average_bet", NULL, false},
	{"play_seconds", "play_seconds", NULL, false},
	{"handle_total_amount", "handle", "total", true},
	{"house_win_total_amount", "house_win", "total", true},
	{"theoretical_win_amount", "theoretical_win", NULL, true},
};

static const json_t *
path_get(const json_t *o, const char *k1, const char *k2)
{
	const json_t *v = json_object_get(o, k1);

	return k2 != NULL && json_is_object(v) ? json_object_get(v, k2) : (k2 != NULL ? NULL : v);
}

static void
summary_csv_row(struct csv *c, const char *row, const json_t *g)
{
	csv_text(c, row, false);
	for (size_t i = 0; i < sizeof(SUMMARY_COLUMNS) / sizeof(SUMMARY_COLUMNS[0]); i++) {
		const struct summary_column *col = &SUMMARY_COLUMNS[i];
		const json_t *v = path_get(g, col->k1, col->k2);
		if (col->amount)
			csv_amount(c, v);
		else
			csv_json(c, v, false);
	}
	csv_end_row(c);
}

/* Named columns of an array of objects; amount columns name the field they format. */
static void
list_csv(struct csv *c, const json_t *arr, const char *const *fields, const char *const *amount_of,
    const char *free_text_field)
{
	size_t i;
	const json_t *o;

	json_array_foreach(arr, i, o) {
		for (int f = 0; fields[f] != NULL; f++) {
			if (amount_of[f] != NULL)
				csv_amount(c, json_object_get(o, amount_of[f]));
			else
				csv_json(c, json_object_get(o, fields[f]),
				    free_text_field != NULL && strcmp(fields[f], free_text_field) == 0);
		}
		csv_end_row(c);
	}
}

char *
report_csv(enum report_kind kind, const json_t *report, size_t *len)
{
	static const char *const PAYOUT_FIELDS[] = {"round", "table", "seat", "wager", "stake", "net", "net_amount", "hand",
		"cards", "dealer", "at", NULL};
	static const char *const PAYOUT_AMOUNTS[] = {NULL, NULL, NULL, NULL, NULL, NULL, "net", NULL, NULL, NULL, NULL, NULL};
	static const char *const EXCEPTION_FIELDS[] = {"at", "table", "round", "kind", "detail", "seat", "wager", "stake",
		"net", "short", "event", "source", NULL};
	static const char *const EXCEPTION_AMOUNTS[] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL};
	struct csv c = {.row_start = true};
	const char *const *header = NULL;

	switch (kind) {
	case REPORT_SUMMARY: {
		const json_t *g;
		size_t i;
		csv_text(&c, "row", false);
		for (size_t k = 0; k < sizeof(SUMMARY_COLUMNS) / sizeof(SUMMARY_COLUMNS[0]); k++)
			csv_text(&c, SUMMARY_COLUMNS[k].header, false);
		csv_end_row(&c);
		json_array_foreach(json_object_get(report, "groups"), i, g)
			summary_csv_row(&c, "group", g);
		if (json_object_get(report, "totals") != NULL)
			summary_csv_row(&c, "totals", json_object_get(report, "totals"));
		break;
	}
	case REPORT_PAYOUTS:
		header = PAYOUT_FIELDS;
		for (int f = 0; header[f] != NULL; f++)
			csv_text(&c, header[f], false);
		csv_end_row(&c);
		list_csv(&c, json_object_get(report, "payouts"), PAYOUT_FIELDS, PAYOUT_AMOUNTS, NULL);
		break;
	case REPORT_BANKERS: {
		static const char *const BANKER_FIELDS[] = {"table", "banker_seat", "rounds", "banker_result", "banker_result_amount",
			"banks_exhausted", "returned_for_coverage", "unpaid_short", "seat_fees", "banker_fees", NULL};
		static const char *const BANKER_AMOUNTS[] = {NULL, NULL, NULL, NULL, "banker_result", NULL, NULL, NULL, NULL, NULL, NULL};
		json_t *rowsj = json_array(), *t, *b;
		size_t i, j;
		header = BANKER_FIELDS;
		for (int f = 0; header[f] != NULL; f++)
			csv_text(&c, header[f], false);
		csv_end_row(&c);
		/* One row per banker seat, then the table's total with banker_seat "all". */
		json_array_foreach(json_object_get(report, "tables"), i, t) {
			json_t *all = json_object_get(t, "total");
			json_array_foreach(json_object_get(t, "bankers"), j, b) {
				json_t *row = json_deep_copy(b);
				json_object_set(row, "table", json_object_get(t, "table"));
				json_object_set_new(row, "banker_seat", json_object_get(b, "seat") ? json_copy(json_object_get(b, "seat")) : json_null());
				json_array_append_new(rowsj, row);
			}
			if (all != NULL) {
				json_t *row = json_deep_copy(all);
				json_object_set(row, "table", json_object_get(t, "table"));
				json_object_set_new(row, "banker_seat", json_string("all"));
				json_array_append_new(rowsj, row);
			}
		}
		list_csv(&c, rowsj, BANKER_FIELDS, BANKER_AMOUNTS, NULL);
		json_decref(rowsj);
		break;
	}
	case REPORT_EXCEPTIONS:
		header = EXCEPTION_FIELDS;
		for (int f = 0; header[f] != NULL; f++)
			csv_text(&c, header[f], false);
		csv_end_row(&c);
		list_csv(&c, json_object_get(report, "exceptions"), EXCEPTION_FIELDS, EXCEPTION_AMOUNTS, "detail");
		break;
	}
	if (c.oom) {
		free(c.buf);
		return NULL;
	}
	if (c.buf == NULL)
		c.buf = strdup("");
	*len = c.len;
	return c.buf;
}
