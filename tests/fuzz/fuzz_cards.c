/*
 * fuzz_cards.c - card_parse and hand3_parse_high_card on arbitrary bytes.
 *
 * The bytes are taken as one NUL-terminated string (cut at the first NUL,
 * as a C caller would see it).  Oracles: a parsed card formats to two
 * characters that parse back to the same card; a parsed high-card hand
 * formats to "R-R-R" that parses back to the same value; every refusal
 * carries a status, a code and a message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cards.h"
#include "engine/hand3.h"

#define FUZZ_MAX_INPUT 256

static void
check_refusal(const struct pb_error *err, const char *what, const char *text)
{
	if (err->status != 400 || err->code[0] == '\0' || err->message[0] == '\0') {
		fprintf(stderr, "%s(\"%s\"): refusal without status/code/message\n", what, text);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	card_t c, c2;
	hand3_value_t v, v2;
	struct pb_error err;
	char out[3], hs[32];

	if (size > FUZZ_MAX_INPUT)
		return 0;
	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	memset(&err, 0, sizeof(err));
	if (card_parse(text, &c, &err) == 0) {
		if (c >= CARD_COUNT) {
			fprintf(stderr, "card_parse(\"%s\") gave card %u, not a card of the deck\n", text, c);
			abort();
		}
		card_format(c, out);
		if (strlen(out) != 2 || card_parse(out, &c2, NULL) != 0 || c2 != c) {
			fprintf(stderr, "card_parse(\"%s\") -> %s does not parse back\n", text, out);
			abort();
		}
	} else {
		check_refusal(&err, "card_parse", text);
	}

	memset(&err, 0, sizeof(err));
	if (hand3_parse_high_card(text, &v, &err) == 0) {
		if (HAND3_CATEGORY(v) != H3_HIGH_CARD) {
			fprintf(stderr, "hand3_parse_high_card(\"%s\"): not a high-card value\n", text);
			abort();
		}
		hand3_format_value(v, hs, sizeof(hs));
		if (hand3_parse_high_card(hs, &v2, NULL) != 0 || v2 != v) {
			fprintf(stderr, "hand3_parse_high_card(\"%s\") -> %s does not parse back\n", text, hs);
			abort();
		}
	} else {
		check_refusal(&err, "hand3_parse_high_card", text);
	}

	/* rank_from_char on every byte: either -1 or a rank whose character maps back. */
	for (size_t i = 0; i < size; i++) {
		int r = rank_from_char((char)data[i]);
		if (r < -1 || r > 12 || (r >= 0 && rank_from_char(rank_char(r)) != r)) {
			fprintf(stderr, "rank_from_char(0x%02x) = %d\n", data[i], r);
			abort();
		}
	}
	free(text);
	return 0;
}
