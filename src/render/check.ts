// kb check's report, for people (text) and machines (JSON).
import type { CheckSummary } from '../answer/check.ts';
import { aboutTokens } from '../shared/text.ts';
import { escapeControls } from '../shared/controls.ts';
import { formatProblem } from '../shared/problem.ts';
import { MIN_COMPARED_TERMS } from '../kb/write/similar.ts';
import { binaryLine } from './binary.ts';

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** kb check's report for people. Each topic's binary files are one line
 *  (`verbose`: and then one line each). */
export function renderCheckText(s: CheckSummary, opts: { verbose?: boolean } = {}): string {
  // One line per problem, whatever it quotes (shared/controls.ts).
  const lines = s.diagnostics.map((d) => `${d.severity}: ${escapeControls(formatProblem(d))}`);
  for (const t of s.topics) {
    if (t.binary !== undefined) {
      lines.push(`topic "${escapeControls(t.id)}": ${binaryLine(t.binary)}${opts.verbose ? '' : ' (kb check --verbose lists them)'}`);
      if (opts.verbose) for (const f of t.binary.files) lines.push(`  ${escapeControls(f.path)}`);
    }
    if (t.preloaded > 0) lines.push(`topic "${escapeControls(t.id)}": ${count(t.preloaded, 'pre-loaded subject')}, ${aboutTokens(t.preloadedTokens)}`);
    if (t.tooShort) {
      const their = t.tooShort === 1 ? 'its' : 'their';
      lines.push(
        `topic "${escapeControls(t.id)}": ${count(t.tooShort, 'subject')} not compared for near duplicates: fewer than ${MIN_COMPARED_TERMS} words of ${their} own (frontmatter, embeds and lines 3 or more subjects repeat aside)`,
      );
    }
  }
  const errors = s.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = s.diagnostics.length - errors;
  const subjects = s.topics.reduce((n, t) => n + t.subjects, 0);
  const scope = `${count(s.topics.length, 'topic')}, ${count(subjects, 'subject')}`;
  if (errors + warnings === 0) lines.push(`ok: ${scope}, no problems`);
  else lines.push(`${errors > 0 ? 'failed' : 'ok'}: ${scope}, ${count(errors, 'error')}, ${count(warnings, 'warning')}`);
  return `${lines.join('\n')}\n`;
}

export function renderCheckJson(s: CheckSummary): string {
  const errors = s.diagnostics.filter((d) => d.severity === 'error').length;
  return `${JSON.stringify({ ok: errors === 0, errors, warnings: s.diagnostics.length - errors, topics: s.topics, diagnostics: s.diagnostics }, null, 2)}\n`;
}
