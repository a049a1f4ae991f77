import { describe, expect, it } from 'vitest';
import { namedAlternatives } from '../../src/search/named-alternatives.ts';

// [query, the names it sets side by side]
const cases: [string, string[]][] = [
  ['Who was born first, Hywel Teifi Edwards or Felix Schuster?', ['Hywel Teifi Edwards', 'Felix Schuster']],
  // A capitalised question word stays with the name; the search leaves function words out anyway.
  ['Are Marufabad and Nasamkhrali both located in the same country?', ['Are Marufabad', 'Nasamkhrali']],
  ['Which film came out first, 3 Dots or Dying God?', ['3 Dots', 'Dying God']],
  [
    'Who lived longer, Sir Thomas Wheate, 1St Baronet or Albert Le Brethon?',
    ['Sir Thomas Wheate, 1St Baronet', 'Albert Le Brethon'],
  ],
  ['Are both movies, Naked Tango and Algiers (Film), from the same country?', ['Naked Tango', 'Algiers (Film)']],
  // One name, or names not joined by a lone or/and, or nothing typed with capitals.
  ['Where was the director of film The Private Life Of Cinema born?', []],
  ['which Ubuntu version is Jammy Jellyfish', []],
  ['how do I compress a tar archive with gzip or xz', []],
  ['Who is older? Alice or Bob', ['Alice', 'Bob']],
];

describe('namedAlternatives', () => {
  it.each(cases)('%s', (query, names) => {
    expect(namedAlternatives(query)).toEqual(names);
  });
});
