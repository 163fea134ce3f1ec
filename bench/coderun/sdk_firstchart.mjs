// What an SDK user waits for from a new interpreter sandbox to a first result and a first chart:
// CodeSandbox.create, then runCode('1+1'), then a matplotlib chart, each timed end to end. Warm:
// the create claims the interpreter template's warm copy, whose kernel is pre-started (the
// script waits, untimed, for the pool to hold a copy again between runs). Cold, as the
// reference: size 'small', which no pool keeps, so the first runCode starts the kernel. Each
// sandbox is killed after (untimed). Prints one JSON line: {"warm": {"create", "first", "chart"},
// "cold": {...}} (medians in ms, each from the previous step's end) or {"error"}.
//   node sdk_firstchart.mjs <sdk index.mjs> <runs>
// LIZARD_API_URL and LIZARD_API_KEY point at lizard-local.
import { pathToFileURL } from 'node:url'

const [sdkPath, runsArg] = process.argv.slice(2)
const runs = Number(runsArg) || 5
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))
const median = samples => {
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
const CHART = 'import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()'

async function poolReady() {
  const url = `${process.env.LIZARD_API_URL.replace(/\/$/, '')}/api/templates/interpreter`
  for (let i = 0; i < 600; i++) {
    const answer = await fetch(url, { headers: { 'X-API-Key': process.env.LIZARD_API_KEY } })
    const pool = await answer.json()
    if (!answer.ok) throw new Error(`GET /api/templates/interpreter: ${answer.status}`)
    if (pool.poolSize < 1) throw new Error('the interpreter template keeps no warm copy here')
    if (pool.readyCount >= 1) return
    await sleep(100)
  }
  throw new Error('the interpreter pool did not refill within 60 s')
}

try {
  const { CodeSandbox } = await import(pathToFileURL(sdkPath).href)
  const timed = async opts => {
    const start = performance.now()
    const sandbox = await CodeSandbox.create({ project: 'default', timeoutMs: 120000, ...opts })
    const created = performance.now()
    const first = await sandbox.runCode('1+1')
    const firstAt = performance.now()
    const chart = await sandbox.runCode(CHART)
    const chartAt = performance.now()
    const fromPool = (await sandbox.getInfo()).fromPool
    await sandbox.kill()
    if (first.results.find(r => r.type === 'result')?.data !== '2')
      throw new Error(`runCode('1+1') gave ${JSON.stringify(first.results)} ${first.error?.message ?? ''}`)
    if (!chart.results.some(r => r.mime === 'image/png'))
      throw new Error(`the chart cell gave no PNG: ${chart.error?.message ?? JSON.stringify(chart.results)}`)
    return { fromPool, create: created - start, first: firstAt - created, chart: chartAt - firstAt }
  }
  const figures = async (opts, pooled) => {
    const got = { create: [], first: [], chart: [] }
    for (let i = 0; i < runs; i++) {
      if (pooled) await poolReady()
      const t = await timed(opts)
      if (t.fromPool !== pooled) throw new Error(`fromPool was ${t.fromPool}, expected ${pooled}`)
      for (const k of Object.keys(got)) got[k].push(t[k])
    }
    return Object.fromEntries(Object.entries(got).map(([k, v]) => [k, median(v)]))
  }
  const warm = await figures({}, true)
  const cold = await figures({ size: 'small' }, false)
  console.log(JSON.stringify({ warm, cold }))
} catch (e) {
  console.log(JSON.stringify({ error: String(e?.message ?? e) }))
}
