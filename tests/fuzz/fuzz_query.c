/*
 * fuzz_query.c - the query-string values of the report routes:
 * report_query_parse (table, from, to, group, shifts, tz_offset, min, limit)
 * and pb_time_parse.
 *
 * Input: one byte choosing the report (summary, payouts, exceptions), then
 * up to eight values separated by '\n', in the order of struct
 * report_params; a missing value or a value "~" is absent (NULL).
 *
 * Oracles: a refusal is 400 invalid_query with a message; an accepted query
 * has from < to (whole hours for the summary), sorted distinct shifts and
 * limits in range; a time accepted by pb_time_parse is written the way the
 * API documents it (digits where digits go: "2026-11-21", "...T22:43",
 * "...:40", ".123", "Z"), and its value formats and parses back to itself.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/timeutil.h"
#include "table/reports/reports.h"

#define FUZZ_MAX_INPUT 1024
#define NOW_MS 1795300000000LL   /* a fixed "now" (2026-11-21): the harness is deterministic */

/* The grammar of API.md: YYYY-MM-DD[(T| )HH:MM[:SS[.mmm]][Z]]. */
static bool
time_grammar(const char *t)
{
	static const char *const SHAPE = "dddd-dd-dd?dd:dd:dd.ddd";
	size_t n = strlen(t), i;

	if (n > 0 && t[n - 1] == 'Z' && n > 10)
		n--;
	if (n != 10 && n != 16 && n != 19 && n != 23)
		return false;
	for (i = 0; i < n; i++) {
		char want = SHAPE[i];
		if (want == 'd' && !isdigit((unsigned char)t[i]))
			return false;
		if (want == '?' && t[i] != 'T' && t[i] != ' ')
			return false;
		if (want != 'd' && want != '?' && t[i] != want)
			return false;
	}
	return true;
}

/* FUZZ_LAX_TIME=1 in the environment skips the grammar oracle (to explore past a known finding). */
static bool lax_time;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	lax_time = getenv("FUZZ_LAX_TIME") != NULL;
	return 0;
}

static void
check_time(const char *t)
{
	int64_t ms, ms2;
	char back[PB_TIME_LEN];

	if (t == NULL || pb_time_parse(t, &ms) < 0)
		return;
	if (!lax_time && !time_grammar(t)) {
		fprintf(stderr, "pb_time_parse accepted \"%s\", which is not YYYY-MM-DD[THH:MM[:SS[.mmm]]][Z]\n", t);
		abort();
	}
	pb_time_format_ms(ms, back);
	if (pb_time_parse(back, &ms2) < 0 || ms2 != ms) {
		fprintf(stderr, "pb_time_parse(\"%s\") = %lld formats as %s, which does not parse back\n", t, (long long)ms, back);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_params rp;
	struct report_query q;
	struct pb_error err;
	const char **fields[] = {&rp.table, &rp.from, &rp.to, &rp.group, &rp.shifts, &rp.tz_offset, &rp.min, &rp.limit};
	enum report_kind kind;
	char *text, *p;
	size_t nf = 0;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	kind = (enum report_kind)(data[0] % 3);
	text = malloc(size);
	if (text == NULL)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	memset(&rp, 0, sizeof(rp));
	p = text;
	while (nf < sizeof(fields) / sizeof(fields[0])) {
		char *nl = strchr(p, '\n');
		if (nl != NULL)
			*nl = '\0';
		*fields[nf++] = strcmp(p, "~") == 0 ? NULL : p;
		if (nl == NULL)
			break;
		p = nl + 1;
	}

	check_time(rp.from);
	check_time(rp.to);
	memset(&err, 0, sizeof(err));
	if (report_query_parse(kind, &rp, NOW_MS, &q, &err) < 0) {
		if (err.status != 400 || strcmp(err.code, "invalid_query") != 0 || err.message[0] == '\0') {
			fprintf(stderr, "refusal without 400 invalid_query: %d %s %s\n", err.status, err.code, err.message);
			abort();
		}
	} else {
		bool bad = q.from_ms >= q.to_ms;
		if (kind == REPORT_SUMMARY) {
			bad = bad || q.from_ms % 3600000 != 0 || q.to_ms % 3600000 != 0;
			bad = bad || q.shift_count < 1 || q.shift_count > REPORT_SHIFTS_MAX;
			for (int i = 0; i < q.shift_count; i++)
				bad = bad || q.shifts[i] < 0 || q.shifts[i] >= 24 * 60 || (i > 0 && q.shifts[i] <= q.shifts[i - 1]);
		}
		if (kind == REPORT_PAYOUTS)
			bad = bad || q.limit < 1 || q.limit > REPORT_PAYOUTS_MAX_LIMIT || q.min_net < 1;
		if (kind == REPORT_EXCEPTIONS)
			bad = bad || q.limit < 1 || q.limit > REPORT_EXCEPTIONS_MAX_LIMIT;
		if (rp.table != NULL && !pb_valid_id(q.table))
			bad = true;
		if (bad) {
			fprintf(stderr, "report_query_parse accepted an inconsistent query (kind %d, from %lld, to %lld)\n", kind,
			    (long long)q.from_ms, (long long)q.to_ms);
			abort();
		}
	}
	free(text);
	return 0;
}
