// The reader thread's side (see probe-thread.ts): probes the files of a job while
// the main thread does the same from the same list, taking chunks of files
// by the job's atomic counter, so the two never probe one file twice.

import { CONTROL_WORDS, frontRegion, PATH_SEPARATOR, probeShare, statShare, type ProbeJob, type StatJob } from './probe-thread.ts';

function probeJob(job: ProbeJob): void {
  const paths = job.paths.split(PATH_SEPARATOR);
  const { region } = frontRegion(job.pool, paths.length, job.spans);
  probeShare(paths, new Int32Array(job.shared, 0, CONTROL_WORDS), new Uint8Array(job.shared, CONTROL_WORDS * 4, paths.length), region, job.sizes === undefined ? undefined : new Float64Array(job.sizes));
}

self.onmessage = (event: MessageEvent<ProbeJob | StatJob>) => {
  const job = event.data;
  if (job?.kind === 'probe') probeJob(job);
  else if (job?.kind === 'stat') statShare(job.paths.split(PATH_SEPARATOR), new Int32Array(job.control), new Float64Array(job.values), job.prefix ?? '');
};
