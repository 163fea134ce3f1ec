// The official SDK's Sandbox.create end to end, for the warm pool figure: claimed from the base
// template's pool as soon as the pool is full again (asked every 10 ms) and, as the reference,
// cold (size 'small', which no pool keeps); then fork({count: 10}) of a base sandbox. Each
// sandbox is killed after (untimed). Also a few creates after 1.5 s of quiet, beside a loopback
// echo (a node HTTP server of its own, nothing of lizard-local) after the same quiet: on a
// virtual machine whose idle vCPUs halt, every process pays for waking up, whatever it serves.
// Prints one JSON line: {"warm": {"median", "p90"}, "cold": {"median"}, "fork": {"median"},
// "idle": {"median", "echoMedian"}} (ms) or {"error"}.
//   node sdk_create.mjs <sdk index.mjs> <runs>
// LIZARD_API_URL and LIZARD_API_KEY point at lizard-local.
import { spawn } from 'node:child_process'
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
  const api = process.env.LIZARD_API_URL.replace(/\/$/, '')
  const headers = { 'X-API-Key': process.env.LIZARD_API_KEY }
  const poolFull = async () => {
    for (let waited = 0; waited < 30000; waited += 10) {
      const t = await (await fetch(`${api}/api/templates/base`, { headers })).json()
      if (!(t.poolSize > 0)) throw new Error(`the base template keeps no warm pool (${t.poolError ?? 'size 0'})`)
      if (t.readyCount >= t.poolSize) return
      await sleep(10)
    }
    throw new Error('the base pool did not fill within 30 s (is it on?)')
  }
  const claimed = async () => {
    const { ms, fromPool } = await timed({})
    if (!fromPool) throw new Error('Sandbox.create() did not claim a warm copy (is the base pool on?)')
    return ms
  }
  const warm = []
  for (let i = 0; i < runs; i++) {
    await poolFull()
    warm.push(await claimed())
  }
  const echo = spawn(process.execPath, ['-e',
    "const s = require('http').createServer((q, r) => r.end('{}')).listen(0, '127.0.0.1', () => console.log(s.address().port))"],
  { stdio: ['ignore', 'pipe', 'inherit'] })
  const idle = [], echoIdle = []
  try {
    const port = await new Promise((resolve, reject) => {
      echo.stdout.once('data', d => resolve(Number(String(d).trim())))
      echo.once('exit', () => reject(new Error('the echo server ended')))
    })
    for (let i = 0; i < Math.min(runs, 5); i++) {
      await poolFull()
      await sleep(1500)
      idle.push(await claimed())
      await sleep(1500)
      const start = performance.now()
      await (await fetch(`http://127.0.0.1:${port}/`)).text()
      echoIdle.push(performance.now() - start)
    }
  } finally {
    echo.kill()
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
    idle: { median: quantile(idle, 0.5), echoMedian: quantile(echoIdle, 0.5) },
  }))
} catch (e) {
  console.log(JSON.stringify({ error: String(e?.message ?? e) }))
}
