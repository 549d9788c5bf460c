// Linear-time matching of the regular expressions picomatch compiles globs
// into.
//
// The JavaScript regex engines backtrack: globs such as `*a*a*a*b`,
// `**/d/**/d/**/d/**/x` or `{a,aa}{a,aa}{a,aa}...b` compile to regexes that
// take polynomial or exponential time on some slugs (seconds to hours for a
// single test). Subject patterns come from models and are untrusted, so
// they are never run on the native engine: the regex source is parsed into
// a Thompson NFA and simulated one state set at a time, so a test costs at
// most O(slug length x NFA size), whatever the pattern.
//
// Supported: the regex subset picomatch emits (literals, escapes, `.`,
// classes, groups, alternation, greedy and lazy quantifiers, `^`, `$`,
// lookaheads), parsed as a non-Unicode JavaScript regex, so slugs are
// matched by UTF-16 code unit exactly as the native engine would. Single
// characters (classes, `.`, `\d`...) are tested with the native engine on
// one-character strings, which cannot backtrack, so their semantics are the
// engine's own. Refused (`NfaError`): back-references, lookbehinds and word
// boundaries (picomatch passes them through from a glob's parentheses),
// nesting deeper than MAX_DEPTH, and NFAs larger than MAX_STATES.
//
// Lookaheads are evaluated on demand and memoised per position. Every match
// counts its steps against a budget that grows linearly with the input (see
// `Budget`), so even a lookahead that scans to the end of each slug cannot
// make the total time super-linear: past the budget, `NfaBudgetError` is
// thrown and the caller reports the pattern as too expensive.

import { Budget, NfaBudgetError, NfaError } from './budget.ts';

export { Budget, NfaBudgetError, NfaError };

export const MAX_STATES = 50_000;
export const MAX_DEPTH = 200;
const MAX_REPEAT = 1000;

/** One UTF-16 code unit predicate, decided by the native engine on a
 *  one-character string (no backtracking possible) and cached. */
class CharTest {
  private readonly ascii = new Uint8Array(128);
  private readonly other = new Map<number, boolean>();
  private readonly re: RegExp;
  constructor(atom: string) {
    // bounded: tested on one character at a time (below), never on a text.
    this.re = new RegExp(`^(?:${atom})$`);
    for (let c = 0; c < 128; c++) this.ascii[c] = this.re.test(String.fromCharCode(c)) ? 1 : 0;
  }
  has(c: number): boolean {
    if (c < 128) return this.ascii[c] === 1;
    let r = this.other.get(c);
    if (r === undefined) {
      r = this.re.test(String.fromCharCode(c));
      if (this.other.size < 4096) this.other.set(c, r);
    }
    return r;
  }
}

type Node =
  | { t: 'char'; code: number }
  | { t: 'test'; test: CharTest }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; alts: Node[] }
  | { t: 'rep'; body: Node; min: number; max: number }
  | { t: 'bol' }
  | { t: 'eol' }
  | { t: 'look'; neg: boolean; body: Node };

const HEX = /^[0-9a-fA-F]+$/;

/** Recursive-descent parser for the supported subset of (non-Unicode)
 *  JavaScript regex syntax. The source must already be a valid regex. */
class Parser {
  private i = 0;
  private depth = 0;
  private readonly tests = new Map<string, CharTest>();
  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.disjunction();
    if (this.i < this.src.length) throw new NfaError(`unexpected "${this.src[this.i]}"`);
    return node;
  }

  private test(atom: string): Node {
    let t = this.tests.get(atom);
    if (t === undefined) this.tests.set(atom, (t = new CharTest(atom)));
    return { t: 'test', test: t };
  }

  private disjunction(): Node {
    if (++this.depth > MAX_DEPTH) throw new NfaError(`groups are nested more than ${MAX_DEPTH} levels deep`);
    const alts = [this.alternative()];
    while (this.src[this.i] === '|') {
      this.i++;
      alts.push(this.alternative());
    }
    this.depth--;
    return alts.length === 1 ? alts[0] : { t: 'alt', alts };
  }

  private alternative(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return items.length === 1 ? items[0] : { t: 'seq', items };
  }

  private quantified(atom: Node): Node {
    const s = this.src;
    let min: number;
    let max: number;
    const c = s[this.i];
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.i, this.i + 24));
      if (!m) return atom;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
      if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) throw new NfaError(`a repetition count above ${MAX_REPEAT}`);
    } else return atom;
    this.i++;
    if (s[this.i] === '?') this.i++; // lazy: the same language
    if (atom.t === 'bol' || atom.t === 'eol' || atom.t === 'look') {
      // Annex B allows a quantified lookahead; it is an assertion either way.
      return min === 0 ? { t: 'seq', items: [] } : atom;
    }
    return { t: 'rep', body: atom, min, max };
  }

  private atom(): Node {
    const s = this.src;
    const c = s[this.i];
    switch (c) {
      case '^':
        this.i++;
        return { t: 'bol' };
      case '$':
        this.i++;
        return { t: 'eol' };
      case '.':
        this.i++;
        return this.test('.');
      case '(':
        return this.group();
      case '[':
        return this.charClass();
      case '\\':
        return this.escape();
      case '*':
      case '+':
      case '?':
        throw new NfaError('nothing to repeat');
      default:
        this.i++;
        return { t: 'char', code: c.charCodeAt(0) };
    }
  }

  private group(): Node {
    const s = this.src;
    this.i++; // (
    let look: { neg: boolean } | undefined;
    if (s[this.i] === '?') {
      const k = s[this.i + 1];
      if (k === ':') this.i += 2;
      else if (k === '=' || k === '!') {
        look = { neg: k === '!' };
        this.i += 2;
      } else if (k === '<' && (s[this.i + 2] === '=' || s[this.i + 2] === '!')) {
        throw new NfaError('lookbehind assertions are not supported');
      } else if (k === '<') {
        const end = s.indexOf('>', this.i);
        if (end < 0) throw new NfaError('unterminated group name');
        this.i = end + 1;
      } else throw new NfaError('unsupported group');
    }
    const body = this.disjunction();
    if (s[this.i] !== ')') throw new NfaError('unterminated group');
    this.i++;
    return look ? { t: 'look', neg: look.neg, body } : body;
  }

  private charClass(): Node {
    const s = this.src;
    const start = this.i;
    let j = this.i + 1;
    if (s[j] === '^') j++;
    // In JavaScript the first unescaped `]` closes the class, even right
    // after `[` (`[]` is the empty class).
    for (; j < s.length && s[j] !== ']'; j++) if (s[j] === '\\') j++;
    if (j >= s.length) throw new NfaError('unterminated character class');
    this.i = j + 1;
    return this.test(s.slice(start, this.i));
  }

  private escape(): Node {
    const s = this.src;
    const k = s[this.i + 1];
    if (k === undefined) throw new NfaError('trailing backslash');
    if (k === 'b' || k === 'B') throw new NfaError('word boundaries are not supported');
    if ((k >= '1' && k <= '9') || k === 'k') throw new NfaError('back-references are not supported');
    let len = 2;
    if (k === 'x' && HEX.test(s.slice(this.i + 2, this.i + 4)) && this.i + 4 <= s.length) len = 4;
    else if (k === 'u' && HEX.test(s.slice(this.i + 2, this.i + 6)) && this.i + 6 <= s.length) len = 6;
    else if (k === 'c' && /[A-Za-z]/.test(s[this.i + 2] ?? '')) len = 3;
    else if (k === '0' && /[0-9]/.test(s[this.i + 2] ?? '')) throw new NfaError('octal escapes are not supported');
    const atom = s.slice(this.i, this.i + len);
    this.i += len;
    if (/^\\[dDwWsS]$/.test(atom) || len > 2 || /^\\[tnrvf0]$/.test(atom)) return this.test(atom);
    return { t: 'char', code: k.charCodeAt(0) }; // identity escape: `\.`, `\/`, `\*`...
  }
}

// State kinds.
const CHAR = 0;
const TEST = 1;
const SPLIT = 2;
const BOL = 3;
const EOL = 4;
const LOOK = 5;
const MATCH = 6;

class Builder {
  kind: number[] = [];
  a: number[] = [];
  b: number[] = [];
  code: number[] = [];
  tests: (CharTest | null)[] = [];
  looks: { start: number; neg: boolean; match: number }[] = [];
  lookBodies: Node[] = [];

  add(kind: number, a = -1, b = -1, code = -1, test: CharTest | null = null): number {
    if (this.kind.length >= MAX_STATES) throw new NfaError(`the pattern needs more than ${MAX_STATES} states`);
    this.kind.push(kind);
    this.a.push(a);
    this.b.push(b);
    this.code.push(code);
    this.tests.push(test);
    return this.kind.length - 1;
  }

  /** Compiles `node` so that it continues at `next`; returns its start. */
  compile(node: Node, next: number): number {
    switch (node.t) {
      case 'char':
        return this.add(CHAR, next, -1, node.code);
      case 'test':
        return this.add(TEST, next, -1, -1, node.test);
      case 'bol':
        return this.add(BOL, next);
      case 'eol':
        return this.add(EOL, next);
      case 'seq': {
        let cur = next;
        for (let i = node.items.length - 1; i >= 0; i--) cur = this.compile(node.items[i], cur);
        return cur;
      }
      case 'alt': {
        let cur = this.compile(node.alts[node.alts.length - 1], next);
        for (let i = node.alts.length - 2; i >= 0; i--) cur = this.add(SPLIT, this.compile(node.alts[i], next), cur);
        return cur;
      }
      case 'look': {
        const match = this.add(MATCH);
        const start = this.compile(node.body, match);
        this.looks.push({ start, neg: node.neg, match });
        this.lookBodies.push(node.body);
        return this.add(LOOK, next, this.looks.length - 1);
      }
      case 'rep': {
        let cur = next;
        if (node.max === Infinity) {
          const split = this.add(SPLIT, -1, next);
          this.a[split] = this.compile(node.body, split);
          cur = split;
        } else {
          for (let i = node.min; i < node.max; i++) cur = this.add(SPLIT, this.compile(node.body, cur), next);
        }
        for (let i = 0; i < node.min; i++) cur = this.compile(node.body, cur);
        return cur;
      }
    }
  }
}

/**
 * Step accounting shared by the patterns of one call over the slugs they
 * are tested on: at most `base + perChar x (characters tested so far)`
 * steps. The base (about half a second of work) absorbs any pattern on a
 * topic of ordinary size; past it, a pattern must stay under 64 steps per
 * character, which ordinary globs (1 to 10 live states) do with room to
 * spare, and which keeps the whole call linear in the size of its input.
 */

/** A lookahead whose body is a few fixed-length alternatives of single
 *  characters (and `^` / `$`), like picomatch's `(?!\.)`, `(?=.)` and
 *  `(?!(?:^|\/)\.)`: tested in place, without a sub-simulation. */
type Step = { t: 'char'; code: number } | { t: 'test'; test: CharTest } | { t: 'bol' } | { t: 'eol' };

function fixedAlternatives(node: Node, limit = 16): Step[][] | undefined {
  switch (node.t) {
    case 'char':
    case 'test':
    case 'bol':
    case 'eol':
      return [[node]];
    case 'seq': {
      let acc: Step[][] = [[]];
      for (const item of node.items) {
        const alts = fixedAlternatives(item, limit);
        if (!alts) return undefined;
        const next: Step[][] = [];
        for (const a of acc) for (const b of alts) next.push([...a, ...b]);
        if (next.length > limit) return undefined;
        acc = next;
      }
      return acc;
    }
    case 'alt': {
      const out: Step[][] = [];
      for (const alt of node.alts) {
        const alts = fixedAlternatives(alt, limit);
        if (!alts) return undefined;
        out.push(...alts);
        if (out.length > limit) return undefined;
      }
      return out;
    }
    default:
      return undefined;
  }
}

interface Look {
  neg: boolean;
  /** Sub-NFA start and its own MATCH state. */
  start: number;
  match: number;
  /** Set when the body is simple enough to test in place. */
  fixed?: Step[][];
}

/** A compiled regex: `test(s)` in time linear in `s`. */
export class Nfa {
  private readonly kind: Uint8Array;
  private readonly a: Int32Array;
  private readonly b: Int32Array;
  private readonly code: Int32Array;
  private readonly tests: (CharTest | null)[];
  private readonly looks: Look[];
  private readonly start: number;
  private readonly final: number;
  private readonly mark: Int32Array;
  private readonly stack: Int32Array;
  private gen = 0;
  private input = '';
  /** Memoised results of sub-simulated lookaheads: per look, per position,
   *  valid when the stamp equals `testNo`. */
  private memoStamp: Int32Array[] = [];
  private memoValue: Uint8Array[] = [];
  private testNo = 0;
  private budget = new Budget();

  constructor(source: string) {
    const ast = new Parser(source).parse();
    const b = new Builder();
    const final = b.add(MATCH);
    this.start = b.compile(ast, final);
    this.final = final;
    this.kind = Uint8Array.from(b.kind);
    this.a = Int32Array.from(b.a);
    this.b = Int32Array.from(b.b);
    this.code = Int32Array.from(b.code);
    this.tests = b.tests;
    this.looks = b.looks.map((l, i) => ({ ...l, fixed: fixedAlternatives(b.lookBodies[i]) }));
    this.mark = new Int32Array(b.kind.length);
    // Each state is pushed at most once per closure (marked when pushed),
    // plus the two successors of the state being expanded.
    this.stack = new Int32Array(b.kind.length + 2);
  }

  get size(): number {
    return this.kind.length;
  }

  /** Whether the whole of `s` matches. Counts its steps against `budget`
   *  (shared by the patterns of a call and the slugs they are tested on) and throws
   *  `NfaBudgetError` past its limit. */
  test(s: string, budget: Budget = new Budget()): boolean {
    this.input = s;
    this.budget = budget;
    budget.chars += s.length + 1;
    this.testNo++;
    return this.run(this.start, this.final, 0, true);
  }

  /** Simulates from `start` at position `pos`. Anchored at the end (the
   *  whole rest must match) or not (a lookahead: any prefix). */
  private run(start: number, final: number, pos: number, anchored: boolean): boolean {
    const s = this.input;
    const n = s.length;
    const kind = this.kind;
    const code = this.code;
    const tests = this.tests;
    const budget = this.budget;
    let cur: number[] = [];
    let next: number[] = [];
    this.follow(start, pos, cur, ++this.gen);
    for (;;) {
      if (!anchored || pos === n) {
        for (let i = 0; i < cur.length; i++) if (cur[i] === final) return true;
        if (pos === n) return false;
      }
      if (cur.length === 0) return false;
      const c = s.charCodeAt(pos);
      pos++;
      const g = ++this.gen;
      for (let i = 0; i < cur.length; i++) {
        const st = cur[i];
        const k = kind[st];
        if ((k === CHAR && code[st] === c) || (k === TEST && tests[st]!.has(c))) this.follow(this.a[st], pos, next, g);
      }
      const t = cur;
      cur = next;
      next = t;
      next.length = 0;
      budget.steps += cur.length + 1;
      if (budget.steps > budget.limit) throw new NfaBudgetError('too many steps');
    }
  }

  /** Adds the states reachable from `first` without consuming input. */
  private follow(first: number, pos: number, out: number[], g: number): void {
    const mark = this.mark;
    const kind = this.kind;
    // A lookahead may re-enter `run`, whose closures use the same stack:
    // this closure's entries are saved around it and restored.
    const stack = this.stack;
    let top = 0;
    if (mark[first] === g) return;
    mark[first] = g;
    stack[top++] = first;
    let visited = 0;
    while (top > 0) {
      const st = stack[--top];
      visited++;
      let succ = -1;
      let succ2 = -1;
      switch (kind[st]) {
        case SPLIT:
          succ = this.a[st];
          succ2 = this.b[st];
          break;
        case BOL:
          if (pos === 0) succ = this.a[st];
          break;
        case EOL:
          if (pos === this.input.length) succ = this.a[st];
          break;
        case LOOK: {
          const saved = stack.slice(0, top);
          const ok = this.look(this.b[st], pos);
          stack.set(saved, 0);
          if (ok) succ = this.a[st];
          break;
        }
        default:
          out.push(st);
      }
      if (succ2 >= 0 && mark[succ2] !== g) {
        mark[succ2] = g;
        stack[top++] = succ2;
      }
      if (succ >= 0 && mark[succ] !== g) {
        mark[succ] = g;
        stack[top++] = succ;
      }
    }
    this.budget.steps += visited;
  }

  private look(index: number, pos: number): boolean {
    const l = this.looks[index];
    if (l.fixed) return this.fixedMatch(l.fixed, pos) !== l.neg;
    let stamp = this.memoStamp[index];
    let value = this.memoValue[index];
    const n = this.input.length;
    if (stamp === undefined || stamp.length <= n) {
      stamp = this.memoStamp[index] = new Int32Array(Math.max(n + 1, 64));
      value = this.memoValue[index] = new Uint8Array(stamp.length);
    }
    if (stamp[pos] !== this.testNo) {
      // The marks of the lookahead's own states are disjoint from the
      // caller's, so sharing the mark array is safe.
      value[pos] = this.run(l.start, l.match, pos, false) !== l.neg ? 1 : 0;
      stamp[pos] = this.testNo;
    }
    return value[pos] === 1;
  }

  private fixedMatch(alts: Step[][], pos: number): boolean {
    const s = this.input;
    const n = s.length;
    outer: for (const alt of alts) {
      let p = pos;
      for (const step of alt) {
        switch (step.t) {
          case 'bol':
            if (p !== 0) continue outer;
            break;
          case 'eol':
            if (p !== n) continue outer;
            break;
          case 'char':
            if (p >= n || s.charCodeAt(p) !== step.code) continue outer;
            p++;
            break;
          case 'test':
            if (p >= n || !step.test.has(s.charCodeAt(p))) continue outer;
            p++;
            break;
        }
      }
      return true;
    }
    return false;
  }
}
