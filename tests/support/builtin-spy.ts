// Preloaded into a `bun src/cli.ts ...` run by tests/unit/startup-builtins.test.ts:
// records every call of the Array methods that the engine compiles from
// source on their first use (src/shared/arrays.ts), and every use of the
// runtime's stdio streams by kb's code, with the calling line, and writes
// them to the file KB_TEST_BUILTIN_LOG names when the process exits.
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
// The runtime's stdio streams (`process.stdout`, `process.stderr`), made
// on their first use: tens of milliseconds (node:tty and the stream
// modules). kb writes with writeSync (src/shared/stdio.ts); a use from
// kb's own code is recorded as `process.stderr <line>`.
for (const name of ['stdout', 'stderr'] as const) {
  const d = Object.getOwnPropertyDescriptor(process, name);
  if (d === undefined || !d.configurable) continue;
  const read = d.get ?? (() => d.value);
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: d.enumerable,
    get() {
      const frame = ((new Error().stack ?? '').split('\n')[2] ?? '').trim();
      if (!busy && frame.includes('/src/')) calls.push(`process.${name} ${frame}`);
      return read.call(process);
    },
  });
}
process.on('exit', () => {
  busy = true;
  writeFileSync(process.env.KB_TEST_BUILTIN_LOG!, calls.join('\n'));
});
