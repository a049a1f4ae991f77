import { describe, expect, it } from 'vitest';
import { isLoopback } from '../src/tls/same-port.ts';

describe('plain HTTP while TLS is on', () => {
  it('stays served to this machine, in IPv4, IPv6 and IPv4-mapped form, and to nothing else', () => {
    for (const address of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1']) expect(isLoopback(address)).toBe(true);
    for (const address of ['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', 'fe80::1', '128.0.0.1', undefined])
      expect(isLoopback(address)).toBe(false);
  });
});
