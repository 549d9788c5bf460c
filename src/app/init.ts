// kb init [DIR...]: makes a directory a workspace (docs/commands.md, "`kb init`"). It
// creates `.jp/config.toml` when missing, and one topic per folder given:
// its ID made from the folder's name (config/topic-id.ts), its `subjects`
// the folder's path from the workspace root. With no folder, one topic
// `notes` at `.jp/kb/notes`, created, for `kb remember`.
//
// It never overwrites: an existing configuration file gets only the topic
// tables it lacks, appended as text, so that its comments and layout stay
// as they were. A folder that is missing, not a folder, or outside the
// workspace (a symbolic link out included) is an error, and then nothing is
// written; a folder some topic already has is a note. The new text is
// parsed before anything is written: text that would not read back as the
// topics meant is never written.
//
// Writes are atomic (kb/write/file.ts): a new file appears whole, an
// existing one is replaced at once by a renamed temporary file. Nothing is
// written through a symbolic link that leads out of the workspace, and
// folders are created inside it only.
//
// It returns plain data; the front end renders it (render/init.ts).
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { KB_KEY, TOPIC_KEY, isTable } from '../config/fields.ts';
import { MAX_CONFIG_BYTES, locateConfigFile } from '../config/files.ts';
import { formatOf } from '../config/formats.ts';
import { loadConfig } from '../config/load.ts';
import { parseToml } from '../config/toml.ts';
import { topicIdFrom, topicIdKey, uniqueTopicId } from '../config/topic-id.ts';
import { SKILL_FILE } from '../kb/index/subjects.ts';
import { replaceFile, writeNewFile } from '../kb/write/file.ts';
import type { Problem } from '../shared/problem.ts';

/** Where the workspace configuration lives, from the workspace root. */
export const CONFIG_DIR = '.jp';
export const CONFIG_FILE = 'config.toml';
/** The folder of the topic a bare `kb init` makes, from the root. */
export const NOTES_DIR = '.jp/kb/notes';
export const NOTES_ID = 'notes';

/** Folders read, at most, to find Agent Skills in a folder given. */
const SKILL_SCAN_DIRS = 2000;
/** How deep below a folder given skills are looked for. */
const SKILL_SCAN_DEPTH = 2;

export interface InitOptions {
  cwd: string;
  /** -w: the directory to make a workspace (default: cwd). */
  workspace?: string;
  /** The folders to make topics of, as given (relative to cwd). */
  dirs: readonly string[];
  dryRun: boolean;
  env: Record<string, string | undefined>;
  home: string;
}

export interface AddedTopic {
  id: string;
  /** As written in `subjects` (relative to the root, `/`-separated). */
  subjects: string;
  /** The folder as given (undefined: the notes topic of a bare init). */
  given?: string;
  /** The folder's name, when the ID had to differ from it. */
  from?: string;
  /** The folder was created (the notes topic). */
  created: boolean;
  /** Agent Skills found below the folder (paths from it); `skillsMore`
   *  when the look stopped before the end. */
  skills: string[];
  skillsMore: boolean;
  /** The folder holds SKILL.md itself: a topic lists it as an ordinary
   *  subject, not as a skill. */
  isSkill: boolean;
}

export interface InitNote {
  /** The folder as given. */
  given: string;
  message: string;
}

export interface InitResult {
  /** The workspace root (absolute). */
  root: string;
  /** Whether -w named a directory other than the working directory. */
  elsewhere: boolean;
  /** The configuration file, from the root (`.jp/config.toml`). */
  config: string;
  /** It did not exist: `text` is the whole new file. */
  createdConfig: boolean;
  /** `.jp/` did not exist. */
  createdWorkspace: boolean;
  /** The topics added (none: nothing to do, or an error). */
  added: AddedTopic[];
  /** The text added to the configuration file (or that would be, with
   *  --dry-run): the new file, or the tables appended. '' when nothing. */
  text: string;
  notes: InitNote[];
  /** Problems that stopped init: nothing was written. */
  errors: Problem[];
  /** Something was written to disk. */
  written: boolean;
  dryRun: boolean;
  /** A workspace above the root, which the new one hides from commands run
   *  inside it. */
  outer?: string;
  /** The topics the workspace had already. */
  existing: number;
}

const HEADER = [
  '# kb: a knowledge base for LLM assistants. Each [kb.topic.<id>] table is a topic: a',
  '# folder of text files (its subjects), `subjects` being its path from the workspace root.',
  '# Optional fields: title, introduction, description, learned, disabled, enable',
  '# (`kb config-schema` describes them). `kb check` validates this file.',
];

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function lstatOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function realOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function errno(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? String(err);
}

/** The path from the root, `/`-separated; '.' for the root itself. */
function fromRoot(root: string, path: string): string {
  const rel = relative(root, path);
  return rel === '' ? '.' : rel.split(sep).join('/');
}

/** A TOML basic string: JSON's escapes are TOML's, except that TOML also
 *  wants DEL escaped. */
function tomlString(s: string): string {
  return JSON.stringify(s).replace(/\x7f/g, '\\u007f');
}

function topicTable(t: AddedTopic, eol: string): string {
  const lines = [`[${KB_KEY}.${TOPIC_KEY}.${t.id}]`, `subjects = ${tomlString(t.subjects)}`];
  return lines.join(eol) + eol;
}

/** Agent Skills below `dir`: folders holding SKILL.md, the outermost only,
 *  at most SKILL_SCAN_DEPTH levels down, hidden folders and node_modules
 *  left out (as the walk leaves them out), at most SKILL_SCAN_DIRS folders
 *  read. */
export function findSkills(dir: string): { skills: string[]; more: boolean; isSkill: boolean } {
  const skills: string[] = [];
  let read = 0;
  let more = false;
  const names = (abs: string): { dirs: string[]; skill: boolean } => {
    read++;
    try {
      const entries = readdirSync(abs, { withFileTypes: true });
      return {
        dirs: entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules').map((e) => e.name).sort(),
        skill: entries.some((e) => e.name === SKILL_FILE && (e.isFile() || e.isSymbolicLink())),
      };
    } catch {
      return { dirs: [], skill: false };
    }
  };
  const top = names(dir);
  let level: string[] = top.dirs;
  for (let depth = 1; depth <= SKILL_SCAN_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const rel of level) {
      if (read >= SKILL_SCAN_DIRS) {
        more = true;
        break;
      }
      const found = names(join(dir, rel));
      if (found.skill) skills.push(rel);
      else for (const d of found.dirs) next.push(`${rel}/${d}`);
    }
    if (more) break;
    level = next;
  }
  return { skills, more, isSkill: top.skill };
}

/** The nearest directory above `root` holding `.jp/`. */
function outerWorkspace(root: string): string | undefined {
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    if (statSync(join(dir, CONFIG_DIR), { throwIfNoEntry: false })?.isDirectory()) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

interface Existing {
  /** Keys (topicIdKey) of every ID configured, valid or not. */
  taken: Set<string>;
  /** Real subjects folders -> topic ID. */
  folders: Map<string, string>;
  count: number;
}

/** The topics the workspace has (every configuration source, as any kb
 *  command reads them), and the IDs in the workspace file's own text. */
async function existingTopics(root: string, cwd: string, opts: InitOptions, fileTopics: readonly string[]): Promise<Existing> {
  const out: Existing = { taken: new Set(fileTopics.map(topicIdKey)), folders: new Map(), count: 0 };
  const config = await loadConfig({ cwd: isInside(root, cwd) ? cwd : root, workspace: root, cfg: [], knowledge: [], env: opts.env, home: opts.home });
  for (const t of config.topics) {
    out.taken.add(topicIdKey(t.id));
    const real = realOf(t.subjectsDir);
    if (real !== undefined && !out.folders.has(real)) out.folders.set(real, t.id);
  }
  for (const d of config.diagnostics) if (d.topic !== undefined) out.taken.add(topicIdKey(d.topic));
  out.count = new Set([...config.topics.map((t) => t.id), ...fileTopics]).size;
  return out;
}

/** The topic IDs a configuration file's parsed data defines. */
function topicsOf(data: Record<string, unknown>): string[] {
  const kb = data[KB_KEY];
  const topics = isTable(kb) ? kb[TOPIC_KEY] : undefined;
  return isTable(topics) ? Object.keys(topics) : [];
}

export async function init(opts: InitOptions): Promise<InitResult> {
  const root = resolve(opts.cwd, opts.workspace ?? '.');
  const configRel = `${CONFIG_DIR}/${CONFIG_FILE}`;
  const result: InitResult = {
    root,
    elsewhere: root !== resolve(opts.cwd),
    config: configRel,
    createdConfig: false,
    createdWorkspace: false,
    added: [],
    text: '',
    notes: [],
    errors: [],
    written: false,
    dryRun: opts.dryRun,
    existing: 0,
  };
  const fail = (message: string, where?: string): InitResult => {
    result.errors.push({ severity: 'error', code: 'init', message, ...(where !== undefined ? { where } : {}) });
    return result;
  };

  const rootStat = lstatOf(root);
  const realRoot = realOf(root);
  if (rootStat === undefined || realRoot === undefined) return fail(`no such directory: ${root}`, opts.workspace !== undefined ? '-w' : undefined);
  if (!statSync(realRoot).isDirectory()) return fail(`not a directory: ${root}`, opts.workspace !== undefined ? '-w' : undefined);

  // .jp/: a real directory inside the workspace, or nothing yet.
  const jpPath = join(root, CONFIG_DIR);
  const jp = lstatOf(jpPath);
  if (jp !== undefined) {
    const real = realOf(jpPath);
    if (real === undefined) return fail(`${CONFIG_DIR} is a broken symbolic link`, CONFIG_DIR);
    if (!isInside(realRoot, real)) return fail(`${CONFIG_DIR} is a symbolic link out of the workspace (to ${real}); kb init writes only inside the workspace`, CONFIG_DIR);
    if (!statSync(real).isDirectory()) return fail(`${CONFIG_DIR} is not a directory`, CONFIG_DIR);
  } else {
    result.createdWorkspace = true;
    result.outer = outerWorkspace(realRoot);
  }

  // The workspace file: JP reads the first of .jp/config.{toml,json,...}.
  let oldText: string | undefined;
  let configPath = join(root, CONFIG_DIR, CONFIG_FILE);
  let fileTopics: string[] = [];
  if (jp !== undefined) {
    const found = locateConfigFile(configPath);
    if ('error' in found) return fail(`cannot read the configuration file (${errno(found.error)})`, fromRoot(root, found.path));
    if ('path' in found) {
      configPath = found.path;
      result.config = fromRoot(root, configPath);
      const real = realOf(configPath);
      if (real === undefined) return fail('the configuration file is a broken symbolic link', result.config);
      if (!isInside(realRoot, real)) return fail(`the configuration file is a symbolic link out of the workspace (to ${real}); kb init writes only inside the workspace`, result.config);
      const st = statSync(real);
      if (!st.isFile()) return fail('the configuration file is not a regular file', result.config);
      if (st.size > MAX_CONFIG_BYTES) return fail(`the configuration file is larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MiB`, result.config);
      oldText = readFileSync(real, 'utf8');
      if (formatOf(configPath) === 'toml') {
        const parsed = await parseToml(oldText, result.config);
        if ('diagnostic' in parsed) return fail(`${parsed.diagnostic.message}; kb init appends to a file that reads: fix it first (kb check)`, parsed.diagnostic.where);
        fileTopics = topicsOf(parsed.data);
      }
    }
  }

  const existing: Existing = jp !== undefined ? await existingTopics(root, opts.cwd, opts, fileTopics) : { taken: new Set(), folders: new Map(), count: 0 };
  result.existing = existing.count;

  // The topics to add.
  const wanted: AddedTopic[] = [];
  const seen = new Map<string, string>(); // real folder -> given
  if (opts.dirs.length === 0) {
    const abs = join(root, NOTES_DIR);
    const real = realOf(abs);
    const already = real !== undefined ? existing.folders.get(real) : undefined;
    if (already !== undefined) result.notes.push({ given: NOTES_DIR, message: `${NOTES_DIR} is already topic "${already}"; nothing to add` });
    else {
      const id = uniqueTopicId(NOTES_ID, existing.taken);
      const subjects = id === NOTES_ID ? NOTES_DIR : `${dirname(NOTES_DIR)}/${id}`;
      const folder = join(root, subjects);
      const there = lstatOf(folder) !== undefined;
      const realFolder = there ? realOf(folder) : undefined;
      if (there && (realFolder === undefined || !isInside(realRoot, realFolder) || !statSync(realFolder).isDirectory())) {
        return fail(`${subjects} is in the way: it is not a folder inside the workspace`, subjects);
      }
      wanted.push({ id, subjects, created: !there, skills: [], skillsMore: false, isSkill: false });
    }
  }
  for (const given of opts.dirs) {
    const abs = resolve(opts.cwd, given);
    const st = lstatOf(abs);
    if (st === undefined) {
      const there = result.elsewhere && !isAbsolute(given) && lstatOf(resolve(root, given)) !== undefined;
      fail(`no such folder${there ? `; folders are relative to the working directory: did you mean ${join(opts.workspace ?? '.', given)}?` : ''}`, given);
      continue;
    }
    const real = realOf(abs);
    if (real === undefined) {
      fail('a broken symbolic link', given);
      continue;
    }
    if (!isInside(realRoot, real)) {
      if (st.isSymbolicLink() || isInside(root, abs)) fail(`leads out of the workspace through a symbolic link (to ${real}); a topic's folder must be inside the workspace, ${root}`, given);
      else fail(`outside the workspace, ${root}: give a folder inside it, or run kb init in a folder that holds both`, given);
      continue;
    }
    if (!statSync(real).isDirectory()) {
      fail('not a folder: a topic is a folder of text files', given);
      continue;
    }
    const already = existing.folders.get(real);
    if (already !== undefined) {
      result.notes.push({ given, message: `${given} is already topic "${already}"; nothing to add` });
      continue;
    }
    const before = seen.get(real);
    if (before !== undefined) {
      result.notes.push({ given, message: `${given} is the folder ${before} given before; one topic for both` });
      continue;
    }
    seen.set(real, given);
    // The path as the user sees it from the root; through a link or `..`,
    // the real one.
    let subjects = fromRoot(root, abs);
    if (subjects === '..' || subjects.startsWith('../') || isAbsolute(subjects)) subjects = fromRoot(realRoot, real);
    const name = subjects === '.' ? basename(root) : basename(abs);
    const id = uniqueTopicId(topicIdFrom(name), existing.taken);
    existing.taken.add(topicIdKey(id));
    const skills = findSkills(real);
    wanted.push({ id, subjects, given, ...(id !== name ? { from: name } : {}), created: false, skills: skills.skills, skillsMore: skills.more, isSkill: skills.isSkill });
  }
  if (result.errors.length > 0) return result;
  for (const t of wanted) existing.taken.add(topicIdKey(t.id));
  // Topics inside one another share their files: say so.
  const folders: [string, string][] = [...existing.folders.entries(), ...[...seen.entries()].map(([real, given]): [string, string] => [real, wanted.find((t) => t.given === given)!.id])];
  for (const t of wanted) {
    if (t.given === undefined) continue;
    const real = realOf(resolve(opts.cwd, t.given))!;
    for (const [outer, id] of folders) {
      if (outer !== real && isInside(outer, real)) result.notes.push({ given: t.given, message: `${t.given} is inside the folder of topic "${id}": its files are subjects of both` });
    }
  }
  if (wanted.length === 0) return result;

  // The text: a new file, or tables appended to the old one.
  if (oldText !== undefined && formatOf(configPath) !== 'toml') {
    const lines = wanted.map((t) => `kb.topic.${t.id}.subjects = ${tomlString(t.subjects)}`).join('; ');
    return fail(`kb init appends only to a TOML file, and this workspace's configuration is ${result.config}: add ${lines} to it by hand`, result.config);
  }
  const eol = oldText?.includes('\r\n') ? '\r\n' : '\n';
  const tables = wanted.map((t) => topicTable(t, eol)).join(eol);
  let newText: string;
  if (oldText === undefined) {
    result.createdConfig = true;
    result.text = [...HEADER, '', ''].join('\n') + tables;
    newText = result.text;
  } else {
    // One blank line between the old text and the new tables.
    let gap = '';
    if (oldText.trim() !== '') gap = oldText.endsWith('\n\n') || oldText.endsWith('\n\r\n') ? '' : oldText.endsWith('\n') ? eol : eol + eol;
    else if (oldText !== '' && !oldText.endsWith('\n')) gap = eol;
    result.text = tables;
    newText = oldText + gap + tables;
  }
  // What is written must read back as the topics meant (an inline `kb`
  // table, for one, cannot take a [kb.topic.x] table after it).
  const check = await parseToml(newText, result.config);
  const back = 'data' in check ? check.data : undefined;
  const topics = back && isTable(back[KB_KEY]) ? (back[KB_KEY] as Record<string, unknown>)[TOPIC_KEY] : undefined;
  const fine = isTable(topics) && wanted.every((t) => isTable(topics[t.id]) && (topics[t.id] as Record<string, unknown>).subjects === t.subjects);
  if (!fine) {
    const why = 'diagnostic' in check ? ` (${check.diagnostic.message})` : '';
    // The tables stay the product: what to add by hand.
    result.text = tables;
    return fail(`cannot append the new topics to ${result.config} without changing what it says${why}: nothing written; add the tables printed above by hand`, result.config);
  }
  result.added = wanted;
  if (opts.dryRun) return result;

  // Write: .jp/, the notes folder, then the configuration.
  const made = makeInside(realRoot, CONFIG_DIR);
  if (made !== undefined) return fail(made, CONFIG_DIR);
  for (const t of wanted) {
    if (!t.created) continue;
    const err = makeInside(realRoot, t.subjects);
    if (err !== undefined) return fail(err, t.subjects);
  }
  const bytes = new TextEncoder().encode(newText);
  if (oldText === undefined) {
    const w = writeNewFile(join(realRoot, CONFIG_DIR), CONFIG_FILE, bytes);
    if (!w.ok) return fail(w.exists ? `${configRel} appeared meanwhile; run kb init again` : w.why, configRel);
  } else {
    const real = realpathSync(configPath);
    const mode = statSync(real).mode;
    const err = replaceFile(dirname(real), basename(real), bytes, mode, () => {
      try {
        return readFileSync(real, 'utf8') === oldText ? undefined : `${result.config} changed meanwhile; run kb init again`;
      } catch (e) {
        return `cannot read ${result.config} again (${errno(e)})`;
      }
    });
    if (err !== undefined) return fail(err, result.config);
  }
  result.written = true;
  return result;
}

/** Creates the folders of `rel` (a `/`-separated path) below the real
 *  root, one at a time, each checked: an existing one must be a folder
 *  whose real location is inside the root. */
function makeInside(realRoot: string, rel: string): string | undefined {
  let abs = realRoot;
  for (const part of rel.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return `${rel} leads out of the workspace`;
    abs = join(abs, part);
    const st = lstatOf(abs);
    if (st === undefined) {
      try {
        mkdirSync(abs);
      } catch (err) {
        if (errno(err) !== 'EEXIST') return `cannot create the folder ${rel} (${errno(err)})`;
      }
    }
    const real = realOf(abs);
    if (real === undefined) return `${rel}: ${part} is a broken symbolic link`;
    if (!isInside(realRoot, real)) return `${rel}: ${part} is a symbolic link out of the workspace (to ${real})`;
    if (!statSync(real).isDirectory()) return `${rel}: ${part} is not a folder`;
    abs = real;
  }
  return undefined;
}
