/*
 * hold.c - putting a table on integrity hold, and lifting it.
 */
#include "table/audit/audit.h"

#include <stdio.h>

#include "common/text.h"
#include "store/audit.h"

int
audit_hold_table(struct store *s, const char *table_id, const json_t *problems, const char *part, struct pb_error *err)
{
	const char *first = json_string_value(json_object_get(json_array_get(problems, 0), "problem"));
	json_t *detail = json_pack("{s:O,s:s}", "problems", (json_t *)problems, "part", part);
	char reason[300], held_for[8];
	bool held;

	snprintf(reason, sizeof(reason), "start-up integrity check failed: %s", first ? first : "");
	if (detail == NULL)
		return pb_oom(err);
	if (store_begin(s, err) < 0)
		goto fail;
	if (store_table_hold_get(s, table_id, held_for, sizeof(held_for), &held, err) < 0 ||
	    (!held && store_table_hold(s, table_id, reason, err) < 0) ||
	    store_significant(s, "pitbossd", "integrity_failure", table_id, detail, err) < 0) {
		store_rollback(s);
		goto fail;
	}
	if (store_commit(s, err) < 0)
		goto fail;
	json_decref(detail);
	return 0;
fail:
	json_decref(detail);
	return -1;
}

int
pit_table_acknowledge(struct pit *p, const struct actor *a, const char *table_id, const json_t *body, json_t **out,
    struct pb_error *err)
{
	const struct table_config *t = config_table(p->cfg, table_id);
	const json_t *note = json_object_get(body, "note");
	char reason[300];
	bool held;
	json_t *detail;
	static const char *const KEYS[] = {"note", NULL};

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", table_id);
	if (authorize(a, OP_ACKNOWLEDGE, NULL, err) < 0 || input_known_keys(body, "acknowledge", KEYS, err) < 0)
		return -1;
	if (!json_is_string(note) || json_string_length(note) > 500 ||
	    pb_text_blank(json_string_value(note), json_string_length(note)))
		return pb_fail(err, 422, "note_required",
		    "say what was found and done, as {\"note\": \"...\"} (1..500 bytes, not blank)");
	if (pb_text_check_controls("acknowledge: note", json_string_value(note), json_string_length(note), err) < 0)
		return -1;
	if (store_begin(p->store, err) < 0)
		return -1;
	if (store_table_hold_get(p->store, t->id, reason, sizeof(reason), &held, err) < 0)
		goto fail;
	if (!held) {
		store_rollback(p->store);
		return pb_fail(err, 409, "no_hold", "table %s is not on an integrity hold", t->id);
	}
	detail = json_pack("{s:s,s:O}", "hold", reason, "note", note);
	if (store_table_hold(p->store, t->id, NULL, err) < 0 ||
	    store_significant(p->store, a->name, "integrity_acknowledged", t->id, detail, err) < 0) {
		json_decref(detail);
		goto fail;
	}
	json_decref(detail);
	if (store_commit(p->store, err) < 0)
		return -1;
	*out = json_pack("{s:s,s:b}", "table", t->id, "hold", 0);
	return 0;
fail:
	store_rollback(p->store);
	return -1;
}
