// `kb prompt --list TOPIC`, KB_PROMPT_LIST and the MCP prompt's `list`:
// a topic's subjects with their descriptions inside the <knowledge>
// section, within the budget, on the binary. Without them the section is
// the RFD's, byte for byte.
import { describe, expect, test } from 'bun:test';
import { estimateTokens } from '../../src/kb/content/tokens.ts';
import { BINARY, fixture, run } from './harness.ts';

const SKILL = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;

/** Skills with descriptions, a topic of many subjects in folders, notes. */
function workspace(): string {
  const files: Record<string, string> = {
    'skills/pdf/SKILL.md': SKILL('pdf', 'Fill, merge and split PDF files.'),
    'skills/xlsx/SKILL.md': SKILL('xlsx', 'Read and write spreadsheets with formulas.'),
    'notes/deploy.md': 'Deploys go out at 10:00.\n',
  };
  for (let f = 0; f < 6; f++) for (let i = 0; i < 20; i++) files[`peps/folder-${f}/pep-${f}${String(i).padStart(2, '0')}.md`] = `---\ndescription: Proposal ${f}-${i} about the language, its grammar and its standard library.\n---\nText\n`;
  return fixture(files, '[kb.topic.skills]\ntitle = "Agent Skills"\nsubjects = "skills"\n\n[kb.topic.peps]\nsubjects = "peps"\n\n[kb.topic.notes]\nsubjects = "notes"\n');
}

const SKILLS_LISTING = [
  'The subjects of some of these topics, as `learn` lists them (no need to list them again):',
  '',
  '<listing "skills">',
  '# Topic: Agent Skills',
  '',
  '## Available subjects:',
  '',
  '- pdf: Fill, merge and split PDF files.',
  '- xlsx: Read and write spreadsheets with formulas.',
  '',
  'Use the `learn` tool with the `subjects` argument to learn specific subjects.',
  '</listing>',
  '',
  '',
].join('\n');

const USE_LEARN = 'Use the `learn` tool to consume this knowledge.\n';

describe('kb prompt --list (dist/kb)', () => {
  const root = workspace();
  const plain = run(BINARY, root, ['prompt']);

  test('lists the topic with its descriptions, after the topics available to learn; the rest is the default section', () => {
    expect(plain.out).not.toContain('<listing');
    const r = run(BINARY, root, ['prompt', '--list', 'skills']);
    expect(r).toMatchObject({ err: '', code: 0 });
    expect(r.out).toContain(`- notes\n\n${SKILLS_LISTING}${USE_LEARN}`);
    expect(r.out.replace(SKILLS_LISTING, '')).toBe(plain.out);
  });

  test('repeatable, by ID or title; KB_PROMPT_LIST (commas) when no --list is given', () => {
    const both = run(BINARY, root, ['prompt', '--list', 'Agent Skills', '--list', 'notes']);
    expect(both.out.match(/<listing "[^"]+">/g)).toEqual(['<listing "skills">', '<listing "notes">']);
    const env = run(BINARY, root, ['prompt'], { env: { KB_PROMPT_LIST: 'skills, notes' } });
    expect(env.out).toBe(both.out);
    const flag = run(BINARY, root, ['prompt', '--list', 'notes'], { env: { KB_PROMPT_LIST: 'skills' } });
    expect(flag.out.match(/<listing "[^"]+">/g)).toEqual(['<listing "notes">']);
    expect(run(BINARY, root, ['prompt'], { env: { KB_PROMPT_LIST: '' } }).out).toBe(plain.out);
  });

  test('within the budget: a listing that does not fit is collapsed like a listing, with a warning; never over the budget', () => {
    const whole = run(BINARY, root, ['prompt', '--list', 'peps']);
    expect(whole.out).toContain('- folder-5/pep-519: Proposal 5-19 about the language');
    for (const budget of [2000, 1000, 600]) {
      const r = run(BINARY, root, ['prompt', '--max-tokens', String(budget), '--list', 'peps', '--list', 'skills']);
      expect(r.code).toBe(0);
      expect(estimateTokens(r.out)).toBeLessThanOrEqual(budget);
      expect(r.out).toContain('<listing "peps">');
      expect(r.err).toContain('warning: prompt: the listing of topic "peps" (120 subjects) was shortened to stay within the prompt\'s');
    }
    const tight = run(BINARY, root, ['prompt', '--max-tokens', '600', '--list', 'peps']);
    expect(tight.out).toContain('- folder-0/ (20 subjects, ~');
    expect(tight.out).toContain('folders marked `/` are summed up: list one with the pattern `folder/`');
    // Too small for even the frame: not listed, said.
    const none = run(BINARY, root, ['prompt', '--max-tokens', '150', '--list', 'peps']);
    expect(none.out).not.toContain('<listing');
    expect(none.err).toContain('warning: topic "peps": its listing does not fit in the ~');
  });

  test('a name that is no topic is a warning, never a failure (the prompt runs from a hook)', () => {
    const r = run(BINARY, root, ['prompt', '--list', 'nope']);
    expect(r).toEqual({ out: plain.out, err: 'warning: --list: no enabled topic "nope"; not listed (topics: skills, peps, notes)\n', code: 0 });
    const env = run(BINARY, root, ['prompt'], { env: { KB_PROMPT_LIST: 'nope' } });
    expect(env.err).toBe('warning: KB_PROMPT_LIST: no enabled topic "nope"; not listed (topics: skills, peps, notes)\n');
  });

  test('kb mcp: the knowledge prompt lists the server\'s --list topics, else KB_PROMPT_LIST\'s', () => {
    const lines = () =>
      [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'prompts/list' },
        { jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'knowledge' } },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n';
    const answer = (argv: string[], env: Record<string, string> = {}) => {
      const r = run(BINARY, root, ['mcp', ...argv], { input: lines(), env });
      expect(r.code).toBe(0);
      const [, list, get] = r.out.trim().split('\n').map((l) => JSON.parse(l));
      return { list, text: get.result.messages[0].content.text as string };
    };
    const plainMcp = answer([]);
    expect(plainMcp.text).toBe(plain.out);
    expect(answer(['--list', 'skills']).text).toBe(run(BINARY, root, ['prompt', '--list', 'skills']).out);
    expect(answer(['--list', 'skills', '--list', 'notes']).text).toBe(run(BINARY, root, ['prompt', '--list', 'skills', '--list', 'notes']).out);
    expect(answer([], { KB_PROMPT_LIST: 'skills' }).text).toBe(run(BINARY, root, ['prompt', '--list', 'skills']).out);
    expect(answer(['--list', 'notes'], { KB_PROMPT_LIST: 'skills' }).text).toBe(run(BINARY, root, ['prompt', '--list', 'notes']).out);
  });
});
