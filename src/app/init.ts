// kb init [DIR...]: makes a directory a workspace (docs/reference/commands.md, "`kb init`"). It
// creates `.jp/config.toml` when missing, and one topic per folder given:
// its ID made from the folder's name (config/topic-id.ts), its `subjects`
// the folder's path from the workspace root. With no folder, one topic
// `notes` at `.jp/kb/notes`, created, for `kb remember`.
//
// It never overwrites, and never changes a byte it did not add: an
// existing configuration file gets only the topic tables it lacks,
// appended to its bytes as they are (comments, layout, line ends, a byte
// that is not UTF-8: all kept; the tables take the file's own line ends).
// A folder that is missing, not a folder, or outside the workspace (a
// symbolic link out included) is an error, and then nothing is written; a
// folder some topic already has is a note. What would be written is read
// back first as every command reads a configuration file
// (config/files.ts readConfigBytes: the 1 MiB limit, the parser): a file
// kb would refuse, or that would not read as the topics meant, is never
// written. Folder names are written as TOML escapes where they hold
// characters kb never shows raw (controls, bidirectional and zero-width
// characters), so neither the file nor stdout holds one.
//
// Like `remember`, it is a plan, then its application (planInit,
// applyInit). Writing, the plan is made again under the lock of `.jp/`
// (kb/write/lock.ts, as a topic's for `remember`): another `kb init` may
// have appended since, and its tables must not be lost. Writes are atomic
// (kb/write/file.ts): a new file appears whole, an existing one is replaced
// at once by a renamed temporary file, and only if it still holds the
// bytes planned on. Nothing is written through a symbolic link that leads
// out of the workspace, and folders are created inside it only.
//
// It returns plain data; the front end renders it (render/init.ts).
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { realpathSteady } from '../shared/realpath.ts';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { KB_KEY, TOPIC_KEY, isTable } from '../config/fields.ts';
import { MAX_CONFIG_BYTES, locateConfigFile, readConfigBytes } from '../config/files.ts';
import { formatOf } from '../config/formats.ts';
import { loadConfig } from '../config/load.ts';
import type { Format } from '../config/merge.ts';
import { topicIdFrom, topicIdKey, uniqueTopicId } from '../config/topic-id.ts';
import { SKILL_FILE } from '../kb/index/subjects.ts';
import { closeDir, openDir, type DirHandle } from '../kb/write/dir.ts';
import { replaceFile, writeNewFile } from '../kb/write/file.ts';
import { LOCK_NAME, withTopicLock, type LockTarget } from '../kb/write/lock.ts';
import { escapeControls, jsonQuoted } from '../shared/controls.ts';
import type { SiteGroup } from '../kb/index/site.ts';
import { surveyFolder } from './init-draft.ts';
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
  /** Write a `.kbignore` naming the site files beside a folder's
   *  documents (default true; `--no-kbignore`: false). */
  kbignore?: boolean;
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
  /** Drafted from the folder's index or README page (`draftedFrom`, from
   *  the root), written in its table for the user to edit. */
  title?: string;
  introduction?: string;
  draftedFrom?: string;
  /** The `.kbignore` written (or to be) in the folder: its path from the
   *  root, its text, and what it leaves out. */
  kbignore?: { path: string; text: string; groups: readonly SiteGroup[] };
  /** The folder's `.kbignore` was there already: left as it is; the rules
   *  kb init would have written. */
  kbignoreKept?: { path: string; rules: readonly string[] };
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

/** The largest configuration kb reads, in MiB, for messages. */
const MAX_MIB = MAX_CONFIG_BYTES / 1024 / 1024;

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
    return realpathSteady(path);
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

/** A TOML basic string: JSON's escapes are TOML's, and every character
 *  kb never shows raw (controls, DEL, C1, U+2028, bidirectional and
 *  zero-width characters: shared/controls.ts) is a `\uXXXX` escape too, so
 *  that neither the file nor stdout holds one. */
function tomlString(s: string): string {
  return jsonQuoted(s);
}

function topicTable(t: AddedTopic, eol: string): string {
  const lines = [`[${KB_KEY}.${TOPIC_KEY}.${t.id}]`, `subjects = ${tomlString(t.subjects)}`];
  if (t.title !== undefined || t.introduction !== undefined) {
    lines.push(`# Drafted by kb init from ${commentText(t.draftedFrom ?? '')}: edit or delete them.`);
    if (t.title !== undefined) lines.push(`title = ${tomlString(t.title)}`);
    if (t.introduction !== undefined) lines.push(`introduction = ${tomlString(t.introduction)}`);
  }
  return lines.join(eol) + eol;
}

/** A path in a TOML comment: on its line, without characters kb never
 *  shows raw (a file name holding a line break would end the comment). */
function commentText(s: string): string {
  return escapeControls(s);
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
async function existingTopics(ws: Workspace, opts: InitOptions, fileTopics: readonly string[]): Promise<Existing> {
  const out: Existing = { taken: new Set(fileTopics.map(topicIdKey)), folders: new Map(), count: 0 };
  if (!ws.jp) return out;
  const cwd = isInside(ws.root, opts.cwd) ? opts.cwd : ws.root;
  const config = await loadConfig({ cwd, workspace: ws.root, cfg: [], knowledge: [], env: opts.env, home: opts.home });
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

/** The directory made a workspace, checked. */
interface Workspace {
  root: string;
  realRoot: string;
  /** `.jp/` is there, a folder inside the workspace. */
  jp: boolean;
}

/** The workspace's configuration file, as read. */
interface ConfigFile {
  /** As found (`.jp/config.toml`, or a link), and where it really is. */
  path: string;
  real: string;
  format: Format | undefined;
  /** Its bytes, exactly, and their text as every command decodes it. */
  bytes: Uint8Array;
  text: string;
  /** The topic IDs it defines (a TOML file). */
  topics: string[];
}

/** What init would do, as the files are now: the result to report and,
 *  when there is something to write, the configuration's new bytes. */
interface InitPlan {
  result: InitResult;
  file?: ConfigFile;
  wanted: AddedTopic[];
  bytes?: Uint8Array;
}

function emptyResult(opts: InitOptions, root: string): InitResult {
  return {
    root,
    elsewhere: root !== resolve(opts.cwd),
    config: `${CONFIG_DIR}/${CONFIG_FILE}`,
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
}

/** Adds an error to `result` (init then writes nothing) and returns it. */
function fail(result: InitResult, message: string, where?: string): InitResult {
  result.errors.push({ severity: 'error', code: 'init', message, ...(where !== undefined ? { where } : {}) });
  return result;
}

/** The root (-w's directory, or the working directory) and its `.jp/`,
 *  checked: undefined, with an error in `result`, when init cannot go on. */
function findWorkspace(opts: InitOptions, result: InitResult): Workspace | undefined {
  const root = result.root;
  const where = opts.workspace !== undefined ? '-w' : undefined;
  const realRoot = lstatOf(root) !== undefined ? realOf(root) : undefined;
  if (realRoot === undefined) return void fail(result, `no such directory: ${root}`, where);
  if (!statSync(realRoot).isDirectory()) return void fail(result, `not a directory: ${root}`, where);
  // .jp/: a real directory inside the workspace, or nothing yet.
  const jpPath = join(root, CONFIG_DIR);
  if (lstatOf(jpPath) === undefined) {
    result.createdWorkspace = true;
    result.outer = outerWorkspace(realRoot);
    return { root, realRoot, jp: false };
  }
  const real = realOf(jpPath);
  if (real === undefined) return void fail(result, `${CONFIG_DIR} is a broken symbolic link`, CONFIG_DIR);
  if (!isInside(realRoot, real)) return void fail(result, `${CONFIG_DIR} is a symbolic link out of the workspace (to ${real}); kb init writes only inside the workspace`, CONFIG_DIR);
  if (!statSync(real).isDirectory()) return void fail(result, `${CONFIG_DIR} is not a directory`, CONFIG_DIR);
  return { root, realRoot, jp: true };
}

/** The workspace's configuration file (JP reads the first of
 *  .jp/config.{toml,json,...}), read: undefined when there is none,
 *  false when it cannot be appended to (an error in `result`). */
async function readWorkspaceConfig(ws: Workspace, result: InitResult, again = true): Promise<ConfigFile | undefined | false> {
  if (!ws.jp) return undefined;
  const stop = (message: string, where = result.config): false => {
    fail(result, message, where);
    return false;
  };
  const configPath = join(ws.root, CONFIG_DIR, CONFIG_FILE);
  const found = locateConfigFile(configPath);
  if ('error' in found) return stop(`cannot read the configuration file (${errno(found.error)})`, fromRoot(ws.root, found.path));
  if ('missing' in found) {
    const entry = lstatOf(configPath);
    if (entry === undefined) return undefined;
    // Another kb init made it between the two looks: read it, once more.
    if (again && !(entry.isSymbolicLink() && realOf(configPath) === undefined)) return readWorkspaceConfig(ws, result, false);
    return stop('the configuration file is a broken symbolic link');
  }
  result.config = fromRoot(ws.root, found.path);
  const real = realOf(found.path);
  if (real === undefined) return stop('the configuration file is a broken symbolic link');
  if (!isInside(ws.realRoot, real)) return stop(`the configuration file is a symbolic link out of the workspace (to ${real}); kb init writes only inside the workspace`);
  const st = statSync(real);
  if (!st.isFile()) return stop('the configuration file is not a regular file');
  if (st.size > MAX_CONFIG_BYTES) return stop(`the configuration file is larger than ${MAX_MIB} MiB`);
  const bytes = new Uint8Array(readFileSync(real));
  const format = formatOf(found.path);
  const file: ConfigFile = { path: found.path, real, format, bytes, text: '', topics: [] };
  if (format !== 'toml') return file; // appended to only when it is TOML: said when there is something to add
  const read = await readConfigBytes(bytes, format, result.config);
  if ('diagnostic' in read) return stop(`${read.diagnostic.message}; kb init appends to a file that reads: fix it first (kb check)`, read.diagnostic.where);
  if (read.invalidAt !== undefined) {
    const byte = `0x${bytes[read.invalidAt].toString(16).padStart(2, '0')}`;
    const message = `${result.config} is not valid UTF-8 (byte ${byte} at offset ${read.invalidAt}, read as U+FFFD): kb init changes no byte of it, but a configuration file must be UTF-8 (TOML requires it): save it as UTF-8`;
    result.notes.push({ given: result.config, message });
  }
  file.text = read.text;
  file.topics = topicsOf(read.parsed.data);
  return file;
}

/** The notes topic of a bare `kb init` (none when some topic has its
 *  folder already: a note). */
function notesTopic(ws: Workspace, existing: Existing, result: InitResult): AddedTopic | undefined {
  const real = realOf(join(ws.root, NOTES_DIR));
  const already = real !== undefined ? existing.folders.get(real) : undefined;
  if (already !== undefined) {
    result.notes.push({ given: NOTES_DIR, message: `${NOTES_DIR} is already topic "${already}"; nothing to add` });
    return undefined;
  }
  const id = uniqueTopicId(NOTES_ID, existing.taken);
  const subjects = id === NOTES_ID ? NOTES_DIR : `${dirname(NOTES_DIR)}/${id}`;
  const folder = join(ws.root, subjects);
  const there = lstatOf(folder) !== undefined;
  const realFolder = there ? realOf(folder) : undefined;
  if (there && (realFolder === undefined || !isInside(ws.realRoot, realFolder) || !statSync(realFolder).isDirectory())) {
    return void fail(result, `${subjects} is in the way: it is not a folder inside the workspace`, subjects);
  }
  return { id, subjects, created: !there, skills: [], skillsMore: false, isSkill: false };
}

/** The topic for a folder given (none, with an error or a note in
 *  `result`, when it cannot be or is one already). `seen`: the real
 *  folders given before, to the name given. */
function folderTopic(ws: Workspace, opts: InitOptions, given: string, existing: Existing, seen: Map<string, string>, result: InitResult): AddedTopic | undefined {
  const abs = resolve(opts.cwd, given);
  const st = lstatOf(abs);
  if (st === undefined) {
    const there = result.elsewhere && !isAbsolute(given) && lstatOf(resolve(ws.root, given)) !== undefined;
    return void fail(result, `no such folder${there ? `; folders are relative to the working directory: did you mean ${join(opts.workspace ?? '.', given)}?` : ''}`, given);
  }
  const real = realOf(abs);
  if (real === undefined) return void fail(result, 'a broken symbolic link', given);
  if (!isInside(ws.realRoot, real)) {
    if (st.isSymbolicLink() || isInside(ws.root, abs)) return void fail(result, `leads out of the workspace through a symbolic link (to ${real}); a topic's folder must be inside the workspace, ${ws.root}`, given);
    return void fail(result, `outside the workspace, ${ws.root}: give a folder inside it, or run kb init in a folder that holds both`, given);
  }
  if (!statSync(real).isDirectory()) return void fail(result, 'not a folder: a topic is a folder of text files', given);
  const already = existing.folders.get(real);
  if (already !== undefined) {
    result.notes.push({ given, message: `${given} is already topic "${already}"; nothing to add` });
    return undefined;
  }
  const before = seen.get(real);
  if (before !== undefined) {
    result.notes.push({ given, message: `${given} is the folder ${before} given before; one topic for both` });
    return undefined;
  }
  seen.set(real, given);
  // The path as the user sees it from the root; through a link or `..`,
  // the real one.
  let subjects = fromRoot(ws.root, abs);
  if (subjects === '..' || subjects.startsWith('../') || isAbsolute(subjects)) subjects = fromRoot(ws.realRoot, real);
  const name = subjects === '.' ? basename(ws.root) : basename(abs);
  const id = uniqueTopicId(topicIdFrom(name), existing.taken);
  existing.taken.add(topicIdKey(id));
  const skills = findSkills(real);
  return { id, subjects, given, ...(id !== name ? { from: name } : {}), created: false, skills: skills.skills, skillsMore: skills.more, isSkill: skills.isSkill };
}

/** The topics to add: the folders given, or the notes topic. */
function wantedTopics(ws: Workspace, opts: InitOptions, existing: Existing, result: InitResult): AddedTopic[] {
  const wanted: AddedTopic[] = [];
  if (opts.dirs.length === 0) {
    const notes = notesTopic(ws, existing, result);
    if (notes !== undefined) wanted.push(notes);
  }
  const seen = new Map<string, string>(); // real folder -> given
  for (const given of opts.dirs) {
    const t = folderTopic(ws, opts, given, existing, seen, result);
    if (t !== undefined) wanted.push(t);
  }
  if (result.errors.length > 0) return [];
  // Topics inside one another share their files: say so.
  const folders: [string, string][] = [...existing.folders.entries(), ...[...seen.entries()].map(([real, given]): [string, string] => [real, wanted.find((t) => t.given === given)!.id])];
  for (const t of wanted) {
    if (t.given === undefined) continue;
    const real = realOf(resolve(opts.cwd, t.given))!;
    for (const [outer, id] of folders) {
      if (outer !== real && isInside(outer, real)) result.notes.push({ given: t.given, message: `${t.given} is inside the folder of topic "${id}": its files are subjects of both` });
    }
  }
  return wanted;
}

/** What the folder of topic `t` (one given) says of itself: a draft of
 *  its title and introduction, and the `.kbignore` for its site files
 *  (app/init-draft.ts). */
async function surveyTopic(opts: InitOptions, t: AddedTopic): Promise<void> {
  const real = realOf(resolve(opts.cwd, t.given!));
  if (real === undefined) return;
  const found = await surveyFolder(real, t.id, opts.kbignore !== false);
  const inFolder = (name: string) => (t.subjects === '.' ? name : `${t.subjects}/${name}`);
  if (found.draft !== undefined) {
    if (found.draft.title !== undefined) t.title = found.draft.title;
    if (found.draft.introduction !== undefined) t.introduction = found.draft.introduction;
    t.draftedFrom = inFolder(found.draft.from);
  }
  if (found.kbignore !== undefined) t.kbignore = { path: inFolder(KBIGNORE), ...found.kbignore };
  if (found.kept !== undefined) t.kbignoreKept = { path: inFolder(KBIGNORE), rules: found.kept };
}

const KBIGNORE = '.kbignore';

/** The line end of `text`'s first line (LF when it has none). */
function lineEnd(text: string): string {
  const nl = text.indexOf('\n');
  return nl > 0 && text.charCodeAt(nl - 1) === 13 ? '\r\n' : '\n';
}

/** The configuration's new bytes: a new file, or the old bytes with the
 *  tables appended; undefined (an error in `result`) when the result would
 *  not read back as the topics meant, as any command reads it. */
async function newConfig(file: ConfigFile | undefined, wanted: readonly AddedTopic[], result: InitResult): Promise<Uint8Array | undefined> {
  if (file !== undefined && file.format !== 'toml') {
    const lines = wanted.map((t) => `kb.topic.${t.id}.subjects = ${tomlString(t.subjects)}`).join('; ');
    return void fail(result, `kb init appends only to a TOML file, and this workspace's configuration is ${result.config}: add ${lines} to it by hand`, result.config);
  }
  const eol = file === undefined ? '\n' : lineEnd(file.text);
  const tables = wanted.map((t) => topicTable(t, eol)).join(eol);
  let bytes: Uint8Array;
  if (file === undefined) {
    result.createdConfig = true;
    result.text = [...HEADER, '', ''].join('\n') + tables;
    bytes = new TextEncoder().encode(result.text);
  } else {
    // One blank line between the old text and the new tables.
    const old = file.text;
    let gap = '';
    if (old.trim() !== '') gap = old.endsWith('\n\n') || old.endsWith('\n\r\n') ? '' : old.endsWith('\n') ? eol : eol + eol;
    else if (old !== '' && !old.endsWith('\n')) gap = eol;
    result.text = tables;
    const added = new TextEncoder().encode(gap + tables);
    bytes = new Uint8Array(file.bytes.length + added.length);
    bytes.set(file.bytes);
    bytes.set(added, file.bytes.length);
  }
  // The tables stay the product when nothing is written: what to add by hand.
  if (bytes.length > MAX_CONFIG_BYTES) {
    result.text = tables;
    return void fail(result, `with the new topics, ${result.config} would be ${bytes.length} bytes, more than the ${MAX_MIB} MiB kb reads: nothing written; move part of it to a file it extends (\`extends\`), then run kb init again`, result.config);
  }
  // Read back as every command reads the file (its limits, its parser);
  // an inline `kb` table, for one, cannot take a [kb.topic.x] after it.
  const back = await readConfigBytes(bytes, 'toml', result.config);
  const data = 'parsed' in back ? back.parsed.data : undefined;
  const topics = data && isTable(data[KB_KEY]) ? (data[KB_KEY] as Record<string, unknown>)[TOPIC_KEY] : undefined;
  if (isTable(topics) && wanted.every((t) => readsAs(topics[t.id], t))) return bytes;
  result.text = tables;
  const why = 'diagnostic' in back ? ` (${back.diagnostic.message})` : '';
  return void fail(result, `cannot append the new topics to ${result.config} without changing what it says${why}: nothing written; add the tables printed above by hand`, result.config);
}

/** Whether a topic's table, read back, says what was meant. */
function readsAs(table: unknown, t: AddedTopic): boolean {
  if (!isTable(table)) return false;
  const read = table as Record<string, unknown>;
  return read.subjects === t.subjects && read.title === t.title && read.introduction === t.introduction;
}

/** What init would do in `ws` as the files are now; nothing is written. */
async function planInit(opts: InitOptions, ws: Workspace, result: InitResult): Promise<InitPlan> {
  const file = await readWorkspaceConfig(ws, result);
  if (file === false) return { result, wanted: [] };
  const existing = await existingTopics(ws, opts, file?.topics ?? []);
  result.existing = existing.count;
  const wanted = wantedTopics(ws, opts, existing, result);
  if (result.errors.length > 0 || wanted.length === 0) return { result, file, wanted: [] };
  for (const t of wanted) if (t.given !== undefined) await surveyTopic(opts, t);
  const bytes = await newConfig(file, wanted, result);
  if (bytes === undefined) return { result, file, wanted: [] };
  result.added = wanted;
  return { result, file, wanted, bytes };
}

/** Writes a plan, under the lock of `jp` (`.jp/`, open): the notes
 *  folder, then the configuration, replaced only if it still holds the
 *  bytes planned on. `lost`: why the lock was lost, if it was. */
function applyInit(ws: Workspace, jp: DirHandle, plan: InitPlan, lost: () => string | undefined): InitResult {
  const { result, file } = plan;
  for (const t of plan.wanted) {
    if (!t.created) continue;
    const err = makeInside(ws.realRoot, t.subjects);
    if (err !== undefined) return fail(result, err, t.subjects);
  }
  if (file === undefined) {
    const w = writeNewFile(jp.at, CONFIG_FILE, plan.bytes!, () => lost(), jp.real);
    if (!w.ok) return fail(result, w.exists ? `${result.config} appeared meanwhile, written by another program; run kb init again` : w.why, result.config);
  } else {
    const err = replaceFile(dirname(file.real), basename(file.real), plan.bytes!, statSync(file.real).mode, () => {
      const why = lost();
      if (why !== undefined) return why;
      try {
        return sameBytes(new Uint8Array(readFileSync(file.real)), file.bytes) ? undefined : `${result.config} changed meanwhile; run kb init again`;
      } catch (e) {
        return `cannot read ${result.config} again (${errno(e)})`;
      }
    });
    if (err !== undefined) return fail(result, err, result.config);
  }
  result.written = true;
  for (const t of plan.wanted) if (t.kbignore !== undefined) writeKbignore(ws, t, result, lost);
  return result;
}

/** Writes topic `t`'s `.kbignore`, a new file in its folder, after the
 *  configuration: one that appeared meanwhile is left as it is, and one
 *  that cannot be written is a note (the topic is made; its site files
 *  are subjects until the file is written by hand). */
function writeKbignore(ws: Workspace, t: AddedTopic, result: InitResult, lost: () => string | undefined): void {
  const planned = t.kbignore!;
  const real = realOf(join(ws.realRoot, t.subjects));
  const opened = real !== undefined && isInside(ws.realRoot, real) ? openDir(real) : undefined;
  if (opened === undefined || !opened.ok) {
    result.notes.push({ given: planned.path, message: `cannot write ${planned.path} (${opened?.ok === false ? opened.code : 'not a folder inside the workspace'}); its site files stay subjects: write it by hand` });
    delete t.kbignore;
    return;
  }
  try {
    if (!isInside(ws.realRoot, opened.dir.real)) return void result.notes.push({ given: planned.path, message: `cannot write ${planned.path}: its folder leads out of the workspace` });
    const w = writeNewFile(opened.dir.at, KBIGNORE, new TextEncoder().encode(planned.text), () => lost(), opened.dir.real);
    if (w.ok) return;
    delete t.kbignore;
    if (w.exists) t.kbignoreKept = { path: planned.path, rules: planned.groups.flatMap((g) => g.patterns) };
    else result.notes.push({ given: planned.path, message: `cannot write ${planned.path} (${w.why}); its site files stay subjects: write it by hand` });
  } finally {
    closeDir(opened.dir);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What the lock of `.jp/` guards, as messages name it. */
const CONFIG_LOCK: LockTarget = { the: "the workspace's configuration", this: "this workspace's configuration" };

export async function init(opts: InitOptions): Promise<InitResult> {
  const result = emptyResult(opts, resolve(opts.cwd, opts.workspace ?? '.'));
  const ws = findWorkspace(opts, result);
  if (ws === undefined) return result;
  const first = await planInit(opts, ws, result);
  if (first.bytes === undefined || opts.dryRun) return first.result;
  return writeLocked(opts, ws, first.result);
}

/** Makes `.jp/`, takes its lock, plans again as the files are now (another
 *  kb init may have written since the first plan) and applies that plan. */
async function writeLocked(opts: InitOptions, ws: Workspace, first: InitResult): Promise<InitResult> {
  const made = makeInside(ws.realRoot, CONFIG_DIR);
  if (made !== undefined) return fail(first, made, CONFIG_DIR);
  const opened = openDir(join(ws.realRoot, CONFIG_DIR));
  if (!opened.ok) return fail(first, `cannot open ${CONFIG_DIR} (${opened.code})`, CONFIG_DIR);
  const jp = opened.dir;
  try {
    if (!isInside(ws.realRoot, jp.real)) return fail(first, `${CONFIG_DIR} leads out of the workspace (to ${jp.real}); kb init writes only inside the workspace`, CONFIG_DIR);
    const locked = await withTopicLock(
      jp.at,
      jp.real,
      async (lost) => {
        const result = emptyResult(opts, ws.root);
        result.createdWorkspace = first.createdWorkspace;
        if (first.outer !== undefined) result.outer = first.outer;
        const plan = await planInit(opts, { ...ws, jp: true }, result);
        return plan.bytes === undefined ? plan.result : applyInit(ws, jp, plan, lost);
      },
      CONFIG_LOCK,
    );
    if (!locked.ok) return fail(first, locked.why, `${CONFIG_DIR}/${LOCK_NAME}`);
    return locked.value;
  } finally {
    closeDir(jp);
  }
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
