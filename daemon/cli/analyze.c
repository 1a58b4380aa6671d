/*
 * analyze.c - `pitboss analyze --rules FILE [--json]`: the exact analysis of
 * one game (engine/analyze.c) as readable tables or as the API.md object.
 * Exit status: 0 done, 1 bad file or rules, 2 usage.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/analyze_format.h"
#include "cli/commands.h"
#include "engine/rules.h"

static void
analyze_usage(FILE *f)
{
	fprintf(f, "usage: pitboss analyze --rules FILE [--json]\n"
	    "  --rules FILE  a game rules object (API.md \"Game rules object\")\n"
	    "  --json        print the analysis as JSON instead of tables\n");
}

/*
 * Parses the arguments, loads and checks the rules, analyses them and prints
 * the result on stdout.  Problems go to stderr with the file name.
 */
int
cmd_analyze(int argc, char **argv)
{
	const char *path = NULL;
	bool as_json = false;
	json_t *doc, *out;
	json_error_t jerr;
	struct rules rules;
	struct analysis *a;
	struct pb_error err;
	char *text;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--rules") == 0 && i + 1 < argc) {
			path = argv[++i];
		} else if (strncmp(argv[i], "--rules=", 8) == 0) {
			path = argv[i] + 8;
		} else if (strcmp(argv[i], "--json") == 0) {
			as_json = true;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			analyze_usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "pitboss analyze: unexpected argument \"%s\"\n", argv[i]);
			analyze_usage(stderr);
			return 2;
		}
	}
	if (path == NULL || *path == '\0') {
		fprintf(stderr, "pitboss analyze: --rules FILE is required\n");
		analyze_usage(stderr);
		return 2;
	}

	if ((doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr)) == NULL) {
		if (jerr.line > 0)
			fprintf(stderr, "pitboss analyze: %s:%d:%d: %s\n", path, jerr.line, jerr.column, jerr.text);
		else
			fprintf(stderr, "pitboss analyze: %s: %s\n", path, jerr.text);
		return 1;
	}
	if (rules_from_json(doc, &rules, &err) < 0) {
		fprintf(stderr, "pitboss analyze: %s: %s\n", path, err.message);
		json_decref(doc);
		return 1;
	}
	json_decref(doc);

	if ((a = malloc(sizeof(*a))) == NULL) {
		fprintf(stderr, "pitboss analyze: out of memory\n");
		return 1;
	}
	if (analyze_rules(&rules, a, &err) < 0) {
		fprintf(stderr, "pitboss analyze: %s: %s\n", path, err.message);
		free(a);
		return 1;
	}
	if (as_json) {
		out = analysis_to_json(a);
		text = out ? json_dumps(out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) : NULL;
		json_decref(out);
	} else {
		text = analysis_format_text(a);
	}
	free(a);
	if (text == NULL) {
		fprintf(stderr, "pitboss analyze: out of memory\n");
		return 1;
	}
	fputs(text, stdout);
	if (as_json)
		fputc('\n', stdout);
	free(text);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("pitboss analyze: stdout");
		return 1;
	}
	return 0;
}
