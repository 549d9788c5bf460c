// Output buffers text and bytes and writes them in order, UTF-8 encoded
// exactly as Buffer.from(text) would be, whatever the chunk boundaries.
import { describe, test, expect, afterAll } from 'bun:test';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Output } from '../../../src/cli/output.ts';
import { rng } from '../../support/rng.ts';

const root = mkdtempSync(join(tmpdir(), 'kb-output-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** Runs `fn` on an Output writing to a fresh file; returns the file. */
function captured(fn: (out: Output) => void): Buffer {
  const path = join(root, `out${n++}`);
  const fd = openSync(path, 'w');
  try {
    const out = new Output(fd);
    fn(out);
    out.flush();
  } finally {
    closeSync(fd);
  }
  return readFileSync(path);
}

const PIECES = ['a', 'é', '東', '😀', '\ud800', '\udc00x', '\n', '<subject "x">\n'];

describe('Output', () => {
  test('text and bytes, in order, across many chunk boundaries', () => {
    const r = rng(1);
    const expected: Buffer[] = [];
    const got = captured((out) => {
      for (let i = 0; i < 3000; i++) {
        const k = r();
        if (k < 0.45) {
          let s = '';
          for (let j = Math.floor(r() * 40); j > 0; j--) s += PIECES[Math.floor(r() * PIECES.length)];
          out.write(s);
          expected.push(Buffer.from(s, 'utf8'));
        } else if (k < 0.97) {
          const b = new Uint8Array(Math.floor(r() * 3000)).map(() => 0x61 + Math.floor(r() * 26));
          out.writeBytes(b);
          expected.push(Buffer.from(b));
        } else {
          // Larger than the buffer: text and bytes.
          const big = 'ü'.repeat(50000 + Math.floor(r() * 100000));
          out.write(big);
          expected.push(Buffer.from(big, 'utf8'));
          const bytes = new Uint8Array(200000 + Math.floor(r() * 100000)).fill(0x62);
          out.writeBytes(bytes);
          expected.push(Buffer.from(bytes));
        }
      }
    });
    expect(got.equals(Buffer.concat(expected))).toBe(true);
  });

  test('texts of every length, from a few characters to a listing of thousands of lines, across chunk boundaries', () => {
    const r = rng(2);
    const expected: Buffer[] = [];
    const got = captured((out) => {
      for (let i = 0; i < 400; i++) {
        const pieces: string[] = [];
        for (let j = Math.floor(r() ** 3 * 8000); j >= 0; j--) pieces.push(PIECES[Math.floor(r() * PIECES.length)]);
        const s = pieces.join('');
        out.write(s);
        expected.push(Buffer.from(s, 'utf8'));
        if (r() < 0.3) {
          const b = new Uint8Array(Math.floor(r() * 5000)).fill(0x63);
          out.writeBytes(b);
          expected.push(Buffer.from(b));
        }
      }
    });
    expect(got.equals(Buffer.concat(expected))).toBe(true);
  });

  test('a reused byte buffer may change once writeBytes returns', () => {
    const scratch = new Uint8Array([0x41, 0x42, 0x43]);
    const got = captured((out) => {
      out.writeBytes(scratch);
      scratch.fill(0x5a);
      out.writeBytes(scratch);
    });
    expect(got.toString()).toBe('ABCZZZ');
  });

  test('nothing written, nothing out; wrote tells', () => {
    let wrote = true;
    const got = captured((out) => {
      out.write('');
      out.writeBytes(new Uint8Array(0));
      wrote = out.wrote;
    });
    expect(got.length).toBe(0);
    expect(wrote).toBe(false);
  });
});
