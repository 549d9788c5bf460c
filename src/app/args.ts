// Tool-call arguments from a model (untrusted): their bounds, their JSON text
// parsed within them, the learn tool's limits on patterns, and reading them
// from stdin. Each tool checks its arguments against its schema
// (app/tools/validate.ts), in its own module (app/tools/<name>.ts).

import { readSync } from 'node:fs';
import { invalidUtf8At, utf8Length } from '../shared/text.ts';

export interface LearnArgs {
  topic: string;
  /** null: list the topic. */
  subjects: string[] | null;
}

/** Bounds on a search query: characters, and distinct terms looked up. */
export const QUERY_LIMITS = { chars: 4096, terms: 64 } as const;

/** Results a search returns by default, and at most. */
export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 50;

/** A remembered text's size, at most (UTF-8 bytes). */
export const REMEMBER_MAX_BYTES = 8 * 1024 * 1024;
/** Tags at most, and a tag's and a description's length. */
export const REMEMBER_LIMITS = { tags: 20, tag: 64, description: 1024 } as const;

/** Bounds on model-supplied input: the JSON text (UTF-8 bytes), the number
 *  of patterns, the length of each pattern and of all of them together, and
 *  the length of the topic. */
export const LIMITS = {
  jsonBytes: 1 << 20,
  patterns: 1000,
  patternLength: 1024,
  totalPatternLength: 1 << 16,
  topicLength: 1024,
} as const;

/** A tool call's arguments as JSON text (`kb learn --args`, `kb search
 *  --args`...), parsed within the bounds every tool's input has: at most
 *  `limit` bytes (the tool's `argsBytes`), and a short reason when it is
 *  not JSON. */
export function parseToolJson(json: string, limit: number = LIMITS.jsonBytes): { ok: true; value: unknown } | { ok: false; problem: string } {
  // Cheap test first: a UTF-8 byte is at most one UTF-16 code unit.
  if (json.length > limit || utf8Length(json) > limit) return { ok: false, problem: tooLargeProblem(limit) };
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch (e) {
    const why = e instanceof RangeError ? 'nested too deeply' : (e as Error).message;
    return { ok: false, problem: `the arguments are not valid JSON (${why.length > 200 ? `${why.slice(0, 200)}…` : why})` };
  }
}

/** Arguments past a tool's limit (`limit` bytes). */
export function tooLargeProblem(limit: number): string {
  return `the arguments are larger than ${limit} bytes`;
}

export function patternCountProblem(has: string, n: number): string {
  return `${has} ${n} patterns; at most ${LIMITS.patterns} are accepted`;
}

/**
 * The limits on patterns from a model or a client (the learn tool's
 * `subjects`, the MCP prompt's `knowledge` argument): how many, how long
 * each, how long in all. The problem, or undefined. `list` names the list,
 * `item(i)` one of several patterns.
 */
export function patternsProblem(patterns: readonly string[], list = '"subjects" has', item = (i: number) => `"subjects"[${i}]`): string | undefined {
  if (patterns.length > LIMITS.patterns) return patternCountProblem(list, patterns.length);
  let total = 0;
  for (let i = 0; i < patterns.length; i++) {
    const p = patterns[i];
    if (p.length > LIMITS.patternLength) {
      const which = patterns.length > 1 ? item(i) : 'the pattern';
      return `${which} is ${p.length} characters long; at most ${LIMITS.patternLength} are accepted`;
    }
    total += p.length;
  }
  if (total > LIMITS.totalPatternLength) {
    return `the patterns have ${total} characters in all; at most ${LIMITS.totalPatternLength} are accepted`;
  }
  return undefined;
}

/** Reads the arguments from a file descriptor (stdin for `--args -`), but
 *  never more than one byte past the limit: a larger input is cut there,
 *  and `parseToolJson` then refuses it, without all of it ever being held
 *  in memory. */
export function readArgs(fd: number): string {
  return readInput(fd, LIMITS.jsonBytes);
}

/** Reads text from a file descriptor, never more than one byte past
 *  `limit` (the caller refuses a longer text). */
export function readInput(fd: number, limit: number): string {
  // A byte-order mark is kept (and refused by JSON.parse), so the text of
  // an input cut past the limit is still longer than the limit.
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(readInputBytes(fd, limit));
}

/** Reads bytes from a file descriptor, never more than one byte past
 *  `limit`. */
export function readInputBytes(fd: number, limit: number): Uint8Array {
  const buf = new Uint8Array(limit + 1);
  let filled = 0;
  while (filled < buf.length) {
    let n: number;
    try {
      n = readSync(fd, buf, filled, buf.length - filled, null);
    } catch (err) {
      if ((err as { code?: string }).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if ((err as { code?: string }).code === 'EOF') break;
      throw err;
    }
    if (n === 0) break;
    filled += n;
  }
  return buf.subarray(0, filled);
}

/** Text read from stdin for a write, as UTF-8 (a byte-order mark kept,
 *  as given), or why not: kb never changes a byte of what it is told to
 *  remember, so invalid UTF-8 is refused, naming its first bad byte's
 *  offset. `tooLong`: the input went past `limit`. */
export function utf8Input(bytes: Uint8Array, limit: number): { text: string } | { tooLong: true } | { invalidAt: number; byte: number } {
  if (bytes.length > limit) return { tooLong: true };
  const at = invalidUtf8At(bytes);
  if (at >= 0) return { invalidAt: at, byte: bytes[at] };
  return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
}
