// A text file's title and summary, found in its head when it is probed
// (probe.ts): the rules of content/title.ts, with an HTML page's head
// cleaned first (content/html-head.ts). Loaded by what shows or searches
// titles (a listing, the search index, the reader thread); what probes
// kinds alone (kb schema, kb prompt: probe.ts `probeKinds`) loads none of
// it.

import { compactHtml, HTML_HEAD_BYTES, htmlDrops } from '../content/html-head.ts';
import { cleanTitle, scanHead, titleFormatOfPath, type TitleFormat } from '../content/title.ts';
import { map } from '../../shared/arrays.ts';
import { decodeFront, examineHead, frontText, headOf, isRawHead, PROBE_BYTES, PROBED, probeRaw, textResult, type HeadTitles, type MoreBytes, type Probe, type ProbeResult, type RawHead } from './probe.ts';

/** An HTML page's head without what html-head.ts leaves out, written here
 *  (the spans of a RawHead point into it until the next probe). */
const htmlHead = new Uint8Array(PROBE_BYTES);

/** The title rules, for `probeRaw`. */
export const TITLES: HeadTitles = {
  examine(head: Uint8Array, n: number, front: [number, number] | undefined, whole: boolean, path: string, more: MoreBytes | undefined): ProbeResult | RawHead {
    const format = titleFormatOfPath(path);
    let spans;
    if (format !== undefined && !(n >= 2 && (head[0] === 0xff || head[0] === 0xfe))) {
      // After the frontmatter's closing fence line (or a byte-order mark).
      let from = n >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
      if (front !== undefined) {
        const nl = head.indexOf(0x0a, front[1]);
        from = nl < 0 || nl >= n ? n : nl + 1;
      }
      if (format === 'html' && htmlDrops(head, from, n)) {
        const all = whole || more === undefined ? { bytes: head, n } : more(HTML_HEAD_BYTES);
        n = compactHtml(all.bytes, from, all.n, htmlHead);
        head = htmlHead;
      }
      spans = scanHead(head, from, n, format, true, path);
    }
    if (spans === undefined) return front === undefined ? PROBED.text : headOf(head.subarray(front[0], front[1]), undefined, undefined);
    return headOf(
      front === undefined ? undefined : head.subarray(front[0], front[1]),
      spans.titleStart < 0 ? undefined : head.subarray(spans.titleStart, spans.titleEnd),
      spans.summaryStart < 0 ? undefined : head.subarray(spans.summaryStart, spans.summaryEnd),
    );
  },
};

/** Probes a file: its kind, and for a text file its frontmatter, title
 *  and summary. */
export function probeFile(abs: string): ProbeResult {
  return decodeRaw(probeRaw(abs, TITLES), abs);
}

/** The main thread's probe, titles and all: one file after the other. */
export const probeHere: Probe = {
  probe: (paths) => map(paths, (p) => probeFile(p)),
};

/** A result of `probeRaw` decoded: frontmatter, title and summary as
 *  text, by the format of `abs`. */
export function decodeRaw(r: ProbeResult | RawHead, abs: string): ProbeResult {
  if (!isRawHead(r)) return r;
  const format = r.title !== undefined || r.summary !== undefined ? titleFormatOfPath(abs) : undefined;
  return textResult(frontText(r), decodeTitle(r.title, format), decodeTitle(r.summary, format), r.titlesSkipped);
}

/** What probing a file whose content starts with `bytes` gives (its kind,
 *  frontmatter, title and summary, as `probeFile`), for a caller that holds
 *  the bytes already (the search index reads whole files): `path` (or a
 *  name) gives the format by its extension. Looks at the first PROBE_BYTES
 *  bytes only (an HTML page's head: HTML_HEAD_BYTES). */
export function probeBytes(bytes: Uint8Array, path: string): ProbeResult {
  return decodeRaw(examineHead(bytes, Math.min(bytes.length, PROBE_BYTES), path, TITLES, (size) => ({ bytes, n: Math.min(bytes.length, size) })), path);
}

/** Title or summary bytes as text (content/title.ts `cleanTitle`);
 *  undefined when nothing is left. */
export function decodeTitle(bytes: Uint8Array | undefined, format: TitleFormat | undefined): string | undefined {
  if (bytes === undefined) return undefined;
  if (format !== 'html' && isPlainTitle(bytes)) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  const t = cleanTitle(decodeFront(bytes), format);
  return t === '' ? undefined : t;
}

/** Whether title bytes are already what `cleanTitle` makes of them
 *  (outside HTML): printable ASCII, not empty, spaces single and not at
 *  either end, no Markdown link (`](`) or AsciiDoc anchor (`[[`), no
 *  `<` or two backticks, nothing that may be markup alone
 *  (content/markup.ts: `:` or `#+` first, a `{` or `}`). */
function isPlainTitle(b: Uint8Array): boolean {
  const n = b.length;
  if (n === 0 || n > 1024 || b[0] === 0x20 || b[n - 1] === 0x20 || b[0] === 0x3a || (b[0] === 0x23 && b[1] === 0x2b)) return false;
  // Block markup (content/sniff.ts `blockMarkup`): `..` first, `[...]`, `::`.
  if ((b[0] === 0x2e && b[1] === 0x2e) || (b[0] === 0x5b && b[n - 1] === 0x5d)) return false;
  for (let i = 0; i < n; i++) {
    const c = b[i];
    // Braces (markup.ts), tags (content/title.ts `dropHtmlTags`).
    if (c < 0x20 || c > 0x7e || c === 0x7b || c === 0x7d || c === 0x3c) return false;
    if (c === 0x60 && b[i + 1] === 0x60) return false; // ``x`` (`singleTicks`)
    if (c === 0x20 && b[i + 1] === 0x20) return false;
    if (c === 0x5b && b[i + 1] === 0x5b) return false; // `[[`
    if (c === 0x3a && b[i + 1] === 0x3a) return false; // `::`
    if (c === 0x28 && i > 0 && b[i - 1] === 0x5d) return false; // `](`
  }
  return true;
}
