// The learn tool (the RFD's): list a topic, or load subjects by slug or
// glob. Its parameters are the RFD's schema, fixed text included, and never
// change with the configuration; its description names the topics that
// can be learned (docs/guide/knowledge-base.md, "The tool"). The operation is app/learn.ts;
// its events stream to the caller, and render/learn.ts writes them.
import type { JsonSchemaObject } from '../../shared/tool.ts';
import { LIMITS, parseToolJson, patternCountProblem, patternsProblem, type LearnArgs } from '../args.ts';
import { topicLines, type Tool, type ToolTopic } from './tool.ts';
import { checkArgs, type Parsed, type Rules } from './validate.ts';

export type ArgsResult = Parsed<LearnArgs>;

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

export function learnDescription(topics: readonly ToolTopic[]): string {
  return `Learn about knowledge base topics and subjects.\n\nAvailable topics:\n${topicLines(topics)}`;
}

/** What the schema cannot say: a topic is not empty nor over 1024
 *  characters; patterns are bounded (app/args.ts LIMITS); one string is
 *  one pattern, and no pattern at all (`[]`) lists the topic. */
const RULES: Rules = {
  topic: {
    check: (topic: string) => {
      if (topic.length === 0) return { says: 'must not be empty' };
      if (topic.length > LIMITS.topicLength) return { says: `is ${topic.length} characters long; at most ${LIMITS.topicLength} are accepted` };
      return { value: topic };
    },
  },
  subjects: {
    count: (n) => (n > LIMITS.patterns ? patternCountProblem('has', n) : undefined),
    check: (subjects: string | string[]) => {
      const patterns = typeof subjects === 'string' ? [subjects] : subjects;
      // An empty list asks for nothing in particular: the listing.
      if (patterns.length === 0) return { value: undefined };
      const problem = patternsProblem(patterns);
      return problem === undefined ? { value: patterns } : { problem };
    },
  },
};

/** A learn call's arguments as a model sends them (untrusted). */
export function validateLearnArgs(value: unknown): ArgsResult {
  const checked = checkArgs(LEARN_PARAMETERS, value, RULES);
  if (!checked.ok) return checked;
  const { topic, subjects } = checked.args as { topic: string; subjects?: string[] };
  return { ok: true, args: { topic, subjects: subjects ?? null } };
}

/** A learn call's arguments as JSON text (`kb learn --args`). */
export function parseLearnArgs(json: string): ArgsResult {
  const parsed = parseToolJson(json);
  return parsed.ok ? validateLearnArgs(parsed.value) : parsed;
}

/** The call's module, imported once (an import() of a module already
 *  loaded still costs tens of microseconds: a server pays it per call). */
let loaded: Promise<typeof import('../learn.ts')> | undefined;
const operation = () => (loaded ??= import('../learn.ts'));

export const learn: Tool<'learn', LearnArgs> = {
  name: LEARN_TOOL_NAME,
  title: 'Learn',
  summary: 'Run the learn tool: list a topic, or load subjects',
  instruction: 'lists a topic (topic only) or loads subjects by slug or glob',
  argsBytes: LIMITS.jsonBytes,
  parameters: LEARN_PARAMETERS,
  annotations: LEARN_ANNOTATIONS,
  nullDescriptions: LEARN_NULL_DESCRIPTIONS,
  access: 'read',
  describe: (topics) => (topics.length > 0 ? learnDescription(topics) : LEARN_NO_TOPICS_DESCRIPTION),
  validate: validateLearnArgs,
  load: () => operation(),
  async run(kb, args, sink, ctx) {
    // The call is loaded only when a call runs (not for the tool's
    // definition: `kb schema`, `tools/list`).
    const { learn: run } = await operation();
    // The sink's own `event`, bound, rather than a closure that calls it.
    const event = sink.event.bind(sink);
    const isError = await run(kb, args, {
      as: sink.as,
      event: (e) => (e.kind === 'problem' ? sink.problem(e.problem) : event(e)),
      ...(sink.full !== undefined ? { full: () => sink.full!() } : {}),
    }, ctx.signal !== undefined ? { signal: ctx.signal } : {});
    return { topic: kb.resolveTopic(args.topic)?.id ?? args.topic, isError };
  },
  whenCut: 'What followed was not loaded; ask for fewer subjects at a time.',
};
