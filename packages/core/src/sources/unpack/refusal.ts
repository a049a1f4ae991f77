import { Invalid } from '@rhizome/contracts/errors';

/**
 * An archive or mailbox refused whole (damaged, a bomb, an entry outside it, a link or a device): nothing
 * of it is stored. The message names the upload and the member at fault.
 */
export class UnpackRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnpackRefusal';
  }

  /** The 422 the upload is answered with (one entry of a batch upload's `errors`). */
  toInvalid(): Invalid {
    const message = `${this.message}; nothing of it was stored`;
    return new Invalid([{ loc: ['body'], msg: message, type: 'archive' }], message);
  }
}
