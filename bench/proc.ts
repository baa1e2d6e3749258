/** What a bench reads of a process and of the machine from /proc, and the figures it prints. */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/**
 * CPU seconds a process has used (user + system): steadier than wall time on a loaded machine.
 * With `tid`, one thread's only (the process's own id is its main thread).
 */
export function cpuSeconds(pid: number, tid?: number): number {
  const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, counted in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Busy and total CPU time of the whole machine so far, in clock ticks of 10 ms (from /proc/stat, all cores). */
export function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  // idle and iowait are the third and fourth numbers of the line.
  return { busy: total - cpu[3]! - cpu[4]!, total };
}

/** Resident memory of a process in MB (VmRSS). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** The one-minute load average, as the benches print it beside their figures. */
export const load = () => `load ${loadavg()[0]!.toFixed(1)}`;

/** The value at fraction `p` of an ascending list. */
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/**
 * What a server's memory is made of, from its own `/metrics` (loopback): V8's heap in use and
 * reserved, and memory outside it (`external`: buffers; PGlite's WebAssembly memory is neither,
 * so RSS minus these is mostly the embedded database's).
 */
export async function memoryParts(url: string): Promise<{ heapUsed: number; heapTotal: number; external: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const mb = (name: string) => {
    const m = new RegExp(`^${name} (\\S+)`, 'm').exec(text);
    return m ? Number(m[1]) / 1024 / 1024 : NaN;
  };
  return {
    heapUsed: mb('nodejs_heap_size_used_bytes'),
    heapTotal: mb('nodejs_heap_size_total_bytes'),
    external: mb('nodejs_external_memory_bytes'),
  };
}

/** Runs `fn` over 0…n-1 with `concurrency` at a time; returns each call's latency, sorted. */
export async function pool(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const t = performance.now();
        await fn(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}
