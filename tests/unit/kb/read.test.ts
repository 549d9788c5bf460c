import { describe, test, expect, spyOn } from 'bun:test';
import * as fs from 'node:fs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_SUBJECT_BYTES, readBody, readSubject, readSubjectHead, readSubjectRaw, tooLargeMessage } from '../../../src/kb/fs/read.ts';
import { tempFiles } from '../../support/temp.ts';

const { root, file } = tempFiles('kb-read-');

describe('readSubject', () => {
  test('small text file', () => {
    expect(readSubject(file('# Hi\r\nthere\n'))).toEqual({ kind: 'text', text: '# Hi\r\nthere\n', replaced: false, encoding: 'utf-8' });
  });

  test('empty file is empty text', () => {
    expect(readSubject(file(''))).toEqual({ kind: 'text', text: '', replaced: false, encoding: 'utf-8' });
  });

  for (const size of [8191, 8192, 8193, 100_000]) {
    test(`text of ${size} bytes is read whole`, () => {
      const text = 'x'.repeat(size - 1) + '\n';
      const r = readSubject(file(text));
      expect(r.kind).toBe('text');
      if (r.kind === 'text') expect(r.text).toBe(text);
    });
  }

  test('a multi-byte character straddling byte 8192 is decoded intact', () => {
    const text = 'a'.repeat(8190) + 'é€😀' + 'tail\n';
    expect(readSubject(file(text))).toEqual({ kind: 'text', text, replaced: false, encoding: 'utf-8' });
  });

  test('UTF-8 BOM dropped, invalid UTF-8 replaced', () => {
    expect(readSubject(file(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69])))).toMatchObject({ kind: 'text', text: 'hi', replaced: false });
    expect(readSubject(file(new Uint8Array([0x68, 0xc3, 0x28, 0x69])))).toMatchObject({ kind: 'text', text: 'h\uFFFD(i', replaced: true });
  });

  test('UTF-16LE with BOM', () => {
    expect(readSubject(file(new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x0a, 0x00])))).toEqual({ kind: 'text', text: 'h\n', replaced: false, encoding: 'utf-16le' });
  });

  test('binary file', () => {
    const b = new Uint8Array(20000).fill(0x41);
    b[4000] = 0;
    expect(readSubject(file(b))).toEqual({ kind: 'binary' });
  });

  test('a NUL after the first 8192 bytes does not make a file binary', () => {
    const b = new Uint8Array(20000).fill(0x41);
    b[9000] = 0;
    const r = readSubject(file(b));
    expect(r.kind).toBe('text');
    if (r.kind === 'text') expect(r.text.charCodeAt(9000)).toBe(0);
  });

  // Files are read into one buffer reused from file to file: the bytes an
  // earlier, longer file left past the end of this one must not count.
  test('a short text read after a binary file is text, whatever the buffer held past its end', () => {
    for (const [nul, size] of [
      [5000, 100],
      [8191, 8191],
      [100, 101],
    ]) {
      const bin = new Uint8Array(20000).fill(0x41);
      bin[nul] = 0;
      expect(readSubject(file(bin))).toEqual({ kind: 'binary' });
      const text = 'b'.repeat(size - 1) + '\n';
      expect(readSubject(file(text))).toEqual({ kind: 'text', text, replaced: false, encoding: 'utf-8' });
      const raw = readSubjectRaw(file(text));
      expect(raw.kind === 'bytes' && raw.bytes.length).toBe(size);
      const body = readBody(file(text), 'bytes');
      expect(body.kind === 'text' && new TextDecoder().decode(body.body as Uint8Array)).toBe(text);
    }
  });

  test('a NUL at the last byte of the head makes a file binary; at the first byte past it, not', () => {
    for (const size of [8192, 9000]) {
      const last = new Uint8Array(size).fill(0x43);
      last[8191] = 0;
      expect(readSubject(file(last))).toEqual({ kind: 'binary' });
      expect(readBody(file(last), 'bytes')).toEqual({ kind: 'binary' });
    }
    const past = new Uint8Array(9000).fill(0x44);
    past[8192] = 0;
    const r = readSubjectRaw(file(past));
    expect(r.kind === 'bytes' && [...r.bytes]).toEqual([...past]);
    const tiny = new Uint8Array([0x45, 0]);
    expect(readSubjectRaw(file(tiny))).toEqual({ kind: 'binary' });
  });

  test('missing file and directory are errors, never throws', () => {
    const missing = readSubject(join(root, 'missing'));
    expect(missing.kind).toBe('error');
    if (missing.kind === 'error') expect(missing.message).toMatch(/no such file/);
    const d = join(root, 'dir');
    mkdirSync(d);
    const dir = readSubject(d);
    expect(dir.kind).toBe('error');
    if (dir.kind === 'error') expect(dir.message).toMatch(/directory/);
  });
});

// A subject shorter than 8192 bytes is read by two reads at a position (its
// bytes, then the nothing that says they are all of it), without fstat;
// anything else is fstat'ed too (src/kb/fs/read.ts).
describe('the reads of a subject', () => {
  type ReadSync = (fd: number, buf: Uint8Array, off: number, len: number, pos: number | null) => number;
  const realRead = fs.readSync as unknown as ReadSync;

  /** Runs `f` with fs.readSync as `read` (called with the real one), and
   *  returns its result, the reads' [offset in the file, length asked,
   *  bytes returned] and how many fstat calls were made. */
  function watched<T>(f: () => T, read: (call: number, args: Parameters<ReadSync>) => number = (_, a) => realRead(...a)): { result: T; reads: [number | null, number, number][]; fstats: number } {
    const reads: [number | null, number, number][] = [];
    const r = spyOn(fs, 'readSync').mockImplementation(((...a: Parameters<ReadSync>) => {
      const n = read(reads.length, a);
      reads.push([a[4], a[3], n]);
      return n;
    }) as unknown as typeof fs.readSync);
    const s = spyOn(fs, 'fstatSync');
    try {
      const result = f();
      return { result, reads, fstats: s.mock.calls.length };
    } finally {
      r.mockRestore();
      s.mockRestore();
    }
  }

  test('a file shorter than 8192 bytes: its bytes and the end, both by position, and no fstat', () => {
    const p = file('short text\n');
    const w = watched(() => readSubject(p));
    expect(w.result).toEqual({ kind: 'text', text: 'short text\n', replaced: false, encoding: 'utf-8' });
    expect(w.reads).toEqual([
      [0, 8192, 11],
      [11, 1, 0],
    ]);
    expect(w.fstats).toBe(0);
  });

  test('an empty file, and one of 8192 bytes or more, are fstat\'ed and read within their size', () => {
    const empty = watched(() => readSubject(file('')));
    expect(empty.result).toMatchObject({ kind: 'text', text: '' });
    expect(empty.fstats).toBe(1);
    const text = 'z'.repeat(9999) + '\n';
    const long = watched(() => readSubject(file(text)));
    expect(long.result).toMatchObject({ kind: 'text', text });
    expect(long.fstats).toBe(1);
    // Every read at a position, each where the last one ended; none past
    // the size fstat gave (no read that returns 0).
    expect(long.reads).toEqual([
      [0, 8192, 8192],
      [8192, 10001 - 8192, 10000 - 8192],
    ]);
  });

  test('a read that comes back short before the end is read on, not taken for the end', () => {
    const text = 'abc\n'.repeat(1000);
    const w = watched(
      () => readSubject(file(text)),
      (call, [fd, buf, off, len, pos]) => realRead(fd, buf, off, call === 0 ? 100 : len, pos),
    );
    expect(w.result).toEqual({ kind: 'text', text, replaced: false, encoding: 'utf-8' });
  });

  test('an error after a short read is an error, never a shorter subject', () => {
    const p = file('x'.repeat(6000));
    const w = watched(
      () => readSubject(p),
      (call, [fd, buf, off, len, pos]) => {
        if (call === 0) return realRead(fd, buf, off, 4096, pos);
        throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
      },
    );
    expect(w.result).toEqual({ kind: 'error', message: 'input/output error' });
  });

  test('a file that grows between its first two reads is read whole, as fstat then finds it', () => {
    const p = file('first\n');
    const w = watched(
      () => readSubject(p),
      (call, a) => {
        if (call === 1) fs.appendFileSync(p, 'second\n');
        return realRead(...a);
      },
    );
    expect(w.result).toMatchObject({ kind: 'text', text: 'first\nsecond\n' });
  });

  test('a device that allows reads at a position is found out after at most 8192 bytes', () => {
    const w = watched(() => readSubject('/dev/zero'));
    expect(w.result).toEqual({ kind: 'error', message: 'not a regular file' });
    expect(w.reads.reduce((sum, [, , n]) => sum + n, 0)).toBeLessThanOrEqual(8192);
  });
});

describe('readBody', () => {
  test('as text: the text readSubject decodes; as bytes: its UTF-8 bytes', () => {
    const p = file(new Uint8Array([0xff, 0xfe, 0xe9, 0x00, 0x0a, 0x00])); // UTF-16LE "é\n"
    expect(readBody(p, 'text')).toEqual({ kind: 'text', body: 'é\n', replaced: false });
    const b = readBody(p, 'bytes');
    expect(b.kind === 'text' && [...(b.body as Uint8Array)]).toEqual([0xc3, 0xa9, 0x0a]);
  });

  test('binary files and errors are the same results either way', () => {
    const bin = file(new Uint8Array([0x41, 0, 0x42]));
    expect(readBody(bin, 'text')).toEqual({ kind: 'binary' });
    expect(readBody(bin, 'bytes')).toEqual({ kind: 'binary' });
    const missing = join(root, 'missing-too');
    expect(readBody(missing, 'bytes')).toEqual(readBody(missing, 'text'));
  });
});

describe('size limit', () => {
  test('the message gives both sizes, as people read them', () => {
    expect(tooLargeMessage(20 * 1024 * 1024)).toBe('the file is 20 MiB; subjects larger than 16 MiB are not loaded');
    expect(tooLargeMessage(1024 ** 3)).toBe('the file is 1.0 GiB; subjects larger than 16 MiB are not loaded');
    expect(tooLargeMessage(4 << 20, 4 << 20, true)).toBe('the file is more than 4.0 MiB; subjects larger than 4.0 MiB are not loaded');
    expect(MAX_SUBJECT_BYTES).toBe(16 * 1024 * 1024);
  });

  test('a text file over the limit is an error; one at the limit is read', () => {
    const limit = 10_000;
    expect(readSubject(file('y'.repeat(limit)), limit)).toMatchObject({ kind: 'text' });
    expect(readSubject(file('y'.repeat(limit + 1)), limit)).toEqual({ kind: 'error', message: tooLargeMessage(limit + 1, limit) });
    expect(readSubjectRaw(file('y'.repeat(limit + 1)), limit)).toEqual({ kind: 'error', message: 'the file is 9.8 KiB; subjects larger than 9.8 KiB are not loaded' });
  });
});

describe('readSubjectHead', () => {
  const lines = (n: number, s = 'line') => Array.from({ length: n }, (_, i) => `${s} ${i}\n`).join('');

  const utf8 = (s: string) => new TextEncoder().encode(s);

  test('a file no longer than the head is read whole, as readSubject reads it', () => {
    const text = lines(100);
    expect(readSubjectHead(file(text), 64 * 1024)).toEqual({ kind: 'text', text, whole: true, utf8: utf8(text) });
    expect(readSubjectHead(file(''), 64 * 1024)).toEqual({ kind: 'text', text: '', whole: true, utf8: utf8('') });
    const exact = 'z'.repeat(65535) + '\n';
    expect(readSubjectHead(file(exact), 65536)).toEqual({ kind: 'text', text: exact, whole: true, utf8: utf8(exact) });
  });

  test("a whole file of valid UTF-8 comes with the text's UTF-8 bytes (its byte-order mark left out); any other, without", () => {
    const text = 'Grüße, 😀 and more\n';
    const head = (body: string | Uint8Array, max = 64 * 1024) => readSubjectHead(file(body), max);
    expect(head(text)).toEqual({ kind: 'text', text, whole: true, utf8: utf8(text) });
    expect(head(`\ufeff${text}`)).toEqual({ kind: 'text', text, whole: true, utf8: utf8(text) });
    // Invalid UTF-8 (a lone continuation byte), decoded with U+FFFD.
    expect(head(new Uint8Array([0x61, 0x80, 0x0a]))).toEqual({ kind: 'text', text: 'a\ufffd\n', whole: true });
    // UTF-16LE.
    expect(head(new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0x0a, 0x00]))).toEqual({ kind: 'text', text: 'a\n', whole: true });
    // A head only.
    const r = head(lines(5000), 8192 * 2);
    expect(r.kind === 'text' && !r.whole && r.utf8 === undefined).toBe(true);
  });

  test('a longer file: its head up to the last line end, never a line cut in two', () => {
    const text = lines(50_000); // about 540 KB
    const r = readSubjectHead(file(text), 100_000);
    expect(r.kind).toBe('text');
    if (r.kind !== 'text') return;
    expect(r.whole).toBe(false);
    expect(r.text.length).toBeLessThanOrEqual(100_000);
    expect(r.text.length).toBeGreaterThan(99_000);
    expect(r.text.endsWith('\n')).toBe(true);
    expect(text.startsWith(r.text)).toBe(true);
  });

  test('UTF-8 characters across the cut: the head ends at a line end, decoded intact', () => {
    const text = lines(20_000, 'é€😀');
    const r = readSubjectHead(file(text), 50_001);
    expect(r.kind === 'text' && r.text.endsWith('\n') && text.startsWith(r.text) && !r.text.includes('\ufffd')).toBe(true);
  });

  test('UTF-16LE: decoded, cut at a line end', () => {
    const text = lines(20_000);
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes[0] = 0xff;
    bytes[1] = 0xfe;
    for (let i = 0; i < text.length; i++) bytes[2 + 2 * i] = text.charCodeAt(i);
    const r = readSubjectHead(file(bytes), 40_001);
    expect(r.kind).toBe('text');
    if (r.kind !== 'text') return;
    expect(r.whole).toBe(false);
    expect(r.text.endsWith('\n') && text.startsWith(r.text)).toBe(true);
    expect(r.text.length).toBeGreaterThan(19_000);
  });

  test('binary, missing and directory: as readSubject', () => {
    const bin = new Uint8Array(100_000).fill(0x41);
    bin[10] = 0;
    expect(readSubjectHead(file(bin), 1024)).toEqual({ kind: 'binary' });
    expect(readSubjectHead(join(root, 'missing.md'), 1024).kind).toBe('error');
    mkdirSync(join(root, 'a-dir'), { recursive: true });
    expect(readSubjectHead(join(root, 'a-dir'), 1024)).toEqual({ kind: 'error', message: 'is a directory' });
  });
});
