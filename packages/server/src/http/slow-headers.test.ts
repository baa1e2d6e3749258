import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { startTestApp, type TestApp } from '../test/app';

/** Opens a connection, sends half a request's headers and resolves with what the server answers once it closes. */
function sendHalfHeaders(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('slow headers (defect 9)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ config: { headersTimeoutMs: 300 } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a connection that never finishes its headers with 408 and closes it', async () => {
    expect(await sendHalfHeaders(t.url)).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('reads HEADERS_TIMEOUT_MS: 10 s by default, 1 s to 300 s', () => {
    const config = loadConfig({});
    expect(config.headersTimeoutMs).toBe(10_000);
    expect(loadConfig({ HEADERS_TIMEOUT_MS: '2500' }).headersTimeoutMs).toBe(2500);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '10' })).toThrow(ConfigError);
  });
});

describe('the server’s own limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('applies HEADERS_TIMEOUT_MS (10 s by default) to the listening server', () => {
    expect(t.app.server.headersTimeout).toBe(10_000);
  });
});
