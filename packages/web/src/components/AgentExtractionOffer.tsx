import { useState } from 'react';
import { ActionIcon, Alert, Anchor, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconRobot } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { mcpEndpoints } from '@rhizome/contracts/api/mcp';
import { api } from '../lib/api.ts';

/** Once dismissed in this browser, the offer stays away from every screen that shows it. */
const dismissedKey = 'rhizome:agent-extraction-offer-dismissed';

/**
 * Where the built-in, pattern-based extractor shows its limits (a source it extracted, a graph it built),
 * offers the richer path: an agent extracting over MCP, set up in two lines, or a model server.
 */
export function AgentExtractionOffer() {
  const [dismissed, setDismissed] = useState(() => window.localStorage.getItem(dismissedKey) !== null);
  if (dismissed) return null;
  const origin = window.location.origin;
  const endpointUrl = new URL(api.url(mcpEndpoints.post), origin).href;
  // The README's relay entry for this server, writable for this session alone, spaced so that it wraps between its words.
  const clientConfig = `{ "mcpServers": { "rhizome": { "command": "rhizome", "args": ["mcp", "--url", ${JSON.stringify(origin)}, "--api-key", "cc_live_…", "--mode", "write"] } } }`;
  const dismiss = () => {
    window.localStorage.setItem(dismissedKey, new Date().toISOString());
    setDismissed(true);
  };
  return (
    <Alert
      variant="light"
      color="blue"
      icon={<IconRobot size={18} />}
      title="A richer graph with an agent"
      withCloseButton
      closeButtonLabel="Dismiss the agent extraction offer"
      onClose={dismiss}
      role="region"
      data-testid="agent-extraction-offer"
    >
      <Stack gap={6}>
        <Text fz="sm">
          The builtin extractor finds names by patterns. For a richer graph, let an agent extract over MCP:
        </Text>
        <SetupLine label="MCP endpoint" value={endpointUrl} />
        <SetupLine label="MCP client configuration" value={clientConfig} />
        <Text fz="xs">
          Put an API key from{' '}
          <Anchor component={Link} to="/settings" fz="xs" c="inherit" underline="always">
            Settings → Account
          </Anchor>{' '}
          in place of <Code fz="xs">cc_live_…</Code>; <Code fz="xs">--mode write</Code> offers the agent the extraction
          tools, and the <Code fz="xs">extract_source</Code> prompt walks it through them. Or let a model extract:{' '}
          <Anchor component={Link} to="/settings?tab=providers" fz="xs" c="inherit" underline="always">
            connect a model server in Settings → Providers
          </Anchor>
          .
        </Text>
      </Stack>
    </Alert>
  );
}

/** One line of the setup, shown whole (wrapped between words) with a button that copies it. */
function SetupLine({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" fw={600}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', overflowWrap: 'break-word' }}>{value}</Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'}>
              <ActionIcon variant="light" onClick={copy} aria-label={`Copy the ${label}`}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
