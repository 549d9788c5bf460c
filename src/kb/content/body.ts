// Subject content as bytes: the streaming path of `kb learn`.
//
// `readSubject` + `formatContent` (read.ts, format.ts) produce a subject's
// content as a string, which the output then encodes back to UTF-8. For
// valid UTF-8 (nearly every file) the bytes on disk already are that
// encoding, so this path keeps them: it checks validity without decoding,
// drops a byte-order mark, applies the same formatting to the bytes, and
// hands out views into one reused buffer. Anything else (invalid UTF-8,
// UTF-16) goes through the string path and is encoded back, so the bytes are
// always exactly the UTF-8 encoding of what the string path produces
// (tests/unit/kb/bytes.test.ts compares the two).

import { isUtf8 } from 'node:buffer';
import { decodeText, encodingOf } from '../fs/decode.ts';
import { languageOf, PASS_THROUGH } from './format.ts';
import { readSubjectRaw } from '../fs/read.ts';
import type { ContentReader } from '../index/view.ts';

/** A subject read as bytes. `bytes` is a view into a buffer that the next
 *  read reuses: use it (or copy it) before reading another subject. */
export type BytesResult =
  | { kind: 'text'; bytes: Uint8Array; /** invalid UTF-8 was replaced */ replaced: boolean }
  | { kind: 'binary' }
  | { kind: 'error'; message: string };

const encoder = new TextEncoder();

/** Reads a subject like `readSubject` (read.ts), giving the UTF-8 bytes of
 *  the text it would decode. Never throws. */
export function readSubjectBytes(abs: string): BytesResult {
  const raw = readSubjectRaw(abs);
  return raw.kind === 'bytes' ? textOf(raw.bytes) : raw;
}

/** The UTF-8 text of a whole (non-binary) file's bytes, as `decodeText`
 *  would give it, encoded. */
export function textOf(bytes: Uint8Array): { kind: 'text'; bytes: Uint8Array; replaced: boolean } {
  if (encodingOf(bytes) === 'utf-8' && isUtf8(bytes)) {
    const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return { kind: 'text', bytes: bom ? bytes.subarray(3) : bytes, replaced: false };
  }
  const { text, replaced } = decodeText(bytes);
  return { kind: 'text', bytes: encoder.encode(text), replaced };
}

/** A subject's formatted content as pieces: `head` + `body` + `tail` is the
 *  UTF-8 encoding of `formatContent(ext, text)`. */
export interface FormattedBytes {
  head: string;
  body: Uint8Array;
  tail: string;
}

/** `formatContent` on bytes (see format.ts for the rules). */
export function formatBytes(ext: string, bytes: Uint8Array): FormattedBytes {
  const tag = fenceTag(ext);
  if (tag === undefined) return { head: '', body: bytes, tail: '' };
  const end = trimEndLength(bytes);
  const body = end === bytes.length ? bytes : bytes.subarray(0, end);
  const run = longestBacktickRunBytes(body);
  const fence = run < 3 ? '```' : '`'.repeat(run + 1);
  return body.length === 0 ? { head: `${fence}${tag}\n`, body, tail: fence } : { head: `${fence}${tag}\n`, body, tail: `\n${fence}` };
}

// Per extension, as written: undefined for pass-through formats, else the
// fence's language tag (format.ts's rules), worked out once per extension.
const tags = new Map<string, string | undefined>();

function fenceTag(ext: string): string | undefined {
  if (tags.has(ext)) return tags.get(ext);
  const e = ext.toLowerCase();
  let tag: string | undefined;
  if (!PASS_THROUGH.has(e)) {
    const lang = languageOf(e);
    tag = /[`\s]/.test(lang) ? '' : lang;
  }
  if (tags.size < 256) tags.set(ext, tag); // a topic has a handful of extensions
  return tag;
}

/** The longest run of backticks (0x60, never part of a multi-byte
 *  character) in `bytes`. */
export function longestBacktickRunBytes(bytes: Uint8Array): number {
  let longest = 0;
  let i = bytes.indexOf(0x60);
  while (i !== -1) {
    let j = i + 1;
    while (j < bytes.length && bytes[j] === 0x60) j++;
    if (j - i > longest) longest = j - i;
    i = bytes.indexOf(0x60, j);
  }
  return longest;
}

/** The length of valid UTF-8 `bytes` once `String.prototype.trimEnd` has
 *  been applied to the text: trailing white space and line terminators, as
 *  ECMAScript defines them, are dropped. */
export function trimEndLength(b: Uint8Array): number {
  let end = b.length;
  while (end > 0) {
    const c = b[end - 1];
    // TAB, LF, VT, FF, CR, SPACE
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) {
      end--;
      continue;
    }
    if (c < 0x80) break;
    // U+00A0 NO-BREAK SPACE
    if (c === 0xa0 && end >= 2 && b[end - 2] === 0xc2) {
      end -= 2;
      continue;
    }
    if (end < 3) break;
    const a = b[end - 3];
    const m = b[end - 2];
    if (
      // U+1680 OGHAM SPACE MARK
      (a === 0xe1 && m === 0x9a && c === 0x80) ||
      // U+2000..U+200A, U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR, U+202F
      (a === 0xe2 && m === 0x80 && ((c >= 0x80 && c <= 0x8a) || c === 0xa8 || c === 0xa9 || c === 0xaf)) ||
      // U+205F MEDIUM MATHEMATICAL SPACE
      (a === 0xe2 && m === 0x81 && c === 0x9f) ||
      // U+3000 IDEOGRAPHIC SPACE
      (a === 0xe3 && m === 0x80 && c === 0x80) ||
      // U+FEFF ZERO WIDTH NO-BREAK SPACE
      (a === 0xef && m === 0xbb && c === 0xbf)
    ) {
      end -= 3;
      continue;
    }
    break;
  }
  return end;
}

/** The length of `bytes` without its trailing line breaks (LF and CR), as
 *  `trimTrailingNewlines` (render/text.ts) does to text. */
export function trimNewlinesLength(bytes: Uint8Array, end = bytes.length): number {
  while (end > 0 && (bytes[end - 1] === 0x0a || bytes[end - 1] === 0x0d)) end--;
  return end;
}

/** A `ContentReader` (topic.ts) giving formatted bytes: `kb learn` streams
 *  them. The body is a view into the read buffer, valid until the next
 *  subject is read. */
export const readBytes: ContentReader<FormattedBytes> = (subject) => {
  const result = readSubjectBytes(subject.abs);
  return result.kind === 'text' ? { kind: 'text', content: formatBytes(subject.ext, result.bytes), replaced: result.replaced } : result;
};
