// The cases of lines.cases.ts on the compiled binary, dist/kb (tests/parity
// runs those marked parity under deno).
import { cases } from './lines.cases.ts';
import { BINARY } from './harness.ts';

cases(BINARY);
