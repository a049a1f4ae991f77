import type { Db } from '../storage/index.ts';
import type { LoaderProgress } from './loaders/port.ts';
import { updateSource } from './repo.ts';

/**
 * Writes a page-by-page read onto its source as it goes: `vision_pending` while the vision model reads a
 * page, `indexing` while tesseract does, and the page in `step_description` ("scanned page 3 of 20").
 * The writes queue behind each other; `settle` waits for them and puts a source the model read last back
 * to `indexing`.
 */
export class PageProgressWriter {
  #chain: Promise<unknown> = Promise.resolve();
  #failure: unknown = null;
  #told = false;

  constructor(
    private readonly db: Db,
    private readonly sourceId: string,
  ) {}

  tell(progress: LoaderProgress): void {
    this.#told = true;
    const vision = progress.reader === 'vision';
    const changes = {
      status: vision ? ('vision_pending' as const) : ('indexing' as const),
      current_step: vision ? 'vision' : 'ocr',
      step_description: `Reading scanned page ${progress.done + 1} of ${progress.total} (page ${progress.page}) with ${vision ? 'the vision model' : 'OCR (tesseract)'}`,
      last_activity_at: new Date().toISOString(),
    };
    this.#chain = this.#chain
      .then(() => updateSource(this.db, this.sourceId, changes, ['indexing', 'vision_pending']))
      .catch((error: unknown) => {
        this.#failure ??= error;
      });
  }

  async settle(): Promise<void> {
    if (!this.#told) return;
    await this.#chain;
    if (this.#failure) throw this.#failure;
    await updateSource(
      this.db,
      this.sourceId,
      { status: 'indexing', current_step: 'preparing', step_description: 'Scanned pages read: preparing their text' },
      ['vision_pending'],
    );
  }
}
