// players.js - what the views share about players (docs/players.md): a
// player's name as the signed-in reader may see it, links to the player
// page, the banker of a player-banked round (a player or a provider's
// badge), and which roles may do what with players.
//
// The daemon decides what of a record a reader gets: the personal roles
// (cage, floor, pitboss, surveillance, auditor, admin) get the whole
// record; a dealer and the count team get {id, card, anonymous, display}.
// The page shows what it is given and never asks for more.
import * as session from './session.js';
import {h} from './dom.js';

const PERSONAL = ['cage', 'floor', 'pitboss', 'surveillance', 'auditor', 'admin'];

/** The roles of the signed-in person ([] for a terminal token: a token changes nothing through the page). */
export function roles() {
  return session.current()?.person.roles || [];
}
const any = (...want) => want.some(r => roles().includes(r));

/** Seating players and recording cash and chips at a table (a dealer: at the table he deals at). */
export const maySeat = () => any('dealer', 'floor', 'pitboss', 'admin');
/** Registering a player (an anonymous one with a description, from the table view). */
export const mayRegister = () => any('cage', 'floor', 'pitboss', 'admin');
/** Searching by name (a search by card is any role's). */
export const maySearchByName = () => !session.current() || any(...PERSONAL);
/** Acknowledging a Title 31 alert or CTR item, and moving a CTR item on (its status, BSA id, notes). */
export const mayAcknowledge = () => any('cage', 'pitboss');
/** Recording a cage transaction (a cage cashier signed in as himself). */
export const mayCage = () => any('cage');
/** Voiding a cash transaction (witnessed by another floor, pitboss or cage person). */
export const mayVoidCash = () => any('floor', 'pitboss', 'cage');
/** Merging a player's record into another (witnessed). */
export const mayMerge = () => any('cage', 'pitboss');
/** The cage view in the top bar: the cage, pit bosses and admins (a terminal token: shown, the daemon decides). */
export const showsCage = () => !session.current() || any('cage', 'pitboss', 'admin');

/** The name a record shows: the name, else the dealer's display, else the description, else the id. */
export function playerName(rec) {
  if (!rec) return '';
  return rec.name || rec.display || rec.description || rec.id;
}

// The names of the players the page has shown, by id: a sentence that has
// only an id (an answer, a report's row) names the player as a row did.
const known = new Map();

/**
 * A player as the page names him, never a bare id (a table is "P1" too):
 * "Mara J. Stone (player P1)", or "player P1" when the page knows no name.
 * p: a record (its name, the dealer's display or the description) or an id.
 */
export function playerText(p) {
  if (!p) return '';
  const rec = typeof p === 'object' ? p : {id: String(p)};
  let n = rec.name || rec.display || rec.description || '';
  if (n && n !== rec.id) known.set(rec.id, n);
  else n = known.get(rec.id) || '';
  return n ? `${n} (player ${rec.id})` : `player ${rec.id}`;
}

/** A link to the player page, named as playerText names him ("Ana Lopez (player P1)"); the id in the href. */
export function playerLink(id, rec) {
  return h('a', {href: `#/players/${encodeURIComponent(id)}`, 'data-player': id}, playerText(rec ? {...rec, id} : id));
}

/** An anonymous player's mark: a word and a symbol, never colour alone. */
export function anonymousBadge(rec) {
  return rec?.anonymous ? h('span', {class: 'badge'}, h('span', {'aria-hidden': 'true'}, '◌ '), 'Anonymous') : null;
}

/**
 * Who banked (GET /rounds/{id} "banker", GET /tables/{t}/bankers "current",
 * a history line or an offer): the player (a link) or the provider's badge
 * and company; null when the record names nobody.
 */
export function bankerWho(b) {
  if (!b) return null;
  if (b.player) return h('span', {class: 'banker-who'}, playerLink(b.player));
  if (b.provider) {
    return h('span', {class: 'banker-who'}, 'provider badge ', h('strong', null, b.provider.badge),
      ` (${b.provider.company})`);
  }
  return null;
}

/** bankerWho as plain text, for titles and one-line facts. */
export function bankerWhoText(b) {
  if (b?.player) return playerText(b.player);
  if (b?.provider) return `provider badge ${b.provider.badge} (${b.provider.company})`;
  return '';
}

/** "1 h 05 min", "12 min", "40 s": a time seated. */
export function duration(seconds) {
  const s = Math.max(0, Math.round(Number(seconds) || 0));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** The currency players' figures are shown in (the property's: the first table's). */
export function playersCurrency(tables) {
  return tables[0]?.currency || 'USD';
}
