// The cases of cli.cases.ts on the compiled binary, dist/kb (tests/parity
// runs those marked parity under deno).
import { describe } from 'bun:test';
import { cases } from './cli.cases.ts';
import { BINARY } from './harness.ts';

describe(BINARY.name, () => cases(BINARY));
