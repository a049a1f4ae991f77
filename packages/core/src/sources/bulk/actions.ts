import type { SourceBulkAction } from '@rhizome/contracts/api/sources';
import { Invalid, NotFound } from '@rhizome/contracts/errors';
import type { SourceService } from '../service.ts';

/** What a bulk action does to one source; it throws, with the reason, when it cannot. */
export type SourceStep = (sourceId: string) => Promise<unknown>;

/**
 * What a bulk action does to each source, for a request and for a queue task alike. The tag of a tag or
 * untag is checked once up front: a missing one refuses the whole action (404), not each source.
 */
export async function sourceBulkStep(
  service: SourceService,
  action: SourceBulkAction,
  tagId: string | undefined,
  at: (string | number)[] = ['body'],
): Promise<SourceStep> {
  if (action === 'tag' || action === 'untag') {
    if (!tagId) throw new Invalid([{ loc: [...at, 'tag_id'], msg: `'${action}' needs a tag_id`, type: 'missing' }]);
    await service.tags.get(tagId);
  }
  switch (action) {
    case 'delete':
      return (sourceId) => service.delete(sourceId);
    case 'enable':
    case 'disable':
      return (sourceId) => service.patch(sourceId, { enabled: action === 'enable' });
    case 'tag':
      return async (sourceId) => {
        if (!(await service.tags.attach(sourceId, tagId!))) throw NotFound.resource('source', sourceId);
      };
    case 'untag':
      return async (sourceId) => {
        await service.require(sourceId);
        await service.tags.detach(sourceId, tagId!).catch((error: unknown) => {
          // Not carrying the tag is what untagging asks for.
          if (!(error instanceof NotFound)) throw error;
        });
      };
  }
}
