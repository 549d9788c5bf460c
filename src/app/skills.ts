// The topics' Agent Skills as the MCP Skills extension serves them
// (`io.modelcontextprotocol/skills`): which skills there are, each one's
// entry (its frontmatter as JSON and a manifest of its files with their
// SHA-256 digests and sizes), and a skill's file by its path. The front
// end (mcp/skills.ts) makes the URIs and the protocol's shapes.
//
// A skill is what kb's index calls one (kb/index/subjects.ts): an
// outermost directory holding SKILL.md, below a topic's top. Its files are
// SKILL.md and every file the walk found below the directory (ignore
// files and ignored files are not; links as the walk takes them),
// less those a name rule leaves out (kb/index/clean.ts) and those disabled
// by their own slug. The rules everything else keeps hold here too: a
// disabled skill (kb/index/disabled.ts) is never listed, got or read, nor
// are its files; a hidden one (in a hidden folder) is not listed but is
// served by its exact URI, as a hidden subject loads by its exact slug.
import type { Topic } from '../config/types.ts';
import { frontmatterJson, type FrontmatterJson } from '../kb/content/frontmatter-json.ts';
import { loadYaml, NEEDS_YAML } from '../kb/content/frontmatter.ts';
import { isUtf8 } from 'node:buffer';
import { mediaTypeOf } from '../kb/content/mime.ts';
import { digestFile, fileBytes, stampNow, type DigestResult, type Stamp } from '../kb/fs/digest.ts';
import { isBinaryHead } from '../kb/fs/probe.ts';
import { leftOutByName } from '../kb/index/clean.ts';
import { probed } from '../kb/index/describe.ts';
import { skillProblems } from '../kb/index/skill-rules.ts';
import { SKILL_FILE } from '../kb/index/subjects.ts';
import type { Subject } from '../kb/index/types.ts';
import { kindOf, type TopicView } from '../kb/index/view.ts';
import type { Pace } from '../shared/pace.ts';
import { humanSize } from '../shared/text.ts';
import type { KnowledgeBase } from './knowledge-base.ts';

/** The extension's limits on one skill: hosts must take skills up to
 *  them, and servers should serve none past them (kb serves none). */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

/** One skill of an enabled topic. */
export interface SkillRef {
  topic: Topic;
  view: TopicView;
  /** The skill's subject (its content: SKILL.md). */
  subject: Subject;
  /** Its directory, relative to the topic's subjects directory,
   *  `/`-separated, as on disk (a hidden folder keeps its dot). */
  dir: string;
  /** In a hidden folder: not listed, served by its exact URI. */
  hidden: boolean;
}

/** One file of a skill: its path relative to the skill's directory, and
 *  its size as the walk stat'ed it. */
export interface SkillFile {
  path: string;
  abs: string;
  size: number;
}

/** What a skill is, before its files are read: its frontmatter as JSON,
 *  and its files (SKILL.md first, the rest by path); or why it is not
 *  served. */
export type SkillShape = { ok: true; frontmatter: Record<string, unknown>; files: SkillFile[] } | { ok: false; reason: string };

/** A file of a skill's manifest. */
export interface ManifestFile {
  path: string;
  digest: string;
  size: number;
}

/** A skill's entry: its frontmatter and the manifest of its files; or
 *  why it is not served. `read`: the bytes read to make it (digests not
 *  kept from earlier requests). */
export type SkillEntry = { ok: true; frontmatter: Record<string, unknown>; files: ManifestFile[]; read: number } | { ok: false; reason: string };

/** The skills of one view by directory, made once per view. */
const byDir = new WeakMap<TopicView, Map<string, Subject>>();

function skillsByDir(view: TopicView): Map<string, Subject> {
  let map = byDir.get(view);
  if (map === undefined) {
    map = new Map();
    for (const s of view.index.subjects) if (s.skill !== undefined && !view.disabled.has(s.slug)) map.set(s.skill.dir, s);
    byDir.set(view, map);
  }
  return map;
}

function refOf(topic: Topic, view: TopicView, subject: Subject): SkillRef {
  return { topic, view, subject, dir: subject.skill!.dir, hidden: subject.hidden };
}

/** The skills of the enabled topics that a listing shows, in order:
 *  topics as configured, skills by slug; disabled and hidden ones are
 *  not. */
export function listedSkills(kb: KnowledgeBase): SkillRef[] {
  const out: SkillRef[] = [];
  for (const topic of kb.topics) {
    if (!topic.enable) continue;
    const view = kb.view(topic);
    for (const s of view.index.subjects) if (s.skill !== undefined && !s.hidden && !view.disabled.has(s.slug)) out.push(refOf(topic, view, s));
  }
  return out;
}

/** The skill that `segments` (decoded path components, after the topic)
 *  name a file of, and that file's path in it: the skill whose directory
 *  they start with (skills never nest: at most one does). Disabled
 *  skills, disabled topics and unknown ones: undefined. */
export function skillAt(kb: KnowledgeBase, topicId: string, segments: readonly string[]): { ref: SkillRef; path: string } | undefined {
  const topic = kb.topics.find((t) => t.enable && t.id === topicId);
  if (topic === undefined) return undefined;
  const view = kb.view(topic);
  const skills = skillsByDir(view);
  let dir = '';
  for (let i = 0; i < segments.length - 1; i++) {
    dir = i === 0 ? segments[0] : `${dir}/${segments[i]}`;
    const s = skills.get(dir);
    if (s !== undefined) return { ref: refOf(topic, view, s), path: segments.slice(i + 1).join('/') };
  }
  return undefined;
}

/** A skill's frontmatter and files, checked against what the extension
 *  needs (the Agent Skills rules for name and description, its limits),
 *  from what the walk and the probe know: no file is read but SKILL.md's
 *  head, and, once, the YAML parser when the frontmatter needs it. */
export async function skillShape(ref: SkillRef): Promise<SkillShape> {
  const { view, subject } = ref;
  if (kindOf(view, subject) !== 'text') return { ok: false, reason: `its ${SKILL_FILE} is not a readable text file` };
  const front = probed(view, subject)?.front;
  if (front === undefined) return { ok: false, reason: `its ${SKILL_FILE} has no frontmatter; the Agent Skills specification requires name and description` };
  if (front === null) return { ok: false, reason: `the frontmatter of its ${SKILL_FILE} is not closed within its first 8 KiB` };
  const parsed = await frontmatterOf(probed(view, subject)!, front);
  if (!parsed.ok) return { ok: false, reason: `the frontmatter of its ${SKILL_FILE} cannot be served: ${parsed.reason}` };
  const fm = parsed.data;
  // The Agent Skills specification's rules, as `kb check` warns by them:
  // hosts refuse an entry that breaks one (the official SDK's client
  // refuses the whole listing).
  const broken = skillProblems(subject.slug, fm, ref.dir.slice(ref.dir.lastIndexOf('/') + 1));
  if (broken.length > 0) return { ok: false, reason: broken.map((p) => withoutSlug(p, subject.slug)).join('; ') };
  const files = filesOf(ref);
  if (files.length > SKILL_LIMITS.files) return { ok: false, reason: `it has ${files.length} files; the Skills extension serves at most ${SKILL_LIMITS.files} a skill` };
  let bytes = 0;
  for (const f of files) bytes += Math.max(0, f.size);
  if (bytes > SKILL_LIMITS.bytes) return { ok: false, reason: `its files hold ${humanSize(bytes)}; the Skills extension serves at most ${humanSize(SKILL_LIMITS.bytes)} a skill` };
  return { ok: true, frontmatter: fm, files };
}

/** Frontmatter as JSON by probe result: a result is kept while its file
 *  is unchanged (between the requests of `kb mcp` too: kb/index/cache.ts),
 *  so an unchanged SKILL.md is parsed once. */
const parsedOf = new WeakMap<object, FrontmatterJson>();

async function frontmatterOf(result: object, front: string): Promise<FrontmatterJson> {
  let parsed = parsedOf.get(result);
  if (parsed === undefined) {
    const fast = frontmatterJson(front);
    parsed = fast !== NEEDS_YAML ? fast : (frontmatterJson(front, await loadYaml()) as FrontmatterJson);
    parsedOf.set(result, parsed);
  }
  return parsed;
}

/** A rule's words without the skill's slug they start with (the
 *  server's note names the skill already): `name "X" must be...`, `it has
 *  no description...`. */
function withoutSlug(problem: string, slug: string): string {
  const head = `skill "${slug}"`;
  if (!problem.startsWith(head)) return problem;
  const rest = problem.slice(head.length);
  return rest.startsWith(': ') ? rest.slice(2) : `it${rest}`;
}

/** SKILL.md, then every other file of the skill by path (code-unit
 *  order), less those left out by name and those disabled by their own
 *  slug. */
function filesOf(ref: SkillRef): SkillFile[] {
  const { subject, view } = ref;
  const from = ref.dir.length + 1;
  const rest: SkillFile[] = [];
  for (const f of subject.skill!.files) {
    if (view.disabled.has(f.slug) || leftOutByName(f)) continue;
    rest.push({ path: f.path.slice(from), abs: f.abs, size: f.size });
  }
  rest.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return [{ path: SKILL_FILE, abs: subject.abs, size: subject.size }, ...rest];
}

/** A skill's entry: its shape, and each file's digest and size (kept
 *  between requests in `digests` while the file is unchanged). */
export async function skillEntry(ref: SkillRef, digests: SkillDigests, pace?: Pace): Promise<SkillEntry> {
  const shape = await skillShape(ref);
  if (!shape.ok) return shape;
  const files: ManifestFile[] = [];
  let total = 0;
  let read = 0;
  for (const f of shape.files) {
    const turn = pace?.();
    if (turn !== undefined) await turn;
    const d = digests.of(f.abs, f.path === SKILL_FILE);
    if (d.kind === 'error') return { ok: false, reason: `its file ${f.path} cannot be read (${d.message})` };
    if (f.path === SKILL_FILE && d.text === false) return { ok: false, reason: `its ${SKILL_FILE} is not UTF-8 text` };
    if (!d.kept) read += d.size;
    total += d.size;
    if (total > SKILL_LIMITS.bytes) return { ok: false, reason: `its files hold more than ${humanSize(SKILL_LIMITS.bytes)}; the Skills extension serves at most ${humanSize(SKILL_LIMITS.bytes)} a skill` };
    files.push({ path: f.path, digest: d.digest, size: d.size });
  }
  return { ok: true, frontmatter: shape.frontmatter, files, read };
}

/** A file of a skill as served: text when its bytes are UTF-8 text (no
 *  NUL in the first 8192, kb's rule for binary), exactly those bytes
 *  decoded (a byte-order mark kept); else the bytes. */
export type SkillFileRead =
  | { kind: 'text'; text: string; mimeType: string }
  | { kind: 'bytes'; bytes: Uint8Array; mimeType: string }
  | { kind: 'not-found'; why: string }
  | { kind: 'error'; message: string };

/** One file of a skill by its path in it (at most the extension's limit
 *  for a whole skill). Only the skill's files are read: a path is looked
 *  up among them, never joined onto a directory. */
export async function skillFile(ref: SkillRef, path: string): Promise<SkillFileRead> {
  const shape = await skillShape(ref);
  if (!shape.ok) return { kind: 'not-found', why: `the skill is not served: ${shape.reason}` };
  const file = shape.files.find((f) => f.path === path);
  if (file === undefined) return { kind: 'not-found', why: `the skill has no file ${path}` };
  const read = fileBytes(file.abs, SKILL_LIMITS.bytes);
  if (read.kind === 'error') return read;
  const bytes = read.bytes;
  const text = !isBinaryHead(bytes) && isUtf8(bytes);
  const mimeType = path === SKILL_FILE ? 'text/markdown' : mediaTypeOf(path, text);
  return text ? { kind: 'text', text: asText.decode(bytes), mimeType } : { kind: 'bytes', bytes, mimeType };
}

/** UTF-8 text as it is: a byte-order mark stays (the digest covers it). */
const asText = new TextDecoder('utf-8', { ignoreBOM: true });

/** How old a file must be for its digest to be kept: a file written in
 *  the same tick as it was read could change with no change to its stamp
 *  (file times are coarser than writes). */
const SETTLED_MS = 2000;
/** Digests kept at most; past it, the store starts again. */
const MAX_KEPT = 100_000;

/** Digests kept between the requests of a long-lived server, each for as
 *  long as a stat of its file gives the same stamp. */
export class SkillDigests {
  private readonly kept = new Map<string, { stamp: Stamp; digest: string; size: number; text?: boolean }>();

  /** The digest of the file at `abs` (`text`: and whether it is text),
   *  `kept` when it comes from an earlier read. */
  of(abs: string, text: boolean): (DigestResult & { kept?: boolean }) | { kind: 'digest'; digest: string; size: number; text?: boolean; kept: true } {
    const known = this.kept.get(abs);
    if (known !== undefined && (!text || known.text !== undefined) && stampNow(abs) === known.stamp) {
      return { kind: 'digest', digest: known.digest, size: known.size, ...(known.text !== undefined ? { text: known.text } : {}), kept: true };
    }
    const d = digestFile(abs, SKILL_LIMITS.bytes, text);
    if (d.kind === 'digest' && Date.now() - d.mtimeMs > SETTLED_MS) {
      if (this.kept.size >= MAX_KEPT) this.kept.clear();
      this.kept.set(abs, { stamp: d.stamp, digest: d.digest, size: d.size, ...(d.text !== undefined ? { text: d.text } : {}) });
    }
    return d;
  }
}
