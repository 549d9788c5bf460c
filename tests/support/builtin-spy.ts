// Preloaded into a `bun src/cli.ts ...` run by tests/unit/startup-builtins.test.ts:
// records every call of the Array methods that the engine compiles from
// source on their first use (src/shared/arrays.ts), with the calling line,
// and writes them to the file KB_TEST_BUILTIN_LOG names when the process
// exits.
import { writeFileSync } from 'node:fs';

const METHODS = ['map', 'filter', 'some', 'find', 'flatMap', 'forEach', 'every', 'reduce', 'findIndex'] as const;
const calls: string[] = [];
let busy = false;
const proto = Array.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
for (const name of METHODS) {
  const original = proto[name];
  proto[name] = function (this: unknown, ...args: unknown[]) {
    if (!busy) {
      busy = true;
      const frames = (new Error().stack ?? '').split('\n');
      calls.push(`${name} ${(frames[2] ?? '').trim()}`);
      busy = false;
    }
    return original.apply(this, args);
  };
}
process.on('exit', () => {
  busy = true;
  writeFileSync(process.env.KB_TEST_BUILTIN_LOG!, calls.join('\n'));
});
