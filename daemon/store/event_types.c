/*
 * event_types.c - the words of the registry of event types (event_types.h):
 * a chain's name and a field's JSON types, as `pitboss event-types` and the
 * errors of event_check.c write them.  The rows are table/core/event_types.c.
 */
#include "store/event_types.h"

#include <stdio.h>

const char *
event_chain_name(enum event_chain c)
{
	switch (c) {
	case EVENT_CHAIN_ROUND: return "round";
	case EVENT_CHAIN_TABLE: return "table";
	case EVENT_CHAIN_PLAYERS: return "players";
	}
	return "unknown";
}

const char *
event_field_types(unsigned bits, char *buf, size_t n)
{
	static const struct { unsigned bit; const char *name; } NAMES[] = {
		{EF_STRING, "string"}, {EF_INTEGER, "integer"}, {EF_BOOLEAN, "boolean"}, {EF_OBJECT, "object"},
		{EF_ARRAY, "array"}, {EF_NULL, "null"},
	};
	size_t used = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(NAMES) / sizeof(NAMES[0]); i++) {
		if ((bits & NAMES[i].bit) == 0)
			continue;
		int w = snprintf(buf + used, n - used, "%s%s", used ? "|" : "", NAMES[i].name);
		if (w < 0 || (size_t)w >= n - used)
			break;
		used += (size_t)w;
	}
	return buf;
}
