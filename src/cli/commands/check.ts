// kb check: everything a pre-commit hook should catch. Configuration
// problems (TOML syntax, unknown keys, wrong types, missing `subjects`),
// then each topic's files: a subjects directory that does not exist, slug
// collisions, `learned` patterns and `disabled` slugs that match nothing,
// binary or non-UTF-8 files. Errors exit 1, warnings alone exit 0.
import { isAbsolute, relative } from 'node:path';
import type { Command } from '../command.ts';
import { explain, loadEverything, readConfigLoading } from '../context.ts';
import { isVerbose } from '../../shared/log.ts';
import { print } from '../output.ts';
import type { Config, Diagnostic, Topic } from '../../config/types.ts';
import { UsageError } from '../../shared/errors.ts';
import { readSubject } from '../../kb/fs/read.ts';
import { findBySlug } from '../../kb/index/resolve.ts';
import { openTopic, sniffSubject, type TopicView } from '../../kb/index/view.ts';
import { renderCheckJson, renderCheckText, type CheckSummary } from '../../render/check.ts';

const NOTICE_CODES: Record<string, { code: string; severity: Diagnostic['severity'] }> = {
  'missing-directory': { code: 'subjects-not-found', severity: 'error' },
  'not-a-directory': { code: 'subjects-not-a-directory', severity: 'error' },
  'slug-collision': { code: 'slug-collision', severity: 'error' },
  'dangling-link': { code: 'dangling-link', severity: 'warning' },
  'symlink-loop': { code: 'symlink-loop', severity: 'warning' },
  unreadable: { code: 'unreadable', severity: 'warning' },
  vanished: { code: 'unreadable', severity: 'warning' },
};

const command: Command = {
  args: {
    format: { type: 'enum', options: ['text', 'json'], default: 'text', description: 'Report format' },
  },
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('kb check takes no arguments', ctx.positionals[0]);
    await loadEverything();
    const config = await readConfigLoading(ctx);
    if (isVerbose()) await explain(config);
    const summary = check(config);
    print(ctx.flags.format === 'json' ? renderCheckJson(summary) : renderCheckText(summary));
    return summary.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
  },
};

export function check(config: Config): CheckSummary {
  const diagnostics = [...config.diagnostics];
  const topics: CheckSummary['topics'] = [];
  for (const topic of config.topics) {
    const found = checkTopic(config, topic);
    diagnostics.push(...found.diagnostics);
    topics.push({ id: topic.id, enabled: topic.enable, subjects: found.subjects });
  }
  return { topics, diagnostics };
}

function checkTopic(config: Config, topic: Topic): { diagnostics: Diagnostic[]; subjects: number } {
  const out: Diagnostic[] = [];
  const at = (field: keyof Topic['sources']) => topic.where?.[field] ?? whereOf(config.root, topic.sources[field]);
  const add = (severity: Diagnostic['severity'], code: string, message: string, where?: string) =>
    out.push({ severity, code, message, where, topic: topic.id });
  const view = openTopic(topic);
  for (const n of view.index.notices) {
    const kind = NOTICE_CODES[n.kind] ?? { code: n.kind, severity: 'warning' };
    if (n.kind === 'missing-directory' || n.kind === 'not-a-directory') {
      const what = n.kind === 'missing-directory' ? 'does not exist' : 'is not a directory';
      add(kind.severity, kind.code, `topic "${topic.id}": subjects directory "${topic.subjects}" ${what}`, at('subjects'));
      continue;
    }
    add(kind.severity, kind.code, `topic "${topic.id}": ${n.message}`, rel(config.root, topic.subjectsDir, n.path));
  }
  for (const p of view.learnedPatterns) {
    if (p.kind === 'invalid') add('error', 'learned-invalid', `topic "${topic.id}": learned pattern "${p.pattern}" is invalid: ${p.reason}`, at('learned'));
    else if (p.slugs.length === 0) add('error', 'learned-no-match', `topic "${topic.id}": learned pattern "${p.pattern}" matches no subject`, at('learned'));
    else if (p.slugs.every((slug) => isBinary(view, slug))) {
      add('error', 'learned-no-match', `topic "${topic.id}": learned pattern "${p.pattern}" matches only binary files, which are never loaded`, at('learned'));
    }
  }
  const slugs = new Set(view.index.subjects.map((s) => s.slug));
  for (const d of topic.disabled) {
    if (!slugs.has(d)) add('error', 'disabled-no-match', `topic "${topic.id}": disabled slug "${d}" matches no subject`, at('disabled'));
  }
  for (const s of view.index.subjects) {
    if (view.disabled.has(s.slug)) continue;
    const r = readSubject(s.abs);
    const where = rel(config.root, topic.subjectsDir, s.path);
    if (r.kind === 'binary') add('warning', 'binary-subject', `topic "${topic.id}": subject "${s.slug}" is a binary file; it is never listed or loaded`, where);
    else if (r.kind === 'error') add('warning', 'unreadable', `topic "${topic.id}": cannot read subject "${s.slug}": ${r.message}`, where);
    else if (r.replaced) add('warning', 'invalid-utf8', `topic "${topic.id}": subject "${s.slug}" is not valid ${r.encoding === 'utf-8' ? 'UTF-8' : 'UTF-16'}; invalid bytes are replaced when loaded`, where);
  }
  return { diagnostics: out, subjects: view.index.subjects.length };
}

function isBinary(view: TopicView, slug: string): boolean {
  const subject = findBySlug(view.index.subjects, slug);
  return subject !== undefined && sniffSubject(view, subject) === 'binary';
}

function whereOf(root: string, source: string | undefined): string | undefined {
  if (!source || !isAbsolute(source)) return source;
  return relative(root, source) || source;
}

function rel(root: string, dir: string, path: string): string {
  const full = path ? `${dir}/${path}` : dir;
  const r = relative(root, full);
  return r.startsWith('..') ? full : r;
}

export default command;
