/*
 * schema.c - the central schema `pitboss` (docs/central.md), created and
 * upgraded by `pitboss central init`.  Each version is a list of fixed
 * statements run in one transaction with pitboss.schema_version; an
 * advisory lock keeps two inits from racing.  Never edit an applied
 * version: add the next.
 */
#include <stdio.h>
#include <stdlib.h>

#include "central/central_int.h"

/* An arbitrary constant: the advisory lock of `central init`. */
#define INIT_LOCK "7306414523907711"

static const char *const V1[] = {
	"CREATE TABLE pitboss.properties (\n"
	"  property   text PRIMARY KEY,\n"
	"  first_seen timestamptz NOT NULL DEFAULT now())",
	/*
	 * The record of every property.  body is the exact canonical text the
	 * hash covers (not jsonb, which would reorder and respace it); at is the
	 * text hashed too.  Partitioned by property (LIST): a property's chains
	 * are read, verified and restored together, and a property that leaves
	 * the group is detached whole (docs/central.md, "Partitioning").
	 */
	"CREATE TABLE pitboss.events (\n"
	"  property    text   NOT NULL,\n"
	"  table_id    text   NOT NULL,\n"
	"  table_seq   bigint NOT NULL CHECK (table_seq > 0),\n"
	"  round_id    bigint,\n"
	"  type        text   NOT NULL,\n"
	"  at          text   NOT NULL,\n"
	"  actor       text   NOT NULL,\n"
	"  body        text   NOT NULL,\n"
	"  prev_hash   text   NOT NULL,\n"
	"  hash        text   NOT NULL,\n"
	"  received_at timestamptz NOT NULL DEFAULT now(),\n"
	"  PRIMARY KEY (property, table_id, table_seq)\n"
	") PARTITION BY LIST (property)",
	/* rows of a property not yet given its partition still land somewhere */
	"CREATE TABLE pitboss.events_default PARTITION OF pitboss.events DEFAULT",
	"CREATE INDEX events_round ON pitboss.events (property, round_id) WHERE round_id IS NOT NULL",
	"CREATE TABLE pitboss.checkpoints (\n"
	"  property    text   NOT NULL,\n"
	"  local_id    bigint NOT NULL,\n"
	"  table_id    text   NOT NULL,\n"
	"  table_seq   bigint NOT NULL,\n"
	"  head_hash   text   NOT NULL,\n"
	"  at          text   NOT NULL,\n"
	"  public_key  text   NOT NULL,\n"
	"  signature   text   NOT NULL,\n"
	"  received_at timestamptz NOT NULL DEFAULT now(),\n"
	"  PRIMARY KEY (property, local_id))",
	"CREATE INDEX checkpoints_chain ON pitboss.checkpoints (property, table_id, table_seq)",
	/* append-only, as on the property: UPDATE and DELETE refused (a superuser can still get past; verify tells) */
	"CREATE FUNCTION pitboss.append_only() RETURNS trigger LANGUAGE plpgsql AS $$\n"
	"BEGIN RAISE EXCEPTION '%: append-only', TG_TABLE_NAME; END $$",
	"CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON pitboss.events\n"
	"  FOR EACH ROW EXECUTE FUNCTION pitboss.append_only()",
	"CREATE TRIGGER checkpoints_append_only BEFORE UPDATE OR DELETE ON pitboss.checkpoints\n"
	"  FOR EACH ROW EXECUTE FUNCTION pitboss.append_only()",
	/*
	 * A property's first contact: its row and its own partition, named
	 * events_<property> (quoted by format %I).  SECURITY DEFINER so that the
	 * shipper's role needs only INSERT and SELECT.  Rows a property left in
	 * the default partition before would block the new partition: moved first.
	 */
	"CREATE FUNCTION pitboss.ensure_property(p text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER\n"
	"SET search_path = pitboss, pg_temp AS $$\n"
	"BEGIN\n"
	"  IF EXISTS (SELECT 1 FROM pitboss.properties WHERE property = p) THEN RETURN; END IF;\n"
	"  PERFORM pg_advisory_xact_lock(" INIT_LOCK ");\n"
	"  IF EXISTS (SELECT 1 FROM pitboss.properties WHERE property = p) THEN RETURN; END IF;\n"
	"  CREATE TEMP TABLE pitboss_moved ON COMMIT DROP AS\n"
	"    SELECT * FROM pitboss.events_default WHERE property = p;\n"
	"  IF EXISTS (SELECT 1 FROM pitboss_moved) THEN\n"
	"    ALTER TABLE pitboss.events_default DISABLE TRIGGER USER;\n"
	"    DELETE FROM pitboss.events_default WHERE property = p;\n"
	"    ALTER TABLE pitboss.events_default ENABLE TRIGGER USER;\n"
	"  END IF;\n"
	"  EXECUTE format('CREATE TABLE pitboss.%I PARTITION OF pitboss.events FOR VALUES IN (%L)', 'events_' || p, p);\n"
	"  INSERT INTO pitboss.events SELECT * FROM pitboss_moved;\n"
	"  INSERT INTO pitboss.properties (property) VALUES (p);\n"
	"END $$",
	NULL,
};


/*
 * Version 2: what the cross-property reports read (docs/central.md,
 * "Reports").  round_facts holds one row per finished round, what it
 * counts for (engine/tally.h), sent by its property after the round's
 * events; report_hours sums them per table, UTC hour, dealer and game, as
 * the property's own report_hours does, kept by a trigger on the facts'
 * INSERT (a resent fact is ON CONFLICT DO NOTHING, so never counted
 * twice).  rules holds each game's canonical rules object by its SHA-256,
 * for the theoretical figures.  The property's calendar (zone, gaming day,
 * shifts) is recorded for grouping by its gaming days.
 */
static const char *const V2[] = {
	"ALTER TABLE pitboss.properties ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC',\n"
	"  ADD COLUMN gaming_day_start text NOT NULL DEFAULT '00:00',\n"
	"  ADD COLUMN shifts text NOT NULL DEFAULT '[]',\n"
	"  ADD COLUMN name text",
	"CREATE FUNCTION pitboss.set_property_calendar(p text, n text, tz text, day_start text, sh text)\n"
	"RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path = pitboss, pg_temp AS $$\n"
	"  UPDATE pitboss.properties SET name = n, time_zone = tz, gaming_day_start = day_start, shifts = sh\n"
	"  WHERE property = p $$",
	"CREATE TABLE pitboss.rules (\n"
	"  id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
	"  sha256   text NOT NULL UNIQUE,\n"
	"  body     text NOT NULL)",
	"CREATE TABLE pitboss.round_facts (\n"
	"  property     text   NOT NULL,\n"
	"  round_id     bigint NOT NULL,\n"
	"  table_id     text   NOT NULL,\n"
	"  final_event  bigint NOT NULL,\n"
	"  hour         bigint NOT NULL,\n"
	"  dealer       text   NOT NULL,\n"
	"  dealer_name  text   NOT NULL,\n"
	"  rules_sha256 text   NOT NULL REFERENCES pitboss.rules (sha256),\n"
	"  voided       boolean NOT NULL,\n"
	"  hands        bigint NOT NULL,\n"
	"  handle       bigint[] NOT NULL,\n"
	"  house_win    bigint[] NOT NULL,\n"
	"  lines        bigint[] NOT NULL,\n"
	"  opened_ms    bigint NOT NULL,\n"
	"  settled_ms   bigint NOT NULL,\n"
	"  banked_rounds bigint NOT NULL,\n"
	"  banked_handle bigint[] NOT NULL,\n"
	"  banked_win   bigint[] NOT NULL,\n"
	"  banked_lines bigint[] NOT NULL,\n"
	"  collections  bigint NOT NULL,\n"
	"  PRIMARY KEY (property, round_id))",
	"CREATE INDEX round_facts_final ON pitboss.round_facts (property, final_event)",
	"CREATE TRIGGER round_facts_append_only BEFORE UPDATE OR DELETE ON pitboss.round_facts\n"
	"  FOR EACH ROW EXECUTE FUNCTION pitboss.append_only()",
	"CREATE TABLE pitboss.report_hours (\n"
	"  property     text   NOT NULL,\n"
	"  table_id     text   NOT NULL,\n"
	"  hour         bigint NOT NULL,\n"
	"  dealer       text   NOT NULL,\n"
	"  rules_sha256 text   NOT NULL,\n"
	"  dealer_name  text   NOT NULL,\n"
	"  rounds       bigint NOT NULL,\n"
	"  voids        bigint NOT NULL,\n"
	"  hands        bigint NOT NULL,\n"
	"  handle       bigint[] NOT NULL,\n"
	"  house_win    bigint[] NOT NULL,\n"
	"  lines        bigint[] NOT NULL,\n"
	"  first_ms     bigint NOT NULL,\n"
	"  last_ms      bigint NOT NULL,\n"
	"  banked_rounds bigint NOT NULL,\n"
	"  banked_handle bigint[] NOT NULL,\n"
	"  banked_win   bigint[] NOT NULL,\n"
	"  banked_lines bigint[] NOT NULL,\n"
	"  collections  bigint NOT NULL,\n"
	"  PRIMARY KEY (property, hour, table_id, dealer, rules_sha256))",
	/* element-wise sum of two equal-length bigint arrays */
	"CREATE FUNCTION pitboss.add_arrays(a bigint[], b bigint[]) RETURNS bigint[] LANGUAGE sql IMMUTABLE AS $$\n"
	"  SELECT array_agg(x + y ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS t(x, y, i) $$",
	"CREATE FUNCTION pitboss.round_facts_add() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER\n"
	"SET search_path = pitboss, pg_temp AS $$\n"
	"BEGIN\n"
	"  INSERT INTO pitboss.report_hours AS h (property, table_id, hour, dealer, rules_sha256, dealer_name, rounds, voids,\n"
	"      hands, handle, house_win, lines, first_ms, last_ms, banked_rounds, banked_handle, banked_win, banked_lines,\n"
	"      collections)\n"
	"    VALUES (NEW.property, NEW.table_id, NEW.hour, NEW.dealer, NEW.rules_sha256, NEW.dealer_name,\n"
	"      CASE WHEN NEW.voided THEN 0 ELSE 1 END, CASE WHEN NEW.voided THEN 1 ELSE 0 END, NEW.hands,\n"
	"      NEW.handle, NEW.house_win, NEW.lines, NEW.opened_ms, NEW.settled_ms, NEW.banked_rounds, NEW.banked_handle,\n"
	"      NEW.banked_win, NEW.banked_lines, NEW.collections)\n"
	"  ON CONFLICT (property, hour, table_id, dealer, rules_sha256) DO UPDATE SET\n"
	"    dealer_name = EXCLUDED.dealer_name, rounds = h.rounds + EXCLUDED.rounds, voids = h.voids + EXCLUDED.voids,\n"
	"    hands = h.hands + EXCLUDED.hands, handle = pitboss.add_arrays(h.handle, EXCLUDED.handle),\n"
	"    house_win = pitboss.add_arrays(h.house_win, EXCLUDED.house_win),\n"
	"    lines = pitboss.add_arrays(h.lines, EXCLUDED.lines),\n"
	"    first_ms = least(h.first_ms, EXCLUDED.first_ms), last_ms = greatest(h.last_ms, EXCLUDED.last_ms),\n"
	"    banked_rounds = h.banked_rounds + EXCLUDED.banked_rounds,\n"
	"    banked_handle = pitboss.add_arrays(h.banked_handle, EXCLUDED.banked_handle),\n"
	"    banked_win = pitboss.add_arrays(h.banked_win, EXCLUDED.banked_win),\n"
	"    banked_lines = pitboss.add_arrays(h.banked_lines, EXCLUDED.banked_lines),\n"
	"    collections = h.collections + EXCLUDED.collections;\n"
	"  RETURN NULL;\n"
	"END $$",
	"CREATE TRIGGER round_facts_add AFTER INSERT ON pitboss.round_facts\n"
	"  FOR EACH ROW EXECUTE FUNCTION pitboss.round_facts_add()",
	NULL,
};

/*
 * Version 3: a login role per property (docs/central.md, "Roles").
 * pitboss.property_roles maps a role to the one property it ships; every
 * table with a property column gets row-level security whose policy lets a
 * mapped role read and insert only its property's rows (current_user looked
 * up in the mapping; a role not mapped sees and writes nothing).  The owner
 * and superusers are not subject to it (head office's reader: BYPASSRLS).
 * The SECURITY DEFINER functions a property calls refuse a mapped caller
 * (session_user: inside them current_user is the owner) acting for another
 * property.  pitboss.grant_property, run with its caller's own rights by
 * `pitboss central grant`, creates the role and grants it.
 */
static const char *const V3[] = {
	"CREATE TABLE pitboss.property_roles (\n"
	"  role       name PRIMARY KEY,\n"
	"  property   text NOT NULL,\n"
	"  granted_at timestamptz NOT NULL DEFAULT now())",
	"ALTER TABLE pitboss.property_roles ENABLE ROW LEVEL SECURITY",
	"CREATE POLICY own_mapping ON pitboss.property_roles FOR SELECT USING (role = current_user)",
	/* the property current_user may act for (NULL: none); the caller's rights, so the mapping's policy applies */
	"CREATE FUNCTION pitboss.role_property() RETURNS text LANGUAGE sql STABLE AS $$\n"
	"  SELECT property FROM pitboss.property_roles WHERE role = current_user $$",
	"ALTER TABLE pitboss.events ENABLE ROW LEVEL SECURITY",
	"CREATE POLICY own_property ON pitboss.events USING (property = pitboss.role_property())\n"
	"  WITH CHECK (property = pitboss.role_property())",
	"ALTER TABLE pitboss.checkpoints ENABLE ROW LEVEL SECURITY",
	"CREATE POLICY own_property ON pitboss.checkpoints USING (property = pitboss.role_property())\n"
	"  WITH CHECK (property = pitboss.role_property())",
	"ALTER TABLE pitboss.round_facts ENABLE ROW LEVEL SECURITY",
	"CREATE POLICY own_property ON pitboss.round_facts USING (property = pitboss.role_property())\n"
	"  WITH CHECK (property = pitboss.role_property())",
	"ALTER TABLE pitboss.report_hours ENABLE ROW LEVEL SECURITY",
	"CREATE POLICY own_property ON pitboss.report_hours FOR SELECT USING (property = pitboss.role_property())",
	"ALTER TABLE pitboss.properties ENABLE ROW LEVEL SECURITY",
	"CREATE POLICY own_property ON pitboss.properties FOR SELECT USING (property = pitboss.role_property())",
	/* a mapped login acting for another property through a SECURITY DEFINER function is refused */
	"CREATE FUNCTION pitboss.check_caller(p text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER\n"
	"SET search_path = pitboss, pg_temp AS $$\n"
	"BEGIN\n"
	"  IF EXISTS (SELECT 1 FROM pitboss.property_roles WHERE role = session_user AND property <> p) THEN\n"
	"    RAISE EXCEPTION 'role % may act only for its own property, not %', session_user, p\n"
	"      USING ERRCODE = 'insufficient_privilege';\n"
	"  END IF;\n"
	"END $$",
	"CREATE OR REPLACE FUNCTION pitboss.ensure_property(p text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER\n"
	"SET search_path = pitboss, pg_temp AS $$\n"
	"BEGIN\n"
	"  PERFORM pitboss.check_caller(p);\n"
	"  IF EXISTS (SELECT 1 FROM pitboss.properties WHERE property = p) THEN RETURN; END IF;\n"
	"  PERFORM pg_advisory_xact_lock(" INIT_LOCK ");\n"
	"  IF EXISTS (SELECT 1 FROM pitboss.properties WHERE property = p) THEN RETURN; END IF;\n"
	"  CREATE TEMP TABLE pitboss_moved ON COMMIT DROP AS\n"
	"    SELECT * FROM pitboss.events_default WHERE property = p;\n"
	"  IF EXISTS (SELECT 1 FROM pitboss_moved) THEN\n"
	"    ALTER TABLE pitboss.events_default DISABLE TRIGGER USER;\n"
	"    DELETE FROM pitboss.events_default WHERE property = p;\n"
	"    ALTER TABLE pitboss.events_default ENABLE TRIGGER USER;\n"
	"  END IF;\n"
	"  EXECUTE format('CREATE TABLE pitboss.%I PARTITION OF pitboss.events FOR VALUES IN (%L)', 'events_' || p, p);\n"
	"  INSERT INTO pitboss.events SELECT * FROM pitboss_moved;\n"
	"  INSERT INTO pitboss.properties (property) VALUES (p);\n"
	"END $$",
	"CREATE OR REPLACE FUNCTION pitboss.set_property_calendar(p text, n text, tz text, day_start text, sh text)\n"
	"RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pitboss, pg_temp AS $$\n"
	"BEGIN\n"
	"  PERFORM pitboss.check_caller(p);\n"
	"  UPDATE pitboss.properties SET name = n, time_zone = tz, gaming_day_start = day_start, shifts = sh\n"
	"  WHERE property = p;\n"
	"END $$",
	/*
	 * `pitboss central grant`: role r created (LOGIN, with password pw unless
	 * NULL) when missing, mapped to property p (a role already mapped to
	 * another is refused) and granted what shipping needs.  Not SECURITY
	 * DEFINER: creating a role takes the caller's own CREATEROLE.
	 */
	"CREATE FUNCTION pitboss.grant_property(r text, p text, pw text) RETURNS void LANGUAGE plpgsql\n"
	"SET search_path = pitboss, pg_temp AS $$\n"
	"BEGIN\n"
	"  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN\n"
	"    IF pw IS NULL THEN EXECUTE format('CREATE ROLE %I LOGIN', r);\n"
	"    ELSE EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L', r, pw); END IF;\n"
	"  ELSIF pw IS NOT NULL THEN\n"
	"    EXECUTE format('ALTER ROLE %I PASSWORD %L', r, pw);\n"
	"  END IF;\n"
	"  IF EXISTS (SELECT 1 FROM pitboss.property_roles WHERE role = r AND property <> p) THEN\n"
	"    RAISE EXCEPTION 'role % is already granted property %', r,\n"
	"      (SELECT property FROM pitboss.property_roles WHERE role = r);\n"
	"  END IF;\n"
	"  INSERT INTO pitboss.property_roles (role, property) VALUES (r, p) ON CONFLICT (role) DO NOTHING;\n"
	"  EXECUTE format('GRANT USAGE ON SCHEMA pitboss TO %I', r);\n"
	"  EXECUTE format('GRANT SELECT, INSERT ON pitboss.events, pitboss.checkpoints, pitboss.round_facts, '\n"
	"    'pitboss.rules TO %I', r);\n"
	"  EXECUTE format('GRANT SELECT ON pitboss.property_roles, pitboss.properties, pitboss.report_hours TO %I', r);\n"
	"  EXECUTE format('GRANT EXECUTE ON FUNCTION pitboss.role_property(), pitboss.ensure_property(text), '\n"
	"    'pitboss.set_property_calendar(text, text, text, text, text) TO %I', r);\n"
	"END $$",
	"REVOKE EXECUTE ON FUNCTION pitboss.grant_property(text, text, text) FROM PUBLIC",
	NULL,
};

/*
 * Version 4: day and month roll-ups of report_hours (docs/central.md,
 * "Reports"), as the property keeps its own (report_spans, table/rounds/
 * rollup.c): report_days holds, per property, UTC day, table, dealer and
 * game, the day's sums, its play time (each hour's joins with its
 * neighbours decided as the summary decides them, the day's last hour not
 * extended into the next day) and its carry (the extension of the hour
 * before the day by play going on into it); report_months the same per
 * UTC month, summed from the days (a day's carry becomes play but for the
 * month's first day's).  Beside each series' rows (table, dealer), their
 * sums as the report reads them: per table (dealer ''), per dealer (table
 * ''), per property (both '').  A trigger on round_facts, after report_hours',
 * rebuilds the fact's day (and the next day when the fact is in its day's
 * last hour: the next day's carry) and their months, in the same
 * transaction as the fact.  Row-level security as report_hours: a
 * property's role reads only its own rows.
 */
static const char *const V4[] = {
	"CREATE TABLE pitboss.report_days (\n"
	"  property     text   NOT NULL,\n"
	"  table_id     text   NOT NULL,\n"
	"  day          bigint NOT NULL,\n"
	"  dealer       text   NOT NULL,\n"
	"  rules_sha256 text   NOT NULL,\n"
	"  dealer_name  text   NOT NULL,\n"
	"  rounds       bigint NOT NULL,\n"
	"  voids        bigint NOT NULL,\n"
	"  hands        bigint NOT NULL,\n"
	"  handle       bigint[] NOT NULL,\n"
	"  house_win    bigint[] NOT NULL,\n"
	"  lines        bigint[] NOT NULL,\n"
	"  banked_rounds bigint NOT NULL,\n"
	"  banked_handle bigint[] NOT NULL,\n"
	"  banked_win   bigint[] NOT NULL,\n"
	"  banked_lines bigint[] NOT NULL,\n"
	"  collections  bigint NOT NULL,\n"
	"  play_ms      bigint NOT NULL,\n"
	"  carry_ms     bigint NOT NULL,\n"
	"  PRIMARY KEY (property, day, table_id, dealer, rules_sha256))",
	"CREATE TABLE pitboss.report_months (\n"
	"  property     text   NOT NULL,\n"
	"  table_id     text   NOT NULL,\n"
	"  month        bigint NOT NULL,\n"
	"  dealer       text   NOT NULL,\n"
	"  rules_sha256 text   NOT NULL,\n"
	"  dealer_name  text   NOT NULL,\n"
	"  rounds       bigint NOT NULL,\n"
	"  voids        bigint NOT NULL,\n"
	"  hands        bigint NOT NULL,\n"
	"  handle       bigint[] NOT NULL,\n"
	"  house_win    bigint[] NOT NULL,\n"
	"  lines        bigint[] NOT NULL,\n"
	"  banked_rounds bigint NOT NULL,\n"
	"  banked_handle bigint[] NOT NULL,\n"
	"  banked_win   bigint[] NOT NULL,\n"
	"  banked_lines bigint[] NOT NULL,\n"
	"  collections  bigint NOT NULL,\n"
	"  play_ms      bigint NOT NULL,\n"
	"  carry_ms     bigint NOT NULL,\n"
	"  PRIMARY KEY (property, month, table_id, dealer, rules_sha256))",
	/* the element-wise sum of equal-length bigint arrays */
	"CREATE FUNCTION pitboss.add_wagers(a bigint[], b bigint[]) RETURNS bigint[] LANGUAGE sql IMMUTABLE STRICT AS $$\n"
	"  SELECT array_agg(x + y ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS t(x, y, i) $$",
	"CREATE AGGREGATE pitboss.sum_wagers(bigint[]) (SFUNC = pitboss.add_wagers, STYPE = bigint[])",
	/* the series' day row made again from its hours (the two before the day read for the joins) */
	"CREATE FUNCTION pitboss.rollup_day(p text, t text, d text, g text, day_start bigint) RETURNS void\n"
	"LANGUAGE plpgsql SECURITY DEFINER SET search_path = pitboss, pg_temp AS $$\n"
	"BEGIN\n"
	"  DELETE FROM pitboss.report_days WHERE property = p AND day = day_start AND table_id = t AND dealer = d\n"
	"    AND rules_sha256 = g;\n"
	"  INSERT INTO pitboss.report_days\n"
	"  WITH h AS (SELECT *, hour * 1000 AS hs, hour * 1000 + 3600000 AS he, hour >= day_start AS in_day,\n"
	"      coalesce(lag(hour) OVER w = hour - 3600 AND first_ms - lag(last_ms) OVER w <= 900000, false) AS jb,\n"
	"      coalesce(lead(hour) OVER w = hour + 3600 AND lead(first_ms) OVER w - last_ms <= 900000, false) AS ja\n"
	"    FROM pitboss.report_hours WHERE property = p AND table_id = t AND dealer = d AND rules_sha256 = g\n"
	"      AND hour >= day_start - 7200 AND hour < day_start + 86400 WINDOW w AS (ORDER BY hour)),\n"
	"  c AS (SELECT *, CASE WHEN jb THEN hs ELSE least(greatest(first_ms, hs), he) END AS s,\n"
	"      least(greatest(last_ms, hs), he) AS e FROM h)\n"
	"  SELECT p, t, day_start, d, g, (array_agg(dealer_name ORDER BY hour DESC) FILTER (WHERE in_day))[1],\n"
	"    sum(rounds) FILTER (WHERE in_day)::bigint, sum(voids) FILTER (WHERE in_day)::bigint,\n"
	"    sum(hands) FILTER (WHERE in_day)::bigint,\n"
	"    pitboss.sum_wagers(handle) FILTER (WHERE in_day),\n"
	"    pitboss.sum_wagers(house_win) FILTER (WHERE in_day),\n"
	"    pitboss.sum_wagers(lines) FILTER (WHERE in_day),\n"
	"    sum(banked_rounds) FILTER (WHERE in_day)::bigint,\n"
	"    pitboss.sum_wagers(banked_handle) FILTER (WHERE in_day),\n"
	"    pitboss.sum_wagers(banked_win) FILTER (WHERE in_day),\n"
	"    pitboss.sum_wagers(banked_lines) FILTER (WHERE in_day),\n"
	"    sum(collections) FILTER (WHERE in_day)::bigint,\n"
	"    coalesce(sum(greatest(CASE WHEN ja THEN he ELSE e END - s, 0)) FILTER (WHERE in_day), 0)::bigint,\n"
	"    coalesce(sum(greatest(he - s, 0) - greatest(e - s, 0)) FILTER (WHERE hour = day_start - 3600 AND ja), 0)\n"
	"  FROM c HAVING count(*) FILTER (WHERE in_day) > 0;\n"
	"END $$",
	/* the series' month row summed from its days: a day's carry is play but for the month's first day's */
	"CREATE FUNCTION pitboss.rollup_month(p text, t text, d text, g text, month_start bigint) RETURNS void\n"
	"LANGUAGE plpgsql SECURITY DEFINER SET search_path = pitboss, pg_temp AS $$\n"
	"DECLARE month_end bigint := extract(epoch FROM (to_timestamp(month_start) AT TIME ZONE 'UTC')\n"
	"  + interval '1 month')::bigint;\n"
	"BEGIN\n"
	"  DELETE FROM pitboss.report_months WHERE property = p AND month = month_start AND table_id = t\n"
	"    AND dealer = d AND rules_sha256 = g;\n"
	"  INSERT INTO pitboss.report_months\n"
	"  SELECT p, t, month_start, d, g, (array_agg(dealer_name ORDER BY day DESC))[1], sum(rounds)::bigint,\n"
	"    sum(voids)::bigint, sum(hands)::bigint,\n"
	"    pitboss.sum_wagers(handle),\n"
	"    pitboss.sum_wagers(house_win),\n"
	"    pitboss.sum_wagers(lines),\n"
	"    sum(banked_rounds)::bigint,\n"
	"    pitboss.sum_wagers(banked_handle),\n"
	"    pitboss.sum_wagers(banked_win),\n"
	"    pitboss.sum_wagers(banked_lines),\n"
	"    sum(collections)::bigint,\n"
	"    (sum(play_ms) + coalesce(sum(carry_ms) FILTER (WHERE day <> month_start), 0))::bigint,\n"
	"    coalesce(sum(carry_ms) FILTER (WHERE day = month_start), 0)::bigint\n"
	"  FROM pitboss.report_days WHERE property = p AND day >= month_start AND day < month_end AND table_id = t\n"
	"    AND dealer = d AND rules_sha256 = g HAVING count(*) > 0;\n"
	"END $$",
	/* the UTC month (Unix seconds) holding t */
	"CREATE FUNCTION pitboss.month_of(t bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$\n"
	"  SELECT extract(epoch FROM date_trunc('month', to_timestamp(t) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::bigint $$",
	/*
	 * A sum of a day's series rows without the table or the dealer: (t, '') a
	 * table over its dealers, ('', d) a dealer over the tables, ('', '') the
	 * property (from the tables' rows), as the property's kinds of report_spans.
	 */
	"CREATE FUNCTION pitboss.rollup_merge_day(p text, t text, d text, g text, day_start bigint) RETURNS void\n"
	"LANGUAGE plpgsql SECURITY DEFINER SET search_path = pitboss, pg_temp AS $$\n"
	"BEGIN\n"
	"  DELETE FROM pitboss.report_days WHERE property = p AND day = day_start AND table_id = t AND dealer = d\n"
	"    AND rules_sha256 = g;\n"
	"  INSERT INTO pitboss.report_days\n"
	"  SELECT p, t, day_start, d, g, CASE WHEN d = '' THEN '' ELSE max(dealer_name) END, sum(rounds)::bigint,\n"
	"    sum(voids)::bigint, sum(hands)::bigint, pitboss.sum_wagers(handle), pitboss.sum_wagers(house_win),\n"
	"    pitboss.sum_wagers(lines), sum(banked_rounds)::bigint, pitboss.sum_wagers(banked_handle),\n"
	"    pitboss.sum_wagers(banked_win), pitboss.sum_wagers(banked_lines), sum(collections)::bigint,\n"
	"    sum(play_ms)::bigint, sum(carry_ms)::bigint\n"
	"  FROM pitboss.report_days WHERE property = p AND day = day_start AND rules_sha256 = g AND CASE\n"
	"    WHEN t <> '' THEN table_id = t AND dealer <> '' WHEN d <> '' THEN dealer = d AND table_id <> ''\n"
	"    ELSE table_id <> '' AND dealer = '' END\n"
	"  HAVING count(*) > 0;\n"
	"END $$",
	/* a series' day made again, the table's, the dealer's and the property's sums of it, and their months */
	"CREATE FUNCTION pitboss.rollup_series(p text, t text, d text, g text, day_start bigint) RETURNS void\n"
	"LANGUAGE plpgsql SECURITY DEFINER SET search_path = pitboss, pg_temp AS $$\n"
	"DECLARE m bigint := pitboss.month_of(day_start);\n"
	"BEGIN\n"
	"  PERFORM pitboss.rollup_day(p, t, d, g, day_start);\n"
	"  PERFORM pitboss.rollup_merge_day(p, t, '', g, day_start);\n"
	"  PERFORM pitboss.rollup_merge_day(p, '', d, g, day_start);\n"
	"  PERFORM pitboss.rollup_merge_day(p, '', '', g, day_start);\n"
	"  PERFORM pitboss.rollup_month(p, t, d, g, m);\n"
	"  PERFORM pitboss.rollup_month(p, t, '', g, m);\n"
	"  PERFORM pitboss.rollup_month(p, '', d, g, m);\n"
	"  PERFORM pitboss.rollup_month(p, '', '', g, m);\n"
	"END $$",
	"CREATE FUNCTION pitboss.round_facts_rollup() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER\n"
	"SET search_path = pitboss, pg_temp AS $$\n"
	"DECLARE day_start bigint := NEW.hour - ((NEW.hour % 86400) + 86400) % 86400;\n"
	"BEGIN\n"
	"  PERFORM pitboss.rollup_series(NEW.property, NEW.table_id, NEW.dealer, NEW.rules_sha256, day_start);\n"
	"  IF NEW.hour = day_start + 82800 THEN\n"
	"    PERFORM pitboss.rollup_series(NEW.property, NEW.table_id, NEW.dealer, NEW.rules_sha256, day_start + 86400);\n"
	"  END IF;\n"
	"  RETURN NULL;\n"
	"END $$",
	/* named after round_facts_add: triggers fire in name order, so the hour is summed first */
	"CREATE TRIGGER round_facts_rollup AFTER INSERT ON pitboss.round_facts\n"
	"  FOR EACH ROW EXECUTE FUNCTION pitboss.round_facts_rollup()",
	/* what report_hours had, for the facts shipped before this version: each series' days and the days after */
	"SELECT pitboss.rollup_series(property, table_id, dealer, rules_sha256, day)\n"
	"  FROM (SELECT DISTINCT property, table_id, dealer, rules_sha256, hour - ((hour % 86400) + 86400) % 86400 AS day\n"
	"    FROM pitboss.report_hours) x ORDER BY day",
	"SELECT pitboss.rollup_series(property, table_id, dealer, rules_sha256, day + 86400)\n"
	"  FROM (SELECT DISTINCT property, table_id, dealer, rules_sha256, hour - ((hour % 86400) + 86400) % 86400 AS day\n"
	"    FROM pitboss.report_hours WHERE ((hour % 86400) + 86400) % 86400 = 82800) x ORDER BY day",
	/* what the report reads: the sums kept per table, per dealer, per property, by start (partial indexes) */
	"CREATE INDEX report_days_tables ON pitboss.report_days (property, day) WHERE table_id <> '' AND dealer = ''",
	"CREATE INDEX report_days_dealers ON pitboss.report_days (property, day) WHERE table_id = '' AND dealer <> ''",
	"CREATE INDEX report_days_property ON pitboss.report_days (property, day) WHERE table_id = '' AND dealer = ''",
	"CREATE INDEX report_months_tables ON pitboss.report_months (property, month) WHERE table_id <> '' AND dealer = ''",
	"CREATE INDEX report_months_dealers ON pitboss.report_months (property, month) WHERE table_id = '' AND dealer <> ''",
	"CREATE INDEX report_months_property ON pitboss.report_months (property, month) WHERE table_id = '' AND dealer = ''",
	"ALTER TABLE pitboss.report_days ENABLE ROW LEVEL SECURITY",
	"CREATE POLICY own_property ON pitboss.report_days FOR SELECT USING (property = pitboss.role_property())",
	"ALTER TABLE pitboss.report_months ENABLE ROW LEVEL SECURITY",
	"CREATE POLICY own_property ON pitboss.report_months FOR SELECT USING (property = pitboss.role_property())",
	"GRANT SELECT ON pitboss.report_days, pitboss.report_months TO PUBLIC",
	NULL,
};

/*
 * The parts of the roll-up SQL that versions 5 and 6 share, word for word
 * (version 5's text is history: the applied text must not change, and it
 * does not, these being the same literals).
 */
/* the facts of new_facts added to their hour rows, each hour row once (the dealer's name: the batch's last) */
#define ROLLUP_HOURS_ADD \
	"  INSERT INTO pitboss.report_hours AS h (property, table_id, hour, dealer, rules_sha256, dealer_name, rounds,\n" \
	"      voids, hands, handle, house_win, lines, first_ms, last_ms, banked_rounds, banked_handle, banked_win,\n" \
	"      banked_lines, collections)\n" \
	"    SELECT property, table_id, hour, dealer, rules_sha256, (array_agg(dealer_name ORDER BY final_event DESC))[1],\n" \
	"      count(*) FILTER (WHERE NOT voided), count(*) FILTER (WHERE voided), sum(hands)::bigint,\n" \
	"      pitboss.sum_wagers(handle), pitboss.sum_wagers(house_win), pitboss.sum_wagers(lines), min(opened_ms),\n" \
	"      max(settled_ms), sum(banked_rounds)::bigint, pitboss.sum_wagers(banked_handle),\n" \
	"      pitboss.sum_wagers(banked_win), pitboss.sum_wagers(banked_lines), sum(collections)::bigint\n" \
	"    FROM new_facts GROUP BY property, table_id, hour, dealer, rules_sha256\n" \
	"  ON CONFLICT (property, hour, table_id, dealer, rules_sha256) DO UPDATE SET\n" \
	"    dealer_name = EXCLUDED.dealer_name, rounds = h.rounds + EXCLUDED.rounds, voids = h.voids + EXCLUDED.voids,\n" \
	"    hands = h.hands + EXCLUDED.hands, handle = pitboss.add_wagers(h.handle, EXCLUDED.handle),\n" \
	"    house_win = pitboss.add_wagers(h.house_win, EXCLUDED.house_win),\n" \
	"    lines = pitboss.add_wagers(h.lines, EXCLUDED.lines),\n" \
	"    first_ms = least(h.first_ms, EXCLUDED.first_ms), last_ms = greatest(h.last_ms, EXCLUDED.last_ms),\n" \
	"    banked_rounds = h.banked_rounds + EXCLUDED.banked_rounds,\n" \
	"    banked_handle = pitboss.add_wagers(h.banked_handle, EXCLUDED.banked_handle),\n" \
	"    banked_win = pitboss.add_wagers(h.banked_win, EXCLUDED.banked_win),\n" \
	"    banked_lines = pitboss.add_wagers(h.banked_lines, EXCLUDED.banked_lines),\n" \
	"    collections = h.collections + EXCLUDED.collections;\n"

/* the series' days of the arrays sp, st, sd, sg, sday deleted, and the start of their rebuild from the hours */
#define ROLLUP_DAYS_DELETE \
	/* each series' day made again from its hours (the two before the day read for the joins), as rollup_day */ \
	"  DELETE FROM pitboss.report_days r USING unnest(sp, st, sd, sg, sday) k(p, t, d, g, day)\n" \
	"    WHERE r.property = k.p AND r.day = k.day AND r.table_id = k.t AND r.dealer = k.d AND r.rules_sha256 = k.g;\n" \
	"  INSERT INTO pitboss.report_days\n" \
	"  WITH h AS (SELECT k.p, k.t, k.d, k.g, k.day, r.*, r.hour * 1000 AS hs, r.hour * 1000 + 3600000 AS he,\n" \
	"      r.hour >= k.day AS in_day,\n" \
	"      coalesce(lag(r.hour) OVER w = r.hour - 3600 AND r.first_ms - lag(r.last_ms) OVER w <= 900000, false) AS jb,\n" \
	"      coalesce(lead(r.hour) OVER w = r.hour + 3600 AND lead(r.first_ms) OVER w - r.last_ms <= 900000, false)\n" \
	"        AS ja\n"

/* a day's sums from its hours (the joins decided as rollup_day decides them), then the sums per table, dealer and property */
#define ROLLUP_DAY_SUMS \
	"    WINDOW w AS (PARTITION BY k.p, k.t, k.d, k.g, k.day ORDER BY r.hour)),\n" \
	"  c AS (SELECT *, CASE WHEN jb THEN hs ELSE least(greatest(first_ms, hs), he) END AS s0,\n" \
	"      least(greatest(last_ms, hs), he) AS e0 FROM h)\n" \
	"  SELECT p, t, day, d, g, (array_agg(dealer_name ORDER BY hour DESC) FILTER (WHERE in_day))[1],\n" \
	"    sum(rounds) FILTER (WHERE in_day)::bigint, sum(voids) FILTER (WHERE in_day)::bigint,\n" \
	"    sum(hands) FILTER (WHERE in_day)::bigint,\n" \
	"    pitboss.sum_wagers(handle) FILTER (WHERE in_day),\n" \
	"    pitboss.sum_wagers(house_win) FILTER (WHERE in_day),\n" \
	"    pitboss.sum_wagers(lines) FILTER (WHERE in_day),\n" \
	"    sum(banked_rounds) FILTER (WHERE in_day)::bigint,\n" \
	"    pitboss.sum_wagers(banked_handle) FILTER (WHERE in_day),\n" \
	"    pitboss.sum_wagers(banked_win) FILTER (WHERE in_day),\n" \
	"    pitboss.sum_wagers(banked_lines) FILTER (WHERE in_day),\n" \
	"    sum(collections) FILTER (WHERE in_day)::bigint,\n" \
	"    coalesce(sum(greatest(CASE WHEN ja THEN he ELSE e0 END - s0, 0)) FILTER (WHERE in_day), 0)::bigint,\n" \
	"    coalesce(sum(greatest(he - s0, 0) - greatest(e0 - s0, 0)) FILTER (WHERE hour = day - 3600 AND ja), 0)\n" \
	"  FROM c GROUP BY p, t, d, g, day HAVING count(*) FILTER (WHERE in_day) > 0;\n" \
	/* the tables' sums over their dealers of those days, as rollup_merge_day (t, '') */ \
	"  DELETE FROM pitboss.report_days r USING (SELECT DISTINCT * FROM unnest(sp, st, sg, sday)) k(p, t, g, day)\n" \
	"    WHERE r.property = k.p AND r.day = k.day AND r.table_id = k.t AND r.dealer = '' AND r.rules_sha256 = k.g;\n" \
	"  INSERT INTO pitboss.report_days\n" \
	"  SELECT k.p, k.t, k.day, '', k.g, '', sum(rounds)::bigint, sum(voids)::bigint, sum(hands)::bigint,\n" \
	"    pitboss.sum_wagers(handle), pitboss.sum_wagers(house_win), pitboss.sum_wagers(lines),\n" \
	"    sum(banked_rounds)::bigint, pitboss.sum_wagers(banked_handle), pitboss.sum_wagers(banked_win),\n" \
	"    pitboss.sum_wagers(banked_lines), sum(collections)::bigint, sum(play_ms)::bigint, sum(carry_ms)::bigint\n" \
	"  FROM (SELECT DISTINCT * FROM unnest(sp, st, sg, sday)) k(p, t, g, day) JOIN pitboss.report_days r\n" \
	"    ON r.property = k.p AND r.day = k.day AND r.rules_sha256 = k.g AND r.table_id = k.t AND r.dealer <> ''\n" \
	"  GROUP BY k.p, k.t, k.g, k.day;\n" \
	/* the dealers' sums over the tables, as rollup_merge_day ('', d) */ \
	"  DELETE FROM pitboss.report_days r USING (SELECT DISTINCT * FROM unnest(sp, sd, sg, sday)) k(p, d, g, day)\n" \
	"    WHERE r.property = k.p AND r.day = k.day AND r.table_id = '' AND r.dealer = k.d AND r.rules_sha256 = k.g;\n" \
	"  INSERT INTO pitboss.report_days\n" \
	"  SELECT k.p, '', k.day, k.d, k.g, max(dealer_name), sum(rounds)::bigint, sum(voids)::bigint,\n" \
	"    sum(hands)::bigint, pitboss.sum_wagers(handle), pitboss.sum_wagers(house_win), pitboss.sum_wagers(lines),\n" \
	"    sum(banked_rounds)::bigint, pitboss.sum_wagers(banked_handle), pitboss.sum_wagers(banked_win),\n" \
	"    pitboss.sum_wagers(banked_lines), sum(collections)::bigint, sum(play_ms)::bigint, sum(carry_ms)::bigint\n" \
	"  FROM (SELECT DISTINCT * FROM unnest(sp, sd, sg, sday)) k(p, d, g, day) JOIN pitboss.report_days r\n" \
	"    ON r.property = k.p AND r.day = k.day AND r.rules_sha256 = k.g AND r.dealer = k.d AND r.table_id <> ''\n" \
	"  GROUP BY k.p, k.d, k.g, k.day;\n" \
	/* the property's sums from the tables' sums, as rollup_merge_day ('', '') */ \
	"  DELETE FROM pitboss.report_days r USING (SELECT DISTINCT * FROM unnest(sp, sg, sday)) k(p, g, day)\n" \
	"    WHERE r.property = k.p AND r.day = k.day AND r.table_id = '' AND r.dealer = '' AND r.rules_sha256 = k.g;\n" \
	"  INSERT INTO pitboss.report_days\n" \
	"  SELECT k.p, '', k.day, '', k.g, '', sum(rounds)::bigint, sum(voids)::bigint, sum(hands)::bigint,\n" \
	"    pitboss.sum_wagers(handle), pitboss.sum_wagers(house_win), pitboss.sum_wagers(lines),\n" \
	"    sum(banked_rounds)::bigint, pitboss.sum_wagers(banked_handle), pitboss.sum_wagers(banked_win),\n" \
	"    pitboss.sum_wagers(banked_lines), sum(collections)::bigint, sum(play_ms)::bigint, sum(carry_ms)::bigint\n" \
	"  FROM (SELECT DISTINCT * FROM unnest(sp, sg, sday)) k(p, g, day) JOIN pitboss.report_days r\n" \
	"    ON r.property = k.p AND r.day = k.day AND r.rules_sha256 = k.g AND r.table_id <> '' AND r.dealer = ''\n" \
	"  GROUP BY k.p, k.g, k.day;\n" \
	/* the months of the four kinds of those days, summed from the days as rollup_month */

/* the months of those days deleted, and the start of their rebuild from the days */
#define ROLLUP_MONTHS_DELETE \
	"    CROSS JOIN LATERAL (VALUES (s.t, s.d), (s.t, ''), ('', s.d), ('', '')) x(t, d)) k;\n" \
	"  DELETE FROM pitboss.report_months r USING unnest(mp, mt, md, mg, mm) k(p, t, d, g, m)\n" \
	"    WHERE r.property = k.p AND r.month = k.m AND r.table_id = k.t AND r.dealer = k.d AND r.rules_sha256 = k.g;\n" \
	"  INSERT INTO pitboss.report_months\n" \
	"  SELECT k.p, k.t, k.m, k.d, k.g, (array_agg(dealer_name ORDER BY day DESC))[1], sum(rounds)::bigint,\n" \
	"    sum(voids)::bigint, sum(hands)::bigint, pitboss.sum_wagers(handle), pitboss.sum_wagers(house_win),\n" \
	"    pitboss.sum_wagers(lines), sum(banked_rounds)::bigint, pitboss.sum_wagers(banked_handle),\n" \
	"    pitboss.sum_wagers(banked_win), pitboss.sum_wagers(banked_lines), sum(collections)::bigint,\n" \
	"    (sum(play_ms) + coalesce(sum(carry_ms) FILTER (WHERE day <> k.m), 0))::bigint,\n" \
	"    coalesce(sum(carry_ms) FILTER (WHERE day = k.m), 0)::bigint\n"

/*
 * Version 5: the facts' triggers made set-based (docs/central.md,
 * "Reports").  Version 2's and 4's triggers ran for each fact: a batch of
 * 500 rebuilt its series' day, the three sums and four months 500 times.
 * One statement-level trigger now reads the statement's new facts (a
 * transition table) and, in order: adds them to report_hours once per hour
 * row (the batch summed per row first), rebuilds each series' day touched
 * once (and the next day when a fact is in its day's last hour: its
 * carry), then the table's, dealer's and property's sums of those days,
 * then the months of all four.  The same rows as version 4 makes, in the
 * facts' transaction.  An index by series and hour serves the rebuild.
 */
static const char *const V5[] = {
	"CREATE INDEX report_hours_series ON pitboss.report_hours (property, table_id, dealer, rules_sha256, hour)",
	"CREATE FUNCTION pitboss.round_facts_added() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER\n"
	"SET search_path = pitboss, pg_temp AS $$\n"
	"DECLARE sp text[]; st text[]; sd text[]; sg text[]; sday bigint[]; mp text[]; mt text[]; md text[]; mg text[];\n"
	"  mm bigint[];\n"
	"BEGIN\n"
	/* the hours: each hour row's facts summed, then added once (the dealer's name: the batch's last) */
	ROLLUP_HOURS_ADD
	/* the series' days touched: each fact's day, and the next day for a fact in its day's last hour */
	"  SELECT array_agg(p), array_agg(t), array_agg(d), array_agg(g), array_agg(day) INTO sp, st, sd, sg, sday\n"
	"  FROM (SELECT DISTINCT f.property AS p, f.table_id AS t, f.dealer AS d, f.rules_sha256 AS g, x.day\n"
	"    FROM new_facts f CROSS JOIN LATERAL (SELECT f.hour - ((f.hour % 86400) + 86400) % 86400 AS d0) z\n"
	"    CROSS JOIN LATERAL (VALUES (z.d0), (CASE WHEN f.hour = z.d0 + 82800 THEN z.d0 + 86400 END)) x(day)\n"
	"    WHERE x.day IS NOT NULL) k;\n"
	"  IF sp IS NULL THEN RETURN NULL; END IF;\n"
	ROLLUP_DAYS_DELETE
	"    FROM unnest(sp, st, sd, sg, sday) k(p, t, d, g, day) JOIN pitboss.report_hours r ON r.property = k.p\n"
	"      AND r.table_id = k.t AND r.dealer = k.d AND r.rules_sha256 = k.g AND r.hour >= k.day - 7200\n"
	"      AND r.hour < k.day + 86400\n"
	ROLLUP_DAY_SUMS
	"  SELECT array_agg(p), array_agg(t), array_agg(d), array_agg(g), array_agg(m) INTO mp, mt, md, mg, mm\n"
	"  FROM (SELECT DISTINCT s.p, x.t, x.d, s.g, pitboss.month_of(s.day) AS m\n"
	"    FROM unnest(sp, st, sd, sg, sday) s(p, t, d, g, day)\n"
	ROLLUP_MONTHS_DELETE
	"  FROM unnest(mp, mt, md, mg, mm) k(p, t, d, g, m)\n"
	"    CROSS JOIN LATERAL (SELECT extract(epoch FROM (to_timestamp(k.m) AT TIME ZONE 'UTC') + interval '1 month')\n"
	"      ::bigint AS m_end) e\n"
	"    JOIN pitboss.report_days r ON r.property = k.p AND r.day >= k.m AND r.day < e.m_end\n"
	"    AND r.table_id = k.t AND r.dealer = k.d AND r.rules_sha256 = k.g\n"
	"  GROUP BY k.p, k.t, k.d, k.g, k.m;\n"
	"  RETURN NULL;\n"
	"END $$",
	"DROP TRIGGER round_facts_add ON pitboss.round_facts",
	"DROP TRIGGER round_facts_rollup ON pitboss.round_facts",
	"CREATE TRIGGER round_facts_added AFTER INSERT ON pitboss.round_facts REFERENCING NEW TABLE AS new_facts\n"
	"  FOR EACH STATEMENT EXECUTE FUNCTION pitboss.round_facts_added()",
	NULL,
};

/*
 * Version 6: the day and month roll-ups by each property's own gaming day
 * (docs/central.md, "Reports"), as the property keeps its own
 * (table/rounds/rollup_calendar.c): a day row's start is the start of the
 * gaming day in the property's zone (pitboss.properties.time_zone, from its
 * gaming_day_start; 23 or 25 hours across a change of clocks), a month row's
 * the start of the month's first gaming day.  The calendar the roll-ups were
 * made for is recorded (rollup_zone, rollup_day_start: UTC days until the
 * property sends its calendar); when set_property_calendar changes it, the
 * property's days and months are made again from its hours, in that
 * transaction.  The facts' trigger and the rebuild share rollup_hours: the
 * days of the given series' hours (and the next day for an hour that is its
 * day's last: the next day's carry) made again, their sums and their months,
 * as version 5 did for UTC days.
 */
static const char *const V6[] = {
	"ALTER TABLE pitboss.properties ADD COLUMN rollup_zone text NOT NULL DEFAULT 'UTC',\n"
	"  ADD COLUMN rollup_day_start text NOT NULL DEFAULT '00:00'",
	/* the instant (Unix seconds) gaming day d starts in zone tz, its day starting at ds ("HH:MM") */
	"CREATE FUNCTION pitboss.gday_bound(tz text, ds text, d date) RETURNS bigint LANGUAGE sql STABLE AS $$\n"
	"  SELECT extract(epoch FROM ((d + ds::interval) AT TIME ZONE tz))::bigint $$",
	/* the gaming day holding instant t: the day whose [start, next start) holds it (gaming_day.c) */
	"CREATE FUNCTION pitboss.gday_of(tz text, ds text, t bigint) RETURNS date LANGUAGE plpgsql STABLE AS $$\n"
	"DECLARE d date := ((to_timestamp(t) AT TIME ZONE tz) - ds::interval)::date;\n"
	"BEGIN\n"
	"  IF t < pitboss.gday_bound(tz, ds, d) THEN RETURN d - 1; END IF;\n"
	"  IF t >= pitboss.gday_bound(tz, ds, d + 1) THEN RETURN d + 1; END IF;\n"
	"  RETURN d;\n"
	"END $$",
	/*
	 * The roll-ups of the series' hours given (property, table, dealer, game,
	 * hour, each array one column), in the property's roll-up calendar.
	 */
	"CREATE FUNCTION pitboss.rollup_hours(hp text[], ht text[], hd text[], hg text[], hh bigint[]) RETURNS void\n"
	"LANGUAGE plpgsql SECURITY DEFINER SET search_path = pitboss, pg_temp AS $$\n"
	"DECLARE sp text[]; st text[]; sd text[]; sg text[]; sday bigint[]; send bigint[]; sm bigint[]; smend bigint[];\n"
	"  mp text[]; mt text[]; md text[]; mg text[]; mm bigint[]; me bigint[];\n"
	"BEGIN\n"
	/* each hour's gaming day, and the next day when the hour is its day's last; the days' months */
	"  SELECT array_agg(p), array_agg(t), array_agg(d), array_agg(g), array_agg(day), array_agg(dend), array_agg(m),\n"
	"    array_agg(mend) INTO sp, st, sd, sg, sday, send, sm, smend\n"
	"  FROM (SELECT DISTINCT k.p, k.t, k.d, k.g, x.day, x.dend, pitboss.gday_bound(k.tz, k.ds, x.m0) AS m,\n"
	"      pitboss.gday_bound(k.tz, k.ds, (x.m0 + interval '1 month')::date) AS mend\n"
	"    FROM (SELECT h.p, h.t, h.d, h.g, h.h, c.tz, c.ds, pitboss.gday_of(c.tz, c.ds, h.h) AS gd\n"
	"      FROM (SELECT DISTINCT * FROM unnest(hp, ht, hd, hg, hh)) h(p, t, d, g, h)\n"
	"      LEFT JOIN pitboss.properties pr ON pr.property = h.p\n"
	"      CROSS JOIN LATERAL (SELECT coalesce(pr.rollup_zone, 'UTC') AS tz,\n"
	"        coalesce(pr.rollup_day_start, '00:00') AS ds) c) k\n"
	"    CROSS JOIN LATERAL (SELECT pitboss.gday_bound(k.tz, k.ds, k.gd + 1) AS e1) b\n"
	"    CROSS JOIN LATERAL (VALUES (pitboss.gday_bound(k.tz, k.ds, k.gd), b.e1, date_trunc('month', k.gd)::date),\n"
	"      (CASE WHEN k.h = b.e1 - 3600 THEN b.e1 END, pitboss.gday_bound(k.tz, k.ds, k.gd + 2),\n"
	"        date_trunc('month', k.gd + 1)::date)) x(day, dend, m0)\n"
	"    WHERE x.day IS NOT NULL) z;\n"
	"  IF sp IS NULL THEN RETURN; END IF;\n"
	ROLLUP_DAYS_DELETE
	"    FROM unnest(sp, st, sd, sg, sday, send) k(p, t, d, g, day, dend) JOIN pitboss.report_hours r\n"
	"      ON r.property = k.p AND r.table_id = k.t AND r.dealer = k.d AND r.rules_sha256 = k.g\n"
	"      AND r.hour >= k.day - 7200 AND r.hour < k.dend\n"
	ROLLUP_DAY_SUMS
	"  SELECT array_agg(p), array_agg(t), array_agg(d), array_agg(g), array_agg(m), array_agg(mend)\n"
	"    INTO mp, mt, md, mg, mm, me\n"
	"  FROM (SELECT DISTINCT s.p, x.t, x.d, s.g, s.m, s.mend FROM unnest(sp, st, sd, sg, sm, smend) s(p, t, d, g, m, mend)\n"
	ROLLUP_MONTHS_DELETE
	"  FROM unnest(mp, mt, md, mg, mm, me) k(p, t, d, g, m, mend)\n"
	"    JOIN pitboss.report_days r ON r.property = k.p AND r.day >= k.m AND r.day < k.mend\n"
	"    AND r.table_id = k.t AND r.dealer = k.d AND r.rules_sha256 = k.g\n"
	"  GROUP BY k.p, k.t, k.d, k.g, k.m;\n"
	"END $$",
	/* the facts' trigger: the hours as version 5 adds them, then rollup_hours of the facts' hours */
	"CREATE OR REPLACE FUNCTION pitboss.round_facts_added() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER\n"
	"SET search_path = pitboss, pg_temp AS $$\n"
	"BEGIN\n"
	ROLLUP_HOURS_ADD
	"  PERFORM pitboss.rollup_hours(array_agg(property), array_agg(table_id), array_agg(dealer),\n"
	"    array_agg(rules_sha256), array_agg(hour))\n"
	"  FROM (SELECT DISTINCT property, table_id, dealer, rules_sha256, hour FROM new_facts) f;\n"
	"  RETURN NULL;\n"
	"END $$",
	/* when the property's calendar is not the one its roll-ups were made for: every day and month made again */
	"CREATE FUNCTION pitboss.rollup_follow(p text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER\n"
	"SET search_path = pitboss, pg_temp AS $$\n"
	"DECLARE z text; s text;\n"
	"BEGIN\n"
	"  SELECT time_zone, gaming_day_start INTO z, s FROM pitboss.properties WHERE property = p\n"
	"    AND (rollup_zone, rollup_day_start) IS DISTINCT FROM (time_zone, gaming_day_start) FOR UPDATE;\n"
	"  IF NOT FOUND THEN RETURN; END IF;\n"
	"  UPDATE pitboss.properties SET rollup_zone = z, rollup_day_start = s WHERE property = p;\n"
	"  DELETE FROM pitboss.report_days WHERE property = p;\n"
	"  DELETE FROM pitboss.report_months WHERE property = p;\n"
	"  PERFORM pitboss.rollup_hours(array_agg(property), array_agg(table_id), array_agg(dealer),\n"
	"    array_agg(rules_sha256), array_agg(hour))\n"
	"  FROM pitboss.report_hours WHERE property = p;\n"
	"END $$",
	"CREATE OR REPLACE FUNCTION pitboss.set_property_calendar(p text, n text, tz text, day_start text, sh text)\n"
	"RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pitboss, pg_temp AS $$\n"
	"BEGIN\n"
	"  PERFORM pitboss.check_caller(p);\n"
	"  UPDATE pitboss.properties SET name = n, time_zone = tz, gaming_day_start = day_start, shifts = sh\n"
	"  WHERE property = p;\n"
	"  PERFORM pitboss.rollup_follow(p);\n"
	"END $$",
	/* the properties whose calendar is not UTC days: their roll-ups (made by UTC day until now) made again */
	"SELECT pitboss.rollup_follow(property) FROM pitboss.properties ORDER BY property",
	NULL,
};

static const char *const *const VERSIONS[CENTRAL_SCHEMA_VERSION] = {V1, V2, V3, V4, V5, V6};

/* The version found: 0 when there is no schema `pitboss` yet. */
static int
schema_version(PGconn *c, int *version, struct pb_error *err)
{
	PGresult *r;

	*version = 0;
	if (central_exec(c, "SELECT to_regclass('pitboss.schema_version') IS NOT NULL", 0, NULL, &r, err) < 0)
		return -1;
	if (PQgetvalue(r, 0, 0)[0] != 't') {
		PQclear(r);
		return 0;
	}
	PQclear(r);
	if (central_exec(c, "SELECT coalesce(max(version), 0) FROM pitboss.schema_version", 0, NULL, &r, err) < 0)
		return -1;
	*version = atoi(PQgetvalue(r, 0, 0));
	PQclear(r);
	return 0;
}

/* Applies version v (1-based) and records it, in the caller's transaction. */
static int
apply_version(PGconn *c, int v, struct pb_error *err)
{
	char text[16];
	const char *p[1] = {text};

	for (const char *const *sql = VERSIONS[v - 1]; *sql != NULL; sql++)
		if (central_exec(c, *sql, 0, NULL, NULL, err) < 0)
			return -1;
	snprintf(text, sizeof(text), "%d", v);
	return central_exec(c, "INSERT INTO pitboss.schema_version (version) VALUES ($1::int)", 1, p, NULL, err);
}

int
central_init(const char *conninfo, int to, int *from, struct pb_error *err)
{
	PGconn *c;
	int version, rc = -1;

	*from = 0;
	if (to < 0 || to > CENTRAL_SCHEMA_VERSION)
		return pb_fail(err, 400, "bad_version", "central schema version %d is not one of this pitboss's (1 to %d)",
		    to, CENTRAL_SCHEMA_VERSION);
	if (to == 0)
		to = CENTRAL_SCHEMA_VERSION;
	if ((c = central_connect(conninfo, err)) == NULL)
		return -1;
	if (central_exec(c, "BEGIN", 0, NULL, NULL, err) < 0 ||
	    central_exec(c, "SELECT pg_advisory_xact_lock(" INIT_LOCK ")", 0, NULL, NULL, err) < 0 ||
	    central_exec(c, "CREATE SCHEMA IF NOT EXISTS pitboss", 0, NULL, NULL, err) < 0 ||
	    central_exec(c, "CREATE TABLE IF NOT EXISTS pitboss.schema_version (version int PRIMARY KEY, "
	        "applied_at timestamptz NOT NULL DEFAULT now())", 0, NULL, NULL, err) < 0 ||
	    schema_version(c, &version, err) < 0)
		goto out;
	*from = version;
	if (version > CENTRAL_SCHEMA_VERSION) {
		pb_fail(err, 409, "central_schema_newer", "the central schema is at version %d, newer than this pitboss's %d",
		    version, CENTRAL_SCHEMA_VERSION);
		goto out;
	}
	for (int v = version + 1; v <= to; v++)
		if (apply_version(c, v, err) < 0)
			goto out;
	rc = central_exec(c, "COMMIT", 0, NULL, NULL, err);
out:
	if (rc < 0)
		central_rollback(c);
	PQfinish(c);
	return rc;
}
