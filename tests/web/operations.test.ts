import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { startRegistryFake, type RegistryFake } from '../support/fakes/registry-server.ts';
import { captureScreen, eventually, openBrowser, testTimeout, type Session, signInAt } from './support/browser.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

const password = 'correct horse battery';

/** Databases, backups, export and import, the registry's device sign-in and search, logs, diagnostics and upgrades. */
describe('web interface: operations', { timeout: testTimeout }, () => {
  let server: TestServer;
  let registry: RegistryFake;
  let session: Session;
  let page: Page;
  let cookie: string;
  const tab = (name: string) => page.getByRole('tab', { name }).click();
  const get = async <T>(apiPath: string) => (await server.call('GET', apiPath, { cookie })).body as T;

  beforeAll(async () => {
    [server, registry] = await Promise.all([startTestServer(), startRegistryFake()]);
    cookie = await setUpAccount(server, 'operator', password);
    expect(
      (
        await server.call('PATCH', '/settings', {
          cookie,
          body: { registry: { url: registry.url }, web: { allow_private_addresses: true } },
        })
      ).status,
    ).toBe(200);
    session = await openBrowser(server.url);
    page = session.page;
    await signInAt(page, '/', password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).click();
    await page.getByRole('heading', { name: 'Operations' }).waitFor();
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await Promise.all([server?.stop(), registry?.close()]);
  });

  it('creates a database, shows the refusal to delete the default one, and deletes the new one', async () => {
    await page.getByRole('textbox', { name: 'New database' }).fill('bad name');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText(/Database names may contain only/).waitFor();
    await page.getByRole('textbox', { name: 'New database' }).fill('scratch');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'scratch', exact: true }).waitFor();
    await captureScreen(page, 'operations-databases', expectNoSidewaysScroll);

    await page.getByRole('button', { name: 'Delete default' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Database name' }).fill('default');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete the database' }).click();
    await page.getByRole('dialog').getByText('The default database cannot be deleted').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Keep it' }).click();

    await page.getByRole('button', { name: 'Delete scratch' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Database name' }).fill('scratch');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete the database' }).click();
    await page.getByRole('cell', { name: 'scratch', exact: true }).waitFor({ state: 'detached' });
    const { databases } = await get<{ databases: { name: string }[] }>('/databases');
    expect(databases.map((database) => database.name)).toEqual(['default']);
  });

  it('takes a backup, downloads it, and restores it after a safety copy', async () => {
    await tab('Backups');
    await page.getByText('No backups of this database yet.').waitFor();
    await page.getByRole('button', { name: 'Back up now' }).click();
    const restore = page.getByRole('button', { name: /^Restore app_/ });
    await restore.waitFor();
    // A button that says what it does, beside Restore, not an unlabelled icon.
    const downloadLink = page.getByRole('link', { name: /^Download app_/ });
    expect(await downloadLink.innerText()).toBe('Download');
    const href = await downloadLink.getAttribute('href');
    const download = await page.request.get(href!);
    expect(download.status()).toBe(200);
    expect((await download.body()).subarray(0, 15).toString()).toBe('SQLite format 3');

    await restore.click();
    await page.getByRole('dialog').getByText('A safety copy of the database as it is now is taken first').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await page.getByText(/is kept as the safety copy/).waitFor();
    // Said once: the server's own sentence about the safety copy is not repeated under ours.
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: /safety copy/ })
        .getByText(/its state before/)
        .count(),
    ).toBe(0);
    const backups = await get<{ data: { kind: string }[] }>('/backup');
    expect(backups.data.map((backup) => backup.kind).sort()).toEqual(['backup', 'safety']);
    await captureScreen(page, 'operations-backups', expectNoSidewaysScroll);
  });

  it('exports a package, then imports it and shows the import report', async () => {
    const templates = await get<{ data: { id: string; name: string }[] }>('/templates?page_size=100');
    const template = templates.data[0];
    const created = await server.call('POST', '/nodes', {
      cookie,
      body: { template_id: template.id, label: 'Ada Lovelace' },
    });
    expect(created.status, created.text).toBe(201);

    await tab('Export and import');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByText('The package is ready').waitFor();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the package' }).click(),
    ]);
    const saved = path.join(server.dataDir, 'exported.ccx');
    await file.saveAs(saved);
    expect(fs.statSync(saved).size).toBeGreaterThan(0);

    await page.locator('input[type=file]').setInputFiles(saved);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByRole('region', { name: 'Import report' });
    await report.waitFor();
    await report.getByRole('cell', { name: 'Nodes' }).waitFor();
    const nodes = await get<{ pagination: { total: number } }>('/nodes?page_size=1');
    // Merged into the database it came from: recognised and updated, not duplicated.
    expect(nodes.pagination.total).toBe(1);
    await captureScreen(page, 'operations-packages', expectNoSidewaysScroll);
  });

  it('signs in to the registry with a device code, searches and imports a package', async () => {
    registry.addPackage(
      { name: 'periodic-table', ownerUsername: 'alice', description: 'The elements', packageType: 'KNOWLEDGE' },
      fs.readFileSync(path.join(server.dataDir, 'exported.ccx')),
    );
    await tab('Registry');
    await page.getByRole('button', { name: 'Sign in to the registry' }).click();
    await eventually(async () => (await page.getByTestId('registry-user-code').innerText()).trim()).toBe('WDJB-MJHT');
    await captureScreen(page, 'operations-registry-device', expectNoSidewaysScroll);
    registry.setDevice(await polledDeviceCode(), 'approved', 'alice');
    await page.getByText('Signed in as').waitFor();

    await page.getByRole('textbox', { name: 'Search the registry' }).fill('periodic');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Import alice/periodic-table' }).click();
    await page.getByRole('region', { name: 'Import report' }).waitFor();
    await captureScreen(page, 'operations-registry', expectNoSidewaysScroll);
  });

  it('shows the logs of a service as readable entries, filters them by level and follows new lines', async () => {
    const logFile = path.join(server.dataDir, 'logs', 'cortex.log');
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    const entry = (level: string, message: string, extra: Record<string, unknown> = {}) =>
      `${JSON.stringify({ level, message, service: 'cortex', timestamp: new Date().toISOString(), ...extra })}\n`;
    fs.appendFileSync(logFile, entry('info', 'first visible line'));
    fs.appendFileSync(logFile, entry('error', 'the import failed', { source_id: 'src-42', attempt: 2 }));
    await tab('Logs');
    const lines = page.getByTestId('log-lines');
    await lines.getByText('first visible line', { exact: true }).waitFor();
    // Time, level, service and message, never the JSON line itself; extra fields folded under the line.
    const failed = lines.locator('[data-level="error"]', { hasText: 'the import failed' });
    await failed.getByText('error', { exact: true }).waitFor();
    await failed.getByText('cortex', { exact: true }).waitFor();
    expect(await lines.innerText()).not.toContain('{"');
    await failed.getByText('2 more fields').click();
    await failed
      .getByRole('group', { name: 'More fields of this line' })
      .getByRole('definition')
      .getByText('src-42')
      .waitFor();

    await page.getByRole('combobox', { name: 'Level' }).click();
    await page.getByRole('option', { name: 'Errors only' }).click();
    await lines.getByText('first visible line').waitFor({ state: 'detached' });
    await lines.getByText('the import failed').waitFor();
    await page.getByRole('combobox', { name: 'Level' }).click();
    await page.getByRole('option', { name: 'Every level' }).click();

    await page.getByRole('combobox', { name: 'Service' }).click();
    await page.getByRole('option', { name: 'API server (cortex)' }).click();
    await page.getByRole('switch', { name: 'Follow' }).check();
    fs.appendFileSync(logFile, entry('warning', 'a line written later'));
    await lines.locator('[data-level="warning"]', { hasText: 'a line written later' }).waitFor();
    await page.getByRole('switch', { name: 'Follow' }).uncheck();
    await captureScreen(page, 'operations-logs', expectNoSidewaysScroll);
  });

  it('offers the diagnostics bundle and the upgrade status', async () => {
    await tab('System');
    await page.getByText(/is up to date/).waitFor();
    const href = await page.getByRole('link', { name: 'Download diagnostics' }).getAttribute('href');
    const zip = await page.request.get(href!);
    expect(zip.status()).toBe(200);
    expect((await zip.body()).subarray(0, 2).toString()).toBe('PK');
    await captureScreen(page, 'operations-system', expectNoSidewaysScroll);
  });

  /** The device code the service polls the registry with (its first poll comes after the code's interval). */
  async function polledDeviceCode(): Promise<string> {
    const polls = () => registry.requests.filter((request) => request.path.endsWith('/auth/device/token'));
    await eventually(() => polls().length).toBeGreaterThan(0);
    const body = polls()[0].body.toString();
    return body.startsWith('{')
      ? (JSON.parse(body) as { device_code: string }).device_code
      : (new URLSearchParams(body).get('device_code') ?? '');
  }
});
