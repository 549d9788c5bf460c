// Where the code of kb's threads is (kb/thread.ts starts them).
//
// This file and the thread entry points sit at the top of src/ on purpose:
// the compiled binary keeps the entry points' paths relative to src/ and
// puts the shared code next to them, so a URL relative to this file names
// the entry point both when the sources run (deno run, bun test) and in the
// binary. The build lists each entry point (package.json, "build").

/** The reader thread's entry point (src/reader-thread.ts). */
export function readerThreadUrl(): string {
  return new URL('./reader-thread.ts', import.meta.url).href;
}
