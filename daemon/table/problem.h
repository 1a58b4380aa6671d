/*
 * problem.h - the one shape of a problem found by verification, replay, a
 * chain walk or the start-up check: {"table", "round", "event", "problem"}.
 */
#ifndef PB_TABLE_PROBLEM_H
#define PB_TABLE_PROBLEM_H

#include <jansson.h>
#include <stdint.h>

/*
 * Appends {"table", "problem"} to problems, with "round" when round_id > 0
 * and "event" when table_seq > 0; the sentence is printf-formatted and cut
 * at 511 bytes.  Does nothing when problems is NULL (a caller that only
 * wants the rebuilt round).
 */
void audit_problem(json_t *problems, const char *table_id, int64_t round_id, int64_t table_seq, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
