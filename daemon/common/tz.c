/*
 * tz.c - time zones from TZif files (RFC 8536): the transitions the file
 * lists, and after the last one the POSIX TZ rule of its footer
 * ("EST5EDT,M3.2.0,M11.1.0"), so that a zone is right in any year.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tz.h"

#define TZ_FILE_MAX (1 << 20)
#define TZ_DIR_DEFAULT "/usr/share/zoneinfo"

/* A date rule of a POSIX TZ string: Mm.w.d, Jn (1..365, no Feb 29) or n (0..365). */
struct tz_date {
	char kind;          /* 'M', 'J' or 'n' */
	int m, w, d, n;
	int32_t time;       /* seconds after local midnight; default 02:00 */
};

struct tz_rule {
	bool present;
	bool has_dst;
	int32_t std_off, dst_off;   /* seconds east of UTC */
	struct tz_date start, end;  /* into daylight time, out of it */
};

struct tz_type {
	int32_t utoff;
	bool isdst;
};

struct tz {
	char name[TZ_NAME_MAX];
	int64_t *trans;
	uint8_t *idx;
	int ntrans;
	struct tz_type *types;
	int ntypes;
	struct tz_rule rule;
};

/* ---- civil dates (H. Hinnant's algorithms) ---- */

int64_t
tz_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

void
tz_civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	int64_t era;
	unsigned doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static int64_t
floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

static bool
leap_year(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static unsigned
month_days(int64_t y, unsigned m)
{
	static const unsigned DAYS[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	return m == 2 && leap_year(y) ? 29 : DAYS[m - 1];
}

/* ---- the POSIX TZ rule of the footer ---- */

/* A zone abbreviation: <...> or three or more letters. */
static const char *
parse_abbr(const char *p)
{
	const char *s = p;

	if (*p == '<') {
		while (*p && *p != '>')
			p++;
		return *p == '>' ? p + 1 : NULL;
	}
	while (isalpha((unsigned char)*p))
		p++;
	return p - s >= 3 ? p : NULL;
}

/* [+-]hh[:mm[:ss]], hours up to 167; *secs as written (POSIX offsets are west-positive). */
static const char *
parse_hms(const char *p, int32_t *secs)
{
	int sign = 1, part[3] = {0, 0, 0};

	if (*p == '+' || *p == '-')
		sign = *p++ == '-' ? -1 : 1;
	for (int i = 0; i < 3; i++) {
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p) && part[i] < 1000)
			part[i] = part[i] * 10 + (*p++ - '0');
		if (*p != ':' || i == 2)
			break;
		p++;
	}
	if (part[0] > 167 || part[1] > 59 || part[2] > 59)
		return NULL;
	*secs = sign * (part[0] * 3600 + part[1] * 60 + part[2]);
	return p;
}

static const char *
parse_number(const char *p, int *out)
{
	int v = 0;

	if (!isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p) && v < 10000)
		v = v * 10 + (*p++ - '0');
	*out = v;
	return p;
}

/* ",Mm.w.d[/time]", ",Jn[/time]" or ",n[/time]". */
static const char *
parse_date(const char *p, struct tz_date *dt)
{
	if (*p++ != ',')
		return NULL;
	dt->time = 7200;
	if (*p == 'M') {
		dt->kind = 'M';
		if ((p = parse_number(p + 1, &dt->m)) == NULL || *p++ != '.' || (p = parse_number(p, &dt->w)) == NULL ||
		    *p++ != '.' || (p = parse_number(p, &dt->d)) == NULL)
			return NULL;
		if (dt->m < 1 || dt->m > 12 || dt->w < 1 || dt->w > 5 || dt->d > 6)
			return NULL;
	} else {
		dt->kind = *p == 'J' ? 'J' : 'n';
		if ((p = parse_number(p + (*p == 'J'), &dt->n)) == NULL)
			return NULL;
		if (dt->kind == 'J' ? dt->n < 1 || dt->n > 365 : dt->n > 365)
			return NULL;
	}
	if (*p == '/')
		p = parse_hms(p + 1, &dt->time);
	return p;
}

/* Parses "STDoff[DST[off][,start,end]]"; 0 or -1. */
static int
parse_rule(const char *s, struct tz_rule *r)
{
	const char *p = parse_abbr(s);
	int32_t off;

	memset(r, 0, sizeof(*r));
	if (p == NULL || (p = parse_hms(p, &off)) == NULL)
		return -1;
	r->std_off = -off;
	r->dst_off = r->std_off + 3600;
	if (*p != '\0') {
		if ((p = parse_abbr(p)) == NULL)
			return -1;
		r->has_dst = true;
		if (*p != ',' && *p != '\0') {
			if ((p = parse_hms(p, &off)) == NULL)
				return -1;
			r->dst_off = -off;
		}
		if (*p == '\0') {   /* no rule given: POSIX's default, the US rule */
			r->start = (struct tz_date){'M', 3, 2, 0, 0, 7200};
			r->end = (struct tz_date){'M', 11, 1, 0, 0, 7200};
		} else if ((p = parse_date(p, &r->start)) == NULL || (p = parse_date(p, &r->end)) == NULL) {
			return -1;
		}
	}
	if (*p != '\0')
		return -1;
	r->present = true;
	return 0;
}

/* The local day number (days since 1970-01-01) of a date rule in year y. */
static int64_t
rule_day(const struct tz_date *dt, int64_t y)
{
	int64_t first;
	int dow, day;

	if (dt->kind == 'J')
		return tz_days_from_civil(y, 1, 1) + dt->n - 1 + (leap_year(y) && dt->n >= 60);
	if (dt->kind == 'n')
		return tz_days_from_civil(y, 1, 1) + dt->n;
	first = tz_days_from_civil(y, (unsigned)dt->m, 1);
	dow = (int)((first % 7 + 7 + 4) % 7);   /* 1970-01-01 was a Thursday */
	day = 1 + (dt->d - dow + 7) % 7 + 7 * (dt->w - 1);
	while (day > (int)month_days(y, (unsigned)dt->m))
		day -= 7;
	return first + day - 1;
}

/* Whether daylight time is in force at Unix time t under the rule. */
static bool
rule_is_dst(const struct tz_rule *r, int64_t t)
{
	int64_t y, start, end;
	unsigned m, d;

	if (!r->has_dst)
		return false;
	tz_civil_from_days(floor_div(t + r->std_off, 86400), &y, &m, &d);
	start = rule_day(&r->start, y) * 86400 + r->start.time - r->std_off;
	end = rule_day(&r->end, y) * 86400 + r->end.time - r->dst_off;
	if (start < end)
		return t >= start && t < end;
	return !(t >= end && t < start);   /* southern hemisphere: daylight time spans the new year */
}

/* ---- the TZif file ---- */

static int64_t
be_int(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	if (n == 4)
		return (int32_t)(uint32_t)v;
	return (int64_t)v;
}

struct tzif_counts {
	int64_t isut, isstd, leap, time, type, chars;
};

/* The six counts of a header at p; -1 when the header is not TZif. */
static int
read_header(const unsigned char *p, size_t avail, struct tzif_counts *c, char *version)
{
	if (avail < 44 || memcmp(p, "TZif", 4) != 0)
		return -1;
	*version = (char)p[4];
	c->isut = be_int(p + 20, 4);
	c->isstd = be_int(p + 24, 4);
	c->leap = be_int(p + 28, 4);
	c->time = be_int(p + 32, 4);
	c->type = be_int(p + 36, 4);
	c->chars = be_int(p + 40, 4);
	if (c->isut < 0 || c->isstd < 0 || c->leap < 0 || c->time < 0 || c->type < 1 || c->type > 256 ||
	    c->chars < 1 || c->time > 100000 || c->leap > 10000 || c->chars > 10000)
		return -1;
	return 0;
}

static size_t
block_size(const struct tzif_counts *c, int tsize)
{
	return (size_t)(c->time * tsize + c->time + c->type * 6 + c->chars + c->leap * (tsize + 4) + c->isstd + c->isut);
}

/* Reads the data block at p (times of tsize bytes) into z. */
static int
read_block(struct tz *z, const unsigned char *p, const struct tzif_counts *c, int tsize)
{
	z->ntrans = (int)c->time;
	z->ntypes = (int)c->type;
	z->trans = calloc((size_t)c->time + 1, sizeof(*z->trans));
	z->idx = calloc((size_t)c->time + 1, 1);
	z->types = calloc((size_t)c->type, sizeof(*z->types));
	if (z->trans == NULL || z->idx == NULL || z->types == NULL)
		return -1;
	for (int i = 0; i < z->ntrans; i++)
		z->trans[i] = be_int(p + (size_t)i * tsize, tsize);
	p += c->time * tsize;
	for (int i = 0; i < z->ntrans; i++) {
		z->idx[i] = p[i];
		if (p[i] >= c->type || (i > 0 && z->trans[i] <= z->trans[i - 1]))
			return -1;
	}
	p += c->time;
	for (int i = 0; i < z->ntypes; i++, p += 6) {
		z->types[i].utoff = (int32_t)be_int(p, 4);
		z->types[i].isdst = p[4] != 0;
		if (z->types[i].utoff < -89999 || z->types[i].utoff > 93599)
			return -1;
	}
	return 0;
}

/* Parses a whole TZif file: version 1 data, or the 64-bit data and footer of version 2 and later. */
static int
parse_tzif(struct tz *z, const unsigned char *buf, size_t len)
{
	struct tzif_counts c;
	char version;
	size_t off;

	if (read_header(buf, len, &c, &version) < 0 || len < 44 + block_size(&c, 4))
		return -1;
	if (version == '\0')
		return read_block(z, buf + 44, &c, 4);
	off = 44 + block_size(&c, 4);
	if (read_header(buf + off, len - off, &c, &version) < 0 || len - off - 44 < block_size(&c, 8))
		return -1;
	if (read_block(z, buf + off + 44, &c, 8) < 0)
		return -1;
	off += 44 + block_size(&c, 8);
	if (off < len && buf[off] == '\n') {
		char footer[128];
		const unsigned char *nl = memchr(buf + off + 1, '\n', len - off - 1);
		size_t n = nl ? (size_t)(nl - buf - off - 1) : 0;
		if (nl != NULL && n > 0 && n < sizeof(footer)) {
			memcpy(footer, buf + off + 1, n);
			footer[n] = '\0';
			if (parse_rule(footer, &z->rule) < 0)
				return -1;
		}
	}
	return 0;
}

static bool
valid_zone_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= TZ_NAME_MAX || name[0] == '/' || strstr(name, "..") != NULL)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && strchr("/_-+", name[i]) == NULL)
			return false;
	return true;
}

/* Reads the zone file into a malloc'd buffer. */
static unsigned char *
read_zone_file(const char *name, size_t *len)
{
	const char *dir = getenv("TZDIR");
	char path[4096];
	unsigned char *buf = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir && *dir ? dir : TZ_DIR_DEFAULT, name);
	f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	buf = malloc(TZ_FILE_MAX);
	if (buf != NULL)
		*len = fread(buf, 1, TZ_FILE_MAX, f);
	if (buf != NULL && (ferror(f) || *len == TZ_FILE_MAX)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

struct tz *
tz_load(const char *name, struct pb_error *err)
{
	struct tz *z;
	unsigned char *buf;
	size_t len = 0;

	if (!valid_zone_name(name)) {
		pb_fail(err, 400, "invalid_config", "\"%.64s\" is not a time zone name (an IANA name such as America/New_York)", name);
		return NULL;
	}
	buf = read_zone_file(name, &len);
	if (buf == NULL) {
		pb_fail(err, 400, "invalid_config", "unknown time zone \"%s\" (no such file in the system's zone database; is tzdata installed?)",
		    name);
		return NULL;
	}
	z = calloc(1, sizeof(*z));
	if (z == NULL || parse_tzif(z, buf, len) < 0) {
		free(buf);
		tz_free(z);
		pb_fail(err, 400, "invalid_config", "time zone \"%s\": its zone file is not a TZif file pitboss can read", name);
		return NULL;
	}
	free(buf);
	snprintf(z->name, sizeof(z->name), "%s", name);
	return z;
}

void
tz_free(struct tz *z)
{
	if (z == NULL)
		return;
	free(z->trans);
	free(z->idx);
	free(z->types);
	free(z);
}

const char *
tz_name(const struct tz *z)
{
	return z->name;
}

int32_t
tz_offset_at(const struct tz *z, int64_t t)
{
	int lo = 0, hi = z->ntrans;

	if (z->ntrans == 0 || t < z->trans[0]) {
		if (z->ntrans == 0 && z->rule.present)
			return rule_is_dst(&z->rule, t) ? z->rule.dst_off : z->rule.std_off;
		return z->types[0].utoff;
	}
	if (t >= z->trans[z->ntrans - 1] && z->rule.present)
		return rule_is_dst(&z->rule, t) ? z->rule.dst_off : z->rule.std_off;
	while (hi - lo > 1) {   /* the last transition at or before t */
		int mid = (lo + hi) / 2;
		if (z->trans[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return z->types[z->idx[lo]].utoff;
}

int64_t
tz_local_of(const struct tz *z, int64_t t)
{
	return t + tz_offset_at(z, t);
}

int64_t
tz_utc_of_local(const struct tz *z, int64_t local)
{
	int32_t a = tz_offset_at(z, local - 2 * 86400), b = tz_offset_at(z, local + 2 * 86400);
	int64_t ua = local - a, ub = local - b, lo, hi;
	bool va = tz_local_of(z, ua) == local, vb = tz_local_of(z, ub) == local;

	if (va && vb)
		return ua < ub ? ua : ub;
	if (va)
		return ua;
	if (vb)
		return ub;
	/* Skipped: the clock jumps over `local` at a transition between the two guesses. */
	lo = ua < ub ? ua : ub;
	hi = ua < ub ? ub : ua;
	if (tz_local_of(z, hi) < local)
		return hi;
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;
		if (tz_local_of(z, mid) >= local)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}
