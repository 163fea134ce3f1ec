// Every SDK call of the soak goes through Calls.run: it gets a deadline (a call without an
// answer by then is a violation), and each operation's outcome is counted and classified.
import { fmt, percentile } from './stats.mjs'

// Per call, how long an answer may take on a loaded machine. Anything slower is "no answer".
const TIMEOUT_MS = { create: 90000, fork: 90000, runCode: 60000, 'fetch through the proxy': 30000 }
const DEFAULT_TIMEOUT_MS = 30000

export class CallTimeout extends Error {
  constructor(call, ms) {
    super(`${call} got no answer within ${ms} ms`)
    this.name = 'CallTimeout'
  }
}

const isTimeout = err => err instanceof CallTimeout || err?.name === 'TimeoutError' || err?.name === 'AbortError'

export class Calls {
  constructor({ log, wasKilled }) {
    this.log = log
    this.wasKilled = wasKilled
    this.ops = new Map() // op -> {count, ok, expected, unexpected, timeouts, ms: []}
    this.errors = new Map() // "op/call: type" -> {count, expected, example}
    this.calls = 0
    this.violations = []
  }

  async run(op, call, sandboxId, fn) {
    const ms = TIMEOUT_MS[call] ?? DEFAULT_TIMEOUT_MS
    let timer
    const deadline = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new CallTimeout(call, ms)), ms)
    })
    this.calls++
    try {
      return await Promise.race([fn(), deadline])
    } catch (err) {
      err.call ??= call
      err.sandboxId ??= sandboxId
      throw err
    } finally {
      clearTimeout(timer)
    }
  }

  opStats(op) {
    if (!this.ops.has(op)) this.ops.set(op, { count: 0, ok: 0, expected: 0, unexpected: 0, timeouts: 0, ms: [] })
    return this.ops.get(op)
  }

  /** Counts one finished operation: `err` undefined when it succeeded. */
  record(op, ms, err) {
    const st = this.opStats(op)
    st.count++
    st.ms.push(ms)
    if (err === undefined) {
      st.ok++
      return
    }
    const status = err.status !== undefined ? ` ${err.status}${err.code ? ` ${err.code}` : ''}` : ''
    const type = `${op}/${err.call ?? '-'}: ${err.name ?? 'Error'}${status}`
    // One line each, at most 400 characters: a failed runCode's message carries a traceback.
    const message = String(err.message).replace(/\s*\n\s*/g, ' | ').slice(0, 400)
    const detail = `${type} on ${err.sandboxId ?? '-'}: ${message}${err.cause ? ` (cause: ${err.cause.code ?? err.cause.message})` : ''}`
    let kind
    if (isTimeout(err)) {
      kind = 'timeouts'
      this.violation(`no answer: ${detail}`)
    } else if (err.sandboxId && this.wasKilled(err.sandboxId)) {
      kind = 'expected' // the sandbox went away under it: another worker killed it
    } else {
      kind = 'unexpected'
      this.violation(`unexpected error: ${detail}`)
    }
    st[kind]++
    const e = this.errors.get(type) ?? { count: 0, kind, example: detail }
    e.count++
    this.errors.set(type, e)
  }

  violation(text) {
    this.violations.push(text)
    this.log(`VIOLATION ${text}`)
  }

  totals() {
    let count = 0
    let bad = 0
    for (const st of this.ops.values()) {
      count += st.count
      bad += st.unexpected + st.timeouts
    }
    return { count, bad }
  }

  opTable() {
    return [...this.ops].sort().map(([op, st]) => [
      op, st.count, st.ok, st.expected, st.unexpected, st.timeouts, fmt(percentile(st.ms, 50), 0), fmt(percentile(st.ms, 99), 0)])
  }

  errorLines() {
    return [...this.errors].sort((a, b) => b[1].count - a[1].count)
      .map(([type, e]) => `  ${String(e.count).padStart(5)}  ${e.kind.padEnd(10)}  ${type}\n         e.g. ${e.example.slice(0, 300)}`)
  }
}
