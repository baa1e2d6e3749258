import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { AGENT_VERSION } from '@patchwell/agent/version';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../http/errors';
import { buildZoneWithKey, checkinAs } from '../test/agents';
import { startTestApp, type TestApp } from '../test/app';
import { AGENT_DOWNLOAD_PATH, agentBundle, createAgentBundleSource } from './agent-bundle';
import { agentDownloadRoutes } from './agent-download.routes';
import { agentInstallCommands, shQuote } from './agent-install';

let t: TestApp;
let dir: string;

beforeAll(async () => {
  // `npm start` builds the agent; a test run may come before any build.
  if (!existsSync(agentBundle.file)) {
    execFileSync(process.execPath, [path.resolve(agentBundle.file, '../../scripts/build.mjs')], { stdio: 'pipe' });
  }
  t = await startTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'pw-agent-download-'));
}, 60_000);
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

/** The download route alone, on a real listening server, serving `file`. */
async function downloadApp(file: string): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  await agentDownloadRoutes(app, createAgentBundleSource(file));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

describe('GET /api/agent/v1/download/patchwell-agent.cjs', () => {
  it('serves the built agent without sign-in, with its checksum, and the file runs', async () => {
    const res = await t.request(AGENT_DOWNLOAD_PATH);
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    const sha256 = createHash('sha256').update(body).digest('hex');
    expect(res.headers.get('x-checksum-sha256')).toBe(sha256);
    expect(res.headers.get('etag')).toBe(`"${sha256}"`);
    expect(res.headers.get('cache-control')).toBe('public, no-cache');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="patchwell-agent.cjs"');
    expect(res.headers.get('repr-digest')).toBe(`sha-256=:${createHash('sha256').update(body).digest('base64')}:`);

    const file = path.join(dir, 'patchwell-agent.cjs');
    await writeFile(file, body);
    expect(execFileSync(process.execPath, [file, 'version'], { cwd: dir, encoding: 'utf8' }).trim()).toBe(
      AGENT_VERSION,
    );
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const first = await t.request(AGENT_DOWNLOAD_PATH);
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const again = await t.request(AGENT_DOWNLOAD_PATH, { headers: { 'if-none-match': `"other", ${etag}` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const stale = await t.request(AGENT_DOWNLOAD_PATH, { headers: { 'if-none-match': '"other"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  it('answers HEAD with the headers only', async () => {
    const res = await t.request(AGENT_DOWNLOAD_PATH, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-checksum-sha256')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('says how to build the agent when it is not built', async () => {
    const { app, url } = await downloadApp(path.join(dir, 'missing.cjs'));
    try {
      const res = await fetch(`${url}${AGENT_DOWNLOAD_PATH}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        code: 'agent.bundle_missing',
        message: 'The agent is not built on this server: run "npm run build -w @patchwell/agent".',
      });
    } finally {
      await app.close();
    }
  });

  it('serves a rebuilt agent without a restart', async () => {
    const file = path.join(dir, 'rebuilt.cjs');
    await writeFile(file, 'console.log(1);\n');
    const { app, url } = await downloadApp(file);
    try {
      const before = await fetch(`${url}${AGENT_DOWNLOAD_PATH}`);
      expect(await before.text()).toBe('console.log(1);\n');
      await writeFile(file, 'console.log(22);\n');
      // A rebuild within the file system's time resolution is still told apart by its size.
      await utimes(file, new Date(), new Date(Date.now() + 5000));
      const after = await fetch(`${url}${AGENT_DOWNLOAD_PATH}`);
      expect(await after.text()).toBe('console.log(22);\n');
      expect(after.headers.get('x-checksum-sha256')).toBe(
        createHash('sha256').update('console.log(22);\n').digest('hex'),
      );
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/info install commands', () => {
  it('check the served file’s checksum and carry the zone key', async () => {
    const zone = await buildZoneWithKey(t);
    const info = await zone.admin.get(`/api/info?o=${zone.zone.id}`);
    expect(info.status).toBe(200);
    const served = await t.request(AGENT_DOWNLOAD_PATH);
    const sha256 = served.headers.get('x-checksum-sha256')!;
    await served.arrayBuffer();
    expect(info.body.agent).toEqual({
      download_url: `${info.body.server_url}${AGENT_DOWNLOAD_PATH}`,
      sha256,
      size_bytes: expect.any(Number),
    });
    expect(info.body.install.linux).toContain(`| sha256sum -c -`);
    expect(info.body.install.linux).toContain(sha256);
    expect(info.body.install.mac).toContain(`| shasum -a 256 -c -`);
    expect(info.body.install.windows).toContain(`-ne '${sha256}'`);
  });

  it('the downloaded agent enrols with the commands’ arguments against this server', async () => {
    const zone = await buildZoneWithKey(t);
    const file = path.join(dir, 'enrol.cjs');
    await writeFile(file, Buffer.from(await (await t.request(AGENT_DOWNLOAD_PATH)).arrayBuffer()));
    const state = path.join(dir, 'state', 'state.json');
    // Asynchronously: the server under test answers from this very process.
    const out = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [file, 'enroll', '--server', t.url, '--key', zone.accessKey, '--state', state],
        { cwd: dir, timeout: 30_000 },
        (_err, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    // The stored identity is the server's: its token checks in.
    const saved = JSON.parse(await readFile(state, 'utf8')) as { token: string; server: string };
    expect(saved.server).toBe(t.url);
    expect((await checkinAs(t, saved.token)).status).toBe(200);
  });
});

describe('agentInstallCommands', () => {
  const input = { serverUrl: 'https://pw.example', accessKey: 'k3y', sha256: 'ab'.repeat(32) };

  it.each(['linux', 'mac'] as const)('gives %s a shell script that parses and stops at the first failure', (os) => {
    const script = agentInstallCommands(input)[os];
    expect(spawnSync('sh', ['-n', '-c', script]).status).toBe(0);
    const commands = script.split('\n').filter((l) => !l.startsWith('#'));
    expect(commands.slice(0, -1).every((l) => l.endsWith(' && \\'))).toBe(true);
    expect(script).toContain(
      'sudo curl -fsSLo /opt/patchwell/patchwell-agent.cjs https://pw.example/api/agent/v1/download/patchwell-agent.cjs',
    );
    expect(script).toContain(
      'sudo node /opt/patchwell/patchwell-agent.cjs enroll --server https://pw.example --key k3y',
    );
  });

  it('quotes the placeholder and odd values for the shell', () => {
    const { linux } = agentInstallCommands({ ...input, accessKey: null, sha256: null });
    expect(linux).toContain("--key '<ACCESS_KEY>'");
    expect(linux).toContain('has not built the agent');
    expect(linux).not.toContain('sha256sum');
    expect(shQuote("it's")).toBe(`'it'\\''s'`);
    expect(spawnSync('sh', ['-c', `printf %s ${shQuote("a b'c$HOME")}`], { encoding: 'utf8' }).stdout).toBe(
      "a b'c$HOME",
    );
  });
});
