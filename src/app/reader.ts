// The reader thread's probe (kb/fs/probe-thread.ts), for a front end to
// plug in (`KnowledgeBase.open(…, { probe })`): it shares the probing of a
// large listing and the revalidation of a large search index, and starts
// only when one is that large. A module of its own, so that only the
// commands that run a tool load it.
export { readerThread, type ReaderThread } from '../kb/fs/probe-thread.ts';
