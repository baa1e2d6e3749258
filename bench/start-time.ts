/**
 * Server start time: process spawn until /readyz answers 200, on the embedded database.
 * The first start migrates an empty data directory; later starts reuse it.
 * Run: npx tsx bench/start-time.ts
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './server';

const runs = Number(process.env.RUNS ?? 5);
const dataDir = mkdtempSync(join(tmpdir(), 'patchwell-start-'));
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const s = await startServer({ port: 18181, dataDir, env: { PATCHWELL_DEMO: '1' } });
  times.push(s.startMs);
  await s.stop();
}
const [first, ...rest] = times;
rest.sort((a, b) => a - b);
console.log(`first start (empty data dir, migrations + demo): ${first!.toFixed(0)} ms`);
if (rest.length)
  console.log(`later starts: median ${rest[Math.floor(rest.length / 2)]!.toFixed(0)} ms (n=${rest.length})`);
