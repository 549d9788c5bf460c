// The cases of html.cases.ts on the compiled binary, dist/kb (tests/parity
// runs those marked parity under deno).
import { cases } from './html.cases.ts';
import { BINARY } from './harness.ts';

cases(BINARY);
