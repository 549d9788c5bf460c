// Opens the knowledge base for a command and reports what the user should
// know: configuration errors stop the command (except `kb check`, which
// reports them); warnings go to stderr; with --verbose, which files were
// read and which file set each value.
import { KnowledgeBase, type OpenOptions, type WorkspaceOptions } from '../app/knowledge-base.ts';
import type { Config } from '../config/types.ts';
import { COSTS } from '../render/costs.ts';
import { ConfigError, UsageError } from '../shared/errors.ts';
import { debug, isVerbose, warn } from '../shared/log.ts';
import { formatProblem, type Problem } from '../shared/problem.ts';
import { maxTokensOf } from './budget.ts';
import { htmlViewOf } from './html-flag.ts';
import type { RunContext } from './command.ts';
import { homeDirectory } from './home.ts';

/** Where the knowledge base is, as the command line and environment say. */
export async function workspaceOptions(ctx: RunContext): Promise<WorkspaceOptions> {
  return {
    cwd: ctx.cwd,
    workspace: ctx.globals.workspace,
    cfg: ctx.globals.cfg,
    knowledge: ctx.globals.knowledge,
    env: ctx.env,
    home: await homeDirectory(ctx.env),
    maxTokens: maxTokensOf(ctx),
    searchCache: ctx.flags['no-cache'] !== true,
    html: htmlViewOf(ctx),
  };
}

/** The knowledge base for every command but `kb check`: a configuration
 *  problem that makes it unusable stops the command, the others are
 *  warnings. */
export async function openKnowledgeBase(ctx: RunContext, opts: Omit<OpenOptions, 'costs'> = {}): Promise<KnowledgeBase> {
  const kb = await KnowledgeBase.open(await workspaceOptions(ctx), { ...opts, costs: COSTS });
  const fatal = kb.fatal();
  if (fatal) throw new ConfigError(fatal.message, fatal.where);
  await report(kb.problems);
  if (isVerbose()) await explain(kb.config);
  return kb;
}

/** Warnings on stderr, one line each. */
export async function report(problems: readonly Problem[]): Promise<void> {
  for (const p of problems) await warn(formatProblem(p));
}

/** With --verbose: the workspace, the files read, and where each topic
 *  field was set. */
export async function explain(config: Config): Promise<void> {
  await debug(`workspace: ${config.root}`);
  for (const f of config.files) await debug(`read ${f}`);
  for (const note of config.notes ?? []) await debug(note);
  for (const t of config.topics) {
    for (const [field, source] of Object.entries(t.sources)) {
      await debug(`kb.topic.${t.id}.${field} set by ${t.where?.[field as keyof typeof t.where] ?? source}`);
    }
  }
}

/** The topic IDs `--write` names (IDs or titles), for the write tools; an
 *  unknown or disabled topic is a usage error. */
export function writeTopics(kb: KnowledgeBase, names: readonly string[]): Set<string> {
  const ids = new Set<string>();
  for (const name of names) {
    const t = kb.resolveTopic(name);
    if (t === undefined) throw new UsageError(`--write: unknown topic "${name}"; the topics are ${kb.topics.map((x) => x.id).join(', ') || '(none)'}`, '--write');
    if (!t.enable) throw new UsageError(`--write: topic "${t.id}" is disabled`, '--write');
    ids.add(t.id);
  }
  return ids;
}
