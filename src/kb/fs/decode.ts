// Bytes to text.
//
// UTF-8 by default, its byte-order mark dropped. A UTF-16 byte-order mark
// (FF FE little-endian, FE FF big-endian) selects UTF-16, the mark dropped.
// Invalid sequences become U+FFFD and are reported. Line endings are kept.

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

export interface Decoded {
  text: string;
  /** Some invalid sequence was replaced with U+FFFD. */
  replaced: boolean;
  encoding: TextEncodingName;
}

const strict: Record<TextEncodingName, TextDecoder> = {
  'utf-8': new TextDecoder('utf-8', { fatal: true }),
  'utf-16le': new TextDecoder('utf-16le', { fatal: true }),
  'utf-16be': new TextDecoder('utf-16be', { fatal: true }),
};
const lenient: Record<TextEncodingName, TextDecoder> = {
  'utf-8': new TextDecoder('utf-8'),
  'utf-16le': new TextDecoder('utf-16le'),
  'utf-16be': new TextDecoder('utf-16be'),
};

/** The encoding a file's first bytes announce. */
export function encodingOf(bytes: Uint8Array): TextEncodingName {
  if (bytes.length >= 2) {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  }
  return 'utf-8';
}

/** Decodes a whole file's bytes. */
export function decodeText(bytes: Uint8Array): Decoded {
  const encoding = encodingOf(bytes);
  // The strict decoder succeeds on valid input (the common case, decoded
  // once); only invalid input is decoded a second time.
  try {
    return { text: strict[encoding].decode(bytes), replaced: false, encoding };
  } catch {
    return { text: lenient[encoding].decode(bytes), replaced: true, encoding };
  }
}
