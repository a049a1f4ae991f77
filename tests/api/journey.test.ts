import { afterAll, beforeAll, describe } from 'vitest';
import { journeySteps } from '../support/journey.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// The stack runs the same steps through nginx (tests/stack/journey.test.ts).
describe('a first session on the embedded default', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  journeySteps(() => server.base);
});
