import { Stack, Tabs } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader.tsx';
import { OpsBackups } from './OpsBackups.tsx';
import { OpsDatabases } from './OpsDatabases.tsx';
import { OpsLogs } from './OpsLogs.tsx';
import { OpsPackages } from './OpsPackages.tsx';
import { OpsRegistry } from './OpsRegistry.tsx';
import { OpsSystem } from './OpsSystem.tsx';

const tabs = [
  { value: 'databases', label: 'Databases', panel: OpsDatabases },
  { value: 'backups', label: 'Backups', panel: OpsBackups },
  { value: 'packages', label: 'Export and import', panel: OpsPackages },
  { value: 'registry', label: 'Registry', panel: OpsRegistry },
  { value: 'logs', label: 'Logs', panel: OpsLogs },
  { value: 'system', label: 'System', panel: OpsSystem },
];

/** Running the service: databases, backups, packages, the registry, logs, diagnostics and upgrades. */
export default function OperationsScreen() {
  const [params, setParams] = useSearchParams();
  const tab = tabs.find((candidate) => candidate.value === params.get('tab')) ?? tabs[0];
  return (
    <Stack gap="md">
      <PageHeader title="Operations" description="Databases, backups, packages, the registry, logs and upgrades." />
      <Tabs
        value={tab.value}
        onChange={(value) => setParams(value && value !== tabs[0].value ? { tab: value } : {})}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {tabs.map(({ value, label }) => (
            <Tabs.Tab key={value} value={value}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map(({ value, panel: Panel }) => (
          <Tabs.Panel key={value} value={value}>
            <Panel />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
