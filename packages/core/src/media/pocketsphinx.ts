/** The offline fallback: CMU pocketsphinx (Debian `pocketsphinx` + `pocketsphinx-en-us`). Weak, but needs no server. */
import { access } from 'node:fs/promises';
import { onPath, runTool } from './run-tool.ts';
import type { Transcriber, TranscriptSegment } from './transcriber.ts';
import { readWavLayout, wavSeconds } from './wav.ts';

const binary = 'pocketsphinx_continuous';
/** Where Debian's pocketsphinx-en-us puts the US English model, which the binary uses by default. */
const englishModel = '/usr/share/pocketsphinx/model/en-us';
/** pocketsphinx reads at about real time on one core; this leaves room on a busy machine. */
const secondsPerAudioSecond = 4;
const minTimeoutMs = 60_000;
/** Markers pocketsphinx prints beside words: utterance bounds, silence, noise. */
const nonWords = /^(<s>|<\/s>|<sil>|\[[A-Z_]+\]|\+\+.*\+\+)$/;

/** Whether the binary and its English model are installed. */
export async function pocketsphinxInstalled(): Promise<boolean> {
  if (!(await onPath(binary))) return false;
  return access(englishModel).then(
    () => true,
    () => false,
  );
}

export function pocketsphinxTranscriber(): Transcriber {
  return {
    name: 'pocketsphinx',
    async transcribe(wavPath, signal) {
      const seconds = wavSeconds(await readWavLayout(wavPath));
      const output = await runTool({
        tool: binary,
        debianPackage: 'pocketsphinx',
        args: ['-infile', wavPath, '-time', 'yes', '-logfn', '/dev/null'],
        signal,
        timeoutMs: Math.max(minTimeoutMs, seconds * secondsPerAudioSecond * 1000),
        maxOutputBytes: 64 * 1024 * 1024,
      });
      return utterances(output.toString('utf8'));
    },
  };
}

/**
 * With `-time yes` every utterance is a line of its words, then one line per word: `word start end
 * confidence`; alternative pronunciations carry `(2)`. An utterance becomes one segment.
 */
export function utterances(output: string): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  let current: { start: number; end: number; words: string[] } | null = null;
  const close = () => {
    if (current?.words.length) segments.push({ start: current.start, end: current.end, text: current.words.join(' ') });
    current = null;
  };
  for (const line of output.split('\n')) {
    const match = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)$/.exec(line.trim());
    if (!match) continue;
    const [, token, start, end] = match;
    if (token === '<s>') {
      close();
      current = { start: Number(start), end: Number(end), words: [] };
      continue;
    }
    if (token === '</s>') {
      close();
      continue;
    }
    if (nonWords.test(token)) continue;
    current ??= { start: Number(start), end: Number(end), words: [] };
    current.words.push(token.replace(/\(\d+\)$/, ''));
    current.end = Number(end);
  }
  close();
  return segments;
}
