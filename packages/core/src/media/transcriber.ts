/** The transcription port: speech in a 16 kHz mono WAV file becomes timed segments of text. */

export interface TranscriptSegment {
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
  text: string;
}

export interface Transcriber {
  /** Shown in the source's metadata: `pocketsphinx`, or the server's model. */
  name: string;
  transcribe(wavPath: string, signal: AbortSignal): Promise<TranscriptSegment[]>;
}

/** A transcriber that cannot be used as configured (no server and no offline fallback, a refused request). */
export class TranscriptionUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriptionUnavailableError';
  }
}
