import { runTool } from './run-tool.ts';

export interface ExtractAudioOptions {
  /** Longest stretch kept, from the start. */
  maxSeconds: number;
  timeoutMs: number;
  signal: AbortSignal;
}

/** The sample rate and layout speech recognisers expect. */
export const speechSampleRate = 16_000;

/**
 * Writes the first audio track of any recording ffmpeg reads (audio or video) as 16 kHz mono 16-bit
 * WAV, at most `maxSeconds` of it. A file without audio fails with ffmpeg's reason.
 */
export async function extractSpeechWav(
  inputPath: string,
  outputPath: string,
  options: ExtractAudioOptions,
): Promise<void> {
  await runTool({
    tool: 'ffmpeg',
    debianPackage: 'ffmpeg',
    args: [
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      inputPath,
      '-map',
      '0:a:0',
      '-vn',
      '-t',
      String(options.maxSeconds),
      '-ac',
      '1',
      '-ar',
      String(speechSampleRate),
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      outputPath,
    ],
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    maxOutputBytes: 0,
  });
}

/** The recording's duration in seconds as its container states it, or null when it states none. */
export async function mediaDuration(inputPath: string, signal: AbortSignal, timeoutMs: number): Promise<number | null> {
  const output = await runTool({
    tool: 'ffprobe',
    debianPackage: 'ffmpeg',
    args: ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', inputPath],
    signal,
    timeoutMs,
    maxOutputBytes: 4096,
  });
  const seconds = Number.parseFloat(output.toString('utf8').trim());
  return Number.isFinite(seconds) ? seconds : null;
}
