/*
 * property.h - "property" (who the floor is: its id and name, its time zone,
 * gaming day and shifts) and "chips" (its chip denominations): their key
 * tables, read at the top level (settings.c), and the calendar finished once
 * every key is read.
 */
#ifndef PB_CONFIG_PROPERTY_H
#define PB_CONFIG_PROPERTY_H

#include <jansson.h>

#include "config/config.h"
#include "config/keys.h"

/* The "property" section: id, name, time_zone, gaming_day_start, shifts. */
extern const struct cfg_section config_property;

/* The reader of "chips": 1..CONFIG_CHIPS_MAX positive amounts in cents, strictly ascending. */
int config_read_chips(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path,
    struct pb_error *err);

/*
 * Once the keys are read (present or defaulted): loads the zone, checks the
 * calendar (gaming_calendar_check's messages), names the property after its
 * id when it has no name, and refuses a gaming day or shift start that does
 * not fall on a whole UTC hour at every UTC offset the zone uses from 2000
 * to 2100 (the reports' aggregates are hourly).  400 invalid_config naming
 * the key.
 */
int property_finish(struct config *cfg, struct pb_error *err);

/*
 * A property's settings from its JSON object, as "property" in a
 * configuration (the central copy keeps each property's): read, finished
 * and checked as above.  The zone is owned by out: property_release.
 */
int property_from_json(const json_t *obj, struct property_config *out, struct pb_error *err);
void property_release(struct property_config *p);

#endif
