// The terms a query looks up (app/search.ts lookedUp): its first 64
// distinct words' terms, where the characters and pairs of characters of
// text written without spaces count a quarter each.
import { describe, expect, test } from 'bun:test';
import { lookedUp } from '../../../src/app/search.ts';
import { queryTerms } from '../../../src/kb/search/tokenize.ts';

describe('the terms a query looks up', () => {
  test('the first 64 words of a text with spaces', () => {
    const words = Array.from({ length: 70 }, (_, i) => `word${i}x`);
    expect(lookedUp(queryTerms(words.join(' ')))).toEqual(queryTerms(words.slice(0, 64).join(' ')));
  });

  test('about 128 characters of Chinese: 256 characters and pairs of characters', () => {
    let text = '';
    for (let i = 0; i < 200; i++) text += String.fromCharCode(0x4e00 + i);
    const all = queryTerms(text);
    expect(all).toHaveLength(399);
    expect(lookedUp(all)).toEqual(all.slice(0, 256));
  });

  test('mixed: each Latin word one, each character or pair a quarter', () => {
    const all = queryTerms(`${Array.from({ length: 63 }, (_, i) => `w${i}x`).join(' ')} 认证令牌`);
    // 63 words, then 认 认证 证 证令 (a word's worth), then no more.
    expect(lookedUp(all).slice(63)).toEqual(['认', '认证', '证', '证令']);
    expect(lookedUp(queryTerms('认证'))).toEqual(['认', '认证', '证']);
  });
});
