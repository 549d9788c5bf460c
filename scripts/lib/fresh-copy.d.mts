/** `path` copied to `<dir>/run/<name>` (replaced), executable; its path. */
export function freshCopy(path: string, dir: string, name: string): string;
