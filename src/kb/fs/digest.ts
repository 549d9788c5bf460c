// A file's raw bytes as the Skills extension serves them: their SHA-256
// digest and size, read in chunks (never the whole file in memory), and
// the bytes whole for a read. Both open a file as every read does
// (read.ts `withRegularFile`: no blocking on a FIFO swapped in after the
// walk, a regular file only) and stop one byte past their limit, so a file
// that grows (a log, a link swapped for /dev/zero) costs at most the limit.
//
// Each result carries the file's stamp (device, inode, size, modification
// and change times, in nanoseconds) from the open descriptor: a digest kept
// between requests is reused only while a stat of the file gives the same
// stamp (app/skills.ts).

import { createHash } from 'node:crypto';
import { fstatSync, readSync, statSync, type BigIntStats } from 'node:fs';
import { describeFsError } from './fserror.ts';
import { isBinaryHead, PROBE_BYTES } from './probe.ts';
import { tooLargeMessage, withRegularFile } from './read.ts';

/** What identifies one version of a file: equal stamps, same bytes (as
 *  far as the file system tells). */
export type Stamp = string;

/** A digest: `text` (when asked for) says whether the bytes are UTF-8
 *  with no NUL in their first 8192 bytes (probe.ts `isBinaryHead`), so
 *  that they can be served as text, exactly; `mtimeMs`, when the file was
 *  last written. */
export type DigestResult = { kind: 'digest'; digest: string; size: number; stamp: Stamp; mtimeMs: number; text?: boolean } | { kind: 'error'; message: string };
export type BytesResult = { kind: 'bytes'; bytes: Uint8Array; stamp: Stamp } | { kind: 'error'; message: string };

const CHUNK = 1 << 16;
let chunk: Uint8Array | undefined;

/** The stamp of a stat. */
function stampOf(st: BigIntStats): Stamp {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/** The stamp of the file at `abs` now (links followed, as a read follows
 *  them); undefined when it cannot be stat'ed. */
export function stampNow(abs: string): Stamp | undefined {
  try {
    return stampOf(statSync(abs, { bigint: true }));
  } catch {
    return undefined;
  }
}

/** `sha256:` and the lowercase hex SHA-256 of a file's bytes, and their
 *  count (`text`: whether they are text, see DigestResult). A file larger
 *  than `limit` bytes is an error (read no further than one byte past
 *  it); so is one that changed while it was read. */
export function digestFile(abs: string, limit: number, text = false): DigestResult {
  return withRegularFile(abs, digestOpen, { limit, text });
}

function digestOpen(fd: number, _st: unknown, { limit, text }: { limit: number; text: boolean }): DigestResult {
  const st = fstatSync(fd, { bigint: true });
  const before = stampOf(st);
  const buf = (chunk ??= new Uint8Array(CHUNK));
  const hash = createHash('sha256');
  const utf8 = text ? new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }) : undefined;
  let isText = text;
  let size = 0;
  for (;;) {
    const n = readSync(fd, buf, 0, Math.min(CHUNK, limit + 1 - size), null);
    if (n === 0) break;
    if (size > limit - n) return { kind: 'error', message: tooLargeMessage(size + n, limit, true) };
    const part = buf.subarray(0, n);
    hash.update(part);
    if (isText && size < PROBE_BYTES && isBinaryHead(part, Math.min(n, PROBE_BYTES - size))) isText = false;
    if (isText) isText = decodes(utf8!, part, false);
    size += n;
  }
  if (isText) isText = decodes(utf8!, new Uint8Array(0), true);
  const after = stampOf(fstatSync(fd, { bigint: true }));
  if (after !== before) return { kind: 'error', message: 'the file changed while it was read' };
  const out: DigestResult = { kind: 'digest', digest: `sha256:${hash.digest('hex')}`, size, stamp: after, mtimeMs: Number(st.mtimeMs) };
  if (text) out.text = isText;
  return out;
}

/** Whether `part` goes on decoding as UTF-8 (`last`: and the text ends
 *  with a whole character). */
function decodes(utf8: TextDecoder, part: Uint8Array, last: boolean): boolean {
  try {
    utf8.decode(part, { stream: !last });
    return true;
  } catch {
    return false;
  }
}

/** A file's bytes, whole, in a buffer of their own; larger than `limit`
 *  is an error (nothing past one byte more is read). */
export function fileBytes(abs: string, limit: number): BytesResult {
  return withRegularFile(abs, bytesOpen, limit);
}

function bytesOpen(fd: number, _st: unknown, limit: number): BytesResult {
  const st = fstatSync(fd, { bigint: true });
  // The size is a hint (/proc files say 0; a file may grow): one byte
  // more than the limit tells a file past it.
  let buf = new Uint8Array(Math.min(Number(st.size), limit) + 1);
  let size = 0;
  for (;;) {
    if (size === buf.length) {
      if (size > limit) return { kind: 'error', message: tooLargeMessage(size, limit, true) };
      const bigger = new Uint8Array(Math.min(buf.length * 2, limit + 1));
      bigger.set(buf);
      buf = bigger;
    }
    let n: number;
    try {
      n = readSync(fd, buf, size, buf.length - size, null);
    } catch (err) {
      return { kind: 'error', message: describeFsError(err) };
    }
    if (n === 0) break;
    size += n;
  }
  if (size > limit) return { kind: 'error', message: tooLargeMessage(size, limit, true) };
  return { kind: 'bytes', bytes: buf.subarray(0, size), stamp: stampOf(fstatSync(fd, { bigint: true })) };
}
