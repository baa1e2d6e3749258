import { CONSOLE_PROFILE_ELEMENT_ID } from '@patchwell/core/constants';
import { afterEach, describe, expect, it } from 'vitest';
import { sendWithPage } from '../test/data-block';
import { buildProfile } from '../test/factories';
import { takePageProfile } from './page-profile';

const LOADED_FROM = 'http://127.0.0.1/console/devices?o=1';

afterEach(() => document.getElementById(CONSOLE_PROFILE_ELEMENT_ID)?.remove());

describe('takePageProfile', () => {
  const profile = buildProfile();

  it('gives the profile sent with the page to the first loader of the page’s own address, once', () => {
    sendWithPage(CONSOLE_PROFILE_ELEMENT_ID, JSON.stringify({ o: 1, profile }));
    expect(takePageProfile('http://127.0.0.1/console/devices?o=1', 1, LOADED_FROM)).toEqual({
      profile,
      banners: undefined,
    });
    expect(document.getElementById(CONSOLE_PROFILE_ELEMENT_ID)).toBeNull();
    expect(takePageProfile('http://127.0.0.1/console/devices?o=1', 1, LOADED_FROM)).toBeUndefined();
  });

  it('is for the address the document was loaded from: a later page asks the server (and the block is dropped)', () => {
    sendWithPage(CONSOLE_PROFILE_ELEMENT_ID, JSON.stringify({ o: 1, profile }));
    expect(takePageProfile('http://127.0.0.1/console/dashboard?o=1', 1, LOADED_FROM)).toBeUndefined();
    expect(document.getElementById(CONSOLE_PROFILE_ELEMENT_ID)).toBeNull();
  });

  it('is for the zone it was asked with', () => {
    sendWithPage(CONSOLE_PROFILE_ELEMENT_ID, JSON.stringify({ o: 2, profile }));
    expect(takePageProfile('http://127.0.0.1/console/devices?o=1', 1, LOADED_FROM)).toBeUndefined();
    sendWithPage(CONSOLE_PROFILE_ELEMENT_ID, JSON.stringify({ o: null, profile }));
    expect(takePageProfile('http://127.0.0.1/console/devices', undefined, 'http://127.0.0.1/console/devices')).toEqual({
      profile,
      banners: undefined,
    });
  });

  it('ignores a block that is not a profile, and a page without one', () => {
    expect(takePageProfile('http://127.0.0.1/console/devices?o=1', 1, LOADED_FROM)).toBeUndefined();
    sendWithPage(CONSOLE_PROFILE_ELEMENT_ID, '{"o":1,"profile":');
    expect(takePageProfile('http://127.0.0.1/console/devices?o=1', 1, LOADED_FROM)).toBeUndefined();
    sendWithPage(CONSOLE_PROFILE_ELEMENT_ID, JSON.stringify({ o: 1, profile: { name: 'not a profile' } }));
    expect(takePageProfile('http://127.0.0.1/console/devices?o=1', 1, LOADED_FROM)).toBeUndefined();
  });

  it('gives the banners sent with it, and leaves out banners that are not a list of banners', () => {
    const banners = [{ id: 3, message: 'Maintenance tonight', messagetype: 'maintenance' as const }];
    sendWithPage(CONSOLE_PROFILE_ELEMENT_ID, JSON.stringify({ o: 1, profile, banners }));
    expect(takePageProfile('http://127.0.0.1/console/devices?o=1', 1, LOADED_FROM)).toEqual({ profile, banners });
    // The server could not read them (null), or something else came: the shell asks for them.
    for (const sent of [null, [{ id: 'x' }]]) {
      sendWithPage(CONSOLE_PROFILE_ELEMENT_ID, JSON.stringify({ o: 1, profile, banners: sent }));
      expect(takePageProfile('http://127.0.0.1/console/devices?o=1', 1, LOADED_FROM)).toEqual({
        profile,
        banners: undefined,
      });
    }
  });

  it('takes nothing when the document’s address is unknown', () => {
    sendWithPage(CONSOLE_PROFILE_ELEMENT_ID, JSON.stringify({ o: 1, profile }));
    expect(takePageProfile('http://127.0.0.1/console/devices?o=1', 1, undefined)).toBeUndefined();
  });
});
