/*
 * input.h - checks of JSON request bodies at the edge: exact types, bounded
 * integers, known keys only.  Every refusal names the field.
 */
#ifndef PB_TABLE_INPUT_H
#define PB_TABLE_INPUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "engine/cards.h"

/* Refuses (400 unknown_field) any key of obj not in the NULL-terminated list. */
int input_known_keys(const json_t *obj, const char *where, const char *const *keys, struct pb_error *err);

/* An amount in cents: a JSON integer 0..PB_MONEY_MAX (400 invalid_amount otherwise). */
int input_amount(const json_t *v, const char *field, int64_t *out, struct pb_error *err);

/* A seat number given as a JSON object key or path segment: "1".."seats" (422 invalid_seat). */
int input_seat_key(const char *key, int seats, int *seat, struct pb_error *err);

/* Exactly three cards as a JSON array of strings (400 invalid_card, 422 wrong_card_count). */
int input_three_cards(const json_t *v, const char *who, card_t out[3], struct pb_error *err);

#endif
