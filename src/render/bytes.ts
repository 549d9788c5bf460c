// The learn result's subject pieces for content given as bytes (kb/bytes.ts):
// the same text as `subjectBlock` and `endWithNewline` (render/prompt.ts,
// render/text.ts) produce for the content as a string, with the file's bytes
// left in place. tests/unit/render/bytes.test.ts compares the two.
import { trimNewlinesLength, type FormattedBytes } from '../kb/content/body.ts';
import { quoted, trimTrailingNewlines } from './text.ts';

/** `head` + `body` + `tail`, to be written in that order (a learn result
 *  piece, src/tool/run.ts). */
export interface BytesPiece {
  kind: 'bytes';
  head: string;
  body: Uint8Array;
  tail: string;
}

/** Content with its trailing line breaks dropped (`trimTrailingNewlines`). */
function trimmed(c: FormattedBytes): FormattedBytes {
  if (c.tail !== '') {
    const tail = trimTrailingNewlines(c.tail);
    if (tail !== '') return tail === c.tail ? c : { head: c.head, body: c.body, tail };
  }
  const end = trimNewlinesLength(c.body);
  if (end === c.body.length && end > 0) return c;
  const body = c.body.subarray(0, end);
  return body.length > 0 ? { head: c.head, body, tail: '' } : { head: trimTrailingNewlines(c.head), body, tail: '' };
}

/** `prefix` + `subjectBlock(slug, content)`. */
export function subjectBlockBytes(prefix: string, slug: string, content: FormattedBytes): BytesPiece {
  const t = trimmed(content);
  return { kind: 'bytes', head: `${prefix}<subject ${quoted(slug)}>\n${t.head}`, body: t.body, tail: `${t.tail}\n</subject>` };
}

/** `endWithNewline(content)`. */
export function endWithNewlineBytes(content: FormattedBytes): BytesPiece {
  const t = trimmed(content);
  return { kind: 'bytes', head: t.head, body: t.body, tail: `${t.tail}\n` };
}
