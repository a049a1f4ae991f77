import { useLocalStorage } from '@mantine/hooks';
import { defaultChoices, type UploadChoices } from './upload-options.ts';

/** The upload choices last made in this browser; a stored choice the panel no longer knows falls back to its default. */
export function useUploadChoices(): [UploadChoices, (change: Partial<UploadChoices>) => void, () => void] {
  const [stored, setStored] = useLocalStorage<Partial<UploadChoices>>({
    key: 'rhizome-upload-options',
    defaultValue: {},
    getInitialValueInEffect: false,
  });
  const choices = { ...defaultChoices, ...stored };
  const change = (next: Partial<UploadChoices>) => setStored((current) => ({ ...current, ...next }));
  const reset = () => setStored({});
  return [choices, change, reset];
}
