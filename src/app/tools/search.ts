// The search tool (kb's own, beside learn): subjects ranked by what they
// say, with a fixed schema; its description names the topics (docs/guide/search-and-memory.md,
// "Search and recall"). The operation is app/search.ts; render/search.ts
// writes its outcome.
import { facetValue, MAX_FACET } from '../../kb/content/facets.ts';
import { jsonQuoted } from '../../shared/controls.ts';
import type { JsonSchemaObject } from '../../shared/tool.ts';
import { LIMITS, parseToolJson, QUERY_LIMITS, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from '../args.ts';
import type { SearchArgs } from '../search.ts';
import { LEARN_ANNOTATIONS } from './learn.ts';
import { topicLines, type Tool, type ToolTopic } from './tool.ts';
import { checkArgs, type Parsed, type Rules } from './validate.ts';

export const SEARCH_TOOL_NAME = 'search';

export { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT };

/** The most topics and tags one search names. */
export const SEARCH_FILTER_LIMITS = { topics: 64, tags: 16 } as const;

export const SEARCH_PARAMETERS = {
  type: 'object',
  properties: {
    query: {
      type: 'string',
      description: 'What to look for, in words (e.g. "how are releases tagged"). Matches slugs, descriptions, headings and content, best first.',
    },
    topic: {
      type: 'string',
      description: 'The topic ID or title to search. Omit to search every topic.',
    },
    topics: {
      type: 'array',
      items: { type: 'string' },
      maxItems: SEARCH_FILTER_LIMITS.topics,
      description: 'Several topics (IDs or titles) to search together. Omit to search every topic (or the one `topic` names).',
    },
    tags: {
      type: 'array',
      items: { type: 'string' },
      maxItems: SEARCH_FILTER_LIMITS.tags,
      description: 'Only subjects with every one of these tags (frontmatter `tags` or `#tags` in the text; `a` also matches nested tags like `a/b`). Omit for no tag filter.',
    },
    type: {
      type: 'string',
      description: 'Only subjects whose frontmatter `type` is this (any case). Omit for any type.',
    },
    status: {
      type: 'string',
      description: 'Only subjects whose frontmatter `status` is this (any case). Omit for any status.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: SEARCH_MAX_LIMIT,
      description: `How many subjects to return at most (default ${SEARCH_DEFAULT_LIMIT}).`,
    },
  },
  required: ['query'],
  additionalProperties: false,
} as const satisfies JsonSchemaObject;

const SEARCH_NULL_DESCRIPTIONS = {
  topic: 'The topic ID or title to search. Use null to search every topic.',
  topics: 'Several topics (IDs or titles) to search together. Use null to search every topic (or the one `topic` names).',
  tags: 'Only subjects with every one of these tags (frontmatter `tags` or `#tags` in the text; `a` also matches nested tags like `a/b`). Use null for no tag filter.',
  type: 'Only subjects whose frontmatter `type` is this (any case). Use null for any type.',
  status: 'Only subjects whose frontmatter `status` is this (any case). Use null for any status.',
  limit: `How many subjects to return at most. Use null for the default (${SEARCH_DEFAULT_LIMIT}).`,
} as const;

export function searchDescription(topics: readonly ToolTopic[]): string {
  const head =
    'Search the knowledge base for subjects about something, when you do not know their slugs. ' +
    'Returns matching subjects, best first, each with its topic, slug, description, the lines that answer (numbered) and its size in tokens; ' +
    'load one with the `learn` tool, or only some of its lines with `slug:FIRST-LAST` (`guide:120-160`).';
  return topics.length > 0 ? `${head}\n\nTopics:\n${topicLines(topics)}` : `${head}\n\nNo topic has subjects at the moment.`;
}

const RULES: Rules = {
  query: {
    check: (query: string) => {
      if (query.trim() === '') return { says: 'must not be empty' };
      if (query.length > QUERY_LIMITS.chars) return { says: `is ${query.length} characters long; at most ${QUERY_LIMITS.chars} are accepted` };
      return { value: query };
    },
  },
  topic: {
    check: (topic: string) => (topic.length > 1024 ? { says: `is ${topic.length} characters long; at most 1024 are accepted` } : { value: topic }),
  },
  topics: {
    item: () => 'every topic',
    each: (t: string) => (t.length > 1024 ? `topic ${jsonQuoted(t.slice(0, 80))}... is ${t.length} characters long; at most 1024 are accepted` : undefined),
  },
  tags: {
    item: () => 'every tag',
    each: (t: string) => (facetValue(t, true) === '' || t.length > MAX_FACET ? `tag ${jsonQuoted(t.slice(0, 80))} must be 1-${MAX_FACET} characters, not only blanks or #` : undefined),
  },
  type: { check: (v: string) => facetRule(v) },
  status: { check: (v: string) => facetRule(v) },
};

/** A type or status: 1-MAX_FACET characters, not only blanks. */
function facetRule(v: string): { says: string } | { value: string } {
  return facetValue(v) === '' || v.length > MAX_FACET ? { says: `must be 1-${MAX_FACET} characters, not only blanks` } : { value: v };
}

export type SearchArgsResult = Parsed<SearchArgs>;

/** A search call's arguments as a model sends them (untrusted). */
export function validateSearchArgs(value: unknown): SearchArgsResult {
  const checked = checkArgs(SEARCH_PARAMETERS, value, RULES);
  if (!checked.ok) return checked;
  const { query, topic, topics, tags, type, status, limit } = checked.args as { query: string; topic?: string; topics?: string[]; tags?: string[]; type?: string; status?: string; limit?: number };
  return {
    ok: true,
    args: {
      query,
      ...(topic !== undefined ? { topic } : {}),
      ...(topics !== undefined && topics.length > 0 ? { topics } : {}),
      ...(tags !== undefined && tags.length > 0 ? { tags } : {}),
      ...(type !== undefined ? { type } : {}),
      ...(status !== undefined ? { status } : {}),
      limit: limit ?? SEARCH_DEFAULT_LIMIT,
    },
  };
}

/** A search call's arguments as JSON text (`kb search --args`). */
export function parseSearchArgs(json: string): SearchArgsResult {
  const parsed = parseToolJson(json);
  return parsed.ok ? validateSearchArgs(parsed.value) : parsed;
}

/** The call's module, imported once (an import() of a module already
 *  loaded still costs tens of microseconds: a server pays it per call). */
let loaded: Promise<typeof import('../search.ts')> | undefined;
const operation = () => (loaded ??= import('../search.ts'));

export const search: Tool<'search', SearchArgs> = {
  name: SEARCH_TOOL_NAME,
  title: 'Search',
  summary: 'Search the subjects by what they say, best first',
  instruction: 'finds subjects by what they say',
  argsBytes: LIMITS.jsonBytes,
  parameters: SEARCH_PARAMETERS,
  annotations: LEARN_ANNOTATIONS,
  nullDescriptions: SEARCH_NULL_DESCRIPTIONS,
  access: 'read',
  describe: searchDescription,
  validate: validateSearchArgs,
  load: () => operation(),
  async run(kb, args, sink, ctx) {
    const { search: run } = await operation();
    // Bounded by the budget (app/search.ts), far below the cap on one
    // MCP result.
    const found = await run(kb, args, ctx.signal !== undefined ? { signal: ctx.signal } : {});
    for (const p of found.problems) await sink.problem(p);
    return found;
  },
  whenCut: 'What followed was not shown; ask for fewer results.',
};
