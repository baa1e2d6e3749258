/**
 * The agent's identity on disk: server, device id, token, the zone key (to re-enrol after
 * 401 agent.invalid_token) and the check-in interval. Written atomically with mode 0600
 * because the token and key are credentials.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PendingReboot } from '../jobs/notices.js';

export type AgentState = {
  server: string;
  access_key: string;
  machine_id: string;
  device_id: number;
  device_uuid: string;
  token: string;
  checkin_interval_s: number;
  enrolled_at: string;
  last_checkin_at?: string | null;
  inventory_hash?: string | null;
  /** A restart the user deferred: the service asks again at its `due_at`. */
  pending_reboot?: PendingReboot | null;
};

/** /var/lib/patchwell-agent/state.json for root, ~/.patchwell-agent/state.json otherwise. */
export function defaultStatePath(uid: number | undefined = process.getuid?.(), home: string = os.homedir()): string {
  if (uid === 0) return '/var/lib/patchwell-agent/state.json';
  return path.join(home, '.patchwell-agent', 'state.json');
}

export async function readState(file: string): Promise<AgentState | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return JSON.parse(text) as AgentState;
}

export async function writeState(file: string, state: AgentState): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  // The mode of writeFile is masked by the umask; make sure.
  await chmod(tmp, 0o600);
  await rename(tmp, file);
}
