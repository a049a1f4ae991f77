/**
 * An OpenAI-shaped `/v1/audio/transcriptions` server on 127.0.0.1 for the tests. It cannot hear, so it
 * reads what it can check in the upload — a 16 kHz mono WAV and its length — and answers a segment every
 * `segmentSeconds` whose text names its start within the piece (`minute 2 second 30`), the first one
 * opening with the words it was given, so a test can find the words by keyword and the time in the citation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTranscriptionRequest {
  model: string;
  responseFormat: string;
  authorization: string | null;
  sampleRate: number;
  channels: number;
  seconds: number;
}

export interface FakeTranscriber {
  baseUrl: string;
  requests: FakeTranscriptionRequest[];
  close(): Promise<void>;
}

function spokenTime(seconds: number): string {
  return `minute ${Math.floor(seconds / 60)} second ${Math.floor(seconds % 60)}`;
}

/** The parts of a multipart/form-data body, as name → bytes (enough for what the client sends). */
function formParts(body: Buffer, boundary: string): Map<string, Buffer> {
  const parts = new Map<string, Buffer>();
  const delimiter = Buffer.from(`--${boundary}`);
  let position = body.indexOf(delimiter);
  while (position >= 0) {
    const next = body.indexOf(delimiter, position + delimiter.length);
    if (next < 0) break;
    const part = body.subarray(position + delimiter.length + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, split).toString('utf8');
    const name = /name="([^"]+)"/.exec(headers)?.[1];
    if (name) parts.set(name, part.subarray(split + 4));
    position = next;
  }
  return parts;
}

export async function startFakeTranscriber(options: {
  firstWords: string;
  segmentSeconds?: number;
  status?: number;
}): Promise<FakeTranscriber> {
  const requests: FakeTranscriptionRequest[] = [];
  const every = options.segmentSeconds ?? 10;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const boundary = /boundary=(.+)$/.exec(request.headers['content-type'] ?? '')?.[1];
      if (request.url !== '/v1/audio/transcriptions' || request.method !== 'POST' || !boundary) {
        response.writeHead(404).end();
        return;
      }
      const parts = formParts(Buffer.concat(chunks), boundary);
      const wav = parts.get('file') ?? Buffer.alloc(0);
      const sampleRate = wav.length >= 44 ? wav.readUInt32LE(24) : 0;
      const channels = wav.length >= 44 ? wav.readUInt16LE(22) : 0;
      const seconds = sampleRate ? (wav.length - 44) / (sampleRate * channels * 2) : 0;
      requests.push({
        model: parts.get('model')?.toString('utf8') ?? '',
        responseFormat: parts.get('response_format')?.toString('utf8') ?? '',
        authorization: request.headers.authorization ?? null,
        sampleRate,
        channels,
        seconds,
      });
      if (options.status) {
        response.writeHead(options.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'model not found' } }));
        return;
      }
      // Times are the piece's own; the client places each piece in the recording.
      const segments = [];
      for (let start = 0; start < seconds; start += every) {
        const words = start === 0 ? `${options.firstWords} ` : '';
        segments.push({ start, end: Math.min(seconds, start + every), text: ` ${words}${spokenTime(start)}` });
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ text: segments.map((segment) => segment.text).join(''), segments }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
