// What `kb mcp` serves, without the MCP SDK (server.ts wires these to the
// protocol): a thin adapter over the application layer (app/). Every
// request opens the knowledge base again, so edits apply without a restart.
// Nothing here writes to stdout: warnings go to stderr, once per server for
// each distinct message.
import { KnowledgeBase, type WorkspaceOptions } from '../app/knowledge-base.ts';
import { call } from '../app/learn.ts';
import { call as searchCall } from '../app/search.ts';
import { call as writeCall } from '../app/memory.ts';
import { prompt } from '../app/prompt.ts';
import { read, subjects } from '../app/resources.ts';
import { FORGET_TOOL_NAME, LEARN_TOOL_NAME, REMEMBER_TOOL_NAME, SEARCH_TOOL_NAME } from '../app/tools.ts';
import { toolInFormat } from '../render/providers.ts';
import { describe, KbError } from '../shared/errors.ts';
import { warn } from '../shared/log.ts';
import { formatProblem, type Problem } from '../shared/problem.ts';

/** JSON-RPC error codes used by the server (MCP: -32002 resource not found). */
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const RESOURCE_NOT_FOUND = -32002;

/** A request that fails as a whole (a JSON-RPC error, not a tool result). */
export class RequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const PROMPT_NAME = 'knowledge';
export const PROMPT_ARGUMENT = 'knowledge';
export const URI_SCHEME = 'kb://';

export class KbSession {
  private readonly warned = new Set<string>();

  /** The topics the remember and forget tools may write (`kb mcp --write`);
   *  none: the tools are not served. */
  constructor(
    private readonly options: WorkspaceOptions,
    private readonly writable: ReadonlySet<string> = new Set(),
  ) {}

  private toolNames(): string[] {
    return this.writable.size > 0 ? [LEARN_TOOL_NAME, SEARCH_TOOL_NAME, REMEMBER_TOOL_NAME, FORGET_TOOL_NAME] : [LEARN_TOOL_NAME, SEARCH_TOOL_NAME];
  }

  /** A warning on stderr, the first time it is seen. */
  private note(problem: Problem): void {
    const message = formatProblem(problem);
    if (this.warned.has(message)) return;
    this.warned.add(message);
    void warn(message);
  }

  /** The knowledge base as it is now, plus extra `-k` values. */
  async open(knowledge: readonly string[] = []): Promise<KnowledgeBase> {
    let kb: KnowledgeBase;
    try {
      kb = await KnowledgeBase.open({ ...this.options, knowledge: [...this.options.knowledge, ...knowledge] });
    } catch (err) {
      if (err instanceof KbError) throw new RequestError(knowledge.length > 0 ? INVALID_PARAMS : INTERNAL_ERROR, describe(err));
      throw err;
    }
    const fatal = kb.fatal();
    if (fatal) throw new RequestError(INTERNAL_ERROR, `invalid configuration: ${formatProblem(fatal)}`);
    for (const p of kb.problems) this.note(p);
    return kb;
  }

  /** Reports what the enabled topics' walks noticed. */
  private noteTopics(kb: KnowledgeBase): void {
    for (const topic of kb.topics) if (topic.enable) for (const p of kb.topicProblems(topic)) this.note(p);
  }

  // --- tools ---------------------------------------------------------------

  /** The `learn` tool, as `kb schema --format mcp` prints it. Always listed
   *  (MCP clients fetch the list once): with nothing to learn, the
   *  description says so and calls answer with the listing or an error. */
  async tools() {
    const kb = await this.open();
    const defs = kb.tools();
    if (this.writable.size > 0) defs.push(kb.rememberTool(this.writable), kb.forgetTool(this.writable));
    const tools = defs.map((tool) => toolInFormat('mcp', tool));
    this.noteTopics(kb);
    return tools;
  }

  /** `tools/call`: the same text as `kb learn --args`; errors (bad
   *  arguments, unknown topic, nothing loaded, unusable configuration) are
   *  `isError` results the model can read. */
  async callTool(name: string, args: unknown): Promise<{ content: { type: 'text'; text: string }[]; isError: boolean }> {
    const names = this.toolNames();
    if (!names.includes(name)) {
      const hint = name === REMEMBER_TOOL_NAME || name === FORGET_TOOL_NAME ? ' (writing is off: start the server with kb mcp --write TOPIC)' : '';
      throw new RequestError(INVALID_PARAMS, `unknown tool "${name}"${hint}; the tools are ${names.map((n) => `"${n}"`).join(', ')}`);
    }
    let kb: KnowledgeBase;
    try {
      kb = await this.open();
    } catch (err) {
      if (!(err instanceof RequestError)) throw err;
      return { content: [{ type: 'text', text: `The knowledge base cannot be used right now: ${err.message}\n` }], isError: true };
    }
    const result =
      name === SEARCH_TOOL_NAME
        ? await searchCall(kb, args ?? {})
        : name === LEARN_TOOL_NAME
          ? await call(kb, args ?? {})
          : await writeCall(kb, name, args ?? {}, { source: 'model', writable: this.writable });
    for (const p of result.problems) this.note(p);
    return { content: [{ type: 'text', text: result.text }], isError: result.isError };
  }

  // --- prompts -------------------------------------------------------------

  prompts() {
    return [
      {
        name: PROMPT_NAME,
        title: 'Knowledge',
        description: 'The <knowledge> system-prompt section: the topics available to learn and any pre-loaded subjects.',
        arguments: [
          {
            name: PROMPT_ARGUMENT,
            description: 'Subjects to pre-load, like kb -k: TOPIC/PATTERN (e.g. project/maintainers/*); several separated by commas or new lines.',
            required: false,
          },
        ],
      },
    ];
  }

  /** `prompts/get knowledge`: exactly what `kb prompt` prints (with the
   *  argument's values as `-k`); no message when it prints nothing. */
  async getPrompt(name: string, args: Record<string, string> | undefined) {
    if (name !== PROMPT_NAME) throw new RequestError(INVALID_PARAMS, `unknown prompt "${name}"; the only prompt is "${PROMPT_NAME}"`);
    const knowledge = splitKnowledge(args?.[PROMPT_ARGUMENT] ?? '');
    const { text, problems } = prompt(await this.open(knowledge));
    for (const p of problems) this.note(p);
    return {
      description: text === '' ? 'The knowledge base has nothing to show.' : 'The <knowledge> system-prompt section.',
      messages: text === '' ? [] : [{ role: 'user' as const, content: { type: 'text' as const, text } }],
    };
  }

  // --- resources -----------------------------------------------------------

  /** Every visible subject of every enabled topic: hidden, disabled, binary
   *  and unreadable ones are never listed. Pre-loaded subjects are listed:
   *  resources are for people and clients to pick from, not the model's
   *  learn listing. */
  async resources() {
    const kb = await this.open();
    this.noteTopics(kb);
    return subjects(kb).map(({ topic, slug, mimeType }) => ({
      uri: subjectUri(topic.id, slug),
      name: `${topic.id}/${slug}`,
      title: slug,
      description: `Subject "${slug}" of topic ${topic.title ? `${topic.id} (${topic.title})` : topic.id}`,
      mimeType,
    }));
  }

  resourceTemplates() {
    return [
      {
        uriTemplate: `${URI_SCHEME}{topic}/{+slug}`,
        name: 'subject',
        title: 'Knowledge-base subject',
        description: 'A subject by topic ID and slug. Hidden subjects are not listed but can be read by their exact slug.',
      },
    ];
  }

  /** `resources/read kb://<topic>/<slug>`: the formatted content, exactly
   *  what `kb learn <topic> <slug>` prints. Hidden subjects are readable by
   *  their exact URI; disabled ones, disabled topics and binary files are
   *  not found. */
  async readResource(uri: string) {
    const parsed = parseSubjectUri(uri);
    if (!parsed) throw new RequestError(INVALID_PARAMS, `not a knowledge-base URI: ${uri} (expected ${URI_SCHEME}<topic>/<slug>)`);
    const kb = await this.open();
    const topic = kb.topics.find((t) => t.enable && t.id === parsed.topic);
    if (topic) for (const p of kb.topicProblems(topic)) this.note(p);
    const result = read(kb, parsed.topic, parsed.slug);
    if (result.kind === 'not-found') throw new RequestError(RESOURCE_NOT_FOUND, `resource not found: ${uri} (${result.why})`);
    if (result.kind === 'error') throw new RequestError(INTERNAL_ERROR, `cannot read ${uri}: ${result.message}`);
    for (const p of result.problems) this.note(p);
    return { contents: [{ uri, mimeType: result.mimeType, text: result.text }] };
  }
}

/** `kb://<topic>/<slug>`, each path component percent-encoded. */
export function subjectUri(topic: string, slug: string): string {
  return `${URI_SCHEME}${encodeURIComponent(topic)}/${slug.split('/').map(encodeURIComponent).join('/')}`;
}

export function parseSubjectUri(uri: string): { topic: string; slug: string } | undefined {
  if (!uri.startsWith(URI_SCHEME)) return undefined;
  const parts = uri.slice(URI_SCHEME.length).split('/');
  if (parts.length < 2) return undefined;
  try {
    const [topic, ...slug] = parts.map((p) => decodeURIComponent(p));
    if (topic === '' || slug.some((c) => c === '')) return undefined;
    return { topic, slug: slug.join('/') };
  } catch {
    return undefined;
  }
}

/** The prompt argument: TOPIC/PATTERN values separated by commas or new
 *  lines. A comma inside `{...}` belongs to a brace pattern (`{a,b}`). */
export function splitKnowledge(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of value) {
    if (ch === '{') depth++;
    else if (ch === '}' && depth > 0) depth--;
    if (ch === '\n' || ch === '\r' || (ch === ',' && depth === 0)) {
      out.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s !== '');
}
