// A near miss read otherwise, and a file an ignore rule leaves out, each in
// one sentence: the model's note (render/learn.ts) and the user's warning
// (app/learn.ts) say them alike, so the sentence is written here, below
// both.
import { escapeControls, quoted } from '../../shared/controls.ts';
import type { Fallback } from './near.ts';
import type { IgnoredHint } from './types.ts';

/** A file an ignore rule leaves out: that it exists, which rule, and the
 *  line that brings it back (the model's note and the user's warning say
 *  it alike). Paths are relative to the topic's directory. */
export function ignoredSentence(x: IgnoredHint): string {
  const by = x.source === 'built-in' ? `kb's built-in default ${quoted(x.rule)}` : `${escapeControls(x.source)}${x.line === undefined ? '' : ` line ${x.line}`} (${quoted(x.rule)})`;
  // A .kbignore's own rule: removing it is the way back.
  const back = x.source === x.kbignore ? 'removing that line brings it back' : `the line ${quoted(x.negation)} in the topic's ${escapeControls(x.kbignore)} brings it back`;
  return `${quoted(x.path)} exists in the topic's directory but is left out by ${by}; ${back}.`;
}

/** What a near miss was read as, in one clause (the model's note and the
 *  user's warning say it alike). */
export function fallbackSummary(f: Fallback): string {
  switch (f.kind) {
    case 'read-as':
      return `${quoted(f.pattern)} matched no subject; used ${quoted(f.slug)} instead`;
    case 'split':
      return `${quoted(f.pattern)} matched no subject; read it as ${f.parts.length === 1 ? '1 pattern' : `${f.parts.length} patterns`}: ${f.parts.map(quoted).join(', ')}`;
    case 'folder':
      return `${quoted(f.pattern)} matched no subject; ${f.folder === f.pattern ? 'it' : quoted(f.folder)} is a folder, listed instead`;
  }
}
