/*
 * acct_chips.c - counts of chips per denomination, checked and totalled
 * (accounting.h).
 */
#include "table/accounting/acct_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/money_text.h"
#include "engine/limits.h"

void
acct_chips_denominations(const struct config *cfg, char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < cfg->chip_count && len < n; i++)
		len += (size_t)snprintf(out + len, n - len, "%s%lld", i ? ", " : "", (long long)cfg->chips[i]);
}

int
acct_denomination_index(const char *key, const int64_t *denominations, size_t n)
{
	char *end;
	long long v;

	if (key[0] < '1' || key[0] > '9')
		return -1;
	errno = 0;
	v = strtoll(key, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	for (size_t i = 0; i < n; i++)
		if (denominations[i] == v)
			return (int)i;
	return -1;
}

/* The index of the chip denomination spelt key ("2500") among the property's, or -1. */
static int
denomination_index(const struct config *cfg, const char *key)
{
	return acct_denomination_index(key, cfg->chips, cfg->chip_count);
}

int
acct_chips_read(const json_t *v, const struct config *cfg, const char *what, struct acct_chips *out,
    struct pb_error *err)
{
	char list[400];
	const char *key;
	const json_t *n;

	memset(out, 0, sizeof(*out));
	acct_chips_denominations(cfg, list, sizeof(list));
	if (!json_is_object(v) || json_object_size(v) == 0)
		return pb_fail(err, 400, "empty_chips", "%s: count the chips per denomination in cents, e.g. {\"2500\": 40, "
		    "\"500\": 20}; the property's denominations are %s", what, list);
	json_object_foreach((json_t *)v, key, n) {
		int i = denomination_index(cfg, key);
		int64_t value;
		if (i < 0)
			return pb_fail(err, 400, "unknown_denomination", "%s: \"%.24s\" is not a denomination of this property; "
			    "they are %s (cents)", what, key, list);
		if (!json_is_integer(n) || json_integer_value(n) < 0 || json_integer_value(n) > ACCT_CHIP_COUNT_MAX)
			return pb_fail(err, 400, "invalid_count", "%s.%s: a count of chips, an integer from 0 to %d", what, key,
			    ACCT_CHIP_COUNT_MAX);
		out->count[i] = json_integer_value(n);
		out->given[i] = true;
		if (__builtin_mul_overflow(out->count[i], cfg->chips[i], &value) ||
		    __builtin_add_overflow(out->total, value, &out->total) || out->total > PB_MONEY_MAX)
			return pb_fail(err, 400, "total_overflow", "%s: the total is over the largest amount pitboss records; "
			    "count again", what);
	}
	return 0;
}

json_t *
acct_chips_json(const struct config *cfg, const struct acct_chips *c)
{
	json_t *o = json_object();
	char key[24];

	for (size_t i = 0; o != NULL && i < cfg->chip_count; i++) {
		if (!c->given[i])
			continue;
		snprintf(key, sizeof(key), "%lld", (long long)cfg->chips[i]);
		if (json_object_set_new(o, key, json_integer(c->count[i])) < 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

bool
acct_chips_equal(const struct acct_chips *a, const struct acct_chips *b)
{
	for (int i = 0; i < CONFIG_CHIPS_MAX; i++)
		if (a->count[i] != b->count[i])
			return false;
	return true;
}

void
acct_chips_differences(const struct config *cfg, const char *currency, const struct acct_chips *a,
    const struct acct_chips *was, char *out, size_t n)
{
	char chip[MONEY_TEXT_LEN];
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < cfg->chip_count && len < n; i++) {
		if (a->count[i] == was->count[i])
			continue;
		len += (size_t)snprintf(out + len, n - len, "%s%lld x %s (was %lld)", len ? ", " : "",
		    (long long)a->count[i], money_text_short(cfg->chips[i], currency, chip), (long long)was->count[i]);
	}
}
