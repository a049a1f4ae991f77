import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Group, List, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconCloudUpload, IconLink } from '@tabler/icons-react';
import { notifications } from '@mantine/notifications';
import { sourceEndpoints, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import { messageOf } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { useLocation, useNavigate } from 'react-router-dom';
import { uploadFiles, type UploadFailure } from './upload-files.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { uploadOptionsOf } from './upload-options.ts';
import { UploadOptions } from './UploadOptions.tsx';
import { useUploadChoices } from './use-upload-choices.ts';
import { UploadProgress } from './UploadProgress.tsx';
import { trackUploads, type TrackedUpload } from './upload-progress.ts';

/** The address fragment (from the command palette) that opens the file chooser on arrival. */
const uploadFragment = '#upload';

/** Opens the file chooser once when the sources screen is reached at `#upload`, then drops the fragment. */
function useUploadOnArrival(openChooser: () => void) {
  const { hash, pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (hash !== uploadFragment) return;
    openChooser();
    navigate({ pathname, search }, { replace: true });
  }, [hash, pathname, search, navigate, openChooser]);
}

/** Drag-and-drop (or pick) many files, or import a web page by URL. */
export function UploadPanel({ onAdded }: { onAdded: (sources: SourceResponseBody[]) => void }) {
  const importPage = useAction(sourceEndpoints.importUrl);
  const [uploading, setUploading] = useState(false);
  const [failures, setFailures] = useState<UploadFailure[]>([]);
  const [tracked, setTracked] = useState<TrackedUpload[]>([]);
  const [choices, changeChoices, resetChoices] = useUploadChoices();
  const options = uploadOptionsOf(choices);
  const openRef = useRef<() => void>(null);
  const dropzoneRef = useRef<HTMLDivElement>(null);
  const openChooser = useCallback(() => {
    dropzoneRef.current?.focus();
    openRef.current?.();
  }, []);
  useUploadOnArrival(openChooser);
  const [url, setUrl] = useState('');
  const [importing, setImporting] = useState(false);
  const [urlError, setUrlError] = useState<string | null>(null);

  async function upload(files: File[]) {
    setUploading(true);
    setFailures([]);
    const { added, failed } = await uploadFiles(files, options, onAdded);
    setFailures(failed);
    setTracked(trackUploads(files, added));
    setUploading(false);
    if (added.length)
      notifications.show({
        color: 'teal',
        message: `${countOf(added.length, 'file')} added: reading and indexing has started.`,
      });
  }

  async function importUrl(event: FormEvent) {
    event.preventDefault();
    setImporting(true);
    setUrlError(null);
    try {
      const source = await importPage.run({
        body: { url: url.trim(), ...options },
      });
      onAdded([source]);
      setUrl('');
      notifications.show({ color: 'teal', message: `Imported ${source.title ?? source.origin_url ?? 'the page'}.` });
    } catch (error) {
      setUrlError(messageOf(error));
    } finally {
      setImporting(false);
    }
  }

  return (
    <Paper withBorder p="md" radius="md">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Dropzone
          onDrop={(files) => void upload(files)}
          openRef={openRef}
          ref={dropzoneRef}
          loading={uploading}
          multiple
          aria-label="Upload files: drop them here or press to choose"
          radius="md"
          p="md"
          data-testid="dropzone"
        >
          <Group justify="center" gap="md" mih={96} style={{ pointerEvents: 'none' }} wrap="nowrap">
            <IconCloudUpload size={40} stroke={1.4} color="var(--mantine-color-dimmed)" />
            <div>
              <Text fw={600}>Drop files here or click to choose</Text>
              <Text fz="sm" c="dimmed">
                PDF, Word, Excel, PowerPoint, Markdown, HTML, images and scans, audio and video, archives, mail… as many
                as you like.
              </Text>
            </div>
          </Group>
        </Dropzone>
        <Stack gap="xs" justify="space-between">
          <form onSubmit={importUrl}>
            <Group align="flex-start" gap="xs" wrap="nowrap">
              <TextInput
                flex={1}
                label="Import a web page"
                placeholder="https://example.org/article"
                value={url}
                type="url"
                onChange={(event) => setUrl(event.currentTarget.value)}
                error={urlError}
                leftSection={<IconLink size={16} />}
              />
              <Button type="submit" mt={25} loading={importing} disabled={!url.trim()}>
                Import
              </Button>
            </Group>
          </form>
          <Text fz="xs" c="dimmed">
            Files and pages are read with the options below.
          </Text>
        </Stack>
      </SimpleGrid>
      {tracked.length > 0 && <UploadProgress uploads={tracked} onDismiss={() => setTracked([])} />}
      <UploadOptions choices={choices} onChange={changeChoices} onReset={resetChoices} />
      {failures.length > 0 && (
        <Alert
          color="red"
          mt="md"
          title={`${failures.length} ${failures.length === 1 ? 'file was' : 'files were'} not added`}
          role="alert"
          withCloseButton
          onClose={() => setFailures([])}
        >
          <List size="sm">
            {failures.map((failure, index) => (
              <List.Item key={`${index}:${failure.filename}`}>
                <b>{failure.filename}</b>: {failure.error}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Paper>
  );
}
