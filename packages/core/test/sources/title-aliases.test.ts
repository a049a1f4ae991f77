import { describe, expect, it } from 'vitest';
import { titleAliases } from '../../src/sources/title.ts';

/** The other names a document's opening sentence gives the subject its title names. */
describe('title aliases', () => {
  it('reads the names redirect-like opening sentences give', () => {
    expect(
      titleAliases(
        'Marie Curie',
        'Marie Curie\n\nMarie Curie (born Maria Salomea Skłodowska; 7 November 1867) was a physicist.',
      ),
    ).toEqual(['Maria Salomea Skłodowska']);
    expect(
      titleAliases(
        'Nicki Minaj',
        'Onika Tanya Maraj-Petty (born December 8, 1982), known professionally as Nicki Minaj, is a rapper.',
      ),
    ).toEqual(['Onika Tanya Maraj-Petty']);
    expect(
      titleAliases(
        'Frederick I, Holy Roman Emperor',
        'Frederick Barbarossa (1122 – 10 June 1190), also known as Frederick I, was the Holy Roman Emperor.',
      ),
    ).toEqual(['Frederick Barbarossa', 'Frederick I']);
    expect(
      titleAliases('Aspirin Tablets', 'Aspirin Tablets, or Acetylsalicylic Acid Tablets, are a medication.'),
    ).toEqual(['Acetylsalicylic Acid Tablets']);
    expect(
      titleAliases('The Heart of Doreon', 'The Heart of Doreon( also known as In the Heart of Doreon) is a 1921 film.'),
    ).toEqual(['In the Heart of Doreon']);
    expect(
      titleAliases(
        'The Wallflower',
        '" The Wallflower"( also known as" Roll with Me, Henry" and" Dance with Me, Henry") is a 1955 song.',
      ),
    ).toEqual(['Roll with Me, Henry', 'Dance with Me, Henry']);
    expect(
      titleAliases(
        'Matilda II, Countess of Nevers',
        'Matilda II, Countess of Nevers (1234–1262), also known as Maud of Dampierre or Mathilda II of Bourbon, was a countess.',
      ),
    ).toEqual(['Maud of Dampierre', 'Mathilda II of Bourbon']);
  });

  it('reads a bare "also" in a parenthesis', () => {
    expect(titleAliases('Kestrel Point', 'Kestrel Point (also Falcon Head) is a headland.')).toEqual(['Falcon Head']);
    expect(titleAliases('Kestrel Point', 'Kestrel Point, also a nature reserve, is a headland.')).toEqual([]);
  });

  it('drops the title line a Markdown document opens with, and a nickname quoted in a name', () => {
    expect(
      titleAliases('Fred Le Deux', '# Fred Le Deux\n\nFrederick" Fred" Le Deux (born 1934) was a footballer.'),
    ).toEqual(['Frederick Le Deux']);
    expect(
      titleAliases('Frank Lloyd.txt', 'Frank William George Lloyd (2 February 1886 – 10 August 1952) was a director.'),
    ).toEqual(['Frank William George Lloyd']);
  });

  it('finds no alias in a date, a lone word, a sentence about something else or one that states no name', () => {
    expect(titleAliases('Leo Fong', 'Leo Fong (born November 23, 1928) is an actor.')).toEqual([]);
    expect(titleAliases('DJ Vice', 'DJ Vice, also known as Vice, is a disc jockey.')).toEqual([]);
    expect(
      titleAliases('Paris travel notes', 'The Eiffel Tower, also known as La Dame de Fer, opened in 1889.'),
    ).toEqual([]);
    expect(titleAliases('Marie Curie', 'Marie Curie, a Polish physicist, was born in Warsaw.')).toEqual([]);
    expect(titleAliases('Harbour Ice Records', 'The harbour froze in the winters of 1895 and 1947.')).toEqual([]);
    expect(titleAliases('Redis', 'Redis is an in-memory data store.')).toEqual([]);
  });
});
