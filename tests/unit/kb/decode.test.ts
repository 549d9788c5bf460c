import { describe, test, expect } from 'bun:test';
import { decodeText, encodingOf } from '../../../src/kb/fs/decode.ts';

const u8 = (...b: number[]) => new Uint8Array(b);
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('decodeText', () => {
  test('plain UTF-8', () => {
    expect(decodeText(utf8('héllo 😀'))).toEqual({ text: 'héllo 😀', replaced: false, encoding: 'utf-8' });
  });

  test('UTF-8 BOM is dropped (only the leading one)', () => {
    expect(decodeText(u8(0xef, 0xbb, 0xbf, 0x61, 0xef, 0xbb, 0xbf))).toEqual({ text: 'a\uFEFF', replaced: false, encoding: 'utf-8' });
  });

  test('invalid UTF-8 becomes U+FFFD and is reported', () => {
    expect(decodeText(u8(0x61, 0xff, 0x62))).toEqual({ text: 'a\uFFFDb', replaced: true, encoding: 'utf-8' });
    // Truncated sequence at the end.
    expect(decodeText(u8(0x61, 0xe2, 0x82))).toMatchObject({ text: 'a\uFFFD', replaced: true });
    // Overlong encoding.
    expect(decodeText(u8(0xc0, 0xaf)).replaced).toBe(true);
  });

  test('UTF-16LE and UTF-16BE with BOM', () => {
    expect(decodeText(u8(0xff, 0xfe, 0x68, 0x00, 0x69, 0x00))).toEqual({ text: 'hi', replaced: false, encoding: 'utf-16le' });
    expect(decodeText(u8(0xfe, 0xff, 0x00, 0x68, 0x00, 0x69))).toEqual({ text: 'hi', replaced: false, encoding: 'utf-16be' });
    expect(decodeText(u8(0xfe, 0xff, 0xd8, 0x3d, 0xde, 0x00))).toMatchObject({ text: '😀', replaced: false });
  });

  test('broken UTF-16 (odd length, lone surrogate) is replaced', () => {
    expect(decodeText(u8(0xff, 0xfe, 0x68, 0x00, 0x69))).toMatchObject({ text: 'h\uFFFD', replaced: true, encoding: 'utf-16le' });
    expect(decodeText(u8(0xfe, 0xff, 0xd8, 0x3d, 0x00, 0x41))).toMatchObject({ text: '\uFFFDA', replaced: true });
  });

  test('line endings are kept', () => {
    expect(decodeText(utf8('a\r\nb\rc\n')).text).toBe('a\r\nb\rc\n');
    expect(decodeText(u8(0xff, 0xfe, 0x61, 0, 0x0d, 0, 0x0a, 0)).text).toBe('a\r\n');
  });

  test('empty input', () => {
    expect(decodeText(u8())).toEqual({ text: '', replaced: false, encoding: 'utf-8' });
  });
});

describe('encodingOf', () => {
  test('by byte-order mark', () => {
    expect(encodingOf(u8(0xff, 0xfe))).toBe('utf-16le');
    expect(encodingOf(u8(0xfe, 0xff))).toBe('utf-16be');
    expect(encodingOf(u8(0xef, 0xbb, 0xbf))).toBe('utf-8');
    expect(encodingOf(u8(0xff))).toBe('utf-8');
  });
});
