/*
 * reports_kind.c - the report of a kind (table/reports/reports.h pit_report): the
 * one place that knows every report, above them all.
 */
#include "table/reports/reports_private.h"

int
pit_report(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out, struct pb_error *err)
{
	switch (q->kind) {
	case REPORT_SUMMARY: return pit_report_summary(p, a, q, out, err);
	case REPORT_PAYOUTS: return pit_report_payouts(p, a, q, out, err);
	case REPORT_EXCEPTIONS: return pit_report_exceptions(p, a, q, out, err);
	case REPORT_BANKERS: return pit_report_bankers(p, a, q, out, err);
	case REPORT_DEALERS: return pit_report_dealers(p, a, q, out, err);
	case REPORT_MASTER_GAME: return pit_report_master_game(p, a, q, out, err);
	case REPORT_STATISTICS: return pit_report_statistics(p, a, q, out, err);
	case REPORT_DECISIONS: return pit_report_decisions(p, a, q, out, err);
	}
	return pb_fail(err, 500, "internal_error", "unknown report");
}
