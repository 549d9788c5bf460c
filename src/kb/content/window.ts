// Windows of a subject too large for one result: cut at line boundaries
// (inside a line only when one line alone is over the budget, and then
// never inside a UTF-8 sequence), so that the windows put together are the
// body byte for byte.

import { estimateTokensOfBytes } from './tokens.ts';

/** Where the window that starts at `start` ends: the furthest line
 *  boundary (the byte after a `\n`) such that the window's estimate is at
 *  most `maxTokens`, or, when not even one line fits, the furthest UTF-8
 *  character boundary. Always past `start` (a window holds at least one
 *  character) unless `start` is the end. */
export function windowEnd(bytes: Uint8Array, start: number, maxTokens: number): number {
  const n = bytes.length;
  if (start >= n) return n;
  if (estimateTokensOfBytes(bytes, start, n) <= maxTokens) return n;
  // A first guess from the remainder's bytes per token, then shrink.
  const perToken = (n - start) / Math.max(1, estimateTokensOfBytes(bytes, start, n));
  let limit = Math.min(n, start + Math.max(1, Math.floor(maxTokens * perToken)));
  for (let tries = 0; tries < 64; tries++) {
    let end = bytes.lastIndexOf(0x0a, limit - 1) + 1;
    if (end <= start) end = charBoundary(bytes, limit, start);
    if (estimateTokensOfBytes(bytes, start, end) <= maxTokens || end <= start + 1) return Math.max(end, nextChar(bytes, start));
    limit = start + Math.floor((end - start) * 0.9);
    if (limit <= start) limit = start + 1;
  }
  return nextChar(bytes, start);
}

/** The largest character boundary at or below `at` (and above `floor`). */
function charBoundary(bytes: Uint8Array, at: number, floor: number): number {
  let i = Math.min(at, bytes.length);
  while (i > floor && i < bytes.length && (bytes[i] & 0xc0) === 0x80) i--;
  return i;
}

/** The boundary after the character that starts at `i`. */
function nextChar(bytes: Uint8Array, i: number): number {
  let j = i + 1;
  while (j < bytes.length && (bytes[j] & 0xc0) === 0x80) j++;
  return j;
}

/** The 1-based line number at byte `at` (lines before it plus one). */
export function lineAt(bytes: Uint8Array, at: number): number {
  let lines = 1;
  for (let i = bytes.indexOf(0x0a); i >= 0 && i < at; i = bytes.indexOf(0x0a, i + 1)) lines++;
  return lines;
}

/** `at` moved back to the start of the character it falls in (a
 *  continuation offset from a model may fall inside one), within
 *  [0, length]. */
export function charStart(bytes: Uint8Array, at: number): number {
  let i = Math.max(0, Math.min(at, bytes.length));
  while (i > 0 && i < bytes.length && (bytes[i] & 0xc0) === 0x80) i--;
  return i;
}

/** Lines `first` to `last` (1-based, inclusive; `last` undefined: to the
 *  end) of a body: their bytes [from, to) and the last line there is of
 *  them (`last` past the end is the last line), and how many lines the body
 *  has (a last line without its line end counts); `from` undefined when
 *  the body has fewer than `first` lines. One pass up to the range's end,
 *  and on to the end for the count. */
export function lineSpan(bytes: Uint8Array, first: number, last: number | undefined): { from?: number; to: number; last: number; lines: number } {
  const n = bytes.length;
  let line = 1;
  let from: number | undefined = first === 1 && n > 0 ? 0 : undefined;
  let to = n;
  let upTo = n > 0 ? 1 : 0;
  for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) {
    if (last !== undefined && line === last && to === n) to = i + 1;
    line++;
    if (i + 1 < n) {
      upTo = line;
      if (line === first) from = i + 1;
    }
  }
  const lines = upTo;
  if (from === undefined) return { to: n, last: lines, lines };
  return { from, to, last: last === undefined ? lines : Math.min(last, lines), lines };
}
