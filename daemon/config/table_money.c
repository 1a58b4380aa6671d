/*
 * table_money.c - a table's amounts in its currency (table_money.h).
 */
#include "config/table_money.h"

const char *
table_currency(const struct config *cfg, const char *id)
{
	const struct table_config *t = cfg != NULL && id != NULL ? config_table(cfg, id) : NULL;

	return t != NULL && t->currency[0] != '\0' ? t->currency : "USD";
}

const char *
table_money(const struct config *cfg, const char *id, int64_t minor, char out[MONEY_TEXT_LEN])
{
	return money_text(minor, table_currency(cfg, id), out);
}
