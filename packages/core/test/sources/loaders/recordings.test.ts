import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '@rhizome/contracts/settings';
import { mediaReading } from '../../../src/sources/loaders/media-reading.ts';
import { UnreadableFileError, type LoaderLimits } from '../../../src/sources/loaders/port.ts';
import { loadDocument } from '../../../src/sources/loaders/registry.ts';
import { sniffMediaType } from '../../../src/sources/loaders/sniff.ts';
import { utterances } from '../../../src/media/pocketsphinx.ts';
import { encodeAudio, noisyTextImage, spokenWav, stillVideo, toneWav } from './media-fixtures.ts';
import { startFakeTranscriber, type FakeTranscriber } from './fake-transcriber.ts';

function limitsWith(change: (settings: Settings) => void): LoaderLimits {
  const settings = defaultSettings();
  change(settings);
  return { maxUnpackedBytes: 64 * 1024 * 1024, maxEntries: 64, maxTextChars: 1_000_000, media: mediaReading(settings) };
}

/** Audio and video through ffmpeg to a transcriber: a real-HTTP OpenAI-shaped server, and pocketsphinx offline. */
describe('recordings', () => {
  let dir: string;
  let server: FakeTranscriber;
  let wav: string;
  let mp3: string;
  let mp4: string;
  const viaServer = () =>
    limitsWith((settings) => {
      settings.transcription.api_base = server.baseUrl;
      settings.transcription.api_key = 'sk-test';
      settings.transcription.model = 'whisper-large-v3';
    });
  const load = (file: string, limits: LoaderLimits) =>
    loadDocument({ path: file, filename: path.basename(file), limits, signal: new AbortController().signal });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rhizome-recordings-'));
    server = await startFakeTranscriber({ firstWords: 'hello world from the harbour', segmentSeconds: 20 });
    wav = await spokenWav(
      'hello world. this is a test. one two three four five. good morning',
      path.join(dir, 'greeting.wav'),
    );
    mp3 = await encodeAudio(wav, path.join(dir, 'greeting.mp3'));
    const still = await noisyTextImage(dir, ['Screencast'], path.join(dir, 'still.png'));
    mp4 = await stillVideo(still, wav, path.join(dir, 'screencast.mp4'));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('tells audio and video containers by their bytes', async () => {
    const head = async (file: string) => sniffMediaType((await readFile(file)).subarray(0, 16 * 1024), 'x.bin');
    expect(await head(wav)).toEqual({ format: 'audio', mediaType: 'audio/wav' });
    expect(await head(mp3)).toEqual({ format: 'audio', mediaType: 'audio/mpeg' });
    expect(await head(mp4)).toEqual({ format: 'video', mediaType: 'video/mp4' });
    expect(await head(await encodeAudio(wav, path.join(dir, 'greeting.flac')))).toMatchObject({
      mediaType: 'audio/flac',
    });
    expect(await head(await encodeAudio(wav, path.join(dir, 'greeting.ogg')))).toMatchObject({
      mediaType: 'audio/ogg',
    });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('plain words', 'utf16le')]);
    expect(sniffMediaType(utf16, 'notes.txt')?.format).toBe('text');
  });

  it('sends 16 kHz mono WAV to the server and keeps its segments with [hh:mm:ss] markers and time sections', async () => {
    const before = server.requests.length;
    const doc = await load(mp3, viaServer());
    expect(server.requests.slice(before)).toEqual([
      expect.objectContaining({
        model: 'whisper-large-v3',
        responseFormat: 'verbose_json',
        authorization: 'Bearer sk-test',
        sampleRate: 16_000,
        channels: 1,
      }),
    ]);
    expect(doc.format).toBe('audio');
    expect(doc.text).toMatch(/^\[00:00:00\] hello world from the harbour minute 0 second 0$/);
    expect(doc.spans).toEqual([
      expect.objectContaining({ page: null, section: expect.stringMatching(/^00:00:00–00:00:0\d$/) }),
    ]);
    expect(doc.metadata).toMatchObject({ transcriber: 'whisper-large-v3', segments: 1 });
  });

  it('places each passage of a long recording at its time: a marker every 30 s or so', async () => {
    const doc = await load(await toneWav(95, path.join(dir, 'tone.wav')), viaServer());
    expect(doc.text.match(/\[\d\d:\d\d:\d\d\]/g)).toEqual(['[00:00:00]', '[00:00:40]', '[00:01:20]']);
    expect(doc.spans.map((span) => span.section)).toEqual([
      '00:00:00–00:00:40',
      '00:00:40–00:01:20',
      '00:01:20–00:01:35',
    ]);
  });

  it('reads the sound track of a video', async () => {
    const doc = await load(mp4, viaServer());
    expect(doc.format).toBe('video');
    expect(doc.text).toContain('hello world from the harbour');
  });

  it('transcribes offline with pocketsphinx when no server is configured', async () => {
    const doc = await load(
      wav,
      limitsWith(() => {}),
    );
    expect(doc.metadata).toMatchObject({ transcriber: 'pocketsphinx' });
    expect(doc.text).toMatch(/^\[00:00:00\] hello world/);
  }, 60_000);

  it('fails with a message naming the setting when no transcriber can be used, or the server refuses', async () => {
    const off = limitsWith((settings) => (settings.transcription.provider = 'none'));
    await expect(load(wav, off)).rejects.toThrow(/transcription\.provider is 'none'/);
    const noServer = limitsWith((settings) => (settings.transcription.provider = 'openai'));
    await expect(load(wav, noServer)).rejects.toThrow(/set transcription\.api_base/);
    const refusing = await startFakeTranscriber({ firstWords: '', status: 404 });
    try {
      const limits = limitsWith((settings) => (settings.transcription.api_base = refusing.baseUrl));
      const failure = load(wav, limits);
      await expect(failure).rejects.toBeInstanceOf(UnreadableFileError);
      await expect(failure).rejects.toThrow(/HTTP 404 .*check transcription\.api_base and transcription\.model/);
    } finally {
      await refusing.close();
    }
  });

  it('fails a video without sound with a clear reason', async () => {
    const silent = path.join(dir, 'silent.webm');
    await writeFile(silent, '');
    const { execFile } = await import('node:child_process');
    await new Promise((resolve, reject) =>
      execFile(
        'ffmpeg',
        ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=blue:s=64x64:d=1', '-c:v', 'libvpx', silent],
        (error) => (error ? reject(error) : resolve(null)),
      ),
    );
    await expect(load(silent, viaServer())).rejects.toThrow(/silent\.webm has no audio ffmpeg can read/);
  });

  it('groups pocketsphinx words into utterances, dropping silences and alternates', () => {
    const output = [
      'hello world',
      '<s> 0.000 0.250 0.99',
      'hello 0.26 0.5 0.9',
      '<sil> 0.5 0.7 0.9',
      'world(2) 0.7 1.1 0.8',
      '</s> 1.1 1.3 1.0',
      'again',
      '<s> 3.0 3.1 1',
      'again 3.1 3.6 0.7',
      '</s> 3.6 3.7 1',
    ].join('\n');
    expect(utterances(output)).toEqual([
      { start: 0, end: 1.1, text: 'hello world' },
      { start: 3, end: 3.6, text: 'again' },
    ]);
  });
});
