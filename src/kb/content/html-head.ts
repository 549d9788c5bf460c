// An HTML page's head, as the probe reads it for a title and a man page's
// summary (kb/fs/probe.ts, content/title.ts): its first 8192 bytes, without
// comments and without `<script>`, `<style>`, `<noscript>`, `<iframe>`,
// `<noembed>` and `<noframes>` elements, looked for in the first
// HTML_HEAD_BYTES of the file. An Asciidoctor page embeds about 29 KB of
// style sheet before its body: its NAME section is past the first 8192
// bytes, and within them once the style sheet is left out.
//
// One pass over bytes, each looked at a bounded number of times: linear in
// what it reads (tests/property/parsers.property.test.ts).

/** Bytes of an HTML file read at most for its head: a page whose text
 *  starts later shows no title or summary from it. */
export const HTML_HEAD_BYTES = 256 * 1024;

/** Elements whose content is not markup, left out with their tags. */
const RAW = ['script', 'style', 'noscript', 'iframe', 'noembed', 'noframes'];

const LT = 0x3c;
const GT = 0x3e;

/** Whether `b[at]` starts `word` (lower-case ASCII letters), any case. */
function wordAt(b: Uint8Array, at: number, n: number, word: string): boolean {
  if (at + word.length > n) return false;
  for (let i = 0; i < word.length; i++) if ((b[at + i] | 0x20) !== word.charCodeAt(i)) return false;
  return true;
}

/** Whether byte `c` ends a tag's name. */
function endsName(c: number | undefined): boolean {
  return c === undefined || c === GT || c === 0x2f || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/** The raw-text element whose start tag is at `b[lt]`, or undefined. */
function rawAt(b: Uint8Array, lt: number, n: number): string | undefined {
  for (const name of RAW) if (wordAt(b, lt + 1, n, name) && endsName(lt + 1 + name.length < n ? b[lt + 1 + name.length] : undefined)) return name;
  return undefined;
}

/** Where what starts at `b[lt]` (a `<`) and is left out ends; -1 when
 *  nothing left out starts there. A construct the bytes end inside runs to
 *  their end. */
function droppedEnd(b: Uint8Array, lt: number, n: number): number {
  if (b[lt + 1] === 0x21 && b[lt + 2] === 0x2d && b[lt + 3] === 0x2d) {
    // A comment; `<!-->` and `<!--->` close at once.
    if (b[lt + 4] === GT) return lt + 5;
    if (b[lt + 4] === 0x2d && b[lt + 5] === GT) return lt + 6;
    for (let i = b.indexOf(GT, lt + 4); i >= 0 && i < n; i = b.indexOf(GT, i + 1)) if (b[i - 1] === 0x2d && b[i - 2] === 0x2d) return i + 1;
    return n;
  }
  const name = rawAt(b, lt, n);
  if (name === undefined) return -1;
  for (let i = b.indexOf(LT, lt + 1); i >= 0 && i < n; i = b.indexOf(LT, i + 1)) {
    if (b[i + 1] !== 0x2f || !wordAt(b, i + 2, n, name) || !endsName(i + 2 + name.length < n ? b[i + 2 + name.length] : undefined)) continue;
    const gt = b.indexOf(GT, i + 2 + name.length);
    return gt < 0 || gt >= n ? n : gt + 1;
  }
  return n;
}

/** Whether `b[from, n)` holds something `compactHtml` leaves out. */
export function htmlDrops(b: Uint8Array, from: number, n: number): boolean {
  for (let lt = b.indexOf(LT, from); lt >= 0 && lt < n; lt = b.indexOf(LT, lt + 1)) if (droppedStart(b, lt, n)) return true;
  return false;
}

/** Whether a construct left out starts at `b[lt]` (its end not looked for). */
function droppedStart(b: Uint8Array, lt: number, n: number): boolean {
  return (b[lt + 1] === 0x21 && b[lt + 2] === 0x2d && b[lt + 3] === 0x2d) || rawAt(b, lt, n) !== undefined;
}

/**
 * Writes `src[0, n)` into `out`, from `from` on without what is left out
 * (comments, raw-text elements), up to `out.length` bytes; returns how
 * many were written. `out` may be `src` (what is written never overtakes
 * what is read).
 */
export function compactHtml(src: Uint8Array, from: number, n: number, out: Uint8Array): number {
  const cap = out.length;
  let w = Math.min(from, cap);
  if (out !== src) out.set(src.subarray(0, w), 0);
  let r = from;
  while (r < n && w < cap) {
    let lt = src.indexOf(LT, r);
    if (lt < 0 || lt >= n) lt = n;
    const k = Math.min(lt - r, cap - w);
    if (k > 0) {
      if (out === src) src.copyWithin(w, r, r + k);
      else out.set(src.subarray(r, r + k), w);
      w += k;
    }
    if (lt >= n || w >= cap) break;
    const end = droppedEnd(src, lt, n);
    if (end < 0) {
      out[w++] = LT;
      r = lt + 1;
    } else {
      r = end;
    }
  }
  return w;
}
