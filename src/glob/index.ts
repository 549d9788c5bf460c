// Loading the glob machinery (glob-engine.ts: picomatch and the automaton)
// only when a pattern may need it. It is a sixth of the code a start loads,
// and most starts (kb prompt, kb schema) meet no glob: a pattern without
// any of the characters glob syntax begins with (* ? [ { and the `(` of an
// extglob) is never a glob, by picomatch's own rules
// (tests/unit/kb/globs.test.ts checks this against picomatch).
//
// Commands load the machinery before the synchronous work when their
// patterns may need it (cli/context.ts). A pattern that reaches it without
// that throws NeedsGlobEngine, which the configuration loader turns into a
// load and a second read (extends globs), and which anywhere else is a bug.

import type { GlobEngine } from './engine.ts';

let loaded: GlobEngine | undefined;

/** Thrown when a pattern needs the glob machinery before it was loaded. */
export class NeedsGlobEngine extends Error {
  constructor() {
    super('a glob needs the glob machinery, which was not loaded (loadGlobEngine)');
  }
}

/** Loads the glob machinery (once). */
export async function loadGlobEngine(): Promise<void> {
  loaded ??= (await import('./engine.ts')).engine;
}

/** The glob machinery; throws NeedsGlobEngine when it is not loaded. */
export function globEngine(): GlobEngine {
  if (loaded === undefined) throw new NeedsGlobEngine();
  return loaded;
}

/** A character glob syntax needs: without one, picomatch never reads a
 *  pattern as a glob. */
const GLOB_CHARACTER = /[*?[{(]/;

/** Whether `pattern` may be a glob. */
export function mayBeGlob(pattern: string): boolean {
  return GLOB_CHARACTER.test(pattern);
}

/** `pattern` without its leading `./`s (a leading `./` is ignored). */
export function withoutDotSlash(pattern: string): string {
  let p = pattern;
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}

/** Whether using `pattern` may need the machinery: it may be a glob, and
 *  is not `**` (load everything), which pattern.ts knows without it. */
export function needsGlobEngine(pattern: string): boolean {
  return mayBeGlob(pattern) && withoutDotSlash(pattern) !== '**';
}
