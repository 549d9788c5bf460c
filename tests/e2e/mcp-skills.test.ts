// End-to-end: the MCP Skills extension (io.modelcontextprotocol/skills) on
// dist/kb, driven by two implementations of its host side: the official
// SDK v2 client's SkillsClient (@modelcontextprotocol/client, which checks
// every entry against the Agent Skills rules and every file it reads
// against the entry's size and digest), and the extension's reference SDK
// (@olaservo/ext-skills); and by raw JSON-RPC under every revision kb
// speaks. Every reply validates against the MCP schema of the revision
// and the extension's shapes (tests/support/mcp-schema.ts).
//
// The workspace has the shape of a public skills collection (a folder of
// skills, each a SKILL.md with scripts, references, a license and binary
// assets), a second topic, and every case the rules decide: a hidden skill,
// a disabled one, a disabled file, a nested SKILL.md, a dotfile, a skill
// whose name is not its folder's, one whose description is too long, a
// disabled topic.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SkillsClient, type Skill } from '@modelcontextprotocol/client/ext/skills';
import { getSkill, listSkills, readSkill, readSkillResource } from '@olaservo/ext-skills/client';
import { ReplyChecker } from '../support/mcp-schema.ts';
import { RawMcp } from '../support/mcp-raw.ts';
import { BIN, fixture, isolatedEnv } from './harness.ts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0xff, 0x00]);
const FONT = new Uint8Array(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
const LONG = 'Describe it. '.repeat(90);

const CONFIG = `[kb.topic.skills]
subjects = "skills"
disabled = ["off", "pdf/scripts/secret"]

[kb.topic.team]
subjects = "team"

[kb.topic.old]
enable = false
subjects = "old"
`;

const FILES: Record<string, string | Uint8Array> = {
  'skills/README.md': '# Skills\n\nA collection.\n',
  'skills/pdf/SKILL.md': '---\nname: pdf\ndescription: Use this skill whenever the user wants to do anything with PDF files.\nlicense: Proprietary. LICENSE.txt has complete terms\n---\n\n# PDF Processing Guide\n\nRun `scripts/extract.py`; see reference.md.\n',
  'skills/pdf/LICENSE.txt': 'All rights reserved.\n',
  'skills/pdf/reference.md': '# Reference\n\nForms and fields.\n',
  'skills/pdf/scripts/extract.py': '#!/usr/bin/env python3\nprint("text")\n',
  'skills/pdf/scripts/secret.sh': 'echo secret\n',
  'skills/pdf/assets/logo.png': PNG,
  'skills/pdf/.notes.md': 'Kept with the skill.\n',
  'skills/pdf/forms/SKILL.md': '---\nname: forms\ndescription: A nested skill, a file of pdf.\n---\nFill forms.\n',
  'skills/canvas-design/SKILL.md': '---\nname: canvas-design\ndescription: >-\n  Create beautiful visual art\n  in .png and .pdf documents.\nmetadata:\n  version: "1.0"\n  author: someone\nallowed-tools: Read Write\n---\n# Canvas\n',
  'skills/canvas-design/canvas-fonts/Font.ttf': FONT,
  'skills/canvas-design/notes.txt': '\ufeffline one\r\nline two\r\n',
  'skills/template/SKILL.md': '---\nname: template-skill\ndescription: Replace with description of the skill.\n---\n# Template\n',
  'skills/long/SKILL.md': `---\nname: long\ndescription: ${LONG}\n---\n# Long\n`,
  'skills/off/SKILL.md': '---\nname: off\ndescription: A disabled skill.\n---\nOff.\n',
  'skills/off/script.sh': 'echo off\n',
  'skills/.claude/skills/hidden-one/SKILL.md': '---\nname: hidden-one\ndescription: In a hidden folder.\n---\nHidden.\n',
  'team/review/SKILL.md': '---\nname: review\ndescription: Review a change before it merges.\n---\nRead the diff.\n',
  'old/gone/SKILL.md': '---\nname: gone\ndescription: A skill of a disabled topic.\n---\nGone.\n',
};

const sha = (bytes: string | Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

interface V2 {
  client: Client;
  skills: SkillsClient;
  checker: ReplyChecker;
  stderr: () => string;
}

/** The SDK v2 client on `kb mcp` in `root`, every reply checked. */
async function connectV2(root: string): Promise<V2> {
  const transport = new StdioClientTransport({ command: BIN, args: ['mcp'], cwd: root, env: isolatedEnv(root), stderr: 'pipe' });
  let stderr = '';
  const checker = new ReplyChecker();
  // biome-ignore lint: the transport's message type is the SDK's own.
  const t = transport as any;
  const send = t.send.bind(t);
  t.send = (message: object, ...rest: unknown[]) => {
    checker.sent(message);
    return send(message, ...rest);
  };
  // biome-ignore lint: as above.
  let handler: ((m: any, ...rest: unknown[]) => void) | undefined;
  Object.defineProperty(t, 'onmessage', {
    configurable: true,
    get: () => (handler === undefined ? undefined : (m: object, ...rest: unknown[]) => (checker.received(m), handler?.(m, ...rest))),
    set: (h: typeof handler) => {
      handler = h;
    },
  });
  const client = new Client({ name: 'kb-e2e-v2', version: '1.0.0' });
  await client.connect(transport);
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return { client, skills: new SkillsClient(client), checker, stderr: () => stderr };
}

/** A request's JSON-RPC error code and message. */
async function rejection(p: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as { code: unknown; message: string };
    return { code: err.code, message: err.message };
  }
  throw new Error('the request succeeded');
}

describe('the Skills extension, SDK v2 client (dist/kb)', () => {
  const root = fixture(FILES, CONFIG);
  let c: V2;
  let listed: Skill[];

  beforeAll(async () => {
    c = await connectV2(root);
    listed = (await c.skills.list()).skills;
  });
  afterAll(async () => {
    await c.client.close();
  });

  test('initialize declares the extension (no directoryRead) beside resources', () => {
    const caps = c.client.getServerCapabilities();
    expect(caps?.extensions).toEqual({ 'io.modelcontextprotocol/skills': {} });
    expect(caps?.resources).toBeDefined();
    expect(c.skills.supported).toBe(true);
    expect(c.skills.directoryRead).toBe(false);
  });

  test('skills/list: every served skill of every enabled topic, by topic then folder; hidden, disabled and broken ones are not', () => {
    expect(listed.map((s) => s.uri)).toEqual(['skill://skills/canvas-design/SKILL.md', 'skill://skills/pdf/SKILL.md', 'skill://team/review/SKILL.md']);
  });

  test('a skill kb does not serve is said once on stderr, with why', async () => {
    await c.skills.list();
    const deadline = Date.now() + 5000;
    while (!c.stderr().includes('"long"') && Date.now() < deadline) await Bun.sleep(20);
    const err = c.stderr();
    expect(err).toContain('warning: topic "skills": skill "template" is not served over MCP (the Skills extension): name "template-skill" differs from its directory\'s name "template"');
    expect(err).toContain('warning: topic "skills": skill "long" is not served over MCP (the Skills extension): description is 1169 characters; at most 1024');
    expect(err.split('skill "template" is not served').length).toBe(2);
    expect(err).not.toContain('"off"');
    expect(err).not.toContain('hidden-one');
  });

  test('an entry: the frontmatter as YAML reads it, and every file with its digest and size, SKILL.md first', () => {
    const canvas = listed[0];
    expect(canvas.frontmatter).toEqual({ name: 'canvas-design', description: 'Create beautiful visual art in .png and .pdf documents.', metadata: { version: '1.0', author: 'someone' }, 'allowed-tools': 'Read Write' });
    const pdf = listed[1];
    const files = ['SKILL.md', '.notes.md', 'LICENSE.txt', 'assets/logo.png', 'forms/SKILL.md', 'reference.md', 'scripts/extract.py'];
    expect(pdf.resources).toEqual(
      files.map((f) => {
        const bytes = readFileSync(join(root, 'skills/pdf', f));
        return { uri: `skill://skills/pdf/${f}`, digest: sha(bytes), size: bytes.length };
      }),
    );
  });

  test('resources/read: every file of every skill, verified by the client against its entry (text as it is, binary as base64)', async () => {
    let read = 0;
    for (const skill of listed) {
      if (skill.resources === 'dynamic') throw new Error('no skill of kb is dynamic');
      for (const r of skill.resources) {
        const file = await c.skills.read(skill, r.uri);
        expect(file.verified).toBe(true);
        read++;
      }
    }
    expect(read).toBe(3 + 7 + 1);
    const notes = await c.skills.read(listed[0], 'notes.txt');
    expect(notes.text).toBe('\ufeffline one\r\nline two\r\n');
    const logo = await c.skills.read(listed[1], 'assets/logo.png');
    expect(logo.text).toBeUndefined();
    expect(logo.mimeType).toBe('image/png');
    expect([...logo.bytes]).toEqual([...PNG]);
    const skillMd = await c.skills.read(listed[1]);
    expect(skillMd.mimeType).toBe('text/markdown');
    expect(skillMd.frontmatter?.name).toBe('pdf');
  });

  test('skills/get: a listed skill, and a hidden one by its exact URI', async () => {
    expect((await c.skills.get('skill://skills/pdf/SKILL.md')).skill).toEqual(listed[1]);
    const hidden = await c.skills.get('skill://skills/.claude/skills/hidden-one/SKILL.md');
    expect(hidden.skill.frontmatter).toEqual({ name: 'hidden-one', description: 'In a hidden folder.' });
    expect(hidden.ttlMs).toBe(0);
    expect(hidden.cacheScope).toBe('private');
    const file = await c.skills.read(hidden.skill);
    expect(file.text).toContain('Hidden.');
  });

  test('skills/get: a disabled skill, a skill of a disabled topic, a broken one, a nested SKILL.md and other URIs are -32602, saying why', async () => {
    const get = (uri: string) => rejection(c.skills.get(uri));
    expect(await get('skill://skills/off/SKILL.md')).toMatchObject({ code: -32602, message: expect.stringContaining('No skill is served at skill://skills/off/SKILL.md: no enabled topic "skills" has a skill there') });
    expect((await get('skill://old/gone/SKILL.md')).code).toBe(-32602);
    expect(await get('skill://skills/template/SKILL.md')).toMatchObject({ code: -32602, message: expect.stringContaining('name "template-skill" differs') });
    expect((await get('skill://skills/pdf/forms/SKILL.md')).code).toBe(-32602);
    expect((await get('skill://skills/pdf/reference.md')).code).toBe(-32602);
    expect((await get('kb://skills/pdf')).code).toBe(-32602);
    expect((await get('skill://skills/pdf/../off/SKILL.md')).code).toBe(-32602);
  });

  test('resources/read: no file of a disabled skill, a disabled file, a file outside the skill or a path that climbs out of it', async () => {
    const read = (uri: string) => rejection(c.client.readResource({ uri }));
    for (const uri of [
      'skill://skills/off/SKILL.md',
      'skill://skills/off/script.sh',
      'skill://skills/pdf/scripts/secret.sh',
      'skill://skills/pdf/scripts/../../off/script.sh',
      'skill://skills/pdf/%2e%2e/off/script.sh',
      'skill://skills/pdf/scripts%2Fextract.py',
      'skill://skills/README.md',
      'skill://old/gone/SKILL.md',
      'skill://skills/template/SKILL.md',
    ]) {
      expect([uri, (await read(uri)).code]).toEqual([uri, -32002]);
    }
  });

  test('kb:// resources are as before: resources/list holds no skill:// URI', async () => {
    const { resources } = await c.client.listResources();
    expect(resources.every((r) => r.uri.startsWith('kb://'))).toBe(true);
    expect(resources.map((r) => r.uri)).toContain('kb://skills/pdf');
  });

  test('every reply validated against the schema of the revision and the extension', () => {
    expect(c.checker.problems).toEqual([]);
  });
});

describe('the Skills extension, the reference SDK (@olaservo/ext-skills)', () => {
  const root = fixture(FILES, CONFIG);
  let c: V2;

  beforeAll(async () => {
    c = await connectV2(root);
  });
  afterAll(async () => {
    await c.client.close();
  });

  test('lists, gets, and reads with verification (digest, size, frontmatter)', async () => {
    // biome-ignore lint: the SDK takes a structural client.
    const client = c.client as any;
    const skills = await listSkills(client);
    expect(skills.map((s) => s.uri)).toEqual(['skill://skills/canvas-design/SKILL.md', 'skill://skills/pdf/SKILL.md', 'skill://team/review/SKILL.md']);
    const pdf = await getSkill(client, 'skill://skills/pdf/SKILL.md');
    expect(await readSkill(client, pdf)).toContain('# PDF Processing Guide');
    const logo = await readSkillResource(client, pdf, 'skill://skills/pdf/assets/logo.png');
    expect(logo.blob).toBe(Buffer.from(PNG).toString('base64'));
    const canvas = skills[0];
    expect(await readSkill(client, canvas)).toContain('# Canvas');
    expect(c.checker.problems).toEqual([]);
  });
});

describe('the Skills extension under every revision (raw JSON-RPC)', () => {
  const root = fixture(FILES, CONFIG);
  for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
    test(`${version}: initialize declares it; skills/list, skills/get and resources/read answer alike`, async () => {
      const mcp = new RawMcp(root);
      try {
        const init = await mcp.initialize(version);
        expect(init.result.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/skills': {} });
        const list = await mcp.request(1, 'skills/list', {});
        expect(list.result.skills.map((s: Skill) => s.uri)).toEqual(['skill://skills/canvas-design/SKILL.md', 'skill://skills/pdf/SKILL.md', 'skill://team/review/SKILL.md']);
        expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
        expect(list.result.nextCursor).toBeUndefined();
        const get = await mcp.request(2, 'skills/get', { uri: 'skill://team/review/SKILL.md' });
        expect(get.result.skill).toEqual(list.result.skills[2]);
        const read = await mcp.request(3, 'resources/read', { uri: 'skill://team/review/SKILL.md' });
        expect(read.result.contents).toEqual([{ uri: 'skill://team/review/SKILL.md', mimeType: 'text/markdown', text: FILES['team/review/SKILL.md'] }]);
        expect(mcp.schema.problems).toEqual([]);
      } finally {
        await mcp.close();
      }
    });
  }
});

describe('the Skills extension: pages, cursors and changed files', () => {
  const many: Record<string, string> = {};
  for (let i = 0; i < 120; i++) {
    const name = `s${String(i).padStart(3, '0')}`;
    many[`skills/${name}/SKILL.md`] = `---\nname: ${name}\ndescription: Skill number ${i}.\n---\nBody ${i}.\n`;
  }
  const root = fixture(many, '[kb.topic.skills]\nsubjects = "skills"\n');

  test('skills/list comes in pages of at most 50, none repeated or skipped; a cursor kb did not issue is -32602', async () => {
    const mcp = new RawMcp(root);
    try {
      await mcp.initialize('2025-11-25');
      const uris: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const r = await mcp.request(`p${pages}`, 'skills/list', cursor === undefined ? {} : { cursor });
        expect(r.result.skills.length).toBeLessThanOrEqual(50);
        uris.push(...r.result.skills.map((s: Skill) => s.uri));
        cursor = r.result.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(pages).toBe(3);
      expect(uris).toEqual(Object.keys(many).map((p) => `skill://${p}`));
      const bad = await mcp.request('bad', 'skills/list', { cursor: 'made-up' });
      expect(bad.error.code).toBe(-32602);
      expect(mcp.schema.problems).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  test('a file edited between two listings has its new digest, even with the same size and modification time', async () => {
    const mcp = new RawMcp(root);
    try {
      await mcp.initialize('2025-11-25');
      const uri = 'skill://skills/s007/SKILL.md';
      const path = join(root, 'skills/s007/SKILL.md');
      const old = new Date(Date.now() - 60_000);
      utimesSync(path, old, old);
      const before = (await mcp.request(1, 'skills/get', { uri })).result.skill.resources[0];
      expect(before.digest).toBe(sha(readFileSync(path)));
      writeFileSync(path, readFileSync(path, 'utf8').replace('Body 7.', 'Body X.'));
      utimesSync(path, old, old);
      const after = (await mcp.request(2, 'skills/get', { uri })).result.skill.resources[0];
      expect(after.size).toBe(before.size);
      expect(after.digest).not.toBe(before.digest);
      expect(after.digest).toBe(sha(readFileSync(path)));
    } finally {
      await mcp.close();
    }
  });
});
