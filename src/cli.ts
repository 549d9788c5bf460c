// kb: a file-based knowledge base for LLM assistants.
// No top-level await: the compiled binary is built with --bytecode.
import { main } from './cli/main.ts';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
