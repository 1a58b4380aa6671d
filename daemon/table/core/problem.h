/*
 * problem.h - the one shape of a problem found by verification, replay, a
 * chain walk or the start-up check: {"table", "round", "event", "problem"},
 * and "unchecked": true on a problem that says a part of the record could
 * not be checked (docs/audit.md, "Verification fails closed").
 *
 * A check that cannot record what it found has not done its work: every
 * function here returns 0, or -1 when the problem could not be appended
 * (out of memory), and the check then fails with it.
 */
#ifndef PB_TABLE_PROBLEM_H
#define PB_TABLE_PROBLEM_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct stored_event;

/*
 * Appends {"table", "problem"} to problems, with "round" when round_id > 0
 * and "event" when table_seq > 0; the sentence is printf-formatted and cut
 * at 511 bytes.  Returns 0, or -1 when it could not be appended (out of
 * memory).  Does nothing (0) when problems is NULL (a caller that only
 * wants the rebuilt round).
 */
int audit_problem(json_t *problems, const char *table_id, int64_t round_id, int64_t table_seq, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* audit_problem marked "unchecked": true: a part that could not be checked (a read error, out of memory). */
int audit_unchecked(json_t *problems, const char *table_id, int64_t round_id, int64_t table_seq, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/*
 * A part of a check (a table's chain, a round, the accounting rows ...)
 * whose findings count only when it was completed: begun before it runs,
 * ended with what it returned.  A part that ran out of memory may have
 * misread what it read (jansson parses on past a byte it could not store),
 * so what it appended is taken back and it fails, out_of_memory; so it does
 * when it returned 0 but jansson failed an allocation meanwhile.
 */
struct check_part {
	json_t *problems;
	size_t first;                  /* problems before the part */
	unsigned long json_failures;   /* json_alloc_failures() before the part */
};

void check_part_begin(struct check_part *c, json_t *problems);

/*
 * Ends the part that returned rc (-1 with err filled, or 0): 0 when it was
 * completed; -1 with err as it was for any other failure (what it appended
 * is kept: a read error part way keeps what was read before it); -1 with
 * err out_of_memory, and its problems taken back, when it ran out of memory.
 */
int check_part_end(struct check_part *c, int rc, struct pb_error *err);

/*
 * Where a check of many events puts what it finds (the walk of table/
 * event_walk.c and the check functions of the registry): the first cap
 * problems are named one by one, the rest only counted, and
 * problem_sink_end says how many more there were, in one problem, so that
 * a damaged file is not reported a million times.
 */
struct problem_sink {
	json_t *problems;
	int cap;                       /* problems named */
	int found;                     /* problems found, named or not */
	const char *more;              /* what the rest are: "%d more <more>" */
};

/* A sink into problems naming at most cap problems; more: the words of the final count ("problems of ..."). */
void problem_sink_init(struct problem_sink *k, json_t *problems, int cap, const char *more);

/*
 * A problem of event e (its table and table_seq named; its round when it
 * has one), named while fewer than the sink's cap were, else counted.  0,
 * or -1 with err out_of_memory when it could not be recorded.
 */
int problem_sink_event(struct problem_sink *k, const struct stored_event *e, struct pb_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Appends "N more ..." when problems went unnamed.  0, or -1 with err out_of_memory. */
int problem_sink_end(struct problem_sink *k, struct pb_error *err);

#endif
