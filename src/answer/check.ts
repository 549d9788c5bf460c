// What `kb check` found (app/check.ts), as render/check.ts writes it.
import type { Problem } from '../shared/problem.ts';

export interface CheckSummary {
  topics: {
    id: string;
    enabled: boolean;
    subjects: number;
    /** estimated tokens of its pre-loaded subjects */ preloadedTokens: number;
    preloaded: number;
    /** `--duplicates`: subjects not compared, their text too short */ tooShort?: number;
  }[];
  diagnostics: Problem[];
}
