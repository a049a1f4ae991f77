import path from 'node:path';
import { configSafe, renderTemplate } from './template.ts';

/** The certificate nginx answers HTTPS with, and how its stream module is loaded. */
export interface NginxTls {
  certFile: string;
  keyFile: string;
  /** Path of the dynamic stream module to load; null when nginx has it built in. */
  streamModule: string | null;
}

export interface NginxConfOptions {
  /** Public listen address, e.g. `127.0.0.1:8888`. */
  listenHost: string;
  listenPort: number;
  /** `host:port` of cortex-api and of auth-verify. */
  apiUpstream: string;
  authUpstream: string;
  runDir: string;
  logsDir: string;
  edgeToken: string;
  /** Workers of a root master run as `nobody` unless told otherwise, and then cannot use the run dir. */
  runAsRoot: boolean;
  /** When given, the public port answers HTTPS as well as plain HTTP. */
  tls?: NginxTls | null;
}

/** The unix sockets nginx's http server listens on while TLS is on (the public port is the stream server's). */
export function nginxTlsSockets(runDir: string): { plain: string; tls: string } {
  return { plain: path.join(runDir, 'nginx-plain.sock'), tls: path.join(runDir, 'nginx-tls.sock') };
}

export async function renderNginxConf(options: NginxConfOptions): Promise<string> {
  const host = options.listenHost.includes(':') ? `[${options.listenHost}]` : options.listenHost;
  const listen = configSafe('listen address', `${host}:${options.listenPort}`);
  const tls = options.tls ? tlsParts(options.tls, listen, options.runDir) : null;
  return renderTemplate('nginx/nginx.conf.template', {
    USER_LINE: options.runAsRoot ? 'user root;' : '',
    LOAD_MODULES: tls?.loadModules ?? '',
    TLS_FRONT: tls?.front ?? '',
    TLS_MAPS: tls?.maps ?? '',
    LISTEN: tls?.listen ?? `    listen ${listen};`,
    RUN_DIR: configSafe('run dir', options.runDir),
    LOGS_DIR: configSafe('logs dir', options.logsDir),
    API_UPSTREAM: configSafe('api upstream', options.apiUpstream),
    AUTH_UPSTREAM: configSafe('auth upstream', options.authUpstream),
    EDGE_TOKEN: configSafe('edge token', options.edgeToken),
  });
}

/**
 * HTTPS and plain HTTP on the one public port, as the embedded server does it: a stream server reads the
 * first bytes of each connection and hands a TLS handshake to the server's TLS socket and anything else
 * to its plain one (both unix sockets in the run dir), passing the client's address along in a PROXY
 * protocol header. Plain HTTP from this machine stays served; from elsewhere it is redirected (308).
 */
function tlsParts(tls: NginxTls, listen: string, runDir: string) {
  const sockets = nginxTlsSockets(runDir);
  const plain = configSafe('run dir', `unix:${sockets.plain}`);
  const secure = configSafe('run dir', `unix:${sockets.tls}`);
  return {
    loadModules: tls.streamModule ? `load_module "${configSafe('nginx stream module', tls.streamModule)}";` : '',
    front: `
stream {
  map $ssl_preread_protocol $rhizome_edge {
    "" rhizome_plain;
    default rhizome_tls;
  }
  upstream rhizome_plain {
    server "${plain}";
  }
  upstream rhizome_tls {
    server "${secure}";
  }
  server {
    listen ${listen};
    ssl_preread on;
    proxy_protocol on;
    proxy_pass $rhizome_edge;
  }
}`,
    maps: `  # Which plain requests are redirected to https: those from another machine.
  geo $rhizome_local_client {
    default 0;
    127.0.0.0/8 1;
    ::1/128 1;
  }
  map "$https:$rhizome_local_client" $rhizome_to_https {
    ":0" 1;
    default 0;
  }
`,
    listen: `    listen "${plain}" proxy_protocol;
    listen "${secure}" ssl proxy_protocol;
    set_real_ip_from unix:;
    real_ip_header proxy_protocol;
    ssl_certificate "${configSafe('certificate file', tls.certFile)}";
    ssl_certificate_key "${configSafe('key file', tls.keyFile)}";
    ssl_protocols TLSv1.2 TLSv1.3;
    # 308 keeps the method and the body.
    if ($rhizome_to_https) {
      return 308 https://$http_host$request_uri;
    }`,
  };
}
