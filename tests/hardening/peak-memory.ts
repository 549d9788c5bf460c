// Runs a command with stdio passed through and writes the peak resident
// memory of that one process (bytes) to the file named by PEAK_MEMORY_OUT.
// A fresh process has no other children, so the figure is the command's own
// (in the long-lived test process it can include earlier children's).
// Usage: bun peak-memory.ts COMMAND [ARGS...]
import { writeFileSync } from 'node:fs';

const r = Bun.spawnSync(process.argv.slice(2), { stdin: 'inherit', stdout: 'inherit', stderr: 'inherit', env: process.env });
const out = process.env.PEAK_MEMORY_OUT;
if (out) writeFileSync(out, String(r.resourceUsage?.maxRSS ?? 0));
process.exit(r.exitCode ?? 1);
