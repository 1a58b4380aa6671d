// cards.js - the dealer's card entry: "As Kd 10h", "askdth", "AS,KD,TH" read
// as you type.  Nothing here talks to the daemon.

export const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
export const SUITS = ['s', 'h', 'd', 'c'];
export const SUIT_SIGN = {s: '\u2660', h: '\u2665', d: '\u2666', c: '\u2663'};

/**
 * Reads what was typed into cards.  Returns {cards, partial, error}:
 * cards: the whole cards read, as "As", "Th"; partial: a rank typed without
 * its suit yet ("" when none); error: what is wrong ("" when nothing), e.g.
 * "\"x\" is not a card: a rank 2-9, 10 or T, J, Q, K, A, then a suit s h d c".
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

/** "As" as shown: "A♠" (T as 10). */
export function cardLabel(c) {
  return (c[0] === 'T' ? '10' : c[0]) + SUIT_SIGN[c[1]];
}

export function isRed(c) {
  return c[1] === 'h' || c[1] === 'd';
}
