import { describe, expect, test } from 'bun:test';
import { assignmentOp, objectOp, parseCfg } from '../../../src/config/assign.ts';
import { UsageError } from '../../../src/shared/errors.ts';

/** The op a --cfg assignment makes (parse + coerce). */
function op(text: string) {
  const v = parseCfg(text);
  if (v.kind !== 'assign') throw new Error(`not an assignment: ${text}`);
  return assignmentOp(v.path, v.operator, v.raw, `--cfg ${text}`);
}

const T = ['kb', 'topic', 'project'];

describe('NOTES 21: --cfg grammar', () => {
  test.each([
    // KEY=VALUE, coerced to the field type
    ['kb.topic.project.title=Project', { path: [...T, 'title'], value: 'Project' }],
    ['kb.topic.project.title=a=b', { path: [...T, 'title'], value: 'a=b' }],
    ['kb.topic.project.title=', { path: [...T, 'title'], value: '' }],
    ['kb.topic.project.enable=false', { path: [...T, 'enable'], value: false }],
    ['kb.topic.project.enable=true', { path: [...T, 'enable'], value: true }],
    ['kb.topic.project.learned=maintainers/*', { path: [...T, 'learned'], value: ['maintainers/*'] }],
    ['kb.topic.project.learned=a/*, b ,c', { path: [...T, 'learned'], value: ['a/*', 'b', 'c'] }],
    // jp_config assignment.rs `try_parse_vec`: a comma always separates items
    ['kb.topic.project.learned+={a,b}/*', { path: [...T, 'learned'], value: ['{a', 'b}/*'], append: true }],
    ['kb.topic.project.learned=a,', { path: [...T, 'learned'], value: ['a'] }],
    ['kb.topic.project.learned=a,,b', { path: [...T, 'learned'], value: ['a', 'b'] }],
    ['kb.topic.project.learned+=a, b', { path: [...T, 'learned'], value: ['a', 'b'], append: true }],
    ['kb.topic.project.learned:="a,b"', { path: [...T, 'learned'], value: ['a', 'b'] }],
    ['kb.topic.project.learned:+="a, b"', { path: [...T, 'learned'], value: ['a', 'b'], append: true }],
    ['kb.topic.project.learned+:=["c"]', { path: [...T, 'learned'], value: ['c'], append: true }],
    ['kb:={"topic":{"a":{"learned":"x, y"}}}', { path: ['kb'], value: { topic: { a: { learned: ['x', 'y'] } } } }],
    // jp_config assignment.rs `try_vec`: KEY.N sets item N (checked when merged)
    ['kb.topic.project.learned.1=x,y', { path: [...T, 'learned'], index: 1, value: 'x,y' }],
    ['kb.topic.project.learned.0:="z"', { path: [...T, 'learned'], index: 0, value: 'z' }],
    ['kb.topic.project.learned:=["{a,b}/*"]', { path: [...T, 'learned'], value: ['{a,b}/*'] }],
    ['kb.topic.project.learned=', { path: [...T, 'learned'], value: [] }],
    ['kb.topic.project.learned= ', { path: [...T, 'learned'], value: [] }],
    ['kb.topic.project.subjects=.jp/kb', { path: [...T, 'subjects'], value: '.jp/kb' }],
    [' kb.topic.project.title =x', { path: [...T, 'title'], value: 'x' }],
    // an unknown field keeps the string (the validator reports the key)
    ['kb.topic.project.titel=x', { path: [...T, 'titel'], value: 'x' }],
    ['kb.other=1', { path: ['kb', 'other'], value: '1' }],
    // KEY+=VALUE appends
    ['kb.topic.project.learned+=maintainers/*', { path: [...T, 'learned'], value: ['maintainers/*'], append: true }],
    ['kb.topic.project.disabled+=old', { path: [...T, 'disabled'], value: ['old'], append: true }],
    // KEY:=JSON sets
    ['kb.topic.project.learned:=["a","b"]', { path: [...T, 'learned'], value: ['a', 'b'] }],
    ['kb.topic.project.enable:=false', { path: [...T, 'enable'], value: false }],
    ['kb.topic.project.title:="x,y"', { path: [...T, 'title'], value: 'x,y' }],
    ['kb.topic.project:={"subjects":"s","enable":false}', { path: T, value: { subjects: 's', enable: false } }],
    ['kb:={"topic":{"a":{"subjects":"s"}}}', { path: ['kb'], value: { topic: { a: { subjects: 's' } } } }],
    ['kb.topic.project.titel:=1', { path: [...T, 'titel'], value: 1 }],
    // KEY:+=JSON appends (an array appends its items)
    ['kb.topic.project.learned:+=["a","b"]', { path: [...T, 'learned'], value: ['a', 'b'], append: true }],
    ['kb.topic.project.learned:+="a"', { path: [...T, 'learned'], value: ['a'], append: true }],
  ])('%s', (text, expected) => {
    expect(op(text)).toEqual(expected);
  });

  // jp_cli lib.rs `KeyValueOrPath::from_str`: `{...}` is a whole
  // configuration object, merged.
  test('a JSON object: its kb section is merged; a non-object is refused', () => {
    expect(parseCfg('{"kb":{"topic":{"a":{"title":"T"}}},"assistant":{}}')).toMatchObject({ kind: 'object' });
    const v = parseCfg('{"kb":{"topic":{"a":{"learned":"x,y"}}}}');
    expect(v.kind === 'object' && objectOp(v.value, v.raw, 'w')).toEqual({ path: ['kb'], value: { topic: { a: { learned: ['x', 'y'] } } } });
    expect(() => parseCfg('{"kb":')).toThrow('invalid JSON');
    // Checked as assignments are: unknown keys in kb, the directives' types.
    const bogus = parseCfg('{"kb":{"topic":{"a":{"bogus":1}}}}');
    expect(() => bogus.kind === 'object' && objectOp(bogus.value, bogus.raw, 'w')).toThrow('unknown key `bogus` in topic `a`');
    const inherit = parseCfg('{"inherit":"no"}');
    expect(() => inherit.kind === 'object' && objectOp(inherit.value, inherit.raw, 'w')).toThrow('`inherit` must be a boolean, got string');
  });

  test.each(['assistant.model.id=x', 'conversation.tools:={"a":1}', 'other+=x', 'x.y:+=[1]'])('%s: outside kb, no effect', (text) => {
    expect(op(text)).toBeUndefined();
  });

  // jp_config assignment.rs `assign_to_entry`: `:=` on the topic map
  // replaces it, `:+=` merges into it (lists inside appended).
  test.each([
    ['kb.topic:={"q":{"subjects":"s"}}', { path: ['kb', 'topic'], value: { q: { subjects: 's' } }, replace: true }],
    ['kb.topic:+={"q":{"learned":"a, b"}}', { path: ['kb', 'topic'], value: { q: { learned: ['a', 'b'] } }, append: true }],
    ['kb.topic.project:+={"learned":["a"]}', { path: T, value: { learned: ['a'] }, append: true }],
    ['kb:+={"topic":{}}', { path: ['kb'], value: { topic: {} }, append: true }],
  ])('%s', (text, expected) => {
    expect(op(text)).toEqual(expected);
  });

  // jp_config lib.rs `PartialAppConfig::assign`, lib_tests.rs
  // `test_partial_app_config_assign`: the directives are typed, with no
  // effect on kb's configuration.
  test.each(['inherit=true', 'inherit:=false', 'config_load_paths=foo,bar', 'config_load_paths:=["a"]', 'config_load_paths+=c', 'config_load_paths.0=x', 'extends=x'])('%s: checked, no effect', (text) => {
    expect(op(text)).toBeUndefined();
  });

  test.each([
    ['kb/maintainers', 'kb/maintainers'],
    ['./local.toml', './local.toml'],
    ['@./has=equals.toml', './has=equals.toml'],
    ['@kb/maintainers', 'kb/maintainers'],
    ['@ spaced.toml ', 'spaced.toml'],
  ])('%s loads file %s', (text, path) => {
    expect(parseCfg(text)).toEqual({ kind: 'file', path });
  });

  test.each([
    ['=x', 'missing key before `=`'],
    ['+=x', 'missing key before `=`'],
    ['kb..title=x', 'empty segment in key `kb..title`'],
    ['kb.topic.project.=x', 'empty segment'],
    ['@', 'missing file path'],
    ['', 'empty --cfg value'],
    ['kb.topic.project.enable=yes', '`kb.topic.project.enable` takes true or false, got "yes"'],
    ['kb.topic.project.title+=x', 'cannot append to `kb.topic.project.title`: it is a string, not an array'],
    ['kb.topic.project.enable:+=true', 'cannot append to `kb.topic.project.enable`: it is a boolean'],
    ['kb.topic.project+=x', 'cannot append to `kb.topic.project`: it is a table'],
    ['kb.topic.project=x', '`kb.topic.project` is a table'],
    ['kb.topic=x', '`kb.topic` is a table'],
    ['kb=x', '`kb` is a table'],
    ['kb.topic.project.learned:=[1', 'invalid JSON'],
    ['kb.topic.project.learned:+=nope', 'invalid JSON'],
    ['kb.topic.project.learned:=1', '`kb.topic.project.learned` must be an array of strings or a comma-separated string, got integer'],
    ['kb.topic.project.learned.0:=1', '`kb.topic.project.learned.0` must be a string, got integer'],
    ['kb.topic.project.learned.0.x=a', '`kb.topic.project.learned` holds strings'],
    ['kb.topic.project.learned:=["a",1]', '`kb.topic.project.learned[1]` must be a string, got integer'],
    ['kb.topic.project.title:=["a"]', '`kb.topic.project.title` must be a string, got array'],
    ['kb.topic.project.enable:="no"', '`kb.topic.project.enable` must be a boolean, got string'],
    ['kb.topic.project.title:=null', '`kb.topic.project.title` must be a string, got null'],
    ['kb.topic.project:={"enable":"no"}', '`kb.topic.project.enable` must be a boolean, got string'],
    ['kb.topic.project:=[]', '`kb.topic.project` must be a table, got array'],
    ['kb:={"topic":{"a":{"learned":1}}}', '`kb.topic.a.learned` must be an array of strings or a comma-separated string, got integer'],
    ['kb.topic.project.learned:+=[1]', '`kb.topic.project.learned[0]` must be a string, got integer'],
    // jp_config tool_tests.rs `test_tool_config_json_merge_unknown_key_errors`
    ['kb.topic.project:={"bogus":"val"}', 'unknown key `bogus` in topic `project`; known keys: enable, title'],
    ['kb.topic:={"p":{"titel":"x"}}', 'unknown key `titel` in topic `p`; did you mean `title`?'],
    ['kb:={"topics":{}}', 'unknown key `topics` in `kb`; did you mean `topic`?'],
    ['kb.topic.project:+=[1]', '`kb.topic.project` must be a table, got array'],
    ['kb.topic:+="x"', '`kb.topic` must be a table, got string'],
    // jp_config assignment_tests.rs `test_kv_assignment_try_bool`
    ['inherit=bar', '`inherit` takes true or false, got "bar"'],
    ['inherit:={"foo":"bar"}', '`inherit` must be a boolean, got table'],
    ['inherit:=null', '`inherit` must be a boolean, got null'],
    ['inherit+=true', 'cannot append to `inherit`: it is a boolean, not an array'],
    ['inherit.x=true', '`inherit` is a boolean: `inherit.x` names nothing'],
    // jp_config lib_tests.rs `test_partial_app_config_assign`
    ['config_load_paths:=[true]', '`config_load_paths[0]` must be a string, got boolean'],
    ['config_load_paths:=1', '`config_load_paths` must be an array of strings or a comma-separated string, got integer'],
    ['config_load_paths.0:=1', '`config_load_paths.0` must be a string, got integer'],
    ['config_load_paths.x=a', '`config_load_paths` is an array of strings: `config_load_paths.x` names nothing'],
  ])('%s -> UsageError', (text, message) => {
    let err: unknown;
    try {
      op(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toContain(message);
    expect((err as UsageError).where).toBe(`--cfg ${text}`);
    expect((err as UsageError).exitCode).toBe(2);
  });
});
