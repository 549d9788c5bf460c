// `kb config-schema`: the JSON Schema of the configuration. The checked-in
// copy must equal the binary's output; the schema must follow
// src/config/fields.ts; ajv must accept the example workspace's files and
// agree with `kb check` on keys and types; and taplo (the TOML language
// server's engine, from npm) must apply it the two ways docs/guide/assistants.md shows.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Ajv from 'ajv';
import TOML from '@iarna/toml';
import { DEFAULT_CONFIG_LOAD_PATHS, DIRECTIVE_KEYS, TOPIC_FIELD_DEFS } from '../../src/config/fields.ts';
import { BINARY, DENO_RUNNER, fixture, run } from '../e2e/harness.ts';
import { BIN, REPO, codeBlocks, integrationsDoc, sh, tempDir } from './lib.ts';

const CHECKED_IN = join(REPO, 'schemas/kb-config.schema.json');
const TAPLO = join(REPO, 'node_modules/.bin/taplo');

const printed = () => sh(BIN, ['config-schema']);
const schema = () => JSON.parse(readFileSync(CHECKED_IN, 'utf8'));

function validator() {
  const ajv = new Ajv({ strict: true, allErrors: true });
  return ajv.compile(schema());
}

const tomlData = (text: string) => JSON.parse(JSON.stringify(TOML.parse(text)));

describe('kb config-schema', () => {
  test('prints the checked-in schemas/kb-config.schema.json exactly (`npm run config-schema` regenerates it)', () => {
    const r = printed();
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(readFileSync(CHECKED_IN, 'utf8'));
  });

  test('needs no workspace, takes no arguments, and is the same under deno', () => {
    const empty = tempDir();
    expect(run(BINARY, empty, ['config-schema']).out).toBe(readFileSync(CHECKED_IN, 'utf8'));
    expect(run(DENO_RUNNER, empty, ['config-schema'])).toEqual({ out: readFileSync(CHECKED_IN, 'utf8'), err: '', code: 0 });
    const bad = run(BINARY, empty, ['config-schema', 'extra']);
    expect(bad.code).toBe(2);
    expect(bad.out).toBe('');
    expect(bad.err).toContain('kb config-schema takes no arguments');
  }, 60_000);

  test('is listed in kb --help', () => {
    expect(sh(BIN, ['--help']).out).toContain('config-schema');
  });
});

describe('the schema follows src/config/fields.ts', () => {
  test('draft-07, with the kb table closed and the top level open to other tools', () => {
    const s = schema();
    expect(s.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(s.type).toBe('object');
    expect(s.additionalProperties).toBe(true);
    expect(s.properties.kb.additionalProperties).toBe(false);
    expect(Object.keys(s.properties.kb.properties)).toEqual(['topic']);
    expect(s.properties.kb.properties.topic.additionalProperties).toEqual({ $ref: '#/definitions/topic' });
    expect(s.definitions.topic.additionalProperties).toBe(false);
  });

  test('every topic field, with its type, default and description, and nothing else', () => {
    const topic = schema().definitions.topic;
    expect(Object.keys(topic.properties)).toEqual(TOPIC_FIELD_DEFS.map((f) => f.name));
    for (const f of TOPIC_FIELD_DEFS) {
      const p = topic.properties[f.name];
      expect(p.description).toStartWith(f.description);
      if (f.type === 'string[]') expect([p.type, p.items]).toEqual(['array', { type: 'string' }]);
      else expect(p.type).toBe(f.type);
      if (f.default === undefined) expect(p).not.toHaveProperty('default');
      else expect(p.default).toEqual(f.default);
    }
    // Layered files may set a topic partially: nothing is required.
    expect(topic.required).toBeUndefined();
    expect(topic.properties.subjects.description).toContain('Required');
  });

  test('the load directives', () => {
    const s = schema();
    for (const key of DIRECTIVE_KEYS) expect(s.properties).toHaveProperty(key);
    expect(s.properties.extends).toMatchObject({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'object', required: ['path'] }] } });
    expect(s.properties.inherit).toMatchObject({ type: 'boolean', default: true });
    expect(s.properties.config_load_paths).toMatchObject({ type: 'array', items: { type: 'string' }, default: DEFAULT_CONFIG_LOAD_PATHS });
  });
});

describe('ajv (draft-07, strict mode)', () => {
  test('compiles the schema: no unknown keywords, a valid draft-07 schema', () => {
    expect(() => validator()).not.toThrow();
  });

  test('accepts the example workspace: examples/.jp/config.toml and the layered config.d file', () => {
    const validate = validator();
    for (const file of ['examples/.jp/config.toml', 'examples/.jp/config.d/kb/maintainers.toml']) {
      const ok = validate(tomlData(readFileSync(join(REPO, file), 'utf8')));
      expect({ file, errors: validate.errors ?? null, ok }).toEqual({ file, errors: null, ok: true });
    }
  });

  // Each case: a configuration, and whether it is valid. kb check must agree
  // on the configuration-level errors (unknown keys, wrong types).
  const CASES: [string, string, boolean][] = [
    ['every field set', '[kb.topic.a]\nenable = false\ntitle = "A"\nintroduction = "i"\ndescription = "d"\nsubjects = "s"\nlearned = ["x"]\ndisabled = ["y"]\n', true],
    ['other tools\' keys at the top level', '[assistant]\nmodel = "x"\n[conversation]\ntitle = 1\n[kb.topic.a]\nsubjects = "s"\n', true],
    ['directives', 'extends = ["base.toml"]\ninherit = true\nconfig_load_paths = [".jp/config.d"]\n[kb.topic.a]\nsubjects = "s"\n', true],
    ['a misspelled topic key', '[kb.topic.a]\nsubjects = "s"\nlernd = ["x"]\n', false],
    ['an unknown key in kb', '[kb.topc.a]\nsubjects = "s"\n', false],
    ['enable as a string', '[kb.topic.a]\nsubjects = "s"\nenable = "yes"\n', false],
    ['learned as a string', '[kb.topic.a]\nsubjects = "s"\nlearned = "x"\n', false],
    ['a number in disabled', '[kb.topic.a]\nsubjects = "s"\ndisabled = ["x", 1]\n', false],
    ['subjects as an array', '[kb.topic.a]\nsubjects = ["s"]\n', false],
    ['an empty subjects', '[kb.topic.a]\nsubjects = ""\n', false],
    ['a topic that is not a table', '[kb.topic]\na = "s"\n', false],
    ['extends as a string', 'extends = "base.toml"\n[kb.topic.a]\nsubjects = "s"\n', false],
    ['an extends table', 'extends = [{ path = "base.toml", strategy = "after" }]\n[kb.topic.a]\nsubjects = "s"\n', true],
    ['an extends table with another strategy', 'extends = [{ path = "base.toml", strategy = "later" }]\n[kb.topic.a]\nsubjects = "s"\n', false],
  ];
  const CONFIG_CODES = new Set(['unknown-key', 'wrong-type', 'missing-subjects']);

  for (const [name, text, valid] of CASES) {
    test(`${valid ? 'accepts' : 'rejects'} ${name}, as kb check does`, () => {
      const validate = validator();
      expect(validate(tomlData(text))).toBe(valid);
      const root = fixture({ 's/x.md': 'x\n', 's/y.md': 'y\n', '.jp/base.toml': '' }, text);
      const r = run(BINARY, root, ['check', '--format', 'json']);
      const codes = JSON.parse(r.out).diagnostics.map((d: { code: string }) => d.code).filter((c: string) => CONFIG_CODES.has(c));
      expect({ name, codes: codes.length === 0 }).toEqual({ name, codes: valid });
    });
  }

  test('the one difference: a topic without subjects is valid in one file (layering), an error for kb check', () => {
    const validate = validator();
    const text = '[kb.topic.a]\nlearned = ["x"]\n';
    expect(validate(tomlData(text))).toBe(true);
    const r = run(BINARY, fixture({}, text), ['check', '--format', 'json']);
    expect(JSON.parse(r.out).diagnostics.map((d: { code: string }) => d.code)).toContain('missing-subjects');
  });
});

describe('taplo applies the schema as the docs show', () => {
  const section = integrationsDoc();
  const toml = codeBlocks(section, 'toml');
  const directiveExample = toml.find((b) => b.startsWith('#:schema'))!;
  const taploConfig = toml.find((b) => b.includes('[[rule]]'))!;

  function workspace(config: string): string {
    const root = fixture({ '.jp/kb/project/a.md': 'a\n' });
    writeFileSync(join(root, '.jp/kb-config.schema.json'), printed().out);
    writeFileSync(join(root, '.jp/config.toml'), config);
    return root;
  }

  const taplo = (root: string, ...files: string[]) => sh(TAPLO, ['check', ...files], { cwd: root, env: { ...process.env, NO_COLOR: '1', RUST_LOG: 'warn' } });

  test('the docs have a #:schema example and a .taplo.toml rule', () => {
    expect(directiveExample).toStartWith('#:schema ./kb-config.schema.json\n');
    expect(taploConfig).toContain('[[rule]]');
    expect(section).toContain('kb config-schema > .jp/kb-config.schema.json');
  });

  test('#:schema directive: the example in the docs passes, a misspelled key fails naming it', () => {
    const root = workspace(directiveExample);
    expect(taplo(root, '.jp/config.toml').code).toBe(0);
    writeFileSync(join(root, '.jp/config.toml'), directiveExample.replace('subjects =', 'subjcts ='));
    const bad = taplo(root, '.jp/config.toml');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("'subjcts' was unexpected");
  }, 60_000);

  test('.taplo.toml rule: every configuration file (config.toml, config.d, .jp.toml) is checked', () => {
    const example = readFileSync(join(REPO, 'examples/.jp/config.toml'), 'utf8');
    const root = workspace(example);
    writeFileSync(join(root, '.taplo.toml'), taploConfig);
    const files: Record<string, string> = {
      '.jp/config.d/kb/maintainers.toml': readFileSync(join(REPO, 'examples/.jp/config.d/kb/maintainers.toml'), 'utf8'),
      'docs/.jp.toml': '[kb.topic.project]\nlearned = ["a"]\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    const all = ['.jp/config.toml', ...Object.keys(files)];
    expect(taplo(root, ...all).code).toBe(0);

    writeFileSync(join(root, '.jp/config.toml'), example.replace('disabled = ', 'disabeld = '));
    writeFileSync(join(root, 'docs/.jp.toml'), '[kb.topic.project]\nenable = "no"\n');
    const bad = taplo(root, ...all);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("'disabeld' was unexpected");
    expect(bad.err).toContain('"no" is not of type "boolean"');
    expect(bad.err).not.toContain('maintainers.toml');
  }, 60_000);
});
