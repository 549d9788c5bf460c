// The tools kb offers an assistant, defined once and provider-neutral
// (shared/tool.ts says what a definition holds); render/providers.ts turns a
// definition into each provider's tool format (`kb schema --format F`, the
// MCP `tools/list` entry). To add a tool: define it here, write the
// operation behind it as a function of a KnowledgeBase in its own module
// (as learn.ts is), and list it in `KnowledgeBase.tools()` (README,
// "Architecture").
//
// Pure data: this file imports nothing but types.
//
// `learn`'s parameters are the RFD's schema, fixed text included, and never
// change with the configuration; its description names the topics that can
// be learned (README, "The tool"). `search` is kb's own, beside it, with a
// fixed schema too (README, "Search and recall").

import type { JsonSchemaObject, ToolDefinition } from '../shared/tool.ts';

export type { JsonSchema, JsonSchemaObject, JsonType, ToolAnnotations, ToolDefinition } from '../shared/tool.ts';

/** A topic as the learn tool's description names it. */
export interface ToolTopic {
  id: string;
  title?: string;
}

// ---------------------------------------------------------------------------
// learn

export const LEARN_TOOL_NAME = 'learn';

/** The RFD's schema, exactly. */
export const LEARN_PARAMETERS = {
  type: 'object',
  properties: {
    topic: {
      type: 'string',
      description: 'The topic ID or title to learn about.',
    },
    subjects: {
      type: ['string', 'array', 'null'],
      description: 'Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.',
      items: { type: 'string' },
    },
  },
  required: ['topic'],
  additionalProperties: false,
} as const satisfies JsonSchemaObject;

/** `subjects` where it cannot be left out: only the last sentence differs. */
const LEARN_NULL_DESCRIPTIONS = {
  subjects: LEARN_PARAMETERS.properties.subjects.description.replace('Omit to list available subjects.', 'Use null to list available subjects.'),
} as const;

/** `learn` only reads files in the workspace. */
export const LEARN_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** The description when no topic has a subject left to learn (MCP clients
 *  fetch the tool list once, so the tool is listed anyway). */
export const LEARN_NO_TOPICS_DESCRIPTION = 'Learn about knowledge base topics and subjects.\n\nNo topic has subjects to learn at the moment.';

export function learnDescription(topics: ToolTopic[]): string {
  const lines = topics.map((t) => (t.title ? `- ${t.id} (${t.title})` : `- ${t.id}`));
  return `Learn about knowledge base topics and subjects.\n\nAvailable topics:\n${lines.join('\n')}`;
}

/** The learn tool for `topics` (the learnable ones); with none, the
 *  description says so (LEARN_NO_TOPICS_DESCRIPTION). */
export function learnTool(topics: ToolTopic[]): ToolDefinition {
  return {
    name: LEARN_TOOL_NAME,
    title: 'Learn',
    description: topics.length > 0 ? learnDescription(topics) : LEARN_NO_TOPICS_DESCRIPTION,
    parameters: LEARN_PARAMETERS,
    annotations: LEARN_ANNOTATIONS,
    nullDescriptions: LEARN_NULL_DESCRIPTIONS,
  };
}

// ---------------------------------------------------------------------------
// search

export const SEARCH_TOOL_NAME = 'search';

/** Results a search returns by default, and at most. */
export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 50;

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

export function searchDescription(topics: ToolTopic[]): string {
  const lines = topics.map((t) => (t.title ? `- ${t.id} (${t.title})` : `- ${t.id}`));
  const head =
    'Search the knowledge base for subjects about something, when you do not know their slugs. ' +
    'Returns matching subjects, best first, each with its topic, slug, description, a snippet and its size in tokens; load one with the `learn` tool.';
  return topics.length > 0 ? `${head}\n\nTopics:\n${lines.join('\n')}` : `${head}\n\nNo topic has subjects at the moment.`;
}

/** The search tool for `topics` (the enabled ones with subjects). */
export function searchTool(topics: ToolTopic[]): ToolDefinition {
  return {
    name: SEARCH_TOOL_NAME,
    title: 'Search',
    description: searchDescription(topics),
    parameters: SEARCH_PARAMETERS,
    annotations: LEARN_ANNOTATIONS,
    nullDescriptions: SEARCH_NULL_DESCRIPTIONS,
  };
}
