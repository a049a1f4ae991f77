import type { UploadOptionsInput } from '@rhizome/contracts/api/sources';
import type { filteringModes } from '@rhizome/contracts/settings';

/** How the domain is chosen: detected and confirmed by the person, detected and used at once, or named. */
export const detectThenConfirm = 'detect-confirm';
export const detectThenStart = 'detect-start';

/** A setting the upload may override, or leave to the server's settings (`default`). */
export type Override = 'default' | 'on' | 'off';

/** The choices of the upload panel, kept in this browser. */
export interface UploadChoices {
  extract: boolean;
  /** `detectThenConfirm`, `detectThenStart`, or a domain's name. */
  domain: string;
  depth: 'full' | 'quick';
  /** `null` leaves the mode to the settings. */
  filteringMode: (typeof filteringModes)[number] | null;
  contentFiltering: boolean;
  vision: Override;
  normalisation: Override;
  skipDuplicates: boolean;
}

/** The API's own defaults. */
export const defaultChoices: UploadChoices = {
  extract: true,
  domain: detectThenConfirm,
  depth: 'full',
  filteringMode: null,
  contentFiltering: true,
  vision: 'default',
  normalisation: 'default',
  skipDuplicates: false,
};

const overrideOf = (value: Override): boolean | null => (value === 'default' ? null : value === 'on');

/** The upload options the API takes for these choices (for a file upload and a URL import alike). */
export function uploadOptionsOf(choices: UploadChoices): UploadOptionsInput {
  const named = choices.domain !== detectThenConfirm && choices.domain !== detectThenStart;
  return {
    extract_entities: choices.extract,
    analysis_depth: choices.depth,
    domain: named ? choices.domain : null,
    auto_confirm: choices.domain === detectThenStart,
    filtering_mode: choices.filteringMode,
    content_filtering: choices.contentFiltering,
    enable_vision: overrideOf(choices.vision),
    enable_normalization: overrideOf(choices.normalisation),
    skip_duplicates: choices.skipDuplicates,
  };
}
