// The search tool (kb's own, beside learn): subjects ranked by what they
// say, with a fixed schema; its description names the topics (docs/search-and-memory.md,
// "Search and recall"). The operation is app/search.ts; render/search.ts
// writes its outcome.
import type { JsonSchemaObject } from '../../shared/tool.ts';
import { LIMITS, parseToolJson, QUERY_LIMITS, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from '../args.ts';
import type { SearchArgs } from '../search.ts';
import { LEARN_ANNOTATIONS } from './learn.ts';
import { topicLines, type Tool, type ToolTopic } from './tool.ts';
import { checkArgs, type Parsed, type Rules } from './validate.ts';

export const SEARCH_TOOL_NAME = 'search';

export { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT };

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
  limit: `How many subjects to return at most. Use null for the default (${SEARCH_DEFAULT_LIMIT}).`,
} as const;

export function searchDescription(topics: readonly ToolTopic[]): string {
  const head =
    'Search the knowledge base for subjects about something, when you do not know their slugs. ' +
    'Returns matching subjects, best first, each with its topic, slug, description, a snippet and its size in tokens; load one with the `learn` tool.';
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
};

export type SearchArgsResult = Parsed<SearchArgs>;

/** A search call's arguments as a model sends them (untrusted). */
export function validateSearchArgs(value: unknown): SearchArgsResult {
  const checked = checkArgs(SEARCH_PARAMETERS, value, RULES);
  if (!checked.ok) return checked;
  const { query, topic, limit } = checked.args as { query: string; topic?: string; limit?: number };
  return { ok: true, args: { query, ...(topic !== undefined ? { topic } : {}), limit: limit ?? SEARCH_DEFAULT_LIMIT } };
}

/** A search call's arguments as JSON text (`kb search --args`). */
export function parseSearchArgs(json: string): SearchArgsResult {
  const parsed = parseToolJson(json);
  return parsed.ok ? validateSearchArgs(parsed.value) : parsed;
}

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
  load: () => import('../search.ts'),
  async run(kb, args, sink, ctx) {
    const { search: run } = await import('../search.ts');
    // Bounded by the budget (app/search.ts), far below the cap on one
    // MCP result.
    const found = await run(kb, args, ctx.signal !== undefined ? { signal: ctx.signal } : {});
    for (const p of found.problems) await sink.problem(p);
    return found;
  },
  whenCut: 'What followed was not shown; ask for fewer results.',
};
