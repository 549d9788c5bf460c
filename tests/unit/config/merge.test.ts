import { describe, expect, test } from 'bun:test';
import { type Layer, type Leaf, type Origin, lookup, merge, toPlain } from '../../../src/config/merge.ts';

const origin = (name: string): Origin => ({ source: name, label: name });
const layer = (name: string, value: unknown, extra: Partial<Layer> = {}): Layer => ({ origin: origin(name), ops: [{ path: [], value }], ...extra });
const append = (name: string, path: string[], value: unknown): Layer => ({ origin: origin(name), ops: [{ path, value, append: true }] });
const leafAt = (layers: Layer[], path: string[]) => lookup(merge(layers), path) as Leaf;

describe('NOTES 20: merge', () => {
  test('tables merge key by key; a later scalar or array replaces', () => {
    const tree = merge([
      layer('a', { kb: { topic: { p: { title: 'A', subjects: 's', learned: ['x', 'y'] } } } }),
      layer('b', { kb: { topic: { p: { title: 'B', learned: ['z'] }, q: { subjects: 't' } } } }),
    ]);
    expect(toPlain(tree)).toEqual({ kb: { topic: { p: { title: 'B', subjects: 's', learned: ['z'] }, q: { subjects: 't' } } } });
  });

  test('later layers win, in order', () => {
    const layers = ['1', '2', '3'].map((n) => layer(n, { k: n }));
    expect(toPlain(merge(layers))).toEqual({ k: '3' });
    expect(toPlain(merge(layers.reverse()))).toEqual({ k: '1' });
  });

  test('append adds to the earlier array, or starts one', () => {
    const path = ['kb', 'topic', 'p', 'learned'];
    expect(leafAt([layer('a', { kb: { topic: { p: { learned: ['x'] } } } }), append('b', path, ['y', 'z'])], path).value).toEqual(['x', 'y', 'z']);
    expect(leafAt([append('b', path, ['y'])], path).value).toEqual(['y']);
    // appending onto a non-array replaces it
    expect(leafAt([layer('a', { kb: { topic: { p: { learned: 'x' } } } }), append('b', path, ['y'])], path).value).toEqual(['y']);
  });

  // jp_config assignment.rs `assign_to_entry` / `try_vec` (JP's `:=` and
  // `:+=` on a map).
  test('replace drops the table first; a table appended merges, appending to the arrays it reaches', () => {
    const base = layer('a', { kb: { topic: { p: { subjects: 's', learned: ['x'] } } } });
    const topics = ['kb', 'topic'];
    const replaced = merge([base, { origin: origin('b'), ops: [{ path: topics, value: { q: { subjects: 't' } }, replace: true }] }]);
    expect(toPlain(replaced)).toEqual({ kb: { topic: { q: { subjects: 't' } } } });
    const appended = merge([base, append('b', topics, { p: { title: 'T', learned: ['y'] }, q: { learned: ['z'] } })]);
    expect(toPlain(appended)).toEqual({ kb: { topic: { p: { subjects: 's', title: 'T', learned: ['x', 'y'] }, q: { learned: ['z'] } } } });
    expect((lookup(appended, [...topics, 'p', 'learned']) as Leaf).items?.map((o) => o.source)).toEqual(['a', 'b']);
  });

  test('provenance: the layer that last set each value, per array item too', () => {
    const path = ['kb', 'topic', 'p', 'learned'];
    const layers = [
      layer('file', { kb: { topic: { p: { learned: ['x'], title: 'T' } } } }),
      layer('--cfg', { kb: { topic: { p: { title: 'U' } } } }),
      append('-k', path, ['y']),
    ];
    const learned = leafAt(layers, path);
    expect(learned.origin.source).toBe('-k');
    expect(learned.items?.map((o) => o.source)).toEqual(['file', '-k']);
    expect(leafAt(layers, ['kb', 'topic', 'p', 'title']).origin.source).toBe('--cfg');
    // a table remembers the layer that declared it first
    expect(lookup(merge(layers), ['kb', 'topic', 'p'])?.origin.source).toBe('file');
  });

  test('keys keep the order of first appearance', () => {
    const tree = merge([layer('a', { kb: { topic: { b: {}, a: {} } } }), layer('b', { kb: { topic: { c: {}, b: { x: 1 } } } })]);
    expect(Object.keys((toPlain(tree) as { kb: { topic: object } }).kb.topic)).toEqual(['b', 'a', 'c']);
  });

  test('a table replaces a scalar and a scalar replaces a table', () => {
    expect(toPlain(merge([layer('a', { kb: { topic: 1 } }), layer('b', { kb: { topic: { p: {} } } })]))).toEqual({ kb: { topic: { p: {} } } });
    expect(toPlain(merge([layer('a', { kb: { topic: { p: {} } } }), layer('b', { kb: { topic: 1 } })]))).toEqual({ kb: { topic: 1 } });
  });

  test('merging does not alias layer data', () => {
    const learned = ['x'];
    const tree = merge([layer('a', { k: learned }), append('b', ['k'], ['y'])]);
    expect(toPlain(tree)).toEqual({ k: ['x', 'y'] });
    expect(learned).toEqual(['x']);
  });

});
