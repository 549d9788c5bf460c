// Tests call the configuration loader, the parser and the pattern code
// directly, synchronously: what the commands load on demand (the full TOML
// parser, src/config/toml.ts; the glob machinery, src/kb/globs.ts) is
// loaded once for the whole run.
import { loadFullToml } from '../../src/config/toml.ts';
import { loadGlobEngine } from '../../src/glob/index.ts';

await Promise.all([loadFullToml(), loadGlobEngine()]);
