import { Tabs } from '@mantine/core';
import { IconActivity, IconBolt, IconRoute, IconTool } from '@tabler/icons-react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ExecutionsTab } from './ExecutionsTab.tsx';
import { ToolsTab } from './ToolsTab.tsx';
import { TriggersTab } from './TriggersTab.tsx';
import { WorkflowsTab } from './WorkflowsTab.tsx';

const tabs = [
  { value: 'workflows', label: 'Workflows', icon: IconRoute, panel: WorkflowsTab },
  { value: 'executions', label: 'Executions', icon: IconActivity, panel: ExecutionsTab },
  { value: 'triggers', label: 'Triggers', icon: IconBolt, panel: TriggersTab },
  { value: 'tools', label: 'Tools', icon: IconTool, panel: ToolsTab },
];

/** Workflows, their executions, the triggers that start them and the tools their steps use; the tab is in the address. */
export default function AutomationScreen() {
  const { tab = 'workflows' } = useParams();
  const navigate = useNavigate();
  if (!tabs.some((entry) => entry.value === tab)) return <Navigate to="/automation" replace />;
  return (
    <>
      <PageHeader
        title="Automation"
        description="Workflows run tools step by step; triggers start them when something happens in the graph."
      />
      <Tabs value={tab} onChange={(value) => value && navigate(`/automation/${value}`)} keepMounted={false}>
        <Tabs.List mb="md">
          {tabs.map(({ value, label, icon: Icon }) => (
            <Tabs.Tab key={value} value={value} leftSection={<Icon size={16} />}>
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
    </>
  );
}
