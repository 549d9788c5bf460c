// `kb export`'s output: one JSON line per subject on stdout, and what was
// skipped or changed, then the count, for stderr.
import type { ExportItem, ExportRecord, ExportSummary } from '../answer/export.ts';
import { escapeControls, quoted } from '../shared/controls.ts';
import { countText } from '../shared/text.ts';

/** A record as one line of JSON: every control, line-separator,
 *  bidirectional or zero-width character escaped as `\uXXXX` (the same
 *  value; JSON.stringify leaves U+2028 raw, which some readers take for a
 *  line end). */
export function exportLine(record: ExportRecord): string {
  return `${escapeControls(JSON.stringify(record))}\n`;
}

/** What stderr says of a skipped subject. */
export function skippedText(item: Extract<ExportItem, { kind: 'skipped' }>): string {
  const what = item.why === 'binary' ? 'it is a binary file' : (item.message ?? 'it cannot be read');
  return `topic ${quoted(item.topic)}: subject ${quoted(item.slug)} not exported: ${what} (${item.path})`;
}

/** What stderr says of a subject exported with invalid bytes replaced. */
export function replacedText(record: ExportRecord): string {
  return `topic ${quoted(record.topic)}: subject ${quoted(record.slug)} is not valid text; exported with U+FFFD in place of the invalid bytes (${record.path})`;
}

function plural(n: number, one: string, many: string): string {
  return `${countText(n)} ${n === 1 ? one : many}`;
}

/** The count, last on stderr: what was exported, and what was not and why.
 *  `unnamed`: how many skipped or replaced subjects were not named one by
 *  one above. */
export function summaryText(s: ExportSummary, unnamed: number): string {
  const parts = [`exported ${plural(s.exported, 'subject', 'subjects')} from ${plural(s.topics.length, 'topic', 'topics')}`];
  if (s.replaced > 0) parts.push(`${countText(s.replaced)} with invalid bytes replaced`);
  const skipped: string[] = [];
  if (s.binary > 0) skipped.push(`${plural(s.binary, 'binary file', 'binary files')}`);
  if (s.unreadable > 0) skipped.push(`${plural(s.unreadable, 'file not read', 'files not read')}`);
  if (skipped.length > 0) parts.push(`skipped ${skipped.join(' and ')}`);
  if (s.hidden > 0) parts.push(`left out ${plural(s.hidden, 'hidden subject', 'hidden subjects')} (--hidden exports them)`);
  if (s.disabled > 0) parts.push(`left out ${plural(s.disabled, 'disabled subject', 'disabled subjects')}`);
  let text = parts.join('; ');
  if (unnamed > 0) text += ` (${countText(unnamed)} not named above; --verbose names each)`;
  return text;
}
