import { CloseButton, Group, Progress, Stack, Text } from '@mantine/core';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { useEndpoint, useEndpointPages } from '../../lib/data/use-endpoint.ts';
import { statusLabel } from './progress.ts';
import { fileStanding, membersStanding, type TrackedUpload, type UploadStanding } from './upload-progress.ts';

/** One dropped file's line: its name, where it stands in words, and a bar. */
function StandingLine({ name, standing }: { name: string; standing: UploadStanding | null }) {
  const label = standing?.label ?? 'Waiting';
  const active = !standing?.done;
  return (
    <div data-testid="upload-progress-item">
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text fz="sm" fw={500} truncate="end" title={name}>
          {name}
        </Text>
        <Text fz="sm" c={standing?.failed ? 'red' : 'dimmed'} style={{ flexShrink: 0 }}>
          {label}
        </Text>
      </Group>
      <Progress
        mt={4}
        size="sm"
        value={standing?.value ?? 100}
        color={standing?.failed ? 'red' : standing?.done ? 'teal' : 'blue'}
        striped={active}
        animated={active}
        aria-label={`${name}: ${label}`}
      />
    </div>
  );
}

function FileLine({ upload }: { upload: TrackedUpload }) {
  const source = useEndpoint(sourceEndpoints.get, { params: { source_id: upload.sourceIds[0] } });
  const standing = source.data ? fileStanding(source.data, statusLabel(source.data.status)) : null;
  return <StandingLine name={upload.name} standing={standing} />;
}

function ContainerLine({ upload, tagId }: { upload: TrackedUpload; tagId: string }) {
  const tagged = useEndpointPages(sourceEndpoints.list, { query: { tag_id: tagId } });
  const ids = new Set(upload.sourceIds);
  const members = tagged.data?.filter((source) => ids.has(source.id));
  const standing = members ? membersStanding(members, upload.sourceIds.length) : null;
  return <StandingLine name={upload.name} standing={standing} />;
}

/**
 * The files of the last drop while they are read: a scanned PDF page by page, an archive or mailbox
 * member by member. It follows the sources live, as the list below does.
 */
export function UploadProgress({ uploads, onDismiss }: { uploads: TrackedUpload[]; onDismiss: () => void }) {
  return (
    <Stack gap="xs" mt="md" role="region" aria-label="Upload progress">
      <Group justify="space-between" gap="xs">
        <Text fz="sm" fw={600}>
          Reading what you dropped
        </Text>
        <CloseButton size="sm" onClick={onDismiss} aria-label="Hide upload progress" />
      </Group>
      {uploads.map((upload, index) =>
        upload.container ? (
          <ContainerLine key={`${index}:${upload.name}`} upload={upload} tagId={upload.container.tagId} />
        ) : (
          <FileLine key={`${index}:${upload.name}`} upload={upload} />
        ),
      )}
    </Stack>
  );
}
