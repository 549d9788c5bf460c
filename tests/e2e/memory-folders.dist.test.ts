// The cases of memory-folders.cases.ts on the compiled binary, dist/kb
// (tests/parity runs those marked parity under deno).
import { cases } from './memory-folders.cases.ts';
import { BINARY } from './harness.ts';

cases(BINARY);
