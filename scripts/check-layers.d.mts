// Types of scripts/check-layers.mjs, for the tests (tests/unit/layers.test.ts).

export type ImportKind = 'import' | 'export' | 'side-effect' | 'dynamic' | 'url' | 'require';

/** One import as written in a source file. */
export interface FoundImport {
  specifier: string;
  kind: ImportKind;
  /** Erased at build time: `import type`, `export type`, `import { type A }`, `typeof import()`. */
  typeOnly: boolean;
  line: number;
}

/** One import of a src/ file, resolved. */
export interface ResolvedImport extends FoundImport {
  /** The importing file, relative to the root ('src/cli.ts'). */
  from: string;
  /** The imported file relative to the root; null for a bare specifier or an unresolved one. */
  to: string | null;
}

export interface Violation {
  importer: string;
  /** A path relative to the root, or the specifier as written (bare or unresolved). */
  imported: string;
  rule: string;
  /** The line printed: `layers: <importer> -> <imported>: <rule>`. */
  text: string;
}

export interface Analysis {
  files: string[];
  imports: ResolvedImport[];
  violations: Violation[];
}

export interface Token {
  type: 'id' | 'str' | 'punct' | 'num';
  value: string;
  line: number;
}

export const RULE5_ALLOW: ReadonlyArray<{ from: string[]; to: string; typeOnly: boolean }>;
export const IO_MODULES: readonly string[];

export function tokenize(src: string): Token[];
export function extractImports(src: string): FoundImport[];
export function analyse(root: string): Analysis;
export function report(analysis: Analysis): string[];
export function main(argv?: string[]): number;
