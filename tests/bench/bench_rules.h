/*
 * bench_rules.h - a rules file read by a benchmark program of the engine
 * (bench_engine.c, protection_power.c).
 */
#ifndef PB_BENCH_RULES_H
#define PB_BENCH_RULES_H

#include "engine/rules.h"

/* Loads the rules file at path into r; -1 after saying why on stderr, prefixed by prog. */
int bench_load_rules(const char *prog, const char *path, struct rules *r);

#endif
