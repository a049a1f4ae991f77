import { Fragment, useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { Box, Code, Text } from '@mantine/core';
import { plainPassage, readPassage, type Block, type Span } from '../lib/passage-markdown.ts';

interface Mark {
  start: number;
  end: number;
  kind: 'cited' | 'term';
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A pattern finding `phrase` in text whatever its whitespace (passages keep their line breaks, citations do not). */
function phrasePattern(phrase: string): string {
  return phrase.trim().split(/\s+/).map(escape).join('\\s+');
}

/** Where the cited sentences and the query terms are in the text a reader sees. */
function marksIn(text: string, cited: string[], terms: string[]): Mark[] {
  // A citation quotes the passage with its Markdown; the reader's text has none.
  const phrases = cited
    .map(plainPassage)
    .filter((phrase) => phrase.trim())
    .map(phrasePattern);
  const words = terms.filter((term) => term.length > 1).map(escape);
  if (!phrases.length && !words.length) return [];
  const pattern = new RegExp(
    [...phrases.map((phrase) => `(${phrase})`), words.length ? `(\\b(?:${words.join('|')})\\w*)` : '']
      .filter(Boolean)
      .join('|'),
    'gi',
  );
  return [...text.matchAll(pattern)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    kind: words.length > 0 && match[phrases.length + 1] !== undefined ? 'term' : 'cited',
  }));
}

/**
 * A passage as a person reads it: its Markdown shown as headings, emphasis and lists (or, `inline`, as
 * one run of text for a preview), with the cited sentences marked (the first scrolled into view) and
 * the query terms highlighted. Nothing in a passage is ever interpreted as HTML.
 */
export function Highlighted({
  text,
  cited = [],
  terms = [],
  inline = false,
}: {
  text: string;
  cited?: string[];
  terms?: string[];
  inline?: boolean;
}) {
  const first = useRef<HTMLElement>(null);
  const passage = readPassage(text);
  const marks = marksIn(passage.plainText, cited, terms);
  const hasCited = marks.some((mark) => mark.kind === 'cited');
  useEffect(() => {
    if (hasCited) first.current?.scrollIntoView({ block: 'center' });
  }, [hasCited, text]);

  const marker = { first, used: false };
  const spansOf = (block: Block) => block.spans.map((span, index) => renderSpan(span, index, marks, marker));
  if (inline)
    return passage.blocks.map((block, index) => (
      <Fragment key={index}>
        {index > 0 && ' '}
        {spansOf(block)}
      </Fragment>
    ));
  return passage.blocks.map((block, index) => <PassageBlock key={index} block={block} content={spansOf(block)} />);
}

function PassageBlock({ block, content }: { block: Block; content: ReactNode }) {
  switch (block.kind) {
    case 'heading':
      return (
        <Text fw={700} fz={block.level === 1 ? 'lg' : 'md'} mt="xs" mb={4} className="passage-heading">
          {content}
        </Text>
      );
    case 'item':
      return (
        <Box pl="lg" pos="relative" my={2}>
          <Box component="span" pos="absolute" left={4} c="dimmed" aria-hidden>
            {block.number ?? '•'}
          </Box>
          {content}
        </Box>
      );
    case 'quote':
      return (
        <Box pl="sm" my={4} c="dimmed" style={{ borderLeft: '3px solid var(--mantine-color-default-border)' }}>
          {content}
        </Box>
      );
    case 'code':
      return (
        <Code block my={4}>
          {content}
        </Code>
      );
    default:
      return <Box mb="xs">{content}</Box>;
  }
}

/** One styled run of text, cut where marks begin and end. */
function renderSpan(
  span: Span,
  key: number,
  marks: Mark[],
  marker: { first: RefObject<HTMLElement | null>; used: boolean },
): ReactNode {
  const end = span.offset + span.text.length;
  const pieces: ReactNode[] = [];
  let at = span.offset;
  for (const mark of marks) {
    if (mark.end <= at || mark.start >= end) continue;
    if (mark.start > at) pieces.push(span.text.slice(at - span.offset, mark.start - span.offset));
    const stop = Math.min(mark.end, end);
    const piece = span.text.slice(Math.max(mark.start, at) - span.offset, stop - span.offset);
    if (mark.kind === 'term')
      pieces.push(
        <mark key={mark.start} className="term">
          {piece}
        </mark>,
      );
    else {
      const ref = marker.used ? undefined : marker.first;
      marker.used = true;
      pieces.push(
        <mark key={mark.start} ref={ref} className="cited" data-testid="cited-sentence">
          {piece}
        </mark>,
      );
    }
    at = stop;
  }
  if (at < end) pieces.push(span.text.slice(at - span.offset));
  const content = <Fragment key={key}>{pieces}</Fragment>;
  if (span.code) return <code key={key}>{content}</code>;
  if (span.strong && span.emphasis)
    return (
      <strong key={key}>
        <em>{content}</em>
      </strong>
    );
  if (span.strong) return <strong key={key}>{content}</strong>;
  if (span.emphasis) return <em key={key}>{content}</em>;
  return content;
}
