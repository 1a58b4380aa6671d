/*
 * entries.h - the configuration's lists: "games" (name -> rules), "tables"
 * and "tokens", each entry read against its key table (entries.c), and the
 * checks across entries (a table id or a token used twice, a token naming
 * a table that does not exist).
 */
#ifndef PB_CONFIG_ENTRIES_H
#define PB_CONFIG_ENTRIES_H

#include <jansson.h>

#include "config/config.h"
#include "config/keys.h"

/* The keys of an entry of "tables", of its "banker", and of an entry of "tokens". */
extern const struct cfg_section config_table_entry;
extern const struct cfg_section config_banker_entry;
extern const struct cfg_section config_token_entry;

/* Reads "games" into cfg->games (rules files are taken from cfg->dir); 0 or -1. */
int entries_read_games(struct config *cfg, const json_t *games, struct pb_error *err);

/* Reads "tables" into cfg->tables (the games already read); 0 or -1. */
int entries_read_tables(struct config *cfg, const json_t *tables, struct pb_error *err);

/* Reads "tokens" (may be NULL: none) into cfg->tokens (the tables already read); 0 or -1. */
int entries_read_tokens(struct config *cfg, const json_t *tokens, struct pb_error *err);

#endif
