// The glob module's one face. Everything else in glob/ is private to it.
//
// Patterns are compiled in an explicit, asynchronous step
// (`compilePatterns`, `pathGlob`) that loads the glob machinery (picomatch
// and the linear-time automaton, engine.ts) only when some pattern may
// need it; matching a compiled pattern is synchronous. The machinery is a
// sixth of the code a start loads, and most starts (kb prompt, kb schema)
// meet no glob: a pattern without any of the characters glob syntax begins
// with (* ? [ { and the `(` of an extglob) is never a glob, by picomatch's
// own rules (tests/unit/glob/globs.test.ts checks this against picomatch),
// and `**` (load everything) is known without it.
//
// Subject patterns come from models and are untrusted: see pattern.ts for
// how they are bounded (length, nesting, a matching budget linear in the
// topic's size).

import type { GlobEngine } from './engine.ts';
import { compileWith, mayBeGlob, withoutDotSlash, type CompiledPattern } from './pattern.ts';
import { some } from '../shared/arrays.ts';

export { Budget } from './budget.ts';
export { mayBeGlob, withoutDotSlash, MAX_PATTERN_LENGTH, PatternTooExpensive } from './pattern.ts';
export type { CompiledPattern, PatternKind } from './pattern.ts';

let engine: Promise<GlobEngine> | undefined;

/** The glob machinery, loaded once (a cached promise). */
function loadEngine(): Promise<GlobEngine> {
  return (engine ??= import('./engine.ts').then((m) => m.engine));
}

/** Whether compiling `pattern` may need the machinery: it may be a glob,
 *  and is not `**`, which pattern.ts knows without it. */
export function needsEngine(pattern: string): boolean {
  return mayBeGlob(pattern) && withoutDotSlash(pattern) !== '**';
}

/** Classifies and compiles subject patterns, in order: each is exact, a
 *  glob (with its matcher), or invalid (with the reason). Loads the glob
 *  machinery first when one of them may be a glob. */
export async function compilePatterns(patterns: readonly string[]): Promise<CompiledPattern[]> {
  const machinery = some(patterns, needsEngine) ? await loadEngine() : undefined;
  return compileWith(patterns, machinery);
}

/** A file-path glob (configuration `extends` entries): the directory part
 *  before the first glob segment, and a matcher for paths relative to it.
 *  Hidden files match as any other (`*` matches `.x`), as in JP, whose
 *  `glob` crate leaves `require_literal_leading_dot` off. */
export interface PathGlob {
  base: string;
  /** The glob part, relative to `base`. */
  glob: string;
  matches(path: string): boolean;
}

/** `pattern` as a file-path glob, or undefined when it is a plain path. */
export async function pathGlob(pattern: string): Promise<PathGlob | undefined> {
  if (!mayBeGlob(pattern)) return undefined;
  const { picomatch } = await loadEngine();
  const scan = picomatch.scan(pattern);
  if (!scan.isGlob) return undefined;
  const matches = picomatch(scan.glob, { dot: true });
  return { base: scan.base, glob: scan.glob, matches: (p) => matches(p) };
}
