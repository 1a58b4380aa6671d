// refusals.js - a refusal of the daemon as a sentence saying what to do,
// for both pages (the pit boss page and the dealer's).  A table from the
// API's error code to its sentence; a code not in it shows the daemon's own
// message, tidied: never a JSON body, an API path, a field's snake_case
// name or the code in parentheses.  The daemon's codes and statuses are the
// API's (docs/api.md); only what a person reads is written here.

/** The daemon's message without what only a program needs: paths, bodies, quoted keys, snake_case. */
export function tidyMessage(message) {
  let t = String(message || '');
  t = t.replace(/\s*\([^()]*(?:\/api\/|[{}"]|\bGET\b|\bPOST\b|\bPUT\b|\bPATCH\b|\bDELETE\b)[^()]*\)/g, '');   // (POST /api/v1/...), ("reason")
  t = t.replace(/\s*(?:GET|POST|PUT|PATCH|DELETE) \/api\/v1\/\S*/g, '');
  const brace = t.indexOf('{');
  if (brace >= 0) t = t.slice(0, brace).replace(/[\s:,;(]+$/, '');               // a body's schema: never shown
  t = t.replace(/"([a-z0-9]+(?:_[a-z0-9]+)*)"/g, '$1');                            // "reason" -> reason
  t = t.replace(/\b([a-z]+(?:_[a-z]+)+)\b/g, (m, w) => WORDS[w] || w.replace(/_/g, ' '));
  t = t.replace(/\b([a-z]+)\.([a-z]+)\b(?=:)/g, '$1 $2');                          // banker.bank: -> banker bank:
  t = t.replace(/\s+/g, ' ').trim();
  if (!t) return '';
  t = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** API words a person says otherwise. */
const WORDS = {
  pair_plus: 'Pair Plus', six_card: 'Six Card Bonus', ante_bonus: 'Ante Bonus', gaming_day: 'gaming day',
  bsa_id: 'BSA id', filed_on: 'filing date', id_number: 'ID number', id_type: 'ID type',
};

/** The field a message of invalid_body or invalid_amount names first ("amount: ..."), as words, or ''. */
function fieldOf(message) {
  const m = /^([a-z_]+(?:\.[a-z_0-9]+)*):/.exec(String(message || ''));
  if (!m) return '';
  const last = m[1].split('.').pop();
  return WORDS[last] || last.replace(/_/g, ' ');
}

const again = 'then send it again.';

/** Error code -> the sentence (or a function of the error and its tidied message giving it). */
const SENTENCES = {
  // what was typed
  invalid_body: e => fieldOf(e.message) ? `Check the ${fieldOf(e.message)}: ${tidyAfterField(e.message) || 'it could not be read'}`
    : 'Something in the form could not be read: check each field, ' + again,
  invalid_amount: e => `Type the ${fieldOf(e.message) || 'amount'} as an amount of money greater than zero, such as 25 or 25.50.`,
  invalid_text: 'Some text has a character that cannot be recorded (a control character): retype it.',
  invalid_count: 'Type each count as a whole number of chips or bills.',
  empty_chips: 'Type the count of at least one denomination.',
  unknown_denomination: 'A denomination is not one of this property\u2019s chips: reload the page and count again.',
  total_overflow: 'The total is larger than any count can be: count again.',
  amount_overflow: 'The total is larger than any amount can be: check the amounts.',
  malformed_json: 'The page sent something the server could not read: reload the page and try again.',
  unknown_field: 'The page sent something the server does not take: reload the page and try again.',
  invalid_query: 'The page asked for something the server does not know: reload the page and try again.',
  note_required: 'Write a note saying what was done, ' + again,
  reason_required: 'Give a reason, ' + again,
  description_required: 'Describe the patron (what he looks like), ' + again,
  bsa_id_required: 'Give the BSA id of the filed report, ' + again,
  // signatures and people
  witness_required: (e, t) => 'A witness must sign this: type the witness\u2019s id and password.' +
    (/(\d+) more needed/.test(e?.message || '') ? ` ${RegExp.$1} more needed.` : ''),
  witness_refused: (e, t) => `The witness cannot sign this. ${t} Check the witness\u2019s id and password, or ask another person.`,
  invalid_witness: 'The witness\u2019s id or password is not right: type them again.',
  witness_same_person: 'The witness must be another person than the one signed in.',
  wrong_password: 'The password is not right: type it again.',
  weak_password: (e, t) => `Choose a longer password. ${t}`,
  forbidden: 'Your sign-in may not do this: ask a pit boss, or a person whose role does it.',
  person_required: 'This is signed by a person: sign in with your own id and password.',
  unknown_person: 'There is no person with that id: check it.',
  person_not_found: 'There is no person with that id: check it.',
  person_inactive: 'That person\u2019s account is not active.',
  unauthorized: 'Your sign-in has ended: sign in again.',
  session_expired: 'Your sign-in has ended: sign in again.',
  // players and cash
  unknown_player: 'There is no player with that card or id: check it, or register the player first.',
  player_not_found: 'There is no player with that card or id: check it, or register the player first.',
  identification_required: 'Take the patron\u2019s identification first (ID type and number on his page), then record this.',
  same_player: 'A player cannot be merged with himself: choose two different players.',
  seat_taken: 'That seat is taken: choose another seat, or let the player there leave first.',
  seat_empty: 'No one is seated there.',
  player_seated: 'That player is seated already.',
  player_seated_elsewhere: (e, t) => `${t} Let him leave that seat first.`,
  transaction_not_found: 'That cash transaction does not exist: reload the page.',
  // accounting
  opener_discrepancy: (e, t) => `${t} Count again, or type the reason for the difference and record it.`,
  opener_required: (e, t) => `${t} Record the table\u2019s opener first (on the table\u2019s page, Inventory).`,
  duplicate_serial: (e, t) => `That serial number is used already: check the number on the slip and type it again. ${t}`,
  slip_voided: 'That slip is voided.',
  already_voided: 'This was voided already: reload the page to see it.',
  document_not_found: 'There is no such slip or document: check its serial.',
  invalid_runner: (e, t) => `The runner must be a person of the security staff: check his id. ${t}`,
  count_required: (e, t) => t,
  already_acknowledged: 'This was acknowledged already: reload the page to see it.',
  already_explained: 'This was explained already: reload the page to see it.',
  already_resolved: 'This investigation is resolved already.',
  exception_not_found: 'There is no such exception any more: reload the page.',
  investigation_out_of_order: (e, t) => `${t} Choose the next step of the investigation.`,
  invalid_transition: 'That status cannot follow the item\u2019s present one: choose one of those offered.',
  // rounds
  below_minimum: (e, t) => `${t} Change the bet.`,
  above_maximum: (e, t) => `${t} Change the bet.`,
  bank_below_minimum: (e, t) => `${t} Change the bank.`,
  bank_above_maximum: (e, t) => `${t} Change the bank.`,
  empty_bet: 'Type at least one wager for the seat.',
  ante_required: 'This game takes Pair Plus and the Six Card Bonus only with an Ante: type the Ante too.',
  wager_not_offered: (e, t) => `${t} Take that wager down.`,
  duplicate_card: 'That card is dealt already in this round: check the card and type it again.',
  card_taken: 'That card is dealt already in this round: check the card and type it again.',
  invalid_card: 'That is not a card: type its rank and suit, such as As or 10h.',
  table_closed: 'The table is closed: open it first.',
  round_in_progress: 'A round is in progress at this table: finish it, or void it, first.',
  round_not_found: 'There is no such round.',
  table_not_found: 'There is no such table.',
  paid_equals_owed: (e, t) => `${t.replace(/: that is no mispay.*$/i, '.')} That is no mispay: type what was actually paid.`,
  // the server
  integrity_hold: 'This table is held after an integrity problem: ask the administrator.',
  internal_error: 'The server could not do this: try again, and tell the administrator if it happens again.',
  storage_error: 'The server could not record this: try again, and tell the administrator if it happens again.',
  locked_out: 'Too many failed sign-ins: wait a few minutes, then try again.',
  idempotency_key_reused: 'This was sent already with other figures: reload the page and check it.',
};

/** A message after its "field: " prefix, tidied (its schema never shown). */
function tidyAfterField(message) {
  const rest = String(message || '').replace(/^[a-z_]+(?:\.[a-z_0-9]+)*:\s*/, '');
  const t = tidyMessage(rest);
  return t ? t.charAt(0).toLowerCase() + t.slice(1) : '';
}

/**
 * What a person reads of a refused request e (an ApiError, or anything
 * thrown): the sentence of its code, else the daemon's message tidied, else
 * a sentence of its status.
 */
export function refusalText(e) {
  if (e?.unreachable || e?.status === 0) return 'The server cannot be reached: check the connection, then try again.';
  const tidied = tidyMessage(e?.message);
  const s = e?.code ? SENTENCES[e.code] : undefined;
  if (typeof s === 'function') return s(e, tidied).replace(/\s+/g, ' ').trim();
  if (s) return s;
  if (tidied && !/^HTTP \d+\.?$/.test(tidied)) return tidied;
  if (e?.status === 403) return SENTENCES.forbidden;
  if (e?.status >= 500) return SENTENCES.internal_error;
  return 'The server refused this: check what was typed, then try again.';
}
