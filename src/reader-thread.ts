// Entry point of the reader thread (kb/fs/probe-thread.ts starts it; the
// CLI's entry module, cli.ts, names its URL). The work is in
// kb/fs/probe-worker.ts.
//
// Both entry points sit at the top of src/ on purpose: the compiled binary
// keeps the entry points' paths relative to src/ and puts the shared code
// next to them, so a URL relative to cli.ts names this file both when the
// sources run (deno run, bun test) and in the binary. The build lists each
// entry point (scripts/build.mjs).
import './kb/fs/probe-worker.ts';
