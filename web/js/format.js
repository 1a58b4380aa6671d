// format.js - money, times, percentages, names and playing cards, for both
// pages (the pit boss page and the dealer's).  Money arrives as integer minor
// units of the table's currency (cents of USD, yen of JPY: as many decimals
// as the currency has); times as UTC ISO strings.
import {h} from './dom.js';
import {cardLabel, cardName, cardParts, isRed} from './cards.js';

const moneyFormats = new Map();

function moneyFormat(currency, signed = false, stripIfWhole = false) {
  const key = `${currency}|${signed}|${stripIfWhole}`;
  if (!moneyFormats.has(key)) {
    const opts = {style: 'currency', signDisplay: signed ? 'exceptZero' : 'auto'};
    if (stripIfWhole) opts.trailingZeroDisplay = 'stripIfInteger';
    let f;
    try {
      f = new Intl.NumberFormat(undefined, {...opts, currency});
    } catch {
      f = new Intl.NumberFormat(undefined, {...opts, currency: 'USD'});
    }
    moneyFormats.set(key, f);
  }
  return moneyFormats.get(key);
}

/** How many decimals the currency has (its minor units): 2 for USD, 0 for JPY, 3 for BHD. */
export function minorDigits(currency = 'USD') {
  return moneyFormat(currency || 'USD').resolvedOptions().maximumFractionDigits;
}

/**
 * Formats an integer count of minor units in the currency: 2500 USD ->
 * "$25.00", 2500 JPY -> "¥2,500".  signed: "+" on gains; stripIfWhole: no
 * zero decimals on a whole amount ("$25", "$25.50"), as the dealer reads them.
 */
export function money(minor, currency = 'USD', {signed = false, stripIfWhole = false} = {}) {
  if (minor === null || minor === undefined || Number.isNaN(Number(minor))) return '—';
  return moneyFormat(currency || 'USD', signed, stripIfWhole).format(toMajor(minor, currency));
}

/** Money as a span whose class tells sign; the text carries the sign too. */
export function moneyCell(minor, currency, {signed = false} = {}) {
  const n = Number(minor);
  const cls = signed && n > 0 ? 'pos' : signed && n < 0 ? 'neg' : null;
  return h('span', {class: cls}, money(minor, currency, {signed}));
}

/** Minor units as a number of the currency's major units: 2550 USD -> 25.5, 2550 JPY -> 2550. */
export function toMajor(minor, currency = 'USD') {
  return Number(minor) / 10 ** minorDigits(currency);
}

/** Converts a typed amount in major units ("1,000.50") to minor units for the currency. */
export function toMinor(text, currency = 'USD') {
  // read as text, never through a float: "19.99" is 1999 exactly; a further digit rounds half up
  const digits = minorDigits(currency);
  const m = /^(\d*)(?:\.(\d*))?$/.exec(String(text).replace(/[^0-9.]/g, ''));
  if (!m) return null;
  const frac = (m[2] || '').padEnd(digits + 1, '0');
  const minor = Number(m[1] || 0) * 10 ** digits + Number(frac.slice(0, digits) || 0);
  return Number(frac[digits]) >= 5 ? minor + 1 : minor;
}

/** The currency's sign as the browser writes it: "$", "¥", "€" (or its code, "CHF"). */
export function currencySymbol(currency = 'USD') {
  return moneyFormat(currency || 'USD').formatToParts(0).find(p => p.type === 'currency')?.value || currency;
}

/**
 * Reads an amount typed in the currency's major units, strictly: "25",
 * "25.5", "$1,000" -> minor units (2500, 2550, 100000 for USD); "500" ->
 * 500 for JPY.  null when blank; NaN when it is not an amount of the
 * currency (letters, a minus, more decimals than the currency has).
 */
export function parseAmount(text, currency = 'USD') {
  const digits = minorDigits(currency);
  let t = String(text ?? '');
  for (const sign of [currencySymbol(currency), currency || 'USD']) t = t.split(sign).join('');
  t = t.replace(/[\s,]/g, '');
  if (t === '') return null;
  const m = (digits ? new RegExp(`^(\\d+)(?:\\.(\\d{1,${digits}}))?$`) : /^(\d+)$/).exec(t);
  if (!m) return NaN;
  return Number(m[1]) * 10 ** digits + Number((m[2] || '').padEnd(digits, '0') || 0);
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

// Times are shown in the property's zone (setTimeZone, from GET /tables' property.time_zone), never the
// browser's: a head-office browser in Tokyo reads a New York property's clock.
const STYLES = {
  full: {dateStyle: 'medium', timeStyle: 'medium'},
  time: {timeStyle: 'medium'},
  ms: {hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3},
  short: {month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit'},
  hour: {hour: '2-digit', minute: '2-digit'},
};
let timeZone;            // undefined: the browser's, until the property's is known
let timeFormats = {};

/** Shows every later time in zone (an IANA name, e.g. "America/New_York"); an unknown zone is ignored. */
export function setTimeZone(zone) {
  if (!zone || zone === timeZone) return;
  try { new Intl.DateTimeFormat(undefined, {timeZone: zone}); } catch { return; }
  timeZone = zone;
  timeFormats = {};
}

function timeFormat(style) {
  const key = STYLES[style] ? style : 'full';
  if (!timeFormats[key]) timeFormats[key] = new Intl.DateTimeFormat(undefined, {...STYLES[key], timeZone});
  return timeFormats[key];
}

function parse(iso) {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A UTC ISO time shown in the property's zone, inside <time> with the UTC value as title. */
export function when(iso, style = 'full') {
  const d = parse(iso);
  if (!d) return h('span', {class: 'muted'}, iso ? String(iso) : '—');
  return h('time', {datetime: iso, title: `${iso} (UTC)`}, timeFormat(style).format(d));
}

export function whenText(iso, style = 'full') {
  const d = parse(iso);
  if (!d) return iso ? String(iso) : '—';
  return timeFormat(style === 'ms' ? 'full' : style).format(d);
}

/** "straight_flush" -> "Straight flush". */
export function label(key) {
  if (key === null || key === undefined || key === '') return '—';
  const special = {pair_plus: 'Pair Plus', six_card: 'Six card bonus', ante_bonus: 'Ante bonus', mini_royal: 'Mini royal'};
  if (special[key]) return special[key];
  const t = String(key).replace(/_/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// ---- playing cards (their names and signs: cards.js) ----

/**
 * One playing card: rank and suit symbol in the corners and a large pip in
 * the middle. Red or black, but shapes and letters carry the suit too.
 */
export function card(code, {size = 'md'} = {}) {
  const c = String(code || '');
  const p = cardParts(c);
  if (!p) return h('span', {class: `card card-${size} card-unknown`, role: 'img', 'aria-label': 'unknown card'}, '?');
  const {suit, shown: rank} = p;
  return h('span', {class: `card card-${size} ${suit.red ? 'red' : 'black'} suit-${suit.name}`, role: 'img',
    'aria-label': cardName(c), title: `${cardName(c)} (${c})`, 'data-card': c},
  h('span', {class: 'corner tl', 'aria-hidden': 'true'}, h('b', null, rank), h('i', null, suit.sign)),
  h('span', {class: 'pip', 'aria-hidden': 'true'}, suit.sign),
  h('span', {class: 'corner br', 'aria-hidden': 'true'}, h('b', null, rank), h('i', null, suit.sign)));
}

/** A hand of cards as a row, labelled as a group. */
export function cards(codes, opts = {}) {
  const list = codes || [];
  return h('span', {class: 'cards', role: 'group', 'aria-label': opts.label || list.map(cardName).join(', ')},
    list.map(c => card(c, opts)));
}

/** Compact text of cards for lists: "A♠ K♠ Q♠". */
export function cardsText(codes) {
  return (codes || []).map(cardLabel).join(' ');
}

/** Cards as compact text ("A♠ K♠ Q♠"), red suits in red, with a spoken label. */
export function miniCards(codes, tag = 'span') {
  const list = codes || [];
  return h(tag, {class: 'mini-cards', role: 'img', 'aria-label': list.map(cardName).join(', ')},
    list.map((c, i) => h('span', {class: isRed(c) ? 'mc red' : 'mc black', 'aria-hidden': 'true'}, (i ? ' ' : '') + cardLabel(c))));
}
