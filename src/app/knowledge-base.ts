// The knowledge-base service: one object per workspace load, of which
// every CLI command and the MCP server are thin adapters. It is the only
// way the front ends reach the core (config/, glob/, kb/): opening it is the
// one place that awaits loaders (the configuration, compiled patterns);
// what it does afterwards is synchronous, except compiling a call's own
// patterns.
//
// It returns problems rather than reporting them: the front end decides
// where they go (stderr once per command; once per server for MCP).
import { TOPIC_FIELD_DEFS } from '../config/fields.ts';
import { loadConfig, type LoadOptions } from '../config/load.ts';
import type { Config, Topic } from '../config/types.ts';
import { compilePatterns, type CompiledPattern } from '../glob/index.ts';
import { formatContent, PASS_THROUGH } from '../kb/content/format.ts';
import type { Probe } from '../kb/fs/probe.ts';
import { readBody } from '../kb/fs/read.ts';
import { findBySlug } from '../kb/index/resolve.ts';
import { hasLearnable, kindOf, listable, openTopic, type TopicView } from '../kb/index/view.ts';
import { rawContent } from '../render/learn.ts';
import type { ListTopic } from '../render/list.ts';
import { bodyText } from '../kb/content/body.ts';
import type { Problem } from '../shared/problem.ts';
import type { LearnArgs } from './args.ts';
import { check, type CheckSummary } from './check.ts';
import { learnCall, runLearn, type LearnResult, type LearnSink } from './learn.ts';
import { knowledgeSection, type Section } from './prompt.ts';
import { learnTool, type ToolDefinition } from './tools.ts';
import { noticeProblems, replacedProblem, resolveTopic } from './topics.ts';

export type WorkspaceOptions = LoadOptions;

/** Problems that make a configuration unusable for anything but `kb check`. */
const FATAL = new Set(['toml-syntax', 'wrong-type', 'extends-cycle', 'missing-subjects']);

export function isFatal(p: Problem): boolean {
  return p.severity === 'error' && FATAL.has(p.code);
}

export interface OpenOptions {
  /** Probes files for the topic views (default: on the main thread). A
   *  front end plugs in the reader thread's probe here. */
  probe?: Probe;
}

/** One subject of an enabled topic, as MCP lists it. */
export interface SubjectEntry {
  topic: Topic;
  slug: string;
  mimeType: string;
}

/** Reading one subject by exact slug (MCP `resources/read`). */
export type SubjectRead =
  | { kind: 'text'; text: string; mimeType: string; problems: Problem[] }
  | { kind: 'not-found'; why: string }
  | { kind: 'error'; message: string };

export class KnowledgeBase {
  private readonly views = new Map<Topic, TopicView>();

  private constructor(
    readonly config: Config,
    private readonly learned: ReadonlyMap<Topic, readonly CompiledPattern[]>,
    private readonly probe: Probe | undefined,
  ) {}

  /** Loads the workspace's configuration and compiles every topic's
   *  `learned` patterns. Throws a UsageError or ConfigError for what stops
   *  any command (no workspace, a bad --cfg or -k); problems inside the
   *  configuration are in `problems` (see `fatal`). */
  static async open(options: WorkspaceOptions, opts: OpenOptions = {}): Promise<KnowledgeBase> {
    const config = await loadConfig(options);
    const learned = new Map<Topic, CompiledPattern[]>();
    for (const topic of config.topics) learned.set(topic, await compilePatterns(topic.learned));
    return new KnowledgeBase(config, learned, opts.probe);
  }

  get topics(): readonly Topic[] {
    return this.config.topics;
  }

  /** Every problem found in the configuration. */
  get problems(): readonly Problem[] {
    return this.config.diagnostics;
  }

  /** The first problem that makes the configuration unusable (for anything
   *  but `check`), if any. */
  fatal(): Problem | undefined {
    return this.config.diagnostics.find(isFatal);
  }

  /** A topic's view, opened once. `probeAll`: probe every file while
   *  walking (a listing needs nearly every verdict). */
  view(topic: Topic, probeAll = false): TopicView {
    let view = this.views.get(topic);
    if (view === undefined) {
      view = openTopic(topic, { learned: this.learned.get(topic) ?? [], probe: this.probe, probeAll });
      this.views.set(topic, view);
    }
    return view;
  }

  private readonly open = (topic: Topic, probeAll?: boolean): TopicView => this.view(topic, probeAll);

  /** The <knowledge> section (`kb prompt`, the MCP prompt). */
  prompt(): Section {
    return knowledgeSection(this.config.topics, this.open);
  }

  /** The enabled topics with something left to learn. */
  learnableTopics(): Topic[] {
    return this.config.topics.filter((t) => t.enable && hasLearnable(this.view(t)));
  }

  /** The learn tool for the learnable topics; undefined when there is
   *  none (`kb schema` then prints nothing; README, "The tool"). */
  learnTool(): ToolDefinition | undefined {
    const topics = this.learnableTopics();
    return topics.length > 0 ? learnTool(topics) : undefined;
  }

  /** The tools a client that lists them once should see (MCP): the learn
   *  tool always; with nothing to learn, its description says so. */
  tools(): ToolDefinition[] {
    return [learnTool(this.learnableTopics())];
  }

  /** Runs a learn call with validated arguments, writing into `sink`;
   *  returns whether it is an error. */
  learn(args: LearnArgs, sink: LearnSink): Promise<boolean> {
    return runLearn(this.config.topics, this.open, args, sink);
  }

  /** A learn call with the arguments exactly as a model sent them. */
  call(value: unknown): Promise<LearnResult> {
    return learnCall(this.config.topics, this.open, value);
  }

  /** `kb check`'s findings. */
  check(): CheckSummary {
    return check(this.config, this.open);
  }

  /** Every topic and its subjects, for people (`kb list`). */
  list(relativeDir: (dir: string) => string): ListTopic[] {
    return this.config.topics.map((topic) => {
      const view = this.view(topic);
      return {
        id: topic.id,
        title: topic.title,
        enabled: topic.enable,
        dir: relativeDir(topic.subjectsDir),
        rows: view.index.subjects.map((s) => {
          const marks: string[] = [];
          if (s.hidden) marks.push('hidden');
          if (view.disabled.has(s.slug)) marks.push('disabled');
          else if (view.learnedSlugs.has(s.slug)) marks.push('learned');
          if (kindOf(view, s) === 'binary') marks.push('binary');
          return { slug: s.slug, size: s.size, marks };
        }),
        problems: view.index.notices.map((n) => n.message),
      };
    });
  }

  /** What a topic's walk noticed, as warnings. */
  topicProblems(topic: Topic): Problem[] {
    return noticeProblems(this.view(topic));
  }

  /** The slugs a learn listing of `topic` shows. */
  listableSlugs(topic: Topic): string[] {
    return listable(this.view(topic)).map((s) => s.slug);
  }

  /** Every topic field as a `--cfg` key: `kb.topic.<id>.<field>`. */
  configKeys(): string[] {
    return this.config.topics.flatMap((t) => TOPIC_FIELD_DEFS.map((f) => `kb.topic.${t.id}.${f.name}`));
  }

  /** A learn call's topic: by ID, then by title (README, `kb learn`). */
  resolveTopic(name: string): Topic | undefined {
    return resolveTopic(this.config.topics, name);
  }

  /** Every visible subject of every enabled topic: hidden, disabled, binary
   *  and unreadable ones are never listed; pre-loaded ones are. */
  subjects(): SubjectEntry[] {
    const out: SubjectEntry[] = [];
    for (const topic of this.config.topics) {
      if (!topic.enable) continue;
      const view = this.view(topic);
      for (const s of view.index.subjects) {
        if (s.hidden || view.disabled.has(s.slug) || kindOf(view, s) !== 'text') continue;
        out.push({ topic, slug: s.slug, mimeType: mimeTypeOf(s.ext) });
      }
    }
    return out;
  }

  /** One subject by topic ID and exact slug, formatted as `kb learn TOPIC
   *  SLUG` prints it. Hidden subjects are readable; disabled ones, disabled
   *  topics and binary files are not found. */
  read(topicId: string, slug: string): SubjectRead {
    const topic = this.config.topics.find((t) => t.enable && t.id === topicId);
    if (!topic) return { kind: 'not-found', why: `no enabled topic "${topicId}"` };
    const view = this.view(topic);
    const subject = findBySlug(view.index.subjects, slug);
    if (!subject || view.disabled.has(subject.slug)) return { kind: 'not-found', why: `topic "${topic.id}" has no subject "${slug}"` };
    const result = readBody(subject.abs, 'text');
    if (result.kind === 'binary') return { kind: 'not-found', why: 'a binary file' };
    if (result.kind === 'error') return { kind: 'error', message: result.message };
    const [head, body, tail] = rawContent(formatContent(subject.ext, result.body));
    const problems = result.replaced ? [replacedProblem(topic.id, subject.slug)] : [];
    return { kind: 'text', text: head + bodyText(body) + tail, mimeType: mimeTypeOf(subject.ext), problems };
  }
}

/** Markdown and fenced formats are Markdown; the other pass-through formats
 *  are plain text. */
export function mimeTypeOf(ext: string): string {
  const e = ext.toLowerCase();
  return PASS_THROUGH.has(e) && e !== 'md' ? 'text/plain' : 'text/markdown';
}

/** The reader thread's probe (kb/fs/probe-thread.ts), for a front end to
 *  plug in (`OpenOptions.probe`) when it lists large topics. */
export { readerThread, type ReaderThread } from '../kb/fs/probe-thread.ts';
