// The knowledge base: one object per workspace load, of which every CLI
// command and the MCP server are thin adapters. With the operations beside
// it (prompt.ts, learn.ts, check.ts, list.ts, resources.ts: each a function
// of a KnowledgeBase, so that a command imports only the one it runs), it is
// the only way the front ends reach the core (config/, glob/, kb/). Opening
// it is the one place that awaits loaders (the configuration, compiled
// patterns, the views' code); what it does afterwards is synchronous,
// except compiling a call's own patterns, and `settleLearnable` for a
// front end that opened it without the views' code (`kb schema`).
//
// It returns problems rather than reporting them: the front end decides
// where they go (stderr once per command; once per server for MCP).
import { TOPIC_FIELD_DEFS } from '../config/fields.ts';
import { loadConfig, type LoadOptions } from '../config/load.ts';
import type { Config, Topic } from '../config/types.ts';
import type { CompiledPattern } from '../glob/index.ts';
import type { HtmlView } from '../kb/content/html.ts';
import { probeKinds, type Probe, type StatJobHandle, type StatPaths } from '../kb/fs/probe.ts';
import { MAX_WALK_ENTRIES } from '../kb/fs/limits.ts';
import type { IndexCache } from '../kb/index/cache.ts';
import { quickLearnable, RULES } from '../kb/index/quick-learnable.ts';
import type { TitleWatch, TopicView } from '../kb/index/view.ts';
import type { Costs } from '../answer/cost.ts';
import { warning, type Problem } from '../shared/problem.ts';
import { DEFAULT_MAX_TOKENS } from './budget.ts';
import type { CutPreloaded, CutSubject } from './preload-cut.ts';

export type { CutSubject } from './preload-cut.ts';
import { cacheDir, headsDir } from '../kb/search/where.ts';
import type { HeadsProbe } from '../kb/fs/heads.ts';
import type { WalkKeeper, WalkStats } from '../kb/fs/walk-cache.ts';
import type { FrontKeeper, FrontStats } from '../kb/fs/front-cache.ts';
import { noticeProblems, resolveTopic } from './topics.ts';
import { filter, find, some } from '../shared/arrays.ts';

export type { FrontStats, WalkStats };

/** What search keeps between requests, and how it knows it still holds
 *  (kb/index/cache.ts IndexCache). */
export type Resident = Pick<IndexCache, 'settle' | 'changes' | 'keep' | 'kept' | 'forget'>;

export interface WorkspaceOptions extends LoadOptions {
  /** The token budget (app/budget.ts): Infinity for none; default
   *  DEFAULT_MAX_TOKENS. */
  maxTokens?: number;
  /** Use kb's caches on disk (default): search indexes, and what a
   *  listing's files' heads said (kb/fs/head-cache.ts); false:
   *  `--no-cache`. */
  searchCache?: boolean;
  /** How loaded HTML pages are shown (`--html`, KB_HTML): as written
   *  (default) or as text (kb/content/html.ts). */
  html?: HtmlView;
}

/** `probe`, keeping what its listings' heads said in `dir`, and where
 *  their walks and what their frontmatter said are kept (loaded only by a
 *  front end that plugs in a probe with a feed: `kb learn`). */
async function keptHeadsOf(probe: Probe, dir: string): Promise<{ heads: HeadsProbe; walks: WalkKeeper; fronts: FrontKeeper }> {
  const [{ keptHeads }, { walkKeeper }, { frontKeeper }, { BUILD }] = await Promise.all([import('../kb/fs/heads.ts'), import('../kb/fs/walk-cache.ts'), import('../kb/fs/front-cache.ts'), import('../shared/version.ts')]);
  return { heads: keptHeads(probe, { dir, build: BUILD }), walks: walkKeeper({ dir, build: BUILD }), fronts: frontKeeper({ dir, build: BUILD }) };
}

/** Problems that make a configuration unusable for anything but `kb check`. */
const FATAL = new Set([
  'toml-syntax',
  'json-syntax',
  'json5-syntax',
  'yaml-syntax',
  'read-error',
  'unknown-format',
  'wrong-type',
  'extends-cycle',
  'extends-depth',
  'missing-subjects',
]);

export function isFatal(p: Problem): boolean {
  return p.severity === 'error' && FATAL.has(p.code);
}

export interface OpenOptions {
  /** What render/'s text costs (render/costs.ts `COSTS`), for the
   *  operations that fit an answer to the budget. */
  costs: Costs;
  /** Probes files for the topic views (default: on the main thread). A
   *  front end plugs in the reader thread's probe here. */
  probe?: Probe;
  /** false: the default probe searches no head for a title (kb/fs/probe.ts
   *  `probeKinds`), and the title rules are not loaded (about a fifth of
   *  what a start of kb schema loaded): for a front end that shows no
   *  subject's title (kb schema, kb prompt without listings). A title
   *  asked for all the same is found by probing again (kb/index/
   *  describe.ts). Default: the main thread's probe finds titles. */
  titles?: boolean;
  /** Keep what listings' heads said on disk between runs (kb/fs/heads.ts),
   *  where `probe` can feed a listing: a front end that lists (`kb
   *  learn`) asks; the code is loaded only then. */
  keepHeads?: boolean;
  /** Subject indexes kept between opens (a long-lived front end's:
   *  `kb mcp`), with what was probed while a watcher says nothing changed,
   *  else revalidated by directory times (kb/index/cache.ts). */
  cache?: IndexCache;
  /** When the request being answered arrived (performance.now()): a
   *  revalidation of `cache`, or a load of the configuration by `configs`,
   *  begun since is as good as its own. */
  since?: number;
  /** The configuration last loaded, shared (a long-lived front end's). */
  configs?: ConfigShare;
  /** 'later': the topics' views (the walk, the index, the listing's
   *  rules) are not loaded when the knowledge base opens, for a front end
   *  that may need none (`kb schema`, which asks only which topics have a
   *  subject to learn: `settleLearnable`). Default: loaded. */
  views?: 'later';
}

/** The topics' views and the questions put to them: loaded when the
 *  knowledge base opens, or (OpenOptions.views) when first needed. */
type ViewKit = typeof import('./view-kit.ts');
let kit: ViewKit | undefined;
async function loadKit(): Promise<ViewKit> {
  return (kit ??= await import('./view-kit.ts'));
}
/** The kit, loaded: a view asked of a knowledge base opened with views
 *  'later' before `settleLearnable` loaded them is kb's own mistake. */
function viewKit(): ViewKit {
  if (kit === undefined) throw new Error('internal error: a topic view was asked for before its code was loaded (OpenOptions.views)');
  return kit;
}

/** The configuration a long-lived front end loaded last, and when its
 *  loading began: a request that arrived before then takes it rather than
 *  load it again (it holds every change made before the request arrived:
 *  its files were read after). Requests that waited their turn together
 *  so share one load. Every other request loads it anew. */
export class ConfigShare {
  private last: { key: string; began: number; config: Config } | undefined;
  /** Loads taken from an earlier request's (for tests and --verbose). */
  shared = 0;

  async load(options: LoadOptions, since: number | undefined): Promise<Config> {
    const key = JSON.stringify([options.cwd, options.workspace, options.cfg, options.knowledge]);
    const last = this.last;
    if (since !== undefined && last !== undefined && last.key === key && last.began >= since) {
      this.shared++;
      return last.config;
    }
    const began = performance.now();
    const config = await loadConfig(options);
    this.last = { key, began, config };
    return config;
  }
}


/** The environment variable that sets how many directory entries one
 *  topic's walk reads at most (docs/development/robustness.md, "Files and folders"). */
export const WALK_LIMIT_VAR = 'KB_WALK_LIMIT';

/** The walk limit the environment sets, and a problem when its value is
 *  not a whole number of at least 1 (the default is used then). */
export function walkLimit(env: Record<string, string | undefined>): { limit: number; problem?: Problem } {
  const raw = env[WALK_LIMIT_VAR];
  if (raw === undefined || raw === '') return { limit: MAX_WALK_ENTRIES };
  const n = /^[0-9]{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (n >= 1) return { limit: n };
  const shown = raw.length > 40 ? `${raw.slice(0, 40)}...` : raw;
  return {
    limit: MAX_WALK_ENTRIES,
    problem: warning('bad-walk-limit', `${WALK_LIMIT_VAR} must be a whole number of at least 1, got "${shown}"; using ${MAX_WALK_ENTRIES}`, WALK_LIMIT_VAR),
  };
}

/** The cut of pre-loaded subjects to the budget (app/preload-cut.ts), with
 *  what the prompt's text costs. */
async function preloadCutter(costs: Costs): Promise<CutPreloaded> {
  const [{ cutPreloaded }, prompt] = await Promise.all([import('./preload-cut.ts'), costs.prompt()]);
  return (kb, enabled, cut) => cutPreloaded(kb, enabled, cut, prompt);
}

export class KnowledgeBase {
  private readonly views = new Map<Topic, TopicView>();
  /** Pre-loaded subjects the prompt's budget leaves out, by topic; set
   *  once, when a view with pre-loaded subjects is first opened. */
  private cut: Map<Topic, CutSubject[]> | undefined;
  private cutting = false;

  private constructor(
    readonly config: Config,
    private readonly learned: ReadonlyMap<Topic, readonly CompiledPattern[]>,
    private readonly probe: Probe | undefined,
    private readonly walk: { limit: number; problem?: Problem },
    /** The token budget: Infinity for none. */
    readonly maxTokens: number,
    private readonly cache: IndexCache | undefined,
    /** Where search indexes are cached; undefined: not cached. */
    readonly searchCacheDir: string | undefined,
    /** Cuts pre-loaded subjects to the budget (app/preload-cut.ts);
     *  loaded only where a topic pre-loads within a finite budget. */
    private readonly cutter: CutPreloaded | undefined,
    /** What render/'s text costs: each operation that fits an answer to
     *  the budget loads its answer's. */
    readonly costs: Costs,
    /** How loaded HTML pages are shown (WorkspaceOptions.html). */
    readonly html: HtmlView = 'raw',
    /** When the request arrived (OpenOptions.since). */
    private readonly since?: number,
  ) {}

  /** Loads the workspace's configuration and compiles every topic's
   *  `learned` patterns. Throws a UsageError or ConfigError for what stops
   *  any command (no workspace, a bad --cfg or -k); problems inside the
   *  configuration are in `problems` (see `fatal`). */
  static async open(options: WorkspaceOptions, opts: OpenOptions): Promise<KnowledgeBase> {
    const config = opts.configs === undefined ? await loadConfig(options) : await opts.configs.load(options, opts.since);
    const learned = new Map<Topic, CompiledPattern[]>();
    // (Most topics pre-load nothing: no compiling, no await.)
    const compile = some(config.topics, (t) => t.learned.length > 0) ? (await import('../glob/index.ts')).compilePatterns : undefined;
    for (const topic of config.topics) learned.set(topic, compile === undefined || topic.learned.length === 0 ? [] : await compile(topic.learned));
    if (opts.views !== 'later') await loadKit();
    const searchCache = options.searchCache === false ? undefined : cacheDir(options.env, options.home);
    const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
    // Pre-loaded subjects are cut to the budget (reading them, estimating
    // their tokens) only where some enabled topic pre-loads and the budget
    // is finite: only then is that code loaded.
    const preloads = Number.isFinite(maxTokens) && some(config.topics, (t) => t.enable && (learned.get(t)?.length ?? 0) > 0);
    const cutter = preloads ? await preloadCutter(opts.costs) : undefined;
    // A front end's probe that can feed a listing keeps what the heads
    // said between runs when asked (kb/fs/heads.ts), unless indexes are
    // kept in memory instead (`kb mcp`: `cache`).
    const dir = opts.keepHeads !== true || options.searchCache === false || opts.cache !== undefined || opts.probe?.feed === undefined ? undefined : headsDir(options.env, options.home);
    const kept = dir === undefined ? undefined : await keptHeadsOf(opts.probe!, dir);
    const heads = kept?.heads;
    const probe = heads ?? opts.probe ?? (opts.titles === false ? undefined : (await import('../kb/fs/probe-titles.ts')).probeHere);
    const kb = new KnowledgeBase(config, learned, probe, walkLimit(options.env), maxTokens, opts.cache, searchCache, cutter, opts.costs, options.html, opts.since);
    kb.heads = heads;
    kb.walks = kept?.walks;
    kb.fronts = kept?.fronts;
    return kb;
  }

  /** What listings kept of their files' heads (kb/fs/heads.ts), where
   *  they keep it: problems reading or writing it, and counts for
   *  `--verbose`. */
  heads: Pick<HeadsProbe, 'problems' | 'stats'> | undefined;

  /** Where listings keep their walks (kb/fs/walk-cache.ts), beside the
   *  heads: problems reading or writing one, and counts for `--verbose`. */
  walks: WalkKeeper | undefined;

  /** Where listings keep what the frontmatter they parsed said
   *  (kb/fs/front-cache.ts): problems, and counts for `--verbose`. */
  fronts: FrontKeeper | undefined;

  /** Starts a stat of every file (kb/fs/probe.ts StatJobHandle), shared
   *  with the front end's reader thread when it plugged one in; undefined
   *  otherwise (kb/fs/probe-thread.ts `statLater` then). */
  get statFiles(): ((paths: readonly string[] | StatPaths, prefix?: string) => StatJobHandle) | undefined {
    const probe = this.probe;
    return probe?.stat === undefined ? undefined : (paths, prefix) => probe.stat!(paths, prefix);
  }

  get topics(): readonly Topic[] {
    return this.config.topics;
  }

  /** The most directory entries a topic's walk reads. */
  get walkLimit(): number {
    return this.walk.limit;
  }

  /** Every problem found in the configuration. */
  get problems(): readonly Problem[] {
    return this.walk.problem ? [...this.config.diagnostics, this.walk.problem] : this.config.diagnostics;
  }

  /** The first problem that makes the configuration unusable (for anything
   *  but `check`), if any. */
  fatal(): Problem | undefined {
    return find(this.config.diagnostics, isFatal);
  }

  /** Lets a watched cache hear of changes made just before this moment
   *  (kb/index/cache.ts `settle`): a listing awaits it, as it uses what
   *  earlier requests probed. */
  async settle(): Promise<void> {
    if (this.cache !== undefined) await this.cache.settle(this.since);
  }

  /** Where a long-lived front end (`kb mcp`) keeps what a request made of
   *  a topic's files for the next, while its file watcher tells of no
   *  change there (kb/index/cache.ts `changes`, `keep`, `kept`): the
   *  search indexes; undefined in a one-shot command. */
  get resident(): Resident | undefined {
    return this.cache;
  }

  /** A topic's view, opened once. `probeAll`: probe every file while
   *  walking (a listing needs nearly every verdict); `titles`: what tells
   *  that probe when titles are no longer needed. */
  view(topic: Topic, probeAll = false, titles?: TitleWatch): TopicView {
    let view = this.views.get(topic);
    if (view === undefined) {
      view = viewKit().openTopic(topic, { learned: this.learned.get(topic) ?? [], probe: this.probe, probeAll, maxEntries: this.walk.limit, cache: this.cache, walks: this.walks, fronts: this.fronts, since: this.since, html: this.html, ...(titles !== undefined ? { titles } : {}) });
      this.views.set(topic, view);
      if (this.cut === undefined && !this.cutting && view.learned.length > 0) this.cutPreloaded();
    }
    return view;
  }

  /** The pre-loaded subjects of `topic` that the prompt names but does not
   *  expand (over the budget): loadable with learn, not "already
   *  learned". */
  preloadedCut(topic: Topic): readonly CutSubject[] {
    this.view(topic);
    return this.cut?.get(topic) ?? [];
  }

  /** Works out `cut` once (app/preload-cut.ts), when the first view with
   *  pre-loaded subjects opens. */
  private cutPreloaded(): void {
    this.cutting = true;
    const cut = new Map<Topic, CutSubject[]>();
    try {
      // `open` loads the module whenever a topic pre-loads within a finite
      // budget; without one, nothing is cut.
      if (this.cutter !== undefined) this.cutter(this, filter(this.config.topics, (t) => t.enable), cut);
    } finally {
      this.cut = cut;
      this.cutting = false;
    }
  }

  /** The enabled topics with something left to learn (the read tools'
   *  descriptions name them: app/tools.ts). */
  learnableTopics(): Topic[] {
    return this.learnable ?? filter(this.config.topics, (t) => t.enable && viewKit().hasLearnable(this.view(t)));
  }

  /** learnableTopics, once settled. */
  private learnable: Topic[] | undefined;

  /** Works out learnableTopics, opening as few views as it can: a topic
   *  not opened yet is asked from the top of its folder first
   *  (kb/index/quick-learnable.ts, with the ignore rules loaded only for a
   *  folder that has an ignore file); only where that cannot tell is the
   *  view's code loaded and the topic walked. Then `learnableTopics`
   *  gives this answer (`kb schema`: one question, asked once). A front
   *  end that keeps its indexes asks its views. */
  async settleLearnable(): Promise<void> {
    const out: Topic[] = [];
    for (const t of this.config.topics) {
      if (!t.enable) continue;
      if (this.cache === undefined && !this.views.has(t)) {
        let quick = quickLearnable(t, this.probe ?? probeKinds, this.walk.limit);
        if (quick === RULES) quick = quickLearnable(t, this.probe ?? probeKinds, this.walk.limit, (await import('../kb/fs/ignore.ts')).IgnoreRules);
        if (quick === true) {
          out.push(t);
          continue;
        }
      }
      if (kit === undefined) await loadKit();
      if (viewKit().hasLearnable(this.view(t))) out.push(t);
    }
    this.learnable = out;
  }

  /** The enabled topics a write may go to: those named in `ids` (the MCP
   *  server's `--write` topics), or every enabled one. */
  writableTopics(ids?: ReadonlySet<string>): Topic[] {
    return this.config.topics.filter((t) => t.enable && (ids === undefined || ids.has(t.id)));
  }

  /** What a topic's walk noticed, as warnings. */
  topicProblems(topic: Topic): Problem[] {
    return noticeProblems(this.view(topic));
  }

  /** Up to `limit` slugs of `topic` starting with `prefix`, in slug order:
   *  those a learn listing shows, or (`preloaded`) every visible text
   *  subject. Probes only those it looks at (shell completion). */
  slugsFrom(topic: Topic, prefix: string, limit: number, preloaded = false): string[] {
    return viewKit().listableFrom(this.view(topic), prefix, limit, preloaded).map((s) => s.slug);
  }

  /** Every topic field as a `--cfg` key: `kb.topic.<id>.<field>`. */
  configKeys(): string[] {
    return this.config.topics.flatMap((t) => TOPIC_FIELD_DEFS.map((f) => `kb.topic.${t.id}.${f.name}`));
  }

  /** A learn call's topic: by ID, then by title (docs/reference/commands.md, "`kb learn`"). */
  resolveTopic(name: string): Topic | undefined {
    return resolveTopic(this.config.topics, name);
  }
}
