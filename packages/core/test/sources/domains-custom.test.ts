import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import { domainRegistryFor } from '../../src/sources/domains/custom.ts';
import { detectDomain, detectionSamples } from '../../src/sources/domains/detect.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';
import type { DomainDefinition } from '../../src/sources/domains/schema.ts';

let dir: string;
let db: Db;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-domains-custom-'));
  db = openSqlite(path.join(dir, 'app.db'));
  await new Migrator(path.join(dir, 'backups')).apply(db);
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const beekeeping = `The colony was inspected in May: the queen was laying well, the brood frames were full and the
workers had drawn new comb. We added a super for the honey flow and checked for varroa mites with a sugar roll.
Swarm cells on two frames were removed, and the hive was fed syrup after the harvest of 20 kg of honey.`;

describe('custom domains stored in a database', () => {
  it('is used by detection at once after it is written, and gone once deleted', async () => {
    const copy = await (await domainRegistryFor(db)).create({ copy_of: 'generic', name: 'beekeeping' });
    const detection = {
      ...copy.domain.detection,
      keywords: [{ terms: ['queen', 'brood', 'comb', 'varroa', 'swarm', 'hive', 'honey', 'super'], weight: 1.5 }],
    };
    await (await domainRegistryFor(db)).replace('beekeeping', { ...copy.domain, detection });
    const domains = (await domainRegistryFor(db)).all();
    const proposal = detectDomain({ samples: detectionSamples(beekeeping), filename: 'hive.txt' }, domains);
    expect(proposal.detected_domain).toBe('beekeeping');

    await (await domainRegistryFor(db)).remove('beekeeping');
    const after = detectDomain(
      { samples: detectionSamples(beekeeping), filename: 'hive.txt' },
      (await domainRegistryFor(db)).all(),
    );
    expect(after.detected_domain).not.toBe('beekeeping');
  });

  it('refuses to delete a domain a source still waits to be extracted with', async () => {
    await (await domainRegistryFor(db)).create({ copy_of: 'news', name: 'bulletins' });
    const now = new Date().toISOString();
    await db('sources').insert({
      id: 'src_waiting',
      filename: 'a.txt',
      source_type: 'text',
      status: 'awaiting_confirmation',
      forced_domain: 'bulletins',
      created_at: now,
      updated_at: now,
    } as never);
    await expect((await domainRegistryFor(db)).remove('bulletins')).rejects.toThrow(/not yet extracted/);
    await db('sources')
      .where({ id: 'src_waiting' })
      .update({ status: 'committed' } as never);
    await (await domainRegistryFor(db)).remove('bulletins');
    expect((await domainRegistryFor(db)).get('bulletins')).toBeUndefined();
  });
});

describe('keywords read once for all domains', () => {
  const withTerms = (name: string, terms: string[]): DomainDefinition => {
    const generic = builtinDomains().find((domain) => domain.name === 'generic')!;
    return {
      ...generic,
      name,
      builtin: false,
      detection: { ...generic.detection, keywords: [{ terms, weight: 5 }], patterns: [] },
    };
  };

  it('gives a domain its shorter term where another domain has a longer one beginning with it', () => {
    const short = withTerms('short', ['security']);
    const long = withTerms('long', ['security advisory']);
    const text = 'The security advisory was published.';
    const alone = detectDomain({ samples: [text], filename: 'a.txt' }, [short]);
    const together = detectDomain({ samples: [text], filename: 'a.txt' }, [short, long]);
    const score = (proposal: typeof alone, name: string) =>
      proposal.ranking.find((entry) => entry.domain === name)!.score;
    expect(score(together, 'short')).toBe(score(alone, 'short'));
    expect(score(together, 'short')).toBeGreaterThan(short.detection.confidence.base_score);
    expect(score(together, 'long')).toBeGreaterThan(long.detection.confidence.base_score);
  });
});
