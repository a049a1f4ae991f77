import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources } from '../support/sources.ts';
import { until } from '../support/wait.ts';
import {
  captureScreen,
  patience,
  eventually,
  openBrowser,
  settled,
  testTimeout,
  viewports,
  type Session,
} from './support/browser.ts';
import { expectPhoneFit, expectShellSettled } from './support/shell.ts';

const password = 'correct horse battery';
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

/** Sign-in and its errors, API keys, the password, signing out, the database switcher and a refused URL import. */
describe('web interface: account, keys, databases', { timeout: testTimeout }, () => {
  let server: TestServer;
  let session: Session;
  let page: Page;
  let cookie: string;

  async function signIn(secret = password) {
    await page.getByLabel('Username').fill('operator');
    await page.getByLabel(/^Password/).fill(secret);
    const [response] = await Promise.all([
      page.waitForResponse('**/api/v1/auth/login'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    return response.status();
  }
  const setLoginWindow = async (seconds: number) => {
    const patched = await server.call('PATCH', '/settings', {
      cookie,
      body: { local_auth: { login_max_attempts: 3, rate_limit_window_seconds: seconds } },
    });
    expect(patched.status, patched.text).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server, 'operator', password);
    // A window long enough for every attempt to land in it however slow the machine; the test shortens it later.
    await setLoginWindow(600);
    session = await openBrowser(server.url);
    page = session.page;
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('says when the password is wrong, then when there were too many attempts, then signs in', async () => {
    await page.goto('/sources');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn('not the password');
    await page.getByRole('alert').getByText('Wrong username or password.').waitFor();
    await signIn('not the password');
    await signIn('not the password');
    await signIn('not the password');
    await page
      .getByRole('alert')
      .getByText(/Too many login attempts; try again in \d+ s/)
      .waitFor();
    await captureScreen(page, 'sign-in-error', expectPhoneFit);
    // With a one-second window the limit ends a second after its start: the next attempts are counted afresh.
    await setLoginWindow(1);
    await until(async () => (await signIn()) === 200, {
      timeoutMs: patience,
      intervalMs: 250,
      what: 'the sign-in to be accepted once the window ends',
    });
    // The address asked for is kept: the sources screen opens after sign-in.
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
  });

  it('explains why a URL import is refused, next to the field', async () => {
    const url = 'http://127.0.0.1:9/private';
    const expected = await server.call('POST', '/sources/url', { cookie: await freshCookie(), body: { url } });
    expect(expected.status).toBeGreaterThanOrEqual(400);
    await page.getByLabel('Import a web page').fill(url);
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByText((expected.body as { message: string }).message, { exact: true }).waitFor();
    await captureScreen(page, 'sources-url-refused', expectPhoneFit);
    // The capture ends by switching back to light, whose colour transitions must end before the window narrows.
    await settled(page, 'light');
    // The shell switches to its phone layout at once: nothing slides when the window narrows.
    await page.setViewportSize(viewports.phone);
    try {
      await page.getByRole('button', { name: 'Open navigation' }).waitFor();
      const sliding = await page.evaluate(
        () =>
          document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
            .length,
      );
      expect(sliding, 'transitions running as the window narrows').toBe(0);
      await expectShellSettled(page);
    } finally {
      await page.setViewportSize(viewports.desktop);
    }
  });

  it('creates an API key shown once with a copy button, which works until it is revoked', async () => {
    await nav(page, 'Settings').click();
    await page.getByText('No keys yet.').waitFor();
    await page.getByLabel('Name of the new key').fill('backup script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-api-key').innerText()).trim();
    expect(key).toMatch(/^cc_live_/);
    await page.getByRole('button', { name: 'Copy the key' }).waitFor();
    expect((await server.call('GET', '/auth/me', { key })).status).toBe(200);
    await captureScreen(page, 'settings');

    await page.getByRole('button', { name: 'Revoke backup script' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No keys yet.').waitFor();
    expect((await server.call('GET', '/auth/me', { key })).status).toBe(401);
  });

  it('switches the active database from the header and stays on the screen, showing its data', async () => {
    const own = await freshCookie();
    const uploaded = await uploadSources(server, own, '/sources', [{ name: 'harbour.txt', content: 'The harbour.' }], {
      extract_entities: 'false',
    });
    expect(uploaded.status, uploaded.text).toBe(202);
    const sourceId = (uploaded.body as { id: string }).id;
    expect((await server.call('POST', '/databases', { cookie: own, body: { name: 'research' } })).status).toBe(201);
    const switcher = page.getByRole('combobox', { name: 'Active database' });
    const switchTo = async (name: string) => {
      await switcher.click();
      await page.getByRole('option', { name }).click();
      await page.getByText(`Now working in the database “${name}”.`).waitFor();
    };
    const current = async () =>
      ((await server.call('GET', '/databases/current', { cookie: await freshCookie() })).body as { current: string })
        .current;

    // A list stays on screen with the other database's items.
    await nav(page, 'Sources').click();
    await page.locator(`tr[data-source-id="${sourceId}"]`).waitFor();
    await switchTo('research');
    await page.getByText('No sources yet').waitFor();
    expect(new URL(page.url()).pathname).toBe('/sources');
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    expect(await current()).toBe('research');
    await switchTo('default');
    await page.locator(`tr[data-source-id="${sourceId}"]`).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sources');

    // A source's own page belongs to its database: the switch opens the list of the other one.
    await page.goto(`/sources/${sourceId}`);
    await page.getByRole('heading', { name: /harbour/ }).waitFor();
    await switchTo('research');
    await page.getByText('No sources yet').waitFor();
    expect(new URL(page.url()).pathname).toBe('/sources');
    await switchTo('default');
    await eventually(current).toBe('default');
  });

  it('changes the password (every session ends) and signs out', async () => {
    await nav(page, 'Settings').click();
    await page.getByLabel(/^Current password/).fill(password);
    await page.getByLabel(/^New password/).fill('a new horse battery');
    await page.getByLabel(/^Repeat the new password/).fill('a new horse battery');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.getByText('Your password was changed: sign in with the new one.').waitFor();
    await signIn('a new horse battery');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();

    await page.getByRole('button', { name: 'Account operator' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    expect((await page.context().cookies()).filter((entry) => entry.name === 'cc_session' && entry.value)).toEqual([]);
  });

  /** A cookie for the test's own API calls (the browser's sessions come and go). */
  async function freshCookie(): Promise<string> {
    const current = (await session.context.cookies()).find((entry) => entry.name === 'cc_session');
    return current ? `cc_session=${current.value}` : cookie;
  }
});
