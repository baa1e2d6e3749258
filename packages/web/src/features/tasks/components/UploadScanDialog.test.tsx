import type { Batch } from '@patchwell/core/remediation/batches.schema';
import { TEXTS } from '@patchwell/core/texts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { api } from '../../../api/client';
import { renderAt } from '../../../test/render';
import { startTestServer, type TestReply } from '../../../test/server';
import { buildBatch, buildFormat } from '../remediation.factories';
import { UPLOAD_TEXTS as T } from '../tasks.texts';
import { UploadScanDialog } from './UploadScanDialog';

const CSV = '"IP","DNS","CVE ID","Severity"\n"10.0.0.11","web-1","CVE-2024-3094","5"\n';
const building = buildBatch({ id: 41, status: 'building', statistics: null, report_source: 'qualys-scan.csv' });

/** The upload's answer: immediate, or held until the test releases it (to cancel mid-upload). */
const state: { reply: TestReply; hold: Promise<void> | null } = { reply: { status: 201, body: building }, hold: null };
let server: Awaited<ReturnType<typeof startTestServer>>;
const uploads = () => server.requests.filter((r) => r.method === 'POST');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/orgs/1/tasks/patch/batches/formats': () => ({
      body: [
        buildFormat({
          name: 'generic',
          label: 'Generic',
          export_name: 'Any list',
          headers: [],
          example: 'Hostname,CVE ID',
        }),
        buildFormat(),
      ],
    }),
    'POST /api/orgs/1/tasks/patch/batches/upload': async () => {
      if (state.hold) await state.hold;
      return state.reply;
    },
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  state.reply = { status: 201, body: building };
  state.hold = null;
});

function renderDialog() {
  const onFinish = vi.fn<(batch: Batch) => void>();
  const onClose = vi.fn();
  renderAt(<UploadScanDialog opened zoneId={1} onClose={onClose} onFinish={onFinish} />);
  return { onFinish, onClose };
}

// The accept attribute would hide a wrongly named file from the picker; the checks behind it are the test's subject.
const user = () => userEvent.setup({ applyAccept: false });
const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const dialog = () => screen.findByRole('dialog', { name: T.title });
const csv = (name = 'qualys-scan.csv', body = CSV) => new File([body], name, { type: 'text/csv' });

async function chooseQualysAndFile(u: ReturnType<typeof user>, file = csv()) {
  const d = await dialog();
  await u.selectOptions(await within(d).findByRole('combobox', { name: T.provider }), 'qualys');
  await u.upload(fileInput(), file);
  return d;
}

describe('scanner upload dialog', () => {
  it('shows the chosen provider’s expected format: its columns and an example', async () => {
    renderDialog();
    const d = await dialog();
    expect(within(d).getByRole('button', { name: T.submit })).toBeDisabled();
    await userEvent.selectOptions(await within(d).findByRole('combobox', { name: T.provider }), 'qualys');
    const columns = within(d).getByRole('table', { name: `${T.expectedFormat}: Qualys` });
    expect(within(columns).getByRole('row', { name: /CVE ID/ })).toHaveTextContent('CVEs, comma-separated');
    expect(within(columns).getByRole('row', { name: /^IP/ })).toHaveTextContent('Asset IPV4');
    expect(within(d).getByText(/"10\.0\.0\.11","web-1"/)).toBeInTheDocument();
  });

  it('refuses a file that is not CSV, or whose name breaks the rule, before uploading', async () => {
    const u = user();
    renderDialog();
    const d = await chooseQualysAndFile(u, new File(['x'], 'scan.xlsx'));
    expect(await within(d).findByText(T.notCsv)).toBeInTheDocument();
    await u.upload(fileInput(), csv('my scan.csv'));
    expect(await within(d).findByText(TEXTS.uploads.fileNameRule)).toBeInTheDocument();
    expect(within(d).getByRole('button', { name: T.submit })).toBeDisabled();
    expect(uploads()).toHaveLength(0);
  });

  it('goes from file verified to uploading to processing begun, then Finish opens the batch', async () => {
    // The dialog shows its own progress: the page's global loader does not count the upload.
    const onRequestStart = vi.fn();
    api.configure({ onRequestStart });
    onTestFinished(() => api.configure({ onRequestStart: undefined }));
    const u = user();
    const { onFinish } = renderDialog();
    const d = await chooseQualysAndFile(u);
    expect(await within(d).findByText(T.verified('qualys-scan.csv'))).toBeInTheDocument();
    const steps = within(d).getByRole('list', { name: T.steps });
    expect(within(steps).getByText(T.stepVerify)).toHaveTextContent('done');

    await u.click(within(d).getByRole('button', { name: T.submit }));
    expect(await within(d).findByText(T.processing)).toBeInTheDocument();
    expect(within(steps).getByText(T.stepProcess)).toHaveTextContent('done');

    const upload = uploads()[0]!;
    expect(upload.query.get('source')).toBe('qualys');
    expect(upload.query.get('o')).toBe('1');
    expect(upload.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.body).toContain('name="file"; filename="qualys-scan.csv"');
    expect(upload.body).toContain(CSV);

    await u.click(within(d).getByRole('button', { name: T.finish }));
    expect(onFinish).toHaveBeenCalledWith(expect.objectContaining({ id: 41, status: 'building' }));
    // The formats came through the api client; the upload did not.
    expect(onRequestStart).toHaveBeenCalledTimes(1);
  });

  it('shows the upload’s progress and can be canceled, storing nothing', async () => {
    let release = () => undefined as void;
    state.hold = new Promise<void>((resolve) => (release = resolve));
    const u = user();
    renderDialog();
    const d = await chooseQualysAndFile(u);
    await u.click(within(d).getByRole('button', { name: T.submit }));
    expect(await within(d).findByRole('progressbar', { name: T.progressLabel })).toBeInTheDocument();
    expect(within(d).getByText(T.uploadingOf('qualys-scan.csv'))).toBeInTheDocument();
    await waitFor(() => expect(uploads()).toHaveLength(1));

    await u.click(within(d).getByRole('button', { name: T.cancelUpload }));
    expect(await within(d).findByText(T.canceled)).toBeInTheDocument();
    expect(within(d).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(d).queryByText(T.processing)).not.toBeInTheDocument();
    // The file and provider stay chosen: uploading again is one click.
    expect(within(d).getByRole('button', { name: T.submit })).toBeEnabled();
    release();
  });

  it('shows the server’s reason for a refused file, naming the line and column', async () => {
    const message = "Line 3, column 'CVE ID': 'CVE-20X4-1' is not a CVE id.";
    state.reply = { status: 400, body: { code: 'batches.invalid_row', message } };
    const u = user();
    renderDialog();
    const d = await chooseQualysAndFile(u);
    await u.click(within(d).getByRole('button', { name: T.submit }));
    const alert = await within(d).findByRole('alert');
    expect(alert).toHaveTextContent(T.failed);
    expect(alert).toHaveTextContent(message);
    expect(within(d).queryByText(T.processing)).not.toBeInTheDocument();
  });

  it('shows every message of a 413 or a multi-error answer', async () => {
    state.reply = {
      status: 413,
      body: { errors: ['The file has 20,001 data rows; at most 20,000 are accepted.', 'Line 20002.'] },
    };
    const u = user();
    renderDialog();
    const d = await chooseQualysAndFile(u);
    await u.click(within(d).getByRole('button', { name: T.submit }));
    const alert = await within(d).findByRole('alert');
    expect(alert).toHaveTextContent('at most 20,000 are accepted');
    expect(alert).toHaveTextContent('Line 20002.');
  });
});
