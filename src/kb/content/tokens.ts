// PLACEHOLDER (replaced by the measured estimator): about four bytes a token.
export function estimateTokens(text: string): number {
  return Math.ceil(new TextEncoder().encode(text).length / 4);
}
export function estimateTokensOfBytes(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return Math.ceil((end - start) / 4);
}

import type { Body } from './body.ts';
/** A body's estimate: text or UTF-8 bytes. */
export function estimateTokensOfBody(body: Body): number {
  return typeof body === 'string' ? estimateTokens(body) : estimateTokensOfBytes(body);
}
