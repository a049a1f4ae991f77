import { useState } from 'react';
import { Alert, Button, Group, Modal, Progress, Radio, Stack, Text } from '@mantine/core';
import { sourceEndpoints, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import { messageOf } from '../../lib/api.ts';
import { sentenceCase } from '../../lib/sentence-case.ts';
import { useAction } from '../../lib/data/use-action.ts';

interface Proposal {
  detected_domain: string;
  confidence: number;
  low_confidence: boolean;
  ranking: { domain: string; score: number }[];
}

/** A detection score as the share of full confidence it is (scores above 1 are certain). */
function percentOf(score: number): number {
  return Math.round(100 * Math.min(1, Math.max(0, score)));
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
  const confirmDomain = useAction(sourceEndpoints.confirm);
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
      await confirmDomain.run({ params: { source_id: source.id }, body: domain ? { domain } : {} });
      onConfirmed();
      setChoice(null);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  const top = proposal?.ranking.slice(0, 6) ?? [];
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
        <Radio.Group
          value={domain}
          onChange={setChoice}
          label="Domain"
          description="How confident the detection is in each domain, out of 100%."
          name="domain"
        >
          <Stack gap={6} mt={6}>
            {top.map((entry) => {
              const name = sentenceCase(entry.domain);
              return (
                <Group key={entry.domain} gap="sm" wrap="nowrap">
                  <Radio
                    value={entry.domain}
                    label={entry.domain === proposal?.detected_domain ? `${name} (detected)` : name}
                    style={{ flex: '1 1 0', minWidth: 0 }}
                  />
                  <Progress
                    value={percentOf(entry.score)}
                    w={{ base: 90, sm: 180 }}
                    aria-label={`${name}: ${percentOf(entry.score)}% confidence`}
                  />
                  <Text fz="xs" c="dimmed" w={40} ta="right" data-testid="domain-score">
                    {percentOf(entry.score)}%
                  </Text>
                </Group>
              );
            })}
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
