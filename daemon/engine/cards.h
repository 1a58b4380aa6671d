/*
 * cards.h - playing cards of a single 52-card deck.
 *
 * A card is a small integer: rank * 4 + suit, rank 0..12 for 2..A and suit
 * 0..3 for c, d, h, s.  Input is case-insensitive and accepts "10" for T;
 * output is upper-case rank and lower-case suit ("As", "Th").
 */
#ifndef PB_ENGINE_CARDS_H
#define PB_ENGINE_CARDS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"

typedef uint8_t card_t;

#define CARD_COUNT 52
#define CARD_NONE 0xff
#define CARD_RANK(c) ((int)((c) >> 2))   /* 0 = deuce ... 12 = ace */
#define CARD_SUIT(c) ((int)((c) & 3))    /* 0 c, 1 d, 2 h, 3 s */
#define CARD_MAKE(rank, suit) ((card_t)((rank) * 4 + (suit)))
#define RANK_ACE 12
#define RANK_KING 11
#define RANK_QUEEN 10

/* Parses "As", "as", "10h", "Td".  On failure fills err (400 invalid_card). */
int card_parse(const char *text, card_t *out, struct pb_error *err);

/* Writes the canonical two-character form and a NUL into out (3 bytes). */
void card_format(card_t card, char out[3]);

/* The rank character for rank 0..12: '2'..'9', 'T', 'J', 'Q', 'K', 'A'. */
char rank_char(int rank);

/* Parses one rank character ('2'..'A', case-insensitive, "10" is not accepted here). */
int rank_from_char(char c);

/* Three cards as JSON, in their canonical form: ["As", "Kd", "Qh"]. */
json_t *cards_to_json(const card_t c[3]);

/*
 * Reads three cards from a JSON array of three card strings (what
 * cards_to_json writes; the input forms card_parse accepts).  -1, with out
 * partly written, when v is anything else; it says nothing of why (the
 * callers that answer a request use table/core/input.c's input_three_cards).
 */
int cards_from_json(const json_t *v, card_t out[3]);

/* A set of cards as a 64-bit mask, for duplicate detection. */
typedef uint64_t card_set_t;

static inline bool card_set_has(card_set_t set, card_t c) { return (set >> c) & 1u; }
static inline card_set_t card_set_add(card_set_t set, card_t c) { return set | ((card_set_t)1 << c); }

#endif
