/**
 * Runs one server command on a platform and turns the outcome into a result. Package
 * changes, scripts and reboots touch the machine only when the agent runs with
 * --allow-changes; otherwise package actions run the package manager's simulation and the
 * rest report what would have happened.
 */
import type { NoticeReport } from '@patchwell/core/agent/agent-protocol.schema';
import { AgentApiError, NetworkError, type AgentApi } from '../api/client.js';
import { parseAptSimulation } from '../platform/linux.parsers.js';
import type { PackageAction, Platform } from '../platform/platform.js';
import { TAIL_BYTES, type AgentCommand, type CommandResult, type Inventory, type Patch } from '../protocol.js';
import { retryDelay } from '../run/backoff.js';
import { collectInventory } from './inventory.js';
import {
  downloadInstaller,
  InstallerMismatchError,
  installerJobOf,
  installerSpec,
  removeDownload,
  type InstallerJob,
} from './installer.js';
import { deferredRunText } from '../notify/notifier.js';
import { runRemoteSession } from './remote.js';
import { noticeBeforeRun, rebootAfterRun, type NoticeContext, type PendingReboot } from './notices.js';
import { runProcess, type ProcessOutcome, type ProcessRunner, type ProcessSpec } from './process.js';

export type ExecutorContext = {
  platform: Platform;
  api: AgentApi;
  allowChanges: boolean;
  run?: ProcessRunner;
  /** Receives the inventory collected by a scan or after a change (the run loop keeps its hash). */
  onInventory?: (inventory: Inventory, sent: boolean) => void;
  now?: () => Date;
  /** The latest inventory's patches (which installed ones need a reboot). */
  knownPatches?: Patch[];
  /**
   * Keeps a restart the user deferred (the service saves it in its state and asks again when
   * it is due). Without it (`run --once`), a deferred restart is left to the OS's scheduler.
   */
  deferReboot?: (pending: PendingReboot) => Promise<void>;
  /** The run loop's log (a remote session that ends in the background says so here). */
  log?: (line: string) => void;
  /** The run loop's stop: work that outlives its command (a remote session) ends with it. */
  signal?: AbortSignal;
};

const DEFAULT_TIMEOUT_S = 3600;

function tail(text: string): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= TAIL_BYTES) return text;
  let start = buf.length - TAIL_BYTES;
  while (start < buf.length && (buf[start]! & 0xc0) === 0x80) start++;
  return buf.subarray(start).toString('utf8');
}

function fromOutcome(out: ProcessOutcome, data?: Record<string, unknown>): CommandResult {
  const status = out.timedOut ? 'timed_out' : out.exitCode === 0 && !out.spawnError ? 'success' : 'error';
  return {
    status,
    exit_code: out.exitCode,
    stdout_tail: tail(out.stdout),
    stderr_tail: tail(out.spawnError ? `${out.stderr}${out.spawnError}\n` : out.stderr),
    started_at: out.startedAt.toISOString(),
    finished_at: out.finishedAt.toISOString(),
    ...(data ? { data } : {}),
  };
}

function describe(spec: ProcessSpec): string {
  return [spec.command, ...spec.args].join(' ');
}

function packageAction(cmd: AgentCommand): PackageAction {
  switch (cmd.type) {
    case 'install_all':
      return { type: 'install_all' };
    case 'install_updates':
      if (!cmd.args.names?.length) throw new Error('install_updates needs args.names');
      return { type: 'install_updates', names: cmd.args.names };
    case 'install_package':
      if (!cmd.args.package) throw new Error('install_package needs args.package');
      return {
        type: 'install_package',
        name: cmd.args.package,
        ...(cmd.args.version ? { version: cmd.args.version } : {}),
      };
    case 'remove_package':
      if (!cmd.args.package) throw new Error('remove_package needs args.package');
      return { type: 'remove_package', name: cmd.args.package };
    default:
      throw new Error(`not a package command: ${cmd.type}`);
  }
}

/**
 * Whether the command would change the machine, so that without --allow-changes it is only
 * simulated. A scan and a worklet's evaluation only read, and run for real either way.
 */
function isChange(cmd: AgentCommand): boolean {
  // A remote session asks the user itself, and a shell refuses without --allow-changes.
  if (cmd.type === 'scan' || cmd.type === 'remote_session') return false;
  return !(cmd.type === 'run_script' && cmd.args.purpose === 'evaluate');
}

/**
 * Executes a command; never throws (failures become `error` results). Without
 * --allow-changes a change is only simulated, and its result says so (`simulated: true`), so
 * the server never counts the dry run as the work done.
 */
export async function executeCommand(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const result = await execute(cmd, ctx);
  return !ctx.allowChanges && isChange(cmd) ? { ...result, simulated: true } : result;
}

async function execute(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const run = ctx.run ?? runProcess;
  const now = ctx.now ?? (() => new Date());
  const startedAt = now();
  // Leave the result time to reach the server before the server's own timeout.
  const timeoutMs = Math.max(1_000, (cmd.timeout_s > 0 ? cmd.timeout_s : DEFAULT_TIMEOUT_S) * 1000 - 2_000);
  // What a notice left of that time.
  const timeLeftMs = () => Math.max(1_000, timeoutMs - (now().getTime() - startedAt.getTime()));
  const done = (status: CommandResult['status'], stdout: string, stderr = '', data?: Record<string, unknown>) => ({
    status,
    exit_code: status === 'success' ? 0 : null,
    stdout_tail: tail(stdout),
    stderr_tail: tail(stderr),
    started_at: startedAt.toISOString(),
    finished_at: now().toISOString(),
    ...(data ? { data } : {}),
  });
  const noticeCtx: NoticeContext = { ...ctx, run };
  // The notice before the run gets half the command's time.
  const noticeBudgetS = timeoutMs / 2000;
  // The user deferred: nothing runs; the server queues the command again after the deferral.
  const deferred = (notice: NoticeReport): CommandResult => ({
    ...done('canceled', deferredRunText(notice.defer_h, notice.timed_out)),
    notice,
  });
  // After the run: the notice's report, and the policy's reboot when the run succeeded.
  const finish = async (result: CommandResult, notice: NoticeReport | undefined): Promise<CommandResult> => {
    const out = notice ? { ...result, notice } : result;
    if (result.status !== 'success') return out;
    const remainingS = timeLeftMs() / 1000;
    const reboot = await rebootAfterRun(cmd, noticeCtx, remainingS);
    return reboot ? { ...out, reboot } : out;
  };

  // An uploaded installer: downloaded, checked, run by the install command, removed. Only
  // `install_package` carries one, and it carries no notice or reboot (see carriesNotices).
  const runInstaller = async (job: InstallerJob): Promise<CommandResult> => {
    const data = { installer: job.installer.id, simulated: !ctx.allowChanges };
    if (!ctx.allowChanges) {
      const spec = installerSpec(ctx.platform, job, `<${job.installer.name}>`);
      return done(
        'success',
        `Simulated: would download ${job.installer.name} (${job.installer.size_bytes} bytes) and run with INSTALLER set to it: ${describe(spec)}\n${job.command}\n`,
        '',
        data,
      );
    }
    let download;
    try {
      download = await downloadInstaller(ctx.api, job.installer, { signal: AbortSignal.timeout(timeLeftMs()) });
    } catch (err) {
      if (!(err instanceof InstallerMismatchError)) throw err;
      return done('error', '', `${err.message}\n`, data);
    }
    try {
      const spec = installerSpec(ctx.platform, job, download.filePath);
      const result = fromOutcome(await run(spec, { timeoutMs: timeLeftMs(), maxBytes: TAIL_BYTES }), data);
      if (result.status === 'success') ctx.onInventory?.(await collectInventory(ctx.platform), false);
      return result;
    } finally {
      await removeDownload(download.dir);
    }
  };

  try {
    switch (cmd.type) {
      case 'scan': {
        const inventory = await collectInventory(ctx.platform);
        await ctx.api.putInventory(inventory);
        ctx.onInventory?.(inventory, true);
        return done(
          'success',
          `Inventory: ${inventory.software.length} packages, ${inventory.patches.length} pending updates\n`,
          '',
          {
            software_count: inventory.software.length,
            patch_count: inventory.patches.length,
            hash: inventory.hash,
          },
        );
      }
      case 'install_all':
      case 'install_updates':
      case 'install_package':
      case 'remove_package': {
        const job = installerJobOf(cmd);
        if (job) return await runInstaller(job);
        const simulate = !ctx.allowChanges;
        const spec = ctx.platform.packageCommand(packageAction(cmd), { simulate });
        const notice = await noticeBeforeRun(cmd, noticeCtx, noticeBudgetS);
        if (notice?.choice === 'defer') return deferred(notice);
        const out = await run(spec, { timeoutMs: timeLeftMs(), maxBytes: TAIL_BYTES * 4 });
        const data: Record<string, unknown> = { simulated: simulate, command: describe(spec) };
        if (spec.command === 'apt-get') data.changes = parseAptSimulation(out.stdout).slice(0, 500);
        const result = fromOutcome(out, data);
        if (!simulate && result.status === 'success') {
          // The machine changed: the next check-in carries the new inventory.
          ctx.onInventory?.(await collectInventory(ctx.platform), false);
        }
        return await finish(result, notice);
      }
      case 'run_script': {
        const language = cmd.args.language ?? 'bash';
        if (!cmd.args.script) throw new Error('run_script needs args.script');
        const spec = ctx.platform.scriptCommand(language, cmd.args.script);
        const isEvaluation = cmd.args.purpose === 'evaluate';
        if (!ctx.allowChanges && !isEvaluation) {
          return done('error', '', 'Scripts are disabled: the agent runs without --allow-changes.\n', {
            simulated: true,
            command: describe(spec),
          });
        }
        const notice = await noticeBeforeRun(cmd, noticeCtx, noticeBudgetS);
        if (notice?.choice === 'defer') return deferred(notice);
        const result = fromOutcome(await run(spec, { timeoutMs: timeLeftMs(), maxBytes: TAIL_BYTES }), {
          language,
          purpose: cmd.args.purpose ?? 'script',
        });
        return await finish(result, notice);
      }
      case 'reboot': {
        // At least a minute, so the result reaches the server before the machine goes down.
        const delayS = Math.max(60, cmd.args.delay_s ?? 60);
        const spec = ctx.platform.rebootCommand(delayS);
        if (!ctx.allowChanges) {
          return done('success', `Simulated: would run ${describe(spec)}\n`, '', { simulated: true, delay_s: delayS });
        }
        return fromOutcome(await run(spec, { timeoutMs: 30_000, maxBytes: TAIL_BYTES }), { delay_s: delayS });
      }
      case 'remote_session': {
        if (!cmd.args.remote) return done('error', '', 'A remote session command without its session.\n');
        const outcome = await runRemoteSession(cmd.args.remote, { ...ctx, ...(ctx.log ? { log: ctx.log } : {}) });
        return done(outcome.status, `${outcome.message}\n`, '', outcome.data);
      }
      default:
        return done('error', '', `Unknown command type: ${String((cmd as { type: unknown }).type)}\n`);
    }
  } catch (err) {
    return done('error', '', `${(err as Error).message}\n`);
  }
}

export type PostOptions = {
  /** Tries in all (default 5); `Infinity` retries until the result is stored or `sleep` rejects. */
  attempts?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Longest backoff between tries (default the agent's 30 minutes). */
  maxBackoffMs?: number;
};

/**
 * Posts a result, retrying network failures and 5xx/429 answers (a database restarting
 * behind the server answers 503) with backoff, waiting at least the server's Retry-After.
 * The server treats a repeated identical result as a no-op, so retrying after an unknown
 * outcome is safe. Returns false when the server was still unreachable after the last
 * attempt (the caller keeps the result).
 */
export async function postResult(
  api: AgentApi,
  commandId: AgentCommand['id'],
  result: CommandResult,
  options: PostOptions = {},
): Promise<boolean> {
  const attempts = options.attempts ?? 5;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 0; ; attempt++) {
    try {
      await api.postResult(commandId, result);
      return true;
    } catch (err) {
      if (err instanceof AgentApiError && err.status === 404) return true; // gone or not ours: nothing to retry
      if (!(err instanceof NetworkError) || attempt + 1 >= attempts) {
        if (err instanceof NetworkError) return false;
        throw err;
      }
      await sleep(retryDelay(attempt, err.retryAfterMs, options.random, options.maxBackoffMs));
    }
  }
}
