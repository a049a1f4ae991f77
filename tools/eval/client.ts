/**
 * A signed-in HTTP client of a Rhizome server for the eval: the account is created on a fresh data
 * directory and signed into on a kept one.
 */
export interface EvalClient {
  base: string;
  /** JSON in, JSON out; throws on any status other than `expect`. */
  json<T>(method: string, apiPath: string, body?: unknown, expect?: number): Promise<T>;
  /** A multipart POST; throws on any status other than `expect`. */
  form<T>(apiPath: string, form: FormData, expect?: number): Promise<T>;
}

const account = { username: 'eval', password: 'retrieval evaluation account' };

async function signIn(base: string): Promise<string> {
  const post = (apiPath: string) =>
    fetch(`${base}${apiPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
  let response = await post('/auth/setup');
  if (response.status === 409) response = await post('/auth/login');
  if (!response.ok) throw new Error(`signing in: ${response.status} ${await response.text()}`);
  const cookie = response.headers.get('set-cookie');
  if (!cookie) throw new Error('signing in: no session cookie');
  return cookie.split(';')[0];
}

export async function connect(base: string): Promise<EvalClient> {
  const cookie = await signIn(base);
  const check = async <T>(label: string, response: Response, expect: number): Promise<T> => {
    const text = await response.text();
    if (response.status !== expect) throw new Error(`${label}: ${response.status} ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : null) as T;
  };
  return {
    base,
    json: async (method, apiPath, body, expect = 200) => {
      const headers: Record<string, string> = { cookie };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${base}${apiPath}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return check(`${method} ${apiPath}`, response, expect);
    },
    form: async (apiPath, form, expect = 202) =>
      check(
        `POST ${apiPath}`,
        await fetch(`${base}${apiPath}`, { method: 'POST', headers: { cookie }, body: form }),
        expect,
      ),
  };
}
