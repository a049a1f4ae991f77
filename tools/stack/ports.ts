import net from 'node:net';

/** Fails fast, naming the port, when one of `ports` is taken — rather than letting a program crash-loop. */
export async function assertPortsFree(ports: Record<string, { host: string; port: number }>): Promise<void> {
  const seen = new Map<number, string>();
  for (const [label, { host, port }] of Object.entries(ports)) {
    const clash = seen.get(port);
    if (clash) throw new Error(`${label} and ${clash} both use port ${port}`);
    seen.set(port, label);
    await new Promise<void>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(new Error(`${label} port ${host}:${port} is not available (${error.code ?? error.message})`)),
      );
      server.listen(port, host, () => server.close(() => resolve()));
    });
  }
}
