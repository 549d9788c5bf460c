// Parsing a TOML configuration file. A syntax error becomes a diagnostic;
// the file then contributes nothing.

// Most files take the fast path (toml-fast.ts); the full parser, @iarna/toml,
// is loaded only for a file that needs it: `loadFullToml()`, which the
// commands await before reading the configuration again (cli/context.ts)
// when parseToml throws NeedsFullToml. Only the parser is loaded: the
// package's main module also loads its streaming parser, which pulls in
// node:stream (about 1 ms).
import { parseSimpleToml } from './toml-fast.ts';
import type { Diagnostic } from './types.ts';

export type ParseResult = { data: Record<string, unknown> } | { diagnostic: Diagnostic };

let full: ((text: string) => unknown) | undefined;

/** Thrown by parseToml for a file the fast path cannot take while the full
 *  parser is not loaded yet: load it (`loadFullToml`) and read again. */
export class NeedsFullToml extends Error {
  constructor() {
    super('this configuration needs the full TOML parser (loadFullToml)');
  }
}

/** Loads the full TOML parser (once). */
export async function loadFullToml(): Promise<void> {
  full ??= (await import('@iarna/toml/parse-string.js')).default as (text: string) => unknown;
}

/** `label` is the file as shown in messages. */
export function parseToml(text: string, label: string): ParseResult {
  const source = stripBom(text);
  const simple = parseSimpleToml(source);
  if (simple !== undefined) return { data: simple };
  if (full === undefined) throw new NeedsFullToml();
  try {
    return { data: full(source) as Record<string, unknown> };
  } catch (err) {
    const e = err as { message?: string; line?: number; col?: number };
    // @iarna/toml: 0-based line/col, message "<what> at row R, col C, pos P:\n<excerpt>".
    const what = String(e.message ?? err).split('\n')[0].replace(/ at row \d+, col \d+, pos \d+:?$/, '');
    const at = typeof e.line === 'number' && typeof e.col === 'number' ? `:${e.line + 1}:${e.col + 1}` : '';
    return { diagnostic: { severity: 'error', code: 'toml-syntax', message: `invalid TOML: ${what}`, where: label + at } };
  }
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
