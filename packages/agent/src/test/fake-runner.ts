/**
 * A fake operating system's processes: each command line is answered by the first rule
 * whose pattern it matches (unanswered ones exit 127, as a missing program does), and every
 * call is recorded so tests can see what the agent ran.
 */
import type { ProcessOutcome, ProcessRunner, ProcessSpec } from '../jobs/process.js';

export type FakeAnswer = {
  exitCode?: number | null;
  stdout?: string;
  stderr?: string;
  spawnError?: string;
  timedOut?: boolean;
};

export function outcome(answer: FakeAnswer = {}): ProcessOutcome {
  const now = new Date();
  return {
    exitCode: answer.exitCode === undefined ? 0 : answer.exitCode,
    signal: null,
    stdout: answer.stdout ?? '',
    stderr: answer.stderr ?? '',
    timedOut: answer.timedOut ?? false,
    spawnError: answer.spawnError ?? null,
    startedAt: now,
    finishedAt: now,
  };
}

/** The command line as one string, e.g. `runuser -u alice -- env DISPLAY=:0 zenity --question …`. */
export const lineOf = (spec: ProcessSpec) => [spec.command, ...spec.args].join(' ');

/** An answer, or a function giving the next one (a user who answers two dialogs differently). */
export type FakeRule = [RegExp, FakeAnswer | (() => FakeAnswer)];

export function createFakeRunner(rules: FakeRule[]): ProcessRunner & { calls: ProcessSpec[]; lines: () => string[] } {
  const calls: ProcessSpec[] = [];
  const run = (async (spec: ProcessSpec) => {
    calls.push(spec);
    const line = lineOf(spec);
    const rule = rules.find(([pattern]) => pattern.test(line));
    if (!rule) return outcome({ exitCode: 127, stderr: `${spec.command}: not found` });
    return outcome(typeof rule[1] === 'function' ? rule[1]() : rule[1]);
  }) as ProcessRunner & { calls: ProcessSpec[]; lines: () => string[] };
  run.calls = calls;
  run.lines = () => calls.map(lineOf);
  return run;
}
