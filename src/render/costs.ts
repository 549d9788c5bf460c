// What render/'s text costs (answer/cost.ts), for the operations that fit
// an answer to a token budget. The front ends open the knowledge base with
// COSTS; each part loads its renderer when an operation first asks for it,
// so that a command loads only the renderer of its own answer.
import type { Costs } from '../answer/cost.ts';

export const COSTS: Costs = {
  listing: async () => (await import('./listing.ts')).LISTING_COSTS,
  search: async () => (await import('./search.ts')).SEARCH_COSTS,
  recall: async () => (await import('./search.ts')).RECALL_COSTS,
  prompt: async () => (await import('./prompt.ts')).PROMPT_COSTS,
};
