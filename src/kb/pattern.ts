// Subject patterns: classification and glob compilation.
//
// A pattern is a glob when picomatch's `scan` finds glob syntax in it;
// otherwise it is exact (compared to slugs as a plain string). Globs run
// against slugs, whose leading dots are already dropped, so hidden-ness is
// decided from `Subject.hidden`, never here.

import picomatch from 'picomatch';
import type { PatternKind } from './types.ts';

export const MAX_PATTERN_LENGTH = 1024;

export interface ClassifiedPattern {
  kind: PatternKind;
  /** Normalised: leading `./` removed. */
  pattern: string;
  /** Why the pattern is invalid (kind `invalid` only). */
  reason?: string;
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
 *  a `..` segment, or a glob picomatch cannot compile. */
export function classifyPattern(p: string): ClassifiedPattern {
  if (p.includes('\0')) return invalid(p, 'the pattern contains a NUL byte');
  if (p.length > MAX_PATTERN_LENGTH) {
    return invalid(p, `the pattern is longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  let pattern = p;
  while (pattern.startsWith('./')) pattern = pattern.slice(2);
  if (pattern === '') return invalid(p, 'the pattern is empty');
  if (pattern.startsWith('/') || pattern.startsWith('\\') || /^[A-Za-z]:([\\/]|$)/.test(pattern)) {
    return invalid(pattern, 'absolute paths are not allowed; patterns are relative to the topic directory');
  }
  if (pattern.split(/[\\/]/).includes('..')) {
    return invalid(pattern, '`..` segments are not allowed; patterns cannot leave the topic directory');
  }
  if (!picomatch.scan(pattern).isGlob) return { kind: 'exact', pattern };
  try {
    picomatch.makeRe(pattern, GLOB_OPTIONS);
  } catch (err) {
    return invalid(pattern, `not a valid glob: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { kind: 'glob', pattern };
}

/** Compiles a (normalised) glob into a slug matcher. `dir/**` matches only
 *  slugs strictly below `dir/`, never the slug `dir` itself. A pattern that
 *  cannot be compiled matches nothing. */
export function compileGlob(pattern: string): (slug: string) => boolean {
  // picomatch lets `dir/**` match `dir`; `dir/**/*` requires one more level.
  const source = pattern.endsWith('/**') ? pattern + '/*' : pattern;
  try {
    const isMatch = picomatch(source, GLOB_OPTIONS);
    // One argument only: picomatch's matcher returns an object when given a
    // truthy second argument (as `Array.prototype.filter` would pass).
    return (slug: string) => isMatch(slug);
  } catch {
    return () => false;
  }
}
