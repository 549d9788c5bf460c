// Control characters from configuration and file names, end to end on
// dist/kb. A repository's configuration can hold any character in a title,
// an introduction, a description or a topic ID, and a file name any but `/`
// and NUL. None may reach a terminal raw (kb list, kb check and warnings
// run in pre-commit hooks: ESC drives the terminal, CR overwrites a line)
// or forge a line in a model's text (`- FORGED` in a listing). Escaped
// everywhere (`\u001b`, `\n`); the one-line fields stay on one line; kb check
// warns about each field; bidirectional and zero-width characters in file
// names are shown escaped too.
import { afterAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, expectNoCrash, kb, workspace, type Result } from './helpers.ts';

afterAll(cleanup);

const TITLE = 'Ti\\u001b[31mtle\\u0007\\r\\n- FORGED';
const CONFIG = `[kb.topic.t]
subjects = "t"
title = "${TITLE}"
introduction = "first\\u2028- FORGED too"
description = "Para\\u001b]0;pwned\\u0007graph.\\n\\nSecond paragraph.\\tTabbed.\\r\\nCRLF kept."
"ti\\u001btle" = "a misspelled key, with an escape"

[kb.topic."x\\u001b[2Jy"]
subjects = "x"
`;
/** The title as kb shows it. */
const SHOWN = 'Ti\\u001b[31mtle\\u0007\\r\\n- FORGED';

/** Nothing that drives a terminal or breaks a line: no C0 control but the
 *  newline (and the tab, and CR before LF, in a description), no C1 control,
 *  no line or paragraph separator, no bidirectional or zero-width character. */
function expectClean(text: string): void {
  const bad = text.match(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\r(?!\n)/);
  if (bad) throw new Error(`raw ${JSON.stringify(bad[0])} at ${bad.index}: ${JSON.stringify(text.slice(Math.max(0, (bad.index ?? 0) - 40), (bad.index ?? 0) + 40))}`);
  expect(text).not.toMatch(/^- FORGED/m);
}

function run(root: string, args: string[]): Result {
  const r = kb(root, args);
  expectNoCrash(r);
  expectClean(r.out);
  expectClean(r.err);
  return r;
}

describe('hostile configuration text', () => {
  const root = workspace({ 't/ok.md': 'OK\n', 'x/y.md': 'Y\n' }, CONFIG);

  test('learn: the heading on one line, the description keeps its paragraphs, nothing raw', () => {
    const r = run(root, ['learn', 't']);
    expect(r.out).toBe(
      `# Topic: ${SHOWN}\n\nPara\\u001b]0;pwned\\u0007graph.\n\nSecond paragraph.\tTabbed.\r\nCRLF kept.\n\n## Available subjects:\n\n- ok\n\nUse the \`learn\` tool with the \`subjects\` argument to learn specific subjects.\n`,
    );
    expect(r.err).toBe('warning: unknown key `ti\\u001btle` in topic `t`; did you mean `title`? (.jp/config.toml)\n');
  });

  test('the unknown-topic reply and the prompt\'s topic list: one line per topic', () => {
    const unknown = run(root, ['learn', 'nope']);
    expect(unknown.out).toBe(`Unknown topic "nope". Valid topics: t (${SHOWN}), x\\u001b[2Jy.\n`);
    expect(unknown.code).toBe(1);
    const prompt = run(root, ['prompt']);
    expect(prompt.out).toContain(`\n- t (**${SHOWN}**): first\\u2028- FORGED too\n- x\\u001b[2Jy\n`);
  });

  test('every tool description names the topics escaped, the write tools\' too', () => {
    const tool = JSON.parse(run(root, ['schema']).out) as { description: string };
    expectClean(tool.description);
    expect(tool.description).toEndWith(`Available topics:\n- t (${SHOWN})\n- x\\u001b[2Jy`);
    for (const name of ['remember', 'revise', 'forget']) {
      const write = JSON.parse(run(root, ['schema', '--tool', name]).out) as { description: string };
      expectClean(write.description);
      expect(write.description).toEndWith(`Writable topics:\n- t (${SHOWN})\n- x\\u001b[2Jy`);
    }
  });

  test('kb list, for a terminal', () => {
    const r = run(root, ['list']);
    expect(r.out).toStartWith(`t (${SHOWN}): t\n  ok  3 B  ~1 tok\n  (~1 token in all)\n\nx\\u001b[2Jy: x\n`);
  });

  // (The configuration locates keys written with escapes by file only.)
  test('kb check warns about each field, escaped, where it is set', () => {
    const r = run(root, ['check']);
    expect(r.out).toBe(
      [
        'error: unknown key `ti\\u001btle` in topic `t`; did you mean `title`? (.jp/config.toml)',
        'warning: topic "t": the title holds control characters (`\\u001b`, `\\u0007`, `\\r` and `\\n`); it is shown escaped, and a one-line field stays on one line (.jp/config.toml:3)',
        'warning: topic "t": the introduction holds a control character (`\\u2028`); it is shown escaped, and a one-line field stays on one line (.jp/config.toml:4)',
        'warning: topic "t": the description holds control characters (`\\u001b` and `\\u0007`); it is shown escaped (.jp/config.toml:5)',
        'warning: topic "x\\u001b[2Jy": the topic ID holds a control character (`\\u001b`); it is shown escaped (.jp/config.toml)',
        'failed: 2 topics, 2 subjects, 1 error, 4 warnings',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
  });

  test('errors on stderr: escaped too', () => {
    const r = run(root, ['-w', 'no\u001b[31mwhere', 'prompt']);
    expect(r.err).toBe(`error: no workspace found: ${join(root, 'no\\u001b[31mwhere')} does not exist (-w)\n`);
    expect(r.code).toBe(1);
  });

  test('completion offers no topic ID that holds a control character', () => {
    const r = run(root, ['__complete', '--', 'learn', '']);
    expect(r.out).toBe('t\n');
  });
});

describe('file names with bidirectional and zero-width characters', () => {
  // `evil\u202Egpj.md` shows as `evildm.jpg`; `je\u200Ban` looks like `jean`.
  const root = workspace({ 't/ok.md': 'OK\n', 't/jean.md': 'JEAN\n', 't/je\u200ban.md': 'SPOOF\n', 't/evil\u202egpj.md': 'EVIL\n', 't/\ufeffbom.md': 'BOM\n' });
  writeFileSync(join(root, 't', 'plain.md'), 'PLAIN\n');
  const notices = [
    'file name contains a bidirectional or zero-width character, skipped: evil\\u202egpj.md',
    'file name contains a bidirectional or zero-width character, skipped: je\\u200ban.md',
    'file name contains a bidirectional or zero-width character, skipped: \\ufeffbom.md',
  ];

  test('left out of every listing, with a notice showing the name escaped', () => {
    expect(run(root, ['learn', 't']).out).toBe(
      '# Topic: t\n\n## Available subjects:\n\n- jean\n- ok\n- plain\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n',
    );
    expect(run(root, ['prompt']).err).toBe(notices.map((n) => `warning: topic "t": ${n}\n`).join(''));
    const list = run(root, ['list']);
    expect(list.out).toBe(`t: t\n  jean   5 B  ~1 tok\n  ok     3 B  ~1 tok\n  plain  6 B  ~1 tok\n  (~3 tokens in all)\n${notices.map((n) => `  ! ${n}\n`).join('')}\n1 topic, 3 subjects\n`);
    const check = run(root, ['check']);
    expect(check.out).toContain(`warning: topic "t": ${notices[0]} (t/evil\\u202egpj.md)\n`);
    expect(check.code).toBe(0);
  });

  test('a pattern holding one is echoed escaped', () => {
    const r = run(root, ['learn', 't', 'je\u200ban']);
    // Escaped in the echo; the near-miss rules suggest the subject it looks like.
    expect(r.out).toBe('No subjects match "je\\u200ban" in topic "t". Closest subjects: "jean". Call `learn` with only the topic to list its subjects.\n');
    expect(r.code).toBe(1);
  });
});

describe('user and model input echoed: one rule, escaped (issue 20, item 11)', () => {
  // Right-to-left override, pop directional formatting, line separator,
  // zero-width space, next line (C1): JSON.stringify leaves them all raw.
  const H = 'x\u202ey\u202cz\u2028w\u200bv\u0085u';
  const SHOWN = 'x\\u202ey\\u202cz\\u2028w\\u200bv\\u0085u';
  const RAW = /[\u202e\u202c\u2028\u200b\u0085]/;
  const root = workspace({ 't/alpha.md': '# Alpha\n\nalpha beta gamma\n', 't/beta.md': 'beta delta\n' });
  /** The output of one echo site: nothing raw, the input shown escaped. */
  function echoes(args: string[], shown = SHOWN): Result {
    const r = run(root, args);
    expect([args, RAW.test(r.out), RAW.test(r.err)]).toEqual([args, false, false]);
    expect([args, `${r.out}${r.err}`.includes(shown)]).toEqual([args, true]);
    return r;
  }

  test('kb search: the "N subjects match" line, the scope, the words found nowhere; --format json too', () => {
    expect(echoes(['search', H]).out).toStartWith(`No subjects match "${SHOWN}".`);
    expect(echoes(['search', `alpha ${H}`]).out).toStartWith(`1 subject matches "alpha ${SHOWN}". `);
    expect(echoes(['search', `x${H}`, '--topic', 't']).out).toStartWith(`No subjects match "x${SHOWN}" in topic "t".`);
    const json = echoes(['search', '--format', 'json', H]);
    expect(JSON.parse(json.out).query).toBe(H);
    echoes(['search', '--args', JSON.stringify({ query: 'alpha', [H]: 1 })]);
  });

  test('kb learn: patterns, unknown argument names', () => {
    expect(echoes(['learn', 't', H]).out).toStartWith(`No subjects match "${SHOWN}" in topic "t".`);
    echoes(['learn', '--args', JSON.stringify({ topic: 't', [H]: 1 })]);
    echoes(['learn', H]);
  });

  test('kb learn: the call to continue a windowed subject, the call for the subjects left out', () => {
    const big = workspace(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`t/s${i}.md`, `# S${i}\n\n${`word${i} lorem ipsum dolor sit amet `.repeat(40)}\n`])));
    const call = JSON.stringify({ topic: 't', subjects: ['s*', H] });
    const windowed = kb(big, ['learn', '--max-tokens', '300', '--args', call]);
    expect(RAW.test(windowed.out)).toBe(false);
    expect(windowed.out).toContain(`call \`learn\` with {"topic":"t","subjects":["s*","${SHOWN}","@from:`);
    const leftOut = kb(big, ['learn', '--max-tokens', '1000', '--args', call]);
    expect(RAW.test(leftOut.out)).toBe(false);
    expect(leftOut.out).toMatch(/left out to stay within the 1,000-token budget. To continue, call `learn` with \{"topic":"t","subjects":\["s\*","x\\u202ey/);
  });

  test('kb remember and kb forget: the slug, tags, the topic', () => {
    const slug = echoes(['remember', '--args', JSON.stringify({ topic: 't', text: 'a new fact', slug: H })]);
    expect(slug.out).toContain(`"slug" "${SHOWN}" cannot name a new subject: "${SHOWN}" has characters other than`);
    echoes(['remember', '--args', JSON.stringify({ topic: 't', text: 'a new fact', tags: [`${H}\u0001`] })], `${SHOWN}\\u0001`);
    // In JSON, the message's escapes are escaped again: the text is the same.
    echoes(['remember', '--format', 'json', '--args', JSON.stringify({ topic: 't', text: 'a new fact', slug: H })], SHOWN.replaceAll('\\', '\\\\'));
    expect(echoes(['forget', 't', H]).out).toBe(`Not removed: topic "t" has no subject "${SHOWN}". Forget takes an exact slug, as learn lists it.\n`);
    echoes(['remember', H, 'a new fact']);
  });

  test('kb recall: an unknown topic', () => {
    echoes(['recall', 'alpha', '--topic', H]);
  });
});
