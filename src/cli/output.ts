// stdout carries the product only. Output is written synchronously in
// chunks as it is produced, so memory does not grow with the size of the
// knowledge base. Text and bytes (file contents passed through as read) go
// into one reused byte buffer, written out whenever it fills: no string
// concatenation, one copy per byte. A closed pipe
// (`kb learn docs '**' | head`) ends the output quietly.
import { writeAll } from '../shared/stdio.ts';

export { PipeClosed, print, printError } from '../shared/stdio.ts';

/** Size of the output buffer, and of the writes that empty it. */
const CHUNK = 1 << 17;
const encoder = new TextEncoder();
/** Texts up to this long are encoded byte by byte into the buffer; a
 *  longer one (a listing: tens of thousands of characters) by the encoder
 *  at once, whose one call costs less than a loop over so many. */
const SHORT = 256;

export class Output {
  private buf: Uint8Array | undefined;
  private len = 0;
  /** Whether anything has been written (or buffered). */
  wrote = false;

  constructor(private readonly fd = 1) {}

  private buffer(): Uint8Array {
    return (this.buf ??= new Uint8Array(CHUNK));
  }

  // A large load writes three chunks per subject (tag, content, closing
  // tag), tens of thousands of calls: the engine compiles `write` and
  // `writeBytes` into their callers, so each is its common case alone, a
  // few lines, and the rest is in functions of their own. (With the rare
  // cases inline, loading 10,000 subjects took about 9 ms more CPU time,
  // most of it on the engine's compiler threads.)

  /** Appends `s`, UTF-8 encoded. */
  write(s: string): void {
    const n = s.length;
    if (n === 0) return;
    // The common case, a short text (tags, fences): at most 3 bytes per
    // UTF-16 code unit, so when that much room is left it is encoded in
    // place: ASCII byte by byte (a view of the buffer for encodeInto, made
    // on each of the tens of thousands of writes of a large load, cost
    // more than the copy), the rest from the first other character on.
    if (n > SHORT || n * 3 > CHUNK - this.len || this.buf === undefined) return this.writeLong(s);
    this.wrote = true;
    const buf = this.buf;
    let at = this.len;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      buf[at++] = c;
    }
    this.len = at;
    if (i < n) this.writeRest(s, i);
    else if (at === CHUNK) this.flush();
  }

  /** A short text's rest, from its first character outside ASCII (`i`). */
  private writeRest(s: string, i: number): void {
    this.len += encoder.encodeInto(i === 0 ? s : s.slice(i), this.buffer().subarray(this.len)).written;
    if (this.len === CHUNK) this.flush();
  }

  /** A text that may not fit in the room left (or the first one). */
  private writeLong(s: string): void {
    this.wrote = true;
    const buf = this.buffer();
    if (s.length <= SHORT && s.length * 3 <= CHUNK - this.len) return this.write(s);
    if (s.length >= CHUNK) {
      // A long text (a listing of thousands of subjects): encoded at once
      // and written straight out.
      this.flush();
      writeAll(this.fd, encoder.encode(s));
      return;
    }
    let rest = s;
    for (;;) {
      // encodeInto stops before a character that does not fit (never inside
      // one); what is left goes after a flush.
      const { read, written } = encoder.encodeInto(rest, buf.subarray(this.len));
      this.len += written;
      if (read === rest.length) break;
      rest = rest.slice(read);
      this.flush();
    }
    if (this.len === CHUNK) this.flush();
  }

  /** Appends bytes as they are (valid UTF-8 text, already formatted). The
   *  bytes are copied or written before this returns: the caller may reuse
   *  their buffer. */
  writeBytes(bytes: Uint8Array): void {
    const n = bytes.length;
    if (n === 0) return;
    if (n > CHUNK - this.len || this.buf === undefined) return this.writeBytesLong(bytes);
    this.wrote = true;
    this.buf.set(bytes, this.len);
    this.len += n;
  }

  /** Bytes that do not fit in the room left (or the first ones). */
  private writeBytesLong(bytes: Uint8Array): void {
    this.wrote = true;
    const buf = this.buffer();
    if (bytes.length > CHUNK - this.len) {
      this.flush();
      if (bytes.length >= CHUNK >> 1) {
        writeAll(this.fd, bytes); // large: straight from the caller's buffer
        return;
      }
    }
    buf.set(bytes, this.len);
    this.len += bytes.length;
  }

  flush(): void {
    if (this.len === 0 || this.buf === undefined) return;
    const n = this.len;
    this.len = 0;
    writeAll(this.fd, this.buf.subarray(0, n));
  }
}
