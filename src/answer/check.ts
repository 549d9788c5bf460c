// What `kb check` found (app/check.ts), as render/check.ts writes it.
import type { Problem } from '../shared/problem.ts';
import type { BinarySummary } from './binary.ts';

export interface CheckSummary {
  topics: {
    id: string;
    enabled: boolean;
    /** Subjects that are documents: text files (binary ones apart). */
    subjects: number;
    /** The binary files among its files, and each of them (its slug and
     *  path from the workspace root); absent when none. */
    binary?: BinarySummary & { files: { slug: string; path: string }[] };
    /** estimated tokens of its pre-loaded subjects */ preloadedTokens: number;
    preloaded: number;
    /** `--duplicates`: subjects not compared, their text too short */ tooShort?: number;
  }[];
  diagnostics: Problem[];
}
