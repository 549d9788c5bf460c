// Preloaded by bun test (bunfig.toml): hooks here run once for the whole run.
import { afterAll } from 'bun:test';
import { removeTempDirs } from './temp.ts';

// Removing what a whole tier made (npm installs, packed tarballs, large
// trees) can take more than bun's 5 s hook timeout on a loaded machine.
afterAll(removeTempDirs, 120_000);
