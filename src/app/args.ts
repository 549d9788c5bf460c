// Arguments of a learn call, exactly as a model sends them, validated against
// the RFD's schema: {"topic": string, "subjects"?: string | string[] | null}.
// Model input is untrusted: its size and shape are bounded before any work,
// and every message about it stays short, however large the input.

import { readSync } from 'node:fs';
import { typeName, utf8Length } from '../shared/text.ts';

export interface LearnArgs {
  topic: string;
  /** null: list the topic. */
  subjects: string[] | null;
}

export type ArgsResult = { ok: true; args: LearnArgs } | { ok: false; problem: string };

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

const KEYS = new Set(['topic', 'subjects']);


/** At most `max` items, then how many more. */
function some(items: string[], max = 5): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/** A key or value as shown in a message: JSON-quoted, cut to 40 characters. */
function show(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

/** A tool call's arguments as JSON text (`kb learn --args`, `kb search
 *  --args`...), parsed within the bounds every tool's input has: at most
 *  LIMITS.jsonBytes, and a short reason when it is not JSON. */
export function parseToolJson(json: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  // Cheap test first: a UTF-8 byte is at most one UTF-16 code unit.
  if (json.length > LIMITS.jsonBytes || utf8Length(json) > LIMITS.jsonBytes) {
    return { ok: false, problem: `the arguments are larger than ${LIMITS.jsonBytes} bytes` };
  }
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch (e) {
    const why = e instanceof RangeError ? 'nested too deeply' : (e as Error).message;
    return { ok: false, problem: `the arguments are not valid JSON (${why.length > 200 ? `${why.slice(0, 200)}…` : why})` };
  }
}

export function parseLearnArgs(json: string): ArgsResult {
  const parsed = parseToolJson(json);
  return parsed.ok ? validateLearnArgs(parsed.value) : parsed;
}

export function validateLearnArgs(value: unknown): ArgsResult {
  if (typeName(value) !== 'object') return { ok: false, problem: `the arguments must be a JSON object, not ${typeName(value)}` };
  const obj = value as Record<string, unknown>;
  const unknown = Object.keys(obj).filter((k) => !KEYS.has(k));
  if (unknown.length > 0) return { ok: false, problem: `unknown argument${unknown.length > 1 ? 's' : ''} ${some(unknown.map(show))}` };
  if (!('topic' in obj)) return { ok: false, problem: '"topic" is required' };
  if (typeof obj.topic !== 'string') return { ok: false, problem: `"topic" must be a string, not ${typeName(obj.topic)}` };
  if (obj.topic.length === 0) return { ok: false, problem: '"topic" must not be empty' };
  if (obj.topic.length > LIMITS.topicLength) {
    return { ok: false, problem: `"topic" is ${obj.topic.length} characters long; at most ${LIMITS.topicLength} are accepted` };
  }
  const s = obj.subjects;
  if (s === undefined || s === null) return { ok: true, args: { topic: obj.topic, subjects: null } };
  if (typeof s === 'string') return checked(obj.topic, [s]);
  if (!Array.isArray(s)) return { ok: false, problem: `"subjects" must be a string, an array of strings or null, not ${typeName(s)}` };
  if (s.length > LIMITS.patterns) return { ok: false, problem: patternCountProblem('"subjects" has', s.length) };
  for (let i = 0; i < s.length; i++) {
    if (typeof s[i] !== 'string') return { ok: false, problem: `"subjects"[${i}] must be a string, not ${typeName(s[i])}` };
  }
  // An empty list asks for nothing in particular: the listing.
  if (s.length === 0) return { ok: true, args: { topic: obj.topic, subjects: null } };
  return checked(obj.topic, s as string[]);
}

function checked(topic: string, patterns: string[]): ArgsResult {
  const problem = patternsProblem(patterns);
  return problem === undefined ? { ok: true, args: { topic, subjects: patterns } } : { ok: false, problem };
}

function patternCountProblem(has: string, n: number): string {
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
 *  and `parseLearnArgs` then refuses it, without all of it ever being held
 *  in memory. */
export function readArgs(fd: number): string {
  return readInput(fd, LIMITS.jsonBytes);
}

/** Reads text from a file descriptor, never more than one byte past
 *  `limit` (the caller refuses a longer text). */
export function readInput(fd: number, limit: number): string {
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
  // A byte-order mark is kept (and refused by JSON.parse), so the text of
  // an input cut past the limit is still longer than the limit.
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(buf.subarray(0, filled));
}
