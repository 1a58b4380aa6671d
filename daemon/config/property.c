/*
 * property.c - the "property" section and "chips" (property.h): the key
 * tables, the readers of local times, shifts and chips, and the calendar
 * finished with its zone.
 */
#include "config/property.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "engine/limits.h"

#define SAMPLE_FROM 946684800LL        /* 2000-01-01T00:00Z */
#define SAMPLE_TO 4102444800LL         /* 2100-01-01T00:00Z */

/* "HH:MM" into an int of minutes after midnight. */
static int
read_hhmm(const json_t *v, int *out)
{
	int m = json_is_string(v) ? gaming_parse_hhmm(json_string_value(v)) : -1;

	if (m < 0)
		return 1;
	*out = m;
	return 0;
}

static int
read_day_start(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path, struct pb_error *err)
{
	struct property_config *p = at->dst;

	(void)k;
	(void)path;
	(void)err;
	return read_hhmm(v, &p->calendar.day_start_min);
}

static int
read_shift_start(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path,
    struct pb_error *err)
{
	struct gaming_shift *s = at->dst;

	(void)k;
	(void)path;
	(void)err;
	return read_hhmm(v, &s->start_min);
}

static const struct cfg_key SHIFT_KEYS[] = {
	{.name = "name", .type = CFG_TEXT, CFG_FIELD(struct gaming_shift, name), .required = "required",
	 .must = "be 1..32 characters", .describe = "the shift's name, in the reports' keys"},
	{.name = "start", .type = CFG_CUSTOM, .read = read_shift_start, .required = "required",
	 .must = "be a local time \"HH:MM\"", .describe = "the local time the shift starts"},
};

static const struct cfg_section SHIFT = {
	.name = "a shift", .keys = SHIFT_KEYS, .count = CFG_COUNT(SHIFT_KEYS),
	.must = "be {\"name\": NAME, \"start\": \"HH:MM\"}", .noun = "a shift",
};

/* "shifts": an array of {name, start}, in the order of the gaming day (checked in property_finish). */
static int
read_shifts(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path, struct pb_error *err)
{
	struct property_config *p = at->dst;
	char where[160];
	size_t i;
	const json_t *e;

	(void)k;
	if (!json_is_array(v))
		return 1;
	if (json_array_size(v) > GAMING_SHIFTS_MAX)
		return pb_fail(err, 400, "invalid_config", "%s: at most %d shifts", path, GAMING_SHIFTS_MAX);
	memset(p->calendar.shifts, 0, sizeof(p->calendar.shifts));
	p->calendar.shift_count = 0;
	json_array_foreach(v, i, e) {
		snprintf(where, sizeof(where), "%s[%zu]", path, i);
		if (cfg_read_section(&SHIFT, e, where, at->dir, at->owner, &p->calendar.shifts[i], err) < 0)
			return -1;
	}
	p->calendar.shift_count = (int)json_array_size(v);
	return 0;
}

static const struct cfg_key PROPERTY_KEYS[] = {
	{.name = "id", .type = CFG_ID, CFG_FIELD(struct property_config, id), .def = "\"main\"", .reload = true,
	 .describe = "the property's id: 1..32 letters, digits, _ . -"},
	{.name = "name", .type = CFG_TEXT, CFG_FIELD(struct property_config, name), .reload = true,
	 .describe = "the property's name, for people; default: its id"},
	{.name = "time_zone", .type = CFG_TEXT, CFG_FIELD(struct property_config, time_zone), .def = "\"UTC\"",
	 .must = "be an IANA time zone name such as \"America/New_York\"", .reload = true,
	 .describe = "the zone of the gaming day and shifts"},
	{.name = "gaming_day_start", .type = CFG_CUSTOM, .read = read_day_start, .def = "\"00:00\"",
	 .must = "be a local time \"HH:MM\"", .reload = true, .describe = "the local time the gaming day starts"},
	{.name = "shifts", .type = CFG_CUSTOM, .read = read_shifts, .def = "[]",
	 .must = "be an array of {\"name\": NAME, \"start\": \"HH:MM\"}", .reload = true,
	 .describe = "the shifts of a gaming day, in its order"},
};

const struct cfg_section config_property = {
	.name = "property", .keys = PROPERTY_KEYS, .count = CFG_COUNT(PROPERTY_KEYS),
	.must = "be {\"id\", \"name\", \"time_zone\", \"gaming_day_start\", \"shifts\"}", .noun = "property",
};

int
config_read_chips(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path,
    struct pb_error *err)
{
	struct config *cfg = at->dst;
	size_t i;
	const json_t *e;

	(void)k;
	if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > CONFIG_CHIPS_MAX)
		return 1;
	json_array_foreach(v, i, e) {
		json_int_t c = json_is_integer(e) ? json_integer_value(e) : 0;
		if (c < 1 || c > PB_MONEY_MAX)
			return pb_fail(err, 400, "invalid_config", "%s[%zu]: must be a positive amount in cents", path, i);
		if (i > 0 && c <= cfg->chips[i - 1])
			return pb_fail(err, 400, "invalid_config",
			    "%s[%zu]: %lld after %lld: the denominations are distinct and in ascending order", path, i,
			    (long long)c, (long long)cfg->chips[i - 1]);
		cfg->chips[i] = c;
	}
	cfg->chip_count = json_array_size(v);
	return 0;
}

/* The distinct UTC offsets of the zone, sampled daily from 2000 to 2100. */
static int
zone_offsets(struct property_config *p, struct pb_error *err)
{
	p->offset_count = 0;
	for (int64_t t = SAMPLE_FROM; t < SAMPLE_TO; t += 86400) {
		int32_t o = tz_offset_at(p->tz, t);
		int i;
		for (i = 0; i < p->offset_count && p->offsets[i] != o; i++)
			;
		if (i < p->offset_count)
			continue;
		if (p->offset_count == CONFIG_ZONE_OFFSETS_MAX)
			return pb_fail(err, 400, "invalid_config", "property.time_zone: %s uses more than %d UTC offsets",
			    p->time_zone, CONFIG_ZONE_OFFSETS_MAX);
		p->offsets[p->offset_count++] = o;
	}
	return 0;
}

/* 0 when the local time `min` falls on a whole UTC hour at every offset of the zone; else the refusal for `key`. */
static int
check_whole_hour(const struct property_config *p, int min, const char *key, struct pb_error *err)
{
	for (int i = 0; i < p->offset_count; i++) {
		int32_t o = p->offsets[i];
		if ((((int64_t)min * 60 - o) % 3600 + 3600) % 3600 != 0)
			return pb_fail(err, 400, "invalid_config",
			    "%s: %02d:%02d in %s (UTC%c%02d:%02d) is not on a whole UTC hour; the reports' aggregates are "
			    "hourly, so gaming days and shifts must start on one", key, min / 60, min % 60, p->time_zone,
			    o < 0 ? '-' : '+', (o < 0 ? -o : o) / 3600, (o < 0 ? -o : o) % 3600 / 60);
	}
	return 0;
}

int
property_finish(struct config *cfg, struct pb_error *err)
{
	struct property_config *p = &cfg->property;
	struct pb_error sub;
	char key[64];

	if (p->name[0] == '\0')
		snprintf(p->name, sizeof(p->name), "%s", p->id);
	if ((p->tz = tz_load(p->time_zone, &sub)) == NULL)
		return pb_fail(err, 400, "invalid_config", "property.time_zone: %s", sub.message);
	p->calendar.tz = p->tz;
	if (gaming_calendar_check(&p->calendar, "property", err) < 0)
		return -1;
	if (zone_offsets(p, err) < 0 || check_whole_hour(p, p->calendar.day_start_min, "property.gaming_day_start", err) < 0)
		return -1;
	for (int i = 0; i < p->calendar.shift_count; i++) {
		snprintf(key, sizeof(key), "property.shifts[%d].start", i);
		if (check_whole_hour(p, p->calendar.shifts[i].start_min, key, err) < 0)
			return -1;
	}
	return 0;
}

int
property_from_json(const json_t *obj, struct property_config *out, struct pb_error *err)
{
	struct config *cfg = calloc(1, sizeof(*cfg));
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (cfg == NULL)
		return pb_oom(err);
	if (cfg_read_section(&config_property, obj, "property", "", cfg, &cfg->property, err) == 0 &&
	    property_finish(cfg, err) == 0) {
		*out = cfg->property;
		cfg->property.tz = NULL;
		rc = 0;
	}
	tz_free(cfg->property.tz);
	free(cfg);
	return rc;
}

void
property_release(struct property_config *p)
{
	tz_free(p->tz);
	p->tz = NULL;
	p->calendar.tz = NULL;
}
