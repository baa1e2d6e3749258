/**
 * Notices on Linux: the graphical session of the signed-in user gets a zenity dialog (with a
 * button per deferral) or, without zenity, a notify-send bubble; with only terminal sessions
 * (a server over SSH) the notice goes to them with `wall`; with nobody signed in it is not
 * shown. A root agent reaches the user's session with `runuser` and the session's bus.
 */
import { runProcess, type ProcessOutcome, type ProcessRunner, type ProcessSpec } from '../jobs/process.js';
import { deferLabel, type NoticeAnswer, type Notifier, type NoticeRequest } from './notifier.js';
import {
  parseSessionIds,
  parseShowSessions,
  parseWho,
  parseZenityAnswer,
  pickSessions,
  type LoginSession,
} from './notify.parsers.js';

/** Exit code of a shell or `env` that could not find the program. */
const NOT_FOUND = 127;

export type LinuxNotifierOptions = {
  run?: ProcessRunner;
  /** The agent's environment (its own `DISPLAY`); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** The agent's own uid (tests pass one); only root may open another user's session. */
  uid?: number;
};

const missing = (out: ProcessOutcome) => Boolean(out.spawnError) || out.exitCode === NOT_FOUND;
/** GTK could not reach the display: zenity exits 1 as for Cancel, so its stderr tells the two apart. */
const noDisplay = (out: ProcessOutcome) => /cannot open display/i.test(out.stderr);

/** The command line that runs `program` inside the user's graphical session. */
export function asSessionUser(session: LoginSession, agentUid: number, program: string[]): ProcessSpec | null {
  const runtime = `/run/user/${session.uid}`;
  const env = [
    `DISPLAY=${session.display || ':0'}`,
    `XDG_RUNTIME_DIR=${runtime}`,
    `DBUS_SESSION_BUS_ADDRESS=unix:path=${runtime}/bus`,
    ...(session.type === 'wayland' ? ['WAYLAND_DISPLAY=wayland-0'] : []),
  ];
  if (agentUid === session.uid) return { command: 'env', args: [...env, ...program] };
  if (agentUid !== 0) return null;
  return { command: 'runuser', args: ['-u', session.name, '--', 'env', ...env, ...program] };
}

/** zenity's arguments: OK goes ahead; each deferral is a button, the shortest on the cancel button. */
export function zenityArgs(request: NoticeRequest): string[] {
  const common = [
    `--title=${request.title ?? 'Patchwell'}`,
    `--text=${request.message}`,
    `--timeout=${request.timeoutS}`,
    '--width=420',
  ];
  if (request.declineLabel && !request.periodsH.length) {
    return [
      'zenity',
      '--question',
      ...common,
      `--ok-label=${request.proceedLabel}`,
      `--cancel-label=${request.declineLabel}`,
    ];
  }
  if (!request.periodsH.length) return ['zenity', '--info', ...common, `--ok-label=${request.proceedLabel}`];
  const [shortest, ...others] = [...request.periodsH].sort((a, b) => a - b);
  return [
    'zenity',
    '--question',
    ...common,
    `--ok-label=${request.proceedLabel}`,
    `--cancel-label=${deferLabel(shortest!)}`,
    ...others.map((h) => `--extra-button=${deferLabel(h)}`),
  ];
}

/** The login sessions logind knows (null without loginctl, e.g. in a container). */
export async function loginSessions(run: ProcessRunner): Promise<LoginSession[] | null> {
  const list = await run({ command: 'loginctl', args: ['list-sessions', '--no-legend'] }, { timeoutMs: 10_000 });
  if (list.spawnError || list.exitCode !== 0) return null;
  const ids = parseSessionIds(list.stdout);
  if (!ids.length) return [];
  const show = await run(
    {
      command: 'loginctl',
      args: [
        'show-session',
        ...ids,
        ...['Id', 'Name', 'User', 'Type', 'Class', 'Display', 'Remote', 'Active', 'State'].flatMap((p) => ['-p', p]),
      ],
    },
    { timeoutMs: 10_000 },
  );
  return show.spawnError ? null : parseShowSessions(show.stdout);
}

export function createLinuxNotifier(options: LinuxNotifierOptions = {}): Notifier {
  const run = options.run ?? runProcess;
  const agentUid = options.uid ?? process.getuid?.() ?? 0;
  const env = options.env ?? process.env;

  const sessions = () => loginSessions(run);

  /**
   * Runs `program` on the desktop: inside the user's logind session, or on the agent's own
   * display (an agent started inside a desktop session, where logind lists none, as in a
   * container or a bare X server).
   */
  const onDesktop = (session: LoginSession | 'own', program: string[]): ProcessSpec | null =>
    session === 'own' ? onOwnDisplay(program) : asSessionUser(session, agentUid, program);
  const onOwnDisplay = (program: string[]): ProcessSpec => ({
    command: 'env',
    args: [`DISPLAY=${env.DISPLAY}`, ...(env.XAUTHORITY ? [`XAUTHORITY=${env.XAUTHORITY}`] : []), ...program],
  });

  async function toDesktop(session: LoginSession | 'own', request: NoticeRequest): Promise<NoticeAnswer | null> {
    const zenity = onDesktop(session, zenityArgs(request));
    if (!zenity) {
      const name = session === 'own' ? 'the user' : session.name;
      return { shown: false, reason: `the agent does not run as root and cannot reach ${name}'s session` };
    }
    // The runner's limit only backs up zenity's own --timeout.
    const out = await run(zenity, { timeoutMs: (request.timeoutS + 30) * 1000, signal: request.signal });
    if (out.timedOut) return { shown: true, answer: 'timeout' };
    if (!missing(out) && !noDisplay(out)) {
      const answer = parseZenityAnswer(out.exitCode, out.stdout, request.periodsH, !!request.declineLabel);
      if (answer) return { shown: true, ...answer };
    }
    // A consent needs a dialog: a bubble cannot be answered.
    if (request.requireChoice) {
      return {
        shown: false,
        reason: missing(out)
          ? 'zenity is not installed'
          : noDisplay(out)
            ? 'zenity could not open the display'
            : `zenity failed (exit ${out.exitCode})`,
      };
    }
    const bubble = onDesktop(session, [
      'notify-send',
      '--urgency=critical',
      '--app-name=Patchwell',
      'Patchwell',
      request.message,
    ])!;
    const sent = await run(bubble, { timeoutMs: 15_000 });
    if (sent.exitCode === 0 && !sent.spawnError) {
      const why = missing(out) ? 'zenity is not installed' : `zenity failed (exit ${out.exitCode})`;
      return {
        shown: true,
        answer: 'proceed',
        ...(request.periodsH.length ? { note: `${why}: no choice could be offered` } : {}),
      };
    }
    return null;
  }

  return {
    async show(request) {
      const found = await sessions();
      // Without logind (no systemd, containers) `who` still lists terminal users.
      const who = found === null ? await run({ command: 'who', args: [] }, { timeoutMs: 5_000 }) : null;
      const { graphical, terminals } = found
        ? pickSessions(found)
        : { graphical: null, terminals: who?.exitCode === 0 ? parseWho(who.stdout) : [] };
      if (graphical) {
        const answer = await toDesktop(graphical, request);
        if (answer) return answer;
      } else if (env.DISPLAY) {
        const answer = await toDesktop('own', request);
        if (answer) return answer;
      }
      if (terminals.length && !request.requireChoice) {
        const out = await run(
          { command: 'wall', args: [], input: `Patchwell: ${request.message}\n` },
          { timeoutMs: 15_000 },
        );
        if (out.exitCode === 0 && !out.spawnError) {
          return {
            shown: true,
            answer: 'proceed',
            ...(request.periodsH.length ? { note: 'only terminal sessions (wall): no choice could be offered' } : {}),
          };
        }
        return { shown: false, reason: `wall failed: ${out.spawnError ?? out.stderr.trim()}` };
      }
      return { shown: false, reason: graphical ? `no way to reach ${graphical.name}'s desktop` : 'no signed-in user' };
    },
  };
}
