import type { Settings } from '@rhizome/contracts/settings';
import { pocketsphinxInstalled } from './pocketsphinx.ts';

/**
 * Whether `transcription.*` names a transcriber that can be used: a server for `openai` (and for `auto`
 * when one is set), else the offline fallback when it is installed. The same choice the loaders make.
 */
export async function transcriptionUsable(transcription: Settings['transcription']): Promise<boolean> {
  switch (transcription.provider) {
    case 'none':
      return false;
    case 'openai':
      return Boolean(transcription.api_base);
    case 'pocketsphinx':
      return pocketsphinxInstalled();
    case 'auto':
      return Boolean(transcription.api_base) || pocketsphinxInstalled();
  }
}
