import { Fragment, useEffect, useRef } from 'react';

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A pattern finding `phrase` in text whatever its whitespace (passages keep their line breaks, citations do not). */
function phrasePattern(phrase: string): string {
  return phrase.trim().split(/\s+/).map(escape).join('\\s+');
}

/**
 * Text with the cited sentences marked (scrolled into view) and the query terms highlighted. Plain
 * text only: nothing in a passage is ever interpreted as markup.
 */
export function Highlighted({ text, cited = [], terms = [] }: { text: string; cited?: string[]; terms?: string[] }) {
  const first = useRef<HTMLElement>(null);
  const phrases = cited.filter((phrase) => phrase.trim()).map(phrasePattern);
  const words = terms.filter((term) => term.length > 1).map(escape);
  const parts: { text: string; kind: 'plain' | 'cited' | 'term' }[] = [];
  if (phrases.length || words.length) {
    const pattern = new RegExp(
      [...phrases.map((phrase) => `(${phrase})`), words.length ? `(\\b(?:${words.join('|')})\\w*)` : '']
        .filter(Boolean)
        .join('|'),
      'gi',
    );
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      if (match.index > last) parts.push({ text: text.slice(last, match.index), kind: 'plain' });
      const isTerm = words.length > 0 && match[phrases.length + 1] !== undefined;
      parts.push({ text: match[0], kind: isTerm ? 'term' : 'cited' });
      last = match.index + match[0].length;
    }
    parts.push({ text: text.slice(last), kind: 'plain' });
  } else {
    parts.push({ text, kind: 'plain' });
  }
  const hasCited = parts.some((part) => part.kind === 'cited');
  useEffect(() => {
    if (hasCited) first.current?.scrollIntoView({ block: 'center' });
  }, [hasCited, text]);

  let marked = false;
  return (
    <>
      {parts.map((part, index) => {
        if (part.kind === 'plain') return <Fragment key={index}>{part.text}</Fragment>;
        if (part.kind === 'term')
          return (
            <mark key={index} className="term">
              {part.text}
            </mark>
          );
        const ref = marked ? undefined : first;
        marked = true;
        return (
          <mark key={index} ref={ref} className="cited" data-testid="cited-sentence">
            {part.text}
          </mark>
        );
      })}
    </>
  );
}
