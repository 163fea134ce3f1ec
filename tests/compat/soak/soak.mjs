// The soak driver (scripts/soak.sh starts lizard-local and runs this): 8 concurrent workers
// drive one real lizard-local through the official SDK with a seeded random mix of create,
// exec, runCode, files, pause/resume, fork, expose and kill, at most SOAK_MAX_LIVE sandboxes
// at once, for SOAK_MINUTES. Every 30 s it checks the invariants (invariants.mjs); a dedicated
// warm sandbox measures a trivial exec's round trip every 250 ms. At the end it kills every
// sandbox, checks that nothing is left, prints a summary and exits 1 on any violation.
// Latencies are figures, never violations: under the workers' load they measure the host as
// much as the server, so they are printed beside the same probe on the idle server, measured
// first in the same run.
//
// One node process with async workers rather than 8 processes: the SDK calls are I/O bound,
// and one process shares the bound on live sandboxes and the accounting without IPC.
import { Lizard, Sandbox } from '@lizard-build/sdk'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { Calls } from './calls.mjs'
import { HostScan } from './hostscan.mjs'
import { Invariants } from './invariants.mjs'
import { Ops, Pool, WEIGHTS } from './ops.mjs'
import { fmt, percentile, pickWeighted, seededRandom, slope, table } from './stats.mjs'

const env = name => {
  const v = process.env[name]
  if (!v) {
    console.error(`soak: ${name} is not set (scripts/soak.sh sets it)`)
    process.exit(2)
  }
  return v
}
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10)
const SEED = Number(process.env.SOAK_SEED ?? 1)
const WORKERS = Number(process.env.SOAK_WORKERS ?? 8)
const MAX_LIVE = Number(process.env.SOAK_MAX_LIVE ?? 12)
const CHECK_MS = 30000
// Every 250 ms: a 3-minute run then has ~700 samples, so its p99 is not simply its maximum.
const PROBE_MS = 250
const REFERENCE_SAMPLES = 40
const RSS_MB_PER_HOUR = 20
const SHORT_RUN_MIN = 20 // below this the RSS slope is a figure, only gross growth fails
const GROSS_RSS_MB = 64
env('LIZARD_API_URL')
env('LIZARD_API_KEY')

const t0 = Date.now()
const loadStart = loadavg()[0]
const stamp = () => {
  const s = Math.floor((Date.now() - t0) / 1000)
  return `[${String(Math.floor(s / 60)).padStart(2)}:${String(s % 60).padStart(2, '0')}]`
}
const log = text => console.log(`${stamp()} ${text}`)
const sleep = ms => new Promise(r => setTimeout(r, ms))

const scan = new HostScan({ dataDir: env('SOAK_DATA_DIR'), serverPid: Number(env('SOAK_SERVER_PID')) })
const invariants = new Invariants(scan, log)
const pool = new Pool(MAX_LIVE - 1) // the probe sandbox is the last one
const calls = new Calls({ log, wasKilled: id => pool.killed.has(id) })
const conn = { project: 'soak' }
const lizard = new Lizard(conn)

async function listedIds() {
  const all = await calls.run('list', 'list', null, () => lizard.list())
  return new Set(all.filter(s => !['stopped', 'deleted', 'failed'].includes(s.status)).map(s => s.sandboxId))
}

async function setup() {
  const admin = new Lizard({})
  const projects = await calls.run('setup', 'projects.list', null, () => admin.projects.list())
  if (!projects.some(p => p.name === conn.project)) {
    const workspaceId = projects[0]?.workspaceId
    await calls.run('setup', 'projects.create', null, () => admin.projects.create({ name: conn.project, ...(workspaceId && { workspaceId }) }))
  }
}

async function main() {
  const endAt = t0 + MINUTES * 60000
  const lifetimeMs = MINUTES * 60000 + 600000 // the server never times a soak sandbox out
  log(`soak: ${MINUTES} min, seed ${SEED}, ${WORKERS} workers, at most ${MAX_LIVE} live sandboxes, server pid ${scan.serverPid}, cgroup instance ${scan.instance}`)
  await setup()
  await sleep(3000) // let the setup calls' connections settle before counting descriptors
  const fd0 = scan.fdCount()
  const probe = await calls.run('setup', 'create', null, () => Sandbox.create('base', { ...conn, timeoutMs: lifetimeMs }))
  for (let i = 0; i < 5; i++) await calls.run('setup', 'process.exec', probe.sandboxId, () => probe.process.exec('true'))
  // The reference: the same probe while nothing else runs.
  const idleMs = []
  for (let i = 0; i < REFERENCE_SAMPLES; i++) {
    const start = performance.now()
    await calls.run('setup', 'process.exec', probe.sandboxId, () => probe.process.exec('true'))
    idleMs.push(performance.now() - start)
    await sleep(50)
  }
  log(`exec round trip on the idle server: p50 ${fmt(percentile(idleMs, 50))} ms, p99 ${fmt(percentile(idleMs, 99))} ms`)
  await sleep(3000)
  const fd1 = scan.fdCount()
  log(`descriptors: ${fd0} with no sandbox, ${fd1} with the probe sandbox only`)

  let stopping = false
  const rss = [] // [seconds, MB]
  const probeMs = []
  let skipped = 0 // ops that found no free sandbox of their kind
  const loops = []
  loops.push((async () => {
    while (!stopping) {
      rss.push([(Date.now() - t0) / 1000, scan.rssMb()])
      await sleep(10000)
    }
  })())
  loops.push((async () => {
    while (!stopping) {
      const start = performance.now()
      try {
        await calls.run('probe', 'process.exec', probe.sandboxId, () => probe.process.exec('true'))
        probeMs.push(performance.now() - start)
        calls.record('probe exec', performance.now() - start)
      } catch (err) {
        calls.record('probe exec', performance.now() - start, err)
      }
      await sleep(PROBE_MS)
    }
  })())
  for (let w = 0; w < WORKERS; w++) {
    const random = seededRandom(SEED * 1000 + w)
    const ops = new Ops({ pool, calls, random, conn, lifetimeMs })
    loops.push((async () => {
      while (!stopping) {
        const wanted = pickWeighted(random, WEIGHTS)
        const start = performance.now()
        let op = wanted
        try {
          op = await ops.run(wanted)
          if (op) calls.record(op, performance.now() - start)
          else skipped++
        } catch (err) {
          calls.record(op, performance.now() - start, err)
        }
        await sleep(random() * 100)
      }
    })())
  }

  while (Date.now() < endAt) {
    await sleep(Math.min(CHECK_MS, endAt - Date.now()))
    if (!scan.serverAlive()) {
      invariants.violation('lizard-local is gone')
      break
    }
    try {
      const c = await invariants.check(listedIds)
      const { count, bad } = calls.totals()
      log(`check ${invariants.checks}: ${c.line} | exec p50 ${fmt(percentile(probeMs, 50))} p99 ${fmt(percentile(probeMs, 99))} ms | ops ${count}, failed ${bad} | load ${fmt(loadavg()[0])}`)
    } catch (err) {
      calls.record('check', 0, err)
    }
  }
  stopping = true
  log('stopping: waiting for the operations under way')
  await Promise.all(loops)

  // Everything but the probe, then the probe: the descriptors compare at equal sandbox counts.
  const leftovers = new Set([...pool.entries.keys(), ...(await listedIds())])
  leftovers.delete(probe.sandboxId)
  for (const id of leftovers) {
    pool.killed.add(id)
    try {
      await calls.run('cleanup', 'kill', id, async () => (await Sandbox.connect(id, conn)).kill())
    } catch (err) {
      if (err.status !== 404 && err.name !== 'NotFoundError') calls.record('cleanup kill', 0, err)
    }
  }
  await sleep(5000)
  const fdEnd1 = scan.fdCount()
  invariants.compareFds('with the probe sandbox only', fd1, fdEnd1)
  await calls.run('cleanup', 'kill', probe.sandboxId, () => probe.kill())
  // Kills end their sandboxes before they answer; allow a moment for the host to catch up.
  let last
  for (let i = 0; i < 20; i++) {
    await sleep(1000)
    const s = scan.scan()
    last = s
    if (s.agents.byId.size + s.mounts.byId.size + s.loops.byId.size + s.cgroups.size === 0) break
  }
  const remaining = await listedIds()
  if (remaining.size > 0) invariants.violation(`the API still lists ${[...remaining].join(', ')} after every sandbox was killed`)
  await sleep(3000)
  const fdEnd0 = scan.fdCount()
  const final = await invariants.check(listedIds, { final: true })
  invariants.compareFds('with no sandbox', fd0, fdEnd0)
  log(`final check: ${final.line}`)
  summary({ probeMs, idleMs, rss, fd0, fd1, fdEnd0, fdEnd1, skipped })
}

function summary({ probeMs, idleMs, rss, fd0, fd1, fdEnd0, fdEnd1, skipped }) {
  const warmupS = Math.min(300, (MINUTES * 60) / 3) // the first third, at most 5 min
  const after = rss.filter(([t, mb]) => t >= warmupS && Number.isFinite(mb))
  const mbPerHour = slope(after) * 3600
  const grown = after.length ? after.at(-1)[1] - after[0][1] : NaN
  let rssRule
  if (MINUTES >= SHORT_RUN_MIN) {
    rssRule = `linear fit after ${Math.round(warmupS / 60)} min warm-up must stay under ${RSS_MB_PER_HOUR} MB/h`
    if (!(mbPerHour < RSS_MB_PER_HOUR)) invariants.violation(`server RSS grows ${fmt(mbPerHour)} MB/h (${rssRule})`)
  } else {
    rssRule = `run shorter than ${SHORT_RUN_MIN} min: the slope is a figure only; fails on growth over ${GROSS_RSS_MB} MB after ${Math.round(warmupS)} s warm-up`
    if (grown > GROSS_RSS_MB) invariants.violation(`server RSS grew ${fmt(grown)} MB after warm-up (${rssRule})`)
  }
  const p50 = percentile(probeMs, 50)
  const p99 = percentile(probeMs, 99)
  const idle50 = percentile(idleMs, 50)
  const idle99 = percentile(idleMs, 99)
  if (probeMs.length === 0) invariants.violation('the exec probe never answered')

  console.log('\n== soak summary ==')
  console.log(table(['operation', 'count', 'ok', 'expected err', 'unexpected', 'timeouts', 'p50 ms', 'p99 ms'], calls.opTable()))
  const errors = calls.errorLines()
  console.log(`\nerrors by type (expected: the sandbox was killed by another worker meanwhile):${errors.length ? '\n' + errors.join('\n') : ' none'}`)
  console.log(`\nSDK calls: ${calls.calls}; operations skipped for want of a free sandbox of their kind: ${skipped}`)
  console.log(`exec round trip (trivial 'true' on a warm sandbox every ${PROBE_MS / 1000} s): p50 ${fmt(p50)} ms, p99 ${fmt(p99)} ms, max ${fmt(Math.max(...probeMs))} ms, ${probeMs.length} samples; on the idle server p50 ${fmt(idle50)} ms, p99 ${fmt(idle99)} ms (${idleMs.length} samples): under load p50 ${fmt(p50 / idle50)}x, p99 ${fmt(p99 / idle99)}x the idle figures (a figure, not a bound)`)
  console.log(`server RSS: start ${fmt(rss[0]?.[1])} MB, end ${fmt(rss.at(-1)?.[1])} MB, after warm-up ${fmt(after[0]?.[1])} -> ${fmt(after.at(-1)?.[1])} MB, slope ${fmt(mbPerHour)} MB/h (${rssRule})`)
  console.log(`server file descriptors: ${fd0} -> ${fdEnd0} with no sandbox, ${fd1} -> ${fdEnd1} with the probe sandbox only`)
  console.log(`invariant checks: ${invariants.checks}`)
  // The latency figures depend on what else the host runs: say how busy it was.
  console.log(`host: ${cpus().length} CPUs, load average (1 min) at the start ${fmt(loadStart)}, at the end ${fmt(loadavg()[0])}`)
  const violations = [...calls.violations, ...invariants.violations]
  if (violations.length) {
    console.log(`\nFAIL: ${violations.length} violation(s):`)
    for (const v of violations.slice(0, 50)) console.log(`  - ${v}`)
    if (violations.length > 50) console.log(`  ... and ${violations.length - 50} more (all printed above as they happened)`)
    process.exitCode = 1
  } else {
    console.log('\nPASS: no violation')
  }
}

main().catch(err => {
  console.error(`soak: ${err?.stack ?? err}${err?.status ? ` (HTTP ${err.status})` : ''}`)
  process.exit(1)
})
