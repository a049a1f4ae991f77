import { useState } from 'react';
import { Alert, Button, Group, Modal, Progress, Radio, Stack, Text } from '@mantine/core';
import { sourceEndpoints, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import { api, messageOf } from '../../lib/api.ts';

interface Proposal {
  detected_domain: string;
  confidence: number;
  low_confidence: boolean;
  ranking: { domain: string; score: number }[];
}

/** The detection proposal a parked source carries (an open object in the contract). */
function proposalOf(source: SourceResponseBody): Proposal | null {
  const raw = source.detection_proposal as Partial<Proposal> | null;
  if (!raw || typeof raw.detected_domain !== 'string' || !Array.isArray(raw.ranking)) return null;
  return {
    detected_domain: raw.detected_domain,
    confidence: Number(raw.confidence ?? 0),
    low_confidence: Boolean(raw.low_confidence),
    ranking: raw.ranking,
  };
}

/** The confirmation gate: the detected domain, its ranking, and the choice before extraction starts. */
export function ConfirmDomainModal({
  source,
  onClose,
  onConfirmed,
}: {
  source: SourceResponseBody | null;
  onClose: () => void;
  onConfirmed: () => void;
}) {
  const proposal = source ? proposalOf(source) : null;
  const [choice, setChoice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const domain = choice ?? proposal?.detected_domain ?? null;

  async function confirm() {
    if (!source) return;
    setBusy(true);
    setError(null);
    try {
      await api.call(sourceEndpoints.confirm, { params: { source_id: source.id }, body: domain ? { domain } : {} });
      onConfirmed();
      setChoice(null);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  const top = proposal?.ranking.slice(0, 6) ?? [];
  const best = Math.max(0.0001, ...top.map((entry) => entry.score));
  return (
    <Modal
      opened={source !== null}
      onClose={onClose}
      title={`Confirm the domain of “${source?.title ?? source?.filename ?? ''}”`}
      size="lg"
    >
      <Stack gap="sm">
        <Text fz="sm">
          Extraction uses the domain's entity and relationship types. Rhizome detected one from the text; keep it or
          pick another.
        </Text>
        {proposal?.low_confidence && <Alert color="yellow">The detection is not confident: check the choice.</Alert>}
        {!proposal && (
          <Text fz="sm" c="dimmed">
            No detection is available for this source; the default domain will be used.
          </Text>
        )}
        <Radio.Group value={domain} onChange={setChoice} label="Domain" name="domain">
          <Stack gap={6} mt={6}>
            {top.map((entry) => (
              <Group key={entry.domain} gap="sm" wrap="nowrap">
                <Radio
                  value={entry.domain}
                  label={entry.domain === proposal?.detected_domain ? `${entry.domain} (detected)` : entry.domain}
                  w={200}
                />
                <Progress value={(100 * entry.score) / best} flex={1} aria-label={`${entry.domain} score`} />
                <Text fz="xs" c="dimmed" w={48} ta="right">
                  {entry.score.toFixed(2)}
                </Text>
              </Group>
            ))}
          </Stack>
        </Radio.Group>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Later
          </Button>
          <Button onClick={() => void confirm()} loading={busy}>
            Confirm and extract
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
