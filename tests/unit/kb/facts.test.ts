// What a short text states (kb/write/facts.ts) and how two relate: the
// tokens (values, names, days, months, number words), and the verdicts on
// the cases the rule is for. The labelled pairs are measured by
// scripts/dedup-pairs.ts (npm run bench); these tests pin its parts.
import { describe, expect, test } from 'bun:test';
import { ALIGN_TOKENS, alignmentGaps, compareFacts, factOf, valueKey } from '../../../src/kb/write/facts.ts';
import { compared, judge, nearPairs } from '../../../src/kb/write/similar.ts';

const tokens = (text: string) => factOf(text).tokens.map((t) => `${t.key}:${t.kind}`);
const verdict = (a: string, b: string) => judge(compared(a), compared(b));

describe('tokens', () => {
  test('values: numbers with what is glued to them, ranges split, leading zeros and thousands separators dropped', () => {
    expect(tokens('Standup at 09:30, rent 1,250 EUR, v4.2.0 in us-east-1, open 10:00-12:00.')).toEqual([
      'standup:word',
      '9:30:value',
      'rent:word',
      '1250:value',
      'eur:name',
      'v4.2.0:value',
      'us-east-1:value',
      'open:word',
      '10:0:value',
      '12:0:value',
    ]);
    expect(valueKey('007')).toBe('7');
    expect(valueKey('0.5')).toBe('0.5');
  });

  test('days, months and number words are values, in several languages; May only as a month', () => {
    expect(tokens('Deploys on Fridays, vendredi and Freitag; twice in March; the second Monday.')).toEqual([
      'deplo:word',
      'day 4:value',
      'day 4:value',
      'day 4:value',
      '2:value',
      'month 2:value',
      '#2:value',
      'day 0:value',
    ]);
    expect(tokens('We may deploy in May.')).toEqual(['may:word', 'deplo:word', 'month 4:value']);
  });

  test('names: a capital where no sentence starts, or inside a word; negations and update words are not tokens', () => {
    expect(tokens('Kenji Sato owns it. Billing uses LaunchDarkly, not Unleash, now.')).toEqual([
      'kenji:word',
      'sato:name',
      'own:word',
      'bill:word',
      'use:word',
      'launchdarkl:name',
      'unleash:name',
    ]);
    const f = factOf('Do not deploy. Never on Fridays.');
    expect([f.negations, f.sentences]).toEqual([2, 2]);
  });

  test('linear and bounded: a huge text is read once', () => {
    const text = 'Word 12 Name '.repeat(200_000);
    const t0 = performance.now();
    const f = factOf(text);
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(f.tokens.length).toBeLessThanOrEqual(20_000);
  });
});

describe('verdicts', () => {
  test("the issue's cases: another fact of one frame is written; a changed deploy window is an update", () => {
    expect(verdict('Quokkas visit the office on Fridays.', 'Llamas visit the office on Mondays.').kind).toBe('distinct');
    const update = verdict('The deploy window is Tuesday 10:00-12:00 UTC.', 'The deploy window is Thursday 14:00-16:00 UTC.');
    expect(update).toMatchObject({ kind: 'update', was: ['Tuesday', '10:00', '12:00'], now: ['Thursday', '14:00', '16:00'] });
  });

  test('the same fact in other words is a duplicate; equal texts are exact', () => {
    expect(verdict('The deploy window is Tuesday 10:00-12:00 UTC.', 'Deploys happen on Tuesdays between 10:00 and 12:00 UTC.').kind).toBe('duplicate');
    expect(verdict('Maria Lopez owns the billing service.', 'The billing service is owned by Maria Lopez.').kind).toBe('duplicate');
    expect(verdict('Do not run migrations on Fridays.', 'Migrations must never be run on a Friday.').kind).toBe('duplicate');
    expect(verdict('A  fact.', 'a fact.').kind).toBe('exact');
  });

  test('a shorter form of a fact says nothing new: a duplicate', () => {
    expect(verdict('We tag every release on a Tuesday morning, after the changelog is merged.', 'We tag every release on a Tuesday morning.').kind).toBe('duplicate');
  });

  test('what differs decides: a value, a name, a slot, a negation', () => {
    expect(verdict('Production logs are kept for 90 days.', 'Production logs are now kept for 180 days.').kind).toBe('update');
    expect(verdict('Maria Lopez owns the billing service.', 'Kenji Sato owns the billing service.').kind).toBe('update');
    expect(verdict('Maria Lopez owns the billing service.', 'Maria Lopez owns the search service.').kind).toBe('distinct');
    expect(verdict('Deploys are allowed on Fridays.', 'Deploys are not allowed on Fridays.')).toMatchObject({ kind: 'update', was: [], now: ['not'] });
    expect(verdict('Ana prefers tea over coffee.', 'Ben prefers coffee over tea.').kind).toBe('distinct');
    // A place and a time changed together: another place's fact.
    expect(verdict('The Berlin office closes at 18:00 on Fridays.', 'The Madrid office closes at 15:00 on Fridays.').kind).toBe('distinct');
    expect(verdict('The Berlin office closes at 18:00 on Fridays.', 'The Berlin office closes at 15:00 on Fridays.').kind).toBe('update');
    expect(verdict('Tom flies to Heathrow at 07:45 on 12 June. Anna books the taxi.', 'Tom flies to Heathrow at 07:45 on 12 June. Anna books the car.').kind).toBe('duplicate');
  });

  test('texts that share words but not a fact are distinct', () => {
    expect(verdict('The project lead is Priya Nair.', 'Priya Nair presents the project update at the all-hands.').kind).toBe('distinct');
    expect(verdict('The printer on floor 2 only accepts A4 paper.', 'Paper towels are stored in the cupboard on floor 2.').kind).toBe('distinct');
  });

  test('a paragraph with a word changed here and there is one text edited, not another fact', () => {
    const a = 'We meet on Mondays to plan the week. Everyone brings the tickets they want to work on. The lead decides when two people want the same ticket.';
    const b = 'We meet on Mondays to plan the week. Everyone brings the issues they want to work on. The lead decides when two people want the same issue.';
    expect(verdict(a, b).kind).toBe('duplicate');
  });

  test('facts longer than ALIGN_TOKENS are compared as sets, in time linear in their length', () => {
    const long = Array.from({ length: ALIGN_TOKENS + 10 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i % 7}`).join(' ');
    expect(compareFacts(factOf(long), factOf(`${long} extra`), 0.99).kind).toBe('duplicate');
    expect(compareFacts(factOf(`${long} 2024`), factOf(`${long} 2025`), 0.99).kind).toBe('update');
  });

  test('below the cosine threshold nothing is compared further', () => {
    expect(compareFacts(factOf('Alpha beta.'), factOf('Gamma delta.'), 0.2).kind).toBe('distinct');
  });

  test('alignment gaps: what stands between the tokens two texts share in order', () => {
    const gaps = alignmentGaps(factOf('a1 b2 c3 d4').tokens, factOf('a1 x9 c3 d4 e5').tokens).map(([x, y]) => [x.map((t) => t.key), y.map((t) => t.key)]);
    expect(gaps).toEqual([
      [['b2'], ['x9']],
      [[], ['e5']],
    ]);
  });
});

describe('nearPairs: bounded', () => {
  test('equal texts are found whatever the search left out', () => {
    const same = 'the quick brown fox jumps over the lazy dog every single day';
    const { pairs } = nearPairs(Array.from({ length: 5 }, () => same));
    expect(pairs.length).toBeGreaterThanOrEqual(4);
    expect(pairs.every((p) => p.judgement.kind === 'exact')).toBe(true);
  });
});
