// Subject patterns: classification and glob compilation (the face,
// index.ts, loads the machinery and calls `compileWith`).
//
// A pattern is a glob when picomatch's `scan` finds glob syntax in it;
// otherwise it is exact (compared to slugs as a plain string). Globs run
// against slugs, whose leading dots are already dropped, so hidden-ness is
// decided from the subject, never here.
//
// Patterns come from models and are untrusted. picomatch translates a glob
// into a regex source, but that regex is never run by the (backtracking)
// native engine unless it provably runs in linear time: `nfa.ts` matches it
// in time linear in the slug, and a pattern whose matching would still cost
// too much across a topic (a budget linear in the topic's size) is reported
// instead of hanging.

import { Budget, NfaBudgetError, NfaError } from './budget.ts';
import type { GlobEngine } from './engine.ts';
import type { Nfa as NfaType } from './nfa.ts';
import { map } from '../shared/arrays.ts';
import { MAX_PATTERN_LENGTH } from '../shared/pattern-length.ts';

/** How a pattern is understood. */
export type PatternKind = 'exact' | 'glob' | 'invalid';

/** A character glob syntax needs: without one, picomatch never reads a
 *  pattern as a glob. */
const GLOB_CHARACTER = /[*?[{(]/;

/** Whether `pattern` may be a glob. */
export function mayBeGlob(pattern: string): boolean {
  return GLOB_CHARACTER.test(pattern);
}

/** `pattern` without its leading `./`s (a leading `./` is ignored, and so
 *  are the slashes after it: `.//x` is `./x`, never the absolute `/x`). */
export function withoutDotSlash(pattern: string): string {
  let p = pattern;
  while (p.startsWith('./')) {
    p = p.slice(2);
    while (p.startsWith('/')) p = p.slice(1);
  }
  return p;
}

export { MAX_PATTERN_LENGTH };

/** How deeply a glob may nest braces and parentheses. picomatch's parser
 *  slows down sharply with nesting (a 1 KiB pattern nested 300 levels takes
 *  a fifth of a second to compile); real globs nest one or two levels. */
export const MAX_GLOB_NESTING = 10;

/** Tests one slug, counting the work against `budget` (share one among
 *  the patterns of a call to bound the call). Throws `PatternTooExpensive`
 *  once the budget is used up (see `nfa.ts`). */
export type GlobMatcher = (slug: string, budget: Budget) => boolean;

export class PatternTooExpensive extends Error {
  constructor() {
    super('the pattern is too complex to match against this topic in reasonable time; use a simpler glob');
  }
}

export interface ClassifiedPattern {
  kind: PatternKind;
  /** Normalised: leading `./` removed. */
  pattern: string;
  /** Why the pattern is invalid (kind `invalid` only). */
  reason?: string;
}

/** A pattern ready to match: classified, and for a glob its matcher. */
export interface CompiledPattern extends ClassifiedPattern {
  /** The pattern as given (not normalised). */
  raw: string;
  /** Kind `glob` only. */
  test?: GlobMatcher;
}

/** Classifies and compiles `patterns`. `engine` must be loaded when one of
 *  them may be a glob (index.ts `needsEngine`). */
export function compileWith(patterns: readonly string[], engine: GlobEngine | undefined): CompiledPattern[] {
  return map(patterns, (raw) => {
    const c = classifyPattern(raw, engine);
    return c.kind === 'glob' ? { ...c, raw, test: compileGlob(c.pattern, engine) } : { ...c, raw };
  });
}

/** The machinery, which the caller had to load for a pattern that may be a
 *  glob: its absence is a bug in the caller. */
function machinery(engine: GlobEngine | undefined): GlobEngine {
  if (engine === undefined) throw new Error('internal error: a glob was compiled without the glob machinery (glob/index.ts loads it)');
  return engine;
}

// `*` stays within one level, `**` crosses levels. A leading `!` is a
// literal character, never a negation of the whole pattern; separators are
// always `/`, whatever the platform.
const GLOB_OPTIONS = { dot: false, nonegate: true, windows: false } as const;

function invalid(pattern: string, reason: string): ClassifiedPattern {
  return { kind: 'invalid', pattern, reason };
}

/** Classifies a subject pattern. Invalid patterns match nothing: empty,
 *  longer than 1024 characters, containing a NUL byte, absolute, containing
 *  a `..` segment, or a glob that cannot be compiled (or uses regex syntax
 *  that cannot be matched in linear time: back-references, lookbehinds). */
export function classifyPattern(p: string, engine: GlobEngine | undefined): ClassifiedPattern {
  if (p.includes('\0')) return invalid(p, 'the pattern contains a NUL byte');
  if (p.length > MAX_PATTERN_LENGTH) {
    return invalid(p, `the pattern is longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  const pattern = withoutDotSlash(p);
  if (pattern === '') return invalid(p, 'the pattern is empty');
  if (pattern.startsWith('/') || pattern.startsWith('\\') || /^[A-Za-z]:([\\/]|$)/.test(pattern)) {
    return invalid(pattern, 'absolute paths are not allowed; patterns are relative to the topic directory');
  }
  if (pattern.split(/[\\/]/).includes('..')) {
    return invalid(pattern, '`..` segments are not allowed; patterns cannot leave the topic directory');
  }
  if (pattern === '**') return { kind: 'glob', pattern }; // the common one, known without picomatch
  if (!mayBeGlob(pattern) || !machinery(engine).picomatch.scan(pattern).isGlob) return { kind: 'exact', pattern };
  if (nesting(pattern) > MAX_GLOB_NESTING) {
    return invalid(pattern, `braces and parentheses are nested more than ${MAX_GLOB_NESTING} levels deep`);
  }
  const compiled = compile(pattern, machinery(engine));
  if (typeof compiled === 'string') return invalid(pattern, compiled);
  return { kind: 'glob', pattern };
}

/** The deepest nesting of `{` and `(` in a glob (escapes skipped). */
function nesting(glob: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '{' || c === '(') max = Math.max(max, ++depth);
    else if ((c === '}' || c === ')') && depth > 0) depth--;
  }
  return max;
}

/** A compiled glob: the native regex when it is safe to run (see
 *  `backtracksLinearly`), else the NFA. */
type Compiled = { native: RegExp } | { nfa: NfaType };

// Compiled globs, by pattern: a call may repeat a pattern, and classifying
// then matching compiles each once. Bounded, oldest dropped first.
const cache = new Map<string, Compiled | string>();
const CACHE_SIZE = 256;

/**
 * Whether the native (backtracking) engine runs this glob's regex in time
 * linear in the slug: no braces, parentheses, extglobs or escapes, at most
 * one `**` segment and at most one run of `*` in every other segment. Each
 * `*` then stops at the next `/` and only the `**` has choices to retry, so
 * a test costs O(slug length x pattern length). This covers what models
 * send almost always (a star, a globstar, a directory followed by either)
 * and keeps it at native speed; everything else goes through the NFA.
 */
export function backtracksLinearly(glob: string): boolean {
  if (/[{}()|\\]/.test(glob)) return false;
  let globstars = 0;
  for (const segment of glob.split('/')) {
    if (segment === '**') globstars++;
    else if ((segment.match(/\*+/g)?.length ?? 0) > 1) return false;
  }
  return globstars <= 1;
}

/** The compiled form of a (normalised) glob, or why it cannot be compiled. */
function compile(pattern: string, engine: GlobEngine): Compiled | string {
  let hit = cache.get(pattern);
  if (hit === undefined) {
    hit = build(pattern, engine);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(pattern, hit);
  }
  return hit;
}

function build(pattern: string, engine: GlobEngine): Compiled | string {
  // picomatch lets `dir/**` match `dir`; `dir/**/*` requires one more level.
  const glob = pattern.endsWith('/**') ? pattern + '/*' : pattern;
  const { picomatch, Nfa } = engine;
  let source: string;
  try {
    source = `^(?:${picomatch.makeRe(glob, GLOB_OPTIONS, true) as unknown as string})$`;
    // bounded: compiled for every glob, but run only on those that backtrack
    // linearly (`backtracksLinearly`); the others run on the automaton.
    const native = new RegExp(source);
    if (backtracksLinearly(glob)) return { native };
  } catch (err) {
    // Engines differ; V8 quotes the whole regex, which helps no one.
    const why = (err instanceof Error ? err.message : String(err)).replace(/^Invalid regular expression: (\/.*\/[a-z]*: )?/s, '');
    return `not a valid glob: ${why.length > 100 ? `${why.slice(0, 100)}…` : why}`;
  }
  try {
    return { nfa: new Nfa(source) };
  } catch (err) {
    if (err instanceof NfaError) return `not a supported glob: ${err.message}`;
    throw err;
  }
}

/** `**` without `dot`: any slug none of whose components starts with `.`. */
function matchesEverythingVisible(slug: string): boolean {
  return slug.charCodeAt(0) !== 46 && !slug.includes('/.');
}

/** Compiles a (normalised) glob into a slug matcher. `dir/**` matches only
 *  slugs strictly below `dir/`, never the slug `dir` itself. A pattern that
 *  cannot be compiled matches nothing. */
export function compileGlob(pattern: string, engine: GlobEngine | undefined): GlobMatcher {
  // `**` (load everything) is the most common glob: what its regex does,
  // without running it on every slug (tests/unit/fast-paths.test.ts).
  if (pattern === '**') return matchesEverythingVisible;
  const compiled = compile(pattern, machinery(engine));
  if (typeof compiled === 'string') return () => false;
  if ('native' in compiled) {
    const re = compiled.native;
    return (slug: string) => re.test(slug);
  }
  const nfa = compiled.nfa;
  return (slug: string, budget: Budget) => {
    try {
      return nfa.test(slug, budget);
    } catch (err) {
      if (err instanceof NfaBudgetError) throw new PatternTooExpensive();
      throw err;
    }
  };
}
