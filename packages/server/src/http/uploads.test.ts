import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_IMPORT_MAX_BYTES } from '@patchwell/core/devices/host-imports.schema';
import { buildZoneWithKey } from '../test/agents';
import { startTestApp, type TestApp } from '../test/app';

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildZoneWithKey(t);
});
afterAll(async () => {
  await t.close();
});

const BOUNDARY = 'patchwell-upload-test';

/** A host-import CSV of about `bytes` bytes, in rows of 260 bytes (so 1 MiB stays under the row limit). */
function csvOf(bytes: number, prefix: string): { csv: Buffer; rows: number } {
  const lines = ['hostname,notes'];
  let size = lines[0]!.length + 1;
  while (size < bytes) {
    const line = `${prefix}-${String(lines.length).padStart(5, '0')},${'n'.repeat(240)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return { csv: Buffer.from(`${lines.join('\n')}\n`), rows: lines.length - 1 };
}

/**
 * Uploads `file` as a browser does: in pieces, the first of which ends exactly at the import's
 * limit. The multipart parser then learns of the cut only after the reader has taken the last
 * piece it passed on, which is how a 1.1 MiB file from the console was once cut and accepted.
 */
async function uploadInPieces(file: Buffer, dryRun: boolean) {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="hosts.csv"\r\n` +
      'Content-Type: text/csv\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const cut = Math.min(file.length, HOST_IMPORT_MAX_BYTES);
  async function* pieces() {
    yield Buffer.concat([head, file.subarray(0, cut)]);
    // Let the server read everything sent so far before the rest arrives (event-loop turns, no clock).
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    yield Buffer.concat([file.subarray(cut), tail]);
  }
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/servers/imports?o=${z.zone.id}${dryRun ? '&dry_run=true' : ''}`,
    headers: { cookie: z.cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: Readable.from(pieces()),
  });
  return { status: res.statusCode, body: res.json() };
}

const importedCount = async (search: string) =>
  (await z.admin.get(`/api/servers/imports?o=${z.zone.id}&search=${search}`)).body.size as number;

describe('host-import uploads (defect 4)', () => {
  it('refuses a file just over 1 MiB with 413 and stores none of its rows', async () => {
    const { csv } = csvOf(HOST_IMPORT_MAX_BYTES + 300, 'over');
    expect(csv.length).toBeGreaterThan(HOST_IMPORT_MAX_BYTES);
    for (const dryRun of [true, false]) {
      const res = await uploadInPieces(csv, dryRun);
      expect(res).toEqual({
        status: 413,
        body: {
          code: 'host_imports.too_large',
          message: 'The file is larger than 1 MiB. Split it into smaller files.',
        },
      });
    }
    expect(await importedCount('over-')).toBe(0);
  });

  it('imports every row of a file just under 1 MiB', async () => {
    const { csv, rows } = csvOf(HOST_IMPORT_MAX_BYTES - 300, 'under');
    expect(csv.length).toBeLessThanOrEqual(HOST_IMPORT_MAX_BYTES);
    const res = await uploadInPieces(csv, false);
    expect(res.status).toBe(201);
    expect(res.body.summary).toMatchObject({ total: rows, imported: rows, error: 0 });
    expect(await importedCount('under-')).toBe(rows);
  });

  it('refuses a CSV holding a NUL character with 400 and stores none of its rows', async () => {
    const csv = Buffer.from('hostname,notes\nnul-1,fine\nnul-2,a\u0000b\n');
    const res = await uploadInPieces(csv, false);
    expect(res).toEqual({
      status: 400,
      body: {
        code: 'host_imports.nul_character',
        message: 'Line 3 holds a NUL character, so this is not a text file. Save it as “CSV UTF-8” and upload that.',
      },
    });
    expect(await importedCount('nul-')).toBe(0);
  });
});
