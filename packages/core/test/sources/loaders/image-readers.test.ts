import { describe, expect, it } from 'vitest';
import { defaultSettings, type OcrMode } from '@rhizome/contracts/settings';
import { imageFormat } from '../../../src/sources/loaders/image.ts';
import { imageReaders } from '../../../src/sources/vision.ts';

function settingsWith(mode: OcrMode, visionModel: string | null) {
  const settings = defaultSettings();
  settings.ocr.mode = mode;
  settings.llm.chat_provider = 'localllm';
  settings.llm.localllm_vision_model = visionModel;
  return settings;
}

/** Who reads an image under each ocr.mode, with and without a vision model. */
describe('image readers', () => {
  it('auto: the vision model when one is configured (tesseract when it gives no text), tesseract otherwise', () => {
    expect(imageReaders(settingsWith('auto', 'qwen3-vl:8b'), null, 'png')).toEqual({
      vision: true,
      ocr: false,
      ocrFallback: true,
      visionWarning: null,
    });
    expect(imageReaders(settingsWith('auto', null), null, 'png')).toMatchObject({
      vision: false,
      ocr: true,
      visionWarning: expect.stringMatching(/^No vision model/),
    });
    expect(imageReaders(defaultSettings(), null, 'jpeg')).toMatchObject({ vision: false, ocr: true });
  });

  it('both reads with the two, ocr and vision with one; BMP and TIFF never go to the model', () => {
    expect(imageReaders(settingsWith('both', 'qwen3-vl:8b'), null, 'png')).toEqual({
      vision: true,
      ocr: true,
      ocrFallback: false,
      visionWarning: null,
    });
    expect(imageReaders(settingsWith('ocr', 'qwen3-vl:8b'), null, 'png')).toEqual({
      vision: false,
      ocr: true,
      ocrFallback: false,
      visionWarning: null,
    });
    expect(imageReaders(settingsWith('vision', null), null, 'png')).toMatchObject({ vision: false, ocr: false });
    expect(imageReaders(settingsWith('auto', 'qwen3-vl:8b'), null, 'tiff')).toMatchObject({
      vision: false,
      ocr: true,
      visionWarning: 'Vision models do not read TIFF images',
    });
  });

  it('enable_vision=false reads neither: the image keeps its metadata only, as asked', () => {
    expect(imageReaders(settingsWith('both', 'qwen3-vl:8b'), false, 'png')).toEqual({
      vision: false,
      ocr: false,
      ocrFallback: false,
      visionWarning: null,
    });
  });

  it('tells BMP and TIFF by their headers, not text that starts with BM', () => {
    const bmp = Buffer.alloc(54);
    bmp.write('BM', 0, 'latin1');
    bmp.writeUInt32LE(40, 14);
    expect(imageFormat(bmp)).toBe('bmp');
    expect(imageFormat(Buffer.from('BMW owners club newsletter, spring issue'))).toBeNull();
    expect(imageFormat(Buffer.from('II*\0\x08\0\0\0', 'latin1'))).toBe('tiff');
    expect(imageFormat(Buffer.from('MM\0*\0\0\0\x08', 'latin1'))).toBe('tiff');
  });
});
