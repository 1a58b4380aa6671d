/*
 * ids.c - the characters of person ids and player cards (ids.h).
 */
#include "common/ids.h"

#include <stddef.h>

/* 1..PB_ID_MAX - 1 of [A-Za-z0-9_-]: what a person id and a card are made of. */
static bool
valid_strict_id(const char *s)
{
	size_t n = 0;

	if (s == NULL)
		return false;
	for (; s[n] != '\0'; n++) {
		char c = s[n];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return false;
		if (n >= PB_ID_MAX - 1)
			return false;
	}
	return n > 0;
}

bool
pb_valid_person_id(const char *s)
{
	return valid_strict_id(s);
}

bool
pb_valid_card(const char *s)
{
	return valid_strict_id(s);
}
