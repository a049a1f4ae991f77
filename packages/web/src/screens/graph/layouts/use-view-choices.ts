import { useLocalStorage } from '@mantine/hooks';
import { isLayoutName, type LayoutName } from './layout-names.ts';

interface StoredView {
  layout?: string;
  labels?: boolean;
}

/** The canvas's layout and labels toggle as last chosen in this browser (an unknown stored layout reads as force). */
export function useViewChoices() {
  const [stored, setStored] = useLocalStorage<StoredView>({
    key: 'rhizome-graph-view',
    defaultValue: {},
    getInitialValueInEffect: false,
  });
  return {
    layout: (isLayoutName(stored.layout) ? stored.layout : 'force') as LayoutName,
    setLayout: (layout: LayoutName) => setStored((current) => ({ ...current, layout })),
    labels: stored.labels !== false,
    setLabels: (labels: boolean) => setStored((current) => ({ ...current, labels })),
  };
}
