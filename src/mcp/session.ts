// What `kb mcp` serves, without the MCP SDK (src/mcp/server.ts wires these
// to the protocol). Every request reads the configuration and the files
// again, so edits apply without a restart. Nothing here writes to stdout:
// warnings go to stderr, once per server for each distinct message.
import type { RunContext } from '../cli/command.ts';
import { isFatal, readConfig } from '../cli/context.ts';
import { warn } from '../shared/log.ts';
import type { Config, Topic } from '../config/types.ts';
import { describe, KbError } from '../shared/errors.ts';
import { readSubject } from '../kb/fs/read.ts';
import { findBySlug } from '../kb/index/resolve.ts';
import { formatContent, PASS_THROUGH } from '../kb/content/format.ts';
import { hasLearnable, openTopic, sniffSubject, type TopicView } from '../kb/index/view.ts';
import { mcpTool } from '../render/formats.ts';
import { learnDescription } from '../render/schema.ts';
import { endWithNewline } from '../render/text.ts';
import type { TopicLabel } from '../render/topic.ts';
import { knowledgeSection } from '../app/prompt.ts';
import { learnCall } from '../app/learn.ts';

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

export const TOOL_NAME = 'learn';
export const PROMPT_NAME = 'knowledge';
export const PROMPT_ARGUMENT = 'knowledge';
export const URI_SCHEME = 'kb://';

export class KbSession {
  private readonly warned = new Set<string>();

  constructor(private readonly ctx: RunContext) {}

  /** A warning on stderr, the first time it is seen. */
  private note(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    void warn(message);
  }

  /** The configuration as it is now, plus extra `-k` values. */
  config(knowledge: readonly string[] = []): Config {
    let config: Config;
    try {
      config = readConfig({ ...this.ctx, globals: { ...this.ctx.globals, knowledge: [...this.ctx.globals.knowledge, ...knowledge] } });
    } catch (err) {
      if (err instanceof KbError) throw new RequestError(knowledge.length > 0 ? INVALID_PARAMS : INTERNAL_ERROR, describe(err));
      throw err;
    }
    const fatal = config.diagnostics.find(isFatal);
    if (fatal) throw new RequestError(INTERNAL_ERROR, `invalid configuration: ${fatal.where ? `${fatal.message} (${fatal.where})` : fatal.message}`);
    for (const d of config.diagnostics) this.note(d.where ? `${d.message} (${d.where})` : d.message);
    return config;
  }

  private open(topic: Topic): TopicView {
    const view = openTopic(topic);
    for (const n of view.index.notices) this.note(`topic "${topic.id}": ${n.message}`);
    return view;
  }

  // --- tools ---------------------------------------------------------------

  /** The `learn` tool, as `kb schema --format mcp` prints it. Always listed
   *  (MCP clients fetch the list once): with nothing to learn, the
   *  description says so and calls answer with the listing or an error. */
  tools() {
    const config = this.config();
    const learnable: TopicLabel[] = config.topics.filter((t) => t.enable && hasLearnable(this.open(t)));
    const description =
      learnable.length > 0
        ? learnDescription(learnable)
        : 'Learn about knowledge base topics and subjects.\n\nNo topic has subjects to learn at the moment.';
    return [mcpTool(description)];
  }

  /** `tools/call`: the same text as `kb learn --args`; errors (bad
   *  arguments, unknown topic, nothing loaded, unusable configuration) are
   *  `isError` results the model can read. */
  callTool(name: string, args: unknown): { content: { type: 'text'; text: string }[]; isError: boolean } {
    if (name !== TOOL_NAME) throw new RequestError(INVALID_PARAMS, `unknown tool "${name}"; the only tool is "${TOOL_NAME}"`);
    let config: Config;
    try {
      config = this.config();
    } catch (err) {
      if (!(err instanceof RequestError)) throw err;
      return { content: [{ type: 'text', text: `The knowledge base cannot be used right now: ${err.message}\n` }], isError: true };
    }
    const result = learnCall(config.topics, args ?? {});
    for (const w of result.warnings) this.note(w);
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
  getPrompt(name: string, args: Record<string, string> | undefined) {
    if (name !== PROMPT_NAME) throw new RequestError(INVALID_PARAMS, `unknown prompt "${name}"; the only prompt is "${PROMPT_NAME}"`);
    const knowledge = splitKnowledge(args?.[PROMPT_ARGUMENT] ?? '');
    const text = this.knowledgeSection(this.config(knowledge));
    return {
      description: text === '' ? 'The knowledge base has nothing to show.' : 'The <knowledge> system-prompt section.',
      messages: text === '' ? [] : [{ role: 'user' as const, content: { type: 'text' as const, text } }],
    };
  }

  /** The section `kb prompt` prints, from the same function. */
  knowledgeSection(config: Config): string {
    const { text, warnings } = knowledgeSection(config.topics);
    for (const w of warnings) this.note(w);
    return text;
  }

  // --- resources -----------------------------------------------------------

  /** Every visible subject of every enabled topic: hidden, disabled, binary
   *  and unreadable ones are never listed. Pre-loaded subjects are listed:
   *  resources are for people and clients to pick from, not the model's
   *  learn listing. */
  resources() {
    const config = this.config();
    const out: { uri: string; name: string; title: string; description: string; mimeType: string }[] = [];
    for (const topic of config.topics) {
      if (!topic.enable) continue;
      const view = this.open(topic);
      for (const s of view.index.subjects) {
        if (s.hidden || view.disabled.has(s.slug) || sniffSubject(view, s) !== 'text') continue;
        out.push({
          uri: subjectUri(topic.id, s.slug),
          name: `${topic.id}/${s.slug}`,
          title: s.slug,
          description: `Subject "${s.slug}" of topic ${topic.title ? `${topic.id} (${topic.title})` : topic.id}`,
          mimeType: mimeTypeOf(s.ext),
        });
      }
    }
    return out;
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
  readResource(uri: string) {
    const parsed = parseSubjectUri(uri);
    if (!parsed) throw new RequestError(INVALID_PARAMS, `not a knowledge-base URI: ${uri} (expected ${URI_SCHEME}<topic>/<slug>)`);
    const config = this.config();
    const topic = config.topics.find((t) => t.enable && t.id === parsed.topic);
    if (!topic) throw new RequestError(RESOURCE_NOT_FOUND, `resource not found: ${uri} (no enabled topic "${parsed.topic}")`);
    const view = this.open(topic);
    const subject = findBySlug(view.index.subjects, parsed.slug);
    if (!subject || view.disabled.has(subject.slug)) {
      throw new RequestError(RESOURCE_NOT_FOUND, `resource not found: ${uri} (topic "${topic.id}" has no subject "${parsed.slug}")`);
    }
    const result = readSubject(subject.abs);
    if (result.kind === 'binary') throw new RequestError(RESOURCE_NOT_FOUND, `resource not found: ${uri} (a binary file)`);
    if (result.kind === 'error') throw new RequestError(INTERNAL_ERROR, `cannot read ${uri}: ${result.message}`);
    if (result.replaced) this.note(`subject "${subject.slug}" of topic "${topic.id}" has byte sequences that are invalid in its encoding; they were replaced with U+FFFD`);
    return {
      contents: [{ uri, mimeType: mimeTypeOf(subject.ext), text: endWithNewline(formatContent(subject.ext, result.text)) }],
    };
  }
}

/** Markdown and fenced formats are Markdown; the other pass-through formats
 *  are plain text. */
export function mimeTypeOf(ext: string): string {
  const e = ext.toLowerCase();
  return PASS_THROUGH.has(e) && e !== 'md' ? 'text/plain' : 'text/markdown';
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
