/**
 * The Debian tools Rhizome reads media with (tesseract, pdftoppm, ffmpeg, pocketsphinx) and the
 * transcription port, each run as a bounded, cancellable subprocess or HTTP call.
 */
export { extractSpeechWav, mediaDuration } from './audio.ts';
export { ocrImage } from './ocr.ts';
export { openAiTranscriber } from './openai-transcriber.ts';
export { boundedDpi, rasterisePage } from './pdf-raster.ts';
export { pocketsphinxInstalled, pocketsphinxTranscriber } from './pocketsphinx.ts';
export { ToolFailedError, ToolMissingError } from './run-tool.ts';
export { transcriptionUsable } from './transcription-ready.ts';
export { TranscriptionUnavailableError, type Transcriber, type TranscriptSegment } from './transcriber.ts';
