import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../api/client';
import { CONSOLE_TEXTS } from '../../../texts';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { ManualImportDialog } from './ManualImportDialog';

const T = CONSOLE_TEXTS.devices;
const info = (serverUrl: string, loopback: boolean) => ({
  server_url: serverUrl,
  server_url_is_loopback: loopback,
  access_key: 'zone-key-123',
  install: {
    linux: `curl -fsSL ${serverUrl}/agent`,
    mac: `curl -fsSL ${serverUrl}/agent`,
    windows: `iwr ${serverUrl}/agent`,
  },
});

let server: Awaited<ReturnType<typeof startTestServer>>;
let answer = info('http://127.0.0.1:8080', true);

beforeAll(async () => {
  server = await startTestServer({ 'GET /api/info': () => ({ body: answer }) });
  api.configure({ baseUrl: server.url });
});
afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

const open = () =>
  renderRoutes([{ path: '/', element: <ManualImportDialog opened zoneId={1} onClose={() => undefined} /> }], '/');

describe('Devices › Add Devices › Manual import', () => {
  it('says when the address agents would use is loopback, and how to set PATCHWELL_PUBLIC_URL', async () => {
    answer = info('http://127.0.0.1:8080', true);
    const { unmount } = open();
    const dialog = await screen.findByRole('dialog', { name: T.manualTitle });
    expect(await within(dialog).findByText(T.loopbackTitle)).toBeInTheDocument();
    expect(within(dialog).getByText(T.loopbackBody('http://127.0.0.1:8080'))).toBeInTheDocument();
    unmount();
  });

  it('says nothing of it for a public address', async () => {
    answer = info('https://patch.example.com', false);
    open();
    const dialog = await screen.findByRole('dialog', { name: T.manualTitle });
    expect(await within(dialog).findByDisplayValue('zone-key-123')).toBeInTheDocument();
    expect(within(dialog).queryByText(T.loopbackTitle)).not.toBeInTheDocument();
  });
});
