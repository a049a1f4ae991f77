import type { SourceResponseBody } from '@rhizome/contracts/api/sources';

/** One dropped file and the sources it became: itself, or the members an archive or mailbox was unpacked into. */
export interface TrackedUpload {
  name: string;
  /** An archive or mailbox: its members, tagged with its name when unpacked. */
  container: { tagId: string } | null;
  sourceIds: string[];
}

/** The tag an unpacked upload's members carry: its name, as long as a tag name may be. */
const containerTagName = (name: string) => name.slice(0, 64);

/**
 * Which sources of an upload's answer each dropped file became. A member of an archive or mailbox carries
 * the tag named after it; a file uploaded as it is has its own name. Files that became no source are left out.
 */
export function trackUploads(files: readonly File[], added: readonly SourceResponseBody[]): TrackedUpload[] {
  const taken = new Set<string>();
  const tracked: TrackedUpload[] = [];
  for (const file of files) {
    const tagName = containerTagName(file.name);
    const members = added.filter((source) => !taken.has(source.id) && source.tags.some((tag) => tag.name === tagName));
    const tag = members[0]?.tags.find((candidate) => candidate.name === tagName);
    if (tag) {
      for (const member of members) taken.add(member.id);
      tracked.push({ name: file.name, container: { tagId: tag.id }, sourceIds: members.map((member) => member.id) });
      continue;
    }
    const itself = added.find((source) => !taken.has(source.id) && source.filename === file.name);
    if (!itself) continue;
    taken.add(itself.id);
    tracked.push({ name: file.name, container: null, sourceIds: [itself.id] });
  }
  return tracked;
}

/** Still being read and indexed (later steps, extraction and the graph, are the table's to show). */
const reading = new Set<SourceResponseBody['status']>(['pending', 'indexing', 'vision_pending']);

export interface UploadStanding {
  /** "page 3 of 20", "12 of 40 members read", "Indexed". */
  label: string;
  /** 0-100, or null while there is nothing to count yet. */
  value: number | null;
  done: boolean;
  failed: boolean;
}

/** The step text of a scanned PDF being read page by page: "Reading scanned page 3 of 20 (page 5) with …". */
const scannedPage = /scanned page (\d+) of (\d+)/;

/** Where one file stands: the page of a scan being read, else its status. */
export function fileStanding(source: SourceResponseBody, statusLabel: string): UploadStanding {
  if (source.status === 'error') return { label: statusLabel, value: 100, done: true, failed: true };
  if (!reading.has(source.status)) return { label: statusLabel, value: 100, done: true, failed: false };
  const page = scannedPage.exec(source.step_description ?? '');
  if (!page) return { label: statusLabel, value: null, done: false, failed: false };
  const [at, of] = [Number(page[1]), Number(page[2])];
  return {
    label: `${source.status === 'vision_pending' ? 'Vision model' : 'OCR'}: page ${at} of ${of}`,
    value: Math.round((100 * (at - 1)) / Math.max(1, of)),
    done: false,
    failed: false,
  };
}

/** Where an unpacked upload stands: how many of its members are read, and how many failed. */
export function membersStanding(members: readonly SourceResponseBody[], total: number): UploadStanding {
  const read = members.filter((member) => !reading.has(member.status)).length;
  const failed = members.filter((member) => member.status === 'error').length;
  const done = read >= total;
  return {
    label: `${read} of ${total} members read${failed ? `, ${failed} failed` : ''}`,
    value: Math.round((100 * read) / Math.max(1, total)),
    done,
    failed: done && failed === total,
  };
}
