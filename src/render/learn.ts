// The learn tool's model-facing texts. Subject contents come as chunks
// (a formatted body between two strings): the sink that receives them
// decides whether to stream them (the CLI) or join them (MCP).
import { countText } from '../shared/text.ts';
import { longestBacktickRun, type Body } from '../kb/content/body.ts';
import { formattedText, type Formatted } from '../kb/content/format.ts';
import type { Chunk, LearnEvent, LinesShown, Note } from '../answer/learn.ts';
import type { Fallback, Reason } from '../kb/index/near.ts';
import { fallbackSummary, ignoredSentence } from '../kb/index/sentences.ts';
import type { MissHint } from '../kb/index/types.ts';
import { jsonQuoted, quoted } from '../shared/controls.ts';
import { renderSkillFiles } from './skill-files.ts';
import { rawContent, subjectBlock } from './subject.ts';

export { MAX_BUNDLED_SHOWN, renderSkillFiles, SKILL_FILES_CLOSE, SKILL_FILES_OPEN } from './skill-files.ts';
export { rawContent, subjectBlock } from './subject.ts';
export { renderUnknownTopic } from './topic.ts';
import { renderUnknownTopic } from './topic.ts';
export { DESCRIPTION_CHARS, LISTING_COSTS, listedLine, oneLine, renderListing, renderTopicNote } from './listing.ts';
import { bullets, renderListing, renderTopicNote } from './listing.ts';
import { map } from '../shared/arrays.ts';

/** One line telling the model why something was not returned. */
export function renderNote(n: Note, topicId: string): string {
  switch (n.kind) {
    case 'already-learned':
      return `Subject ${quoted(n.slug)} is already in your system prompt (pre-loaded); it is not returned again.`;
    case 'binary':
      return `Skipped ${quoted(n.slug)}: it is a binary file.`;
    case 'no-match':
      return `No subjects match ${quoted(n.pattern)} in topic ${quoted(topicId)}.${missHint(n.hint)} Call \`learn\` with only the topic to list its subjects.`;
    case 'invalid-pattern':
      return `Invalid pattern ${quoted(n.pattern)}: ${n.reason}.`;
    case 'unreadable':
      return `Could not read ${quoted(n.slug)}: ${n.message}.`;
    case 'lines-past-end':
      return `Subject ${quoted(n.slug)} has ${n.lines} line${n.lines === 1 ? '' : 's'}; lines ${n.asked} were asked for. Ask for lines it has (\`${n.slug}:1-${Math.max(1, n.lines)}\`), or the subject by its slug alone.`;
    case 'from-missing':
      return `Cannot continue from ${quoted(n.slug)}: the patterns do not select it in topic ${quoted(topicId)} (any more). Call \`learn\` again without the "@from:..." element.`;
    case 'read-as':
    case 'split':
      return `Note: ${fallbackSummary(n)} (${fallbackReason(n)}).`;
    case 'folder':
      return renderFolder(n);
    case 'shared-slug':
      return `Note: ${quoted(n.slug)} is the file ${quoted(n.path)}; other files share its slug and load by slug plus extension: ${namesList(n.others, n.more)}.`;
    case 'shared-slugs': {
      const which = n.subjects === 1 ? '1 of these subjects shares its slug' : `${n.subjects} of these subjects share their slugs`;
      return `Note: ${which} with other files, which load by slug plus extension: ${namesList(n.names, n.more)}.`;
    }
  }
}

/** Names, quoted, and how many more there are. */
function namesList(names: readonly string[], more: number): string {
  const shown = names.map(quoted).join(', ');
  return more > 0 ? `${shown} and ${more} more` : shown;
}

/** A no-match's near-miss details, with a leading space, or ''. */
function missHint(hint: MissHint | undefined): string {
  if (hint === undefined) return '';
  let out = '';
  if (hint.suggestions !== undefined && hint.suggestions.length > 0) out += ` Closest subjects: ${hint.suggestions.map(quoted).join(', ')}.`;
  const hidden = hint.hidden ?? 0;
  const bundled = hint.bundled ?? 0;
  if (hidden > 0 || bundled > 0) {
    const counts = [hidden > 0 ? (hidden === 1 ? '1 hidden subject' : `${hidden} hidden subjects`) : '', bundled > 0 ? (bundled === 1 ? '1 bundled file' : `${bundled} bundled files`) : '']
      .filter((c) => c !== '')
      .join(' and ');
    const which = hidden > 0 && bundled > 0 ? "hidden subjects and skills' bundled files" : hidden > 0 ? 'hidden subjects' : "skills' bundled files";
    out += ` The glob skipped ${counts}: ${which} load only by their exact slug.`;
  }
  if (hint.ignored !== undefined) out += ` ${ignoredSentence(hint.ignored)}`;
  return out;
}

const REASONS: Record<Reason, string> = {
  prefix: '',
  slash: 'slugs have no trailing "/"',
  extension: 'slugs have no file extension',
  dot: 'slugs drop the leading "." of hidden names',
  case: 'slugs are case-sensitive',
  'file-name': 'it is the only subject with that file name; slugs include their folders',
  unicode: 'the same name in another Unicode normalisation, as the file name is saved',
  title: 'it is that subject\'s title; subjects load by their slugs',
  alias: 'it is one of that subject\'s aliases (frontmatter `aliases`); subjects load by their slugs',
  wikilink: 'a wikilink names its target; subjects load by their slugs, without brackets',
  'skill-file': "a skill's slug is its folder's; its SKILL.md is what the skill loads",
  'index-page': '',
};

function fallbackReason(f: Fallback & { kind: 'read-as' | 'split' }): string {
  if (f.kind === 'split') return f.json ? 'it is a JSON array inside a string: give several subjects as an array of strings' : 'give several subjects as an array of strings';
  const reasons = f.reasons.map((r) => (r === 'prefix' ? `slugs are relative to the topic's directory: no leading ${quoted(f.prefix ?? '')}` : r === 'index-page' ? indexPageReason(f.slug) : REASONS[r]));
  if (f.section !== undefined) reasons.push(`the link names its section ${quoted(f.section)}: the whole subject follows`);
  return reasons.join('; ');
}

/** Why a folder's name loaded its index page (`slug`), and how to list
 *  the folder instead. */
function indexPageReason(slug: string): string {
  const folder = slug.slice(0, slug.lastIndexOf('/'));
  return `it is the index page of the folder ${quoted(folder)}; the pattern ${quoted(`${folder}/`)} lists the folder`;
}

/** A folder named where a subject was expected: its listing. */
function renderFolder(f: Fallback & { kind: 'folder' }): string {
  const name = f.folder === f.pattern ? 'it' : quoted(f.folder);
  const lines = [`No subject is named ${quoted(f.pattern)}; ${name} is a folder. Its subjects:`, bullets(f.slugs)];
  if (f.more > 0) lines.push(`- … and ${f.more} more`);
  const all = f.nested ? `${quoted(`${f.folder}/**`)} (${quoted(`${f.folder}/*`)} for this level only)` : quoted(`${f.folder}/*`);
  lines.push(`Load one by its slug, or all of them with ${all}.`);
  return lines.join('\n');
}

/** Subjects left out of a result to stay within the budget, and the call
 *  that continues. */
export function renderLeftOut(count: number, tokens: string, budget: string, call: string): string {
  return `[${count} more subject${count === 1 ? '' : 's'} (~${tokens} tokens) matched but ${count === 1 ? 'was' : 'were'} left out to stay within the ${budget}-token budget. To continue, call \`learn\` with ${call}]`;
}

/** The subjects after one shown in windows, which come after its last
 *  window. */
export function renderLeftAfter(count: number, tokens: string, slug: string): string {
  return `[${count} more subject${count === 1 ? '' : 's'} (~${tokens} tokens) follow${count === 1 ? 's' : ''} after the last window of ${jsonQuoted(slug)}.]`;
}

/** A subject too large for the budget, shown in windows; or lines of a
 *  subject (`range`), in one window or in several. */
export function renderWindowNote(slug: string, from: number, to: number, total: number, lines: [number, number], budget: string, call: string | undefined, range?: LinesShown): string {
  if (range !== undefined) return renderLinesNote(slug, from, to, lines, budget, call, range);
  const part = `[Subject ${quoted(slug)} is larger than the ${budget}-token budget, so it comes in windows: this is bytes ${from}-${to} of ${total} (lines ${lines[0]}-${lines[1]}).`;
  return call === undefined ? `${part} It is the last window.]` : `${part} For the next window, call \`learn\` with ${call}]`;
}

/** Lines of a subject: which, of how many (and what was asked, where the
 *  subject ends before the range does); in windows, which this one is. */
function renderLinesNote(slug: string, from: number, to: number, lines: [number, number], budget: string, call: string | undefined, r: LinesShown): string {
  const asked = r.asked === undefined ? '' : `; lines ${r.asked} were asked for`;
  const which = `${r.first === r.last ? `line ${r.first}` : `lines ${r.first}-${r.last}`} of subject ${quoted(slug)}, which has ${r.lines} line${r.lines === 1 ? '' : 's'}${asked}`;
  const windowed = lines[0] !== r.first || lines[1] !== r.last || call !== undefined;
  if (!windowed) return `[${r.first === r.last ? 'This is' : 'These are'} ${which}.]`;
  const part = `[These are ${which}, larger than the ${budget}-token budget, so they come in windows: this is lines ${lines[0]}-${lines[1]} (bytes ${from}-${to}).`;
  return call === undefined ? `${part} It is the last window.]` : `${part} For the next window, call \`learn\` with ${call}]`;
}

/** A window of a subject's body: the bytes as they are (so the windows put
 *  together are the file), in a fence for a fenced format, in a
 *  `<subject>` block. */
export function windowBlock(prefix: string, slug: string, fenceTag: string | undefined, window: Body, note = ''): Formatted {
  const endsWithNewline = window.length > 0 && (typeof window === 'string' ? window.endsWith('\n') : window[window.length - 1] === 0x0a);
  const nl = endsWithNewline || window.length === 0 ? '' : '\n';
  if (fenceTag === undefined) return { head: `${prefix}<subject ${quoted(slug)}>\n${note}`, body: window, tail: `${nl}</subject>` };
  const run = longestBacktickRun(window);
  const fence = run < 3 ? '```' : '`'.repeat(run + 1);
  return { head: `${prefix}<subject ${quoted(slug)}>\n${fence}${fenceTag}\n`, body: window, tail: `${nl}${fence}\n</subject>` };
}

// ---------------------------------------------------------------------------
// A learn call as events (app/learn.ts produces them, in order) and the one
// place they become the model's text.

/** The model's text of a learn call's events, written chunk by chunk as
 *  they come (subject bodies as they were read: bytes stay bytes): the
 *  blocks in order, then one line per note, window note and summary of
 *  what was left out. Problems are not the model's: they are skipped. */
export function learnText(write: (chunk: Chunk) => void): (e: LearnEvent) => void {
  let blocks = 0;
  let windowed = false;
  const notes: string[] = [];
  const tail: string[] = [];
  const block = (out: Formatted) => {
    write(out.head);
    write(out.body);
    write(out.tail);
    blocks++;
  };
  return (e) => {
    switch (e.kind) {
      case 'unknown-topic':
        write(renderUnknownTopic(e.topic, e.valid));
        return;
      case 'listing':
        write(renderListing(e.topic, e.items, e.learned, e.fit, e.folder, e.topicNotes));
        return;
      case 'subject': {
        const after = e.skill === undefined ? '' : renderSkillFiles(e.skill.dir, e.skill.files);
        block(e.raw ? rawContent(e.content, after) : subjectBlock(blocks > 0 ? '\n\n' : '', e.slug, e.content, after));
        return;
      }
      case 'window': {
        block(windowBlock(blocks > 0 ? '\n\n' : '', e.slug, e.fenceTag, e.body, e.note));
        windowed = true;
        tail.push(renderWindowNote(e.slug, e.from, e.to, e.total, e.lines, countText(e.budget), e.next === undefined ? undefined : jsonQuoted(e.next), e.range));
        return;
      }
      case 'note':
        notes.push(renderNote(e.note, e.topic));
        return;
      case 'left-out':
        tail.push(renderLeftOut(e.count, countText(e.tokens), countText(e.budget), jsonQuoted(e.call)));
        return;
      case 'left-after':
        tail.push(renderLeftAfter(e.count, countText(e.tokens), e.slug));
        return;
      case 'end': {
        const lines = map(e.topicNotes, (n) => renderTopicNote(n, e.topic));
        lines.push(...notes, ...tail);
        if (lines.length > 0) write(`${blocks > 0 ? '\n\n' : ''}${lines.join('\n')}`);
        if (!e.raw || blocks === 0 || windowed || lines.length > 0) write('\n');
        return;
      }
      case 'problem':
        return;
    }
  };
}

/** Lines of a subject read as a resource: as `kb learn TOPIC SLUG:120-160`
 *  prints them (their block, then the note saying which). */
export function linesText(r: { slug: string; fenceTag: string | undefined; body: string; from: number; to: number; total: number; range: LinesShown }): string {
  const lines: [number, number] = [r.range.first, r.range.last];
  return `${formattedText(windowBlock('', r.slug, r.fenceTag, r.body))}\n\n${renderWindowNote(r.slug, r.from, r.to, r.total, lines, '', undefined, r.range)}\n`;
}
