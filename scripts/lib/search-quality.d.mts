// Types of scripts/lib/search-quality.mjs (what scripts/search-methods.ts uses).

export interface LabelledQuestion {
  q: string;
  expect: string[];
  typo?: boolean;
}

export interface Metrics {
  recallAt5: number;
  mrr: number;
  questions: number;
}

/** The labelled sets: a name and the file that holds its questions. */
export const SETS: { name: string; file: string; goal?: string }[];

/** recall@5 and MRR over the top 10 of `rankings` (per question). */
export function metrics(questions: readonly LabelledQuestion[], rankings: readonly (readonly string[])[], only?: (q: LabelledQuestion) => boolean): Metrics;

/** The 1-based rank of a question's first expected answer (99: none). */
export function rankOf(q: LabelledQuestion, ranking: readonly string[]): number;
