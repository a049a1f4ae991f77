import fs from 'node:fs';
import readline from 'node:readline';
import { UnpackRefusal } from './refusal.ts';

/**
 * The messages of an mbox file, one raw message at a time (the file is never read whole): each starts
 * at a `From ` line after a blank line (or at the start), and `>From ` lines are unescaped.
 */
export async function* mailboxMessages(file: string, name: string, maxMessageBytes: number): AsyncGenerator<Buffer> {
  // latin1 keeps every byte as one character, so a message's 8-bit bytes come back unchanged.
  const lines = readline.createInterface({
    input: fs.createReadStream(file, { encoding: 'latin1' }),
    crlfDelay: Infinity,
  });
  let message: string[] | null = null;
  let size = 0;
  let previousBlank = true;
  let count = 0;
  for await (const line of lines) {
    if (previousBlank && line.startsWith('From ')) {
      if (message) yield Buffer.from(message.join('\n'), 'latin1');
      message = [];
      size = 0;
      count += 1;
      previousBlank = false;
      continue;
    }
    previousBlank = line === '';
    if (!message) continue;
    size += line.length + 1;
    if (size > maxMessageBytes)
      throw new UnpackRefusal(`'${name}' has a message larger than ${maxMessageBytes} bytes (message ${count})`);
    message.push(/^>+From /.test(line) ? line.slice(1) : line);
  }
  if (message) yield Buffer.from(message.join('\n'), 'latin1');
}
