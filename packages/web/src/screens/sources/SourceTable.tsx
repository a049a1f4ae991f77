import { memo, useRef, useState } from 'react';
import { ActionIcon, Badge, Box, Button, Progress, Table } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Link } from 'react-router-dom';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { formatBytes, formatDate } from '../../lib/format.ts';
import { progressOf, statusColors } from './progress.ts';
import { SourceActions } from './SourceActions.tsx';

const rowHeight = 64;

/** Every source in one scrollable table; only the rows in view are rendered, so thousands scroll smoothly. */
export function SourceTable({
  sources,
  onChanged,
  onDeleted,
  onReview,
}: {
  sources: SourceResponseBody[];
  onChanged: (id: string) => void;
  onDeleted: (id: string) => void;
  onReview: (source: SourceResponseBody) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: sources.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();
  const before = items.length ? items[0].start : 0;
  const after = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;

  return (
    <Box
      ref={scroller}
      h="calc(100dvh - 330px)"
      mih={320}
      style={{
        overflow: 'auto',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
      data-testid="source-scroller"
      tabIndex={0}
      aria-label="Sources table"
    >
      <Table stickyHeader highlightOnHover verticalSpacing={6} layout="fixed" aria-rowcount={sources.length + 1}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Source</Table.Th>
            <Table.Th w={{ base: 170, sm: 260 }}>Progress</Table.Th>
            <Table.Th w={180} className="source-wide">
              Tags
            </Table.Th>
            <Table.Th w={150} className="source-widest">
              Added
            </Table.Th>
            <Table.Th w={48}>
              <span className="visually-hidden">Actions</span>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {before > 0 && <tr aria-hidden="true" style={{ height: before }} />}
          {items.map((item) => (
            <SourceRow
              key={sources[item.index].id}
              source={sources[item.index]}
              index={item.index}
              onChanged={onChanged}
              onDeleted={onDeleted}
              onReview={onReview}
            />
          ))}
          {after > 0 && <tr aria-hidden="true" style={{ height: after }} />}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

interface RowProps {
  source: SourceResponseBody;
  index: number;
  onChanged: (id: string) => void;
  onDeleted: (id: string) => void;
  onReview: (source: SourceResponseBody) => void;
}

/** One row; unchanged rows are not rendered again while the table scrolls or other rows update. */
const SourceRow = memo(function SourceRow({ source, index, onChanged, onDeleted, onReview }: RowProps) {
  const progress = progressOf(source);
  const name = source.title ?? source.filename ?? source.origin_url ?? source.id;
  const detail = source.error_message ?? source.step_description ?? '';
  return (
    <tr className="source-row" style={{ height: rowHeight }} aria-rowindex={index + 2} data-source-id={source.id}>
      <td>
        <Link to={`/sources/${source.id}`} className="source-link" title={name}>
          {name}
        </Link>
        <div className="source-meta">
          {(source.file_type ?? source.source_type).toUpperCase()} · {formatBytes(source.file_size)} ·{' '}
          {source.chunk_count} {source.chunk_count === 1 ? 'chunk' : 'chunks'}
          {source.extraction_entities_count > 0 &&
            ` · ${source.extraction_entities_count} ${source.extraction_entities_count === 1 ? 'entity' : 'entities'}`}
        </div>
      </td>
      <td>
        <div className="source-progress-head">
          {source.status === 'awaiting_confirmation' ? (
            <Button
              size="compact-xs"
              variant="light"
              color="yellow"
              onClick={() => onReview(source)}
              aria-label={`Confirm domain of ${name}`}
            >
              Confirm domain
            </Button>
          ) : (
            <Badge size="sm" variant="light" color={statusColors[source.status]} data-testid="source-status">
              {source.paused ? 'Paused' : progress.label}
            </Badge>
          )}
          <span className="source-meta">{progress.value}%</span>
        </div>
        <Progress
          value={progress.value}
          color={progress.color}
          striped={progress.active}
          animated={progress.active}
          size="sm"
          aria-label={`${name}: ${progress.label}`}
        />
        <div className={source.status === 'error' ? 'source-meta source-error' : 'source-meta'} title={detail}>
          {detail || ' '}
        </div>
      </td>
      <td className="source-wide">
        <div className="source-tags">
          {source.tags.map((tag) => (
            <Badge key={tag.id} size="sm" variant="outline" color={tag.color ?? 'gray'}>
              {tag.name}
            </Badge>
          ))}
        </div>
      </td>
      <td className="source-widest source-meta">{formatDate(source.created_at)}</td>
      <td>
        <RowActions source={source} name={name} onChanged={onChanged} onDeleted={onDeleted} onReview={onReview} />
      </td>
    </tr>
  );
});

/** A plain button until first used: the full actions menu is mounted only for rows someone opens. */
function RowActions({ source, name, onChanged, onDeleted, onReview }: Omit<RowProps, 'index'> & { name: string }) {
  const [used, setUsed] = useState(false);
  if (used)
    return (
      <SourceActions
        source={source}
        onChanged={() => onChanged(source.id)}
        onDeleted={onDeleted}
        onReview={onReview}
        defaultOpened
      />
    );
  return (
    <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`} onClick={() => setUsed(true)}>
      <IconDots size={18} />
    </ActionIcon>
  );
}
