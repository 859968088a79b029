// The hand-written baseline: A* (Dijkstra when h is 0) over plain CSR typed
// arrays with an inline binary heap, the way one would write it without a
// library. Same lazy-deletion design as ours, no boundary, no abstraction.

export interface PlainCsr {
  n: number;
  start: Int32Array;
  target: Int32Array;
  weight: Float64Array;
  x?: Float64Array;
  y?: Float64Array;
}

/** Builds CSR arrays from edge lists by a counting sort on the source. */
export function plainCsr(n: number, from: Int32Array, to: Int32Array, weight: Float64Array, x?: Float64Array, y?: Float64Array): PlainCsr {
  const start = new Int32Array(n + 1);
  for (let e = 0; e < from.length; e++) start[from[e] + 1]++;
  for (let u = 0; u < n; u++) start[u + 1] += start[u];
  const cursor = start.slice(0, n);
  const target = new Int32Array(from.length);
  const w = new Float64Array(from.length);
  for (let e = 0; e < from.length; e++) {
    const at = cursor[from[e]]++;
    target[at] = to[e];
    w[at] = weight[e];
  }
  return { n, start, target, weight: w, x, y };
}

/** A point-to-point searcher over one CSR; returns the cost (Infinity when unreachable). */
export function plainSearcher(csr: PlainCsr, euclidean: boolean): (s: number, t: number) => number {
  const { n, start, target, weight } = csr;
  const xs = csr.x ?? new Float64Array(n);
  const ys = csr.y ?? new Float64Array(n);
  const g = new Float64Array(n);
  const seen = new Int32Array(n);
  let heapKeys = new Float64Array(1024);
  let heapValues = new Int32Array(1024);
  let generation = 0;
  return (s, t) => {
    generation++;
    const tx = xs[t];
    const ty = ys[t];
    const h = (v: number): number => (euclidean ? Math.hypot(xs[v] - tx, ys[v] - ty) : 0);
    let size = 0;
    const push = (key: number, value: number): void => {
      if (size === heapKeys.length) {
        const k = new Float64Array(size * 2);
        const v = new Int32Array(size * 2);
        k.set(heapKeys);
        v.set(heapValues);
        heapKeys = k;
        heapValues = v;
      }
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (heapKeys[p] <= key) break;
        heapKeys[i] = heapKeys[p];
        heapValues[i] = heapValues[p];
        i = p;
      }
      heapKeys[i] = key;
      heapValues[i] = value;
    };
    g[s] = 0;
    seen[s] = generation;
    push(h(s), s);
    while (size > 0) {
      const key = heapKeys[0];
      const u = heapValues[0];
      // pop
      const lastKey = heapKeys[--size];
      const lastValue = heapValues[size];
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= size) break;
        if (c + 1 < size && heapKeys[c + 1] < heapKeys[c]) c++;
        if (lastKey <= heapKeys[c]) break;
        heapKeys[i] = heapKeys[c];
        heapValues[i] = heapValues[c];
        i = c;
      }
      heapKeys[i] = lastKey;
      heapValues[i] = lastValue;
      const gu = g[u];
      if (key > gu + h(u)) continue;
      if (u === t) return gu;
      for (let e = start[u], end = start[u + 1]; e < end; e++) {
        const v = target[e];
        const candidate = gu + weight[e];
        if (seen[v] !== generation || candidate < g[v]) {
          seen[v] = generation;
          g[v] = candidate;
          push(candidate + h(v), v);
        }
      }
    }
    return Infinity;
  };
}
