// Types for the one module of @iarna/toml that kb imports
// (src/config/toml-full.ts): its parser class, of which kb uses the
// members below. The package's own declarations cover only its main entry.
declare module '@iarna/toml/lib/toml-parser.js' {
  export default class TOMLParser {
    /** The code point being read (0x110000 at the end). */
    char: number;
    parse(text: string): void;
    finish(): unknown;
    nextChar(): boolean;
    return(value?: unknown): unknown;
    errorControlCharIn(type: string): Error;
    parseComment(): unknown;
  }
}
