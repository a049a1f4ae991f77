import { memo, useEffect, useRef, useState } from 'react';
import { ActionIcon, Badge, Box, Button, Checkbox, Progress, Table } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Link } from 'react-router-dom';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import { countOf, formatBytes, formatDate } from '../../lib/format.ts';
import { usePhone } from '../../lib/use-phone.ts';
import type { Selection } from '../../components/bulk/use-selection.ts';
import { progressOf, statusColors } from './progress.ts';
import { SourceActions } from './SourceActions.tsx';

/** Row heights the virtualiser counts on: a phone row stacks the status under the title. */
const rowHeights = { wide: 64, phone: 76 };

/**
 * Every source in one scrollable table; only the rows in view are rendered, so thousands scroll smoothly.
 * On a phone it keeps what matters (title and status, one column) and leaves the rest to the source page.
 * Each row has its checkbox for the bulk actions.
 */
export function SourceTable({
  sources,
  selection,
  onReview,
}: {
  sources: SourceResponseBody[];
  selection: Selection;
  onReview: (source: SourceResponseBody) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const phone = usePhone();
  const rowHeight = phone ? rowHeights.phone : rowHeights.wide;
  const virtualizer = useVirtualizer({
    count: sources.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 6,
  });
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight]);
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
            <Table.Th w={44}>
              <span className="visually-hidden">Select</span>
            </Table.Th>
            <Table.Th>{phone ? 'Source and status' : 'Source'}</Table.Th>
            {!phone && <Table.Th w={260}>Progress</Table.Th>}
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
              phone={phone}
              selected={selection.isSelected(sources[item.index].id)}
              onToggle={selection.toggle}
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
  phone: boolean;
  selected: boolean;
  onToggle: (id: string) => void;
  onReview: (source: SourceResponseBody) => void;
}

/** One row; unchanged rows are not rendered again while the table scrolls or other rows update. */
const SourceRow = memo(function SourceRow({ source, index, phone, selected, onToggle, onReview }: RowProps) {
  const progress = progressOf(source);
  const name = source.title ?? source.filename ?? source.origin_url ?? source.id;
  const detail = source.error_message ?? source.step_description ?? '';
  const facts = [
    (source.file_type ?? source.source_type).toUpperCase(),
    formatBytes(source.file_size),
    countOf(source.chunk_count, 'passage'),
    ...(source.extraction_entities_count > 0 ? [countOf(source.extraction_entities_count, 'entity', 'entities')] : []),
  ].join(' · ');
  const status = <SourceStatus source={source} name={name} label={progress.label} onReview={onReview} />;
  const bar = (
    <Progress
      value={progress.value}
      color={progress.color}
      striped={progress.active}
      animated={progress.active}
      size={phone ? 'xs' : 'sm'}
      aria-label={`${name}: ${progress.label}`}
    />
  );
  return (
    <tr
      className="source-row"
      style={{ height: phone ? rowHeights.phone : rowHeights.wide }}
      aria-rowindex={index + 2}
      data-source-id={source.id}
    >
      <td>
        <Checkbox aria-label={`Select ${name}`} checked={selected} onChange={() => onToggle(source.id)} />
      </td>
      <td>
        <Link to={`/sources/${source.id}`} className="source-link" title={name}>
          {name}
        </Link>
        {phone ? (
          <>
            <div className="source-progress-head">
              {status}
              <span className="source-meta">
                {progress.value}% · {facts}
              </span>
            </div>
            {bar}
          </>
        ) : (
          <div className="source-meta">{facts}</div>
        )}
      </td>
      {!phone && (
        <td>
          <div className="source-progress-head">
            {status}
            <span className="source-meta">{progress.value}%</span>
          </div>
          {bar}
          <div className={source.status === 'error' ? 'source-meta source-error' : 'source-meta'} title={detail}>
            {detail || ' '}
          </div>
        </td>
      )}
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
        <RowActions source={source} name={name} onReview={onReview} />
      </td>
    </tr>
  );
});

/** The status badge, or the button that opens the domain review a parked source waits for. */
function SourceStatus({
  source,
  name,
  label,
  onReview,
}: {
  source: SourceResponseBody;
  name: string;
  label: string;
  onReview: (source: SourceResponseBody) => void;
}) {
  if (source.status === 'awaiting_confirmation')
    return (
      <Button
        size="compact-xs"
        variant="light"
        color="yellow"
        onClick={() => onReview(source)}
        aria-label={`Confirm domain of ${name}`}
        style={{ flexShrink: 0 }}
      >
        Confirm domain
      </Button>
    );
  return (
    <Badge
      size="sm"
      variant="light"
      tt="none"
      color={statusColors[source.status]}
      data-testid="source-status"
      style={{ flexShrink: 0 }}
    >
      {source.paused ? 'Paused' : label}
    </Badge>
  );
}

/** A plain button until first used: the full actions menu is mounted only for rows someone opens. */
function RowActions({ source, name, onReview }: Pick<RowProps, 'source' | 'onReview'> & { name: string }) {
  const [used, setUsed] = useState(false);
  if (used) return <SourceActions source={source} onReview={onReview} defaultOpened />;
  return (
    <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`} onClick={() => setUsed(true)}>
      <IconDots size={18} />
    </ActionIcon>
  );
}
