import { CONSOLE_TEXTS } from '../../texts';
import type { DeviceDetail, UpdateDeviceBody } from './devices.types';

const T = CONSOLE_TEXTS.device;

/** Limits of `PUT /api/servers/{id}` (core's ZUpdateDeviceBody). */
export const DEVICE_LIMITS = { customName: 255, tag: 100, tags: 100, notes: 10_000 } as const;

/** The device details form as typed: the tags as one comma-separated line. */
export type DeviceFormValues = { customName: string; groupId: string; tags: string; notes: string };
export type DeviceFormErrors = Partial<Record<keyof DeviceFormValues, string>>;

export function deviceFormValues(device: DeviceDetail): DeviceFormValues {
  return {
    customName: device.custom_name ?? '',
    groupId: String(device.server_group_id),
    tags: device.tags.join(', '),
    notes: device.notes,
  };
}

/** Tags typed as 'a, b ,a': trimmed, empty ones dropped, each once. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

export function validateDeviceForm(values: DeviceFormValues): DeviceFormErrors {
  const errors: DeviceFormErrors = {};
  if (values.customName.trim().length > DEVICE_LIMITS.customName) {
    errors.customName = T.tooLong(DEVICE_LIMITS.customName);
  }
  const tags = parseTags(values.tags);
  if (tags.some((t) => t.length > DEVICE_LIMITS.tag)) errors.tags = T.tagTooLong(DEVICE_LIMITS.tag);
  else if (tags.length > DEVICE_LIMITS.tags) errors.tags = T.tooManyTags(DEVICE_LIMITS.tags);
  if (values.notes.length > DEVICE_LIMITS.notes) errors.notes = T.tooLong(DEVICE_LIMITS.notes);
  return errors;
}

/**
 * The PUT body: only the fields that differ from the device, so saving the notes does not
 * also re-send the group (a group change resets the device's check-in interval). An empty custom
 * name clears it (the host name shows again).
 */
export function deviceUpdateBody(device: DeviceDetail, values: DeviceFormValues): UpdateDeviceBody {
  const body: UpdateDeviceBody = {};
  const customName = values.customName.trim();
  if (customName !== (device.custom_name ?? '')) body.custom_name = customName || null;
  if (Number(values.groupId) !== device.server_group_id) body.server_group_id = Number(values.groupId);
  const tags = parseTags(values.tags);
  if ([...tags].sort().join('\n') !== [...device.tags].sort().join('\n')) body.tags = tags;
  if (values.notes !== device.notes) body.notes = values.notes;
  return body;
}
