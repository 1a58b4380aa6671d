/*
 * reports_bankers.c - the banker report (reports.h, REPORT_BANKERS): per
 * player-banked table and banker seat, and per named banker, the banker's
 * result, how often the bank ran out, wagers returned for lack of coverage,
 * unpaid shorts and the house's collections.
 */
#include <string.h>

#include "store/store.h"
#include "table/reports/reports.h"
#include "table/rounds/rounds.h"

/* One banker row (or a table's total) as the banker report shows it. */
static json_t *
banker_row_json(const struct banker_report_row *r)
{
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "rounds", (json_int_t)r->rounds,
	    "banker_result", (json_int_t)r->result, "banks_exhausted", (json_int_t)r->exhausted,
	    "returned_for_coverage", (json_int_t)r->returned, "unpaid_short", (json_int_t)r->shorts,
	    "seat_fees", (json_int_t)r->seat_fees, "banker_fees", (json_int_t)r->banker_fees);
}

/* One named banker's row of the report per person, appended to the array arg. */
static void
person_row(void *arg, const struct banker_person_row *r)
{
	json_t *o = json_pack("{s:I,s:I,s:I,s:I}", "rounds", (json_int_t)r->rounds, "banker_result", (json_int_t)r->result,
	    "banker_fees", (json_int_t)r->banker_fees, "seats", (json_int_t)r->seats);

	banker_names_to_json(r->player, r->badge, r->company, o);
	json_array_append_new(arg, o);
}

int
pit_report_bankers(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err)
{
	char from[PB_TIME_LEN], to[PB_TIME_LEN];
	json_t *tables;

	if (authorize(a, OP_REPORT_READ, NULL, err) < 0)
		return -1;
	if (q->table[0] != '\0') {
		const struct table_config *t = config_table(p->cfg, q->table);
		if (t == NULL)
			return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", q->table);
		if (pit_check_table_access(a, t->id, false, err) < 0)
			return -1;
		if (!t->player_banked)
			return pb_fail(err, 404, "not_player_banked", "table %s is house-banked; the banker report is for player-banked tables", t->id);
	}
	pb_time_format_ms(q->from_ms, from);
	pb_time_format_ms(q->to_ms, to);
	tables = json_array();
	for (size_t i = 0; i < p->cfg->table_count; i++) {
		const struct table_config *t = &p->cfg->tables[i];
		struct banker_report_row rows[MAX_SEATS + 1];
		int64_t voids;
		json_t *bankers, *o, *people;

		if (!t->player_banked || (q->table[0] != '\0' && strcmp(q->table, t->id) != 0) ||
		    (a->token != NULL && !token_allows_table(a->token, t->id)))
			continue;
		if (store_banker_report(p->store, t->id, from, to, rows, &voids, err) < 0) {
			json_decref(tables);
			return -1;
		}
		people = json_array();
		if (store_banker_report_people(p->store, t->id, from, to, person_row, people, err) < 0) {
			json_decref(people);
			json_decref(tables);
			return -1;
		}
		bankers = json_array();
		for (int s = 1; s <= MAX_SEATS; s++) {
			json_t *b;
			if (rows[s].rounds == 0)
				continue;
			b = banker_row_json(&rows[s]);
			json_object_set_new(b, "seat", json_integer(s));
			json_array_append_new(bankers, b);
		}
		o = json_pack("{s:s,s:s,s:s,s:I,s:o,s:o,s:o}", "table", t->id, "name", t->name, "currency", t->currency,
		    "voids", (json_int_t)voids, "total", banker_row_json(&rows[0]), "bankers", bankers, "people", people);
		json_object_set_new(o, "exhausted_rate", rows[0].rounds > 0 ? json_real((double)rows[0].exhausted / (double)rows[0].rounds)
		    : json_null());
		json_array_append_new(tables, o);
	}
	*out = json_pack("{s:s,s:s,s:o}", "from", from, "to", to, "tables", tables);
	return 0;
}
