// Tests call the configuration loader and parser directly, synchronously:
// the full TOML parser, which the commands load on demand
// (src/config/toml.ts), is loaded once for the whole run.
import { loadFullToml } from '../../src/config/toml.ts';

await loadFullToml();
