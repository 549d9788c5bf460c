import { describe, test, expect, spyOn } from 'bun:test';
import * as fs from 'node:fs';
import { chmodSync, closeSync, constants, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { isBinaryHead, PROBED, probeKind, probeRaw, PROBE_BYTES, TITLES_SKIPPED, type ProbeKind } from '../../../src/kb/fs/probe.ts';
import { probeFile, probeHere, TITLES } from '../../../src/kb/fs/probe-titles.ts';
import { frontPool, frontRegion, probeResultOf, probeCode } from '../../../src/kb/fs/probe-thread.ts';
import { readSubject } from '../../../src/kb/fs/read.ts';
import { tempFiles } from '../../support/temp.ts';

const { root, file } = tempFiles('kb-probe-');
let fifos = 0;
function bytesWithNulAt(size: number, at: number): Uint8Array {
  const b = new Uint8Array(size).fill(0x61);
  if (at >= 0) b[at] = 0;
  return b;
}

describe('probeKind', () => {
  test('text, empty file, NUL at the first byte', () => {
    expect(probeKind(file('hello\n'))).toBe('text');
    expect(probeKind(file(''))).toBe('text');
    expect(probeKind(file(new Uint8Array([0, 0x41])))).toBe('binary');
  });

  test('a NUL at byte 8191 (the last one examined) makes the file binary', () => {
    expect(probeKind(file(bytesWithNulAt(65536, 8191)))).toBe('binary');
  });

  test('NUL bytes after the first 8192 bytes do not matter (64 KiB file)', () => {
    const b = bytesWithNulAt(65536, -1);
    b.fill(0, PROBE_BYTES); // everything after 8192 bytes is NUL
    expect(probeKind(file(b))).toBe('text');
    expect(probeKind(file(b)) === 'binary').toBe(false);
  });

  test('UTF-16 with a byte-order mark is text despite its NUL bytes', () => {
    const le = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]);
    const be = new Uint8Array([0xfe, 0xff, 0x00, 0x68, 0x00, 0x69]);
    expect(probeKind(file(le))).toBe('text');
    expect(probeKind(file(be))).toBe('text');
  });

  test('UTF-16 with a zero code unit (or a UTF-32 BOM) is binary', () => {
    expect(probeKind(file(new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x00, 0x00])))).toBe('binary');
    expect(probeKind(file(new Uint8Array([0xff, 0xfe, 0x00, 0x00, 0x41, 0x00, 0x00, 0x00])))).toBe('binary');
    // An unaligned 00 00 across two characters is not a zero code unit.
    expect(probeKind(file(new Uint8Array([0xfe, 0xff, 0x01, 0x00, 0x00, 0x41])))).toBe('text');
  });

  test('missing files and directories are errors, not binary', () => {
    expect(probeKind(join(root, 'missing'))).toBe('error');
    const d = join(root, 'dir');
    mkdirSync(d);
    expect(probeKind(d)).toBe('error');
    expect(probeKind(d) === 'binary').toBe(false);
  });

  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  test.skipIf(isRoot || process.platform === 'win32')('unreadable file is an error', () => {
    const p = file('secret');
    chmodSync(p, 0o000);
    expect(probeKind(p)).toBe('error');
    expect(readSubject(p).kind).toBe('error');
  });
});

describe('probeFile, probeHere and PROBED', () => {
  test('probeFile gives probeKind\'s kind, as the shared result of that kind', () => {
    const paths = [file('text\n'), file(new Uint8Array([0x41, 0])), join(root, 'missing-probe')];
    expect(paths.map(probeKind)).toEqual(['text', 'binary', 'error']);
    for (const p of paths) expect(probeFile(p)).toBe(PROBED[probeKind(p)]);
  });

  test('probeHere probes every path, results in order, one shared object per kind', () => {
    const text = file('a\n');
    const bin = file(new Uint8Array([0, 1, 2]));
    const utf16 = file(new Uint8Array([0xff, 0xfe, 0x41, 0x00]));
    const missing = join(root, 'missing-here');
    const paths = [text, bin, missing, utf16, text, bin];
    const results = probeHere.probe(paths);
    expect(results.map((r) => r.kind)).toEqual(['text', 'binary', 'error', 'text', 'text', 'binary']);
    // Results are the shared PROBED objects, never one per file.
    expect(results[0]).toBe(PROBED.text);
    expect(results[3]).toBe(results[0]);
    expect(results[1]).toBe(PROBED.binary);
    expect(results[5]).toBe(results[1]);
    expect(results[2]).toBe(PROBED.error);
    expect(probeHere.probe([])).toEqual([]);
    // The main thread's probe has no feed: it cannot start before the walk ends.
    expect(probeHere.feed).toBeUndefined();
  });

  test('PROBED: one frozen result per kind, holding that kind', () => {
    for (const kind of ['text', 'binary', 'error'] as ProbeKind[]) {
      expect(PROBED[kind]).toEqual({ kind });
      expect(Object.isFrozen(PROBED[kind])).toBe(true);
      // The reader thread's one-byte codes map back to the same objects.
      expect(probeResultOf(probeCode(PROBED[kind]))).toBe(PROBED[kind]);
    }
    expect(Object.keys(PROBED).sort()).toEqual(['binary', 'error', 'text']);
  });
});

describe('isBinaryHead', () => {
  test("a PDF's signature is binary, NUL or not: a small PDF's head may hold none", () => {
    const enc = new TextEncoder();
    const pdf = enc.encode('%PDF-1.3\n%\u00ff\u00ff\n1 0 obj\n<< /Creator <feff0050> >>\nendobj\n');
    expect(pdf.includes(0)).toBe(false);
    expect(isBinaryHead(pdf)).toBe(true);
    expect(isBinaryHead(pdf, 4)).toBe(false); // `%PDF` alone is not the signature
    expect(isBinaryHead(enc.encode('% a LaTeX comment\n\\documentclass{article}\n'))).toBe(false);
    expect(isBinaryHead(enc.encode('%PDF is what the tool writes.\n'))).toBe(false);
    // Read and probed as binary too.
    const path = file(pdf);
    expect(readSubject(path).kind).toBe('binary');
    expect(probeFile(path).kind).toBe('binary');
  });

  test('only looks at the given length and at most 8192 bytes', () => {
    const b = bytesWithNulAt(10, 5);
    expect(isBinaryHead(b, 5)).toBe(false);
    expect(isBinaryHead(b, 6)).toBe(true);
    expect(isBinaryHead(bytesWithNulAt(9000, 8192))).toBe(false);
    expect(isBinaryHead(bytesWithNulAt(9000, 8191))).toBe(true);
  });
});

// A FIFO shows exactly how many bytes a reader consumed: whatever is left in
// the pipe afterwards was not read.
describe.skipIf(process.platform === 'win32')('at most 8192 bytes are read from a binary file', () => {
  function pipeWith(data: Uint8Array): { path: string; writer: number; drain: () => number } {
    const path = join(root, `fifo${fifos++}`);
    execFileSync('mkfifo', [path]);
    const writer = openSync(path, 'r+'); // keeps the pipe open, never blocks on Linux
    writeSync(writer, data);
    const drain = () => {
      const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
      const buf = new Uint8Array(65536);
      let total = 0;
      try {
        for (;;) total += readSync(fd, buf, 0, buf.length, null);
      } catch {
        // EAGAIN: the pipe is empty.
      } finally {
        closeSync(fd);
      }
      closeSync(writer);
      return total;
    };
    return { path, writer, drain };
  }

  test('probeKind consumes exactly 8192 bytes', () => {
    const p = pipeWith(bytesWithNulAt(30000, 10));
    expect(probeKind(p.path)).toBe('binary');
    expect(p.drain()).toBe(30000 - 8192);
  });

  test('readSubject never reads a FIFO (not a regular file), leaving it untouched', () => {
    const p = pipeWith(bytesWithNulAt(30000, 8000));
    expect(readSubject(p.path)).toEqual({ kind: 'error', message: 'not a regular file' });
    expect(p.drain()).toBe(30000);
  });
});

describe('readSubject on a regular binary file', () => {
  test('stops after the first 8192 bytes', () => {
    const path = file(bytesWithNulAt(30000, 8000));
    const spy = spyOn(fs, 'readSync');
    try {
      expect(readSubject(path)).toEqual({ kind: 'binary' });
      const bytes = spy.mock.results.reduce((sum, r) => sum + (r.type === 'return' ? (r.value as number) : 0), 0);
      expect(bytes).toBe(8192);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('probeRaw with titles not searched for', () => {
  const named = (name: string, content: string) => {
    const p = join(root, name);
    fs.writeFileSync(p, content);
    return p;
  };
  const decoded = (r: ReturnType<typeof probeRaw>, abs: string) => probeResultOf(probeCode(r, 0, region()), 0, region(), abs);
  let shared: ReturnType<typeof frontRegion> | undefined;
  const region = () => (shared ??= frontRegion(frontPool(), 1));

  test('a titled format says its head was not searched, and keeps its frontmatter', () => {
    const md = named('t.md', '# A title\n\nbody\n');
    const front = named('f.md', '---\ndescription: d\n---\n# A title\n');
    expect(probeFile(md)).toEqual({ kind: 'text', title: 'A title' });
    expect(probeRaw(md, undefined)).toBe(TITLES_SKIPPED);
    expect(decoded(probeRaw(md, undefined), md)).toBe(TITLES_SKIPPED);
    expect(decoded(probeRaw(front, undefined), front)).toEqual({ kind: 'text', front: 'description: d\n', titlesSkipped: true });
    expect(decoded(probeRaw(front, TITLES), front)).toEqual(probeFile(front));
  });

  test('binaries and unclosed frontmatter are what they always are; other text says its head was not searched', () => {
    const bin = named('b.md', '\0\x01');
    const open = named('o.md', '---\ndescription: never closed\n');
    for (const p of [bin, open]) {
      expect(decoded(probeRaw(p, undefined), p)).toEqual(probeFile(p));
      expect(probeFile(p).titlesSkipped).toBeUndefined();
    }
    const json = named('d.json', '{"title": "x"}\n');
    expect(probeFile(json)).toEqual({ kind: 'text' });
    expect(decoded(probeRaw(json, undefined), json)).toBe(TITLES_SKIPPED);
  });
});
