#include "engine/cards.h"

#include <ctype.h>
#include <string.h>

static const char RANK_CHARS[] = "23456789TJQKA";
static const char SUIT_CHARS[] = "cdhs";

char
rank_char(int rank)
{
	return (rank >= 0 && rank < 13) ? RANK_CHARS[rank] : '?';
}

int
rank_from_char(char c)
{
	const char *p;

	c = (char)toupper((unsigned char)c);
	if (c == '\0')
		return -1;
	p = strchr(RANK_CHARS, c);
	return p ? (int)(p - RANK_CHARS) : -1;
}

/*
 * Accepts exactly rank + suit with nothing around it: "As", "tD", "10h".
 * Anything else is refused with the text quoted back (shortened when long).
 */
int
card_parse(const char *text, card_t *out, struct pb_error *err)
{
	size_t len;
	int rank, suit;
	const char *s;

	if (text == NULL)
		return pb_fail(err, 400, "invalid_card", "a card must be a string such as \"As\" or \"10h\"");
	len = strlen(text);
	if (len == 3 && text[0] == '1' && text[1] == '0') {
		rank = 8; /* T */
		s = text + 2;
	} else if (len == 2) {
		rank = rank_from_char(text[0]);
		s = text + 1;
	} else {
		return pb_fail(err, 400, "invalid_card",
		    "\"%.16s\" is not a card: write rank then suit, e.g. \"As\", \"10h\", \"Td\"", text);
	}
	suit = -1;
	{
		const char *p = strchr(SUIT_CHARS, tolower((unsigned char)*s));
		if (*s != '\0' && p != NULL)
			suit = (int)(p - SUIT_CHARS);
	}
	if (rank < 0 || suit < 0)
		return pb_fail(err, 400, "invalid_card",
		    "\"%.16s\" is not a card: ranks are 2-9, T (or 10), J, Q, K, A and suits c, d, h, s", text);
	*out = CARD_MAKE(rank, suit);
	return 0;
}

void
card_format(card_t card, char out[3])
{
	if (card >= CARD_COUNT) {
		out[0] = '?';
		out[1] = '?';
	} else {
		out[0] = RANK_CHARS[CARD_RANK(card)];
		out[1] = SUIT_CHARS[CARD_SUIT(card)];
	}
	out[2] = '\0';
}

json_t *
cards_to_json(const card_t c[3])
{
	json_t *a = json_array();
	char t[3];

	for (int i = 0; i < 3; i++) {
		card_format(c[i], t);
		json_array_append_new(a, json_string(t));
	}
	return a;
}

int
cards_from_json(const json_t *v, card_t out[3])
{
	if (!json_is_array(v) || json_array_size(v) != 3)
		return -1;
	for (size_t i = 0; i < 3; i++) {
		const json_t *c = json_array_get(v, i);
		if (!json_is_string(c) || card_parse(json_string_value(c), &out[i], NULL) < 0)
			return -1;
	}
	return 0;
}
