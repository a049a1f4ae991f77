import type { EntityKind } from './kinds.ts';
import {
  commands,
  formats,
  languages,
  manualWords,
  protocols,
  software,
  subcommandTools,
  technicalNouns,
} from './technical-gazetteer.ts';

/**
 * Names technical text writes in its own notation, which capitalisation does not reveal: man-page
 * references (`gzip(1)`), a man page's NAME line (`tar - an archiving utility`), commands after a
 * shell prompt (`% make`), subcommands (`git add`), build variables (`BUILD_TLS`), paths and file
 * names, names in backticks, package names (`libssl-dev`), changelog headers, copyright and maintainer
 * lines, RFC and CVE numbers, and the lowercase names of the technical gazetteer (`memcached`).
 *
 * Each comes with its kind and its character range in the sentence; the entity pass prefers these
 * over the proper-noun runs they overlap ("PROG" and "SUFFIX" are parts of `PROG_SUFFIX`).
 */

export interface TechnicalMention {
  start: number;
  end: number;
  text: string;
  kind: EntityKind;
  /** The sentence names what the whole document is about (a NAME line, a changelog header). */
  subject: boolean;
  /** Written in a notation that marks it as a name (`ssh(1)`): no longer capitalised run takes it in. */
  marked?: boolean;
}

type Finder = (sentence: string) => TechnicalMention[];

const mention = (start: number, text: string, kind: EntityKind, subject = false): TechnicalMention => ({
  start,
  end: start + text.length,
  text,
  kind,
  subject,
});

/** Every match of `pattern` (global), the name taken from its first group. */
function matches(
  sentence: string,
  pattern: RegExp,
  kindOf: (match: RegExpExecArray) => EntityKind | null,
): TechnicalMention[] {
  const found: TechnicalMention[] = [];
  for (const match of sentence.matchAll(pattern)) {
    const kind = kindOf(match);
    const name = match[1];
    if (!kind || !name) continue;
    found.push(mention((match.index ?? 0) + match[0].indexOf(name), name, kind));
  }
  return found;
}

/** Man-page sections: 1, 6 and 8 are commands, 5 file formats, 2 and 3 functions. */
const sectionKinds: Record<string, EntityKind> = {
  '1': 'command',
  '6': 'command',
  '8': 'command',
  '5': 'format',
  '2': 'code',
  '3': 'code',
};
const manReference: Finder = (sentence) =>
  matches(
    sentence,
    /(?<![\w./-])([A-Za-z][\w.+-]*[\w+])\(([1-8])[a-z]*\)/g,
    (match) => sectionKinds[match[2]] ?? null,
  ).map((mention) => ({ ...mention, marked: true }));

/** "ssh — OpenSSH remote login client", "deb-changelog - dpkg source packages' changelog file format". */
const nameLine: Finder = (sentence) => {
  const match = /^(?:NAME\s+)?([a-z][\w.+-]*)(?:, [a-z][\w.+-]*)* [—–-] (\S.*)$/.exec(sentence.trim());
  if (!match || match[2].split(/\s+/).length > 14) return [];
  const kind: EntityKind = /\bformat\b/i.test(match[2]) ? 'format' : 'command';
  return [mention(sentence.indexOf(match[1]), match[1], kind, true)];
};

/** "tar (1.34+dfsg-1) unstable; urgency=medium": the package a changelog entry is about. */
const changelogHeader: Finder = (sentence) => {
  const match = /^([a-z0-9][a-z0-9.+-]+) \([^()\s]+\) [a-z][\w-]*(?: [a-z][\w-]*)*; urgency=/.exec(sentence.trim());
  return match ? [mention(sentence.indexOf(match[1]), match[1], 'software', true)] : [];
};

/** "% make BUILD_TLS=yes", "$ ssh -f -L …", "% ./redis-server". */
const promptCommand: Finder = (sentence) =>
  matches(sentence, /(?:^|\s)[$%] (?:sudo )?(?:\.\/)?([a-z][\w.+-]*)/g, () => 'command');

const notSubcommands = new Set([
  'the',
  'a',
  'an',
  'to',
  'and',
  'or',
  'is',
  'are',
  'was',
  'were',
  'has',
  'have',
  'had',
  'does',
  'did',
  'will',
  'can',
  'may',
  'must',
  'should',
  'would',
  'it',
  'its',
  'also',
  'then',
  'itself',
  'used',
  'with',
  'in',
  'on',
  'of',
  'for',
  'by',
  'as',
  'at',
  'from',
  'that',
  'this',
  'which',
  'who',
  'not',
  'repository',
  'suite',
  'manual',
  'command',
  'commands',
  'package',
  'packages',
  'source',
  'sources',
  'version',
  'versions',
  'documentation',
  'program',
  'project',
  'tool',
  'itself',
]);
const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const subcommandPattern = new RegExp(
  `(?<![\\w./-])((?:${[...subcommandTools].map(escape).join('|')}) ([a-z][a-z-]*))(?![\\w-])`,
  'g',
);
/** "git add", "git status command": the pair is one command (only for tools that take subcommands). */
const subcommand: Finder = (sentence) =>
  matches(sentence, subcommandPattern, (match) => (notSubcommands.has(match[2]) ? null : 'command'));

/** `BUILD_TLS`, `USE_SYSTEMD=yes`, `MALLOC=libc`: build and environment variables. */
const variable: Finder = (sentence) => [
  ...matches(sentence, /(?<![\w-])([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])(?![\w-])/g, () => 'setting'),
  ...matches(sentence, /(?<![\w_-])([A-Z][A-Z0-9]{2,})=/g, () => 'setting'),
];

const fileExtensions =
  'conf|cfg|ini|c|h|cc|cpp|hpp|py|js|mjs|ts|rb|pl|sh|go|rs|tar|gz|tgz|bz2|xz|zst|zip|txt|md|rst|json|ya?ml|toml|xml|html?|csv|db|log|so|deb|rpm|service|socket|pem|crt|lock|tcl';
/** Absolute paths (`/etc/passwd`), relative ones with a slash (`debian/changelog`), and file names (`redis.conf`). */
const pathOrFile: Finder = (sentence) => [
  ...matches(sentence, /(?<![\w:/.~<@-])(\/[\w.+-]*[\w+-](?:\/[\w.+*-]*[\w+*-])*\/?)(?![\w/])/g, () => 'file'),
  ...matches(sentence, /(?<![\w:/.~<@-])([a-z][\w.+-]*\/[\w.+*-]*[\w+*-](?:\/[\w.+*-]*[\w+*-])*)(?![\w/])/g, (match) =>
    match[1] === 'and/or' || /\.(?:com|org|net|io)\//.test(match[1]) ? null : 'file',
  ),
  ...matches(
    sentence,
    new RegExp(`(?<![\\w/.@:-])([\\w-]+\\.(?:${fileExtensions}))(?![\\w.-]*\\w)`, 'g'),
    () => 'file',
  ),
];

/** `fork()`, `rdb.c`, `MALLOC`: what a README quotes as code. */
const backticked: Finder = (sentence) =>
  matches(sentence, /`([^`\s]{2,60})`/g, (match) => {
    const code = match[1];
    if (/^[\w.]+\(\)$/.test(code)) return 'code';
    if (/^[A-Z][A-Z0-9_]+$/.test(code)) return 'setting';
    return null;
  });

/** Adjectives that stand where a name could, before "command" or "program". */
const NOT_COMMAND_NAMES = new Set(
  'remote local specified given external following above below same new old default main first second last next original entire whole current actual real simple single global full complete same whole'.split(
    ' ',
  ),
);

/** "GNU tar", "GNU make": the GNU project's build of a command is software. */
const gnuTool: Finder = (sentence) => matches(sentence, /\b(GNU [a-z][\w+-]*)\b/g, () => 'software');

/** Whether no part of a hyphenated name is an ordinary word ("server-client" is not a package). */
const namesAThing = (match: RegExpExecArray) => !match[1].split('-').some((part) => manualWords.has(part));

/** "libssl-dev", "systemd-devel", "redis-server", "base-passwd package", "the update-passwd tool". */
const packageName: Finder = (sentence) => [
  ...matches(
    sentence,
    /(?<![\w./-])(lib[a-z0-9+]+(?:-[a-z0-9+]+)*|[a-z][a-z0-9+]*-(?:dev|devel|dbg|doc|common|utils|tools|data))(?![\w-])/g,
    (match) => (namesAThing(match) ? 'software' : null),
  ),
  ...matches(
    sentence,
    /(?<![\w./-])([a-z][a-z0-9+]*-(?:server|cli|client|agent|keygen|add|daemon))(?![\w-])/g,
    (match) => (manualWords.has(match[1].split('-')[0]) ? null : 'command'),
  ),
  ...matches(sentence, /(?<![\w./-])([a-z][a-z0-9+]*(?:-[a-z0-9+]+)+) package\b/g, () => 'software'),
  ...matches(
    sentence,
    /\b[Tt]he ([a-z][\w.+-]*) (?:command|tool|program|utility|daemon|binary|executable)\b/g,
    (match) => {
      const name = match[1];
      if (manualWords.has(name) || NOT_COMMAND_NAMES.has(name)) return null;
      return /[-\d]/.test(name) ||
        !/(?:ion|ing|al|ive|ous|ed|er|or|ary|ant|ent|ic|le|ure|ed|ly|same|new|old)$/.test(name)
        ? 'command'
        : null;
    },
  ),
];

/** RFC and CVE numbers, and named licences: documents a reader refers to. */
const documentNumber: Finder = (sentence) => [
  ...matches(sentence, /\b(RFC ?\d{3,5})\b/g, () => 'standard'),
  ...matches(sentence, /\b(CVE-\d{4}-\d{4,})\b/g, () => 'document'),
  ...matches(
    sentence,
    /(?<![\w-])((?:GNU )?(?:L?GPL|AGPL)(?:v?\d(?:\.\d)?\+?)?|BSD-\d-clause|MIT|Apache-2\.0|MPL-2\.0|ISC)(?![\w-])/g,
    () => 'document',
  ),
];

const nameWords = "\\p{Lu}[\\p{L}.'’-]*";
const personName = `((?:${nameWords}\\s+){1,3}${nameWords})`;
const organisationSuffix = /^,?\s*(?:Inc|Ltd|LLC|GmbH|Corp|Co|S\.A|B\.V)\b/;
/** "Copyright © 2001-2022 Colin Watson", "© 2009 Facebook, Inc.", "-- Janos Lenart <ocsi@debian.org>", "Name <mail>". */
const copyrightHolder: Finder = (sentence) => {
  const found: TechnicalMention[] = [];
  const holders = new RegExp(
    `(?:©|\\(c\\)|Copyright:?)\\s*(?:©\\s*)?\\d{4}(?:\\s*[-–—,]\\s*\\d{4})*,?\\s+${personName}`,
    'gu',
  );
  const mailed = new RegExp(`${personName}\\s+<[^<>\\s]+@[^<>\\s]+>`, 'gu');
  for (const pattern of [holders, mailed]) {
    for (const match of sentence.matchAll(pattern)) {
      const name = match[1].replace(/\s+(?:Copyright|License|Licence|This|The)$/, '');
      const start = (match.index ?? 0) + match[0].indexOf(match[1]);
      const after = sentence.slice(start + match[1].length);
      const kind: EntityKind =
        organisationSuffix.test(after) || /\b(?:Foundation|Inc|Corporation|Project|Team)\b/.test(name)
          ? 'organisation'
          : 'person';
      found.push(mention(start, name, kind));
    }
  }
  return found;
};

/** Lowercase names only the gazetteer knows (`memcached`, `jemalloc`, `systemd`, `texinfo`). */
const lowercaseKnown: Finder = (sentence) =>
  matches(sentence, /(?<![\w./-])([a-z][a-z0-9+.-]*[a-z0-9+])(?![\w/-]|\.\w)/g, (match) => {
    const word = match[1];
    if (manualWords.has(word)) return null;
    if (commands.has(word)) return 'command';
    if (protocols.has(word)) return null;
    if (formats.has(word)) return 'format';
    if (software.has(word) && !languages.has(word)) return 'software';
    return null;
  });

/** "ssh (SSH client) is a program for …", "dpkg is a tool to …": a lowercase name defined by what it is. */
const lowercaseDefinition: Finder = (sentence) => {
  const match = /^([a-z][\w.+-]*)(?: \([^()]*\))? (?:is|was) an? (?:[\w-]+ ){0,3}?([a-z]+)\b/.exec(sentence.trim());
  const kind = match ? technicalNouns.get(match[2]) : undefined;
  if (!match || !kind || kind === 'setting') return [];
  return [mention(sentence.indexOf(match[1]), match[1], kind === 'software' ? 'command' : kind)];
};

const languagePattern = [...languages]
  .sort((a, b) => b.length - a.length)
  .map((name) => escape(name).replace(/ /g, '\\s+'))
  .join('|');
const languageName = `((?:${languagePattern}))(?![\\w+#-])`;
/**
 * "written in C", "implemented in C and C++", "(Haiku backend in C++)": a language after the verb that
 * says so, and the languages listed with it; a name no word could be ("C++", "C#", "Objective-C") anywhere.
 */
const language: Finder = (sentence) => {
  const found: TechnicalMention[] = [];
  const cue = new RegExp(
    `\\b(?:written|implemented|programmed|coded)\\s+(?:\\w+ly\\s+)?in\\s+${languageName}((?:\\s*(?:,|and|or|,\\s*and)\\s+${languageName.replace(/\(\(/, '(?:(')})*)`,
    'giu',
  );
  for (const match of sentence.matchAll(cue)) {
    const at = match.index ?? 0;
    const first = at + match[0].length - match[2].length - match[1].length;
    found.push(mention(first, match[1], 'language'));
    for (const more of match[2].matchAll(new RegExp(languageName, 'giu')))
      found.push(mention(first + match[1].length + (more.index ?? 0), more[1], 'language'));
  }
  found.push(...matches(sentence, /(?<![\w+#-])(C\+\+|C#|F#|Objective-C)(?![\w+#-])/g, () => 'language'));
  return found.filter((name) => /^\p{Lu}/u.test(name.text) || name.text.length > 1);
};

/** "e2fsprogs", "ext4", "e2fsck", "x264": a lowercase word that mixes letters and digits names a program or format. */
const alphanumericName: Finder = (sentence) =>
  matches(sentence, /(?<![\w./:@#+-])([a-z][a-z]*\d[a-z0-9]*)(?![\w/+@-]|\.\w)/g, (match) =>
    /^[0-9a-f]{7,}$/.test(match[1]) || /^[a-z]\d*$/.test(match[1]) || /^v\d/.test(match[1]) ? null : 'software',
  );

/** "the BSD license", "the Expat licence": a licence named by a capitalised word before "license". */
const namedLicence: Finder = (sentence) =>
  matches(
    sentence,
    /(?<![\w-])((?!(?:The|This|That|These|Its|Our|Your|Their|Each|Any|No|Such|Same|Original|Software|Free)\s)[A-Z][\w+-]*(?:\.\w[\w+-]*)*(?:\s[A-Z][\w+-]*(?:\.\w[\w+-]*)*){0,2}\s[Ll]icen[cs]e)\b/g,
    () => 'document',
  );

const finders: Finder[] = [
  language,
  namedLicence,
  nameLine,
  gnuTool,
  lowercaseDefinition,
  changelogHeader,
  manReference,
  promptCommand,
  subcommand,
  variable,
  backticked,
  documentNumber,
  copyrightHolder,
  packageName,
  pathOrFile,
  lowercaseKnown,
  // Last, so that a kind the gazetteer knows for the same word wins ("bzip2" is a command, "deb822" a format).
  alphanumericName,
];

/** The technical mentions of one sentence, longest first where they overlap, in text order. */
export function technicalMentions(sentence: string): TechnicalMention[] {
  const all = finders.flatMap((find) => find(sentence));
  all.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: TechnicalMention[] = [];
  for (const candidate of all) {
    if (kept.some((other) => candidate.start < other.end && other.start < candidate.end)) continue;
    kept.push(candidate);
  }
  return kept.sort((a, b) => a.start - b.start);
}
