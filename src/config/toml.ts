// Parsing a TOML configuration file. A syntax error becomes a diagnostic;
// the file then contributes nothing.
//
// Most files take the fast path (toml-fast.ts), which returns exactly what
// the full parser would or gives up. The full parser (toml-full.ts:
// @iarna/toml's, reading CRLF line ends as TOML does) is loaded only for a
// file that needs it, by an awaited import whose promise is kept: most
// starts never load it. Only the parser is loaded: the package's main
// module also loads its streaming parser, which pulls in node:stream
// (about 1 ms).
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

type FullParser = typeof import('./toml-full.ts').parseFullToml;

let full: Promise<FullParser> | undefined;

/** The full TOML parser, loaded once. */
function fullParser(): Promise<FullParser> {
  return (full ??= import('./toml-full.ts').then((m) => m.parseFullToml));
}

/** `label` is the file as shown in messages. */
export async function parseToml(text: string, label: string): Promise<ParseResult> {
  const source = stripBom(text);
  const simple = parseSimpleToml(source);
  if (simple !== undefined) return { data: simple };
  const parsed = (await fullParser())(source);
  if ('data' in parsed) return parsed;
  const e = parsed.error;
  // 0-based line/col; the message's first line is what went wrong.
  const what = e.message.split('\n')[0].replace(/ at row \d+, col \d+, pos \d+:?$/, '');
  const at = e.line !== undefined && e.col !== undefined ? `:${e.line + 1}:${e.col + 1}` : '';
  return { diagnostic: { severity: 'error', code: 'toml-syntax', message: `invalid TOML: ${what}`, where: label + at } };
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
