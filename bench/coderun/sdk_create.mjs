// The official SDK's Sandbox.create end to end, for the warm pool figure: claimed from the base
// template's pool (1.5 s between creates, so that the pool has refilled) and, as the reference,
// cold (size 'small', which no pool keeps); then fork({count: 10}) of a base sandbox. Each
// sandbox is killed after (untimed). Prints one JSON line: {"warm": {"median", "p90"}, "cold":
// {"median"}, "fork": {"median"}} (ms) or {"error"}.
//   node sdk_create.mjs <sdk index.mjs> <runs>
// LIZARD_API_URL and LIZARD_API_KEY point at lizard-local.
import { pathToFileURL } from 'node:url'

const [sdkPath, runsArg] = process.argv.slice(2)
const runs = Number(runsArg) || 20
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))
const quantile = (samples, q) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}
try {
  const { Sandbox } = await import(pathToFileURL(sdkPath).href)
  const timed = async opts => {
    const start = performance.now()
    const sandbox = await Sandbox.create({ project: 'default', timeoutMs: 60000, ...opts })
    const ms = performance.now() - start
    const fromPool = (await sandbox.getInfo()).fromPool
    await sandbox.kill()
    return { ms, fromPool }
  }
  const warm = []
  for (let i = 0; i < runs; i++) {
    await sleep(1500)
    const { ms, fromPool } = await timed({})
    if (!fromPool) throw new Error('Sandbox.create() did not claim a warm copy (is the base pool on?)')
    warm.push(ms)
  }
  const cold = []
  for (let i = 0; i < runs; i++) cold.push((await timed({ size: 'small' })).ms)
  // fork({count: 10}) of a base sandbox, until the call answered with ten running copies.
  const source = await Sandbox.create({ project: 'default', timeoutMs: 120000 })
  const forks = []
  try {
    for (let i = 0; i < Math.min(runs, 5); i++) {
      const start = performance.now()
      const made = await source.fork({ count: 10 })
      forks.push(performance.now() - start)
      await Promise.all(made.map(f => f.sandbox?.kill()))
      if (made.filter(f => f.sandbox).length !== 10) throw new Error(`fork({count: 10}) made ${made.filter(f => f.sandbox).length}`)
    }
  } finally {
    await source.kill()
  }
  console.log(JSON.stringify({
    warm: { median: quantile(warm, 0.5), p90: quantile(warm, 0.9) },
    cold: { median: quantile(cold, 0.5) },
    fork: { median: quantile(forks, 0.5) },
  }))
} catch (e) {
  console.log(JSON.stringify({ error: String(e?.message ?? e) }))
}
