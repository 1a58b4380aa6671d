/*
 * table_money.h - a table's amounts as a sentence says them: in the
 * currency its configuration gives (common/money_text.h does the writing).
 */
#ifndef PB_CONFIG_TABLE_MONEY_H
#define PB_CONFIG_TABLE_MONEY_H

#include <stdint.h>

#include "common/money_text.h"
#include "config/config.h"

/* The currency of table id ("USD" when no table of cfg has that id: the cage, a table since removed). */
const char *table_currency(const struct config *cfg, const char *id);

/* money_text(minor) in table id's currency, into out; returns out. */
const char *table_money(const struct config *cfg, const char *id, int64_t minor, char out[MONEY_TEXT_LEN]);

#endif
