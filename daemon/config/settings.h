/*
 * settings.h - the daemon's own settings: the key table of the configuration's
 * top level (listen, database, threads, tls, checkpoint, auth, idempotency ...)
 * and their reader.  Each key's type, bounds, default and whether SIGHUP may
 * change it are in the table of settings.c; docs/operations.md lists them all
 * (tests/unit/test_config.c checks it).
 */
#ifndef PB_CONFIG_SETTINGS_H
#define PB_CONFIG_SETTINGS_H

#include <jansson.h>

#include "config/config.h"
#include "config/keys.h"

/* The top level of the configuration file; "games", "tables" and "tokens" are read by config.c. */
extern const struct cfg_section config_settings;

/*
 * Reads the top-level settings of root into cfg (its defaults first): every
 * key but games, tables and tokens, in the file's order.  cfg->dir must be set.
 * Then the defaults that follow from other keys (the signing key beside the database).
 */
int settings_read(struct config *cfg, const json_t *root, struct pb_error *err);

/* Parses "HOST:PORT" or "[V6]:PORT" (also for pitbossd --listen); 0 or -1. */
/*
 * The page installed with this binary, the default web_root: the source
 * tree's web/ when pitbossd runs from its build tree, else
 * BINDIR/../share/pitboss/web (so an installed copy finds its page wherever
 * its prefix is).
 */
void config_default_web_root(char *out, size_t n);

int config_parse_listen(const char *text, char *host, size_t hostsz, int *port);

#endif
