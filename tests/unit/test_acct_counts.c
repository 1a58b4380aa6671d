/*
 * test_acct_counts.c - the counted figures of the accounting documents
 * (table/accounting/accounting.h acct_count): which document adds to what (the first
 * opener, the last closer, fills, credits, drops; a player-banked table's
 * drop is its counted collections), a slip not received kept out of the
 * count when receipts are asked for (accounting.signatures "nj") and in it
 * otherwise, the count win to the cent and its overflow refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "table/accounting/accounting.h"
#include "store/accounting.h"

static struct acct_document
doc(int64_t id, const char *kind, int64_t total)
{
	struct acct_document d;

	memset(&d, 0, sizeof(d));
	d.id = id;
	snprintf(d.kind, sizeof(d.kind), "%s", kind);
	d.total = total;
	return d;
}

static void
test_window(void **state)
{
	struct acct_count c;
	struct acct_document d;
	struct pb_error err;
	int64_t win = 0;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_false(acct_count_any(&c));
	d = doc(1, "opener", 130000);
	acct_count_add(&c, &d, false, false);
	d = doc(2, "opener", 999);                  /* a second opener: the window's first stays */
	acct_count_add(&c, &d, false, false);
	d = doc(3, "fill", 50000);
	acct_count_add(&c, &d, false, false);
	d = doc(4, "credit", 5000);
	acct_count_add(&c, &d, false, false);
	d = doc(5, "closer", 1);
	acct_count_add(&c, &d, false, false);
	d = doc(6, "closer", 161234);               /* the last closer counts */
	acct_count_add(&c, &d, false, false);
	d = doc(7, "drop", 30000);
	d.collections = 777;                        /* a house table's drop is its total */
	acct_count_add(&c, &d, false, false);
	assert_true(acct_count_any(&c));
	assert_int_equal(c.opener_id, 1);
	assert_int_equal(c.opener, 130000);
	assert_int_equal(c.closer_id, 6);
	assert_int_equal(c.closer, 161234);
	assert_int_equal(c.fill_count, 1);
	assert_int_equal(c.credit_count, 1);
	assert_int_equal(c.drop_count, 1);
	assert_int_equal(acct_count_win(&c, &win, &err), 0);
	/* drop + closer - opener + credits - fills */
	assert_int_equal(win, 30000 + 161234 - 130000 + 5000 - 50000);
}

static void
test_player_banked(void **state)
{
	struct acct_count c;
	struct acct_document d = doc(1, "drop", 90000);
	struct pb_error err;
	int64_t win = 0;

	(void)state;
	memset(&c, 0, sizeof(c));
	d.collections = 1200;
	acct_count_add(&c, &d, true, false);
	assert_int_equal(c.drop, 1200);
	assert_int_equal(acct_count_win(&c, &win, &err), 0);
	assert_int_equal(win, 1200);
}

/* With receipts a slip counts once received; the others are pending, by kind; without, every slip counts. */
static void
test_receipts(void **state)
{
	struct acct_count with, without;
	struct acct_document d[4] = {doc(1, "fill", 50000), doc(2, "fill", 7000), doc(3, "credit", 3000),
	    doc(4, "credit", 900)};

	(void)state;
	memset(&with, 0, sizeof(with));
	memset(&without, 0, sizeof(without));
	d[0].received = true;
	d[3].received = true;
	for (int i = 0; i < 4; i++) {
		acct_count_add(&with, &d[i], false, true);
		acct_count_add(&without, &d[i], false, false);
	}
	assert_int_equal(with.fills, 50000);
	assert_int_equal(with.credits, 900);
	assert_int_equal(with.fill_count + with.credit_count, 2);
	assert_int_equal(with.pending_fills, 7000);
	assert_int_equal(with.pending_credits, 3000);
	assert_int_equal(with.pending_count, 2);
	assert_int_equal(without.fills, 50000 + 7000);
	assert_int_equal(without.credits, 3000 + 900);
	assert_int_equal(without.pending_count, 0);
}

static void
test_overflow(void **state)
{
	struct acct_count c;
	struct pb_error err;
	int64_t win = 0;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.drop = INT64_MAX;
	c.closer = 1;
	assert_int_equal(acct_count_win(&c, &win, &err), -1);
	assert_string_equal(err.code, "report_overflow");
	c.closer = 0;
	c.fills = 1;
	c.drop = INT64_MIN;
	assert_int_equal(acct_count_win(&c, &win, &err), -1);
	c.drop = -5;
	assert_int_equal(acct_count_win(&c, &win, &err), 0);
	assert_int_equal(win, -6);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_player_banked),
		cmocka_unit_test(test_receipts),
		cmocka_unit_test(test_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
