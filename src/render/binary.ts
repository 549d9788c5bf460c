// The one line that sums up a topic's binary files (kb check, kb list).
import type { BinarySummary } from '../answer/binary.ts';
import { escapeControls } from '../shared/controls.ts';
import { countText } from '../shared/text.ts';

/** Kinds of file named in the line, at most. */
const KINDS_SHOWN = 6;

/** `504 binary files are not subjects: 320 png, 172 jpg, …`. */
export function binaryLine(b: BinarySummary): string {
  const kinds = b.extensions.slice(0, KINDS_SHOWN).map((e) => `${countText(e.count)} ${e.ext === '' ? 'without extension' : escapeControls(e.ext)}`);
  const rest = b.extensions.slice(KINDS_SHOWN).reduce((n, e) => n + e.count, 0);
  const files = b.count === 1 ? '1 binary file is not a subject' : `${countText(b.count)} binary files are not subjects`;
  return `${files}: ${kinds.join(', ')}${rest > 0 ? ` and ${countText(rest)} more` : ''}`;
}
