import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HarvestedEntity } from '../../src/extraction/types.ts';
import {
  builtinHarvester,
  isJunkName,
  loadLabelledSet,
  scorePassages,
  summarise,
} from '../fixtures/extraction/score.ts';

/**
 * The builtin extractor on everyday technical documents (tests/fixtures/technical/: man pages, the
 * Redis README and copyright file, a Debian HTML page), harvested as a source of the technical domain
 * is. Each case is one of the failures a new user met (issue 31, item 4), asserting what it does now.
 */

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../tests/fixtures/technical/${name}`, import.meta.url), 'utf8');
/** The lines of a fixture from the one starting with `first` up to the one starting with `next`. */
function section(name: string, first: string, next: string): string {
  const lines = fixture(name).split('\n');
  const start = lines.findIndex((line) => line.trimStart().startsWith(first));
  const end = lines.findIndex((line, index) => index > start && line.trimStart().startsWith(next));
  expect(start, `${name}: ${first}`).toBeGreaterThanOrEqual(0);
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

const harvest = builtinHarvester();
async function entitiesOf(text: string, domain = 'technical'): Promise<HarvestedEntity[]> {
  return (await harvest('technical-entities', text, domain)).entities;
}
const typesByName = (entities: HarvestedEntity[]) =>
  Object.fromEntries(entities.map((entity) => [entity.name, entity.type]));
const fallbackTypes = new Set(['Item', 'Entity', 'Concept', 'Other']);

describe('builtin extraction on man pages', () => {
  it("types the ssh page's command, software and protocols instead of a fallback type", async () => {
    const found = await entitiesOf(section('ssh.1.txt', 'NAME', 'The options are as follows'));
    expect(typesByName(found)).toMatchObject({
      ssh: 'Command',
      OpenSSH: 'Software Project',
      X11: 'Protocol',
      TCP: 'Protocol',
    });
    expect(found.filter((entity) => fallbackTypes.has(entity.type))).toEqual([]);
  });

  it("never makes ssh's escape keys, option letters or the verbs opening their lines entities", async () => {
    const found = await entitiesOf(section('ssh.1.txt', 'ESCAPE CHARACTERS', 'TCP FORWARDING'));
    const names = found.map((entity) => entity.name);
    for (const noise of [
      'C',
      'D',
      'K',
      'L',
      'R',
      'B',
      'V',
      'KL',
      'KR',
      'KD',
      'Disconnect',
      'Display',
      'List',
      'Open',
      'Basic',
    ])
      expect(names).not.toContain(noise);
    expect(names.filter(isJunkName)).toEqual([]);
    expect(typesByName(found)).toMatchObject({
      ssh: 'Command',
      EscapeChar: 'Configuration Option',
      ssh_config: 'File Format',
    });
  });

  it('keeps a synopsis full of options out: no label is a run of option names or longer than a name', async () => {
    const found = await entitiesOf(section('ssh.1.txt', 'SYNOPSIS', 'DESCRIPTION'));
    expect(found.every((entity) => entity.name.length <= 60 && !/[[\]]/.test(entity.name))).toBe(true);
  });

  it("names the page's subject from its NAME line, and the commands it refers to as name(1)", async () => {
    const tar = typesByName(await entitiesOf(section('tar.1.txt', 'NAME', 'SYNOPSIS')));
    expect(tar.tar).toBe('Command');
    const seeAlso = typesByName(await entitiesOf(section('tar.1.txt', 'SEE ALSO', 'BUG REPORTS')));
    expect(seeAlso).toMatchObject({ bzip2: 'Command', gzip: 'Command', xz: 'Command', zstd: 'Command' });
    const gitAdd = typesByName(await entitiesOf(section('git-add.1.txt', 'The git status command', 'OPTIONS')));
    expect(gitAdd).toMatchObject({ 'git status': 'Command', 'git add': 'Command', Git: 'Software Project' });
  });

  it('drops a sentence-opening imperative such as "Use" but keeps what the option names', async () => {
    const found = await entitiesOf(section('tar.1.txt', 'Compression options', '-j, --bzip2'));
    expect(found.map((entity) => entity.name)).not.toContain('Use');
  });
});

describe('builtin extraction on a README, a copyright file and an HTML page', () => {
  it('makes the README\'s subject an entity: "Redis", typed, never "Certain Redis" or "Data"', async () => {
    const found = await entitiesOf(section('redis-README.md', 'What is Redis?', 'If you want to know more'));
    const types = typesByName(found);
    expect(types.Redis).toBe('Software Project');
    expect(types.TCP).toBe('Protocol');
    expect(types).not.toHaveProperty('Data');
    expect(types.memcached).toBe('Software Project');
    // From the README's "Anatomy of a Redis command", past the part the fixture keeps.
    const opening = typesByName(
      await entitiesOf('Certain Redis commands operate on specific data types; others are general.'),
    );
    expect(Object.keys(opening)).toEqual(['Redis']);
  });

  it('never takes a heading\'s verb with its object ("Building Redis") for a place', async () => {
    const found = typesByName(await entitiesOf(section('redis-README.md', 'Building Redis', 'Fixing build problems')));
    expect(found).not.toHaveProperty(['Building Redis']);
    expect(found.Redis).toBe('Software Project');
  });

  it('never takes a list item\'s verb with its object ("Try Redis directly …") for the name', async () => {
    const found = typesByName(
      await entitiesOf(section('redis-README.md', 'If you want to know more', 'Building Redis')),
    );
    expect(found).not.toHaveProperty(['Try Redis']);
    expect(found.Redis).toBe('Software Project');
  });

  it('types build variables and packages as what they are, not their parts ("USE", "SUFFIX")', async () => {
    const found = typesByName(
      await entitiesOf(section('redis-README.md', 'To build with systemd support', 'You can build a 32 bit')),
    );
    expect(found).toMatchObject({
      systemd: 'Software Project',
      'libsystemd-dev': 'Software Project',
      USE_SYSTEMD: 'Configuration Option',
      PROG_SUFFIX: 'Configuration Option',
      make: 'Command',
    });
    for (const part of ['USE', 'SYSTEMD', 'PROG', 'SUFFIX']) expect(found).not.toHaveProperty(part);
  });

  it('takes the people and organisations of copyright lines and none of the licence boilerplate', async () => {
    const text = fixture('redis-copyright.txt');
    const found = typesByName(await entitiesOf(text.slice(0, text.indexOf('License: BSD-2-clause\n Redistribution'))));
    expect(found).toMatchObject({
      'Salvatore Sanfilippo': 'Person',
      'Pieter Noordhuis': 'Person',
      'Jason Evans': 'Person',
      'Mozilla Foundation': 'Organization',
      'Chris Lamb': 'Person',
    });
    const licence = await entitiesOf(text.slice(text.indexOf('License: BSD-2-clause\n Redistribution')));
    const shouting = licence.map((entity) => entity.name).filter((name) => /^[\p{Lu}\s]+$/u.test(name));
    expect(shouting).toEqual([]);
  });

  it('splits the title page\'s run of authors into people and never takes "Colin Watson This"', async () => {
    const titlePage =
      'Users and Groups in the Debian System\nJoey Hess\nColin Watson\nDavid Mandelberg\nCopyright © 2001, 2002 Joey Hess\nCopyright © 2005 David Mandelberg\nCopyright © 2001-2022 Colin Watson\nThis document is free; you can redistribute it and/or modify it under the terms of version 2 of the GNU General Public License as published by the Free Software Foundation.';
    const found = typesByName(await entitiesOf(titlePage, 'generic'));
    expect(found).toMatchObject({
      'Users and Groups in the Debian System': 'Document',
      'Joey Hess': 'Person',
      'Colin Watson': 'Person',
      'David Mandelberg': 'Person',
      'Free Software Foundation': 'Organization',
    });
    expect(Object.keys(found).filter((name) => /\b(?:This|Copyright)\b/.test(name))).toEqual([]);
  });

  it('types the RFCs of a standards list as standards and the paths of a page as files', async () => {
    const standards = typesByName(await entitiesOf(section('ssh.1.txt', 'STANDARDS', 'AUTHORS')));
    expect(standards).toMatchObject({ 'RFC 4251': 'Standard', 'RFC 4253': 'Standard' });
    const files = typesByName(await entitiesOf('The master files are /etc/passwd and /etc/group.'));
    expect(files).toMatchObject({ '/etc/passwd': 'File', '/etc/group': 'File' });
  });
});

describe('builtin extraction on the technical labelled set', () => {
  it('types most labelled names, rarely falls back to a generic type and extracts almost no junk', async () => {
    const set = loadLabelledSet('technical-passages');
    const score = summarise(await scorePassages(set));
    expect(score.typedEntities.precision).toBeGreaterThanOrEqual(0.7);
    expect(score.typedEntities.recall).toBeGreaterThanOrEqual(0.7);
    expect(score.junkShare).toBeLessThanOrEqual(0.02);
    expect(score.fallbackTypeShare).toBeLessThanOrEqual(0.2);
    const generic = summarise(await scorePassages({ ...set, domain: 'generic' }));
    expect(generic.fallbackTypeShare).toBeLessThanOrEqual(0.2);
  }, 120_000);
});
