// events.js - significant events (GET /events?after=SEQ), newest first,
// following new ones every 5 seconds.
import * as api from '../api.js';
import {h, section, replaceIfChanged, dataTable} from '../dom.js';
import {label, when, money} from '../format.js';
import {pageHeader, errorNote, poll, liveStatus} from '../common.js';
import {roundLabel, roundHref} from '../rounds.js';

export const name = 'events';

const POLL_MS = 5000;
const KEEP = 300;
const PAGE = 500;
const MONEY = /^(amount|net|stake|bank|bank_end|short|win|payout)$/;

// An event is {seq, at, source, code, table, detail, hash} (docs/api.md); detail
// is an object, and names the round in "round" when there is one, the event
// its "round_no" then: the round as {id, table, round_no}, labelled "T1-277".
function roundOf(e) {
  const id = e.detail?.round ?? null;
  return id === null ? null : {id, table: e.table, round_no: e.round_no};
}

/** A detail's value as words: money in the table's currency, yes or no for a flag, words for an identifier. */
function value(ev, k, v) {
  if (typeof v === 'number' && MONEY.test(k)) return money(v, api.currencyOf(ev.table));
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return typeof v === 'string' && /^[a-z]+(_[a-z]+)+$/.test(v) ? v.replace(/_/g, ' ') : v;
}

/** The detail's plain fields as "Key: value" pairs (the round has a column of its own; nothing said is left out). */
function details(ev) {
  if (!ev.detail) return '';
  return Object.entries(ev.detail).filter(([k, v]) => v !== null && typeof v !== 'object' && k !== 'round').map(([k, v]) =>
    `${label(k)}: ${value(ev, k, v)}`).join(' · ');
}

export async function render(main, params, ctx) {
  ctx.setTitle('Significant events');
  const live = liveStatus();
  main.append(pageHeader('Significant events', {sub: 'Table openings and closings, limit changes, voids, large payouts and other events, as they happen.', actions: live.el}));
  const [sec, body] = section('Events', {id: 'events-list'});
  main.append(sec);

  let after = 0;
  let list = [];
  let failed = null;

  async function refresh() {
    try {
      // Catch up in pages of PAGE (oldest first), keeping the newest KEEP.
      for (let i = 0; i < 50; i++) {
        const b = await api.get('/events' + api.qs({after, limit: PAGE}));
        if (!ctx.alive()) return;
        const fresh = b.events;        // oldest first
        if (!fresh.length) break;
        after = fresh[fresh.length - 1].seq;
        list = [...fresh.reverse(), ...list].slice(0, KEEP);
        if (fresh.length < PAGE) break;
      }
      failed = null;
      live.ok();
    } catch (e) {
      if (!ctx.alive() || e.status === 401) return;
      failed = e;
      live.stale(`⚠ ${e.message}; retrying.`);
    }
    if (failed && !list.length) {
      replaceIfChanged(body, errorNote(failed, 'Significant events') || h('div'));
      return;
    }
    replaceIfChanged(body, dataTable([
      {label: 'Seq', num: true, rowHeader: true, render: e => e.seq},
      {label: 'Time', render: e => when(e.at, 'short')},
      {label: 'Table', render: e => e.table ? h('a', {href: `#/table/${encodeURIComponent(e.table)}`}, e.table) : '—'},
      {label: 'Round', render: e => roundOf(e) ? h('a', {href: roundHref(roundOf(e))}, roundLabel(roundOf(e))) : '—'},
      {label: 'Event', render: e => h('span', {class: 'badge badge-kind'}, label(e.code))},
      {label: 'Source', render: e => e.source},
      {label: 'Detail', className: 'wrap', render: e => details(e)},
    ], list, {caption: 'Significant events, newest first', empty: 'No significant events yet.'}));
  }

  return poll(refresh, POLL_MS);
}
