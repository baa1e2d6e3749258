/**
 * Coalesces lookups by key into few queries: callers arriving while `inFlight` queries run
 * wait and then share the next one (a DataLoader without its cache). At low load each call
 * still gets its own query at once; under load, batches grow with the queue, so the number
 * of statements stays near `inFlight` per query time however many requests come in.
 */
export type Batcher<K, V> = { load(key: K): Promise<V> };

export function createBatcher<K, V>(
  loadMany: (keys: K[]) => Promise<Map<K, V>>,
  options: { missing: V; chunk: number; inFlight: number },
): Batcher<K, V> {
  let queue = new Map<K, { resolve: (v: V) => void; reject: (e: unknown) => void }[]>();
  let running = 0;

  const run = () => {
    while (queue.size && running < options.inFlight) {
      const batch = queue;
      queue = new Map();
      running++;
      void (async () => {
        const keys = [...batch.keys()];
        try {
          const found = new Map<K, V>();
          for (let i = 0; i < keys.length; i += options.chunk) {
            for (const [k, v] of await loadMany(keys.slice(i, i + options.chunk))) found.set(k, v);
          }
          for (const [k, waiting] of batch) {
            const value = found.has(k) ? found.get(k)! : options.missing;
            for (const w of waiting) w.resolve(value);
          }
        } catch (err) {
          for (const waiting of batch.values()) for (const w of waiting) w.reject(err);
        } finally {
          running--;
          run();
        }
      })();
    }
  };

  return {
    load(key) {
      return new Promise<V>((resolve, reject) => {
        const waiting = queue.get(key);
        if (waiting) waiting.push({ resolve, reject });
        else queue.set(key, [{ resolve, reject }]);
        run();
      });
    },
  };
}
