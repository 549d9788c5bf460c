// kb list: a human overview of every topic and its subjects. For a
// terminal: configuration text, paths and notices are shown escaped
// (shared/controls.ts); slugs never hold such characters (kb/index/view.ts).
import type { ListTopic } from '../answer/list.ts';
import { escapeControls } from '../shared/controls.ts';
import { countText, humanSize } from '../shared/text.ts';
import { oneLine } from './listing.ts';
import { labelOf } from './topic.ts';
import { binaryLine } from './binary.ts';

/** Problems `kb list` shows a topic, at most, without --verbose. */
export const PROBLEMS_SHOWN = 10;

/** Characters of a description `kb list` shows on a subject's row. */
const LIST_DESCRIPTION_CHARS = 72;

/** kb list for people: each topic's subjects; its binary files, which are
 *  not subjects, in one line (`verbose`: and each on a row). */
export function renderList(all: ListTopic[], opts: { verbose?: boolean } = {}): string {
  const out: string[] = [];
  const topics = opts.verbose ? all : all.map((t) => (t.binary === undefined ? t : { ...t, rows: t.rows.filter((r) => !r.marks.includes('binary')) }));
  for (const t of topics) {
    const head = `${labelOf(t)}: ${escapeControls(t.dir)}${t.enabled ? '' : ' [topic disabled]'}`;
    out.push(head);
    const w = Math.max(0, ...t.rows.map((r) => r.slug.length));
    const sizes = t.rows.map((r) => humanSize(r.size));
    const sw = Math.max(0, ...sizes.map((s) => s.length));
    const tokens = t.rows.map((r) => (r.tokens === undefined ? '' : `~${countText(r.tokens)} tok`));
    const tw = Math.max(0, ...tokens.map((s) => s.length));
    const days = t.rows.map((r) => dayOf(r.updated ?? r.created));
    const dw = Math.max(0, ...days.map((s) => s.length));
    t.rows.forEach((r, i) => {
      const marks = r.marks.length > 0 ? `  ${r.marks.join(', ')}` : '';
      const about = r.description === undefined ? '' : `  ${oneLine(r.description, LIST_DESCRIPTION_CHARS)}`;
      const tok = tw === 0 ? '' : `  ${tokens[i].padStart(tw)}`;
      const day = dw === 0 ? '' : `  ${days[i].padEnd(dw)}`;
      out.push(`  ${r.slug.padEnd(w)}  ${sizes[i].padStart(sw)}${tok}${day}${marks}${about}`.trimEnd());
    });
    if (tw > 0) {
      const total = t.rows.reduce((n, r) => n + (r.tokens ?? 0), 0);
      out.push(`  (~${countText(total)} token${total === 1 ? '' : 's'} in all)`);
    }
    if (t.rows.length === 0) out.push('  (no subjects)');
    if (t.binary !== undefined) out.push(`  (${binaryLine(t.binary)}${opts.verbose ? '' : '; kb list --verbose lists them'})`);
    if (t.ignored !== undefined) {
      out.push(t.ignored.length === 0 ? '  ignored: (nothing)' : '  ignored:');
      for (const x of t.ignored) out.push(`    ${escapeControls(x.path)}  (${escapeControls(x.rule)}, ${x.source === 'built-in' ? 'built-in default' : escapeControls(x.source)})`);
    }
    // A few problems a topic, the rest counted (a generated site beside its
    // sources shares hundreds of slugs): --verbose, or kb check, says each.
    const shown = opts.verbose ? t.problems : t.problems.slice(0, PROBLEMS_SHOWN);
    for (const p of shown) out.push(`  ! ${escapeControls(p)}`);
    if (shown.length < t.problems.length) out.push(`  ! … and ${countText(t.problems.length - shown.length)} more (kb list --verbose or kb check lists them)`);
    out.push('');
  }
  const subjects = topics.reduce((n, t) => n + t.rows.length - (opts.verbose ? (t.binary?.count ?? 0) : 0), 0);
  out.push(`${topics.length} topic${topics.length === 1 ? '' : 's'}, ${subjects} subject${subjects === 1 ? '' : 's'}`);
  return `${out.join('\n')}\n`;
}

/** The day of a time (`2025-01-14`), '' for none. */
export function dayOf(time: string | undefined): string {
  return time === undefined ? '' : escapeControls(time.slice(0, 10));
}

/** `kb list --format json`: the same, for machines (sizes in bytes,
 *  tokens estimated, per subject and per topic). */
export function renderListJson(topics: ListTopic[]): string {
  const out = topics.map((t) => ({ ...t, tokens: t.rows.reduce((n, r) => n + (r.tokens ?? 0), 0) }));
  return `${JSON.stringify({ topics: out }, null, 2)}\n`;
}

