/*
 * money_text.h - an amount of money as a sentence says it: integer minor
 * units of a currency (cents of USD, yen of JPY) written in its major units
 * with its sign and thousands grouped: 123450 USD -> "$1,234.50",
 * -2000 EUR -> "-€20.00", 2500 JPY -> "¥2,500", 995 CHF -> "CHF 9.95".
 * Messages and report details say money through it, never "cents".
 */
#ifndef PB_COMMON_MONEY_TEXT_H
#define PB_COMMON_MONEY_TEXT_H

#include <stdint.h>

/* Room for any int64 amount with its sign, grouping, decimals and currency. */
#define MONEY_TEXT_LEN 48

/*
 * Writes minor (any int64) in currency (ISO 4217; NULL or "" is USD) into
 * out: "$", "€", "£", "¥" for USD, EUR, GBP, JPY, else the code and a space;
 * as many decimals as the currency has (0 for JPY and KRW, 3 for BHD, KWD,
 * OMR and the like, else 2).  Returns out.
 */
const char *money_text(int64_t minor, const char *currency, char out[MONEY_TEXT_LEN]);

/* As money_text, without the decimals of a whole amount ("$25", "$25.50"): a chip's value. */
const char *money_text_short(int64_t minor, const char *currency, char out[MONEY_TEXT_LEN]);

#endif
