/**
 * The side-effecting half of service installation: finds how this agent was started, checks
 * it is safe to run as root, writes the plan's files and runs its commands.
 */
import { realpathSync } from 'node:fs';
import { chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isSea } from 'node:sea';
import type { ProcessRunner } from '../jobs/process.js';
import { unsafeLauncherReason, type ServiceOs, type ServicePlan } from './service.js';

/** This process's launcher: the single executable, or node with the bundle (or the bin) it runs. */
export function currentLauncher(): string[] {
  if (isSea()) return [process.execPath];
  const script = process.argv[1];
  return script ? [process.execPath, realpathSync(script)] : [process.execPath];
}

export function serviceOs(platform: NodeJS.Platform = process.platform): ServiceOs | null {
  if (platform === 'linux') return 'linux';
  if (platform === 'darwin') return 'mac';
  if (platform === 'win32') return 'windows';
  return null;
}

/** Reasons the launcher's files (and the folders holding them) are unsafe for a root service. */
export async function launcherProblems(launcher: string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const file of launcher) {
    for (const target of [file, path.dirname(file)]) {
      const s = await stat(target).catch(() => null);
      if (!s) problems.push(`${target} does not exist`);
      else {
        const reason = unsafeLauncherReason(target, s);
        if (reason) problems.push(reason);
      }
    }
  }
  return [...new Set(problems)];
}

/** Writes, removes, then runs in order; stops at the first failing command not marked `mayFail`. */
export async function applyPlan(plan: ServicePlan, run: ProcessRunner, log: (line: string) => void): Promise<boolean> {
  for (const file of plan.write) {
    await mkdir(path.dirname(file.path), { recursive: true });
    const tmp = `${file.path}.${process.pid}.tmp`;
    await writeFile(tmp, file.content, { mode: file.mode });
    await chmod(tmp, file.mode);
    await rename(tmp, file.path);
    log(`wrote ${file.path}`);
  }
  for (const file of plan.remove) {
    await rm(file, { force: true });
    log(`removed ${file}`);
  }
  for (const c of plan.commands) {
    const out = await run({ command: c.command, args: c.args }, { timeoutMs: 120_000 });
    const shown = c.command === 'powershell.exe' ? 'powershell.exe (service script)' : [c.command, ...c.args].join(' ');
    const ok = !out.spawnError && !out.timedOut && out.exitCode === 0;
    log(`${ok ? 'ran' : 'failed'}: ${shown}${ok ? '' : ` (${out.spawnError ?? `exit ${out.exitCode}`})`}`);
    if (!ok && out.stderr.trim()) log(out.stderr.trim());
    if (!ok && !c.mayFail) return false;
  }
  return true;
}
