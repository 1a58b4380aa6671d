/*
 * analyze_format.h - an exact analysis (engine/analyze.h) as `pitboss
 * analyze` prints it: the API.md JSON object, or readable tables.  The
 * engine counts; this file only writes what was counted.
 */
#ifndef PB_CLI_ANALYZE_FORMAT_H
#define PB_CLI_ANALYZE_FORMAT_H

#include <jansson.h>

#include "engine/analyze.h"

/*
 * The analysis as the API.md object (rules, hands, ante_play, pair_plus,
 * six_card_bonus; pair_plus and six_card_bonus only when the game has them),
 * plus the extensions "variance" per wager, ante_play "raised_hands" and
 * "highest_folded", pair_plus "wins" (by hand), "push" and "lose".  New reference; NULL only when out of memory.
 */
json_t *analysis_to_json(const struct analysis *a);

/*
 * The analysis as readable tables (Event | Pays | Combinations | Probability |
 * Return, with totals), one per wager.  Returns a malloc'd NUL-terminated
 * string the caller frees, or NULL when out of memory.
 */
char *analysis_format_text(const struct analysis *a);

#endif
