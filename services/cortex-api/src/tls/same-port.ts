import type http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import type { TlsCredentials, TlsStore } from './store.ts';

/**
 * Whether a connection comes from this machine: plain HTTP from here stays served while TLS is on, so
 * scripts and the CLI on `http://127.0.0.1` keep working (browsers treat localhost as secure, so a
 * `Secure` cookie still works there); a plain request from elsewhere is redirected.
 */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4 === '::1' || /^127\./.test(v4);
}

/** The first byte of a TLS record carrying a handshake (a ClientHello opens every TLS connection). */
const TLS_HANDSHAKE = 0x16;

/**
 * Makes `server` answer HTTPS on its own port whenever the store holds credentials: each connection's
 * first byte tells a TLS handshake from plain HTTP, and the handshake goes to an HTTPS server that
 * shares the app. While TLS is on, a plain request from another machine is redirected to its https address
 * (308 keeps the method and body); while it is off, a handshake is refused. A new certificate applies to the next
 * connection, with no restart. Closing all of `server`'s connections closes the HTTPS ones too.
 */
export function serveTlsOnSamePort(server: http.Server, app: http.RequestListener, store: TlsStore): void {
  const [plainConnection] = server.listeners('connection') as ((socket: net.Socket) => void)[];
  server.removeAllListeners('connection');
  let secure: https.Server | null = null;
  let enabled = false;
  const apply = (credentials: TlsCredentials | null) => {
    enabled = credentials !== null;
    if (!credentials) return;
    if (secure) secure.setSecureContext({ cert: credentials.cert, key: credentials.key });
    else secure = https.createServer({ cert: credentials.cert, key: credentials.key }, app);
  };
  apply(store.read());
  store.onChange(apply);

  const plainApp = server.listeners('request') as http.RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!enabled || isLoopback(req.socket.remoteAddress)) {
      for (const listener of plainApp) listener(req, res);
      return;
    }
    const host = req.headers.host ?? `localhost:${(server.address() as net.AddressInfo).port}`;
    res.writeHead(308, { location: `https://${host}${req.url ?? '/'}`, 'content-length': '0' });
    res.end();
  });

  // Every connection, whichever server it went to: closing all of them must reach the HTTPS ones too.
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE) {
        if (enabled && secure) secure.emit('connection', socket);
        else socket.destroy();
      } else plainConnection.call(server, socket);
      process.nextTick(() => socket.resume());
    });
  });

  const closeIdle = server.closeIdleConnections.bind(server);
  const closeAll = server.closeAllConnections.bind(server);
  server.closeIdleConnections = () => {
    closeIdle();
    secure?.closeIdleConnections();
  };
  server.closeAllConnections = () => {
    closeAll();
    for (const socket of sockets) socket.destroy();
  };
}
