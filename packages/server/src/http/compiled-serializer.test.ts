import { describe, expect, it } from 'vitest';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCheckinResult, type CheckinResult } from '@patchwell/core/agent/agent-protocol.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { compiledSerializer } from './compiled-serializer';

const route = (schema: z.ZodType) => ({ schema, method: 'POST', url: '/api/agent/v1/checkin', httpStatus: '200' });
const compiled = (schema: z.ZodType) => compiledSerializer(route(schema));
const viaZod = (schema: z.ZodType) => zodSerializerCompiler(route(schema));

/** A check-in that hands out one command of each shape the agent knows, every argument set. */
const busyCheckin: CheckinResult = {
  commands: [
    {
      id: 41,
      type: 'install_updates',
      args: {
        names: ['openssl', 'KB5031356', 'naïve “quoted” \\ name\n'],
        notice: {
          message: 'Updates will be installed.\nSave your work.',
          timeout_min: 30,
          deferral: { periods_h: [1, 4, 24], remaining: 2, max: 6, auto_defer: true },
        },
        reboot: { mode: 'notify', notice: { message: 'Reboot pending', timeout_min: 15, deferral: null } },
      },
      timeout_s: 3600,
      created_at: '2026-12-07T08:00:00.000Z',
    },
    {
      id: 42,
      type: 'install_package',
      args: {
        package: 'firefox',
        version: '133.0',
        installer: { id: 'inst-7', name: 'Firefox Setup.msi', sha256: 'a'.repeat(64), size_bytes: 71_234_567 },
        install_command: 'msiexec /i "$env:INSTALLER" /qn',
      },
      timeout_s: 1800,
      created_at: '2026-12-07T08:00:01.000Z',
    },
    {
      id: 43,
      type: 'run_script',
      args: { language: 'bash', script: 'echo "$HOME" </dev/null', purpose: 'evaluate', delay_s: 0 },
      timeout_s: 600,
      created_at: '2026-12-07T08:00:02.000Z',
    },
    {
      id: 44,
      type: 'remote_session',
      args: { remote: { session_id: 9, kind: 'shell', ask_consent: false } },
      timeout_s: 120,
      created_at: '2026-12-07T08:00:03.000Z',
    },
  ],
  send_inventory: true,
  checkin_interval_s: 60,
  server_time: '2026-12-07T08:00:04.000Z',
};

describe('compiledSerializer (the check-in answer without zod’s pass)', () => {
  it('writes the same JSON as zod’s serializer for every command shape', () => {
    const quiet: CheckinResult = { ...busyCheckin, commands: [], send_inventory: false };
    for (const answer of [busyCheckin, quiet]) {
      const text = compiled(ZCheckinResult)(answer);
      expect(JSON.parse(text)).toEqual(JSON.parse(viaZod(ZCheckinResult)(answer)));
      expect(JSON.parse(text)).toEqual(answer);
    }
  });

  it('leaves out properties the schema does not name, at every depth, as zod does', () => {
    const [first, ...rest] = busyCheckin.commands;
    const noisy = {
      ...busyCheckin,
      internal: 'device token hash',
      commands: [{ ...first!, device_id: 7, args: { ...first!.args, secret: 's3cret' } }, ...rest],
    };
    const text = compiled(ZCheckinResult)(noisy);
    expect(text).not.toMatch(/internal|device_id|s3cret/);
    expect(JSON.parse(text)).toEqual(JSON.parse(viaZod(ZCheckinResult)(noisy)));
  });

  // zod's pass refused such an answer (a 500 to the device); the server builds none, but a
  // default is the schema's own answer for a missing value.
  it('writes a command whose defaulted fields are missing with their defaults', () => {
    const old = {
      ...busyCheckin,
      commands: [{ ...busyCheckin.commands[0]!, args: { notice: { message: 'An older row' } } }],
    };
    const text = compiled(ZCheckinResult)(old);
    expect(JSON.parse(text).commands[0].args).toEqual({ notice: { message: 'An older row', timeout_min: 15 } });
  });

  it('serializes error answers by their schema', () => {
    const error = { code: 'agent.invalid_token', message: 'Invalid device token.' };
    expect(JSON.parse(compiled(ZApiError)(error))).toEqual(JSON.parse(viaZod(ZApiError)(error)));
  });

  it('keeps zod’s serializer for a schema JSON Schema cannot express', () => {
    const schema = z.object({ size: z.custom<bigint>((v) => typeof v === 'bigint') });
    const bad = { size: 'not a bigint' };
    expect(() => compiled(schema)(bad)).toThrow("Response doesn't match the schema");
  });
});
