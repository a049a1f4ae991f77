/** Audio and video: ffmpeg extracts the speech as 16 kHz mono WAV, a transcriber turns it into timed text. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  extractSpeechWav,
  mediaDuration,
  openAiTranscriber,
  pocketsphinxInstalled,
  pocketsphinxTranscriber,
  ToolFailedError,
  ToolMissingError,
  TranscriptionUnavailableError,
  type Transcriber,
  type TranscriptSegment,
} from '../../media/index.ts';
import { TextAssembler } from './assemble.ts';
import { defineLoader } from './formats.ts';
import { mediaReadingOf } from './media-reading.ts';
import { UnreadableFileError, type LoadedDocument, type LoaderInput, type MediaReading } from './port.ts';

/** A passage of the transcript starts with its time and spans about this long, so a citation opens near the words. */
const windowSeconds = 30;
/** ffmpeg decodes far faster than real time; this bounds a file that makes it crawl. */
const minExtractTimeoutMs = 120_000;

const offlineFix = 'install pocketsphinx and pocketsphinx-en-us (tools/install-system-deps)';

/** The transcriber the settings ask for, or why none can be used (the message names the setting to change). */
export async function chooseTranscriber(reading: MediaReading['transcription']): Promise<Transcriber> {
  const server = () => {
    if (!reading.apiBase)
      throw new UnreadableFileError(
        'No transcription server is configured: set transcription.api_base to an OpenAI-compatible /v1 server (OpenAI, whisper.cpp, faster-whisper) and index the source again',
      );
    return openAiTranscriber({ ...reading, apiBase: reading.apiBase });
  };
  switch (reading.provider) {
    case 'none':
      throw new UnreadableFileError(
        "Audio and video are not transcribed (transcription.provider is 'none'): set transcription.provider to auto, openai or pocketsphinx and index the source again",
      );
    case 'openai':
      return server();
    case 'pocketsphinx':
      if (await pocketsphinxInstalled()) return pocketsphinxTranscriber();
      throw new UnreadableFileError(`transcription.provider is 'pocketsphinx' but it is not installed: ${offlineFix}`);
    case 'auto':
      if (reading.apiBase) return server();
      if (await pocketsphinxInstalled()) return pocketsphinxTranscriber();
      throw new UnreadableFileError(
        `No transcriber is available: set transcription.api_base to an OpenAI-compatible /v1 server, or ${offlineFix}, and index the source again`,
      );
  }
}

/** `[hh:mm:ss]`. */
export function timestamp(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const part = (value: number) => String(value).padStart(2, '0');
  return `${part(Math.floor(whole / 3600))}:${part(Math.floor((whole % 3600) / 60))}:${part(whole % 60)}`;
}

/**
 * Segments gathered into passages of about `windowSeconds`, each opening with its `[hh:mm:ss]` and
 * carrying its time range as the span's section.
 */
function assembleTranscript(segments: readonly TranscriptSegment[], maxChars: number) {
  const assembler = new TextAssembler(maxChars);
  let window: TranscriptSegment[] = [];
  const flush = () => {
    if (!window.length) return;
    const start = window[0].start;
    const end = window[window.length - 1].end;
    const text = `[${timestamp(start)}] ${window.map((segment) => segment.text).join(' ')}`;
    assembler.add(text, null, `${timestamp(start)}–${timestamp(end)}`);
    window = [];
  };
  for (const segment of segments) {
    if (window.length && segment.start - window[0].start >= windowSeconds) flush();
    window.push(segment);
  }
  flush();
  return assembler.result();
}

function loadRecording(format: 'audio' | 'video') {
  return async (input: LoaderInput): Promise<LoadedDocument> => {
    input.signal.throwIfAborted();
    const reading = mediaReadingOf(input.limits).transcription;
    const transcriber = await chooseTranscriber(reading);
    const directory = await mkdtemp(path.join(os.tmpdir(), 'rhizome-speech-'));
    try {
      const duration = await mediaDuration(input.path, input.signal, minExtractTimeoutMs).catch(() => null);
      const wav = path.join(directory, 'speech.wav');
      await extractSpeechWav(input.path, wav, {
        maxSeconds: reading.maxSeconds,
        timeoutMs: Math.max(minExtractTimeoutMs, Math.min(duration ?? reading.maxSeconds, reading.maxSeconds) * 500),
        signal: input.signal,
      }).catch((error: unknown) => {
        if (error instanceof ToolFailedError)
          throw new UnreadableFileError(`${input.filename} has no audio ffmpeg can read (${error.message})`);
        throw error;
      });
      const segments = await transcriber.transcribe(wav, input.signal);
      const transcript = assembleTranscript(segments, input.limits.maxTextChars);
      const warnings = [...transcript.warnings];
      if (duration !== null && duration > reading.maxSeconds)
        warnings.push(
          `only the first ${timestamp(reading.maxSeconds)} of ${timestamp(duration)} were transcribed (transcription.max_duration_seconds)`,
        );
      if (!segments.length) warnings.push(`${transcriber.name} recognised no speech in the recording`);
      return {
        ...transcript,
        warnings,
        format,
        kind: 'prose',
        title: null,
        metadata: { durationSeconds: duration, transcriber: transcriber.name, segments: segments.length },
      };
    } catch (error) {
      if (error instanceof ToolMissingError || error instanceof TranscriptionUnavailableError)
        throw new UnreadableFileError(`${input.filename} could not be transcribed: ${error.message}`);
      throw error;
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  };
}

export const audioLoader = defineLoader('audio', loadRecording('audio'));
export const videoLoader = defineLoader('video', loadRecording('video'));
