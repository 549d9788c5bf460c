// The prompt's listings (`kb prompt --list TOPIC`, KB_PROMPT_LIST, the MCP
// prompt's `list` argument and `kb mcp --list`): the subjects of chosen
// topics, with their descriptions, inside the <knowledge> section, so a
// model knows what exists without a call (as a client lists its skills).
// Opt-in: without a topic to list, nothing here runs, and the section is
// the RFD's. Each listing is the learn tool's (app/listing.ts
// `topicListing`), fitted to what the section's budget leaves, and held
// in the section as data (render/prompt.ts writes it in its place).
import type { Topic } from '../config/types.ts';
import type { Listing } from '../answer/learn.ts';
import { warning, type Problem } from '../shared/problem.ts';
import { MAX_TOKENS_ENV, tokensText } from './budget.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { fitWords, topicListing } from './listing.ts';
import type { Section } from './prompt.ts';

/** Topics listed at most (a bound on hostile input; far above any use). */
const MAX_LISTED = 64;

/** `section` with the listings of the topics `names` names, within the
 *  budget: each topic gets an equal share of what the section leaves
 *  (what one leaves unused goes to the next), and a listing that does not
 *  fit its share is fitted like the learn tool's (descriptions shortened,
 *  folders summed up, then as many lines as fit), with a warning. A name
 *  that is no enabled topic, or a topic with nothing to list, is a
 *  warning. Without names, `section` as it is. */
export async function withListings(kb: KnowledgeBase, section: Section, names: readonly string[], from = '--list'): Promise<Section> {
  if (names.length === 0) return section;
  const problems = [...section.problems];
  const topics = listedTopics(kb, names, from, problems);
  const [costs, listingCosts] = await Promise.all([kb.costs.prompt(), kb.costs.listing()]);
  const listings: Listing[] = [];
  let room = kb.maxTokens - costs.whole(section.prompt) - costs.listings;
  for (let i = 0; i < topics.length; i++) {
    const topic = topics[i];
    const share = Number.isFinite(room) ? Math.floor(room / (topics.length - i)) : room;
    const view = kb.view(topic, true);
    const listing = await topicListing(topic, view, kb.walkLimit, Math.max(0, share - costs.listing(topic.id, undefined)), listingCosts);
    if (listing === undefined || listing.subjects === 0) {
      problems.push(warning('prompt-list', `topic "${topic.id}" has no subjects to list; not listed in the prompt`));
      continue;
    }
    const cost = costs.listing(topic.id, listing);
    if (cost > share) {
      problems.push(warning('budget', `topic "${topic.id}": its listing does not fit in the ~${tokensText(Math.max(0, share))} tokens the prompt has left (--max-tokens, ${MAX_TOKENS_ENV}); not listed`));
      continue;
    }
    if (listing.fit !== undefined) {
      problems.push(warning('budget', `prompt: the listing of topic "${topic.id}" (${listing.subjects} subjects) was shortened to stay within the prompt's ${tokensText(kb.maxTokens)} tokens (${fitWords(listing.fit)})`));
    }
    listings.push(listing);
    room -= cost;
  }
  return { ...section, prompt: listings.length === 0 ? section.prompt : { ...section.prompt, listings }, problems };
}

/** The enabled topics `names` names, each once, at most MAX_LISTED; a
 *  warning for each name that is none, and for names past the bound. */
function listedTopics(kb: KnowledgeBase, names: readonly string[], from: string, problems: Problem[]): Topic[] {
  const topics: Topic[] = [];
  for (const name of names.slice(0, MAX_LISTED)) {
    const topic = kb.resolveTopic(name);
    if (topic === undefined) {
      const valid = kb.topics.filter((t) => t.enable).map((t) => t.id);
      problems.push(warning('prompt-list', `${from}: no enabled topic "${name}"; not listed (topics: ${valid.join(', ') || '(none)'})`));
    } else if (!topics.includes(topic)) topics.push(topic);
  }
  if (names.length > MAX_LISTED) problems.push(warning('prompt-list', `${from}: ${names.length} topics named; only the first ${MAX_LISTED} are listed`));
  return topics;
}
