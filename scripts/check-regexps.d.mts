// Types of scripts/check-regexps.mjs, for the tests (tests/unit/regexps.test.ts).

/** A RegExp(...) whose pattern is not a constant of its module. */
export interface DynamicEntry {
  file: string;
  /** The call as written, white space collapsed. */
  call: string;
  /** Why its input is bounded (a `bounded:` comment in src/ says it too). */
  bounded?: string;
  /** The patterns it makes, checked like the others. */
  sources?: () => Promise<RegExp[]>;
}

/** A flagged pattern kept, with a `bounded:` comment above it in src/. */
export interface BoundedEntry {
  file: string;
  /** The pattern as written (`/a+$/g`). */
  text: string;
  why: string;
}

export const RULES: Record<string, unknown>;
export const DYNAMIC: DynamicEntry[];
export const BOUNDED: BoundedEntry[];
export function sourceFiles(): string[];
export function hasBoundedComment(code: string, line: number): boolean;
export function check(files?: string[], dynamic?: DynamicEntry[], bounded?: BoundedEntry[]): Promise<{ problems: string[]; checked: number }>;
export function checkTexts(texts: { file: string; code: string }[], dynamic?: DynamicEntry[], bounded?: BoundedEntry[]): Promise<{ problems: string[]; checked: number }>;
