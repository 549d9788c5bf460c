// The cases of markup.cases.ts on the compiled binary, dist/kb (tests/parity
// runs those marked parity under deno).
import { cases } from './markup.cases.ts';
import { BINARY } from './harness.ts';

cases(BINARY);
