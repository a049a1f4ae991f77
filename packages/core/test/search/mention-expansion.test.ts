import { describe, expect, it } from 'vitest';
import { mentionedNames } from '../../src/search/mention-expansion.ts';

describe('mentionedNames', () => {
  it('gives the names a passage mentions beyond the query, in order, without opening function words', () => {
    const text =
      'Polish Easter is a 2011 German drama film directed by Jakob Ziemnicki. The Warner Bros release followed. In Berlin Film Festival news, it won.';
    expect(mentionedNames(text, 'Who is the mother of the director of film Polish Easter?')).toEqual([
      'Jakob Ziemnicki',
      'Warner Bros',
      'Berlin Film Festival',
    ]);
  });

  it('leaves out the query’s own subject and single capitalised words', () => {
    const text = 'Marie Curie was born in Warsaw. She married Pierre Curie.';
    expect(mentionedNames(text, 'Where was Marie Curie born?')).toEqual(['Pierre Curie']);
    expect(mentionedNames('Paris is large. Rome is old.', 'cities')).toEqual([]);
  });
});
