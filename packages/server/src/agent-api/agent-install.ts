import { AGENT_BUNDLE_NAME, AGENT_DOWNLOAD_PATH } from './agent-bundle';

/**
 * The install instructions of "Add devices": download the agent, check its SHA-256, enrol,
 * install the service (`patchwell-agent install-service`, packages/agent/src/service/).
 * Lines are joined with `&&` so that a pasted block stops at the first failure instead of
 * enrolling with a file whose checksum did not match.
 */
export type InstallInput = {
  serverUrl: string;
  /** The zone's access key; null shows a placeholder. */
  accessKey: string | null;
  /** Hex SHA-256 of the served agent; null when the server has not built it. */
  sha256: string | null;
};

export const ACCESS_KEY_PLACEHOLDER = '<ACCESS_KEY>';
const UNIX_DIR = '/opt/patchwell';

/** A POSIX shell word: left bare when it is plainly safe, single-quoted otherwise. */
export function shQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A PowerShell single-quoted string. */
export function psQuote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function notBuiltNote(sha256: string | null, comment: string): string[] {
  return sha256
    ? []
    : [`${comment} The server has not built the agent yet (npm run build -w @patchwell/agent): the download fails.`];
}

const ALLOW_CHANGES_NOTE =
  'Add --allow-changes to install-service to let the console install updates; without it they are only simulated.';

function unixCommands(input: InstallInput, os: 'linux' | 'mac'): string {
  const agent = `${UNIX_DIR}/${AGENT_BUNDLE_NAME}`;
  const url = `${input.serverUrl}${AGENT_DOWNLOAD_PATH}`;
  const key = input.accessKey ?? ACCESS_KEY_PLACEHOLDER;
  const check = os === 'linux' ? 'sha256sum -c -' : 'shasum -a 256 -c -';
  const service = os === 'linux' ? 'a systemd service' : 'a launchd daemon';
  const steps = [
    `sudo mkdir -p ${UNIX_DIR}`,
    `sudo curl -fsSLo ${agent} ${shQuote(url)}`,
    ...(input.sha256 ? [`echo ${shQuote(`${input.sha256}  ${agent}`)} | ${check}`] : []),
    `sudo node ${agent} enroll --server ${shQuote(input.serverUrl)} --key ${shQuote(key)}`,
    `sudo node ${agent} install-service --yes`,
  ];
  return [
    `# Needs Node.js 20 or later. Installs the agent in ${UNIX_DIR} and runs it as ${service}.`,
    `# ${ALLOW_CHANGES_NOTE}`,
    ...notBuiltNote(input.sha256, '#'),
    steps.join(' && \\\n'),
  ].join('\n');
}

function windowsCommands(input: InstallInput): string {
  const url = `${input.serverUrl}${AGENT_DOWNLOAD_PATH}`;
  const key = input.accessKey ?? ACCESS_KEY_PLACEHOLDER;
  // One script block: a failing line ends the block rather than only itself.
  return [
    '# PowerShell as Administrator. Needs Node.js 20 or later. Runs the agent at startup as SYSTEM.',
    `# ${ALLOW_CHANGES_NOTE}`,
    ...notBuiltNote(input.sha256, '#'),
    '& {',
    "  $ErrorActionPreference = 'Stop'",
    "  $dir = Join-Path $env:ProgramData 'Patchwell'",
    "  $agent = Join-Path $dir 'patchwell-agent.cjs'",
    "  $state = Join-Path $dir 'state.json'",
    '  New-Item -ItemType Directory -Force -Path $dir | Out-Null',
    // The state holds the device token: only SYSTEM and Administrators may read it.
    "  icacls $dir /inheritance:r /grant:r '*S-1-5-18:(OI)(CI)F' '*S-1-5-32-544:(OI)(CI)F' | Out-Null",
    `  Invoke-WebRequest -UseBasicParsing -Uri ${psQuote(url)} -OutFile $agent`,
    ...(input.sha256
      ? [
          `  if ((Get-FileHash -Algorithm SHA256 $agent).Hash -ne ${psQuote(input.sha256)}) { throw 'patchwell-agent.cjs: checksum mismatch' }`,
        ]
      : []),
    `  node $agent enroll --server ${psQuote(input.serverUrl)} --key ${psQuote(key)} --state $state`,
    "  if ($LASTEXITCODE -ne 0) { throw 'Enrolment failed' }",
    '  node $agent install-service --yes --state $state',
    '}',
  ].join('\n');
}

/** Command lines per OS, as `GET /api/info` returns them. */
export function agentInstallCommands(input: InstallInput): { linux: string; mac: string; windows: string } {
  return { linux: unixCommands(input, 'linux'), mac: unixCommands(input, 'mac'), windows: windowsCommands(input) };
}
