import { useState } from 'react';

const prefix = 'rhizome.dismissed.';

/** A notice closed for the rest of this browser session (sessionStorage), under `key`. */
export function useDismissed(key: string): [dismissed: boolean, dismiss: () => void] {
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem(prefix + key) === '1');
  const dismiss = () => {
    sessionStorage.setItem(prefix + key, '1');
    setDismissed(true);
  };
  return [dismissed, dismiss];
}
