/*
 * acct_chips.h - a count of chips per denomination (API.md "Table
 * accounting": {"2500": 40, ...}) checked against the property's
 * denominations and totalled exactly in cents, and the differences of two
 * counts (an opener against the table's last closer).
 */
#ifndef PB_TABLE_ACCT_CHIPS_H
#define PB_TABLE_ACCT_CHIPS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "config/config.h"

/* The most chips of one denomination a document may count: far above any tray, fill or credit. */
#define ACCT_CHIP_COUNT_MAX 100000

/* A count: count[i] chips of the property's denomination chips[i]; given[i] when the body named it. */
struct acct_chips {
	int64_t count[CONFIG_CHIPS_MAX];
	bool given[CONFIG_CHIPS_MAX];
	int64_t total;                  /* cents */
};

/*
 * Reads v, {"DENOMINATION": COUNT, ...}, against the denominations of cfg
 * (what: "chips", for the messages).  Refusals (400, naming what to fix):
 * not an object or empty (empty_chips), a denomination the property does not
 * have (unknown_denomination, listing the property's), a count that is not an
 * integer, negative or over ACCT_CHIP_COUNT_MAX (invalid_count), a total over
 * PB_MONEY_MAX (total_overflow).
 */
int acct_chips_read(const json_t *v, const struct config *cfg, const char *what, struct acct_chips *out,
    struct pb_error *err);

/* The count as the record writes it: every denomination given, ascending (new reference; NULL: no memory). */
json_t *acct_chips_json(const struct config *cfg, const struct acct_chips *c);

/* True when the two counts have the same number of each denomination (one not given counts 0). */
bool acct_chips_equal(const struct acct_chips *a, const struct acct_chips *b);

/*
 * "2500 x 38 (was 40), 500 x 12 (was 10)": the denominations where a
 * differs from was, for a message (truncated to n).
 */
void acct_chips_differences(const struct config *cfg, const struct acct_chips *a, const struct acct_chips *was,
    char *out, size_t n);

/* The denominations of the property, "100, 500, 2500", for messages. */
void acct_chips_denominations(const struct config *cfg, char *out, size_t n);

#endif
