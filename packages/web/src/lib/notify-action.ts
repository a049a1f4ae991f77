import { notifications } from '@mantine/notifications';
import { messageOf } from './api.ts';

export interface Notice<T> {
  /** Shown in teal when the action succeeds; omit for a silent success. */
  success?: string | ((result: T) => string);
  /** The title of the red notification when the action fails; its message is the error. */
  failure: string;
}

/**
 * Runs an action (an API call and the list update that follows it) and tells how it went:
 * a teal notification on success, a red one with the error's message on failure. Never throws.
 */
export async function runWithNotice<T>(action: () => Promise<T>, notice: Notice<T>): Promise<void> {
  try {
    const result = await action();
    if (notice.success !== undefined) {
      const message = typeof notice.success === 'function' ? notice.success(result) : notice.success;
      notifications.show({ color: 'teal', message });
    }
  } catch (error) {
    notifications.show({ color: 'red', title: notice.failure, message: messageOf(error) });
  }
}
