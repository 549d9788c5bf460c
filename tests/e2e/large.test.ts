// The cases of large.cases.ts on the compiled binary (tests/parity runs
// those marked parity under deno), and the reader thread's part in it.
import { describe, expect, test } from 'bun:test';
import { bigTopic, cases } from './large.cases.ts';
import { BINARY, run } from './harness.ts';

describe(BINARY.name, () => {
  cases(BINARY);

  test('the reader thread does take part in the compiled binary', () => {
    // The binary must find the thread's entry point. The split of the work
    // depends on timing, so a few tries are allowed before calling it broken.
    const { root } = bigTopic();
    let byThread = 0;
    for (let i = 0; i < 5 && byThread === 0; i++) {
      const r = run(BINARY, root, ['learn', 'big', '--verbose', '--no-cache']);
      byThread = Number(/reader thread: sniffed (\d+) of/.exec(r.err)?.[1] ?? 0);
    }
    expect(byThread).toBeGreaterThan(0);
  });
});
