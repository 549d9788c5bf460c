// A topic's listing, fitted to the token budget: when the whole listing
// is over it, descriptions shorten first (160, then 80 characters, then
// none), then the deepest folders collapse into one line each
// (`- folder/ (N subjects, ~T tokens)`), level by level, and a flat topic
// too large even so lists as many subjects as fit and says how many more
// there are. `learn` with the pattern `folder/` lists inside a folder, by
// the same rules.
import { estimateTokens } from '../kb/content/tokens.ts';
import type { Subject } from '../kb/index/types.ts';
import { renderListing, type Listed, type ListingFit, type ListingTopic } from '../render/learn.ts';
import { BYTES_PER_TOKEN_ESTIMATE, tokensText } from './budget.ts';

/** The listing, and how it was fitted (undefined: it fits as it is). */
export interface FittedListing {
  text: string;
  fit?: ListingFit;
}

const SHORTER = [160, 80, 0];

/** Lists `subjects` (with their descriptions) within `budget` tokens. */
export function fitListing(
  topic: ListingTopic,
  subjects: readonly Subject[],
  about: readonly (string | undefined)[],
  learned: string[],
  budget: number,
  folder?: string,
): FittedListing {
  const listed: Listed[] = subjects.map((s, i) => (about[i] === undefined ? { slug: s.slug } : { slug: s.slug, description: about[i] }));
  const render = (items: readonly Listed[], fit?: ListingFit) => renderListing(topic, items, learned, fit, folder);
  const whole = render(listed);
  if (!Number.isFinite(budget) || estimateTokens(whole) <= budget) return { text: whole };
  const b = tokensText(budget);
  // 1. Shorter descriptions.
  let fit: ListingFit = { budget: b };
  if (about.some((d) => d !== undefined)) {
    for (const chars of SHORTER) {
      fit = { budget: b, descriptionChars: chars };
      const text = render(listed, fit);
      if (estimateTokens(text) <= budget) return { text, fit };
    }
  }
  // 2. The deepest folders, level by level.
  const base = folder === undefined ? 0 : folder.split('/').length;
  let items = listed;
  for (let depth = maxDepth(subjects); depth >= base + 1; depth--) {
    items = collapse(subjects, listed, depth);
    fit = { ...fit, collapsed: true };
    const text = render(items, fit);
    if (estimateTokens(text) <= budget) return { text, fit };
  }
  // 3. As many lines as fit.
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (estimateTokens(render(items.slice(0, mid), { ...fit, omitted: items.length - mid })) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const omittedFit = { ...fit, omitted: items.length - lo };
  return { text: render(items.slice(0, lo), omittedFit), fit: omittedFit };
}

/** Folder levels of the deepest subject (`a/b/c` has 2). */
function maxDepth(subjects: readonly Subject[]): number {
  let max = 0;
  for (const s of subjects) {
    let d = 0;
    for (let i = s.slug.indexOf('/'); i >= 0; i = s.slug.indexOf('/', i + 1)) d++;
    if (d > max) max = d;
  }
  return max;
}

/** The listing with every subject `depth` or more folders deep summed up
 *  in its folder at that depth. Subjects of one folder are next to each
 *  other in slug order. */
function collapse(subjects: readonly Subject[], listed: readonly Listed[], depth: number): Listed[] {
  const out: Listed[] = [];
  let current: { folder: string; subjects: number; bytes: number } | undefined;
  const flush = () => {
    if (current) out.push({ folder: current.folder, subjects: current.subjects, tokens: tokensText(Math.ceil(current.bytes / BYTES_PER_TOKEN_ESTIMATE)) });
    current = undefined;
  };
  for (let i = 0; i < subjects.length; i++) {
    const slug = subjects[i].slug;
    let cut = -1;
    for (let d = 0, at = slug.indexOf('/'); at >= 0; at = slug.indexOf('/', at + 1)) {
      if (++d === depth) {
        cut = at;
        break;
      }
    }
    if (cut < 0) {
      flush();
      out.push(listed[i]);
      continue;
    }
    const folder = slug.slice(0, cut);
    if (current?.folder !== folder) {
      flush();
      current = { folder, subjects: 0, bytes: 0 };
    }
    current.subjects++;
    current.bytes += Math.max(0, subjects[i].size);
  }
  flush();
  return out;
}
