import type { Device } from './devices.types';

/** The name a device shows: its custom name, else the display name, else the agent's name or hostname. */
export function deviceLabel(d: Pick<Device, 'display_name' | 'custom_name' | 'name' | 'hostname'>): string {
  return d.custom_name || d.display_name || d.name || d.hostname;
}
