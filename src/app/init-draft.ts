// What `kb init` learns of a folder it makes a topic of (docs/reference/commands.md,
// "`kb init`"): a draft of the topic's `title` and `introduction`, from the
// folder's own index or README page, for the user to edit; and the site
// files beside its documents (kb/index/site.ts), for a `.kbignore`.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { firstSentenceOf, leadSentence, opensWithTitle } from '../kb/content/lead.ts';
import { loadYaml, NEEDS_YAML, parseFrontmatter, simpleFields } from '../kb/content/frontmatter.ts';
import { informativeTitle } from '../kb/content/title.ts';
import { IGNORE_FILES } from '../kb/fs/ignore.ts';
import { probeFile } from '../kb/fs/probe-titles.ts';
import { readSubjectHead } from '../kb/fs/read.ts';
import { formatRank } from '../kb/index/precedence.ts';
import { kbignoreText, surveySite, type SiteGroup } from '../kb/index/site.ts';
import { indexSubjects } from '../kb/index/subjects.ts';
import { CONTROL } from '../shared/controls.ts';
import { countText } from '../shared/text.ts';

/** Directory entries the survey of one folder reads, at most. */
export const SURVEY_ENTRIES = 50_000;
/** Bytes of an index page read for its lead, at most. */
const PAGE_BYTES = 64 * 1024;
/** Characters of a drafted title, at most (a longer one is not drafted). */
const TITLE_CHARS = 120;

/** A draft of a topic's `title` and `introduction`, and where from. */
export interface Draft {
  /** The page, from the topic's folder (`index.org`). */
  from: string;
  title?: string;
  introduction?: string;
}

/** The `.kbignore` kb init would write in a topic's folder. */
export interface Kbignore {
  text: string;
  groups: readonly SiteGroup[];
}

/** What kb init learnt of a folder. */
export interface FolderSurvey {
  draft?: Draft;
  /** The `.kbignore` to write (none: no site files, or told not to). */
  kbignore?: Kbignore;
  /** The folder has a `.kbignore` already: left as it is, and the rules
   *  kb init would have written (none when it found no site file). */
  kept?: readonly string[];
}

/** Surveys the folder `real` (a folder inside the workspace) for topic
 *  `id`. `kbignore` false: no `.kbignore` is planned. */
export async function surveyFolder(real: string, id: string, kbignore: boolean): Promise<FolderSurvey> {
  const out: FolderSurvey = {};
  const draft = await draftOf(real, id);
  if (draft !== undefined) out.draft = draft;
  if (!kbignore) return out;
  const survey = surveySite(indexSubjects(real, undefined, { maxEntries: SURVEY_ENTRIES }));
  if (survey.groups.length === 0) return out;
  if (lstatSync(join(real, IGNORE_FILES[1]), { throwIfNoEntry: false }) !== undefined) {
    out.kept = survey.groups.flatMap((g) => g.patterns);
    return out;
  }
  out.kbignore = { text: kbignoreText(survey, `${countText(SURVEY_ENTRIES)} entries`), groups: survey.groups };
  return out;
}

/** The folder's own page: an index page (`index`, `_index`), else a
 *  README, at its top, in a prose format (the best by precedence.ts);
 *  undefined when it has none. */
function indexPage(real: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(real);
  } catch {
    return undefined;
  }
  let best: { name: string; rank: number } | undefined;
  for (const name of names) {
    const dot = name.lastIndexOf('.');
    const stem = (dot > 0 ? name.slice(0, dot) : name).toLowerCase();
    const group = stem === 'index' || stem === '_index' ? 0 : stem === 'readme' ? 1 : -1;
    if (group < 0) continue;
    const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
    const format = formatRank(ext);
    if (format >= 100) continue; // not prose
    const rank = group * 1000 + format;
    if (best === undefined || rank < best.rank || (rank === best.rank && name < best.name)) best = { name, rank };
  }
  return best?.name;
}

/** The draft from the folder's page: its title (frontmatter `title`, else
 *  its format's), unless it only repeats the topic's ID; its lead
 *  (frontmatter `description`'s first sentence, else its first paragraph
 *  of prose's). Undefined when there is no page, or it gives neither. */
async function draftOf(real: string, id: string): Promise<Draft | undefined> {
  const name = indexPage(real);
  if (name === undefined) return undefined;
  const abs = join(real, name);
  const probe = probeFile(abs);
  if (probe.kind !== 'text') return undefined;
  const fields = typeof probe.front === 'string' ? await frontFields(probe.front) : undefined;
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  const head = readSubjectHead(abs, PAGE_BYTES);
  const text = head.kind === 'text' ? head.text : '';
  const own = typeof fields?.title === 'string' && fields.title.trim() !== '' ? fields.title : opensWithTitle(text, ext) ? probe.title : undefined;
  const title = oneLine(informativeTitle(own === undefined ? undefined : oneLine(own), id));
  let introduction: string | undefined;
  if (typeof fields?.description === 'string') introduction = firstSentenceOf(fields.description);
  introduction ??= leadSentence(text, ext);
  introduction = oneLine(introduction);
  const draft: Draft = { from: name };
  if (title !== undefined && title.length <= TITLE_CHARS) draft.title = title;
  if (introduction !== undefined) draft.introduction = introduction;
  return draft.title === undefined && draft.introduction === undefined ? undefined : draft;
}

/** The top-level fields of a page's frontmatter; undefined when it cannot
 *  be read. */
async function frontFields(front: string): Promise<Record<string, unknown> | undefined> {
  const simple = simpleFields(front);
  if (simple !== NEEDS_YAML) return simple;
  const parsed = parseFrontmatter(front, await loadYaml());
  return parsed.ok ? parsed.data : undefined;
}

const CONTROLS = new RegExp(CONTROL.source, 'g');

/** A drafted value on one line, without the characters kb never shows raw
 *  (controls, bidirectional and zero-width ones): a draft is the user's
 *  to edit, and kb check would warn about them. */
function oneLine(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  const line = s.replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  return line === '' ? undefined : line;
}
