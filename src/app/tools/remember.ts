// The remember tool: a new subject in a writable topic (docs/guide/search-and-memory.md,
// "Remembering"), served over MCP only for the topics `kb mcp --write`
// names. Fixed schema; the description names the writable topics. The
// operation is app/memory.ts; render/memory.ts writes its outcome.
import { badSlug } from '../../kb/write/given.ts';
import { jsonQuoted } from '../../shared/controls.ts';
import { utf8Length } from '../../shared/text.ts';
import type { JsonSchemaObject } from '../../shared/tool.ts';
import { REMEMBER_LIMITS, REMEMBER_MAX_BYTES } from '../args.ts';
import type { RememberArgs } from '../memory.ts';
import { topicLines, type Tool, type ToolTopic } from './tool.ts';
import { checkArgs, type Parsed, type Rules } from './validate.ts';

export const REMEMBER_TOOL_NAME = 'remember';

export { REMEMBER_LIMITS, REMEMBER_MAX_BYTES };

export const REMEMBER_PARAMETERS = {
  type: 'object',
  properties: {
    topic: { type: 'string', description: 'The topic ID or title to remember in (one of the writable topics).' },
    text: { type: 'string', description: 'What to remember, in Markdown: one fact, decision or instruction, written so that it can be understood on its own later.' },
    slug: { type: 'string', description: 'The new subject\'s slug (letters, digits, ".", "_", "-"; "/" for a folder). Omit to derive a short one from the text.' },
    description: { type: 'string', description: 'One line saying what the subject is about, shown in listings. Omit to use the text\'s first line.' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: REMEMBER_LIMITS.tags, description: 'Tags for the subject. Omit for none.' },
    force: { type: 'boolean', description: 'Write even when a subject says nearly the same, or looks like an older version of this one (never when an identical one exists). Omit for false.' },
  },
  required: ['topic', 'text'],
  additionalProperties: false,
} as const satisfies JsonSchemaObject;

const REMEMBER_NULL_DESCRIPTIONS = {
  slug: REMEMBER_PARAMETERS.properties.slug.description.replace('Omit to', 'Use null to'),
  description: REMEMBER_PARAMETERS.properties.description.description.replace('Omit to', 'Use null to'),
  tags: 'Tags for the subject. Use null for none.',
  force: 'Write even when a subject says nearly the same, or looks like an older version of this one (never when an identical one exists). Use null for false.',
} as const;

/** The most a write call's arguments hold as JSON: a text of
 *  REMEMBER_MAX_BYTES, each byte escaped at worst as two characters, and
 *  room for the rest. */
export const WRITE_ARGS_BYTES = REMEMBER_MAX_BYTES * 2 + 65536;

/** The writable topics, as the write tools' descriptions name them. */
export function writableLines(topics: readonly ToolTopic[]): string {
  return topics.length > 0 ? `Writable topics:\n${topicLines(topics)}` : 'No topic is writable at the moment.';
}

/** The rules of what a write call says (its text, description and tags),
 *  the same for remember and revise (tools/revise.ts). */
export const WRITE_RULES: Rules = {
  text: {
    check: (text: string) => {
      if (text.trim() === '') return { says: 'must not be empty' };
      const bytes = utf8Length(text);
      if (bytes > REMEMBER_MAX_BYTES) return { says: `is ${bytes} bytes long; at most ${REMEMBER_MAX_BYTES} are accepted` };
      if (text.includes('\0')) return { says: 'holds a NUL character (a text subject cannot)' };
      return { value: text };
    },
  },
  description: {
    check: (description: string) => {
      const d = description.replace(/\s+/g, ' ').trim();
      if (d === '') return { says: 'must not be empty' };
      if (d.length > REMEMBER_LIMITS.description) return { says: `is ${d.length} characters long; at most ${REMEMBER_LIMITS.description}` };
      return { value: d };
    },
  },
  tags: {
    item: () => 'every tag',
    each: (t: string) => {
      const tag = t.trim();
      return tag === '' || tag.length > REMEMBER_LIMITS.tag || /[\p{Cc}]/u.test(tag) ? `tag ${jsonQuoted(t.slice(0, 80))} must be 1-${REMEMBER_LIMITS.tag} printable characters` : undefined;
    },
    check: (tags: string[]) => ({ value: [...new Set(tags.map((t) => t.trim()))] }),
  },
};

const RULES: Rules = {
  topic: {
    check: (topic: string) => (topic.length > 1024 ? { says: `is ${topic.length} characters long; at most 1024 are accepted` } : { value: topic }),
  },
  slug: {
    check: (slug: string) => {
      const s = slug.replace(/\.md$/i, '');
      const bad = badSlug(s);
      return bad ? { says: `${jsonQuoted(slug.length > 80 ? `${slug.slice(0, 80)}…` : slug)} cannot name a new subject: ${bad}` } : { value: s };
    },
  },
  ...WRITE_RULES,
};

/** A remember call's arguments (untrusted: a model's, or the command
 *  line's). */
export function validateRememberArgs(value: unknown): Parsed<RememberArgs> {
  const checked = checkArgs(REMEMBER_PARAMETERS, value, RULES);
  if (!checked.ok) return checked;
  const a = checked.args as { topic: string; text: string; slug?: string; description?: string; tags?: string[]; force?: boolean };
  const args: RememberArgs = { topic: a.topic, text: a.text, tags: a.tags ?? [], force: a.force ?? false };
  if (a.slug !== undefined) args.slug = a.slug;
  if (a.description !== undefined) args.description = a.description;
  return { ok: true, args };
}

export const remember: Tool<'remember', RememberArgs> = {
  name: REMEMBER_TOOL_NAME,
  title: 'Remember',
  summary: 'Write a new subject to a topic (never a duplicate)',
  instruction: 'saves a new subject to a writable topic (never a duplicate)',
  argsBytes: WRITE_ARGS_BYTES,
  parameters: REMEMBER_PARAMETERS,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  nullDescriptions: REMEMBER_NULL_DESCRIPTIONS,
  access: 'write',
  describe: (topics) =>
    'Save something worth knowing later (a fact, a decision, a preference) as a new subject of the knowledge base: a Markdown file that people review under version control. ' +
    'Search first: an identical subject is never written twice, and one that says the same, or that your text updates (the same fact with a changed value), is named back to you instead of writing: ' +
    'then revise that subject if yours replaces it, or pass force: true only if yours says something new.\n\n' +
    writableLines(topics),
  validate: validateRememberArgs,
  load: () => import('../memory.ts'),
  async run(kb, args, sink, ctx) {
    const { remember: run } = await import('../memory.ts');
    const done = await run(kb, args, { source: ctx.source, ...(ctx.writable !== undefined ? { writable: ctx.writable } : {}) });
    for (const p of done.problems) await sink.problem(p);
    return done;
  },
  whenCut: 'What followed was not shown; ask for fewer results.',
};
