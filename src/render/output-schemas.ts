// The JSON Schema of each tool's JSON form (render/forms.ts): what
// `kb <tool> --format json` prints, and what an MCP client may be given as
// the tool's `outputSchema` (an object at the top level, as MCP's
// `structuredContent` must be). schemas/kb-<tool>-output.schema.json are
// written from these (`npx bun scripts/output-schemas.ts`; a test holds
// the files to them, and real outputs to the schemas). Draft 2020-12,
// with only keywords draft-07 reads the same way. Data only.
import type { ToolName } from '../answer/tool.ts';

type Schema = { readonly [keyword: string]: unknown };

const string = (description?: string): Schema => (description === undefined ? { type: 'string' } : { type: 'string', description });
const integer = (description?: string): Schema => (description === undefined ? { type: 'integer', minimum: 0 } : { type: 'integer', minimum: 0, description });
const strings = (description?: string): Schema => ({ type: 'array', items: { type: 'string' }, ...(description === undefined ? {} : { description }) });

/** An object with exactly these properties, `required` among them. */
function object(properties: Record<string, Schema>, required: readonly string[] = [], description?: string): Schema {
  return { type: 'object', ...(description === undefined ? {} : { description }), properties, required, additionalProperties: false };
}

/** An object of one kind: `kind` is `name`. */
function kind(name: string, properties: Record<string, Schema>, required: readonly string[] = [], description?: string): Schema {
  return object({ kind: { const: name }, ...properties }, ['kind', ...required], description);
}

const TOPICS = { type: 'array', description: 'The enabled topics.', items: object({ id: string(), title: string() }, ['id']) };

const BAD_ARGUMENTS = kind(
  'bad-arguments',
  { problem: string('What is wrong, as the model is told.'), parameter: string('The parameter the problem is about, if one.') },
  ['problem'],
  'The arguments do not fit the tool\'s schema: nothing ran.',
);

const UNKNOWN_TOPIC = kind('unknown-topic', { topic: string('The topic as the call named it.'), topics: TOPICS }, ['topic', 'topics'], 'No enabled topic has that ID or title.');

const SIMILAR = object({ slug: string(), similarity: { type: 'number', minimum: 0, maximum: 1 } }, ['slug', 'similarity'], 'An existing subject, and how similar it is (rounded to 3 decimals).');

/** A learn call that continues: its arguments. */
const CALL = object({ topic: string(), subjects: strings() }, ['topic', 'subjects'], 'The learn call that continues.');

const MISS_HINT = object(
  {
    suggestions: strings('Up to five visible slugs close to the pattern, best first.'),
    hidden: integer('Hidden subjects a glob skipped.'),
    bundled: integer('Skills\' bundled files a glob skipped.'),
    ignored: object({ slug: string(), path: string(), source: string(), rule: string(), line: integer() }, ['slug', 'path', 'source', 'rule'], 'A file the pattern names that an ignore rule leaves out.'),
  },
  [],
);

const REASONS = ['prefix', 'slash', 'extension', 'dot', 'case', 'file-name', 'skill-file', 'index-page', 'unicode', 'title', 'alias', 'wikilink'];

const NOTE = {
  description: 'Why something asked for was not returned, or was read otherwise.',
  oneOf: [
    kind('already-learned', { slug: string() }, ['slug'], 'Pre-loaded in the system prompt: not returned again.'),
    kind('binary', { slug: string() }, ['slug'], 'A binary file: skipped.'),
    kind('no-match', { pattern: string(), hint: MISS_HINT }, ['pattern']),
    kind('invalid-pattern', { pattern: string(), reason: string() }, ['pattern', 'reason']),
    kind('unreadable', { slug: string(), message: string() }, ['slug', 'message']),
    kind('from-missing', { slug: string() }, ['slug'], 'A continuation from a subject the patterns no longer select.'),
    kind('lines-past-end', { slug: string(), asked: string('The range as asked: `120-160`, `120-`, `120`.'), lines: integer('The lines the subject has.') }, ['slug', 'asked', 'lines'], 'Lines asked for (`slug:120-160`) of a subject that has fewer: nothing loaded.'),
    kind('shared-slug', { slug: string(), path: string('The file loaded, as the subject index names it.'), others: strings('The names (`slug.ext`) that load the other files of that slug.'), more: integer('Other files not named.') }, ['slug', 'path', 'others', 'more'], 'A subject named exactly whose slug other files share: the document was loaded (docs/guide/knowledge-base.md, "Same-slug files").'),
    kind('shared-slugs', { subjects: integer(), names: strings('The names (`slug.ext`) that load the other files.'), more: integer() }, ['subjects', 'names', 'more'], 'Subjects a glob loaded whose slugs other files share.'),
    kind('read-as', { pattern: string(), slug: string(), reasons: { type: 'array', items: { enum: REASONS } }, prefix: string(), section: string() }, ['pattern', 'slug', 'reasons'], 'A pattern that matched nothing as written, read as this slug.'),
    kind('folder', { pattern: string(), folder: string(), slugs: strings(), more: integer(), nested: { type: 'boolean' } }, ['pattern', 'folder', 'slugs', 'more', 'nested'], 'A pattern naming a folder: its subjects (`more` past the first 50).'),
    kind('split', { pattern: string(), parts: strings(), json: { const: true } }, ['pattern', 'parts'], 'One string holding a list, read as its parts.'),
  ],
};

const TOPIC_NOTE = {
  description: 'What the model must know about the topic\'s directory as a whole.',
  oneOf: [kind('no-directory', { why: string() }, ['why']), kind('walk-limit', { limit: integer() }, ['limit'])],
};

const LISTED = {
  oneOf: [
    object({ slug: string(), description: string() }, ['slug'], 'A subject.'),
    object({ folder: string(), subjects: integer(), tokens: integer(), description: string('What the folder\'s index page says it is.') }, ['folder', 'subjects', 'tokens'], 'A folder summed up to fit the budget.'),
  ],
};

const LEARN: Schema = {
  title: 'kb learn output',
  description:
    'A learn call as data (`kb learn --format json`): the listing of a topic (or of a folder), or the subjects loaded with the notes on what was not; ' +
    'or the error. A call refused for its arguments has `error` alone.',
  ...object(
    {
      topic: string('The topic\'s ID; as the call named it when no enabled topic has that ID or title.'),
      listing: object(
        {
          title: string(),
          introduction: string(),
          description: string(),
          folder: string('The folder listed, when the call named one.'),
          subjects: { type: 'array', items: LISTED, description: 'What the listing shows, in order.' },
          learned: strings('The subjects pre-loaded in the system prompt (not listed).'),
          fit: object(
            { description_chars: integer('Descriptions cut to this many characters (0: left out).'), collapsed: { type: 'boolean' }, omitted: integer('Subjects not listed at all.'), budget: integer() },
            [],
            'How the listing was fitted to the token budget.',
          ),
        },
        ['subjects', 'learned'],
        'The topic\'s listing (the call gave no subjects, or named a folder).',
      ),
      subjects: {
        type: 'array',
        description: 'The subjects loaded, in order.',
        items: object(
          {
            slug: string(),
            content: string('Its text, as the model reads it (a fenced format without its fence).'),
            skill: object({ dir: string(), files: { type: 'array', items: object({ slug: string(), path: string() }, ['slug', 'path']) } }, ['dir', 'files'], 'An Agent Skill: its folder and bundled files.'),
            window: object(
              {
                from: integer(),
                to: integer(),
                total: integer(),
                lines: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2, description: 'The first and last line of this window (1-based).' },
                next: CALL,
                range: object(
                  {
                    first: integer(),
                    last: integer('The last line shown of the range: the subject\'s last where the range runs past it.'),
                    lines: integer('The lines the subject has.'),
                    asked: string('The range as asked, where it runs past the subject\'s last line.'),
                  },
                  ['first', 'last', 'lines'],
                  'Lines of the subject the call asked for (`slug:120-160`).',
                ),
              },
              ['from', 'to', 'total', 'lines'],
              'A subject larger than the budget comes in windows: bytes `from`-`to` of `total` (lines `lines`), and the call for the next one; lines a call asked for (`range`) come as a window of them too.',
            ),
          },
          ['slug', 'content'],
        ),
      },
      notes: { type: 'array', items: NOTE },
      left_out: object({ count: integer(), tokens: integer(), budget: integer(), next: CALL }, ['count', 'tokens', 'budget', 'next'], 'Subjects left out to stay within the budget, and the call that continues.'),
      left_after: object({ count: integer(), tokens: integer(), slug: string() }, ['count', 'tokens', 'slug'], 'Subjects that come after the last window of `slug`.'),
      topic_notes: { type: 'array', items: TOPIC_NOTE },
      error: { oneOf: [UNKNOWN_TOPIC, BAD_ARGUMENTS] },
    },
    [],
  ),
  anyOf: [{ required: ['topic', 'listing'] }, { required: ['topic', 'subjects', 'notes'] }, { required: ['error'] }],
};

const SEARCH: Schema = {
  title: 'kb search output',
  description: 'A search as data (`kb search --format json`): the results, best first, and what was left out; or the error. A call refused for its arguments has `error` alone.',
  ...object(
    {
      query: string(),
      topic: string('The one topic searched (its ID), when the call named one.'),
      topics: strings('The topics searched (their IDs), when the call named several.'),
      filters: object(
        { tags: strings('Only subjects with each of these tags (or tags nested below them).'), type: string('Only subjects of this type.'), status: string('Only subjects with this status.') },
        [],
        'The filters the call gave, as given.',
      ),
      total: integer('Subjects that match, in all.'),
      results: {
        type: 'array',
        items: object(
          {
            topic: string(),
            slug: string(),
            title: string('Its title, where it says more than the slug.'),
            description: string(),
            snippet: string('The best passage: the lines around the one holding most of the query\'s words (at most 3 lines and 300 characters, joined by line ends), never markup alone; the first line with words when no line holds one; empty when none has.'),
            line: integer('The 1-based line number of the snippet\'s first line (`learn` loads lines by it: `slug:120-160`).'),
            passages: {
              type: 'array',
              maxItems: 3,
              description: 'Where it answers the query: the snippet first, then, in a long document that answers in several places, up to two more, in the text\'s order.',
              items: object({ line: integer('Its first line\'s number.'), text: string('Its lines, joined by line ends.') }, ['line', 'text']),
            },
            tokens: integer('Its size in tokens (estimated).'),
            score: { type: 'number' },
            created: string('From its frontmatter.'),
            updated: string('From its frontmatter.'),
          },
          ['topic', 'slug', 'snippet', 'passages', 'tokens', 'score'],
        ),
      },
      left_out: integer('Results left out to stay within the token budget.'),
      budget: integer('The token budget, when it left results out.'),
      beyond_limit: integer('Subjects that match beyond the limit.'),
      unknown_words: strings('Query words no subject has.'),
      corrected: { type: 'array', description: 'Query words read with typos, and what was searched for instead.', items: object({ word: string(), also: strings() }, ['word', 'also']) },
      error: { oneOf: [UNKNOWN_TOPIC, BAD_ARGUMENTS] },
    },
    [],
  ),
  anyOf: [{ required: ['query', 'total', 'results', 'left_out', 'beyond_limit', 'unknown_words', 'corrected'] }, { required: ['error'] }],
};

/** Why nothing was written, revised or removed. */
const WRITE_FAILURE = {
  oneOf: [
    UNKNOWN_TOPIC,
    kind('disabled-topic', { topic: string() }, ['topic']),
    kind('not-writable', { topic: string(), writable: strings('The topics the server writes to.') }, ['topic', 'writable']),
    kind('failed', { topic: string(), why: string() }, ['topic', 'why'], 'The topic\'s directory, its lock or the file system said no.'),
    kind('outside-workspace', { topic: string(), subjects: string(), link: string(), to: string(), real: string() }, ['topic', 'subjects', 'real'], 'The topic\'s subjects directory is really outside the workspace.'),
    kind('near-duplicate', { topic: string(), similar: SIMILAR }, ['topic', 'similar'], 'A subject says nearly the same.'),
    kind('update', { topic: string(), similar: SIMILAR, was: strings(), now: strings() }, ['topic', 'similar', 'was', 'now'], 'The text looks like a new version of a subject: the values that differ.'),
    kind('slug-taken', { topic: string(), slug: string(), disabled: { type: 'boolean' } }, ['topic', 'slug', 'disabled']),
    kind('cannot-place', { topic: string(), rel: string(), why: string() }, ['topic', 'rel', 'why']),
    kind('exists', { path: string() }, ['path']),
    kind('no-subject', { topic: string(), slug: string(), alias_of: string('The subject whose other name it is.') }, ['topic', 'slug']),
    kind('kept', { topic: string(), slug: string(), why: { enum: ['bundled', 'skill', 'hidden', 'disabled'] } }, ['topic', 'slug', 'why']),
    kind('cannot-remove', { path: string(), why: string() }, ['path', 'why']),
    kind('not-ours', { topic: string(), slug: string() }, ['topic', 'slug'], 'A subject kb did not write, without `force`.'),
    kind('cannot-revise', { topic: string(), slug: string(), why: string() }, ['topic', 'slug', 'why']),
    BAD_ARGUMENTS,
  ],
};

/** A write tool's schema: its statuses, and what its outcome may hold. */
function writeSchema(tool: string, statuses: readonly string[], extra: Record<string, Schema>, what: string): Schema {
  return {
    title: `kb ${tool} output`,
    description: `A ${tool} call's outcome as data (\`kb ${tool} --format json\`): ${what}. \`error\` says why when nothing was done.`,
    ...object(
      {
        status: { enum: [...statuses, 'error'] },
        topic: string('The topic\'s ID.'),
        slug: string(),
        path: string('The file, relative to the workspace root.'),
        ...extra,
        error: WRITE_FAILURE,
      },
      ['status'],
    ),
  };
}

const REMEMBER = writeSchema(
  'remember',
  ['written', 'duplicate', 'near-duplicate', 'update'],
  {
    existing: SIMILAR,
    similar: object({ slug: string(), similarity: { type: 'number', minimum: 0, maximum: 1 }, update: { type: 'boolean' } }, ['slug', 'similarity', 'update'], 'Written with force although this subject is similar (`update`: it looks like an older version).'),
    created_folder: string('The topic\'s folder, which did not exist and was created.'),
    duplicate_check: object({ compared: integer(), left_out: integer(), limit_bytes: integer() }, ['compared', 'left_out', 'limit_bytes'], 'Written after a duplicate check that its bound cut.'),
  },
  'the new subject, or the one it duplicates',
);

const REVISE = writeSchema(
  'revise',
  ['revised', 'unchanged'],
  { history: object({ path: string(), kept: integer(), dropped: integer(), limit: integer() }, ['path', 'kept', 'dropped', 'limit'], 'The history file that keeps the earlier texts.') },
  'the subject revised',
);

const FORGET = writeSchema('forget', ['forgotten'], { emptied: strings('The folders the removal emptied, removed too, deepest first.') }, 'the subject removed');

/** Every tool's output schema, by name. */
export const OUTPUT_SCHEMAS: { readonly [N in ToolName]: Schema } = { learn: LEARN, search: SEARCH, remember: REMEMBER, revise: REVISE, forget: FORGET };

/** A schema as its file holds it. */
export function outputSchemaFile(name: ToolName): Record<string, unknown> {
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...OUTPUT_SCHEMAS[name] };
}
