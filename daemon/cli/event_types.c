/*
 * event_types.c - `pitboss event-types [--json]`: every type of event the
 * record can hold, from the registry pitbossd checks each event against
 * (table/core/event_types.h).  The text is a table (type, chain, fields with `?`
 * after an optional one, description, "(personal data)" after that of a
 * type whose body is); --json is API.md's shape:
 * {"types": [{"type", "chain", "fields": [{"key", "type", "required"}], "description"}]}.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/commands.h"
#include "cli/text_table.h"
#include "table/core/core.h"

static const char HELP[] =
    "usage: pitboss event-types [--json]\n"
    "\n"
    "Prints every type of event the record can hold: its chain (round, table or\n"
    "players), the fields of its body (\"?\" after an optional one) and what it\n"
    "records (\"(personal data)\" when the body is).  --json prints\n"
    "{\"types\": [{\"type\", \"chain\", \"fields\": [{\"key\", \"type\", \"required\"}],\n"
    "\"description\"}]}, the field's type a JSON type or several joined by \"|\"\n"
    "(\"string|null\").  docs/audit.md lists the same types.\n"
    "\n"
    "exit status: 0 printed, 1 failed, 2 usage\n";

/* The width of the fields column of the text table (the rows wrap the fields to it). */
#define FIELDS_W 50

/* The registry as API.md's JSON object; NULL when out of memory. */
static json_t *
types_json(void)
{
	json_t *types = json_array(), *out = json_pack("{s:o}", "types", types);
	char buf[64];

	for (int i = 0; out != NULL && i < EVT_COUNT; i++) {
		const struct event_type *t = &EVENT_TYPES[i];
		json_t *fields = json_array();

		for (const struct event_field *f = t->fields; f->key != NULL; f++)
			json_array_append_new(fields, json_pack("{s:s,s:s,s:b}", "key", f->key, "type",
			    event_field_types(f->types, buf, sizeof(buf)), "required", f->required));
		if (json_array_append_new(types, json_pack("{s:s,s:s,s:o,s:s}", "type", t->name, "chain",
		    event_chain_name(t->chain), "fields", fields, "description", t->description)) < 0) {
			json_decref(out);
			out = NULL;
		}
	}
	return out;
}

/* The text table's columns: type, chain, fields, description (the last not padded). */
static const int WIDTHS[] = {23, 8, FIELDS_W};
static const char *const HEADER[] = {"type", "chain", "fields (? optional)", "description"};

/*
 * One type as rows of the text table: as many fields as fit the column on
 * each row ("key", "key?" when optional, "-" for none), the type, chain and
 * description on the first.
 */
static void
print_type(const struct cli_table *table, const struct event_type *t)
{
	const struct event_field *fl = t->fields;
	char line[FIELDS_W + 64], description[512];
	bool first = true;

	snprintf(description, sizeof(description), "%s%s", t->description,
	    t->flags & EVENT_PERSONAL ? " (personal data)" : "");
	do {
		size_t used = 0;

		line[0] = '\0';
		while (fl->key != NULL) {
			size_t n = (used ? 2 : 0) + strlen(fl->key) + (fl->required ? 0 : 1);
			if (used > 0 && used + n + 1 > FIELDS_W)        /* + 1: the comma when another row follows */
				break;
			snprintf(line + used, sizeof(line) - used, "%s%s%s", used ? ", " : "", fl->key, fl->required ? "" : "?");
			used = strlen(line);
			fl++;
		}
		if (fl->key != NULL)
			snprintf(line + used, sizeof(line) - used, ",");
		if (first) {
			const char *cells[] = {t->name, event_chain_name(t->chain), line[0] ? line : "-", description};
			cli_table_row(table, 4, cells);
		} else {
			const char *cells[] = {"", "", line};      /* the fields that did not fit, under theirs */
			cli_table_row(table, 3, cells);
		}
		first = false;
	} while (fl->key != NULL);
}

/* Prints the registry as a table or as JSON.  Exit 0, 1 out of memory, 2 usage. */
int
cmd_event_types(int argc, char **argv)
{
	static const struct option LONG[] = {{"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0}};
	const struct cli_table table = {stdout, 4, WIDTHS, HEADER};
	bool as_json = false;
	int c;

	if (cli_help(argc, argv, HELP))
		return 0;
	while ((c = cli_option(argc, argv, LONG)) != -1) {
		if (c != 'j')
			goto usage;
		as_json = true;
	}
	if (optind != argc)
		goto usage;
	if (as_json) {
		json_t *out = types_json();
		char *text = out ? json_dumps(out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;

		json_decref(out);
		if (text == NULL) {
			fprintf(stderr, "pitboss event-types: out of memory\n");
			return 1;
		}
		printf("%s\n", text);
		free(text);
		return 0;
	}
	cli_table_header(&table);
	for (int i = 0; i < EVT_COUNT; i++)
		print_type(&table, &EVENT_TYPES[i]);
	return 0;
usage:
	fputs(HELP, stderr);
	return 2;
}
