/** `src` compiled with kb's flags but --splitting into `<dir>/reference/`,
 *  once per Bun version and source; its path. */
export function benchProgram(options: { src: string; dir: string; name: string; bun: string; log: (line: string) => void }): string;
