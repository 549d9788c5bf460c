// Types for the one module of @iarna/toml that kb imports (src/config/toml.ts):
// the package's own declarations cover only its main entry.
declare module '@iarna/toml/parse-string.js' {
  import type { JsonMap } from '@iarna/toml';
  export default function parseString(toml: string): JsonMap;
}
