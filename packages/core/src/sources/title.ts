/**
 * The title a document gives itself when its upload was titled by file name: the title its metadata
 * declares or its first heading (both found by the loader), else — only when the file name says nothing
 * of its subject — a short first line standing alone. The graph walk links passages through source
 * titles, so `scan_0042.pdf` or `doc-0001.txt` would link nothing.
 */
import type { LoadedDocument } from './loaders/port.ts';

/** Words a file name is made of that say what kind of file it is, not what it is about. */
const GENERIC_WORDS = new Set(
  'scan scanned document documents doc docs untitled img image images photo pic screenshot dsc file files page pages note notes export exported copy draft final new text txt data tmp temp output download attachment version rev readme item'.split(
    ' ',
  ),
);

/**
 * A file name names its subject when, without its extension and split on spaces, `-`, `_`, `.` and
 * camelCase, it has at least two words of letters that are not generic, and fewer digits than letters.
 */
export function fileNameNamesSubject(filename: string): boolean {
  const stem = filename.replace(/\.[a-z0-9]{1,5}$/i, '');
  const words = stem
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .split(/[\s\-_.]+/)
    .filter((word) => /^\p{L}{2,}$/u.test(word) && !GENERIC_WORDS.has(word.toLowerCase()));
  const letters = stem.match(/\p{L}/gu)?.length ?? 0;
  const digits = stem.match(/\p{N}/gu)?.length ?? 0;
  return words.length >= 2 && digits < letters;
}

const MAX_FIRST_LINE = 80;
/** A final period that ends an abbreviation (Jr., Inc., D.C.) or an ellipsis, not a sentence. */
const ABBREVIATION_END = /(?:^|\s)(?:\p{Lu}\p{Ll}{0,2}\.|(?:\p{L}\.){2,}|\S*\.\.\.)$/u;

/**
 * The first non-blank line when it stands alone as a title: at most 80 characters, followed by a blank
 * line and more text, with a letter in it, not a sentence (ending in `.` other than an abbreviation's,
 * `;`, `,` or `:`), not indented code or a call, not a list item, fence, comment or shebang.
 */
export function firstLineTitle(text: string): string | null {
  const match = /^(?:[ \t]*\r?\n)*([^\r\n]*)\r?\n[ \t]*\r?\n[\s\S]*\S/.exec(text.slice(0, 4096));
  if (!match) return null;
  const raw = match[1];
  const line = raw.trim();
  if (!line || line.length > MAX_FIRST_LINE || !/\p{L}/u.test(line)) return null;
  if (/^(?: {4}|\t)/.test(raw)) return null;
  if (/[;,:]$/.test(line) || (/\.$/.test(line) && !ABBREVIATION_END.test(line))) return null;
  if (/^(?:[-*+•>#|]|\d+[.)]\s|```|~~~|\/\/|\/\*|<!--|#!|\$ )/.test(line)) return null;
  if (/[{}]$|^[\w.]+\(.*\)$/.test(line)) return null;
  return line;
}

/** The document's title for a source uploaded as `filename`, or null to keep the file name. */
export function documentTitle(document: LoadedDocument, filename: string): string | null {
  const declared = document.title?.trim();
  if (declared) return declared;
  if (document.kind !== 'prose' || fileNameNamesSubject(filename)) return null;
  return firstLineTitle(document.text);
}

/** What introduces another name of the subject: "also known as", "known professionally as", "a.k.a.", "born", "also" … */
const ALIAS_MARKER =
  /^(?:or )?(?:(?:(?:also|better|more|most|commonly|formerly|otherwise|popularly|sometimes|previously|simply|often|mostly|widely|originally|later) )*(?:known|referred to|credited|spelled|styled|titled)(?: (?:professionally|popularly|commonly|simply|mononymously|locally|internationally))? as|(?:also|formerly|sometimes|often|commonly|originally) (?:called|named)|a\.?k\.?a\.?|born|also)(?:\s+|(?=["“]))/iu;
/** Where a sentence's subject ends: a parenthesis, ", or", a verb, an alias marker. */
const SUBJECT_END =
  /\s\(|,\s*or\s|,?\s(?:is|was|are|were|has|had)\s|,?\s(?:also|better|commonly|formerly|known|a\.?k\.?a\.?)\s/u;
/** Where a list of names after a marker ends: a parenthesis, semicolon, comma, full stop or verb. */
const LIST_END = /\s*(?:[(;),]|(?<!\b\p{Lu})\.(?:\s|$)|\s(?:is|was|are|were|has|had)\s)/u;
/** Lower-case words a name may hold ("William the Silent", "Roll with Me"); too common to tie a name to a title. */
const LINKING_WORDS = new Set(
  'the of and de la le von van der den du da di del des zu y e a an in on at for to with from by or bin ibn al el'.split(
    ' ',
  ),
);
const MONTH =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/iu;
const MAX_ALIASES = 5;

/** The words of a name that say something, lower case. */
function telling(name: string): string[] {
  return (name.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (word) => word.length > 2 && !LINKING_WORDS.has(word),
  );
}

/**
 * A name: 2 to 8 words and at most 80 characters, each word capitalised (or a number, or a linking
 * word inside), and no date in it ("December 8", "1886-1905").
 */
function isName(name: string): boolean {
  const words = name.split(' ');
  if (name.length > 80 || words.length < 2 || words.length > 8) return false;
  const capitalised = (word: string) => /^[\p{P}]*[\p{Lu}\p{Lt}\p{N}]/u.test(word);
  if (!capitalised(words[0]) || !capitalised(words[words.length - 1])) return false;
  if (!words.every((word) => capitalised(word) || LINKING_WORDS.has(word))) return false;
  if (/["“”[\]{}]/u.test(name)) return false;
  return !/\d{3,}|\d\s*[–-]\s*\d/u.test(name) && !(MONTH.test(name) && /\d/u.test(name));
}

/** A name without the nickname quoted inside it (`Frederick "Fred" Le Deux`) and the quotes around it. */
function withoutNickname(name: string): string {
  return name
    .replace(/^["“'‘\s]+|["”'’,\s]+$/gu, '')
    .replace(/(\S)\s*["“][^"”]*["”]\s*/gu, '$1 ')
    .replace(/\s+/gu, ' ');
}

/** Where the parenthesis opening at `open` closes (nested ones included), or the text's end. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return text.length;
}

/**
 * The names a list after an alias marker gives, and the text after it: quoted ones (`"A" and "B"`),
 * else the words up to `LIST_END`, split at "or" and "and".
 */
function listedNames(list: string): { names: string[]; rest: string } {
  const quoted = /^["“]\s*([^"”]+?)\s*["”](?:\s*(?:,\s*)?(?:and|or)?\s*(?=["“]))?/u;
  const names: string[] = [];
  let rest = list;
  for (let match = quoted.exec(rest); match; match = quoted.exec(rest)) {
    names.push(match[1]);
    rest = rest.slice(match[0].length);
  }
  if (names.length) return { names, rest };
  const end = LIST_END.exec(list);
  const run = end ? list.slice(0, end.index) : list;
  return { names: run.split(/\s+(?:or|and)\s+/u), rest: list.slice(run.length) };
}

/** The first sentence's paragraph of `text`, after a first line that is the title itself, on one line. */
function openingParagraph(title: string, bare: string, text: string): string {
  const lines = text.slice(0, 1200).replace(/^\s+/u, '').split(/\r?\n/u);
  const heading = lines[0]
    .replace(/^#+\s*|\s*#+$/gu, '')
    .trim()
    .toLowerCase();
  if (heading === title.trim().toLowerCase() || heading === bare.toLowerCase()) {
    lines.shift();
    if (lines.length && /^\s*(?:=+|-+)\s*$/u.test(lines[0])) lines.shift();
  }
  const paragraph =
    lines
      .join('\n')
      .trim()
      .split(/\n\s*\n/u)[0] ?? '';
  return paragraph
    .replace(/\s+/gu, ' ')
    .replace(/\(\s+/gu, '(')
    .replace(/\s+\)/gu, ')')
    .replace(/(\S)\(/gu, '$1 (');
}

/** The names the opening sentence gives its subject: the subject, then each list an alias marker starts. */
function openingNames(sentence: string): string[] {
  const end = SUBJECT_END.exec(sentence);
  if (!end) return [];
  const found = [sentence.slice(0, end.index)];
  let rest = sentence.slice(end.index);
  for (let step = 0; step < 4; step++) {
    if (/^\s\(/u.test(rest)) {
      const close = closing(rest, 1);
      const inside = rest.slice(2, close);
      const marker = ALIAS_MARKER.exec(inside);
      if (marker) found.push(...listedNames(inside.slice(marker[0].length)).names);
      rest = rest.slice(close + 1);
      continue;
    }
    const or = /^,\s*or\s+/u.exec(rest);
    const after = or ? null : rest.replace(/^,?\s*/u, '');
    const marker = after === null ? null : ALIAS_MARKER.exec(after);
    if (!or && !marker) break;
    const listed = listedNames(or ? rest.slice(or[0].length) : after!.slice(marker![0].length));
    if (or && !/^,/u.test(listed.rest)) break;
    found.push(...listed.names);
    rest = listed.rest;
  }
  return found;
}

/**
 * Other names the first sentence gives the subject a title names, the way an encyclopaedia's redirects
 * do: "Marie Curie (born Maria Skłodowska) was", "Frederick Barbarossa (1122 – 1190), also known as
 * Frederick I, was", "Onika Maraj, known professionally as Nicki Minaj, is", "The Heart of Doreon (also
 * known as In the Heart of Doreon)", "Aspirin, or Acetylsalicylic Acid, is". The sentence's subject
 * counts when it differs from the title. Nothing unless one of these names shares a word with the title
 * (a first sentence about something else names no alias of it); names of fewer than two words stay out
 * (a lone "Vice" would link every mention of the word).
 */
export function titleAliases(title: string, text: string): string[] {
  const bare = title
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/\s*\([^)]*\)$/u, '')
    .trim();
  const names = openingNames(openingParagraph(title, bare, text))
    .map(withoutNickname)
    .filter(isName);
  const titleWords = new Set(telling(bare));
  if (!names.some((name) => telling(name).some((word) => titleWords.has(word)))) return [];
  const seen = new Set([bare.toLowerCase(), title.trim().toLowerCase()]);
  const aliases: string[] = [];
  for (const name of names) {
    if (seen.has(name.toLowerCase()) || aliases.length >= MAX_ALIASES) continue;
    seen.add(name.toLowerCase());
    aliases.push(name);
  }
  return aliases;
}
