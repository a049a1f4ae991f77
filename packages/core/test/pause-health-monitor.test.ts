import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { SubsystemHealth } from '../src/module/index.ts';
import { HealthRegistry } from '../src/observability/health.ts';
import { ProcessingControls } from '../src/pause/controls.ts';
import { HealthMonitor } from '../src/pause/health-monitor.ts';
import { openSqlite, type Db } from '../src/storage/connection.ts';
import { sleep } from '../../../tests/support/wait.ts';

describe('health monitor', () => {
  let db: Db;
  afterEach(() => db.destroy());

  async function setup() {
    db = openSqlite(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'monitor-')), 'system.db'));
    const processing = await ProcessingControls.open(db);
    const health = new HealthRegistry();
    let disk: SubsystemHealth = { status: 'ok' };
    health.register('disk', async () => disk);
    let announced = 0;
    const monitor = new HealthMonitor({
      health,
      processing,
      announce: async () => void announced++,
      logger: { warning: () => undefined, error: () => undefined },
      threshold: 3,
    });
    return { processing, monitor, setDisk: (next: SubsystemHealth) => (disk = next), announcements: () => announced };
  }

  it('records health changes, pauses after three failing checks and resumes after three passing ones', async () => {
    const { processing, monitor, setDisk, announcements } = await setup();
    await monitor.check();
    setDisk({ status: 'unavailable', message: 'less than 1 GiB free' });
    await monitor.check();
    await monitor.check();
    expect((await processing.status()).paused).toBe(false);
    await monitor.check();
    expect(await processing.status()).toMatchObject({ paused: true, reason: expect.stringContaining('disk') });
    expect(await processing.pausedBy()).toBe('health_monitor');
    expect(announcements()).toBe(1);

    setDisk({ status: 'ok' });
    await monitor.check();
    await monitor.check();
    expect((await processing.status()).paused).toBe(true);
    await monitor.check();
    expect((await processing.status()).paused).toBe(false);
    expect(announcements()).toBe(2);
    const changes = await processing.events({ type: 'health_change', limit: 10 });
    expect(changes.map((event) => event.action)).toEqual(['unhealthy_to_healthy', 'healthy_to_unhealthy']);
    expect(changes[1]).toMatchObject({ source: 'health_monitor', details: { failed: ['disk'] } });
  });

  it('treats a probe that answers too late as degraded, and never pauses for it', async () => {
    db = openSqlite(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'monitor-')), 'system.db'));
    const processing = await ProcessingControls.open(db);
    const health = new HealthRegistry(50);
    health.register('database', () => sleep(200).then(() => ({ status: 'ok' as const })));
    expect((await health.check()).subsystems.database).toMatchObject({
      status: 'degraded',
      message: 'no answer within 50 ms',
    });
    const monitor = new HealthMonitor({
      health,
      processing,
      announce: async () => undefined,
      logger: { warning: () => undefined, error: () => undefined },
      threshold: 3,
    });
    for (let n = 0; n < 4; n++) await monitor.check();
    expect((await processing.status()).paused).toBe(false);
  });

  it('never resumes a pause the operator made', async () => {
    const { processing, monitor } = await setup();
    await processing.pause('maintenance');
    for (let n = 0; n < 5; n++) await monitor.check();
    expect(await processing.status()).toMatchObject({ paused: true, reason: 'maintenance' });
  });
});
