import { Anchor, Tabs } from '@mantine/core';
import { IconGitMerge, IconListCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { RecentMerges } from './RecentMerges.tsx';
import { ReviewQueue } from './ReviewQueue.tsx';

/** Entities that are probably one, shown to the person who can decide; the tab is in the address. */
export default function DuplicatesScreen() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'merges' ? 'merges' : 'review';
  return (
    <>
      <Anchor component={Link} to="/graph" fz="sm">
        ← Graph
      </Anchor>
      <PageHeader
        title="Duplicates"
        description="Pairs of entities that are probably one. Merge them or keep them apart; a merge can be undone."
      />
      <Tabs value={tab} onChange={(value) => setParams(value === 'merges' ? { tab: value } : {})} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="review" leftSection={<IconListCheck size={16} />}>
            Review
          </Tabs.Tab>
          <Tabs.Tab value="merges" leftSection={<IconGitMerge size={16} />}>
            Recent merges
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="review">
          <ReviewQueue />
        </Tabs.Panel>
        <Tabs.Panel value="merges">
          <RecentMerges />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
