// How deeply a YAML text may nest, told before it is parsed. The `yaml`
// package works in time that grows with the nesting at each token (its
// parser's stack), so a text nesting thousands of levels in a few KiB
// (`[[[[...`, `? ? ? ...`, `a: : : ...`, a staircase of indents) takes
// seconds, where real frontmatter and configuration nest a handful of
// levels. One pass, no parse: an upper bound on the nesting at each line,
// the flow brackets open (`[`, `{`), the block levels open (each deeper
// indent), and the indicators on the line that open one more (`- `, `? `,
// `: `, wherever they stand: a quoted one is counted too, which only
// overstates).

/** The first line (1-based) at which `text` may nest more than `max`
 *  levels deep, or 0. */
export function yamlTooDeepAt(text: string, max: number): number {
  const indents: number[] = [];
  let flow = 0;
  let line = 1;
  for (let s = 0; s <= text.length; line++) {
    let e = text.indexOf('\n', s);
    if (e < 0) e = text.length;
    let i = s;
    while (i < e && text.charCodeAt(i) === 0x20) i++;
    if (i < e && text.charCodeAt(i) !== 0x23 && text.charCodeAt(i) !== 0x0d) {
      while (indents.length > 0 && indents[indents.length - 1] >= i - s) indents.pop();
      indents.push(i - s);
    }
    let opened = 0;
    for (let k = i; k < e; k++) {
      const c = text.charCodeAt(k);
      if (c === 0x5b || c === 0x7b) flow++;
      else if ((c === 0x5d || c === 0x7d) && flow > 0) flow--;
      else if ((c === 0x2d || c === 0x3f || c === 0x3a) && (k + 1 === e || text.charCodeAt(k + 1) === 0x20 || text.charCodeAt(k + 1) === 0x09)) opened++;
      if (flow + indents.length + opened > max) return line;
    }
    if (flow + indents.length > max) return line;
    s = e + 1;
  }
  return 0;
}
