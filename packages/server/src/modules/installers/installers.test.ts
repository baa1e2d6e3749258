import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@patchwell/agent/api/client';
import { executeCommand } from '@patchwell/agent/jobs/executor';
import { createFakePlatform } from '@patchwell/agent/test/fake-platform';
import type { AgentCommand } from '@patchwell/core/agent/agent-protocol.schema';
import { ConfigError, loadConfig } from '../../config';
import { startTestApp, type JsonBody, type TestApp } from '../../test/app';
import { deviceCommands } from '../../db/devices.schema';
import { flushLastSeen, agentCall, checkinAs } from '../../test/agents';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildUser, buildZone } from '../../test/factories';
import {
  buildPolicyZone,
  commandsOf,
  inventoriedDevice,
  postResult,
  requiredSoftwareBody,
  type TestZone,
} from '../../test/policy-fixtures';
import { installerPath, installersRoot } from './installers.files';

/** Installers of required-software policies through HTTP: upload, limits, zones, the agent's download, clone. */

const LIMIT = 64 * 1024;
let t: TestApp;
let z: TestZone;
let other: TestZone;

beforeAll(async () => {
  // A small limit, so the 413 path needs no 512 MiB body.
  t = await startTestApp({ config: { installerMaxBytes: LIMIT } });
  z = await buildPolicyZone(t);
  other = await buildPolicyZone(t);
});
afterAll(async () => {
  await t.close();
});

// What the agent test runs as the install command: prints the checksum of the file it was given.
const CHECKSUM_COMMAND = 'sha256sum "$INSTALLER" | cut -c1-64';
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function upload(caller: { cookie: string }, o: number, bytes: Uint8Array, name = 'setup.sh') {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const res = await t.request(`/api/policies/installers?o=${o}`, {
    method: 'POST',
    headers: { cookie: caller.cookie },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as JsonBody };
}

function withInstaller(zone: TestZone, installer: unknown, extra = {}, command = 'bash "$INSTALLER"') {
  return requiredSoftwareBody(
    [zone.defaultGroupId],
    { package_name: 'acme-tool', installer, installation_code: command },
    extra,
  );
}

describe('INSTALLER_MAX_BYTES', () => {
  it('defaults to 512 MiB, the most the policies accept', () => {
    expect(loadConfig({}).installerMaxBytes).toBe(512 * 1024 * 1024);
    expect(loadConfig({ INSTALLER_MAX_BYTES: '1048576' }).installerMaxBytes).toBe(1048576);
    expect(() => loadConfig({ INSTALLER_MAX_BYTES: String(512 * 1024 * 1024 + 1) })).toThrow(ConfigError);
  });
});

describe('POST /api/policies/installers', () => {
  it('stores the file under its sha256 in the zone’s folder and answers its metadata', async () => {
    const bytes = randomBytes(5000);
    const res = await upload(z, z.o, bytes, 'acme-setup.sh');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), name: 'acme-setup.sh', size_bytes: 5000, sha256: sha(bytes) });
    expect(existsSync(installerPath(t.ctx.config, z.o, sha(bytes)))).toBe(true);
    const read = await z.admin.get(`/api/policies/installers/${res.body.id}?o=${z.o}`);
    expect(read).toMatchObject({ status: 200, body: res.body });
  });

  it('refuses a file above the limit with 413 and keeps nothing of it', async () => {
    const bytes = randomBytes(LIMIT + 1);
    const res = await upload(z, z.o, bytes);
    expect(res).toMatchObject({ status: 413, body: { code: 'installers.too_large' } });
    expect(res.body.message).toBe('The installer is larger than 65,536 bytes.');
    expect(existsSync(installerPath(t.ctx.config, z.o, sha(bytes)))).toBe(false);
    expect(readdirSync(path.join(installersRoot(t.ctx.config), 'tmp'))).toEqual([]);
    // Exactly the limit is fine.
    expect((await upload(z, z.o, randomBytes(LIMIT))).status).toBe(201);
  });

  it('hides other zones’ installers (404) and needs the create or modify permission (403)', async () => {
    const mine = await upload(z, z.o, randomBytes(100));
    expect((await other.admin.get(`/api/policies/installers/${mine.body.id}?o=${other.o}`)).status).toBe(404);
    expect((await other.admin.get(`/api/policies/installers/${mine.body.id}?o=${z.o}`)).status).toBe(404);
    expect((await other.admin.del(`/api/policies/installers/${mine.body.id}?o=${other.o}`)).status).toBe(404);
    expect((await upload(other, z.o, randomBytes(10))).status).toBe(404);
    expect((await z.admin.get(`/api/policies/installers/not-a-uuid?o=${z.o}`)).status).toBe(404);

    const reader = await buildUser(t.db, { accountId: z.account.id, zones: { [z.o]: 2 } });
    const ro = { cookie: await cookieFor(t, reader) };
    expect((await upload(ro, z.o, randomBytes(10))).status).toBe(403);
    expect((await clientFor(t, ro).get(`/api/policies/installers/${mine.body.id}?o=${z.o}`)).status).toBe(200);
    expect((await clientFor(t, ro).del(`/api/policies/installers/${mine.body.id}?o=${z.o}`)).status).toBe(403);
  });
});

describe('policies with an installer', () => {
  it('accepts only an installer of the policy’s own zone, as uploaded', async () => {
    const theirs = await upload(other, other.o, randomBytes(100));
    const refused = await z.admin.post(`/api/policies?o=${z.o}`, withInstaller(z, theirs.body));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({
      'configuration.installer': ['This installer was not uploaded to this zone. Upload the file again.'],
    });
    const mine = await upload(z, z.o, randomBytes(100));
    const tampered = await z.admin.post(
      `/api/policies?o=${z.o}`,
      withInstaller(z, { ...mine.body, sha256: 'a'.repeat(64) }),
    );
    expect(tampered.body.errors['configuration.installer']).toHaveLength(1);
    const created = await z.admin.post(`/api/policies?o=${z.o}`, withInstaller(z, mine.body));
    expect(created.status).toBe(201);
    // The same check on a replace.
    const replaced = await z.admin.put(`/api/policies/${created.body.id}?o=${z.o}`, withInstaller(z, theirs.body));
    expect(replaced.status).toBe(400);
  });

  it('cannot delete an installer a policy references (409), then can once it is unused', async () => {
    const bytes = randomBytes(300);
    const file = await upload(z, z.o, bytes);
    const policy = await z.admin.post(`/api/policies?o=${z.o}`, withInstaller(z, file.body, { name: 'Acme tool' }));
    const refused = await z.admin.del(`/api/policies/installers/${file.body.id}?o=${z.o}`);
    expect(refused).toMatchObject({ status: 409, body: { code: 'installers.in_use' } });
    expect(refused.body.message).toBe(
      'This installer is used by the policy "Acme tool". Remove it from that policy first.',
    );
    expect((await z.admin.del(`/api/policies/${policy.body.id}?o=${z.o}`)).status).toBe(204);
    expect((await z.admin.del(`/api/policies/installers/${file.body.id}?o=${z.o}`)).status).toBe(204);
    expect((await z.admin.get(`/api/policies/installers/${file.body.id}?o=${z.o}`)).status).toBe(404);
    expect(existsSync(installerPath(t.ctx.config, z.o, sha(bytes)))).toBe(false);
  });
});

describe('GET /api/agent/v1/installers/{id}', () => {
  it('serves the file only to a device of the zone with an open install command for it', async () => {
    const bytes = randomBytes(20_000);
    const file = await upload(z, z.o, bytes, 'acme.deb');
    const device = await inventoriedDevice(t, z, 'needs-acme');
    // Commands go to online devices: this one checks in first.
    await checkinAs(t, device.token);
    await flushLastSeen(t);
    const download = () =>
      t.request(`/api/agent/v1/installers/${file.body.id}`, { headers: { authorization: `Bearer ${device.token}` } });
    // No command yet.
    expect((await download()).status).toBe(404);

    const policy = await z.admin.post(`/api/policies?o=${z.o}`, withInstaller(z, file.body, {}, CHECKSUM_COMMAND));
    const run = await z.admin.post(`/api/policies/${policy.body.id}/action?o=${z.o}`, {
      action: 'remediateServer',
      serverId: device.id,
    });
    expect(run.status).toBe(202);
    const [command] = await commandsOf(t, device);
    expect(command).toMatchObject({
      type: 'install_package',
      args: { package: 'acme-tool', installer: file.body, install_command: CHECKSUM_COMMAND },
    });

    const res = await download();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('20000');
    expect(res.headers.get('x-checksum-sha256')).toBe(sha(bytes));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

    // A device of another zone, even knowing the id, and a device of the zone without the command.
    // The foreign device gets an open command naming the id (no policy of its zone can), so only the zone differs.
    const foreign = await inventoriedDevice(t, other, 'foreign');
    await t.db.insert(deviceCommands).values({
      deviceId: foreign.id,
      organizationId: other.o,
      type: 'install_package',
      args: { package: 'acme-tool', installer: file.body, install_command: 'true' },
      timeoutS: 600,
      createdAt: t.clock.now(),
      deadlineAt: new Date(t.clock.now().getTime() + 600_000),
    });
    expect((await agentCall(t, foreign.token, 'GET', `/installers/${file.body.id}`)).status).toBe(404);
    const bystander = await inventoriedDevice(t, z, 'bystander');
    expect((await agentCall(t, bystander.token, 'GET', `/installers/${file.body.id}`)).status).toBe(404);
    expect((await t.request(`/api/agent/v1/installers/${file.body.id}`)).status).toBe(401);

    // The real agent's executor (only the OS under it is a fake) downloads, checks and runs it.
    const result = await executeCommand(command as AgentCommand, {
      platform: createFakePlatform(),
      api: createApiClient(t.url, { token: device.token }),
      allowChanges: true,
    });
    expect(result).toMatchObject({ status: 'success', exit_code: 0 });
    expect(result.stdout_tail).toBe(`${sha(bytes)}\n`);

    // Once the command is finished, the download closes again.
    await postResult(t, device, command!.id, result);
    expect((await download()).status).toBe(404);
  });
});

describe('cloning a policy with an installer', () => {
  it('copies the installer into another zone and references the same one in its own zone', async () => {
    const target = await buildZone(t.db, { accountId: z.account.id });
    const bytes = randomBytes(4000);
    const file = await upload(z, z.o, bytes, 'acme.pkg');
    const source = await z.admin.post(`/api/policies?o=${z.o}`, withInstaller(z, file.body, { name: 'Acme' }));
    const started = await z.admin.post(`/api/policies/${source.body.id}/clone?o=${z.o}`, {
      target_zone_ids: [z.zone.uuid, target.uuid],
    });
    expect(started.status).toBe(202);
    let job = started.body;
    for (let i = 0; i < 200 && job.status !== 'completed' && job.status !== 'error'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      job = (await z.admin.get(`/api/policies/clone-jobs/${started.body.id}?o=${z.o}`)).body;
    }
    expect(job).toMatchObject({ status: 'completed', progress: 100 });
    const byZone = Object.fromEntries(
      (job.data as { org_id: number; policy_id: number }[]).map((c) => [c.org_id, c.policy_id]),
    );

    const same = await z.admin.get(`/api/policies/${byZone[z.o]}?o=${z.o}`);
    expect(same.body.configuration.installer).toEqual(file.body);

    const copy = await z.admin.get(`/api/policies/${byZone[target.id]}?o=${target.id}`);
    const copied = copy.body.configuration.installer;
    expect(copied).toEqual({ ...file.body, id: expect.any(String) });
    expect(copied.id).not.toBe(file.body.id);
    expect((await z.admin.get(`/api/policies/installers/${copied.id}?o=${target.id}`)).body).toEqual(copied);
    expect(existsSync(installerPath(t.ctx.config, target.id, sha(bytes)))).toBe(true);
    // Each zone's row is its own: the target's copy is not the source zone's.
    expect((await z.admin.get(`/api/policies/installers/${copied.id}?o=${z.o}`)).status).toBe(404);
  });
});
