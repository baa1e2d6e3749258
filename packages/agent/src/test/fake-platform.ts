/** A fake operating system for tests of the run loop and the executor (ports and adapters). */
import type { Platform } from '../platform/platform.js';
import type { Patch, SoftwareItem } from '../protocol.js';

export function createFakePlatform(
  overrides: Partial<Platform> = {},
): Platform & { software_: SoftwareItem[]; patches_: Patch[] } {
  const software_: SoftwareItem[] = [
    { name: 'bash', version: '5.2', source: 'dpkg', arch: 'amd64' },
    { name: 'curl', version: '7.88', source: 'dpkg', arch: 'amd64' },
  ];
  const patches_: Patch[] = [
    {
      name: 'curl',
      current_version: '7.88',
      version: '7.89',
      severity: 'high',
      cves: ['CVE-2026-1234'],
      kb: null,
      source: 'apt:security',
      reboot_required: false,
      published_at: null,
    },
  ];
  return {
    family: 'linux',
    software_,
    patches_,
    machineId: async () => 'fake-machine-1',
    system: async () => ({
      hostname: 'fake-host',
      fqdn: 'fake-host.example.com',
      os_family: 'linux',
      os_name: 'Fake Linux 1',
      os_version: '1',
      arch: 'x86_64',
      kernel: '6.1.0',
      cpu: 'Fake CPU',
      cpu_cores: 2,
      ram_bytes: 2 ** 30,
      disks: [],
      nics: [],
      model: null,
      serial: null,
      vendor: null,
      timezone: 'UTC',
      agent_version: '0.1.0',
      uptime_s: 100,
      logged_in_user: null,
    }),
    status: async () => ({
      uptime_s: 100,
      logged_in_user: null,
      needs_reboot: false,
      ip_addrs: [],
      ip_addrs_private: ['10.0.0.2'],
    }),
    software: async () => [...software_],
    patches: async () => [...patches_],
    packageCommand: (action, { simulate }) => ({
      command: 'sh',
      args: ['-c', `echo ${simulate ? 'would' : 'did'} ${action.type}`],
    }),
    scriptCommand: (_language, script) => ({ command: 'bash', args: ['-s'], input: script }),
    rebootCommand: (delayS) => ({ command: 'echo', args: ['reboot', String(delayS)] }),
    ...overrides,
  };
}
