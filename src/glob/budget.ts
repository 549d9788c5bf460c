// What the glob matcher needs without loading the machinery (index.ts): the
// matching budget a learn call shares among its patterns, and the errors
// the automaton (nfa.ts) throws.

export class NfaError extends Error {}
export class NfaBudgetError extends Error {}

/** Steps a learn call's globs may take: a base plus so many per character
 *  matched, so the total stays linear in the topic's size (nfa.ts). */
export class Budget {
  steps = 0;
  chars = 0;
  constructor(
    readonly base = 20_000_000,
    readonly perChar = 64,
  ) {}
  get limit(): number {
    return this.base + this.perChar * this.chars;
  }
}
