// kb check's rules: everything a pre-commit hook should catch.
// Configuration problems (TOML syntax, unknown keys, wrong types, missing
// `subjects`), then each topic's own text (control characters in its ID,
// title, introduction or description) and files: a subjects directory that
// does not exist or cannot be read, slug collisions, links that lead out of
// the workspace, `learned` patterns and `disabled` slugs that match nothing,
// binary or non-UTF-8 files. Errors fail the check, warnings alone do not.
import { startProgress, type Progress } from '../shared/progress.ts';
import {  } from 'node:fs';
import { realpathSteady } from '../shared/realpath.ts';
import { isAbsolute, relative, sep } from 'node:path';
import type { Config, Topic } from '../config/types.ts';
import { loadYaml, NEEDS_YAML, parseFrontmatter, simpleFields, type YamlModule } from '../kb/content/frontmatter.ts';
import { readSubject } from '../kb/fs/read.ts';
import { probed } from '../kb/index/describe.ts';
import { realTarget } from '../kb/fs/walk.ts';
import { controlsIn, escapeControls, jsonQuoted } from '../shared/controls.ts';
import { findBySlug } from '../kb/index/resolve.ts';
import type { Subject } from '../kb/index/types.ts';
import { kindOf, type TopicView } from '../kb/index/view.ts';
import type { CheckSummary } from '../answer/check.ts';
import type { Problem, ProblemCode, Severity } from '../shared/problem.ts';
import { estimateTokens } from '../kb/content/tokens.ts';
import { parseBudget, tokensText } from './budget.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { learnedPatternProblem } from './topics.ts';
import { binarySummary } from './binary.ts';
import { abouts } from '../kb/index/describe.ts';
import { comparedText, MIN_COMPARED_TERMS, nearPairs, ownText, PAIR_CANDIDATES, PAIR_MAX_BYTES, templateLines, textTerms, type NearPair, type NearPairs } from '../kb/write/similar.ts';
import { countText } from '../shared/text.ts';
import { skillProblems } from '../kb/index/skill-rules.ts';

export type { CheckSummary } from '../answer/check.ts';

/** A walk's notices as kb check reports them. */
const NOTICE_CODES: Record<string, { code: ProblemCode; severity: Severity }> = {
  'missing-directory': { code: 'subjects-not-found', severity: 'error' },
  'not-a-directory': { code: 'subjects-not-a-directory', severity: 'error' },
  'slug-collision': { code: 'slug-collision', severity: 'warning' },
  'dangling-link': { code: 'dangling-link', severity: 'warning' },
  'symlink-loop': { code: 'symlink-loop', severity: 'warning' },
  unreadable: { code: 'unreadable', severity: 'warning' },
  vanished: { code: 'unreadable', severity: 'warning' },
  'walked-elsewhere': { code: 'walked-elsewhere', severity: 'warning' },
  'walk-limit': { code: 'walk-limit', severity: 'warning' },
  'long-slug': { code: 'long-slug', severity: 'warning' },
  'control-character': { code: 'control-character', severity: 'warning' },
};

/** Notices about the subjects directory as a whole (`where` '') that make
 *  the topic unusable: errors, with what the directory is in kb check's
 *  words. (The walk limit is a warning like the other notices.) */
const DIRECTORY_CODES: Record<string, { code: ProblemCode; what: (reason: string) => string }> = {
  'missing-directory': { code: 'subjects-not-found', what: () => 'does not exist' },
  vanished: { code: 'subjects-not-found', what: () => 'does not exist' },
  'not-a-directory': { code: 'subjects-not-a-directory', what: () => 'is not a directory' },
  'symlink-loop': { code: 'subjects-not-a-directory', what: () => 'is a symbolic link loop' },
  unreadable: { code: 'subjects-unreadable', what: (reason) => `cannot be read: ${reason}` },
};

/** The one-line fields of a topic, and its description (which may span
 *  lines): what kb check looks for control characters in. */
const TEXT_FIELDS = ['title', 'introduction', 'description'] as const;

/** What `kb check` looks at beyond the defaults. */
export interface CheckOptions {
  /** Compare every visible subject for near duplicates, not only the
   *  ones kb wrote (`kb check --duplicates`). */
  duplicates?: boolean;
}

/** What `kb check` finds in `kb`'s configuration and topics. */
export async function check(kb: KnowledgeBase, env: Record<string, string | undefined> = {}, opts: CheckOptions = {}): Promise<CheckSummary> {
  const { config } = kb;
  const preloadWarn = preloadWarnOf(env);
  const problems = [...kb.problems];
  const topics: CheckSummary['topics'] = [];
  const root = realRoot(config.root);
  for (const topic of config.topics) {
    // A large topic says what is being checked, on a terminal.
    const progress = startProgress(`checking topic "${topic.id}"`);
    const view = kb.view(topic);
    // Frontmatter first: it probes each subject's head, and the file checks
    // below then read no binary file again.
    progress.step('frontmatter');
    const front = await checkFrontmatter(config, topic, view);
    // The texts the file checks read, kept for the near-duplicate
    // comparison of every subject (read once, not twice).
    const texts = opts.duplicates === true && topic.enable ? new Map<string, string>() : undefined;
    const found = checkTopic(config, root, topic, view, progress, texts);
    problems.push(...found.problems, ...front);
    progress.step('comparing subjects for near duplicates');
    const near = topic.enable ? await nearDuplicates(config, topic, view, opts.duplicates === true, texts) : undefined;
    progress.done();
    if (near !== undefined) problems.push(...near.problems);
    topics.push({
      id: topic.id,
      enabled: topic.enable,
      subjects: found.subjects,
      ...(found.binary !== undefined ? { binary: found.binary } : {}),
      preloaded: found.preloaded,
      preloadedTokens: found.preloadedTokens,
      ...(near?.tooShort ? { tooShort: near.tooShort } : {}),
    });
    if (found.preloadedTokens > preloadWarn) {
      problems.push({
        severity: 'warning',
        code: 'preloaded-tokens',
        message: `topic "${topic.id}": pre-loaded subjects hold ~${tokensText(found.preloadedTokens)} tokens, more than ${tokensText(preloadWarn)} (${PRELOAD_WARN_ENV}); every conversation pays for them`,
        where: topic.where?.learned ?? topic.sources.learned,
        topic: topic.id,
      });
    }
  }
  return { topics, diagnostics: problems };
}

/** Pre-loaded tokens above which `kb check` warns: 10k by default (a
 *  system prompt section every conversation pays for), or the
 *  environment's KB_PRELOAD_WARN_TOKENS. */
export const PRELOAD_WARN_ENV = 'KB_PRELOAD_WARN_TOKENS';
const PRELOAD_WARN_DEFAULT = 10_000;

function preloadWarnOf(env: Record<string, string | undefined>): number {
  const v = env[PRELOAD_WARN_ENV];
  if (v === undefined || v === '') return PRELOAD_WARN_DEFAULT;
  const b = parseBudget(v);
  return b.ok ? b.tokens : PRELOAD_WARN_DEFAULT;
}

/** Adds a problem of the topic being checked. */
type AddProblem = (severity: Severity, code: ProblemCode, message: string, where?: string) => void;
/** Where a field of the topic being checked is written. */
type FieldAt = (field: keyof Topic['sources']) => string | undefined;

/** One topic's problems, in order: its own text, the walk's notices,
 *  links leading out, its selection, then each subject's. */
function checkTopic(
  config: Config,
  root: string,
  topic: Topic,
  view: TopicView,
  progress: Progress,
  texts?: Map<string, string>,
): { problems: Problem[]; subjects: number; binary?: CheckSummary['topics'][number]['binary']; preloaded: number; preloadedTokens: number } {
  const out: Problem[] = [];
  const at: FieldAt = (field) => topic.where?.[field] ?? whereOf(config.root, topic.sources[field]);
  const add: AddProblem = (severity, code, message, where) => out.push({ severity, code, message, where, topic: topic.id });
  checkControls(topic, add, at);
  checkNotices(config, topic, view, add, at);
  checkLinks(config, root, topic, view, add, at);
  checkSelection(topic, view, add, at);
  const { preloaded, preloadedTokens, binaries } = checkSubjects(config, topic, view, progress, add, texts);
  const subjects = view.index.subjects.length - binaries.length;
  if (binaries.length === 0) return { problems: out, subjects, preloaded, preloadedTokens };
  const binary = { ...binarySummary(binaries.map((b) => b.ext)), files: binaries.map(({ slug, path }) => ({ slug, path })) };
  return { problems: out, subjects, binary, preloaded, preloadedTokens };
}

/** Control characters in the topic's own text are shown escaped (the
 *  description keeps its line breaks): say so, as the author meant
 *  something else. */
function checkControls(topic: Topic, add: AddProblem, at: FieldAt): void {
  const id = controlsIn(topic.id);
  if (id.length > 0) add('warning', 'control-character', `topic "${escapeControls(topic.id)}": the topic ID holds ${list(id)}; it is shown escaped`, at('subjects'));
  for (const field of TEXT_FIELDS) {
    const value = topic[field];
    if (value === undefined) continue;
    const found = controlsIn(value, field === 'description');
    if (found.length > 0) {
      const kind = field === 'description' ? '' : ', and a one-line field stays on one line';
      add('warning', 'control-character', `topic "${topic.id}": the ${field} holds ${list(found)}; it is shown escaped${kind}`, at(field));
    }
  }
}

/** What the walk noticed: the subjects directory's own problems, then the
 *  files'. */
function checkNotices(config: Config, topic: Topic, view: TopicView, add: AddProblem, at: FieldAt): void {
  for (const n of view.index.notices) {
    const kind = NOTICE_CODES[n.code] ?? { code: n.code, severity: 'warning' };
    const directory = n.where === '' ? DIRECTORY_CODES[n.code] : undefined;
    if (directory !== undefined) {
      add('error', directory.code, `topic "${topic.id}": subjects directory "${topic.subjects}" ${directory.what(n.reason ?? 'unreadable')}`, at('subjects'));
      continue;
    }
    add(kind.severity, kind.code, `topic "${topic.id}": ${n.message}`, rel(config.root, topic.subjectsDir, n.where));
  }
}

/** Links are followed by design, wherever they lead: one that leads out of
 *  the workspace (a cloned repository linking to ~/.ssh) shows what it
 *  leads to to the model, so the user is told. */
function checkLinks(config: Config, root: string, topic: Topic, view: TopicView, add: AddProblem, at: FieldAt): void {
  const subjectsReal = realTarget({ where: '', from: '', abs: topic.subjectsDir });
  if (inside(config.root, topic.subjectsDir) && subjectsReal !== '' && !inside(root, subjectsReal)) {
    add('warning', 'link-outside-workspace', `topic "${topic.id}": subjects directory "${topic.subjects}" leads outside the workspace, to ${subjectsReal}`, at('subjects'));
  }
  for (const link of view.index.links) {
    if (!inside(root, link.from)) continue;
    const target = realTarget(link);
    if (target === '' || inside(root, target)) continue;
    add(
      'warning',
      'link-outside-workspace',
      `topic "${topic.id}": symbolic link leads outside the workspace: ${link.where} -> ${target}; what it leads to is given to the model`,
      rel(config.root, topic.subjectsDir, link.where),
    );
  }
}

/** The `learned` patterns that select nothing loadable, and the
 *  `disabled` slugs that name no subject. */
function checkSelection(topic: Topic, view: TopicView, add: AddProblem, at: FieldAt): void {
  for (const p of view.learnedPatterns) {
    const problem = learnedPatternProblem(topic.id, p);
    if (problem) add('error', problem.code, problem.message, at('learned'));
    else if (p.slugs.every((slug) => isBinary(view, slug))) {
      add('error', 'learned-no-match', `topic "${topic.id}": learned pattern "${p.pattern}" matches only binary files, which are never loaded`, at('learned'));
    }
  }
  const slugs = new Set(view.index.subjects.map((s) => s.slug));
  for (const d of topic.disabled) {
    if (!slugs.has(d)) add('error', 'disabled-no-match', `topic "${topic.id}": disabled slug "${d}" matches no subject`, at('disabled'));
  }
}

/** Reads every subject not disabled: unreadable and invalid ones are
 *  problems; binary files, normal beside documents, are gathered (summed
 *  up in one line, each listed in JSON or with --verbose); the pre-loaded
 *  ones are counted; texts go to `texts` (the near-duplicate check's), up
 *  to COMPARED_BYTES. */
function checkSubjects(
  config: Config,
  topic: Topic,
  view: TopicView,
  progress: Progress,
  add: AddProblem,
  texts?: Map<string, string>,
): { preloaded: number; preloadedTokens: number; binaries: { slug: string; path: string; ext: string }[] } {
  const binaries: { slug: string; path: string; ext: string }[] = [];
  let preloaded = 0;
  let preloadedTokens = 0;
  let kept = 0;
  const subjects = view.index.subjects;
  for (let i = 0; i < subjects.length; i++) {
    const s = subjects[i];
    progress.tick(i, subjects.length);
    if (view.disabled.has(s.slug)) continue;
    // A skill's bundled files are whatever the skill needs (fonts,
    // archives, scripts): never listed, so nothing to warn about; one that
    // is pre-loaded (by its exact slug) is counted.
    const learned = view.learnedSlugs.has(s.slug);
    if (s.bundled && !learned) continue;
    const r = view.probed.get(s.slug)?.kind === 'binary' ? ({ kind: 'binary' } as const) : readSubject(s.abs);
    if (texts !== undefined && r.kind === 'text' && !s.hidden && s.size <= PAIR_MAX_BYTES && kept + s.size <= COMPARED_BYTES) {
      texts.set(s.slug, r.text);
      kept += s.size;
    }
    const where = rel(config.root, topic.subjectsDir, s.path);
    if (r.kind === 'text' && learned) {
      preloaded++;
      preloadedTokens += estimateTokens(r.text);
    }
    if (s.bundled) continue;
    if (r.kind === 'binary') binaries.push({ slug: s.slug, path: where, ext: s.ext });
    else if (r.kind === 'error') add('warning', 'unreadable', `topic "${topic.id}": cannot read subject "${s.slug}": ${r.message}`, where);
    else if (r.replaced) add('warning', 'invalid-utf8', `topic "${topic.id}": subject "${s.slug}" is not valid ${r.encoding === 'utf-8' ? 'UTF-8' : 'UTF-16'}; invalid bytes are replaced when loaded`, where);
  }
  return { preloaded, preloadedTokens, binaries };
}

/** The frontmatter `source` values of the subjects kb writes (`kb
 *  remember`: `user`; the MCP remember tool: `model`). */
const WRITTEN_BY_KB: ReadonlySet<unknown> = new Set(['user', 'model']);

/** Text compared for near duplicates per topic, at most (bytes): the
 *  subjects after it in walk order are not compared, and kb check says so. */
export const COMPARED_BYTES = 64 * 1024 * 1024;
/** Pairs reported per topic, at most (the most similar); the others are
 *  counted in one more warning. */
export const PAIRS_REPORTED = 1_000;

/** Pairs of visible subjects that say the same, or two versions of one
 *  fact (docs/guide/search-and-memory.md, "Remembering"): a report only; kb
 *  never removes either. By default only subjects kb wrote (frontmatter
 *  `source`) are compared: distinct documents of an upstream folder may
 *  share their words by design. `all` compares every visible subject;
 *  frontmatter and embeds are never text, and a subject kb did not write
 *  is compared on its own text (template lines, which 3 or more such
 *  subjects repeat, left out) when that has MIN_COMPARED_TERMS terms or
 *  more; the others are counted (`tooShort`). Subjects larger than
 *  PAIR_MAX_BYTES are not compared; bounds on the work (COMPARED_BYTES,
 *  PAIRS_REPORTED, and nearPairs' own) are said in a warning. `texts`: the
 *  subjects' texts already read, by slug. */
async function nearDuplicates(config: Config, topic: Topic, view: TopicView, all: boolean, texts?: ReadonlyMap<string, string>): Promise<{ problems: Problem[]; tooShort: number }> {
  const candidates: Subject[] = [];
  for (const s of view.index.subjects) {
    if (s.hidden || s.bundled || view.disabled.has(s.slug) || s.size > PAIR_MAX_BYTES || view.probed.get(s.slug)?.kind === 'binary') continue;
    candidates.push(s);
  }
  // Whether kb wrote it: from the head the probe read (no file is read
  // for a subject without frontmatter).
  const about = await abouts(view, candidates);
  const ours: { at: number; subject: Subject; text: string }[] = [];
  const others: { at: number; subject: Subject; text: string }[] = [];
  let bytes = 0;
  let unread = 0;
  for (let i = 0; i < candidates.length; i++) {
    const s = candidates[i];
    const mine = WRITTEN_BY_KB.has(about[i].source);
    if (!mine && !all) continue;
    if (bytes + s.size > COMPARED_BYTES) {
      unread++;
      continue;
    }
    const known = texts?.get(s.slug);
    // Each text once in memory: the one kept is compared from now on.
    if (known !== undefined) (texts as Map<string, string>).delete(s.slug);
    const r = known !== undefined ? ({ kind: 'text', text: known } as const) : readSubject(s.abs, PAIR_MAX_BYTES);
    if (r.kind !== 'text') continue;
    bytes += s.size;
    (mine ? ours : others).push({ at: i, subject: s, text: comparedText(r.text) });
  }
  const compared: { at: number; subject: Subject; text: string; terms?: string[] }[] = [...ours];
  const kbs = new Set(ours.map((o) => o.subject));
  const isOurs = (c: { subject: Subject }) => kbs.has(c.subject);
  let tooShort = 0;
  const template = templateLines(others.map((o) => o.text));
  for (const o of others) {
    const own = ownText(o.text, template);
    const terms = textTerms(own);
    if (terms.length < MIN_COMPARED_TERMS) tooShort++;
    else compared.push({ ...o, text: own, terms });
  }
  // In walk order, as the pairs are reported.
  if (others.length > 0) compared.sort((x, y) => x.at - y.at);
  const found = nearPairs(
    compared.map((c) => c.text),
    undefined,
    (d) => compared[d].terms ?? textTerms(compared[d].text),
  );
  const where = (i: number) => rel(config.root, topic.subjectsDir, compared[i].subject.path);
  // Two versions of one fact are said for facts kb wrote: documents that
  // differ in their names and numbers are mostly two documents.
  const ourUpdate = (p: NearPair) => p.judgement.kind !== 'update' || (isOurs(compared[p.a]) && isOurs(compared[p.b]));
  const reported = found.pairs.filter(ourUpdate);
  const problems: Problem[] = reported.slice(0, PAIRS_REPORTED).map(({ a, b, similarity, judgement }) => {
    const [x, y] = [compared[a].subject.slug, compared[b].subject.slug];
    if (judgement.kind === 'update') {
      const changed = `${quotedList(judgement.was)} in "${x}", ${quotedList(judgement.now)} in "${y}"`;
      return warn('two-versions', `topic "${topic.id}": subjects "${x}" and "${y}" look like two versions of one fact (${changed}; similarity ${similarity.toFixed(2)}); keep the one that holds: revise it and forget the other (kb never removes either by itself)`, where(a));
    }
    return warn('near-duplicate', `topic "${topic.id}": subjects "${x}" and "${y}" say nearly the same (similarity ${similarity.toFixed(2)}); merge them or forget one (kb never removes either by itself)`, where(a));
  });
  const cut = boundsSaid(topic, { ...found, pairs: reported }, unread, compared.length);
  return { problems: cut.length > 0 ? [...problems, ...cut.map((m) => warn('duplicate-check-bounded', m))] : problems, tooShort };

  function warn(code: ProblemCode, message: string, at?: string): Problem {
    return { severity: 'warning', code, message, ...(at !== undefined ? { where: at } : {}), topic: topic.id };
  }
}

/** `"a" "b"`, as an update's values are named. */
function quotedList(values: readonly string[] | undefined): string {
  return (values ?? []).map((v) => `"${v}"`).join(' ');
}

/** What the bounds of a near-duplicate comparison left out, one sentence
 *  each. */
function boundsSaid(topic: Topic, found: NearPairs, unread: number, compared: number): string[] {
  const out: string[] = [];
  const at = `topic "${topic.id}": the near-duplicate comparison`;
  if (unread > 0) out.push(`${at} read ${MIB(COMPARED_BYTES)} of subjects at most: ${countText(unread)} more ${unread === 1 ? 'was' : 'were'} not compared`);
  if (found.leftOut > 0) {
    out.push(
      `${at} left out ${countText(found.leftOut)} word${found.leftOut === 1 ? '' : 's'} found in ${countText(found.leftOutFrom)} subjects or more (of ${countText(compared)} compared), to bound its work: subjects alike mostly by those words are not found`,
    );
  }
  if (found.notJudged > 0) out.push(`${at} found more than ${countText(PAIR_CANDIDATES)} similar pairs: ${countText(found.notJudged)} more were not judged`);
  if (found.pairs.length > PAIRS_REPORTED) out.push(`${at} found ${countText(found.pairs.length)} pairs: the ${countText(PAIRS_REPORTED)} most similar are reported, ${countText(found.pairs.length - PAIRS_REPORTED)} more are not`);
  return out;
}

const MIB = (bytes: number) => `${bytes / 1048576} MiB`;

/** Frontmatter that cannot be read (no description, a warning), and
 *  skills that break the Agent Skills specification (warnings). Loads the
 *  YAML parser only when some frontmatter needs it. */
async function checkFrontmatter(config: Config, topic: Topic, view: TopicView): Promise<Problem[]> {
  const out: Problem[] = [];
  const add = (code: ProblemCode, message: string, s: Subject) =>
    out.push({ severity: 'warning', code, message: `topic "${topic.id}": ${message}`, where: rel(config.root, topic.subjectsDir, s.path), topic: topic.id });
  let lib: YamlModule | undefined;
  for (const s of view.index.subjects) {
    if (view.disabled.has(s.slug) || s.bundled) continue;
    const front = probed(view, s)?.front;
    if (front === null) {
      add('frontmatter', `subject "${s.slug}" starts with a frontmatter fence (---) that is not closed within its first 8 KiB; it has no description`, s);
      if (s.skill) add('skill', `skill "${s.slug}" has no readable frontmatter; the Agent Skills specification requires name and description`, s);
      continue;
    }
    if (front === undefined) {
      if (s.skill) add('skill', `skill "${s.slug}" has no frontmatter; the Agent Skills specification requires name and description`, s);
      continue;
    }
    let fields = simpleFields(front) as Record<string, unknown> | typeof NEEDS_YAML;
    if (fields === NEEDS_YAML) {
      const parsed = parseFrontmatter(front, (lib ??= await loadYaml()));
      if (!parsed.ok) {
        add('frontmatter', `subject "${s.slug}" has frontmatter that is not valid YAML (${parsed.reason}); it has no description`, s);
        continue;
      }
      fields = parsed.data;
    }
    if (s.skill) checkSkill(s, fields, (message) => add('skill', message, s));
  }
  return out;
}

/** A skill's frontmatter against the Agent Skills specification
 *  (kb/index/skill-rules.ts): name, description, compatibility, metadata.
 *  Other fields (when_to_use, allowed-tools, license...) are fine. */
function checkSkill(s: Subject, fields: Record<string, unknown>, warn: (message: string) => void): void {
  const dir = s.skill!.dir.slice(s.skill!.dir.lastIndexOf('/') + 1);
  for (const problem of skillProblems(s.slug, fields, dir)) warn(problem);
}

/** `a`, `a and b`, `a, b and c`, each quoted with backquotes. */
function list(items: string[]): string {
  const q = items.map((i) => `\`${i}\``);
  const words = q.length === 1 ? q[0] : `${q.slice(0, -1).join(', ')} and ${q[q.length - 1]}`;
  return `${q.length === 1 ? 'a control character' : 'control characters'} (${words})`;
}

/** The workspace root's real path (links resolved), or the root. */
function realRoot(root: string): string {
  try {
    return realpathSteady(root);
  } catch {
    return root;
  }
}

/** Whether `path` is `root` or below it. */
function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function isBinary(view: TopicView, slug: string): boolean {
  const subject = findBySlug(view.index.subjects, slug);
  return subject !== undefined && kindOf(view, subject) === 'binary';
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
