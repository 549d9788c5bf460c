// A subject's body: text (a string) or bytes (the UTF-8 encoding of that
// text, as read from the file). One small set of operations works on both,
// so every content rule (formatting, trimming, later frontmatter and
// truncation) is written once: format.ts and the renderers use only these.
//
// Bytes exist for speed: `kb learn` streams a file's bytes as they are, with
// no decoding and re-encoding; for valid UTF-8 (nearly every file) the
// bytes on disk already are the output (kb/fs/read.ts `readBody`). The byte
// operations below give exactly the UTF-8 encoding of what the string
// operations give (tests/unit/kb/body.test.ts compares the two).

/** Text, or its UTF-8 encoding. A bytes body may be a view into a buffer
 *  that the next read reuses: use it (or copy it) before reading again. */
export type Body = string | Uint8Array;

// A byte-order mark inside the body is content (the file's own was dropped
// when it was read): kept.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The body as a string (bytes decoded as UTF-8). */
export function bodyText(body: Body): string {
  return typeof body === 'string' ? body : decoder.decode(body);
}

/** The longest run of consecutive backticks. */
export function longestBacktickRun(body: Body): number {
  let longest = 0;
  if (typeof body === 'string') {
    let run = 0;
    for (let i = 0; i < body.length; i++) {
      if (body.charCodeAt(i) === 96) {
        run++;
        if (run > longest) longest = run;
      } else {
        run = 0;
      }
    }
    return longest;
  }
  // A backtick (0x60) is never part of a multi-byte character.
  let i = body.indexOf(0x60);
  while (i !== -1) {
    let j = i + 1;
    while (j < body.length && body[j] === 0x60) j++;
    if (j - i > longest) longest = j - i;
    i = body.indexOf(0x60, j);
  }
  return longest;
}

/** `String.prototype.trimEnd`: trailing white space and line terminators,
 *  as ECMAScript defines them, dropped. */
export function trimEnd(body: Body): Body {
  if (typeof body === 'string') return body.trimEnd();
  const end = trimEndLength(body);
  return end === body.length ? body : body.subarray(0, end);
}

/** Trailing line breaks (LF and CR, and only those) dropped. */
export function trimNewlines(body: Body): Body {
  let end = body.length;
  if (typeof body === 'string') {
    while (end > 0 && (body.charCodeAt(end - 1) === 10 || body.charCodeAt(end - 1) === 13)) end--;
    return end === body.length ? body : body.slice(0, end);
  }
  while (end > 0 && (body[end - 1] === 0x0a || body[end - 1] === 0x0d)) end--;
  return end === body.length ? body : body.subarray(0, end);
}

/** The length of valid UTF-8 `b` once `trimEnd` has been applied to its
 *  text. */
function trimEndLength(b: Uint8Array): number {
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
