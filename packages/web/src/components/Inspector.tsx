import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { Drawer } from '@mantine/core';
import { NodeDrawer } from './NodeDrawer.tsx';
import { PassageViewer } from './PassageViewer.tsx';

interface Passage {
  sourceId: string;
  chunkId: string;
  cited: string[];
}

interface Inspector {
  openNode: (id: string) => void;
  openPassage: (sourceId: string, chunkId: string, cited?: string[]) => void;
}

const InspectorContext = createContext<Inspector | null>(null);

/** Lets any screen open an entity or a passage in a side panel without leaving what the person is doing. */
export function InspectorProvider({ children }: { children: ReactNode }) {
  const [nodeId, setNodeId] = useState<string | null>(null);
  const [passage, setPassage] = useState<Passage | null>(null);
  const openNode = useCallback((id: string) => {
    setPassage(null);
    setNodeId(id);
  }, []);
  const openPassage = useCallback((sourceId: string, chunkId: string, cited: string[] = []) => {
    setNodeId(null);
    setPassage({ sourceId, chunkId, cited });
  }, []);
  // A stable value: opening a panel must not re-render every screen that can open one.
  const inspector = useMemo(() => ({ openNode, openPassage }), [openNode, openPassage]);
  return (
    <InspectorContext.Provider value={inspector}>
      {children}
      <NodeDrawer
        nodeId={nodeId}
        onClose={() => setNodeId(null)}
        onOpenNode={openNode}
        onOpenPassage={(sourceId, chunkId, sentence) => openPassage(sourceId, chunkId, sentence ? [sentence] : [])}
      />
      <Drawer opened={passage !== null} onClose={() => setPassage(null)} position="right" size="lg" title="Passage">
        {passage && (
          <PassageViewer sourceId={passage.sourceId} chunkId={passage.chunkId} cited={passage.cited} withSourceLink />
        )}
      </Drawer>
    </InspectorContext.Provider>
  );
}

export function useInspector(): Inspector {
  const inspector = useContext(InspectorContext);
  if (!inspector) throw new Error('useInspector outside InspectorProvider');
  return inspector;
}
