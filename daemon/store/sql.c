/*
 * sql.c - the text of every fixed statement of the store (sql.h), in the
 * order of the files that run them.  Values are always bound (?, ?N); no
 * text here is ever completed with printf.
 */
#include "store/sql.h"

#include <stddef.h>

/* The columns of a correction row (corrections.c), as written. */
#define CORR_COLUMNS "id, table_id, round_id, seat, wager, owed, paid, reason, by, witness, at"
/*
 * A correction row as read (alias c): its columns, then the line's
 * correction before it and after it (0 when none).  A line is a round's
 * seat and wager; only its latest correction counts.
 */
#define CORR_SAME_LINE(o) o ".round_id = c.round_id AND " o ".seat = c.seat AND " o ".wager = c.wager"
#define CORR_READ "c.id, c.table_id, c.round_id, c.seat, c.wager, c.owed, c.paid, c.reason, c.by, c.witness, c.at, " \
	"coalesce((SELECT max(b.id) FROM corrections b WHERE " CORR_SAME_LINE("b") " AND b.id < c.id), 0), " \
	"coalesce((SELECT min(n.id) FROM corrections n WHERE " CORR_SAME_LINE("n") " AND n.id > c.id), 0)"
/* c is the latest correction of its line (the one the reports count) */
#define CORR_LATEST "NOT EXISTS (SELECT 1 FROM corrections n WHERE " CORR_SAME_LINE("n") " AND n.id > c.id)"
/* The columns of an event row as audit.c reads them (read_event). */
#define EVENT_COLUMNS "table_id, table_seq, coalesce(round_id, 0), type, at, actor, body, prev_hash, hash, id"

/* The player-banked part of a report_hours or report_spans row (schema 013), in the order reports.c reads it. */
#define BANKED_COLUMNS "banked_rounds, banked_handle_ante, banked_handle_play, banked_handle_pair_plus, banked_handle_six_card, " \
	"banked_win_ante, banked_win_play, banked_win_pair_plus, banked_win_six_card, banked_win_ante_bonus, " \
	"banked_lines_ante, banked_lines_play, banked_lines_pair_plus, banked_lines_six_card, banked_lines_ante_bonus, collections"

/* The columns of a checkpoint row as audit.c reads them (read_checkpoint). */
#define CHECKPOINT_COLUMNS "id, table_id, table_seq, head_hash, at, public_key, signature"

/* A report_spans row, in the order report_days.c binds it. */
#define ACCT_COLUMNS "id, table_id, kind, at, gaming_day, shift, serial, year, total, chips_json, cash, " \
	"chip_value, markers, collections, discrepancy, reason, voids, signer, witness, runner, requester"
#define SPAN_COLUMNS "kind, start, table_id, dealer, rules_id, rounds, voids, hands, " \
	"handle_ante, handle_play, handle_pair_plus, handle_six_card, " \
	"win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, " \
	"lines_ante, lines_play, lines_pair_plus, lines_six_card, lines_ante_bonus, " BANKED_COLUMNS ", play_ms, carry_ms"

/* A report_spans row as report_days.c reads it: key and sums in the order of report_hours, then its own. */
#define SPAN_READ_COLUMNS "table_id, start, dealer, rules_id, rounds, voids, hands, " \
	"handle_ante, handle_play, handle_pair_plus, handle_six_card, " \
	"win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, " \
	"lines_ante, lines_play, lines_pair_plus, lines_six_card, lines_ante_bonus, " BANKED_COLUMNS ", play_ms, carry_ms, kind"

/* The sum of a figure over the player-banked rounds only (schema 013's banked columns). */
#define BANKED(x) "coalesce(sum(CASE WHEN r.banking = 'player' THEN " x " END), 0)"

/* The report_hours rows recomputed from the rounds, payout lines and collections (store_report_hours_verify). */
#define RECOMPUTED_HOURS \
	"SELECT r.table_id AS table_id, CAST(strftime('%s', r.settled_at) AS INTEGER) / 3600 * 3600 AS hour, " \
	"coalesce(r.dealer_id, r.opened_by) AS dealer, r.rules_id AS rules_id, sum(r.state = 'settled') AS rounds, sum(r.state = 'void') AS voids, " \
	"sum(CASE WHEN r.state = 'settled' THEN (SELECT count(*) FROM bets b WHERE b.round_id = r.id) ELSE 0 END) AS hands, " \
	"coalesce(sum(p.handle_ante), 0), coalesce(sum(p.handle_play), 0), coalesce(sum(p.handle_pair_plus), 0), " \
	"coalesce(sum(p.handle_six_card), 0), coalesce(sum(p.win_ante), 0), coalesce(sum(p.win_play), 0), " \
	"coalesce(sum(p.win_pair_plus), 0), coalesce(sum(p.win_six_card), 0), coalesce(sum(p.win_ante_bonus), 0), " \
	"coalesce(sum(p.lines_ante), 0), coalesce(sum(p.lines_play), 0), coalesce(sum(p.lines_pair_plus), 0), " \
	"coalesce(sum(p.lines_six_card), 0), coalesce(sum(p.lines_ante_bonus), 0), " \
	"sum(r.state = 'settled' AND r.banking = 'player'), " \
	BANKED("p.handle_ante") ", " BANKED("p.handle_play") ", " BANKED("p.handle_pair_plus") ", " \
	BANKED("p.handle_six_card") ", " BANKED("p.win_ante") ", " BANKED("p.win_play") ", " BANKED("p.win_pair_plus") ", " \
	BANKED("p.win_six_card") ", " BANKED("p.win_ante_bonus") ", " BANKED("p.lines_ante") ", " BANKED("p.lines_play") ", " \
	BANKED("p.lines_pair_plus") ", " BANKED("p.lines_six_card") ", " BANKED("p.lines_ante_bonus") ", " BANKED("c.fee") " " \
	"FROM rounds r LEFT JOIN (SELECT round_id, " \
	"sum(CASE WHEN wager = 'ante' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_ante, " \
	"sum(CASE WHEN wager = 'play' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_play, " \
	"sum(CASE WHEN wager = 'pair_plus' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_pair_plus, " \
	"sum(CASE WHEN wager = 'six_card' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_six_card, " \
	"-sum(CASE WHEN wager = 'ante' THEN net ELSE 0 END) AS win_ante, -sum(CASE WHEN wager = 'play' THEN net ELSE 0 END) AS win_play, " \
	"-sum(CASE WHEN wager = 'pair_plus' THEN net ELSE 0 END) AS win_pair_plus, " \
	"-sum(CASE WHEN wager = 'six_card' THEN net ELSE 0 END) AS win_six_card, " \
	"-sum(CASE WHEN wager = 'ante_bonus' THEN net ELSE 0 END) AS win_ante_bonus, " \
	"sum(wager = 'ante' AND result <> 'returned') AS lines_ante, sum(wager = 'play' AND result <> 'returned') AS lines_play, " \
	"sum(wager = 'pair_plus' AND result <> 'returned') AS lines_pair_plus, " \
	"sum(wager = 'six_card' AND result <> 'returned') AS lines_six_card, " \
	"sum(wager = 'ante_bonus' AND result <> 'returned') AS lines_ante_bonus FROM payouts GROUP BY round_id) p " \
	"ON p.round_id = r.id LEFT JOIN (SELECT round_id, sum(fee) AS fee FROM collections GROUP BY round_id) c " \
	"ON c.round_id = r.id WHERE r.state IN ('settled', 'void') GROUP BY 1, 2, 3, 4"

/* The report_hours rows as stored, in the columns of RECOMPUTED_HOURS. */
#define STORED_HOURS \
	"SELECT table_id, hour, dealer, rules_id, rounds, voids, hands, handle_ante, handle_play, handle_pair_plus, " \
	"handle_six_card, win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, lines_ante, lines_play, " \
	"lines_pair_plus, lines_six_card, lines_ante_bonus, " BANKED_COLUMNS " FROM report_hours"

static const char *const SQL[STMT_COUNT] = {
	/* store.c */
	[STMT_BEGIN] = "BEGIN IMMEDIATE",
	[STMT_COMMIT] = "COMMIT",
	[STMT_ROLLBACK] = "ROLLBACK",
	[STMT_SAVEPOINT] = "SAVEPOINT pb_job",
	[STMT_RELEASE] = "RELEASE pb_job",
	[STMT_ROLLBACK_TO] = "ROLLBACK TO pb_job",
	[STMT_USER_VERSION] = "PRAGMA user_version",
	[STMT_APPLICATION_ID] = "PRAGMA application_id",
	[STMT_SCHEMA_OBJECTS] = "SELECT count(*) FROM sqlite_master",
	[STMT_JOURNAL_WAL] = "PRAGMA journal_mode = WAL",

	/* writer.c, backup.c (on the copy), state.c */
	[STMT_TEMP_STORE_MEMORY] = "PRAGMA temp_store = MEMORY",
	[STMT_JOURNAL_DELETE] = "PRAGMA journal_mode = DELETE",
	[STMT_DATA_VERSION] = "PRAGMA data_version",

	/* chain.c */
	[STMT_CHAIN_HEAD] = "SELECT table_seq, hash FROM events WHERE table_id = ? ORDER BY table_seq DESC LIMIT 1",
	[STMT_EVENT_INSERT] = "INSERT INTO events (table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[STMT_ROUND_EVENTS] = "SELECT table_seq, type, at, actor, body, hash FROM events WHERE round_id = ? ORDER BY table_seq",

	/* rules_store.c */
	[STMT_RULES_INSERT] = "INSERT INTO rules_sets (sha256, rules_json) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING",
	[STMT_RULES_ID] = "SELECT id FROM rules_sets WHERE sha256 = ?",

	/* tables.c */
	[STMT_TABLE_STATE_GET] = "SELECT status, limits_json, config_sha256, dealer_id FROM table_state WHERE table_id = ?",
	[STMT_TABLE_STATE_PUT] = "INSERT INTO table_state (table_id, status, limits_json, config_sha256, updated_at) "
	    "VALUES (?, ?, ?, ?, ?) "
	    "ON CONFLICT (table_id) DO UPDATE SET status = excluded.status, limits_json = excluded.limits_json, "
	    "config_sha256 = excluded.config_sha256, updated_at = excluded.updated_at",

	/* rounds.c */
	[STMT_ROUND_NEXT_NO] = "SELECT coalesce(max(round_no), 0) + 1 FROM rounds WHERE table_id = ?",
	[STMT_ROUND_INSERT] = "INSERT INTO rounds (table_id, round_no, state, rules_id, limits_json, seats, banking, "
	    "banker_seat, bank, opened_at, opened_by, collection_json, dealer_id, dealer_name) "
	    "VALUES (?, ?, 'betting', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[STMT_ROUND_HAS_EVENTS] = "SELECT 1 FROM events WHERE round_id = ? LIMIT 1",
	[STMT_ROUND_CURRENT] = "SELECT id FROM rounds WHERE table_id = ? AND state NOT IN ('settled', 'void') "
	    "ORDER BY id DESC LIMIT 1",
	[STMT_ROUND_GET] = "SELECT r.table_id, r.round_no, r.state, r.rules_id, r.limits_json, r.seats, r.banking, "
	    "r.banker_seat, r.bank, r.opened_at, r.opened_by, r.closed_at, r.settled_at, r.void_reason, "
	    "r.dealer_qualifies, r.players_net, s.rules_json, r.collection_json, r.dealer_id, r.dealer_name "
	    "FROM rounds r JOIN rules_sets s ON s.id = r.rules_id WHERE r.id = ?",
	[STMT_ROUND_BETS] = "SELECT seat, ante, pair_plus, six_card, placed_at, placed_by FROM bets WHERE round_id = ? "
	    "ORDER BY seat",
	[STMT_ROUND_HANDS] = "SELECT seat, cards, dealt_at, hand FROM hands WHERE round_id = ? ORDER BY seat",
	[STMT_ROUND_DECISIONS] = "SELECT seat, action, decided_at, decided_by FROM decisions WHERE round_id = ? ORDER BY seat",
	[STMT_ROUND_PAYOUTS] = "SELECT seq, seat, wager, stake, result, net, bank_after, short FROM payouts "
	    "WHERE round_id = ? ORDER BY seq",
	[STMT_ROUND_BANKER_TURNS] = "SELECT seat, kind, coalesce(consecutive, 0), coalesce(banker_player, ''), "
	    "coalesce(provider_badge, ''), coalesce(provider_company, '') FROM banker_turns WHERE round_id = ? "
	    "ORDER BY id",
	[STMT_ROUND_COLLECTIONS] = "SELECT seat, fee FROM collections WHERE round_id = ?",
	[STMT_ROUND_UPDATE] = "UPDATE rounds SET state = ?, closed_at = ?, settled_at = ?, void_reason = ?, "
	    "dealer_qualifies = ?, players_net = ? WHERE id = ?",
	[STMT_BET_PUT] = "INSERT INTO bets (round_id, seat, ante, pair_plus, six_card, placed_at, placed_by) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (round_id, seat) DO UPDATE SET ante = excluded.ante, "
	    "pair_plus = excluded.pair_plus, six_card = excluded.six_card, placed_at = excluded.placed_at, "
	    "placed_by = excluded.placed_by",
	[STMT_BET_DELETE] = "DELETE FROM bets WHERE round_id = ? AND seat = ?",
	[STMT_HAND_INSERT] = "INSERT INTO hands (round_id, seat, cards, hand, dealt_at) VALUES (?, ?, ?, ?, ?)",
	[STMT_DECISION_INSERT] = "INSERT INTO decisions (round_id, seat, action, decided_at, decided_by) "
	    "VALUES (?, ?, ?, ?, ?)",
	[STMT_PAYOUT_INSERT] = "INSERT INTO payouts (round_id, seq, seat, wager, stake, result, net, bank_after, short) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[STMT_TABLE_ROUNDS] = "SELECT id FROM rounds WHERE table_id = ? AND id < ? ORDER BY id DESC LIMIT ?",

	/* bankers.c */
	[STMT_BANKER_TURN_INSERT] = "INSERT INTO banker_turns (table_id, round_id, seat, kind, consecutive, at, "
	    "banker_player, provider_badge, provider_company) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[STMT_BANKER_LAST] = "SELECT b.seat, b.consecutive FROM banker_turns b JOIN rounds r ON r.id = b.round_id "
	    "WHERE b.table_id = ? AND b.kind = 'bank' AND r.state <> 'void' ORDER BY b.id DESC LIMIT 1",
	[STMT_BANKER_TURNS] = "SELECT id, round_id, seat, kind, coalesce(consecutive, 0), at, banker_player, provider_badge, "
	    "provider_company FROM banker_turns "
	    "WHERE table_id = ? ORDER BY id DESC LIMIT ?",
	[STMT_COLLECTION_INSERT] = "INSERT INTO collections (round_id, seat, fee) VALUES (?, ?, ?)",
	[STMT_BANKER_REPORT] = "SELECT r.banker_seat, count(*), coalesce(sum(-r.players_net), 0), "
	    "coalesce(sum(EXISTS (SELECT 1 FROM payouts p WHERE p.round_id = r.id AND p.bank_after = 0)), 0), "
	    "coalesce(sum((SELECT coalesce(sum(p.stake), 0) FROM payouts p WHERE p.round_id = r.id "
	    "AND p.result = 'returned' AND p.wager <> 'ante_bonus')), 0), "
	    "coalesce(sum((SELECT coalesce(sum(p.short), 0) FROM payouts p WHERE p.round_id = r.id)), 0), "
	    "coalesce(sum((SELECT coalesce(sum(c.fee), 0) FROM collections c WHERE c.round_id = r.id AND c.seat > 0)), 0), "
	    "coalesce(sum((SELECT coalesce(sum(c.fee), 0) FROM collections c WHERE c.round_id = r.id AND c.seat = 0)), 0) "
	    "FROM rounds r WHERE r.table_id = ?1 AND r.state = 'settled' AND r.banking = 'player' "
	    "AND r.settled_at >= ?2 AND r.settled_at < ?3 GROUP BY r.banker_seat",
	[STMT_BANKER_VOIDS] = "SELECT count(*) FROM rounds WHERE table_id = ? AND state = 'void' AND settled_at >= ? "
	    "AND settled_at < ?",
	/* the last banks of rounds not voided, newest first, with who banked (015) */
	[STMT_BANKER_RECENT] = "SELECT b.seat, coalesce(b.banker_player, ''), coalesce(b.provider_badge, ''), "
	    "coalesce(b.provider_company, '') FROM banker_turns b JOIN rounds r ON r.id = b.round_id "
	    "WHERE b.table_id = ? AND b.kind = 'bank' AND r.state <> 'void' ORDER BY b.id DESC LIMIT ?",
	/* the banker report per person: the settled rounds each named banker banked */
	[STMT_BANKER_REPORT_PEOPLE] = "SELECT coalesce(b.banker_player, ''), coalesce(b.provider_badge, ''), "
	    "coalesce(max(b.provider_company), ''), count(*), coalesce(sum(-r.players_net), 0), "
	    "coalesce(sum((SELECT coalesce(sum(c.fee), 0) FROM collections c WHERE c.round_id = r.id AND c.seat = 0)), 0), "
	    "count(DISTINCT b.seat) FROM banker_turns b JOIN rounds r ON r.id = b.round_id "
	    "WHERE b.kind = 'bank' AND r.table_id = ?1 AND r.state = 'settled' AND r.banking = 'player' "
	    "AND r.settled_at >= ?2 AND r.settled_at < ?3 AND (b.banker_player IS NOT NULL OR b.provider_badge IS NOT NULL) "
	    "GROUP BY b.banker_player, b.provider_badge ORDER BY 1, 2",
	/* the offers of the bank at a table, newest first (events only: table/rounds/bank_offer.c) */
	[STMT_BANK_OFFERS] = "SELECT table_seq, at, actor, body FROM events WHERE table_id = ? AND round_id IS NULL "
	    "AND type = 'bank_offered' "
	    "ORDER BY table_seq DESC LIMIT ?",

	/* dealers.c */
	[STMT_TABLE_DEALER_SET] = "UPDATE table_state SET dealer_id = ?2, updated_at = ?3 WHERE table_id = ?1",
	[STMT_DEALER_CHANGE_INSERT] = "INSERT INTO dealer_changes (table_id, person_id, person_name, at, by) "
	    "VALUES (?, ?, ?, ?, ?)",
	/* each change with the time of the table's next one (its dealer's stint ends there), then cut to [from, to) */
	[STMT_TABLES_DEALT_BY] = "SELECT table_id FROM table_state WHERE dealer_id = ? ORDER BY table_id",
	[STMT_DEALER_CHANGES] = "SELECT id, table_id, person_id, person_name, at, by, until FROM ("
	    "SELECT id, table_id, person_id, person_name, at, by, lead(at) OVER (PARTITION BY table_id ORDER BY id) AS until "
	    "FROM dealer_changes WHERE (?3 IS NULL OR table_id IN (SELECT value FROM json_each(?3)))) "
	    "WHERE at >= ?1 AND at < ?2 ORDER BY at, id LIMIT ?4",

	/* aggregates.c */
	[STMT_REPORT_HOUR_ADD] = "INSERT INTO report_hours (table_id, hour, dealer, rules_id, rounds, voids, hands, "
	    "handle_ante, handle_play, handle_pair_plus, handle_six_card, "
	    "win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, "
	    "lines_ante, lines_play, lines_pair_plus, lines_six_card, lines_ante_bonus, first_ms, last_ms, "
	    BANKED_COLUMNS ") "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
	    "ON CONFLICT (hour, table_id, dealer, rules_id) DO UPDATE SET "
	    "rounds = rounds + excluded.rounds, voids = voids + excluded.voids, hands = hands + excluded.hands, "
	    "handle_ante = handle_ante + excluded.handle_ante, handle_play = handle_play + excluded.handle_play, "
	    "handle_pair_plus = handle_pair_plus + excluded.handle_pair_plus, "
	    "handle_six_card = handle_six_card + excluded.handle_six_card, "
	    "win_ante = win_ante + excluded.win_ante, win_play = win_play + excluded.win_play, "
	    "win_pair_plus = win_pair_plus + excluded.win_pair_plus, win_six_card = win_six_card + excluded.win_six_card, "
	    "win_ante_bonus = win_ante_bonus + excluded.win_ante_bonus, "
	    "lines_ante = lines_ante + excluded.lines_ante, lines_play = lines_play + excluded.lines_play, "
	    "lines_pair_plus = lines_pair_plus + excluded.lines_pair_plus, "
	    "lines_six_card = lines_six_card + excluded.lines_six_card, "
	    "lines_ante_bonus = lines_ante_bonus + excluded.lines_ante_bonus, "
	    "first_ms = min(first_ms, excluded.first_ms), last_ms = max(last_ms, excluded.last_ms), "
	    "banked_rounds = banked_rounds + excluded.banked_rounds, "
	    "banked_handle_ante = banked_handle_ante + excluded.banked_handle_ante, "
	    "banked_handle_play = banked_handle_play + excluded.banked_handle_play, "
	    "banked_handle_pair_plus = banked_handle_pair_plus + excluded.banked_handle_pair_plus, "
	    "banked_handle_six_card = banked_handle_six_card + excluded.banked_handle_six_card, "
	    "banked_win_ante = banked_win_ante + excluded.banked_win_ante, "
	    "banked_win_play = banked_win_play + excluded.banked_win_play, "
	    "banked_win_pair_plus = banked_win_pair_plus + excluded.banked_win_pair_plus, "
	    "banked_win_six_card = banked_win_six_card + excluded.banked_win_six_card, "
	    "banked_win_ante_bonus = banked_win_ante_bonus + excluded.banked_win_ante_bonus, "
	    "banked_lines_ante = banked_lines_ante + excluded.banked_lines_ante, "
	    "banked_lines_play = banked_lines_play + excluded.banked_lines_play, "
	    "banked_lines_pair_plus = banked_lines_pair_plus + excluded.banked_lines_pair_plus, "
	    "banked_lines_six_card = banked_lines_six_card + excluded.banked_lines_six_card, "
	    "banked_lines_ante_bonus = banked_lines_ante_bonus + excluded.banked_lines_ante_bonus, "
	    "collections = collections + excluded.collections",

	/* idempotency.c */
	[STMT_IDEMPOTENCY_GET] = "SELECT request_hash, status, response FROM idempotency WHERE actor = ? AND key = ?",
	[STMT_IDEMPOTENCY_INSERT] = "INSERT INTO idempotency (actor, key, request_hash, status, response, created_at) "
	    "VALUES (?, ?, ?, ?, ?, ?)",
	/*
	 * The subquery reads only idempotency_created_at, whose entries hold the
	 * rowid (schema/008 made idempotency a rowid table), not the rows; each
	 * row is then found by its rowid.
	 */
	[STMT_IDEMPOTENCY_PRUNE] = "DELETE FROM idempotency WHERE rowid IN "
	    "(SELECT rowid FROM idempotency WHERE created_at < ? ORDER BY created_at LIMIT ?)",

	/* audit.c */
	[STMT_EVENTS_RANGE] = "SELECT " EVENT_COLUMNS " FROM events WHERE table_id = ? AND table_seq >= ? "
	    "AND table_seq <= ? ORDER BY table_seq",
	[STMT_EVENTS_OF_ROUND] = "SELECT " EVENT_COLUMNS " FROM events WHERE round_id = ? ORDER BY table_seq",
	[STMT_EVENT_BEFORE] = "SELECT " EVENT_COLUMNS " FROM events WHERE table_id = ? AND table_seq < ? "
	    "ORDER BY table_seq DESC LIMIT 1",
	/*
	 * One index probe per table (each the next table_id after the last),
	 * where SELECT DISTINCT would scan the whole index: a second or two at
	 * 10^7 events, at every start.
	 */
	[STMT_EVENT_TABLES] = "WITH RECURSIVE t(id) AS (SELECT min(table_id) FROM events UNION ALL "
	    "SELECT (SELECT min(table_id) FROM events WHERE table_id > t.id) FROM t WHERE t.id IS NOT NULL) "
	    "SELECT id FROM t WHERE id IS NOT NULL",
	[STMT_ROUND_IDS] = "SELECT id FROM rounds WHERE (?1 IS NULL OR table_id = ?1) AND id >= ?2 ORDER BY id",
	/* the table's newest rounds, through its UNIQUE (table_id, round_no) index */
	[STMT_ROUND_IDS_LAST] = "SELECT id FROM rounds WHERE table_id = ?1 ORDER BY round_no DESC LIMIT ?2",
	[STMT_ROUND_COUNTS] = "SELECT (SELECT count(*) FROM bets WHERE round_id = ?1), "
	    "(SELECT count(*) FROM hands WHERE round_id = ?1), (SELECT count(*) FROM decisions WHERE round_id = ?1), "
	    "(SELECT count(*) FROM payouts WHERE round_id = ?1), (SELECT count(*) FROM collections WHERE round_id = ?1)",
	[STMT_CHECKPOINT_INSERT] = "INSERT INTO checkpoints (table_id, table_seq, head_hash, at, public_key, signature) "
	    "VALUES (?, ?, ?, ?, ?, ?)",
	[STMT_CHECKPOINT_LAST] = "SELECT " CHECKPOINT_COLUMNS " FROM checkpoints WHERE table_id = ? ORDER BY id DESC LIMIT 1",
	[STMT_CHECKPOINTS_AFTER] = "SELECT " CHECKPOINT_COLUMNS " FROM checkpoints "
	    "WHERE (?1 IS NULL OR table_id = ?1) AND id > ?2 ORDER BY id LIMIT ?3",
	[STMT_SIGNIFICANT_HEAD] = "SELECT hash FROM significant_events ORDER BY id DESC LIMIT 1",
	[STMT_SIGNIFICANT_INSERT] = "INSERT INTO significant_events (at, source, code, table_id, detail, prev_hash, hash) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?)",
	[STMT_SIGNIFICANT_LIST] = "SELECT id, at, source, code, table_id, detail, hash FROM significant_events "
	    "WHERE id > ? ORDER BY id LIMIT ?",
	[STMT_SIGNIFICANT_WALK] = "SELECT id, at, source, code, coalesce(table_id, ''), detail, prev_hash, hash "
	    "FROM significant_events ORDER BY id",
	[STMT_TABLE_HOLD_SET] = "UPDATE table_state SET integrity_hold = ? WHERE table_id = ?",
	[STMT_TABLE_HOLD_GET] = "SELECT integrity_hold FROM table_state WHERE table_id = ?",
	[STMT_REPORT_HOURS_VERIFY] = "SELECT DISTINCT '', table_id, hour, dealer FROM ("
	    "SELECT table_id, hour, dealer FROM (" RECOMPUTED_HOURS " EXCEPT " STORED_HOURS ") UNION "
	    "SELECT table_id, hour, dealer FROM (" STORED_HOURS " EXCEPT " RECOMPUTED_HOURS ")) ORDER BY 2, 3, 4 LIMIT ?",

	/* reports.c */
	[STMT_REPORT_HOURS] = "SELECT table_id, hour, dealer, rules_id, rounds, voids, hands, "
	    "handle_ante, handle_play, handle_pair_plus, handle_six_card, "
	    "win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, "
	    "lines_ante, lines_play, lines_pair_plus, lines_six_card, lines_ante_bonus, " BANKED_COLUMNS ", first_ms, last_ms "
	    "FROM report_hours WHERE hour >= ?1 AND hour < ?2 "
	    "AND (?3 IS NULL OR table_id IN (SELECT value FROM json_each(?3))) "
	    "ORDER BY hour, table_id, dealer, rules_id",
	[STMT_RULES_SHA256] = "SELECT sha256 FROM rules_sets WHERE id = ?",
	[STMT_RULES_GET] = "SELECT sha256, rules_json FROM rules_sets WHERE id = ?",
	/*
	 * "p.net > 0" makes the partial index payouts_net usable; CROSS JOIN
	 * keeps payouts the outer loop, so lines are read largest first and
	 * the walk stops at the limit.  "p.net >= ?1" must come first: without
	 * statistics SQLite bounds the range by the first of two equal-cost
	 * lower bounds, and bounded by "net > 0" the walk would read every
	 * winning line of the record when fewer than the limit qualify
	 * (tests/unit/test_reports.c counts the steps).
	 */
	[STMT_REPORT_PAYOUTS] = "SELECT p.round_id, r.table_id, p.seat, p.wager, p.stake, p.net, r.settled_at, "
	    "h.cards, d.cards FROM payouts p INDEXED BY payouts_net "
	    "CROSS JOIN rounds r ON r.id = p.round_id "
	    "LEFT JOIN hands h ON h.round_id = p.round_id AND h.seat = p.seat "
	    "LEFT JOIN hands d ON d.round_id = p.round_id AND d.seat = 0 "
	    "WHERE p.net >= ?1 AND p.net > 0 AND r.state = 'settled' AND r.settled_at >= ?2 AND r.settled_at < ?3 "
	    "AND (?4 IS NULL OR r.table_id IN (SELECT value FROM json_each(?4))) "
	    "ORDER BY p.net DESC, p.round_id DESC, p.seq LIMIT ?5",
	[STMT_REPORT_VOIDS] = "SELECT id, table_id, settled_at, void_reason FROM rounds INDEXED BY rounds_void "
	    "WHERE state = 'void' AND settled_at >= ?1 AND settled_at < ?2 "
	    "AND (?3 IS NULL OR table_id IN (SELECT value FROM json_each(?3))) "
	    "ORDER BY settled_at, id LIMIT ?4",
	[STMT_REPORT_SHORTS] = "SELECT p.round_id, r.table_id, r.settled_at, p.seat, p.wager, p.stake, p.net, p.short "
	    "FROM payouts p INDEXED BY payouts_short CROSS JOIN rounds r ON r.id = p.round_id "
	    "WHERE p.short IS NOT NULL AND r.settled_at >= ?1 AND r.settled_at < ?2 "
	    "AND (?3 IS NULL OR r.table_id IN (SELECT value FROM json_each(?3))) "
	    "ORDER BY r.settled_at, p.round_id, p.seq LIMIT ?4",
	[STMT_HAS_TABLE] = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
	[STMT_REPORT_SIGNIFICANT] = "SELECT id, at, source, code, table_id, detail FROM significant_events "
	    "WHERE at >= ?1 AND at < ?2 "
	    "AND EXISTS (SELECT 1 FROM json_each(?5) p WHERE significant_events.code GLOB p.value) "
	    "AND (?3 IS NULL OR table_id IN (SELECT value FROM json_each(?3))) "
	    "ORDER BY at, id LIMIT ?4",

	/* report_days.c */
	[STMT_REPORT_SPANS] = "SELECT " SPAN_READ_COLUMNS " FROM report_spans WHERE kind = ?4 AND start >= ?1 "
	    "AND start < ?2 AND (?3 IS NULL OR table_id IN (SELECT value FROM json_each(?3))) "
	    "ORDER BY start, table_id, dealer, rules_id",
	[STMT_REPORT_SPAN_PUT] = "INSERT OR REPLACE INTO report_spans (" SPAN_COLUMNS ") VALUES "
	    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[STMT_REPORT_SPANS_DELETE] = "DELETE FROM report_spans WHERE kind = ? AND start = ?",
	[STMT_ROLLUP_GET] = "SELECT days_before FROM report_rollup WHERE id = 1",
	[STMT_ROLLUP_SET] = "UPDATE report_rollup SET days_before = ? WHERE id = 1",
	[STMT_REPORT_HOURS_NEXT] = "SELECT hour FROM report_hours WHERE hour >= ? ORDER BY hour LIMIT 1",
	[STMT_BEGIN_DEFERRED] = "BEGIN DEFERRED",

	/* people.c */
	[STMT_PERSON_GET] = "SELECT id, name, roles, active, password_hash, must_change, failures, locked_until_ms, "
	    "created_at, updated_at FROM people WHERE id = ?",
	/* a person whose id is this one without regard to case (a new id must not be); index people_id_nocase */
	[STMT_PERSON_GET_NOCASE] = "SELECT id, name, roles, active, password_hash, must_change, failures, locked_until_ms, "
	    "created_at, updated_at FROM people WHERE id = ?1 COLLATE NOCASE ORDER BY id LIMIT 1",
	/* a failure in a row: counted, and from the max-th on the person is locked until ?3 */
	/* a count that ended in a lockout starts again once the lockout is over (?4: now) */
	[STMT_PERSON_FAILED] = "UPDATE people SET "
	    "failures = CASE WHEN locked_until_ms BETWEEN 1 AND ?4 THEN 1 ELSE failures + 1 END, "
	    "locked_until_ms = CASE WHEN (CASE WHEN locked_until_ms BETWEEN 1 AND ?4 THEN 1 ELSE failures + 1 END) >= ?2 "
	    "THEN ?3 WHEN locked_until_ms <= ?4 THEN 0 ELSE locked_until_ms END WHERE id = ?1 "
	    "RETURNING failures, locked_until_ms",
	/* a good password (from one of the person's own addresses, while locked out) leaves the lockout in force */
	[STMT_PERSON_SUCCEEDED] = "UPDATE people SET failures = 0, "
	    "locked_until_ms = CASE WHEN locked_until_ms > ?2 THEN locked_until_ms ELSE 0 END "
	    "WHERE id = ?1 AND (failures <> 0 OR locked_until_ms <> 0)",
	[STMT_PERSON_ADD] = "INSERT INTO people (id, name, roles, active, password_hash, must_change, failures, "
	    "locked_until_ms, created_at, updated_at) VALUES (?1, ?2, ?3, 1, ?4, ?5, 0, 0, ?6, ?6)",
	[STMT_PERSON_UPDATE] = "UPDATE people SET name = ?2, roles = ?3, active = ?4, updated_at = ?5 WHERE id = ?1",
	/* a new password also ends a lockout: an admin's reset is how a locked-out person gets back in early */
	[STMT_PERSON_PASSWORD] = "UPDATE people SET password_hash = ?2, must_change = ?3, failures = 0, "
	    "locked_until_ms = 0, updated_at = ?4 WHERE id = ?1",
	[STMT_PEOPLE_LIST] = "SELECT id, name, roles, active, password_hash, must_change, failures, locked_until_ms, "
	    "created_at, updated_at FROM people ORDER BY id",

	/* sessions.c */
	[STMT_SESSION_ADD] = "INSERT INTO sessions (token_sha256, person_id, created_ms, last_ms, expires_ms, address) "
	    "VALUES (?1, ?2, ?3, ?3, ?4, ?5)",
	[STMT_SESSION_HOME] = "SELECT 1 FROM sessions WHERE person_id = ?1 AND address = ?2 AND created_ms >= ?3 LIMIT 1",
	[STMT_SESSION_GET] = "SELECT s.person_id, s.created_ms, s.last_ms, s.expires_ms, s.ended_ms IS NOT NULL, "
	    "p.name, p.roles, p.active, p.must_change FROM sessions s JOIN people p ON p.id = s.person_id "
	    "WHERE s.token_sha256 = ?",
	[STMT_SESSION_TOUCH] = "UPDATE sessions SET last_ms = ?2 WHERE token_sha256 = ?1 AND ended_ms IS NULL AND last_ms < ?2",
	[STMT_SESSION_END] = "UPDATE sessions SET ended_ms = ?2 WHERE token_sha256 = ?1 AND ended_ms IS NULL "
	    "RETURNING person_id",
	[STMT_SESSIONS_END_PERSON] = "UPDATE sessions SET ended_ms = ?2 WHERE person_id = ?1 AND ended_ms IS NULL "
	    "AND token_sha256 IS NOT ?3 RETURNING token_sha256",

	/* central.c: the shipper reads events in id order, which is each table's chain order */
	[STMT_EVENTS_AFTER] = "SELECT " EVENT_COLUMNS " FROM events WHERE id > ? ORDER BY id LIMIT ?",
	[STMT_CENTRAL_POSITION_GET] = "SELECT last_id FROM central_position WHERE stream = ?",
	[STMT_CENTRAL_POSITION_SET] = "INSERT INTO central_position (stream, last_id, at) VALUES (?1, ?2, ?3) "
	    "ON CONFLICT (stream) DO UPDATE SET last_id = max(last_id, excluded.last_id), at = excluded.at",
	/* the newest event's id and the time of the first one after the position */
	[STMT_CENTRAL_LAG] = "SELECT coalesce((SELECT max(id) FROM events), 0), "
	    "(SELECT at FROM events WHERE id > ?1 ORDER BY id LIMIT 1)",
	/* the rounds finished by events in (after, upto], in event order: what the central reports count */
	[STMT_CENTRAL_FINISHED] = "SELECT id, round_id FROM events WHERE id > ?1 AND id <= ?2 "
	    "AND type IN ('round_settled', 'round_voided') ORDER BY id LIMIT ?3",
	[STMT_CENTRAL_EVENT_ID] = "SELECT id FROM events WHERE table_id = ? AND table_seq = ?",
	[STMT_RULES_TEXT] = "SELECT sha256, rules_json FROM rules_sets WHERE id = ?",

	/* accounting.c */
	/* the events of no round of every chain (the tables' own, the players'), for pitboss verify (a scan) */
	[STMT_TABLE_EVENTS] = "SELECT " EVENT_COLUMNS " FROM events WHERE round_id IS NULL ORDER BY id",
	/* the players' derived rows as one JSON text each, in a fixed order: pitboss verify compares them with a rebuild */
	[STMT_ROWS_PLAYERS] = "SELECT json_group_array(json_array(id, card, name, record_json, created_at, updated_at)) "
	    "FROM (SELECT * FROM players ORDER BY id)",
	[STMT_ROWS_SEAT_PLAYERS] = "SELECT json_group_array(json_array(table_id, seat, player_id, since)) "
	    "FROM (SELECT * FROM seat_players ORDER BY table_id, seat)",
	[STMT_ROWS_SEAT_CHANGES] = "SELECT json_group_array(json_array(id, table_id, seat, player_id, seated, at, by)) "
	    "FROM (SELECT * FROM seat_changes ORDER BY id)",
	[STMT_ROWS_TRANSACTIONS] = "SELECT json_group_array(json_array(id, table_id, seat, player_id, direction, kind, amount, "
	    "at, gaming_day, by)) FROM (SELECT * FROM table_transactions ORDER BY id)",
	[STMT_ROWS_TITLE31_ACKS] = "SELECT json_group_array(json_array(gaming_day, player_id, direction, kind, note, by, at)) "
	    "FROM (SELECT * FROM title31_acks ORDER BY gaming_day, player_id, direction, kind)",
	[STMT_ACCT_COUNTS] = "SELECT (SELECT count(*) FROM acct_documents), (SELECT count(*) FROM acct_acknowledgments)",
	[STMT_ACCT_NEXT_ID] = "SELECT coalesce(max(id), 0) + 1 FROM acct_documents",
	[STMT_ACCT_INSERT] = "INSERT INTO acct_documents (" ACCT_COLUMNS ") "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)",
	[STMT_ACCT_GET] = "SELECT " ACCT_COLUMNS " FROM acct_documents WHERE id = ?",
	[STMT_ACCT_BY_SERIAL] = "SELECT " ACCT_COLUMNS " FROM acct_documents WHERE kind = ?1 AND year = ?2 AND serial = ?3",
	[STMT_ACCT_LAST] = "SELECT " ACCT_COLUMNS " FROM acct_documents WHERE table_id = ?1 AND kind = ?2 "
	    "ORDER BY id DESC LIMIT 1",
	[STMT_ACCT_HAS_OPENER] = "SELECT count(*) FROM acct_documents WHERE table_id = ?1 AND kind = 'opener' AND gaming_day = ?2",
	/* a document voided later (on any day) counts for nothing */
	[STMT_ACCT_DAY] = "SELECT " ACCT_COLUMNS " FROM acct_documents d WHERE gaming_day = ?1 "
	    "AND kind IN ('opener', 'closer', 'fill', 'credit', 'drop') "
	    "AND NOT EXISTS (SELECT 1 FROM acct_documents v WHERE v.voids = d.id) ORDER BY id",
	[STMT_ACCT_TABLE_DAY] = "SELECT " ACCT_COLUMNS " FROM acct_documents WHERE table_id = ?1 AND (gaming_day = ?2 "
	    "OR voids IN (SELECT id FROM acct_documents WHERE table_id = ?1 AND gaming_day = ?2)) ORDER BY id",
	[STMT_ACCT_DAYS] = "SELECT " ACCT_COLUMNS " FROM acct_documents d WHERE gaming_day >= ?1 AND gaming_day <= ?2 "
	    "AND kind IN ('opener', 'closer', 'fill', 'credit', 'drop') "
	    "AND NOT EXISTS (SELECT 1 FROM acct_documents v WHERE v.voids = d.id) ORDER BY id",
	[STMT_ACCT_DISCREPANCIES] = "SELECT " ACCT_COLUMNS " FROM acct_documents WHERE kind = 'opener' "
	    "AND discrepancy <> 0 AND at >= ?1 AND at < ?2 ORDER BY id",
	[STMT_ACCT_ACK_INSERT] = "INSERT INTO acct_acknowledgments (table_id, kind, ref, note, by, at) VALUES (?, ?, ?, ?, ?, ?)",
	[STMT_ACCT_ACK_GET] = "SELECT note, by, at FROM acct_acknowledgments WHERE table_id = ?1 AND kind = ?2 AND ref = ?3",
	[STMT_PLAYER_PUT] = "INSERT INTO players (id, card, name, record_json, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5) "
	    "ON CONFLICT(id) DO UPDATE SET card = ?2, name = ?3, record_json = ?4, updated_at = ?5",
	[STMT_PLAYER_GET] = "SELECT record_json, created_at, updated_at FROM players WHERE id = ?",
	/* another player (not ?2) whose card is ?1 without regard to case; index players_card_nocase */
	[STMT_PLAYER_CARD_HOLDER] = "SELECT id FROM players WHERE card = ?1 COLLATE NOCASE AND id <> ?2 ORDER BY id LIMIT 1",
	[STMT_PLAYER_SEARCH] = "SELECT record_json, created_at, updated_at FROM players WHERE (?1 IS NULL OR card = ?1) "
	    "AND (?2 IS NULL OR instr(lower(name), lower(?2)) > 0) ORDER BY id LIMIT ?3",
	[STMT_PLAYER_COUNT] = "SELECT count(*) FROM players",
	[STMT_SEAT_GET] = "SELECT player_id FROM seat_players WHERE table_id = ?1 AND seat = ?2",
	[STMT_SEAT_PUT] = "INSERT INTO seat_players (table_id, seat, player_id, since) VALUES (?1, ?2, ?3, ?4)",
	[STMT_SEAT_DELETE] = "DELETE FROM seat_players WHERE table_id = ?1 AND seat = ?2",
	[STMT_SEAT_CHANGE_INSERT] = "INSERT INTO seat_changes (table_id, seat, player_id, seated, at, by) VALUES (?, ?, ?, ?, ?, ?)",
	[STMT_SEATS_OF_TABLE] = "SELECT seat, player_id FROM seat_players WHERE table_id = ? ORDER BY seat",
	/* where else than table ?2 seat ?3 a player sits now (a scan of the occupied seats: one row each) */
	[STMT_SEAT_OF_PLAYER] = "SELECT table_id, seat FROM seat_players WHERE player_id = ?1 AND NOT (table_id = ?2 AND "
	    "seat = ?3) ORDER BY table_id, seat LIMIT 1",
	[STMT_SEAT_CHANGES_OF_PLAYER] = "SELECT table_id, seat, seated, at FROM seat_changes WHERE player_id = ? ORDER BY id",
	[STMT_ROUND_PLAYER_INSERT] = "INSERT INTO round_players (round_id, seat, player_id) VALUES (?, ?, ?)",
	[STMT_ROUND_PLAYERS] = "SELECT seat, player_id FROM round_players WHERE round_id = ? ORDER BY seat",
	[STMT_TXN_NEXT_ID] = "SELECT coalesce(max(id), 0) + 1 FROM table_transactions",
	[STMT_TXN_INSERT] = "INSERT INTO table_transactions (id, table_id, seat, player_id, direction, kind, amount, at, gaming_day, by) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[STMT_TXNS_DAY] = "SELECT id, table_id, seat, player_id, direction, kind, amount, at, by FROM table_transactions "
	    "WHERE gaming_day = ? ORDER BY id",
	[STMT_T31_ACK_INSERT] = "INSERT INTO title31_acks (gaming_day, player_id, direction, kind, note, by, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
	[STMT_T31_ACKS_DAY] = "SELECT player_id, direction, kind, note, by, at FROM title31_acks WHERE gaming_day = ?",
	/* the payout lines of the player's settled rounds: what a rating sums */
	[STMT_PLAYER_LINES] = "SELECT p.round_id, r.rules_id, p.wager, p.stake, p.result, p.net FROM round_players rp "
	    "JOIN rounds r ON r.id = rp.round_id JOIN payouts p ON p.round_id = rp.round_id AND p.seat = rp.seat "
	    "WHERE rp.player_id = ?1 AND r.state = 'settled' AND r.settled_at >= ?2 AND r.settled_at < ?3 ORDER BY p.round_id, p.seq",
	/* hands (a seat's bet in a settled round) and those with a known player */
	[STMT_HANDS_COVERAGE] = "SELECT count(*), count(rp.player_id) FROM bets b JOIN rounds r ON r.id = b.round_id "
	    "LEFT JOIN round_players rp ON rp.round_id = b.round_id AND rp.seat = b.seat "
	    "WHERE r.state = 'settled' AND r.settled_at >= ?1 AND r.settled_at < ?2",
	[STMT_PLAYERS_BETWEEN] = "SELECT DISTINCT rp.player_id FROM round_players rp JOIN rounds r ON r.id = rp.round_id "
	    "JOIN bets b ON b.round_id = rp.round_id AND b.seat = rp.seat "
	    "WHERE r.state = 'settled' AND r.settled_at >= ?1 AND r.settled_at < ?2 ORDER BY rp.player_id",

	/* corrections.c */
	[STMT_CORR_COUNT] = "SELECT count(*) FROM corrections",
	[STMT_CORR_NEXT_ID] = "SELECT coalesce(max(id), 0) + 1 FROM corrections",
	[STMT_CORR_INSERT] = "INSERT INTO corrections (" CORR_COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	[STMT_CORR_GET] = "SELECT " CORR_READ " FROM corrections c WHERE c.id = ?",
	[STMT_CORR_OF_ROUND] = "SELECT " CORR_READ " FROM corrections c WHERE c.round_id = ? ORDER BY c.id",
	/* the latest correction of a line: round, seat, wager */
	[STMT_CORR_LATEST] = "SELECT " CORR_READ " FROM corrections c WHERE c.round_id = ?1 AND c.seat = ?2 AND "
	    "c.wager = ?3 ORDER BY c.id DESC LIMIT 1",
	/* the mispays of the exceptions report, each line at its latest: [from, to), the table scope, the limit */
	[STMT_CORR_RANGE] = "SELECT " CORR_READ " FROM corrections c INDEXED BY corrections_at "
	    "WHERE c.at >= ?1 AND c.at < ?2 AND (?3 IS NULL OR c.table_id IN (SELECT value FROM json_each(?3))) "
	    "AND " CORR_LATEST " ORDER BY c.at, c.id LIMIT ?4",
	[STMT_CORR_TOTAL] = "SELECT count(*), coalesce(sum(c.paid - c.owed), 0) FROM corrections c "
	    "WHERE c.at >= ?1 AND c.at < ?2 AND (?3 IS NULL OR c.table_id IN (SELECT value FROM json_each(?3))) "
	    "AND " CORR_LATEST,
};

const char *
store_sql_text(enum stmt_id id)
{
	return (unsigned)id < STMT_COUNT ? SQL[id] : NULL;
}
