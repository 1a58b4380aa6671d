// format.js - money, times, percentages, names and playing cards.
// Money arrives as integer minor units (cents); times as UTC ISO strings.
import {h} from './dom.js';

const moneyFormats = new Map();

function moneyFormat(currency, signed) {
  const key = `${currency}|${signed}`;
  if (!moneyFormats.has(key)) {
    let f;
    try {
      f = new Intl.NumberFormat(undefined, {style: 'currency', currency, signDisplay: signed ? 'exceptZero' : 'auto'});
    } catch {
      f = new Intl.NumberFormat(undefined, {style: 'currency', currency: 'USD', signDisplay: signed ? 'exceptZero' : 'auto'});
    }
    moneyFormats.set(key, f);
  }
  return moneyFormats.get(key);
}

/** Formats an integer count of minor units in the currency, e.g. 2500 USD -> "$25.00". */
export function money(minor, currency = 'USD', {signed = false} = {}) {
  if (minor === null || minor === undefined || Number.isNaN(Number(minor))) return '—';
  const f = moneyFormat(currency || 'USD', signed);
  const digits = f.resolvedOptions().maximumFractionDigits;
  return f.format(Number(minor) / 10 ** digits);
}

/** Money as a span whose class tells sign; the text carries the sign too. */
export function moneyCell(minor, currency, {signed = false} = {}) {
  const n = Number(minor);
  const cls = signed && n > 0 ? 'pos' : signed && n < 0 ? 'neg' : null;
  return h('span', {class: cls}, money(minor, currency, {signed}));
}

/** Converts a typed amount in major units ("1,000.50") to minor units for the currency. */
export function toMinor(text, currency = 'USD') {
  const v = Number(String(text).replace(/[^0-9.]/g, ''));
  if (!Number.isFinite(v)) return null;
  const digits = moneyFormat(currency, false).resolvedOptions().maximumFractionDigits;
  return Math.round(v * 10 ** digits);
}

export function minorDigits(currency = 'USD') {
  return moneyFormat(currency, false).resolvedOptions().maximumFractionDigits;
}

const intFormat = new Intl.NumberFormat();
export function int(n) {
  return n === null || n === undefined ? '—' : intFormat.format(n);
}

const pctFormat = new Intl.NumberFormat(undefined, {style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1});
const pct2Format = new Intl.NumberFormat(undefined, {style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2});
/** A fraction (0.0337) as a percentage ("3.4%"). */
export function percent(x, precise = false) {
  if (x === null || x === undefined || !Number.isFinite(Number(x))) return '—';
  return (precise ? pct2Format : pctFormat).format(Number(x));
}

const dateTime = new Intl.DateTimeFormat(undefined, {dateStyle: 'medium', timeStyle: 'medium'});
const timeOnly = new Intl.DateTimeFormat(undefined, {timeStyle: 'medium'});
const timeMs = new Intl.DateTimeFormat(undefined, {hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3});
const shortDT = new Intl.DateTimeFormat(undefined, {month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit'});
const hourOnly = new Intl.DateTimeFormat(undefined, {hour: '2-digit', minute: '2-digit'});

function parse(iso) {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A UTC ISO time shown in the browser's zone, inside <time> with the UTC value as title. */
export function when(iso, style = 'full') {
  const d = parse(iso);
  if (!d) return h('span', {class: 'muted'}, iso ? String(iso) : '—');
  const fmt = style === 'time' ? timeOnly : style === 'ms' ? timeMs : style === 'short' ? shortDT : style === 'hour' ? hourOnly : dateTime;
  return h('time', {datetime: iso, title: `${iso} (UTC)`}, fmt.format(d));
}

export function whenText(iso, style = 'full') {
  const d = parse(iso);
  if (!d) return iso ? String(iso) : '—';
  const fmt = style === 'time' ? timeOnly : style === 'short' ? shortDT : style === 'hour' ? hourOnly : dateTime;
  return fmt.format(d);
}

/** "straight_flush" -> "Straight flush". */
export function label(key) {
  if (key === null || key === undefined || key === '') return '—';
  const special = {pair_plus: 'Pair Plus', six_card: 'Six card bonus', ante_bonus: 'Ante bonus', mini_royal: 'Mini royal'};
  if (special[key]) return special[key];
  const t = String(key).replace(/_/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// ---- playing cards ----

const RANKS = {A: 'Ace', K: 'King', Q: 'Queen', J: 'Jack', T: 'Ten', 9: 'Nine', 8: 'Eight', 7: 'Seven',
  6: 'Six', 5: 'Five', 4: 'Four', 3: 'Three', 2: 'Two'};
const SUITS = {
  s: {name: 'spades', symbol: '♠', red: false},
  h: {name: 'hearts', symbol: '♥', red: true},
  d: {name: 'diamonds', symbol: '♦', red: true},
  c: {name: 'clubs', symbol: '♣', red: false},
};

export function cardName(code) {
  const c = String(code || '');
  const rank = c.length === 3 ? 'T' : c.charAt(0).toUpperCase();
  const suit = SUITS[c.charAt(c.length - 1).toLowerCase()];
  if (!RANKS[rank] || !suit) return c;
  return `${RANKS[rank]} of ${suit.name}`;
}

/**
 * One playing card: rank and suit symbol in the corners and a large pip in
 * the middle. Red or black, but shapes and letters carry the suit too.
 */
export function card(code, {size = 'md'} = {}) {
  const c = String(code || '');
  const rankKey = c.length === 3 ? 'T' : c.charAt(0).toUpperCase();
  const suit = SUITS[c.charAt(c.length - 1).toLowerCase()];
  if (!RANKS[rankKey] || !suit) return h('span', {class: `card card-${size} card-unknown`, role: 'img', 'aria-label': 'unknown card'}, '?');
  const rank = rankKey === 'T' ? '10' : rankKey;
  return h('span', {class: `card card-${size} ${suit.red ? 'red' : 'black'} suit-${suit.name}`, role: 'img',
    'aria-label': cardName(c), title: `${cardName(c)} (${c})`, 'data-card': c},
  h('span', {class: 'corner tl', 'aria-hidden': 'true'}, h('b', null, rank), h('i', null, suit.symbol)),
  h('span', {class: 'pip', 'aria-hidden': 'true'}, suit.symbol),
  h('span', {class: 'corner br', 'aria-hidden': 'true'}, h('b', null, rank), h('i', null, suit.symbol)));
}

/** A hand of cards as a row, labelled as a group. */
export function cards(codes, opts = {}) {
  const list = codes || [];
  return h('span', {class: 'cards', role: 'group', 'aria-label': opts.label || list.map(cardName).join(', ')},
    list.map(c => card(c, opts)));
}

/** Compact text of cards for lists: "A♠ K♠ Q♠". */
export function cardsText(codes) {
  return (codes || []).map(c => {
    const s = String(c);
    const suit = SUITS[s.charAt(s.length - 1).toLowerCase()];
    return suit ? s.slice(0, -1).replace('T', '10') + suit.symbol : s;
  }).join(' ');
}

/** Cards as compact text ("A♠ K♠ Q♠"), red suits in red, with a spoken label. */
export function miniCards(codes, tag = 'span') {
  const list = codes || [];
  return h(tag, {class: 'mini-cards', role: 'img', 'aria-label': list.map(cardName).join(', ')},
    list.map((c, i) => {
      const s = String(c);
      const suit = SUITS[s.charAt(s.length - 1).toLowerCase()];
      return h('span', {class: suit?.red ? 'mc red' : 'mc black', 'aria-hidden': 'true'}, (i ? ' ' : '') + cardsText([c]));
    }));
}
