import { CONSOLE_CONFIG_ELEMENT_ID } from '@patchwell/core/constants';
import { afterEach, describe, expect, it } from 'vitest';
import { sendWithPage } from '../test/data-block';
import { buildClientConfig } from '../test/factories';
import { takePageConfig } from './page-config';

/** What GET /api/shared/js/config answers, as the server writes it into the page (server/src/http/console.ts). */
const config = buildClientConfig({ countries: [{ name: 'Ireland', code: 'IE' }] });

afterEach(() => document.getElementById(CONSOLE_CONFIG_ELEMENT_ID)?.remove());

describe('takePageConfig', () => {
  it('gives the configuration sent with the page, once (the block is dropped)', () => {
    sendWithPage(CONSOLE_CONFIG_ELEMENT_ID, JSON.stringify(config));
    expect(takePageConfig()).toEqual(config);
    expect(document.getElementById(CONSOLE_CONFIG_ELEMENT_ID)).toBeNull();
    expect(takePageConfig()).toBeUndefined();
  });

  it('gives nothing for a page without one, a block that is not JSON, or not a configuration', () => {
    expect(takePageConfig()).toBeUndefined();
    sendWithPage(CONSOLE_CONFIG_ELEMENT_ID, '{"environment":');
    expect(takePageConfig()).toBeUndefined();
    sendWithPage(CONSOLE_CONFIG_ELEMENT_ID, JSON.stringify({ ...config, session: null }));
    expect(takePageConfig()).toBeUndefined();
  });
});
