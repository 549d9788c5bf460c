// The full TOML parser: @iarna/toml's, with one defect of it mended and one
// rule of TOML 1.0 it does not keep added. Loaded only when the fast path
// (toml-fast.ts) gives up (toml.ts).
//
// - CRLF line ends. TOML 1.0 reads `\r\n` as a line break everywhere, and
//   so does JP; @iarna/toml 3.0.0 takes the CR of a comment's line end for
//   part of the comment and refuses it as a control character, so a file
//   saved by a Windows editor (or checked out with autocrlf) with a
//   comment in it did not read (its issue 33). The parser here is the
//   package's own class with that one state, the comment's, accepting the
//   CR: nothing else is rewritten, so every value (a multi-line string
//   keeps its CRLF, as JP's does) and every line and column in an error
//   stay as the file has them.
// - A lone CR. TOML allows a CR only just before an LF: anywhere else it
//   is a control character, which JP refuses. @iarna/toml takes it for
//   white space in places (`a = "x"\r# c`, a line holding only `\r`);
//   here it is an error at its own line and column, in every state, and
//   that check is also what makes accepting the comment's CR above safe.
import TOMLParser from '@iarna/toml/lib/toml-parser.js';

/** A syntax error: what, and where (0-based line and column, as the
 *  package gives them). */
export interface TomlSyntaxError {
  message: string;
  line?: number;
  col?: number;
}

const END = 0x110000;
const LF = 0x0a;
const TAB = 0x09;
const CR = 0x0d;
const DEL = 0x7f;

/** The package's parser, a comment's CR (of a CRLF line end) allowed. */
class CrlfParser extends TOMLParser {
  override parseComment(): unknown {
    do {
      const c = this.char;
      if (c === END || c === LF) return this.return();
      if (c === DEL || (c <= 0x1f && c !== TAB && c !== CR)) throw this.errorControlCharIn('comments');
    } while (this.nextChar());
    return undefined;
  }
}

/** The first CR of `text` not followed by an LF, as a syntax error at its
 *  place; undefined when every CR ends a CRLF line. One scan, and none
 *  when the text holds no CR (most files). */
function loneCarriageReturn(text: string): TomlSyntaxError | undefined {
  for (let at = text.indexOf('\r'); at !== -1; at = text.indexOf('\r', at + 1)) {
    if (text.charCodeAt(at + 1) === LF) continue;
    const lineStart = text.lastIndexOf('\n', at) + 1;
    let line = 0;
    for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
    return {
      message: 'a carriage return (\\u000d) that does not end a line: TOML allows it only just before a line feed (a CRLF line end); in a string, write \\r',
      line,
      col: at - lineStart,
    };
  }
  return undefined;
}

/** Parses `text` (without a byte-order mark): its data, or the error. */
export function parseFullToml(text: string): { data: Record<string, unknown> } | { error: TomlSyntaxError } {
  const lone = loneCarriageReturn(text);
  if (lone !== undefined) return { error: lone };
  const parser = new CrlfParser();
  try {
    parser.parse(text);
    return { data: parser.finish() as Record<string, unknown> };
  } catch (err) {
    const e = err as { message?: string; line?: number; col?: number };
    return { error: { message: String(e.message ?? err), ...(typeof e.line === 'number' && typeof e.col === 'number' ? { line: e.line, col: e.col } : {}) } };
  }
}
