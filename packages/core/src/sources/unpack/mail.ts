/**
 * A mail message as sources: the message itself as text headed by its sender, recipients, date and
 * subject (which also titles it and lands in its metadata), and each attachment as a further member.
 */
import { parseHTML } from 'linkedom';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { domSections } from '../loaders/dom-text.ts';
import { UnpackRefusal } from './refusal.ts';
import type { MemberSink } from './sink.ts';

interface Address {
  name: string;
  address: string;
}

function addresses(field: AddressObject | AddressObject[] | undefined): Address[] {
  const groups = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return groups.flatMap((group) =>
    group.value.map((entry) => ({ name: entry.name ?? '', address: entry.address ?? '' })),
  );
}

const shown = (list: Address[]) =>
  list.map(({ name, address }) => (name && address ? `${name} <${address}>` : name || address)).join(', ');

function htmlText(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return domSections(document.body)
    .map((section) => section.text)
    .join('\n\n');
}

/** The message's body: its text/plain part, else its HTML as text. */
function bodyOf(parsed: ParsedMail): string {
  if (parsed.text?.trim()) return parsed.text.trim();
  return typeof parsed.html === 'string' ? htmlText(parsed.html) : '';
}

/** An attachment's name as one path segment (its own slashes and dots would climb out of the message). */
function attachmentName(filename: string | undefined, index: number, contentType: string): string {
  const cleaned = (filename ?? '').replace(/[\\/]/g, '_').replace(/^\.+/, '').trim();
  if (cleaned) return cleaned;
  return contentType === 'message/rfc822' ? `attachment-${index}.eml` : `attachment-${index}`;
}

/** Reads one raw message and hands the message (named `messageName`) and its attachments to `sink`. */
export async function readMessage(raw: Buffer, messageName: string, sink: MemberSink): Promise<void> {
  let parsed: ParsedMail;
  try {
    parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
  } catch (error) {
    throw new UnpackRefusal(`'${messageName}' is not a readable mail message (${(error as Error).message})`);
  }
  const from = addresses(parsed.from);
  const to = addresses(parsed.to);
  const cc = addresses(parsed.cc);
  const subject = parsed.subject?.trim() || null;
  const date = parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.toISOString() : null;
  // Inline parts a message's HTML shows (a logo in a signature) are part of the message, not attachments.
  const attachments = parsed.attachments.filter((attachment) => !attachment.related);
  const names = attachments.map((attachment, index) =>
    attachmentName(attachment.filename, index + 1, attachment.contentType),
  );
  const header = [
    from.length ? `From: ${shown(from)}` : null,
    to.length ? `To: ${shown(to)}` : null,
    cc.length ? `Cc: ${shown(cc)}` : null,
    date ? `Date: ${date}` : null,
    subject ? `Subject: ${subject}` : null,
    names.length ? `Attachments: ${names.join(', ')}` : null,
  ].filter((line): line is string => line !== null);
  const text = `${header.join('\n')}\n\n${bodyOf(parsed)}\n`;
  await sink.add(messageName, Buffer.from(text, 'utf8'), {
    written: true,
    title: subject,
    metadata: {
      mail: {
        from,
        to,
        cc,
        date,
        subject,
        message_id: parsed.messageId ?? null,
        in_reply_to: parsed.inReplyTo ?? null,
        attachments: names,
      },
    },
  });
  for (const [index, attachment] of attachments.entries())
    await sink.add(`${messageName}/${names[index]}`, attachment.content);
}
