// The soak's operations, each a short sequence of official SDK calls on the shared pool of
// live sandboxes. Every SDK call goes through `calls.run`, which bounds it in time and counts it.
import { CodeSandbox, Sandbox } from '@lizard-build/sdk'

// A kill is rarer than a create so that a sandbox lives long enough (about a minute at the
// bound) for its slow operations, an interpreter's first runCode above all, to finish.
export const WEIGHTS = { create: 10, exec: 24, runCode: 10, files: 16, pauseResume: 6, fork: 5, expose: 5, kill: 3 }

/** Thrown when a call answered but not with what the SDK documents. */
export class CheckFailed extends Error {
  constructor(message) {
    super(message)
    this.name = 'CheckFailed'
  }
}
const expect = (cond, what) => {
  if (!cond) throw new CheckFailed(what)
}

/**
 * The live sandboxes the workers share. An entry in use by a pause/resume is exclusive; a
 * kill takes any entry that is not (workers using it then see it go: expected errors).
 * runCode calls on one sandbox take turns, as a notebook's do: the SDK starts the Python
 * kernel from inside each call, unlocked, and two first calls at once kill each other's.
 */
export class Pool {
  constructor(maxLive) {
    this.maxLive = maxLive
    this.entries = new Map() // id -> {sandbox, template, exclusive, users}
    this.reserved = 0 // creates and forks under way
    this.killed = new Set() // ids the soak killed (errors about them are expected)
  }
  get size() {
    return this.entries.size
  }
  reserve(n) {
    if (this.entries.size + this.reserved + n > this.maxLive) return false
    this.reserved += n
    return true
  }
  release(n) {
    this.reserved -= n
  }
  add(sandbox, template) {
    this.entries.set(sandbox.sandboxId, { sandbox, template, exclusive: false, users: 0, coding: false })
  }
  pick(random, { template, exclusive = false, code = false } = {}) {
    const free = [...this.entries.values()].filter(e => !e.exclusive && (!template || e.template === template) &&
      (!exclusive || e.users === 0) && (!code || !e.coding))
    if (free.length === 0) return null
    const e = free[Math.floor(random() * free.length)]
    if (exclusive) e.exclusive = true
    else e.users++
    if (code) e.coding = true
    return e
  }
  put(e, { code = false } = {}) {
    if (e.exclusive) e.exclusive = false
    else e.users--
    if (code) e.coding = false
  }
  take(random) {
    const e = this.pick(random)
    if (!e) return null
    e.users--
    this.entries.delete(e.sandbox.sandboxId)
    this.killed.add(e.sandbox.sandboxId)
    return e
  }
}

// Shared by all workers: two exposes at once on one sandbox must not pick the same port.
let portSeq = 0

export class Ops {
  constructor({ pool, calls, random, conn, lifetimeMs }) {
    this.pool = pool
    this.calls = calls
    this.random = random
    this.conn = conn
    this.lifetimeMs = lifetimeMs
    this.seq = 0
  }

  /** Runs `op` (a WEIGHTS key), or a stand-in when the pool cannot serve it; the op run or null. */
  async run(op) {
    const p = this.pool
    if (p.size === 0 && op !== 'create') op = 'create'
    if (op === 'kill' && p.size <= 2) op = 'create'
    if (op === 'runCode' && ![...p.entries.values()].some(e => e.template === 'interpreter')) op = 'exec'
    // false: nothing to do it on right now (every fitting sandbox is busy, or no room).
    return (await this[op]()) === false ? null : op
  }

  async create() {
    if (!this.pool.reserve(1)) return false
    try {
      const template = this.random() < 0.3 ? 'interpreter' : 'base'
      const Kind = template === 'interpreter' ? CodeSandbox : Sandbox
      const sandbox = await this.calls.run('create', 'create', null, () =>
        Kind.create(template, { ...this.conn, timeoutMs: this.lifetimeMs }))
      this.pool.add(sandbox, template)
    } finally {
      this.pool.release(1)
    }
  }

  /** Runs `body(entry)` on a sandbox of the pool, and gives it back afterwards. */
  async with(opts, body) {
    const e = this.pool.pick(this.random, opts)
    if (!e) return false
    try {
      await body(e)
    } catch (err) {
      err.sandboxId ??= e.sandbox.sandboxId // (a failed check names its sandbox too)
      throw err
    } finally {
      this.pool.put(e, opts)
    }
    return true
  }

  exec() {
    return this.with({}, async ({ sandbox }) => {
      const n = Math.floor(this.random() * 1e6)
      const r = await this.calls.run('exec', 'process.exec', sandbox.sandboxId, () =>
        sandbox.process.exec(`echo ${n} && ls / | wc -l >/dev/null`))
      expect(r.exitCode === 0 && r.stdout === `${n}\n`, `exec echo ${n}: exit ${r.exitCode}, stdout ${JSON.stringify(r.stdout)}`)
    })
  }

  runCode() {
    return this.with({ template: 'interpreter', code: true }, async ({ sandbox }) => {
      const n = 1 + Math.floor(this.random() * 1e5)
      const r = await this.calls.run('runCode', 'runCode', sandbox.sandboxId, () => sandbox.runCode(`sum(range(${n}))`))
      const want = String((n * (n - 1)) / 2)
      expect(!r.error && r.results?.[0]?.data === want,
        `runCode sum(range(${n})): ${r.error ? `${r.error.name}: ${r.error.value}` : `result ${JSON.stringify(r.results?.[0]?.data)}`}, expected ${want}`)
    })
  }

  files() {
    return this.with({}, async ({ sandbox }) => {
      const id = sandbox.sandboxId
      const name = `soak-${++this.seq}-${Math.floor(this.random() * 1e9)}.txt`
      const path = `/home/user/${name}`
      const content = `soak ${name}\n`.repeat(1 + Math.floor(this.random() * 200))
      await this.calls.run('files', 'fs.write', id, () => sandbox.fs.write(path, content))
      const back = await this.calls.run('files', 'fs.read', id, () => sandbox.fs.read(path))
      expect(back === content, `fs.read ${path}: ${back.length} bytes back, ${content.length} written`)
      const entries = await this.calls.run('files', 'fs.list', id, () => sandbox.fs.list('/home/user'))
      expect(entries.some(f => f.name === name), `fs.list /home/user lists ${name}`)
      await this.calls.run('files', 'fs.remove', id, () => sandbox.fs.remove(path))
    })
  }

  pauseResume() {
    return this.with({ exclusive: true }, async ({ sandbox }) => {
      const id = sandbox.sandboxId
      expect(await this.calls.run('pauseResume', 'pause', id, () => sandbox.pause()) === true, 'pause() answers true')
      await this.calls.run('pauseResume', 'waitForStatus paused', id, () => sandbox.waitForStatus('paused', { waitTimeoutMs: 20000 }))
      expect(await this.calls.run('pauseResume', 'resume', id, () => sandbox.resume()) === true, 'resume() answers true')
      await this.calls.run('pauseResume', 'waitForStatus running', id, () => sandbox.waitForStatus('running', { waitTimeoutMs: 20000 }))
      const r = await this.calls.run('pauseResume', 'process.exec', id, () => sandbox.process.exec('echo resumed'))
      expect(r.stdout === 'resumed\n', `exec after resume: ${JSON.stringify(r.stdout)}`)
    })
  }

  async fork() {
    if (!this.pool.reserve(1)) return false
    try {
      return await this.with({}, async ({ sandbox, template }) => {
        const forks = await this.calls.run('fork', 'fork', sandbox.sandboxId, () => sandbox.fork({ count: 1 }))
        for (const f of forks) if (f.sandbox) this.pool.add(f.sandbox, template)
        expect(forks.length === 1 && forks[0].sandbox && !forks[0].error,
          `fork({count: 1}): ${forks.length} entries, ${forks[0]?.error ?? 'no error'}`)
      })
    } finally {
      this.pool.release(1)
    }
  }

  expose() {
    return this.with({}, async ({ sandbox }) => {
      const id = sandbox.sandboxId
      const port = 8000 + (portSeq++ % 1000)
      await this.calls.run('expose', 'process.exec', id, () => sandbox.process.exec(
        `mkdir -p /tmp/www-${port} && echo soak ${port} > /tmp/www-${port}/index.html && cd /tmp/www-${port} && ` +
        `(setsid python3 -m http.server ${port} --bind 127.0.0.1 >/dev/null 2>&1 </dev/null & echo $! > /tmp/http-${port}.pid)`))
      try {
        const exposed = await this.calls.run('expose', 'exposePort', id, () => sandbox.exposePort(port))
        const body = await this.calls.run('expose', 'fetch through the proxy', id, () => this.fetchUntilServed(exposed, port))
        expect(body === `soak ${port}\n`, `the exposed port serves the sandbox's page: ${JSON.stringify(body.slice(0, 80))}`)
        await this.calls.run('expose', 'unexpose', id, () => sandbox.unexpose(port))
      } finally {
        if (!this.pool.killed.has(id)) {
          await this.calls.run('expose', 'process.exec', id, () => sandbox.process.exec(`kill $(cat /tmp/http-${port}.pid)`))
        }
      }
    })
  }

  /** The page through the port proxy; the server in the sandbox takes a moment to listen. */
  async fetchUntilServed(exposed, port) {
    const deadline = Date.now() + 20000
    let last = ''
    for (;;) {
      try {
        const res = await fetch(`http://${exposed.hostname}/`, {
          headers: { 'X-Lizard-Access-Token': exposed.accessToken },
          signal: AbortSignal.timeout(5000),
        })
        const text = await res.text()
        if (res.status === 200) return text
        last = `HTTP ${res.status}`
      } catch (err) {
        last = err.cause?.code ?? err.message
      }
      if (Date.now() > deadline) throw new CheckFailed(`port ${port} not served through ${exposed.hostname} within 20 s (last: ${last})`)
      await new Promise(r => setTimeout(r, 200))
    }
  }

  async kill() {
    const e = this.pool.take(this.random)
    if (!e) return false
    const ok = await this.calls.run('kill', 'kill', e.sandbox.sandboxId, () => e.sandbox.kill())
    expect(ok === true, `kill() answers true, got ${ok}`)
  }
}
