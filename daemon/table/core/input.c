#include "table/core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "engine/limits.h"

int
input_known_keys(const json_t *obj, const char *where, const char *const *keys, struct pb_error *err)
{
	const char *k;
	const json_t *v;

	json_object_foreach((json_t *)obj, k, v) {
		bool known = false;
		for (const char *const *p = keys; *p != NULL; p++)
			if (strcmp(k, *p) == 0)
				known = true;
		if (!known) {
			char list[256] = "";
			if (keys[0] == NULL)
				return pb_fail(err, 400, "unknown_field", "%s: takes no fields; \"%.40s\" is not expected", where, k);
			for (const char *const *p = keys; *p != NULL; p++) {
				strncat(list, *p, sizeof(list) - strlen(list) - 1);
				if (p[1] != NULL)
					strncat(list, ", ", sizeof(list) - strlen(list) - 1);
			}
			return pb_fail(err, 400, "unknown_field", "%s: unknown field \"%.40s\"; the fields are %s", where, k, list);
		}
	}
	return 0;
}

int
input_text(const json_t *v, const char *key, size_t max, char *dst, size_t n, struct pb_error *err)
{
	dst[0] = '\0';
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) > max ||
	    pb_text_blank(json_string_value(v), json_string_length(v)))
		return pb_fail(err, 400, "invalid_body", "%s: 1 to %zu characters, not blank", key, max);
	if (pb_text_check_controls(key, json_string_value(v), json_string_length(v), err) < 0)
		return -1;
	snprintf(dst, n, "%s", json_string_value(v));
	return 0;
}

int
input_amount(const json_t *v, const char *field, int64_t *out, struct pb_error *err)
{
	if (!json_is_integer(v))
		return pb_fail(err, 400, "invalid_amount", "%s: must be an integer count of cents, e.g. 2500 for $25.00", field);
	if (json_integer_value(v) < 0)
		return pb_fail(err, 400, "invalid_amount", "%s: must not be negative", field);
	if (json_integer_value(v) > PB_MONEY_MAX)
		return pb_fail(err, 400, "invalid_amount", "%s: at most %lld cents", field, (long long)PB_MONEY_MAX);
	*out = json_integer_value(v);
	return 0;
}

int
input_seat_key(const char *key, int seats, int *seat, struct pb_error *err)
{
	char *end;
	long n;

	if (key == NULL || key[0] < '1' || key[0] > '9')
		return pb_fail(err, 422, "invalid_seat", "seat \"%.16s\" is not a seat of this table (1..%d)", key ? key : "", seats);
	n = strtol(key, &end, 10);
	if (*end != '\0' || n < 1 || n > seats)
		return pb_fail(err, 422, "invalid_seat", "seat \"%.16s\" is not a seat of this table (1..%d)", key, seats);
	*seat = (int)n;
	return 0;
}

int
input_three_cards(const json_t *v, const char *who, card_t out[3], struct pb_error *err)
{
	size_t i;
	const json_t *c;
	struct pb_error sub;

	if (!json_is_array(v))
		return pb_fail(err, 400, "invalid_cards", "%s: cards must be an array of three cards such as [\"As\", \"Kd\", \"Qh\"]", who);
	if (json_array_size(v) != 3)
		return pb_fail(err, 422, "wrong_card_count", "%s: exactly three cards, not %zu", who, json_array_size(v));
	json_array_foreach(v, i, c) {
		if (!json_is_string(c) || card_parse(json_string_value(c), &out[i], &sub) < 0)
			return pb_fail(err, 400, "invalid_card", "%s: %s", who,
			    json_is_string(c) ? sub.message : "a card must be a string such as \"As\"");
	}
	for (int a = 0; a < 3; a++)
		for (int b = a + 1; b < 3; b++)
			if (out[a] == out[b]) {
				char t[3];
				card_format(out[a], t);
				return pb_fail(err, 422, "duplicate_card", "card %s dealt twice: %s", t, who);
			}
	return 0;
}
