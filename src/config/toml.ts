// Parsing a TOML configuration file. A syntax error becomes a diagnostic;
// the file then contributes nothing.
//
// Most files take the fast path (toml-fast.ts), which returns exactly what
// the full parser would or gives up. The full parser, @iarna/toml, is
// loaded only for a file that needs it, by an awaited import whose promise
// is kept: most starts never load it. Only the parser is loaded: the
// package's main module also loads its streaming parser, which pulls in
// node:stream (about 1 ms).
//
// A maintained parser in place of both, smol-toml 1.9, was measured and not
// taken: start-up did not gain (kb prompt on examples/ a little slower), and
// it does not accept what kb must: it parses TOML 1.1 (`\e` and `\xHH`
// escapes, a trailing comma in an inline table, times without seconds),
// which jp refuses, with no switch to TOML 1.0; it refuses 2^63-1 by
// default; and its errors read and point otherwise (a duplicate key at the
// key's start, not after it), so kb check's messages would change.
import type { Problem } from '../shared/problem.ts';
import { parseSimpleToml } from './toml-fast.ts';

export type ParseResult = { data: Record<string, unknown> } | { diagnostic: Problem };

type FullParser = (text: string) => unknown;

let full: Promise<FullParser> | undefined;

/** The full TOML parser, loaded once. */
function fullParser(): Promise<FullParser> {
  return (full ??= import('@iarna/toml/parse-string.js').then((m) => m.default as FullParser));
}

/** `label` is the file as shown in messages. */
export async function parseToml(text: string, label: string): Promise<ParseResult> {
  const source = stripBom(text);
  const simple = parseSimpleToml(source);
  if (simple !== undefined) return { data: simple };
  const parse = await fullParser();
  try {
    return { data: parse(source) as Record<string, unknown> };
  } catch (err) {
    return source.includes('\r\n') ? parseCrlf(parse, source, label) : diagnostic(err, label);
  }
}

/** A file whose lines end in CRLF (Windows editors, git's autocrlf): TOML
 *  allows it, but @iarna/toml refuses a comment ending in one ("Control
 *  characters ... are not allowed in comments"). Such a file is parsed
 *  again with LF line ends, which TOML lets a parser normalize to (it
 *  changes the value of no key but a multi-line string's line ends). */
function parseCrlf(parse: FullParser, source: string, label: string): ParseResult {
  try {
    return { data: parse(source.replaceAll('\r\n', '\n')) as Record<string, unknown> };
  } catch (err) {
    return diagnostic(err, label);
  }
}

function diagnostic(err: unknown, label: string): ParseResult {
  const e = err as { message?: string; line?: number; col?: number };
  // @iarna/toml: 0-based line/col, message "<what> at row R, col C, pos P:\n<excerpt>".
  const what = String(e.message ?? err).split('\n')[0].replace(/ at row \d+, col \d+, pos \d+:?$/, '');
  const at = typeof e.line === 'number' && typeof e.col === 'number' ? `:${e.line + 1}:${e.col + 1}` : '';
  return { diagnostic: { severity: 'error', code: 'toml-syntax', message: `invalid TOML: ${what}`, where: label + at } };
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
