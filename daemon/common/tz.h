/*
 * tz.h - a property's time zone, by its IANA name ("America/New_York"), read
 * from the system's compiled zone files (TZif, RFC 8536; Debian's tzdata
 * package, /usr/share/zoneinfo, or $TZDIR).  Thread-safe and independent of
 * the process's TZ: every question names its zone.
 *
 * Local times are counted like Unix times: seconds since 1970-01-01T00:00 of
 * the local calendar, so that local / 86400 is the local day number.
 */
#ifndef PB_COMMON_TZ_H
#define PB_COMMON_TZ_H

#include <stdint.h>

#include "common/error.h"

#define TZ_NAME_MAX 64

struct tz;

/*
 * Loads the zone named name: letters, digits and "/_-+" only, no "..", as the
 * IANA database names them ("UTC" included).  400 invalid_config naming the
 * zone when it is unknown or its file unreadable.
 */
struct tz *tz_load(const char *name, struct pb_error *err);
void tz_free(struct tz *z);

/* The zone's name as loaded. */
const char *tz_name(const struct tz *z);

/* Seconds east of UTC in force at the Unix time t (seconds). */
int32_t tz_offset_at(const struct tz *z, int64_t t);

/* The local time (seconds, see above) of the Unix time t. */
int64_t tz_local_of(const struct tz *z, int64_t t);

/*
 * The Unix time at which the local clock first shows `local`.  When the
 * clock passes `local` twice (the hour repeated when daylight saving ends),
 * the earlier instant; when it skips it (the hour lost when it starts), the
 * instant the clock jumps over it.
 */
int64_t tz_utc_of_local(const struct tz *z, int64_t local);

/* Days since 1970-01-01 of a civil date, and back (proleptic Gregorian). */
int64_t tz_days_from_civil(int64_t y, unsigned m, unsigned d);
void tz_civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d);

#endif
