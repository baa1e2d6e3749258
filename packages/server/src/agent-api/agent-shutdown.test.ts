/**
 * Closing the server while agents hold long-polls: the waits are answered at once with no
 * commands and their keep-alive connections are closed, so the close does not wait for them.
 */
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/app';
import { buildZoneWithKey, enrollDevice } from '../test/agents';

let t: TestApp | undefined;
let device: { id: number; token: string };
const agent = new http.Agent({ keepAlive: true });

beforeEach(async () => {
  t = await startTestApp();
  const zone = await buildZoneWithKey(t);
  device = await enrollDevice(t, zone.accessKey);
});
afterEach(async () => {
  agent.destroy();
  // A failed test leaves the app open.
  if (t) {
    const closing = t!.close();
    t.app.server.closeAllConnections();
    await closing;
  }
  t = undefined;
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A check-in on a keep-alive connection, as an agent's HTTP client holds it. */
function longPoll(
  app: TestApp,
  token: string,
  waitS: number,
): { answer: Promise<Answer>; request: http.ClientRequest } {
  const body = JSON.stringify({ status: {}, inventory_hash: null, wait_s: waitS });
  let request!: http.ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    request = http.request(
      `${app.url}/api/agent/v1/checkin`,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
  return { answer, request };
}

/** Resolves once the check-in waits in its handler. */
async function untilSeen(app: TestApp, deviceId: number): Promise<void> {
  await expect.poll(() => app.app.agents.isWaiting(deviceId)).toBe(true);
}

describe('closing the server during long-polls', () => {
  it('answers waiting check-ins at once with no commands and closes their connections', async () => {
    const poll = longPoll(t!, device.token, 30);
    await untilSeen(t!, device.id);

    const closing = t!.close();
    const res = await poll.answer;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).commands).toEqual([]);
    expect(res.headers.connection).toBe('close');
    // Within the test's timeout, below the 30 s wait and the keep-alive timeout.
    await closing;
    t = undefined;
  });

  it('closes at once when the agent went away in the middle of its long-poll', async () => {
    const poll = longPoll(t!, device.token, 30);
    poll.answer.catch(() => undefined);
    await untilSeen(t!, device.id);
    poll.request.destroy();

    await t!.close();
    t = undefined;
  });
});
