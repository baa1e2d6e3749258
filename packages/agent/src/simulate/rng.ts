/** A small seeded PRNG (mulberry32) so a simulated fleet is the same fleet on every run. */
export type Rng = {
  /** [0, 1) */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  /** Distinct picks, in random order. */
  sample<T>(items: readonly T[], n: number): T[];
  hex(length: number): string;
};

export function createRng(seed: number): Rng {
  let a = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
    sample(items, n) {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, Math.min(n, copy.length));
    },
    hex(length) {
      let s = '';
      while (s.length < length) s += Math.floor(next() * 16).toString(16);
      return s;
    },
  };
}

/** Mixes a fleet seed and a device index into a per-device seed. */
export function deviceSeed(seed: number, index: number): number {
  let h = (seed ^ 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (index + 0x27d4eb2d), 0x165667b1) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}
