import { Fragment } from 'react';
import { Anchor, Badge, Tooltip, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useInspector } from '../../components/Inspector.tsx';
import type { StoredCitation } from './stream-events.ts';

const marker = /\[\[\s*(cite|node|edge)\s*:\s*([^\]|]+?)\s*(?:\|([^\]]*))?\]\]/g;

/**
 * An answer's text with its markers as chips: `[[cite:<chunk>:S1|file]]` opens the passage at the
 * cited sentence, `[[node:ID|Label]]` opens the entity. While an answer streams its citations are not
 * resolved yet; they show as plain numbered chips until the stored answer replaces the stream.
 */
export function MessageContent({ content, citations }: { content: string; citations: Record<string, StoredCitation> }) {
  const { openNode, openPassage } = useInspector();
  const numbers = new Map<string, number>();
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const match of content.matchAll(marker)) {
    parts.push(<Fragment key={`t${last}`}>{content.slice(last, match.index)}</Fragment>);
    last = match.index + match[0].length;
    const [, kind, target, label] = match;
    if (kind === 'cite') {
      const number = numbers.get(target) ?? numbers.size + 1;
      numbers.set(target, number);
      const citation = citations[target];
      parts.push(
        citation ? (
          <Tooltip
            key={`c${match.index}`}
            label={`${citation.label}${citation.page_number !== null ? `, page ${citation.page_number}` : ''}: “${citation.sentence_text}”`}
            multiline
            maw={380}
            withinPortal
          >
            <UnstyledButton
              onClick={() => openPassage(citation.source_id, citation.chunk_id, [citation.sentence_text])}
              aria-label={`Citation ${number}: ${citation.label}`}
              data-testid="citation-chip"
              mx={2}
            >
              <Badge size="sm" variant="light" style={{ cursor: 'pointer', textTransform: 'none' }}>
                {number} · {citation.label}
              </Badge>
            </UnstyledButton>
          </Tooltip>
        ) : (
          <Badge key={`c${match.index}`} size="sm" variant="outline" color="gray" mx={2}>
            {number}
          </Badge>
        ),
      );
    } else if (kind === 'node') {
      parts.push(
        <UnstyledButton
          key={`n${match.index}`}
          onClick={() => openNode(target)}
          data-testid="entity-chip"
          aria-label={`Entity ${label ?? target}`}
        >
          <Badge size="sm" variant="dot" style={{ cursor: 'pointer', textTransform: 'none' }}>
            {label ?? target}
          </Badge>
        </UnstyledButton>,
      );
    } else {
      parts.push(<b key={`e${match.index}`}>{label ?? target}</b>);
    }
  }
  parts.push(<Fragment key="end">{content.slice(last)}</Fragment>);
  const entities = [
    ...new Set([...content.matchAll(marker)].filter((match) => match[1] === 'node').map((match) => match[2])),
  ];
  return (
    <div className="answer">
      {parts}
      {entities.length > 0 && (
        <div>
          <Anchor component={Link} to={`/graph?highlight=${entities.map(encodeURIComponent).join(',')}`} fz="xs">
            Show the entities of this answer in the graph
          </Anchor>
        </div>
      )}
    </div>
  );
}
