/*
 * bench_rules.c - a rules file read by a benchmark program of the engine
 * (bench_rules.h).
 */
#include "bench_rules.h"

#include <stdio.h>

#include <jansson.h>

#include "common/error.h"

int
bench_load_rules(const char *prog, const char *path, struct rules *r)
{
	json_error_t jerr;
	json_t *doc = json_load_file(path, 0, &jerr);
	struct pb_error err;
	int rc;

	if (doc == NULL) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, jerr.text);
		return -1;
	}
	rc = rules_from_json(doc, r, &err);
	json_decref(doc);
	if (rc < 0)
		fprintf(stderr, "%s: %s: %s\n", prog, path, err.message);
	return rc;
}
