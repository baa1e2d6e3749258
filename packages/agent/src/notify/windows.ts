/**
 * Notices on Windows. The agent runs as SYSTEM in session 0, which has no desktop of its own.
 * - A question (a consent, or a notice offering a deferral) goes through `WTSSendMessageW`,
 *   the Terminal Services call that puts a message box in another session and waits for its
 *   button: Yes/No (the only choice it offers), asked in the first active session with a
 *   signed-in user. PowerShell compiles the few lines of C# that call it (Add-Type).
 * - An informative notice goes to every signed-in session with `msg.exe *`, which returns at once.
 */
import { runProcess, type ProcessRunner } from '../jobs/process.js';
import { deferLabel, type Notifier, type NoticeRequest } from './notifier.js';
import { msgFailureOf } from './notify.parsers.js';

/** msg.exe refuses longer messages. */
const MSG_MAX = 255;

/**
 * C# run by PowerShell: `[PatchwellAsk]::Run(title, text, seconds)` prints `answer=<IDYES 6 |
 * IDNO 7 | IDTIMEOUT 32000>`, `nosession` when nobody is signed in, or `failed=<error>`.
 */
const ASK_CSHARP = String.raw`
using System; using System.Runtime.InteropServices;
public static class PatchwellAsk {
  [StructLayout(LayoutKind.Sequential)] struct SessionInfo { public int Id; public IntPtr Station; public int State; }
  [DllImport("wtsapi32.dll", SetLastError = true)] static extern bool WTSEnumerateSessionsW(IntPtr server, int reserved, int version, out IntPtr info, out int count);
  [DllImport("wtsapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)] static extern bool WTSQuerySessionInformationW(IntPtr server, int id, int infoClass, out IntPtr buffer, out int bytes);
  [DllImport("wtsapi32.dll")] static extern void WTSFreeMemory(IntPtr memory);
  [DllImport("wtsapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)] static extern bool WTSSendMessageW(IntPtr server, int id, string title, int titleBytes, string text, int textBytes, int style, int seconds, out int response, bool wait);
  static string User(int id) {
    IntPtr buffer; int bytes;
    if (!WTSQuerySessionInformationW(IntPtr.Zero, id, 5, out buffer, out bytes)) return "";
    string name = Marshal.PtrToStringUni(buffer); WTSFreeMemory(buffer); return name ?? "";
  }
  static int ActiveSession() {
    IntPtr list; int count;
    if (!WTSEnumerateSessionsW(IntPtr.Zero, 0, 1, out list, out count)) return -1;
    try {
      int size = Marshal.SizeOf(typeof(SessionInfo));
      for (int i = 0; i < count; i++) {
        SessionInfo s = (SessionInfo)Marshal.PtrToStructure(new IntPtr(list.ToInt64() + i * size), typeof(SessionInfo));
        if (s.State == 0 && User(s.Id).Length > 0) return s.Id;
      }
    } finally { WTSFreeMemory(list); }
    return -1;
  }
  public static string Run(string title, string text, int seconds) {
    int id = ActiveSession();
    if (id < 0) return "nosession";
    int response;
    // MB_YESNO | MB_ICONQUESTION | MB_SETFOREGROUND | MB_TOPMOST
    if (!WTSSendMessageW(IntPtr.Zero, id, title, title.Length * 2, text, text.Length * 2, 0x4 | 0x20 | 0x10000 | 0x40000, seconds, out response, true))
      return "failed=" + Marshal.GetLastWin32Error();
    return "answer=" + response;
  }
}`;

/** A PowerShell single-quoted literal: nothing inside is interpreted, a quote is doubled. */
const psLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The question's text: the message, then what Yes and No do (the box's buttons cannot be
 * renamed), e.g. "Yes: Allow. No: Deny." or "Yes: Install now. No: Defer 8 h."
 */
export function wtsQuestionText(request: NoticeRequest): string {
  const no = request.declineLabel ?? (request.periodsH.length ? deferLabel(Math.max(...request.periodsH)) : 'Close');
  return `${request.message}\n\nYes: ${request.proceedLabel}. No: ${no}.`;
}

/** The PowerShell program asking `request`, passed with -EncodedCommand (UTF-16LE, base64) so no text is parsed by a shell. */
export function wtsAskCommand(request: NoticeRequest): string[] {
  const script = [
    '$ErrorActionPreference = "Stop"',
    `Add-Type -TypeDefinition ${psLiteral(ASK_CSHARP)}`,
    `[PatchwellAsk]::Run(${psLiteral(request.title ?? 'Patchwell')}, ${psLiteral(wtsQuestionText(request))}, ${request.timeoutS})`,
  ].join('\n');
  return [
    '-NoProfile',
    '-NonInteractive',
    '-ExecutionPolicy',
    'Bypass',
    '-EncodedCommand',
    Buffer.from(script, 'utf16le').toString('base64'),
  ];
}

/** What the question's output says, or null when it is not one of its answers. */
export function parseWtsAnswer(
  stdout: string,
  request: Pick<NoticeRequest, 'periodsH' | 'declineLabel'>,
):
  | { shown: false; reason: string }
  | { shown: true; answer: 'proceed' | 'defer' | 'timeout' | 'decline'; deferH?: number }
  | null {
  const line = stdout.trim().split(/\r?\n/).at(-1)?.trim() ?? '';
  if (line === 'nosession') return { shown: false, reason: 'no signed-in user' };
  const failed = /^failed=(\d+)$/.exec(line);
  if (failed) return { shown: false, reason: `WTSSendMessage failed (error ${failed[1]})` };
  const answer = /^answer=(\d+)$/.exec(line);
  if (!answer) return null;
  switch (Number(answer[1])) {
    case 6:
      return { shown: true, answer: 'proceed' };
    case 7:
      // No refuses a consent, defers a notice by its longest period, or only closes the box.
      return !request.declineLabel && request.periodsH.length
        ? { shown: true, answer: 'defer', deferH: Math.max(...request.periodsH) }
        : { shown: true, answer: 'decline' };
    case 32000:
      return { shown: true, answer: 'timeout' };
    default:
      return null;
  }
}

export function createWindowsNotifier(options: { run?: ProcessRunner } = {}): Notifier {
  const run = options.run ?? runProcess;

  async function ask(request: NoticeRequest) {
    const out = await run(
      { command: 'powershell.exe', args: wtsAskCommand(request) },
      { timeoutMs: (request.timeoutS + 60) * 1000, signal: request.signal },
    );
    if (out.timedOut) return { shown: true as const, answer: 'timeout' as const };
    if (out.spawnError) return { shown: false as const, reason: `PowerShell is not available: ${out.spawnError}` };
    const answer = out.exitCode === 0 ? parseWtsAnswer(out.stdout, request) : null;
    if (answer) return answer;
    const why = out.stderr.trim().split(/\r?\n/)[0] || `exit ${out.exitCode}`;
    return { shown: false as const, reason: `the question could not be asked: ${why}` };
  }

  return {
    async show(request) {
      if (request.requireChoice || request.declineLabel || request.periodsH.length) return ask(request);
      const text = `Patchwell: ${request.message}`.slice(0, MSG_MAX);
      const out = await run(
        { command: 'msg.exe', args: ['*', `/TIME:${request.timeoutS}`, text] },
        { timeoutMs: 30_000 },
      );
      if (out.spawnError) return { shown: false, reason: `msg.exe is not available: ${out.spawnError}` };
      if (out.exitCode !== 0)
        return { shown: false, reason: msgFailureOf(`${out.stderr}\n${out.stdout}`, out.exitCode) };
      return { shown: true, answer: 'proceed' };
    },
  };
}
