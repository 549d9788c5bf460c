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

// ---------------------------------------------------------------------------
// remember and forget: the write path, served over MCP only for the topics
// the server was started with (`kb mcp --write TOPIC`; README,
// "Remembering"). Fixed schemas; the descriptions name the writable topics.

export const REMEMBER_TOOL_NAME = 'remember';
export const FORGET_TOOL_NAME = 'forget';

/** A remembered text's size, at most (UTF-8 bytes). */
export const REMEMBER_MAX_BYTES = 8 * 1024 * 1024;
/** Tags at most, and a tag's and a description's length. */
export const REMEMBER_LIMITS = { tags: 20, tag: 64, description: 1024 } as const;

export const REMEMBER_PARAMETERS = {
  type: 'object',
  properties: {
    topic: { type: 'string', description: 'The topic ID or title to remember in (one of the writable topics).' },
    text: { type: 'string', description: 'What to remember, in Markdown: one fact, decision or instruction, written so that it can be understood on its own later.' },
    slug: { type: 'string', description: 'The new subject\'s slug (letters, digits, ".", "_", "-"; "/" for a folder). Omit to derive a short one from the text.' },
    description: { type: 'string', description: 'One line saying what the subject is about, shown in listings. Omit to use the text\'s first line.' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: REMEMBER_LIMITS.tags, description: 'Tags for the subject. Omit for none.' },
    force: { type: 'boolean', description: 'Write even when a similar subject exists (never when an identical one does). Omit for false.' },
  },
  required: ['topic', 'text'],
  additionalProperties: false,
} as const satisfies JsonSchemaObject;

const REMEMBER_NULL_DESCRIPTIONS = {
  slug: REMEMBER_PARAMETERS.properties.slug.description.replace('Omit to', 'Use null to'),
  description: REMEMBER_PARAMETERS.properties.description.description.replace('Omit to', 'Use null to'),
  tags: 'Tags for the subject. Use null for none.',
  force: 'Write even when a similar subject exists (never when an identical one does). Use null for false.',
} as const;

export const FORGET_PARAMETERS = {
  type: 'object',
  properties: {
    topic: { type: 'string', description: 'The topic ID or title (one of the writable topics).' },
    slug: { type: 'string', description: 'The exact slug of the subject to remove, as listed by learn.' },
  },
  required: ['topic', 'slug'],
  additionalProperties: false,
} as const satisfies JsonSchemaObject;

function writableLines(topics: ToolTopic[]): string {
  return topics.length > 0 ? `Writable topics:\n${topics.map((t) => (t.title ? `- ${t.id} (${t.title})` : `- ${t.id}`)).join('\n')}` : 'No topic is writable at the moment.';
}

/** The remember tool for the writable `topics`. */
export function rememberTool(topics: ToolTopic[]): ToolDefinition {
  return {
    name: REMEMBER_TOOL_NAME,
    title: 'Remember',
    description:
      'Save something worth knowing later (a fact, a decision, a preference) as a new subject of the knowledge base: a Markdown file that people review under version control. ' +
      'Search first: an identical subject is never written twice, and a similar one is named back to you instead of writing (then pass force: true only if it says something new).\n\n' +
      writableLines(topics),
    parameters: REMEMBER_PARAMETERS,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    nullDescriptions: REMEMBER_NULL_DESCRIPTIONS,
  };
}

/** The forget tool for the writable `topics`. */
export function forgetTool(topics: ToolTopic[]): ToolDefinition {
  return {
    name: FORGET_TOOL_NAME,
    title: 'Forget',
    description:
      'Remove a subject that is wrong or no longer true from the knowledge base (its file is deleted; version control keeps its history). Hidden and disabled subjects cannot be removed.\n\n' +
      writableLines(topics),
    parameters: FORGET_PARAMETERS,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  };
}
