// The reader thread's side (see thread.ts): sniffs the files of a job while
// the main thread does the same from the same list, taking chunks of files
// by the job's atomic counter, so the two never sniff one file twice.

import { sniffFile } from './sniff.ts';
import { CONTROL_WORDS, DONE, NEXT, PATH_SEPARATOR, SNIFF_CHUNK, sniffCode, STOP, type SniffJob } from './thread-protocol.ts';

function sniffJob(job: SniffJob): void {
  const paths = job.paths.split(PATH_SEPARATOR);
  const control = new Int32Array(job.shared, 0, CONTROL_WORDS);
  const results = new Uint8Array(job.shared, CONTROL_WORDS * 4, paths.length);
  const n = paths.length;
  for (;;) {
    if (Atomics.load(control, STOP) !== 0) return;
    const from = Atomics.add(control, NEXT, SNIFF_CHUNK);
    if (from >= n) return;
    const to = Math.min(from + SNIFF_CHUNK, n);
    for (let i = from; i < to; i++) results[i] = sniffCode(sniffFile(paths[i]));
    Atomics.add(control, DONE, to - from);
    Atomics.notify(control, DONE);
  }
}

self.onmessage = (event: MessageEvent<SniffJob>) => {
  if (event.data?.kind === 'sniff') sniffJob(event.data);
};
