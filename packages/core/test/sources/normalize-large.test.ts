import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { normalizeText, type NormalizeOptions } from '../../src/sources/text/normalize.ts';

const prose: NormalizeOptions = { kind: 'prose', enabled: null, removeStructuralNoise: true, normalizeNewlines: true };
const window = 1 << 20;

describe('normalising a large text', () => {
  it('composes NFC in runs that straddle the boundaries of the checked windows', () => {
    // A decomposed é right where the first window would end, and a run of several marks further on.
    const line = (length: number) => 'x'.repeat(length);
    const original = `${line(window - 1)}e\u0301z\n\n${line(window)}A\u030a\u0301\u00e9 o\u0308\n\nend`;
    const normalized = normalizeText(original, prose);
    expect(normalized.text).toBe(original.normalize('NFC'));
    const at = normalized.text.indexOf('\u00e9');
    expect(at).toBe(window - 1);
    expect(original.slice(normalized.offsetMap.toOriginal(at), normalized.offsetMap.toOriginal(at + 1, 'end'))).toBe(
      'e\u0301',
    );
  });

  it('adds no copy of a large two-byte text to the peak memory when it is already NFC', () => {
    // In a fresh process, so its peak RSS is this normalisation's own: a 35 M-character text (70 MB).
    const script = `
      import { normalizeText } from ${JSON.stringify(new URL('../../src/sources/text/normalize.ts', import.meta.url).pathname)};
      const text = 'Zoë and 東京 keep a ledger of ships.\\n'.repeat(1_000_000) + 'end';
      /x/.test(text); // flat before the peak is taken
      const before = process.resourceUsage().maxRSS;
      const normalized = normalizeText(text, { kind: 'prose', enabled: null, removeStructuralNoise: false, normalizeNewlines: false });
      console.log(JSON.stringify({ unchanged: normalized.text === text, growthMb: (process.resourceUsage().maxRSS - before) / 1024 }));
    `;
    const result = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }),
    ) as { unchanged: boolean; growthMb: number };
    expect(result.unchanged).toBe(true);
    expect(result.growthMb).toBeLessThan(20);
  });

  it('leaves a large text that is already NFC untouched', () => {
    const original = Array.from(
      { length: 3000 },
      (_, index) => `Paragraph ${index}: Zoë met Ærøskøbing's keeper; 東京 and Ελλάδα too.`,
    )
      .join('\n\n')
      .repeat(8);
    expect(original.length).toBeGreaterThan(window);
    expect(normalizeText(original, prose).text).toBe(original);
  });
});
