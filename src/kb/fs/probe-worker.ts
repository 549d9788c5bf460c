// The reader thread's side (see probe-thread.ts): probes the files of a job while
// the main thread does the same from the same list, taking chunks of files
// by the job's atomic counter, so the two never probe one file twice.

import { batchMemory, frontRegion, jobPaths, PATH_SEPARATOR, probeShare, statShare, type ProbeJob, type StatJob } from './probe-thread.ts';
import { inWorker } from './within.ts';

// This thread's stats go by absolute path: it must not move the process's
// working directory (within.ts).
inWorker();

/** The frontmatter pool of the last job that carried one (a job without
 *  one uses it). */
let pool: SharedArrayBuffer | undefined;

function probeJob(job: ProbeJob): void {
  const paths = job.paths.split(PATH_SEPARATOR);
  if (job.pool !== undefined) pool = job.pool;
  const memory = batchMemory(job.shared, paths.length);
  if (pool === undefined) return; // never: the first job carries its pool
  probeShare(paths, memory.control, memory.results, frontRegion(pool, paths.length, memory.spans), memory.sizes);
}

self.onmessage = (event: MessageEvent<ProbeJob | StatJob>) => {
  const job = event.data;
  if (job?.kind === 'probe') probeJob(job);
  else if (job?.kind === 'stat') {
    const values = new Float64Array(job.values);
    statShare(values.length / 2, jobPaths(job), new Int32Array(job.control), values, job.prefix ?? '');
  }
};
