import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accountId, admin, inZone, q, type Case } from './context';

/** A self-signed certificate with an Apple-like push topic, followed by its key (PEM), made by openssl. */
function applePushPem(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pw-apns-'));
  try {
    const topic = 'com.apple.mgmt.External.00000000-0000-4000-8000-000000000001';
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem', '-days', '400'].concat([
        '-subj',
        `/UID=${topic}/CN=APSP:test/C=US`,
      ]),
      { cwd: dir, stdio: 'ignore' },
    );
    return readFileSync(path.join(dir, 'c.pem'), 'utf8') + readFileSync(path.join(dir, 'k.pem'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** APNS settings: request, upload, removal (with the view-configurations feature on). */
export const apnsCases: Record<string, Case> = {
  'POST /api/apns/csr': {
    run: async () => {
      const flags = await admin().put(`/api/accounts/${accountId}/flags`, { configurations_routes: true });
      if (flags.status !== 200) return flags;
      return admin().post(q('/api/apns/csr'), {});
    },
    action: 'apns.csr_create',
    zone: inZone,
  },
  'PUT /api/apns/certificate': {
    run: () => admin().put(q('/api/apns/certificate'), { format: 'pem', data: applePushPem() }),
    action: 'apns.certificate_upload',
    zone: inZone,
  },
  'DELETE /api/apns': {
    run: () => admin().del(q('/api/apns')),
    action: 'apns.delete',
    zone: inZone,
  },
};
