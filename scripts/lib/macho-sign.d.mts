// Types of scripts/lib/macho-sign.mjs, for the tests.

export function adhocSign(buf: Buffer, identifier: string): Buffer;
