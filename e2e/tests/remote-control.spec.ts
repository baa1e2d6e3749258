import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { REMOTE_ENDED_BY_USER_TEXT, REMOTE_TEXTS } from '../../packages/core/src/remote/remote-sessions.schema';
import { seriousViolations } from './axe';
import { api, newGroup } from './fleet-helpers';
import { expectShell, signIn } from './helpers';
import { likeness, xvfbArea, type Area } from './xvfb-screen';

// Remote control and the remote shell with real parts (issue 14, decision 0016): an Xvfb
// display with an xterm window, the real agent on this machine (its x11vnc on that display,
// its shell under `script`), the server's relay, and noVNC and xterm.js in Chromium.

const repoRoot = path.resolve(process.cwd(), '..');
const agentBin = path.join(repoRoot, 'packages/agent/bin/patchwell-agent.mjs');
const BANNER = 'PATCHWELL REMOTE E2E';
const XTERM_TITLE = `patchwell-remote-e2e-${process.pid}`;
/** The remote screen's size; the xterm window sits in its top-left corner. */
const SCREEN = { width: 1024, height: 768 };

/** A display nobody uses: no socket and no lock file. */
function freeDisplay(): number {
  for (let n = 200 + Math.floor(Math.random() * 300); ; n = 200 + ((n - 199) % 300)) {
    if (!existsSync(`/tmp/.X11-unix/X${n}`) && !existsSync(`/tmp/.X${n}-lock`)) return n;
  }
}

/** Stops a child: SIGTERM, and SIGKILL if it is still there after 5 s (an agent may hold a session's handles). */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The xterm window's geometry on the display, or null until it is mapped. */
function xtermWindow(display: string): { x: number; y: number; width: number; height: number } | null {
  try {
    const out = execFileSync('xwininfo', ['-display', display, '-name', XTERM_TITLE], { stdio: 'pipe' }).toString();
    if (!/Map State: IsViewable/.test(out)) return null;
    const num = (label: string) => Number(new RegExp(`${label}:\\s+(-?\\d+)`).exec(out)?.[1]);
    return {
      x: num('Absolute upper-left X'),
      y: num('Absolute upper-left Y'),
      width: num('Width'),
      height: num('Height'),
    };
  } catch {
    return null;
  }
}

/**
 * The user at the device: the agent's dialogs (zenity) on the display with this title, newest
 * last: "Patchwell" asks for consent, "Patchwell remote session" shows an open session.
 */
const CONSENT = '^Patchwell$';
const SESSION_NOTICE = '^Patchwell remote session$';
function dialogs(display: string, title: string): string[] {
  try {
    return execFileSync('xdotool', ['search', '--onlyvisible', '--name', title], {
      env: { ...process.env, DISPLAY: display },
      stdio: 'pipe',
    })
      .toString()
      .split('\n')
      .filter(Boolean);
  } catch {
    // xdotool exits 1 when no window matches.
    return [];
  }
}

/** Waits for the agent's dialog with this title and returns its window id. */
async function dialogAppears(display: string, title: string): Promise<string> {
  await expect
    .poll(() => dialogs(display, title).length, { timeout: 60_000, message: `a dialog ${title} on ${display}` })
    .toBeGreaterThan(0);
  return dialogs(display, title).at(-1)!;
}

/** Presses the dialog's default button (Allow, End session) the way the user would: focus, Return. */
function pressDefault(display: string, id: string): void {
  execFileSync('xdotool', ['windowfocus', '--sync', id, 'key', '--clearmodifiers', 'Return'], {
    env: { ...process.env, DISPLAY: display },
    stdio: 'pipe',
  });
}

/** Moves a dialog out of the xterm window's way (no window manager places it on Xvfb). */
function moveDialog(display: string, id: string, x: number, y: number): void {
  execFileSync('xdotool', ['windowmove', '--sync', id, String(x), String(y)], {
    env: { ...process.env, DISPLAY: display },
    stdio: 'pipe',
  });
}

/**
 * Dark (text) and light (background) pixels of the remote screen's area `box` (in remote
 * pixels), read from noVNC's canvas: the xterm window is black text on white.
 */
async function pixels(canvas: Locator, box: { x: number; y: number; width: number; height: number }) {
  return canvas.evaluate((element, area) => {
    const c = element as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(area.x, area.y, area.width, area.height).data;
    let dark = 0;
    let light = 0;
    for (let i = 0; i < data.length; i += 4) {
      const sum = data[i]! + data[i + 1]! + data[i + 2]!;
      if (sum < 150) dark++;
      else if (sum > 600) light++;
    }
    return { dark, light, width: c.width, height: c.height };
  }, box);
}

/** The RGB bytes of the remote screen's `area` as noVNC's canvas shows it, row after row. */
async function shownArea(canvas: Locator, area: Area): Promise<Uint8Array> {
  const rgb = await canvas.evaluate((element, box) => {
    const data = (element as HTMLCanvasElement)
      .getContext('2d')!
      .getImageData(box.x, box.y, box.width, box.height).data;
    const out: number[] = [];
    for (let i = 0; i < data.length; i += 4) out.push(data[i]!, data[i + 1]!, data[i + 2]!);
    return out;
  }, area);
  return Uint8Array.from(rgb);
}

type Fixture = {
  setup: Page;
  o: number;
  accountId: number;
  deviceId: number;
  name: string;
  display: string;
  window: { x: number; y: number; width: number; height: number };
  dir: string;
  processes: ChildProcess[];
  agentLog: string[];
};

test.describe.serial('remote control and the remote shell', () => {
  let fx: Fixture;

  test.beforeAll(async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const setup = await browser.newPage();
    await signIn(setup);
    const o = await expectShell(setup);
    const self = await api<{ account_id: number }>(setup, `/api/users/self?o=${o}`);
    const stamp = `${Date.now()}-${process.pid}-${test.info().repeatEachIndex}`;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'patchwell-e2e-remote-'));
    fx = {
      setup,
      o,
      accountId: self.account_id,
      deviceId: 0,
      name: `e2e-remote-${stamp}`,
      display: `:${freeDisplay()}`,
      window: { x: 0, y: 0, width: 0, height: 0 },
      dir,
      processes: [],
      agentLog: [],
    };

    // The zone gets the remote-control flag and the Complete plan through the API. They stay
    // so (as the remote-access settings below): copies of this file may run side by side
    // (--repeat-each) in the same zone, and one must not switch remote control off under another.
    const flags = await setup.request.put(`/api/accounts/${fx.accountId}/zones/${o}/flags`, {
      data: { remote_control: true },
    });
    expect(flags.status(), await flags.text()).toBe(200);
    const plan = await setup.request.put(`/api/accounts/${fx.accountId}/zones/${o}/plan`, { data: { plan: 'tier3' } });
    expect(plan.status(), await plan.text()).toBe(200);

    // The display, and an xterm window on it showing a known line.
    const xvfb = spawn(
      'Xvfb',
      // -fbdir: Xvfb keeps its screen in a file there, the reference the remote screen is compared
      // with. -noreset: no reset (refusing connections) when its last client leaves.
      [
        fx.display,
        '-screen',
        '0',
        `${SCREEN.width}x${SCREEN.height}x24`,
        '-br',
        '-nolisten',
        'tcp',
        '-noreset',
        '-fbdir',
        dir,
      ],
      {
        stdio: 'ignore',
      },
    );
    fx.processes.push(xvfb);
    const xLog: string[] = [];
    await expect
      .poll(
        () => {
          try {
            execFileSync('xdpyinfo', ['-display', fx.display], { stdio: 'ignore' });
            return true;
          } catch {
            return false;
          }
        },
        { timeout: 20_000, message: `Xvfb answers on ${fx.display}` },
      )
      .toBe(true);
    const xterm = spawn(
      'xterm',
      [
        '-display',
        fx.display,
        '-T',
        XTERM_TITLE,
        '-geometry',
        '80x20+0+0',
        '-bg',
        'white',
        '-fg',
        'black',
        '-e',
        'sh',
        '-c',
        `printf '%s\\n' '${BANNER}'; exec bash --norc --noprofile`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, PS1: '$ ', DISPLAY: fx.display } },
    );
    fx.processes.push(xterm);
    xterm.stderr!.on('data', (chunk: Buffer) => xLog.push(chunk.toString()));
    await expect
      .poll(() => (xterm.exitCode === null ? xtermWindow(fx.display) : `xterm exited: ${xLog.join('')}`), {
        timeout: 20_000,
        message: 'the xterm window is mapped',
      })
      .toEqual(expect.objectContaining({ width: expect.any(Number) }));
    fx.window = xtermWindow(fx.display)!;

    // The real agent: enrolled in the zone, in a group of its own (no policy reaches it), on
    // this display. The shell needs --allow-changes.
    const info = await api<{ access_key: string }>(setup, `/api/info?o=${o}`);
    const state = path.join(dir, 'state.json');
    execFileSync(
      process.execPath,
      // An identity of its own: the zone knows a device by its machine id, and devices.spec.ts
      // (or another copy of this file) may have enrolled this machine's.
      [
        agentBin,
        'enroll',
        '--server',
        baseURL!,
        '--key',
        info.access_key,
        '--state',
        state,
        '--machine-id',
        `e2e-remote-${stamp}`,
      ],
      {
        cwd: repoRoot,
        stdio: 'pipe',
      },
    );
    fx.deviceId = (JSON.parse(readFileSync(state, 'utf8')) as { device_id: number }).device_id;
    const groupId = await newGroup(setup, o, `E2E Remote ${Date.now()}`);
    const renamed = await setup.request.put(`/api/servers/${fx.deviceId}?o=${o}`, {
      data: { custom_name: fx.name, server_group_id: groupId },
    });
    expect(renamed.status(), await renamed.text()).toBe(200);
    const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: fx.display, SHELL: '/bin/bash', PS1: '$ ' };
    delete env.XAUTHORITY;
    const agent = spawn(process.execPath, [agentBin, 'run', '--allow-changes', '--state', state], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    fx.processes.push(agent);
    agent.stdout!.on('data', (chunk: Buffer) => fx.agentLog.push(chunk.toString()));
    agent.stderr!.on('data', (chunk: Buffer) => fx.agentLog.push(chunk.toString()));
    // Online and past its first inventory: remote control is offered only then.
    await expect
      .poll(
        async () => {
          const d = await api<{ connected: boolean; initializing: boolean }>(
            setup,
            `/api/servers/${fx.deviceId}?o=${o}`,
          );
          return d.connected && !d.initializing;
        },
        { timeout: 120_000, message: 'the agent checks in and sends its inventory' },
      )
      .toBe(true);
  });

  test.afterAll(async () => {
    if (!fx) return;
    const { setup, o } = fx;
    for (const child of [...fx.processes].reverse()) await stop(child);
    try {
      // The device goes; the zone keeps its flag, plan and settings (see above).
      if (fx.deviceId) await setup.request.delete(`/api/servers/${fx.deviceId}?o=${o}`);
    } finally {
      rmSync(fx.dir, { recursive: true, force: true });
      await setup.close();
    }
  });

  // Playwright reads the fixtures a hook uses from its first parameter's pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  test.afterEach(async ({}, testInfo) => {
    if (fx && testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('agent.log', { body: fx.agentLog.join(''), contentType: 'text/plain' });
    }
  });

  const status = (page: Page) => page.locator('[data-status]');

  test('a zone administrator allows the shell; the device’s user allows the session, and the screen is controlled', async ({
    page,
  }, testInfo) => {
    test.setTimeout(150_000);
    testInfo.annotations.push({ type: 'display', description: fx.display });
    await signIn(page);
    await expectShell(page);
    const { o, name } = fx;

    // The zone's remote-access settings, through the Settings tab.
    await page.goto(`/console/settings?o=${o}`);
    await page.getByRole('link', { name: 'Remote access' }).click();
    const unattended = page.getByRole('switch', { name: 'Unattended access' });
    const shell = page.getByRole('switch', { name: 'Allow the remote shell' });
    // Sessions ask the device's user (zenity on the agent's display; the test answers it).
    if (await unattended.isChecked()) await unattended.click({ force: true });
    if (!(await shell.isChecked())) await shell.click({ force: true });
    // A new idle timeout, so there is always something to save (another run may have left the switches on).
    const idleInput = page.getByRole('textbox', { name: 'Idle timeout (minutes)' });
    const current = Number(await idleInput.inputValue());
    const idle = current >= 200 ? 30 : current + 1;
    await idleInput.fill(String(idle));
    // What this save stored (the server's answer: another copy of this file may save after it).
    const saved = page.waitForResponse(
      (r) => r.url().includes('/api/remote-settings') && r.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Remote access settings saved.')).toBeVisible();
    expect(await (await saved).json()).toEqual({
      unattended: false,
      shell_enabled: true,
      unattended_group_ids: expect.any(Array),
      idle_timeout_minutes: idle,
    });
    expect(await seriousViolations(page)).toEqual([]);

    // The row action opens the device's remote-control page.
    await page.goto(`/console/devices?o=${o}&search=${encodeURIComponent(name)}`);
    await page.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Remote control', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/console/devices/${fx.deviceId}/remote-control\\?o=${o}$`));
    await expect(page.getByRole('heading', { name: `Remote control: ${name}` })).toBeVisible();
    await expect(status(page)).toHaveAttribute('data-status', 'idle');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(status(page)).toHaveAttribute('data-status', 'awaitingConsent', { timeout: 30_000 });
    // The device's user allows it in the dialog on their screen.
    const consent = await dialogAppears(fx.display, CONSENT);
    pressDefault(fx.display, consent);
    await expect(status(page)).toHaveAttribute('data-status', 'connected', { timeout: 60_000 });
    await expect(page.getByRole('status')).toHaveText('Status: Connected');
    // While it lasts the user sees that the session is open: moved below the xterm window.
    const notice = await dialogAppears(fx.display, SESSION_NOTICE);
    moveDialog(fx.display, notice, 0, 560);
    expect(await seriousViolations(page)).toEqual([]);

    // The screen shows the xterm window: black text on white where the window is.
    const canvas = page.getByRole('region', { name: `Screen of ${name}` }).locator('canvas');
    const win = fx.window;
    const windowArea = { x: win.x, y: win.y, width: win.width, height: win.height };
    await expect
      .poll(async () => pixels(canvas, windowArea), { timeout: 30_000 })
      .toEqual(expect.objectContaining({ width: SCREEN.width, height: SCREEN.height }));
    await expect
      .poll(async () => {
        const { dark, light } = await pixels(canvas, windowArea);
        return dark > 200 && light > win.width * win.height * 0.5;
      })
      .toBe(true);
    // Outside the window the root window is black: no white there.
    const outside = await pixels(canvas, { x: 700, y: 500, width: 200, height: 200 });
    expect(outside.light).toBe(0);
    // The window's first lines (the known banner and the prompt) as the canvas shows them
    // are what the X server draws there, pixel for pixel (within the encoding's rounding).
    const bannerArea = { x: win.x, y: win.y, width: win.width, height: 40 };
    await expect
      .poll(async () => {
        const alike = likeness(xvfbArea(fx.dir, bannerArea), await shownArea(canvas, bannerArea));
        return alike.same >= 0.99 && alike.dark > 200 ? 'alike' : JSON.stringify(alike);
      })
      .toBe('alike');
    const before = (await pixels(canvas, windowArea)).dark;

    // A click on the window and keys typed on the canvas reach the xterm: the command it runs
    // leaves a file, and the new line shows on the screen.
    const mark = path.join(fx.dir, `mark${Date.now()}`);
    const box = (await canvas.boundingBox())!;
    await canvas.click({
      position: {
        x: ((win.x + win.width / 2) * box.width) / SCREEN.width,
        y: ((win.y + win.height / 2) * box.height) / SCREEN.height,
      },
    });
    await page.keyboard.type(`touch ${mark}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => existsSync(mark), { timeout: 20_000, message: fx.agentLog.join('') }).toBe(true);
    await expect.poll(async () => (await pixels(canvas, windowArea)).dark).toBeGreaterThan(before);

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await expect(status(page)).toHaveAttribute('data-status', 'disconnected');
    await expect(page.getByRole('status')).toHaveText('Status: Disconnected');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Connect' })).toBeEnabled();
  });

  test('a shell session runs `hostname` on the device until its user ends it, and its transcript stays with the session', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signIn(page);
    await expectShell(page);
    const { o, name } = fx;
    await page.goto(`/console/devices/${fx.deviceId}/remote-control?o=${o}`);
    await expect(page.getByRole('heading', { name: `Remote control: ${name}` })).toBeVisible();
    await page.getByText('Shell', { exact: true }).click();
    await page.getByRole('button', { name: 'Connect' }).click();
    const consent = await dialogAppears(fx.display, CONSENT);
    pressDefault(fx.display, consent);
    await expect(status(page)).toHaveAttribute('data-status', 'connected', { timeout: 60_000 });

    const terminal = page.getByRole('region', { name: `Shell on ${name}` });
    expect(await seriousViolations(page)).toEqual([]);
    await terminal.locator('.xterm').click();
    await page.keyboard.type('hostname');
    await page.keyboard.press('Enter');
    // A line that is the host name alone: the output, not the prompt or the typed command.
    const rows = terminal.locator('.xterm-rows > div');
    await expect
      .poll(async () => (await rows.allInnerTexts()).map((r) => r.trim()), {
        timeout: 20_000,
        message: fx.agentLog.join(''),
      })
      .toContain(os.hostname());

    // The device's user ends it with End session in the notice on their screen.
    pressDefault(fx.display, await dialogAppears(fx.display, SESSION_NOTICE));
    await expect(status(page)).toHaveAttribute('data-status', 'disconnected');
    await expect(page.getByRole('alert')).toHaveText(REMOTE_ENDED_BY_USER_TEXT);
    await page.getByRole('button', { name: 'View transcript' }).click();
    const dialog = page.getByRole('dialog', { name: 'Shell transcript' });
    await expect(dialog.getByTestId('remote-transcript')).toContainText(`hostname\n${os.hostname()}`);
  });

  test('a second session is refused with its text, and the page stacks its controls below 500 px', async ({ page }) => {
    await signIn(page);
    await expectShell(page);
    const { o } = fx;
    await page.goto(`/console/devices/${fx.deviceId}/remote-control?o=${o}`);
    await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
    // A session started behind the page's back makes the device busy: Connect says so.
    const busy = await page.request.post(`/api/servers/${fx.deviceId}/remote-sessions?o=${o}`, {
      data: { kind: 'control' },
    });
    expect(busy.status()).toBe(201);
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(status(page)).toHaveAttribute('data-status', 'unavailable');
    await expect(page.getByRole('alert')).toHaveText(REMOTE_TEXTS.busy);
    // Below 500 px the controls stack, Connect across the page's width.
    await page.setViewportSize({ width: 420, height: 800 });
    await expect(page.locator('[data-remote-layout]')).toHaveAttribute('data-remote-layout', 'narrow');
    const controls = (await page.getByTestId('remote-controls').boundingBox())!;
    const connect = (await page.getByRole('button', { name: 'Connect' }).boundingBox())!;
    expect(Math.abs(connect.width - controls.width)).toBeLessThan(2);
    await page.request.post(`/api/remote-sessions/${((await busy.json()) as { id: number }).id}/end?o=${o}`);
    // The device's user was asked about that session: answered, so the agent asks nothing later.
    pressDefault(fx.display, await dialogAppears(fx.display, CONSENT));
  });
});
