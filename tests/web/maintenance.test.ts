import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import type { Page } from 'playwright-core';
import { shippedMigrations, type Migration } from '@rhizome/core/storage';
import { call, setUpAccount, startTestServer, tempDataDir } from '../support/server.ts';
import { captureScreen, eventually, openBrowser, signInAt, testTimeout, type Session } from './support/browser.ts';
import { expectPhoneFit } from './support/shell.ts';

const password = 'maintenance window';

/** A migration this build does not ship: what a newer version brings. */
const addNotes: Migration = {
  name: '9001_add_notes',
  up: async (db: Knex) => {
    await db.schema.createTable('notes', (table) => table.string('id').primary());
  },
  down: async () => {},
};

/**
 * The maintenance screen while a migration is pending (a server started with one more migration, then
 * rolled back to the copy from before it, so the migration waits), and the shell's banners.
 */
describe('web interface: maintenance screen and banners', { timeout: testTimeout }, () => {
  let server: { url: string; stop(): Promise<void> };
  let base: string;
  let cookie: string;
  let session: Session;
  let page: Page;
  const api = (method: string, apiPath: string, body?: unknown) => call(base, method, apiPath, { cookie, body });

  beforeAll(async () => {
    const dataDir = tempDataDir();
    const first = await startTestServer({ dataDir });
    cookie = await setUpAccount(first, 'operator', password);
    await first.stop();
    const { startEmbedded } = await import('@rhizome/cli/embedded');
    const env: NodeJS.ProcessEnv = { ...process.env, RHIZOME_DATA_DIR: dataDir };
    delete env.RHIZOME_QUEUE_URL;
    server = await startEmbedded({ host: '127.0.0.1', port: 0 }, env, [...shippedMigrations, addNotes]);
    base = `${server.url}/api/v1`;
    const rolledBack = await api('POST', '/upgrade/rollback');
    expect(rolledBack.status, rolledBack.text).toBe(200);
    expect((await api('GET', '/upgrade/pending')).body).toMatchObject({ ready: false });
    session = await openBrowser(server.url);
    page = session.page;
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('holds the interface on the maintenance screen until the upgrade is applied', async () => {
    await signInAt(page, '/', password);
    await page.getByRole('heading', { name: 'The database needs an upgrade' }).waitFor();
    await page.getByRole('list', { name: 'Pending migrations' }).getByText('9001_add_notes').waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await captureScreen(page, 'maintenance', expectPhoneFit);

    // Rolling back restores the copy from before the migration: it is still pending.
    await page.getByRole('button', { name: 'Roll back' }).click();
    await page
      .getByRole('status')
      .getByText(/Restored the copy saved before the upgrade/)
      .waitFor();
    await page.getByRole('heading', { name: 'The database needs an upgrade' }).waitFor();

    await page.getByRole('button', { name: 'Upgrade now' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect((await api('GET', '/upgrade/pending')).body).toMatchObject({ ready: true, blocked_on: [] });
  });

  it('says when only the builtin model is set up, with a way to set one up, and hides it for the session', async () => {
    const builtin = page.getByTestId('banner-builtin');
    await builtin.getByText('Only the builtin offline model is set up').waitFor();
    await builtin.getByRole('link', { name: 'Set up a model' }).click();
    await page.waitForURL(/\/settings\?tab=providers$/);
    await builtin.getByRole('button', { name: 'Hide this notice for the session' }).click();
    await builtin.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await builtin.count()).toBe(0);
  });

  it('says when processing is paused, and resumes it', async () => {
    const paused = await api('POST', '/system/processing/pause', { reason: 'disk almost full' });
    expect(paused.status, paused.text).toBe(200);
    await page.goto('/');
    const banner = page.getByTestId('banner-paused');
    await banner.getByText(/disk almost full/).waitFor();
    await captureScreen(page, 'banner-paused', expectPhoneFit);
    await banner.getByRole('button', { name: 'Resume' }).click();
    await eventually(
      async () => ((await api('GET', '/system/processing/status')).body as { paused: boolean }).paused,
    ).toBe(false);
    await banner.waitFor({ state: 'detached' });
  });
});
