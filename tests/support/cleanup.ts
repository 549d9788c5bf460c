// Preloaded by bun test (bunfig.toml): hooks here run once for the whole run.
import { afterAll } from 'bun:test';
import { removeTempDirs } from './temp.ts';

afterAll(removeTempDirs);
