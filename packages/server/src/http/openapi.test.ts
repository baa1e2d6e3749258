import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/app';
import { OPENAPI_DOCUMENT_PATH, OPENAPI_ENV, OPENAPI_REGENERATE_COMMAND, openApiText } from './openapi-document';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: OPENAPI_ENV });
});
afterAll(async () => {
  await t.close();
});

describe('the committed OpenAPI document', () => {
  it('matches the routes (regenerate it after changing a route)', async () => {
    const committed = await readFile(OPENAPI_DOCUMENT_PATH, 'utf8').catch(() => '{}');
    const current = JSON.parse(openApiText(t.app)) as unknown;
    expect(
      current,
      `docs/api/openapi.json is out of date with the routes: run \`${OPENAPI_REGENERATE_COMMAND}\` and commit the file.`,
    ).toEqual(JSON.parse(committed));
  });
});
