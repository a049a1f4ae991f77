import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logging.ts';

export interface ListenOptions {
  host: string;
  port: number;
}

/** HOST and PORT from the environment, with the service's own default port. */
export function listenOptionsFromEnv(defaultPort: number, env: NodeJS.ProcessEnv = process.env): ListenOptions {
  const port = env.PORT === undefined || env.PORT === '' ? defaultPort : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  return { host: env.HOST || '127.0.0.1', port };
}

export function listen(server: Server, options: ListenOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve(`http://${host}:${address.port}`);
    });
  });
}

/**
 * Runs `stop` once on SIGINT or SIGTERM, then exits. A second signal exits at once, for the operator
 * whose clean shutdown hangs.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info(`${signal} received, stopping`);
    stop()
      .then(() => {
        logger.info('stopped');
        logger.on('finish', () => process.exit(0));
        logger.end();
        setTimeout(() => process.exit(0), 500).unref();
      })
      .catch((error: unknown) => {
        logger.error(`stop failed: ${String(error)}`);
        process.exit(1);
      });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** Closes an HTTP server, ending idle keep-alive connections so close() does not wait for them. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2000).unref();
  });
}

/** One line for the operator when the server cannot listen for a reason of the machine, else null (a bug: keep its stack). */
export function listenFailure(error: unknown, options: ListenOptions): string | null {
  const where = `${options.host}:${options.port}`;
  switch ((error as NodeJS.ErrnoException | null)?.code) {
    case 'EADDRINUSE':
      return `port ${options.port} on ${options.host} is already in use: stop what listens there, or choose another port (--port or PORT)`;
    case 'EACCES':
      return `no permission to listen on ${where}: choose a port above 1023 (--port or PORT)`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${options.host} is not an address of this machine (--host or HOST)`;
    default:
      return null;
  }
}
