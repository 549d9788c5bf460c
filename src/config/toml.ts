// Parsing a TOML configuration file. A syntax error becomes a diagnostic;
// the file then contributes nothing.

// The parser alone: the package's main module also loads its streaming
// parser, which pulls in node:stream at start-up (about 1 ms of every run).
import parseTomlString from '@iarna/toml/parse-string.js';
import type { Diagnostic } from './types.ts';

export type ParseResult = { data: Record<string, unknown> } | { diagnostic: Diagnostic };

/** `label` is the file as shown in messages. */
export function parseToml(text: string, label: string): ParseResult {
  try {
    return { data: parseTomlString(stripBom(text)) as Record<string, unknown> };
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
