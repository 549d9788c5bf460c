import { describe, expect, test } from 'bun:test';
import { learnTool, LEARN_PARAMETERS } from '../../../src/app/tools.ts';

describe('learnTool', () => {
  test('parameters are fixed; the description lists topics', () => {
    const t = learnTool([{ id: 'a', title: 'A' }, { id: 'b' }]);
    expect(t.name).toBe('learn');
    expect(t.parameters).toBe(LEARN_PARAMETERS);
    expect(t.description).toBe('Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- a (A)\n- b');
  });
});
