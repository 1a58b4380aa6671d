// events.js - significant events (GET /events?after=SEQ), newest first,
// following new ones every 5 seconds.
import * as api from '../api.js';
import {h, section, replaceIfChanged, dataTable} from '../dom.js';
import {label, when, money} from '../format.js';
import {pageHeader, errorNote, poll, liveStatus} from './common.js';
import {detailText} from './exceptions.js';

export const name = 'events';

const POLL_MS = 5000;
const KEEP = 300;
const PAGE = 500;
const KNOWN = new Set(['seq', 'at', 'table', 'round', 'round_id', 'type', 'kind', 'code', 'actor', 'source', 'hash', 'table_seq', 'detail', 'body']);
const MONEY = /^(amount|net|stake|bank|bank_end|short|win|payout)$/;

function roundOf(e) {
  const r = e.round ?? e.round_id ?? e.detail?.round ?? e.detail?.round_id;
  return Number.isInteger(r) && r > 0 ? r : null;
}

function details(ev) {
  const d = ev.detail ?? ev.body ?? null;
  if (d !== null && d !== undefined) {
    if (typeof d === 'object' && !Array.isArray(d)) {
      return Object.entries(d).filter(([k, v]) => (v === null || typeof v !== 'object') && !(k === 'round' && roundOf(ev))).map(([k, v]) =>
        `${label(k)}: ${typeof v === 'number' && MONEY.test(k) ? money(v, api.currencyOf(ev.table)) : v}`).join(' · ');
    }
    return detailText(d);
  }
  return Object.entries(ev).filter(([k, v]) => !KNOWN.has(k) && (v === null || typeof v !== 'object'))
    .map(([k, v]) => `${label(k)}: ${typeof v === 'number' && MONEY.test(k) ? money(v, api.currencyOf(ev.table)) : v}`).join(' · ');
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
        const fresh = Array.isArray(b) ? b : (b.events || []);
        const seqs = fresh.map(e => Number(e.seq)).filter(Number.isFinite);
        if (!seqs.length) break;
        after = Math.max(after, ...seqs);
        list = [...fresh.reverse(), ...list].slice(0, KEEP);
        if (fresh.length < PAGE) break;
      }
      failed = null;
      // Sort newest first in case the server sends them in any order.
      list.sort((a, b2) => (Number(b2.seq) || 0) - (Number(a.seq) || 0));
      live.ok();
    } catch (e) {
      if (!ctx.alive() || e.status === 401) return;
      failed = e;
      if (e.missing) live.stale('Not available on this server yet.');
      else live.stale(`⚠ ${e.message}; retrying.`);
    }
    if (failed && !list.length) {
      replaceIfChanged(body, errorNote(failed, 'Significant events') || h('div'));
      return;
    }
    replaceIfChanged(body, dataTable([
      {label: 'Seq', num: true, rowHeader: true, render: e => e.seq ?? '—'},
      {label: 'Time', render: e => when(e.at, 'short')},
      {label: 'Table', render: e => e.table ? h('a', {href: `#/table/${encodeURIComponent(e.table)}`}, e.table) : '—'},
      {label: 'Round', render: e => roundOf(e) ? h('a', {href: `#/round/${roundOf(e)}`}, `#${roundOf(e)}`) : '—'},
      {label: 'Event', render: e => h('span', {class: 'badge badge-kind'}, label(e.code || e.type || e.kind))},
      {label: 'Source', render: e => e.source || e.actor || '—'},
      {label: 'Detail', className: 'wrap', render: e => details(e)},
    ], list, {caption: 'Significant events, newest first', empty: 'No significant events yet.'}));
  }

  return poll(refresh, POLL_MS);
}
