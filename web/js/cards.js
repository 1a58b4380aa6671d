// cards.js - playing cards as both pages write, show and read them: the ranks
// and suits, their names and signs ("As" -> "A♠", "Ace of spades"), and what
// a dealer types ("As Kd 10h", "askdth", "AS,KD,TH").  No DOM, no requests.
// The API writes a card rank then suit: ranks 2-9, T, J, Q, K, A; suits c d h s.

/** The ranks from the lowest, and the suits in the order the dealer's grid shows them. */
export const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
export const SUITS = ['s', 'h', 'd', 'c'];

const RANK_NAMES = {A: 'Ace', K: 'King', Q: 'Queen', J: 'Jack', T: 'Ten', 9: 'Nine', 8: 'Eight', 7: 'Seven',
  6: 'Six', 5: 'Five', 4: 'Four', 3: 'Three', 2: 'Two'};
const SUIT_INFO = {
  s: {name: 'spades', sign: '\u2660', red: false},
  h: {name: 'hearts', sign: '\u2665', red: true},
  d: {name: 'diamonds', sign: '\u2666', red: true},
  c: {name: 'clubs', sign: '\u2663', red: false},
};

/** A card's rank key ("T" for "10"), its suit ({name, sign, red}) and the rank as shown ("10"); null when not a card. */
export function cardParts(code) {
  const c = String(code || '');
  const rank = c.length === 3 && c.startsWith('10') ? 'T' : c.length === 2 ? c.charAt(0).toUpperCase() : '';
  const suit = SUIT_INFO[c.charAt(c.length - 1).toLowerCase()];
  if (!RANK_NAMES[rank] || !suit) return null;
  return {rank, suit, shown: rank === 'T' ? '10' : rank};
}

/** "As" -> "Ace of spades"; anything else as it is. */
export function cardName(code) {
  const p = cardParts(code);
  return p ? `${RANK_NAMES[p.rank]} of ${p.suit.name}` : String(code ?? '');
}

/** "As" -> "A♠", "Th" -> "10♥"; anything else as it is. */
export function cardLabel(code) {
  const p = cardParts(code);
  return p ? p.shown + p.suit.sign : String(code ?? '');
}

/** Whether the card is a heart or a diamond. */
export function isRed(code) {
  return cardParts(code)?.suit.red === true;
}

/**
 * Reads what was typed into cards.  Returns {cards, partial, error}:
 * cards: the whole cards read, as "As", "Th"; partial: a rank typed without
 * its suit yet ("" when none); error: what is wrong ("" when nothing), e.g.
 * "\"x\" is not a card: type a rank (2-9, 10 or T, J, Q, K, A) then a suit (s h d c)".
 */
export function parseCards(text) {
  const s = String(text).replace(/[\s,;]+/g, '').toLowerCase();
  const cards = [];
  let i = 0;
  while (i < s.length) {
    let rank;
    if (s.startsWith('10', i)) { rank = 'T'; i += 2; }
    else if ('23456789tjqka'.includes(s[i])) { rank = s[i].toUpperCase(); i += 1; }
    else return {cards, partial: '', error: `"${s[i]}" is not a card: type a rank (2-9, 10 or T, J, Q, K, A) then a suit (s h d c)`};
    if (i >= s.length) return {cards, partial: rank, error: ''};
    if (!'shdc'.includes(s[i])) return {cards, partial: '', error: `"${rank}${s[i]}" is not a card: the suit is s, h, d or c`};
    cards.push(rank + s[i]);
    i += 1;
  }
  return {cards, partial: '', error: ''};
}
