// The MCP Skills extension (`io.modelcontextprotocol/skills`, SEP-2640):
// `skills/list`, `skills/get`, and `resources/read` of `skill://` URIs,
// over the topics' skills (app/skills.ts). A skill's URI is
// `skill://<topic>/<directory>/SKILL.md`: the topic's ID, then the skill's
// directory within the topic's subjects directory (whose last component
// is the skill's `name`, as the Agent Skills specification requires); a
// file of it is `skill://<topic>/<directory>/<path in the skill>`. Each
// component is percent-encoded.
//
// The results carry `resultType`, `ttlMs` and `cacheScope` under every
// protocol revision: the extension requires them of `skills/list` and
// `skills/get`, and a client of an older revision passes them over.
import { Buffer } from 'node:buffer';
import { listedSkills, SkillDigests, skillAt, skillEntry, skillFile, type SkillEntry, type SkillRef } from '../app/skills.ts';
import type { KnowledgeBase } from '../app/knowledge-base.ts';
import { jsonQuoted } from '../shared/controls.ts';
import { paceOf } from '../shared/pace.ts';
import { compareCodeUnits, humanSize } from '../shared/text.ts';
import { Cursors, INTERNAL_ERROR, INVALID_PARAMS, type KbSession, RESOURCE_NOT_FOUND, RequestError, BATCH_LIMIT } from './session.ts';

/** The extension's identifier, the key of its capability. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
export const SKILL_SCHEME = 'skill://';
const SKILL_MD = 'SKILL.md';

/** How long a host may treat a listing or an entry as current: not at
 *  all, since kb's skills change when their files do (and every read is
 *  verified against the entry anyway). The files are the user's own:
 *  no cache shared across users may keep them. */
const CACHE = { ttlMs: 0, cacheScope: 'private' } as const;

/** Skills per `skills/list` page at most; a page also ends once its
 *  entries hold PAGE_JSON bytes, or once PAGE_READ bytes were read to
 *  digest them (digests kept from earlier requests cost no read), so
 *  that one request reads a bounded amount whatever the topics hold. A
 *  page holds at least one skill. */
export const SKILLS_PAGE = 50;
const PAGE_JSON = 1024 * 1024;
const PAGE_READ = 64 * 1024 * 1024;
/** The longest URI taken. */
const MAX_URI = 8192;

/** What the extension keeps per server: the digests of unchanged files,
 *  its cursors. */
interface SkillsState {
  digests: SkillDigests;
  cursors: Cursors;
}
const states = new WeakMap<KbSession, SkillsState>();

function stateOf(session: KbSession): SkillsState {
  let state = states.get(session);
  if (state === undefined) {
    state = { digests: new SkillDigests(), cursors: new Cursors() };
    states.set(session, state);
  }
  return state;
}

/** `skill://<topic>/<dir>/<path>`, each component percent-encoded. */
export function skillUri(topic: string, dir: string, path: string): string {
  const enc = (p: string) => p.split('/').map(encodeURIComponent).join('/');
  return `${SKILL_SCHEME}${encodeURIComponent(topic)}/${enc(dir)}/${enc(path)}`;
}

/** A `skill://` URI's topic and path components, decoded; undefined when
 *  it is none kb could have made (no components, an empty, `.` or `..`
 *  one, a query or fragment, bad percent-encoding, longer than MAX_URI). */
export function parseSkillUri(uri: string): { topic: string; segments: string[] } | undefined {
  if (!uri.startsWith(SKILL_SCHEME) || uri.length > MAX_URI || uri.includes('?') || uri.includes('#')) return undefined;
  const parts = uri.slice(SKILL_SCHEME.length).split('/');
  if (parts.length < 3) return undefined;
  const decoded: string[] = [];
  for (const p of parts) {
    let d: string;
    try {
      d = decodeURIComponent(p);
    } catch {
      return undefined;
    }
    if (d === '' || d === '.' || d === '..' || d.includes('/')) return undefined;
    decoded.push(d);
  }
  return { topic: decoded[0], segments: decoded.slice(1) };
}

/** An entry as the extension writes it. */
function skillJson(ref: SkillRef, entry: Extract<SkillEntry, { ok: true }>) {
  return {
    uri: skillUri(ref.topic.id, ref.dir, SKILL_MD),
    frontmatter: entry.frontmatter,
    resources: entry.files.map((f) => ({ uri: skillUri(ref.topic.id, ref.dir, f.path), digest: f.digest, size: f.size })),
  };
}

/** Says once per server, on stderr, why a skill is not served. */
function noteUnserved(session: KbSession, ref: SkillRef, reason: string): void {
  session.note({ severity: 'warning', code: 'skill', message: `topic "${ref.topic.id}": skill "${ref.subject.slug}" is not served over MCP (the Skills extension): ${reason}`, topic: ref.topic.id });
}

/** `skills/list`: the entries of the listed skills (neither hidden nor
 *  disabled, and servable), a page at a time. */
export async function listSkills(session: KbSession, cursor: string | undefined, signal?: AbortSignal) {
  const state = stateOf(session);
  const kb = await session.open();
  await kb.settle();
  const refs = listedSkills(kb);
  for (const topic of kb.topics) if (topic.enable) for (const p of kb.topicProblems(topic)) session.note(p);
  const from = cursor === undefined ? 0 : after(state, kb, refs, cursor);
  const pace = paceOf(signal);
  const skills: ReturnType<typeof skillJson>[] = [];
  let json = 0;
  let read = 0;
  let i = from;
  for (; i < refs.length && skills.length < SKILLS_PAGE && json < PAGE_JSON && read < PAGE_READ; i++) {
    const ref = refs[i];
    const entry = await skillEntry(ref, state.digests, pace);
    if (!entry.ok) {
      noteUnserved(session, ref, entry.reason);
      continue;
    }
    const one = skillJson(ref, entry);
    skills.push(one);
    json += JSON.stringify(one).length;
    read += entry.read;
  }
  const last = refs[i - 1];
  const next = i < refs.length && last !== undefined ? { nextCursor: state.cursors.make(last.topic.id, last.subject.slug) } : {};
  return { resultType: 'complete', skills, ...next, ...CACHE };
}

/** Where a page goes on from: the first skill after the cursor's, so that
 *  none is repeated or skipped when skills come and go. */
function after(state: SkillsState, kb: KnowledgeBase, refs: readonly SkillRef[], cursor: string): number {
  const at = state.cursors.parse(cursor);
  if (at === undefined) throw new RequestError(INVALID_PARAMS, `invalid cursor: ${jsonQuoted(cursor.slice(0, 40))} is not one this server issued; list again without a cursor`);
  // Topics in the order of the configuration, as the skills are listed.
  const order = (id: string) => kb.topics.findIndex((t) => t.id === id && t.enable);
  const t = order(at.topic);
  if (t < 0) throw new RequestError(INVALID_PARAMS, `invalid cursor: its topic ${jsonQuoted(at.topic.slice(0, 40))} is no longer served; list again without a cursor`);
  const i = refs.findIndex((r) => {
    const o = order(r.topic.id);
    return o > t || (o === t && compareCodeUnits(r.subject.slug, at.slug) > 0);
  });
  return i < 0 ? refs.length : i;
}

/** `skills/get`: the entry of the skill whose SKILL.md is at `uri`, listed
 *  or not (a hidden skill too); -32602 for any other URI, with why. */
export async function getSkill(session: KbSession, uri: string, signal?: AbortSignal) {
  const unknown = (why: string) => new RequestError(INVALID_PARAMS, `No skill is served at ${shown(uri)}: ${why}`);
  const parsed = parseSkillUri(uri);
  if (parsed === undefined) throw unknown(`not a skill URI kb serves (${SKILL_SCHEME}<topic>/<skill directory>/${SKILL_MD})`);
  if (parsed.segments.at(-1) !== SKILL_MD) throw unknown(`a skill's URI ends in /${SKILL_MD}`);
  const state = stateOf(session);
  const kb = await session.open();
  const found = skillAt(kb, parsed.topic, parsed.segments);
  if (found === undefined || found.path !== SKILL_MD) throw unknown(`no enabled topic "${parsed.topic}" has a skill there`);
  const entry = await skillEntry(found.ref, state.digests, paceOf(signal));
  if (!entry.ok) {
    noteUnserved(session, found.ref, entry.reason);
    throw unknown(entry.reason);
  }
  return { resultType: 'complete', skill: skillJson(found.ref, entry), ...CACHE };
}

/** `resources/read` of a `skill://` URI: the file's bytes whole, as text
 *  when they are UTF-8 text, else base64 (`blob`), never cut (a host
 *  checks them against the entry's digest). Not found: -32002, as any
 *  resource. */
export async function readSkillResource(session: KbSession, uri: string) {
  const missing = (why: string) => new RequestError(RESOURCE_NOT_FOUND, `resource not found: ${shown(uri)} (${why})`);
  const parsed = parseSkillUri(uri);
  if (parsed === undefined) throw missing(`not a skill URI kb serves (${SKILL_SCHEME}<topic>/<skill directory>/<file>)`);
  const kb = await session.open();
  const found = skillAt(kb, parsed.topic, parsed.segments);
  if (found === undefined) throw missing(`no enabled topic "${parsed.topic}" has a skill there`);
  const read = await skillFile(found.ref, found.path);
  if (read.kind === 'not-found') throw missing(read.why);
  if (read.kind === 'error') throw new RequestError(INTERNAL_ERROR, `cannot read ${shown(uri)}: ${read.message}`);
  const room = session.room;
  const size = read.kind === 'text' ? Buffer.byteLength(read.text) : read.bytes.length;
  if (room.batchUsed !== undefined && size > room.limit) {
    throw new RequestError(INTERNAL_ERROR, `cannot send ${shown(uri)} in this batch: it is ${humanSize(size)}, and the replies of one batch hold at most ${humanSize(BATCH_LIMIT)} (${humanSize(room.batchUsed)} taken); read it on its own`);
  }
  const body = read.kind === 'text' ? { text: read.text } : { blob: Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.length).toString('base64') };
  return { contents: [{ uri, mimeType: read.mimeType, ...body }] };
}

/** A URI a client sent, for a message: at most 200 characters. */
function shown(uri: string): string {
  return uri.length > 200 ? `${uri.slice(0, 200)}…` : uri;
}
