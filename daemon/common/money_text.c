/*
 * money_text.c - an amount in a currency's major units, for sentences
 * (money_text.h).  Integer arithmetic only: an amount never passes through
 * a double.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/money_text.h"

struct currency_sign {
	const char *code;
	const char *sign;      /* written before the amount, with no space */
	int digits;            /* its minor units */
};

/* The currencies with a sign of their own, and those whose minor units are not 2. */
static const struct currency_sign SIGNS[] = {
	{"USD", "$", 2}, {"EUR", "\xe2\x82\xac", 2}, {"GBP", "\xc2\xa3", 2}, {"JPY", "\xc2\xa5", 0},
	{"KRW", "\xe2\x82\xa9", 0}, {"CAD", "CA$", 2}, {"AUD", "A$", 2},
	{"BHD", NULL, 3}, {"KWD", NULL, 3}, {"OMR", NULL, 3}, {"JOD", NULL, 3}, {"TND", NULL, 3},
	{"CLP", NULL, 0}, {"ISK", NULL, 0}, {"VND", NULL, 0}, {"XAF", NULL, 0}, {"XOF", NULL, 0},
};

/* The sign and minor digits of currency; an unknown code is written as itself with 2 digits. */
static void
sign_of(const char *currency, const char **sign, int *digits, bool *code_sign)
{
	const char *c = currency != NULL && currency[0] != '\0' ? currency : "USD";

	*sign = c;
	*digits = 2;
	*code_sign = true;
	for (size_t i = 0; i < sizeof(SIGNS) / sizeof(SIGNS[0]); i++) {
		if (strcmp(SIGNS[i].code, c) != 0)
			continue;
		*digits = SIGNS[i].digits;
		if (SIGNS[i].sign != NULL) {
			*sign = SIGNS[i].sign;
			*code_sign = false;
		}
		return;
	}
}

/* The amount written in out; short_whole: no decimals when they are all zero. */
static const char *
write_money(int64_t minor, const char *currency, bool short_whole, char out[MONEY_TEXT_LEN])
{
	const char *sign;
	int digits, n, g = 0;
	bool code_sign;
	uint64_t whole = minor < 0 ? (uint64_t)0 - (uint64_t)minor : (uint64_t)minor, scale = 1, units, frac;
	char num[24], grouped[40], fraction[8] = "";

	sign_of(currency, &sign, &digits, &code_sign);
	for (int i = 0; i < digits; i++)
		scale *= 10;
	units = whole / scale;
	frac = whole % scale;
	n = snprintf(num, sizeof(num), "%llu", (unsigned long long)units);
	for (int i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			grouped[g++] = ',';
		grouped[g++] = num[i];
	}
	grouped[g] = '\0';
	if (digits > 0 && !(short_whole && frac == 0))
		snprintf(fraction, sizeof(fraction), ".%0*llu", digits, (unsigned long long)frac);
	snprintf(out, MONEY_TEXT_LEN, "%s%.8s%s%s%s", minor < 0 ? "-" : "", sign, code_sign ? " " : "", grouped, fraction);
	return out;
}

const char *
money_text(int64_t minor, const char *currency, char out[MONEY_TEXT_LEN])
{
	return write_money(minor, currency, false, out);
}

const char *
money_text_short(int64_t minor, const char *currency, char out[MONEY_TEXT_LEN])
{
	return write_money(minor, currency, true, out);
}
