// A bound on how deeply configuration values nest. Merging, validation and
// the line index that names positions in messages all walk values
// recursively (or in time that grows with the depth), so a file nesting a
// value thousands of levels deep (a long dotted key, `[[[[...]]]]`) would
// overflow the stack or hang. Real configurations nest a handful of levels
// (`kb.topic.<id>.learned[i]` is five); such a file is refused like one with
// a syntax error: a diagnostic with the file and the position, and the file
// contributes nothing.

import { isTable } from './fields.ts';

export const MAX_CONFIG_DEPTH = 64;

export function depthMessage(max = MAX_CONFIG_DEPTH): string {
  return `values are nested more than ${max} levels deep`;
}

/** Whether `value` nests tables and arrays more than `max` levels deep.
 *  Iterative: any depth is safe to test. */
export function tooDeep(value: unknown, max = MAX_CONFIG_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (Array.isArray(v)) {
      if (depth >= max) return true;
      for (const item of v) stack.push([item, depth + 1]);
    } else if (isTable(v)) {
      if (depth >= max) return true;
      for (const key of Object.keys(v)) stack.push([v[key], depth + 1]);
    }
  }
  return false;
}

/**
 * `:line:col` (1-based) of the first place where a TOML or JSON text nests
 * deeper than `max`: brackets and braces, plus the segments of dotted keys
 * and table headers. A linear scan that skips strings and comments; it
 * points at the construct, it does not validate. '' when it finds nothing.
 */
export function deepPosition(text: string, max = MAX_CONFIG_DEPTH): string {
  let brackets = 0;
  let header = 0; // segments of the last table header (TOML)
  let dots = 0; // dots in the current key
  let inHeader = false;
  let line = 1;
  let col = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    col++;
    if (c === '\n') {
      line++;
      col = 0;
      dots = 0;
      continue;
    }
    if (c === '"' || c === "'") {
      // Skip the string (multi-line forms too), counting its line breaks.
      const delim = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      let j = i + delim.length;
      for (; j < text.length && !text.startsWith(delim, j); j++) {
        if (text[j] === '\\' && c === '"') j++;
        else if (text[j] === '\n') {
          line++;
          col = 0;
        }
      }
      col += j + delim.length - i - 1;
      i = j + delim.length - 1;
      continue;
    }
    if (c === '#') {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
      continue;
    }
    if (c === '[' || c === '{') {
      if (c === '[' && brackets === 0 && /^\s*\[*$/.test(text.slice(text.lastIndexOf('\n', i - 1) + 1, i))) inHeader = true;
      brackets++;
      dots = 0;
    } else if (c === ']' || c === '}') {
      if (brackets > 0) brackets--;
      if (inHeader && brackets === 0) {
        inHeader = false;
        header = dots + 1;
      }
      dots = 0;
    } else if (c === '.') {
      dots++;
    } else if (c === '=' || c === ',' || c === ':') {
      dots = 0;
    }
    const depth = (inHeader ? 0 : header) + brackets + dots;
    if (depth > max) return `:${line}:${col}`;
  }
  return '';
}
