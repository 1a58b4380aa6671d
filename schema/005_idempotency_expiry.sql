-- 005_idempotency_expiry: stored Idempotency-Key answers are kept for a
-- retention period ("idempotency": {"retention_seconds"}, default 24 hours)
-- and then deleted by pitbossd (store_idempotency_prune() in
-- daemon/store/idempotency.c), oldest first, a bounded batch per transaction.
--
-- The index lets each batch find its oldest rows without scanning the table.
-- created_at is written by pitbossd only, always as UTC ISO 8601 with
-- milliseconds ("2026-11-21T22:43:40.123Z", fixed width), so text order is
-- time order and `created_at < cutoff` compares times exactly when the cutoff
-- is written the same way.
--
-- The idempotency table is not part of the hash-chained record (events are);
-- deleting from it changes nothing an audit checks.
--
-- Depends only on 001 (idempotency).

CREATE INDEX idempotency_created_at ON idempotency(created_at);
