// Entry point of the reader thread (kb/thread.ts starts it, threads.ts
// says where it is). The work is in kb/thread-worker.ts.
import './kb/fs/probe-worker.ts';
