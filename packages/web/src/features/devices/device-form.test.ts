import { describe, expect, it } from 'vitest';
import { CONSOLE_TEXTS } from '../../texts';
import { buildDevice } from '../../test/factories';
import { deviceFormValues, deviceUpdateBody, parseTags, validateDeviceForm } from './device-form';
import type { DeviceDetail } from './devices.types';

const device: DeviceDetail = {
  ...buildDevice({ id: 1, custom_name: null, tags: ['ci', 'prod'], server_group_id: 3 }),
  detail: null,
  notes: '',
  package_count: 0,
  last_inventory_at: null,
  next_maintenance_window: null,
  commands: [],
};

describe('the device form', () => {
  it('sends nothing when nothing changed, whatever the tags’ order or spacing', () => {
    expect(deviceUpdateBody(device, { ...deviceFormValues(device), tags: ' prod ,ci,ci ' })).toEqual({});
  });

  it('sends only what changed, and clears the custom name when emptied', () => {
    const named = { ...device, custom_name: 'Builder' };
    expect(deviceUpdateBody(named, { ...deviceFormValues(named), customName: '  ', groupId: '4' })).toEqual({
      custom_name: null,
      server_group_id: 4,
    });
    expect(parseTags('a, b ,,a')).toEqual(['a', 'b']);
  });

  it('checks the API’s limits', () => {
    const values = deviceFormValues(device);
    expect(validateDeviceForm(values)).toEqual({});
    expect(
      validateDeviceForm({
        ...values,
        customName: 'n'.repeat(256),
        tags: Array.from({ length: 101 }, (_, i) => `t${i}`).join(','),
        notes: 'x'.repeat(10_001),
      }),
    ).toEqual({
      customName: CONSOLE_TEXTS.device.tooLong(255),
      tags: CONSOLE_TEXTS.device.tooManyTags(100),
      notes: CONSOLE_TEXTS.device.tooLong(10_000),
    });
  });
});
