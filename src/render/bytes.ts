// The learn result's subject pieces for content given as bytes (kb/bytes.ts):
// the same text as `subjectBlock` and `endWithNewline` (render/prompt.ts,
// render/text.ts) produce for the content as a string, with the file's bytes
// left in place. tests/unit/render/bytes.test.ts compares the two.
import { trimNewlinesLength, type FormattedBytes } from '../kb/bytes.ts';
import { quoted, trimTrailingNewlines } from './text.ts';

/** `head` + `body` + `tail`, to be written in that order. */
export interface BytesPiece {
  head: string;
  body: Uint8Array;
  tail: string;
}

/** Content with its trailing line breaks dropped (`trimTrailingNewlines`). */
function trimmed(c: FormattedBytes): BytesPiece {
  if (c.tail !== '') {
    const tail = trimTrailingNewlines(c.tail);
    if (tail !== '') return { head: c.head, body: c.body, tail };
  }
  const body = c.body.subarray(0, trimNewlinesLength(c.body));
  return body.length > 0 ? { head: c.head, body, tail: '' } : { head: trimTrailingNewlines(c.head), body, tail: '' };
}

/** `prefix` + `subjectBlock(slug, content)`. */
export function subjectBlockBytes(prefix: string, slug: string, content: FormattedBytes): BytesPiece {
  const t = trimmed(content);
  return { head: `${prefix}<subject ${quoted(slug)}>\n${t.head}`, body: t.body, tail: `${t.tail}\n</subject>` };
}

/** `endWithNewline(content)`. */
export function endWithNewlineBytes(content: FormattedBytes): BytesPiece {
  const t = trimmed(content);
  return { head: t.head, body: t.body, tail: `${t.tail}\n` };
}
