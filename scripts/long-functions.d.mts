// Types of scripts/long-functions.mjs, for the tests (tests/unit/long-functions.test.ts).

/** One function of a text. */
export interface FoundFunction {
  /** `f`, `C.m`, `get C.x`, the variable or key it is assigned to, or `<anonymous>`. */
  name: string;
  /** The line it starts on (1-based). */
  line: number;
  /** From its first line to its last, inner functions included. */
  lines: number;
  /** The text of its `long:` comment, if it has one. */
  why?: string;
}

export interface LongFunction extends FoundFunction {
  file: string;
}

export const LIMIT: number;
export const PENDING: { file: string; name: string }[];
export function functionsOf(code: string, file?: string): FoundFunction[];
export function sourceFiles(): string[];
export function longFunctions(files?: string[], limit?: number): LongFunction[];
export function problemsOf(long: LongFunction[], pending?: { file: string; name: string }[]): string[];
