// The text search reads of a file (content/searched.ts): soft hyphens,
// which a reader never sees, are dropped in every format.
import { describe, expect, test } from 'bun:test';
import { searchedText, withoutSoftHyphens } from '../../../src/kb/content/searched.ts';

describe('soft hyphens', () => {
  test('as an entity and as the character, in Markdown, MDX, text and HTML; line ends kept', () => {
    expect(searchedText('Alle Konfigurations&shy;optionen\nund Dokumentations\u00adframework.\n', 'mdx')).toBe('Alle Konfigurationsoptionen\nund Dokumentationsframework.\n');
    expect(searchedText('Konfigurations&shy;optionen', 'md')).toBe('Konfigurationsoptionen');
    expect(searchedText('<p>Konfigurations&shy;optionen</p>', 'html')).toBe('Konfigurationsoptionen\n');
    expect(withoutSoftHyphens('no hyphen here & there; &shyness')).toBe('no hyphen here & there; &shyness');
  });
});
