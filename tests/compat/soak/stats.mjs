// Small numeric helpers of the soak driver: a seeded random source, percentiles, a linear fit
// and a plain-text table.

/** mulberry32: a tiny seeded generator, so a seed gives each worker the same op sequence. */
export function seededRandom(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Picks a key of `weights` ({name: weight}) with probability proportional to its weight. */
export function pickWeighted(random, weights) {
  const total = Object.values(weights).reduce((a, b) => a + b, 0)
  let r = random() * total
  for (const [name, w] of Object.entries(weights)) {
    if ((r -= w) < 0) return name
  }
  return Object.keys(weights).at(-1)
}

/** The p-th percentile (0..100) of `values` by nearest rank; NaN when empty. */
export function percentile(values, p) {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]
}

/** Least-squares slope of y over x for [[x, y], ...]; NaN with fewer than two points. */
export function slope(points) {
  const n = points.length
  if (n < 2) return NaN
  const mx = points.reduce((s, [x]) => s + x, 0) / n
  const my = points.reduce((s, [, y]) => s + y, 0) / n
  let num = 0
  let den = 0
  for (const [x, y] of points) {
    num += (x - mx) * (y - my)
    den += (x - mx) * (x - mx)
  }
  return den === 0 ? NaN : num / den
}

export const fmt = (v, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : '-')

/** Rows of cells as a left-aligned text table with a header rule. */
export function table(header, rows) {
  const all = [header, ...rows].map(r => r.map(String))
  const widths = header.map((_, i) => Math.max(...all.map(r => r[i].length)))
  const line = r => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()
  return [line(all[0]), widths.map(w => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n')
}
