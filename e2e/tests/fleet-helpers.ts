import { expect, type Page } from '@playwright/test';

// Console API calls the journeys over the demo fleet share: they read and arrange devices,
// groups and policy standings through the signed-in page's session.

export type DeviceRow = { id: number; hostname: string; pending_patches: number; connected: boolean };
export type Standing = {
  policy_id: number;
  compliance: string;
  result: { status: string; patches: string[] } | null;
};

export async function api<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url);
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
}

export async function newGroup(page: Page, o: number, name: string): Promise<number> {
  const res = await page.request.post(`/api/servergroups?o=${o}`, { data: { name } });
  expect(res.status()).toBeLessThan(300);
  return ((await res.json()) as { id: number }).id;
}

export async function moveToGroup(page: Page, o: number, ids: number[], groupId: number) {
  const res = await page.request.post(`/api/servers/batch?o=${o}`, {
    data: { action: 'group', ids, server_group_id: groupId },
  });
  expect(res.status()).toBe(200);
}

export const standingOf = async (page: Page, o: number, deviceId: number, policyId: number) =>
  (await api<{ data: Standing[] }>(page, `/api/servers/${deviceId}/policies?o=${o}`)).data.find(
    (s) => s.policy_id === policyId,
  );
