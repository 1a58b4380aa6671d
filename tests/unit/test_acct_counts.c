/*
 * test_acct_counts.c - the counted figures of the accounting documents
 * (table/accounting/accounting.h acct_count): which document or segment of
 * a session adds to what (the first opening count, the last closing one,
 * what the tray did within each segment, the sessions' openers'
 * discrepancies apart, fills, credits, drops; a player-banked table's drop
 * is its counted collections), complete or not, a slip not received kept
 * out of the count when receipts are asked for (accounting.signatures "nj")
 * and in it otherwise, the count win to the cent and its overflow refused.
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

/* A segment of a session from start to end (NULL: still open). */
static struct acct_segment
seg(const struct acct_document *start, const struct acct_document *end, bool opens_session)
{
	return (struct acct_segment){.start = start, .end = end, .opens_session = opens_session};
}

static void
test_window(void **state)
{
	struct acct_count c;
	struct acct_document d, o1, x, c1, o2, c2, stray;
	struct acct_segment s;
	struct pb_error err;
	int64_t win = 0;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_false(acct_count_any(&c));
	assert_false(acct_count_complete(&c));
	o1 = doc(1, "opener", 130000);
	x = doc(2, "shift_change", 140000);
	c1 = doc(5, "closer", 150000);
	o2 = doc(6, "opener", 149000);              /* a reopen $10 short: a discrepancy, out of the win */
	o2.has_discrepancy = true;
	o2.discrepancy = -1000;
	c2 = doc(8, "closer", 161234);
	d = doc(1, "opener", 1);                    /* the documents' own walk adds no opener or closer */
	acct_count_add(&c, &d, false, false);
	d = doc(3, "fill", 50000);
	acct_count_add(&c, &d, false, false);
	d = doc(4, "credit", 5000);
	acct_count_add(&c, &d, false, false);
	d = doc(7, "drop", 30000);
	d.collections = 777;                        /* a house table's drop is its total */
	acct_count_add(&c, &d, false, false);
	assert_int_equal(c.opener_id, 0);
	/* the segments as acct_segments hands them over: each when its end is met, an open one last */
	s = seg(&o1, &x, true);
	acct_count_add_segment(&c, &s);
	s = seg(&x, &c1, false);
	acct_count_add_segment(&c, &s);
	s = seg(&o2, NULL, true);
	acct_count_add_segment(&c, &s);
	assert_false(acct_count_complete(&c));      /* the second session has no closer yet */
	memset(&c, 0, sizeof(c));
	d = doc(3, "fill", 50000);
	acct_count_add(&c, &d, false, false);
	d = doc(4, "credit", 5000);
	acct_count_add(&c, &d, false, false);
	d = doc(7, "drop", 30000);
	acct_count_add(&c, &d, false, false);
	s = seg(&o2, &c2, true);                    /* out of order: the first opener still counts as the opener */
	acct_count_add_segment(&c, &s);
	s = seg(&o1, &x, true);
	acct_count_add_segment(&c, &s);
	s = seg(&x, &c1, false);
	acct_count_add_segment(&c, &s);
	assert_true(acct_count_complete(&c));
	stray = doc(9, "closer", 5);                /* a closer that closed nothing: the window's count is not whole */
	s = seg(NULL, &stray, false);
	acct_count_add_segment(&c, &s);
	assert_true(acct_count_any(&c));
	assert_false(acct_count_complete(&c));
	assert_int_equal(c.out_of_order, 1);
	assert_int_equal(c.segments, 3);
	assert_int_equal(c.opener_id, 1);
	assert_int_equal(c.opener, 130000);
	assert_int_equal(c.closer_id, 8);
	assert_int_equal(c.closer, 161234);
	assert_int_equal(c.discrepancy, -1000);
	assert_int_equal(c.fill_count, 1);
	assert_int_equal(c.credit_count, 1);
	assert_int_equal(c.drop_count, 1);
	assert_int_equal(acct_count_win(&c, &win, &err), 0);
	/* drop + each segment's closing - opening count + credits - fills: the reopen's shortage left out */
	assert_int_equal(win, 30000 + (140000 - 130000) + (150000 - 140000) + (161234 - 149000) + 5000 - 50000);
	assert_int_equal(win, 30000 + 161234 - 130000 - (-1000) + 5000 - 50000);
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
	c.tray = 1;
	assert_int_equal(acct_count_win(&c, &win, &err), -1);
	assert_string_equal(err.code, "report_overflow");
	c.tray = 0;
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
