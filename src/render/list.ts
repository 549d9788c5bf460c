// kb list: a human overview of every topic and its subjects. For a
// terminal: configuration text, paths and notices are shown escaped
// (shared/controls.ts); slugs never hold such characters (kb/index/view.ts).
import { escapeControls } from '../shared/controls.ts';
import { humanSize } from '../shared/text.ts';
import { labelOf } from './topic.ts';

export interface ListRow {
  slug: string;
  size: number;
  marks: string[]; // hidden, disabled, learned, binary
}

export interface ListTopic {
  id: string;
  title?: string;
  enabled: boolean;
  dir: string;
  rows: ListRow[];
  problems: string[];
}

export function renderList(topics: ListTopic[]): string {
  const out: string[] = [];
  for (const t of topics) {
    const head = `${labelOf(t)}: ${escapeControls(t.dir)}${t.enabled ? '' : ' [topic disabled]'}`;
    out.push(head);
    const w = Math.max(0, ...t.rows.map((r) => r.slug.length));
    const sizes = t.rows.map((r) => humanSize(r.size));
    const sw = Math.max(0, ...sizes.map((s) => s.length));
    t.rows.forEach((r, i) => {
      const marks = r.marks.length > 0 ? `  ${r.marks.join(', ')}` : '';
      out.push(`  ${r.slug.padEnd(w)}  ${sizes[i].padStart(sw)}${marks}`.trimEnd());
    });
    if (t.rows.length === 0) out.push('  (no subjects)');
    for (const p of t.problems) out.push(`  ! ${escapeControls(p)}`);
    out.push('');
  }
  const subjects = topics.reduce((n, t) => n + t.rows.length, 0);
  out.push(`${topics.length} topic${topics.length === 1 ? '' : 's'}, ${subjects} subject${subjects === 1 ? '' : 's'}`);
  return `${out.join('\n')}\n`;
}
