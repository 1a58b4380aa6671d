/*
 * cash_today.c - where a patron stands in the current gaming day, for the
 * pages that warn before a transaction is recorded (docs/players.md, "Title
 * 31 at the moment of action"): GET /players/{id} and GET /tables/{t}/seats
 * carry it as "cash_today".
 */
#include "table/players/players_private.h"

#include "common/timeutil.h"
#include "store/cash.h"

int
cash_today_json(struct pit *p, const char *player, const json_t *rec, json_t **out, struct pb_error *err)
{
	struct title31_limits lim;
	char now[PB_TIME_LEN], day[11];
	int64_t in, out_total;

	*out = NULL;
	title31_limits_of(p, &lim);
	pb_time_now(now);
	title31_gaming_day(&p->cfg->property.calendar, now, day);
	if (store_txn_side_total(p->store, day, player, "in", &in, err) < 0 ||
	    store_txn_side_total(p->store, day, player, "out", &out_total, err) < 0)
		return -1;
	*out = json_pack("{s:s,s:I,s:I,s:b,s:b,s:b}", "gaming_day", day, "cash_in", (json_int_t)in, "cash_out",
	    (json_int_t)out_total, "identified", player_identified(rec), "alert", in >= lim.alert_at ||
	    out_total >= lim.alert_at, "ctr", in > lim.ctr_over || out_total > lim.ctr_over);
	return *out != NULL ? 0 : pb_oom(err);
}
