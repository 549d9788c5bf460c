// When two short texts state the same fact, an updated fact, or different
// facts (docs/guide/search-and-memory.md, "Remembering"). Pure (no
// I/O). Words are compared, never meanings: the rule was written on the
// `dev` half of 248 labelled pairs (scripts/dedup-pairs.json) and is
// reported on the other half (scripts/dedup-pairs.ts).
//
// A text becomes a sequence of tokens: its search terms (function words
// dropped, light suffix stripping), where
// - a value is a word holding a digit, with what is glued to it (`10:00`,
//   `v4.2.0`, `us-east-1`; a range `10:00-12:00` is two values), a day
//   (`Friday`, `Fridays`, `vendredi`), a month, or a number or ordinal
//   word (`two`, `twice`, `second`, `last`, `noon`);
// - a name is a word with a capital letter where a sentence does not
//   start (`Lisbon`, `LaunchDarkly`, `UTC`);
// - negations (`not`, `never`...) and the words that mark an update
//   (`now`, `renamed`...) are counted, not tokens.
//
// Two texts whose terms are alike (cosine of at least NEAR_THRESHOLD) are
// - a **duplicate** when they say the same: no value or name of one is
//   missing from the other while the other has one of its own (a changed
//   value), neither adds more than a quarter of its words (at least two)
//   that the other lacks (modal and light verbs, `must`, `keep`, `use`,
//   aside), and, for one-sentence facts, the same words do not stand in
//   the same order around one changed word (`billing` for `search`: a
//   different slot, another fact), their first words are not two
//   different capitalised words (`Ana prefers...`, `Ben prefers...`), and
//   one is not the other negated;
// - an **update** when the same frame has a changed value (`Tuesday
//   10:00-12:00` -> `Thursday 14:00-16:00`), a changed name, or a negation
//   (`need two approvals` -> `do not need approvals`), unless a slot holds
//   plain words on either side (`quokkas` -> `llamas`: another fact), or
//   both a name and another slot changed (`Berlin ... 18:00` -> `Madrid
//   ... 15:00`: another place);
// - **distinct** otherwise.
//
// The order of the words, the first word and negations are compared for
// facts: texts of one sentence and at most ALIGN_TOKENS tokens each. (A
// word changed here and there in a paragraph is an edit of one text, not
// another fact.) Longer texts are compared as sets of words (values,
// names and new words), in time linear in their length.

import { forEachWord, termOf } from '../search/tokenize.ts';

/** At least this cosine before two texts can be duplicates or versions
 *  of one fact (kb remember's threshold since its calibration:
 *  scripts/dedup-calibration.ts). */
export const NEAR_THRESHOLD = 0.5;

/** Facts have at most this many tokens: longer texts are not aligned
 *  word by word (an alignment takes ALIGN_TOKENS² steps at most). */
export const ALIGN_TOKENS = 48;

/** Tokens read from a text at most (the first ones). */
const MAX_TOKENS = 20_000;

export type TokenKind = 'value' | 'name' | 'word';

export interface Token {
  /** What is compared: a term, or a value's normal form. */
  readonly key: string;
  readonly kind: TokenKind;
  /** As written (for messages). */
  readonly text: string;
  /** A modal or light verb: not counted as something new. */
  readonly light: boolean;
  /** Starts with a capital letter. */
  readonly capital: boolean;
}

export interface Fact {
  readonly tokens: readonly Token[];
  readonly negations: number;
  /** Sentences (a `.`, `!`, `?` or line break between two words ends
   *  one). */
  readonly sentences: number;
}

const week = (names: string): Record<string, number> => Object.fromEntries(names.split(' ').map((d, i) => [d, i]));
const DAY_NAMES: Record<string, number>[] = [
  week('monday tuesday wednesday thursday friday saturday sunday'),
  week('montag dienstag mittwoch donnerstag freitag samstag sonntag'),
  week('lundi mardi mercredi jeudi vendredi samedi dimanche'),
  week('lunes martes miércoles jueves viernes sábado domingo'),
];
const MONTH_NAMES: Record<string, number>[] = [
  week('january february march april may june july august september october november december'),
  week('januar februar märz april mai juni juli august september oktober november dezember'),
  week('janvier février mars avril mai juin juillet août septembre octobre novembre décembre'),
  week('enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre'),
];
const DAYS = new Map<string, number>();
for (const names of DAY_NAMES) for (const [d, i] of Object.entries(names)) (DAYS.set(d, i), DAYS.set(`${d}s`, i));
const MONTHS = new Map<string, number>();
for (const names of MONTH_NAMES) for (const [m, i] of Object.entries(names)) MONTHS.set(m, i);
/** Number words and ordinals, as values. */
const NUMBERS = new Map<string, string>(
  Object.entries({
    zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10', eleven: '11', twelve: '12',
    twenty: '20', thirty: '30', hundred: '100', thousand: '1000', twice: '2', half: '0.5',
    first: '#1', second: '#2', third: '#3', fourth: '#4', fifth: '#5', last: '#last', noon: '12:00', midnight: '0:00',
  }),
);
/** Negations (`t` is the end of `don't`, `can't`). */
const NEGATIONS = new Set(['not', 'no', 'never', 'cannot', 'nothing', 'none', 'nobody', 'nicht', 'kein', 'keine', 'nie', 'pas', 'jamais', 'nunca', 't']);
/** Words that say a fact changed: neither tokens nor new words. */
const MARKERS = new Set(['now', 'currently', 'anymore', 'instead', 'renamed', 'moved', 'changed', 'updated', 'longer']);
/** Modal and light verbs, and words a rewording adds or drops freely. */
const LIGHT = new Set(
  (
    'per must may might need needs needed make makes made take takes took taken give gives gave given get gets got go goes went gone ' +
    'keep keeps kept hold holds held put puts set sets stay stays stayed happen happens happened place use uses used using run runs ran ' +
    'every always whole entire via usually also'
  ).split(' '),
);
/** What joins the words of one value (`10:00`, `us-east-1`, `1,250`). */
const GLUE = new Set([':', '-', '.', '/', ',', '_']);

function hasDigit(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** A value's normal form: leading zeros of its numbers dropped (`07:45`
 *  is `7:45`), thousands separators dropped (`1,250` is `1250`). */
export function valueKey(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 48 && (i === 0 || !isDigit(s.charCodeAt(i - 1)))) {
      // Leading zeros, up to the number's last digit.
      while (i + 1 < s.length && s.charCodeAt(i) === 48 && isDigit(s.charCodeAt(i + 1))) i++;
      out += s[i];
      continue;
    }
    const thousands = c === 44 && i > 0 && isDigit(s.charCodeAt(i - 1)) && isDigit(s.charCodeAt(i + 1)) && isDigit(s.charCodeAt(i + 2)) && isDigit(s.charCodeAt(i + 3));
    if (!thousands) out += s[i];
  }
  return out;
}

/** Whether a sentence ends between two words (`between` is what lies
 *  between them). */
function sentenceBreak(between: string): boolean {
  for (let i = 0; i < between.length; i++) {
    const c = between.charCodeAt(i);
    if (c === 46 || c === 33 || c === 63 || c === 10) return true;
  }
  return false;
}

/** The tokens of `text` (time linear in its length; at most MAX_TOKENS). */
export function factOf(text: string): Fact {
  const lower = text.toLowerCase();
  const cased = lower.length === text.length;
  const spans: number[] = [];
  forEachWord(lower, (a, b) => {
    if (spans.length < MAX_TOKENS * 2) spans.push(a, b);
  });
  const tokens: Token[] = [];
  let negations = 0;
  let sentences = 1;
  const words = spans.length / 2;
  const start = (k: number) => spans[2 * k];
  const end = (k: number) => spans[2 * k + 1];
  for (let i = 0; i < words; ) {
    // A compound: words glued by one GLUE character each.
    let j = i;
    while (j + 1 < words && start(j + 1) - end(j) === 1 && GLUE.has(lower[end(j)])) j++;
    const a = start(i);
    const b = end(j);
    const initial = i === 0 || sentenceBreak(lower.slice(end(i - 1), a));
    if (initial && i > 0) sentences++;
    const chunk = lower.slice(a, b);
    if (hasDigit(chunk)) {
      addValue(tokens, text, chunk, a);
      i = j + 1;
      continue;
    }
    for (let k = i; k <= j; k++) {
      const w = lower.slice(start(k), end(k));
      if (NEGATIONS.has(w)) negations++;
      else if (!MARKERS.has(w)) addWord(tokens, cased ? text.slice(start(k), end(k)) : w, w, initial && k === i, cased);
    }
    i = j + 1;
  }
  return { tokens, negations, sentences };
}

/** A compound holding a digit: one value, or a range's values
 *  (`10:00-12:00`, `14-16`: every part holds a digit). */
function addValue(tokens: Token[], text: string, chunk: string, at: number): void {
  const parts = chunk.split('-');
  if (parts.length > 1 && parts.every(hasDigit)) {
    let from = at;
    for (const p of parts) {
      tokens.push({ key: valueKey(p), kind: 'value', text: text.slice(from, from + p.length), light: false, capital: false });
      from += p.length + 1;
    }
  } else tokens.push({ key: valueKey(chunk), kind: 'value', text: text.slice(at, at + chunk.length), light: false, capital: false });
}

/** A word: a day, a month, a number word, or a term (a name when it has a
 *  capital letter where no sentence starts, or after its first letter). */
function addWord(tokens: Token[], raw: string, w: string, initial: boolean, cased: boolean): void {
  const capital = cased && raw.charCodeAt(0) !== w.charCodeAt(0);
  const day = DAYS.get(w);
  if (day !== undefined) return void tokens.push({ key: `day ${day}`, kind: 'value', text: raw, light: false, capital });
  const month = MONTHS.get(w);
  // `may` is a month only when written `May`.
  if (month !== undefined && (w !== 'may' || raw[0] === 'M')) return void tokens.push({ key: `month ${month}`, kind: 'value', text: raw, light: false, capital });
  const number = NUMBERS.get(w);
  if (number !== undefined) return void tokens.push({ key: number, kind: 'value', text: raw, light: false, capital });
  const t = termOf(w);
  if (t === '') return;
  let upperLater = false;
  for (let x = 1; x < raw.length && !upperLater; x++) upperLater = raw.charCodeAt(x) !== w.charCodeAt(x);
  const name = cased && (capital || upperLater) && (!initial || upperLater);
  tokens.push({ key: t, kind: name ? 'name' : 'word', text: raw, light: LIGHT.has(w), capital });
}

/** The gaps of the longest common subsequence of `a` and `b` (by key):
 *  the tokens of each between two tokens they share in order. */
export function alignmentGaps(a: readonly Token[], b: readonly Token[]): [Token[], Token[]][] {
  const n = a.length;
  const m = b.length;
  const w = m + 1;
  const L = new Int32Array((n + 1) * w);
  for (let x = n - 1; x >= 0; x--) {
    for (let y = m - 1; y >= 0; y--) L[x * w + y] = a[x].key === b[y].key ? L[(x + 1) * w + y + 1] + 1 : Math.max(L[(x + 1) * w + y], L[x * w + y + 1]);
  }
  const out: [Token[], Token[]][] = [];
  let ga: Token[] = [];
  let gb: Token[] = [];
  const flush = () => {
    if (ga.length > 0 || gb.length > 0) out.push([ga, gb]);
    ga = [];
    gb = [];
  };
  let x = 0;
  let y = 0;
  while (x < n || y < m) {
    if (x < n && y < m && a[x].key === b[y].key) {
      flush();
      x++;
      y++;
    } else if (y >= m || (x < n && L[(x + 1) * w + y] >= L[x * w + y + 1])) ga.push(a[x++]);
    else gb.push(b[y++]);
  }
  flush();
  return out;
}

/** How two texts relate: `was` and `now` name what changed (an update's
 *  values as written). */
export interface FactVerdict {
  kind: 'duplicate' | 'update' | 'distinct';
  was?: string[];
  now?: string[];
}

const notWord = (t: Token) => t.kind !== 'word';

/** How facts `a` and `b`, whose terms have cosine `similarity`, relate
 *  (the rules at the top of this file). */
export function compareFacts(a: Fact, b: Fact, similarity: number): FactVerdict {
  if (similarity < NEAR_THRESHOLD) return { kind: 'distinct' };
  const inA = new Set(a.tokens.map((t) => t.key));
  const inB = new Set(b.tokens.map((t) => t.key));
  const onlyA = a.tokens.filter((t) => !inB.has(t.key));
  const onlyB = b.tokens.filter((t) => !inA.has(t.key));
  const changed = onlyA.some(notWord) && onlyB.some(notWord);
  const short = a.sentences === 1 && b.sentences === 1 && a.tokens.length <= ALIGN_TOKENS && b.tokens.length <= ALIGN_TOKENS;
  const negated = short && a.negations > 0 !== b.negations > 0 && onlyA.length + onlyB.length <= 1;
  const slots = short ? slotsOf(a, b, inA, inB) : { frame: false, replaced: [] };
  const bound = (n: number) => Math.max(2, Math.floor(n / 4));
  const newA = onlyA.filter((t) => !t.light).length;
  const newB = onlyB.filter((t) => !t.light).length;
  // One that says nothing the other does not (a shorter form of it) is
  // not new, however much more the other says.
  const novel = newA > 0 && newB > 0 && (newA > bound(a.tokens.length) || newB > bound(b.tokens.length));
  if (!changed && !negated && !slots.frame) {
    if (novel || (short && otherSubject(a, b, inA, inB))) return { kind: 'distinct' };
    return { kind: 'duplicate' };
  }
  const replaced = slots.replaced;
  if (slots.frame && replaced.some(([x, y]) => !x.some(notWord) || !y.some(notWord))) return { kind: 'distinct' };
  if (replaced.length >= 2 && replaced.some(([x, y]) => x.some((t) => t.kind === 'name') && y.some((t) => t.kind === 'name'))) return { kind: 'distinct' };
  // A negation that changed is named as `not`.
  const not = (f: Fact) => (negated && f.negations > 0 ? ['not'] : []);
  return { kind: 'update', was: [...not(a), ...onlyA.filter(notWord).map((t) => t.text)], now: [...not(b), ...onlyB.filter(notWord).map((t) => t.text)] };
}

/** The slots where `a` and `b` hold different tokens, in the alignment of
 *  their tokens; `frame`: the same tokens in the same order otherwise
 *  (nothing moved, nothing only added or dropped). */
function slotsOf(a: Fact, b: Fact, inA: ReadonlySet<string>, inB: ReadonlySet<string>): { frame: boolean; replaced: [Token[], Token[]][] } {
  const gaps = alignmentGaps(a.tokens, b.tokens);
  const moved = gaps.some(([x, y]) => x.some((t) => inB.has(t.key)) || y.some((t) => inA.has(t.key)));
  const own = gaps.map(([x, y]): [Token[], Token[]] => [x.filter((t) => !inB.has(t.key)), y.filter((t) => !inA.has(t.key))]).filter(([x, y]) => x.length > 0 || y.length > 0);
  const oneSided = own.some(([x, y]) => x.length === 0 || y.length === 0);
  const replaced = own.filter(([x, y]) => x.length > 0 && y.length > 0);
  return { frame: !oneSided && !moved && replaced.length > 0, replaced };
}

/** Whether the texts start with different capitalised words, neither in
 *  the other (`Ana prefers tea`, `Ben prefers tea`). */
function otherSubject(a: Fact, b: Fact, inA: ReadonlySet<string>, inB: ReadonlySet<string>): boolean {
  const first = (f: Fact) => f.tokens.find((t) => !t.light);
  const x = first(a);
  const y = first(b);
  return x !== undefined && y !== undefined && !inB.has(x.key) && !inA.has(y.key) && x.capital && y.capital;
}
