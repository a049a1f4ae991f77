import { Notifications } from '@mantine/notifications';
import { usePhone } from '../lib/use-phone.ts';
import { layers } from './theme.ts';

/** Most notices shown at once; later ones wait their turn. */
const noticeLimit = { desktop: 3, phone: 2 } as const;

/**
 * Where notices appear. On a wide screen, bottom right: never over the header controls or a dialog's
 * close button. On a phone that corner is the page's content (table rows, forms), so notices drop in
 * at the top, over the header, and leave sooner. They show over drawers and beneath dialogs (`layers`).
 */
export function Notices() {
  const phone = usePhone();
  return (
    <Notifications
      position={phone ? 'top-center' : 'bottom-right'}
      limit={phone ? noticeLimit.phone : noticeLimit.desktop}
      autoClose={phone ? 3000 : 4000}
      zIndex={layers.notices}
    />
  );
}
