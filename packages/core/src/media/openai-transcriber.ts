/** Any OpenAI-compatible `/audio/transcriptions` server: OpenAI, whisper.cpp's server, faster-whisper's. */
import { namesMetadataHost } from '../providers/index.ts';
import { TranscriptionUnavailableError, type Transcriber, type TranscriptSegment } from './transcriber.ts';
import { readWavLayout, wavPieces, wavSeconds } from './wav.ts';

export interface OpenAiTranscriberOptions {
  /** Up to and including `/v1`. */
  apiBase: string;
  apiKey: string | null;
  model: string;
  language: string | null;
  requestTimeoutMs: number;
}

/** Ten minutes of 16 kHz mono 16-bit audio is 19 MB, under the 25 MB OpenAI takes in one request. */
const pieceSeconds = 600;

interface TranscriptionAnswer {
  text?: unknown;
  segments?: { start?: unknown; end?: unknown; text?: unknown }[];
}

export function openAiTranscriber(options: OpenAiTranscriberOptions): Transcriber {
  const url = `${options.apiBase.replace(/\/+$/, '')}/audio/transcriptions`;
  if (namesMetadataHost(new URL(url)))
    throw new TranscriptionUnavailableError(
      `transcription.api_base ${options.apiBase} is a link-local or cloud metadata address, which model servers are never reached at`,
    );
  return {
    name: options.model,
    async transcribe(wavPath, signal) {
      const layout = await readWavLayout(wavPath);
      const total = wavSeconds(layout);
      const segments: TranscriptSegment[] = [];
      for await (const piece of wavPieces(wavPath, layout, pieceSeconds)) {
        const answer = await requestPiece(url, options, piece.bytes, signal);
        const pieceEnd = Math.min(total, piece.startSeconds + pieceSeconds);
        segments.push(...segmentsOf(answer, piece.startSeconds, pieceEnd));
      }
      return segments;
    },
  };
}

async function requestPiece(
  url: string,
  options: OpenAiTranscriberOptions,
  wav: Buffer<ArrayBuffer>,
  signal: AbortSignal,
): Promise<TranscriptionAnswer> {
  const form = new FormData();
  form.append('file', new Blob([wav], { type: 'audio/wav' }), 'speech.wav');
  form.append('model', options.model);
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'segment');
  if (options.language) form.append('language', options.language);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      body: form,
      redirect: 'error',
      signal: AbortSignal.any([signal, AbortSignal.timeout(options.requestTimeoutMs)]),
    });
  } catch (error) {
    signal.throwIfAborted();
    throw new TranscriptionUnavailableError(
      `the transcription server at ${url} could not be reached (${reasonOf(error)}); check transcription.api_base`,
    );
  }
  if (!response.ok) {
    const body = (await response.text().catch(() => '')).trim().slice(0, 300);
    const fix =
      response.status === 401 || response.status === 403
        ? 'check transcription.api_key'
        : 'check transcription.api_base and transcription.model';
    throw new TranscriptionUnavailableError(
      `the transcription server answered HTTP ${response.status}${body ? ` (${body})` : ''}; ${fix}`,
    );
  }
  try {
    return (await response.json()) as TranscriptionAnswer;
  } catch {
    throw new TranscriptionUnavailableError(`the transcription server at ${url} did not answer with JSON`);
  }
}

/** Its segments moved to the piece's place in the recording; a server that gives only `text` yields one segment. */
function segmentsOf(answer: TranscriptionAnswer, offset: number, pieceEnd: number): TranscriptSegment[] {
  const timed = (answer.segments ?? []).flatMap((segment) =>
    typeof segment.text === 'string' && typeof segment.start === 'number' && typeof segment.end === 'number'
      ? [{ start: offset + segment.start, end: offset + segment.end, text: segment.text.trim() }]
      : [],
  );
  if (timed.length) return timed.filter((segment) => segment.text);
  const text = typeof answer.text === 'string' ? answer.text.trim() : '';
  return text ? [{ start: offset, end: pieceEnd, text }] : [];
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause =
    error.cause instanceof Error ? ((error.cause as NodeJS.ErrnoException).code ?? error.cause.message) : null;
  return cause ? `${error.message}: ${cause}` : error.message;
}
