// Arguments of a learn call, exactly as a model sends them, validated against
// the RFD's schema: {"topic": string, "subjects"?: string | string[] | null}.
// Model input is untrusted: its size and shape are bounded before any work.

export interface LearnArgs {
  topic: string;
  /** null: list the topic. */
  subjects: string[] | null;
}

export type ArgsResult = { ok: true; args: LearnArgs } | { ok: false; problem: string };

/** Bounds on model-supplied input. */
export const LIMITS = { jsonBytes: 1 << 20, patterns: 1000, patternLength: 1024 } as const;

const KEYS = new Set(['topic', 'subjects']);

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export function parseLearnArgs(json: string): ArgsResult {
  if (json.length > LIMITS.jsonBytes) return { ok: false, problem: `the arguments are larger than ${LIMITS.jsonBytes} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    const why = e instanceof RangeError ? 'nested too deeply' : (e as Error).message;
    return { ok: false, problem: `the arguments are not valid JSON (${why})` };
  }
  return validateLearnArgs(value);
}

export function validateLearnArgs(value: unknown): ArgsResult {
  if (typeName(value) !== 'object') return { ok: false, problem: `the arguments must be a JSON object, not ${typeName(value)}` };
  const obj = value as Record<string, unknown>;
  const unknown = Object.keys(obj).filter((k) => !KEYS.has(k));
  if (unknown.length > 0) return { ok: false, problem: `unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')}` };
  if (!('topic' in obj)) return { ok: false, problem: '"topic" is required' };
  if (typeof obj.topic !== 'string') return { ok: false, problem: `"topic" must be a string, not ${typeName(obj.topic)}` };
  if (obj.topic.length === 0) return { ok: false, problem: '"topic" must not be empty' };
  const s = obj.subjects;
  if (s === undefined || s === null) return { ok: true, args: { topic: obj.topic, subjects: null } };
  if (typeof s === 'string') return checkPatterns(obj.topic, [s]);
  if (!Array.isArray(s)) return { ok: false, problem: `"subjects" must be a string, an array of strings or null, not ${typeName(s)}` };
  if (s.length > LIMITS.patterns) return { ok: false, problem: `"subjects" has ${s.length} patterns; at most ${LIMITS.patterns} are accepted` };
  for (let i = 0; i < s.length; i++) {
    if (typeof s[i] !== 'string') return { ok: false, problem: `"subjects"[${i}] must be a string, not ${typeName(s[i])}` };
  }
  // An empty list asks for nothing in particular: the listing.
  if (s.length === 0) return { ok: true, args: { topic: obj.topic, subjects: null } };
  return checkPatterns(obj.topic, s as string[]);
}

function checkPatterns(topic: string, patterns: string[]): ArgsResult {
  for (const p of patterns) {
    if (p.length > LIMITS.patternLength) {
      return { ok: false, problem: `a pattern is ${p.length} characters long; at most ${LIMITS.patternLength} are accepted` };
    }
  }
  return { ok: true, args: { topic, subjects: patterns } };
}
