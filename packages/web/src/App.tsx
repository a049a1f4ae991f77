import { lazy, Suspense, useState } from 'react';
import { Center, Loader } from '@mantine/core';
import { Navigate, Route, Routes, useLocation, useNavigate, useParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { ChangesProvider } from './lib/ChangesProvider.tsx';
import { DataProvider } from './lib/data/DataProvider.tsx';
import { screenAfterSwitch } from './lib/screen-after-switch.ts';
import { Layout } from './shell/Layout.tsx';
import { NotFound } from './components/NotFound.tsx';
import { InspectorProvider } from './components/Inspector.tsx';

const Dashboard = lazy(() => import('./screens/Dashboard.tsx'));
const Sources = lazy(() => import('./screens/sources/SourcesScreen.tsx'));
const SourceDetail = lazy(() => import('./screens/sources/SourceDetail.tsx'));
const Search = lazy(() => import('./screens/Search.tsx'));
const Chat = lazy(() => import('./screens/chat/ChatScreen.tsx'));
const Graph = lazy(() => import('./screens/graph/GraphScreen.tsx'));
const Duplicates = lazy(() => import('./screens/graph/duplicates/DuplicatesScreen.tsx'));
const Settings = lazy(() => import('./screens/settings/SettingsScreen.tsx'));
const Operations = lazy(() => import('./screens/ops/OperationsScreen.tsx'));
const Templates = lazy(() => import('./screens/templates/TemplatesScreen.tsx'));
const TemplateEditor = lazy(() => import('./screens/templates/TemplateEditor.tsx'));
const Automation = lazy(() => import('./screens/automation/AutomationScreen.tsx'));
const WorkflowEditor = lazy(() => import('./screens/automation/WorkflowEditor.tsx'));
const ExecutionDetail = lazy(() => import('./screens/automation/ExecutionDetail.tsx'));
const Entities = lazy(() => import('./screens/entities/EntitiesScreen.tsx'));
const EntityDetail = lazy(() => import('./screens/entities/EntityDetail.tsx'));
const Relationships = lazy(() => import('./screens/relationships/RelationshipsScreen.tsx'));
const RelationshipDetail = lazy(() => import('./screens/relationships/RelationshipDetail.tsx'));
const Queue = lazy(() => import('./screens/queue/QueueScreen.tsx'));

/**
 * Addresses bookmarked in the system many users come from, and where each lives here; `:id` and `:tab`
 * carry over, and so does the query.
 */
const legacyRoutes: [from: string, to: string][] = [
  ['/nodes', '/entities'],
  ['/nodes/:id', '/entities/:id'],
  ['/edges', '/relationships'],
  ['/edges/:id', '/relationships/:id'],
  ['/queues', '/queue'],
  ['/lexicon', '/operations?tab=registry'],
  ['/automations', '/automation'],
  ['/automations/:id', '/automation/:id'],
];

/** Replaces an old address by its new one, filling in its parameters. */
function Moved({ to }: { to: string }) {
  const params = useParams();
  const { search } = useLocation();
  const [path, query] = to.split('?');
  const filled = path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const kept = new URLSearchParams(search);
  for (const [key, value] of new URLSearchParams(query)) kept.set(key, value);
  const suffix = kept.size ? `?${kept.toString()}` : '';
  return <Navigate to={`${filled}${suffix}`} replace />;
}

/** The signed-in interface: one change stream and one read cache for every screen. */
export function App() {
  return (
    <ChangesProvider>
      <DataProvider>
        <Screens />
      </DataProvider>
    </ChangesProvider>
  );
}

/** Screens load on first visit; after a database switch the cache is dropped and the screen on view reloads. */
function Screens() {
  const [database, setDatabase] = useState('');
  const client = useQueryClient();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const switched = (name: string) => {
    client.removeQueries();
    setDatabase(name);
    navigate(screenAfterSwitch(pathname, search), { replace: true });
  };
  return (
    <Layout onDatabaseSwitched={switched}>
      <InspectorProvider key={database}>
        <Suspense
          fallback={
            <Center mih={300}>
              <Loader aria-label="Loading" />
            </Center>
          }
        >
          <Routes key={database}>
            <Route path="/" element={<Dashboard />} />
            <Route path="/sources" element={<Sources />} />
            <Route path="/sources/:sourceId" element={<SourceDetail />} />
            <Route path="/search" element={<Search />} />
            <Route path="/chat" element={<Chat />} />
            <Route path="/chat/:chatId" element={<Chat />} />
            <Route path="/graph" element={<Graph />} />
            <Route path="/graph/duplicates" element={<Duplicates />} />
            <Route path="/settings" element={<Settings />} />
            <Route path="/operations" element={<Operations />} />
            <Route path="/templates" element={<Templates />} />
            <Route path="/templates/:templateId" element={<TemplateEditor />} />
            <Route path="/automation" element={<Automation />} />
            <Route path="/automation/:tab" element={<Automation />} />
            <Route path="/automation/workflows/:workflowId" element={<WorkflowEditor />} />
            <Route path="/automation/executions/:executionId" element={<ExecutionDetail />} />
            <Route path="/entities" element={<Entities />} />
            <Route path="/entities/:nodeId" element={<EntityDetail />} />
            <Route path="/relationships" element={<Relationships />} />
            <Route path="/relationships/:edgeId" element={<RelationshipDetail />} />
            <Route path="/queue" element={<Queue />} />
            {legacyRoutes.map(([from, to]) => (
              <Route key={from} path={from} element={<Moved to={to} />} />
            ))}
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </InspectorProvider>
    </Layout>
  );
}
