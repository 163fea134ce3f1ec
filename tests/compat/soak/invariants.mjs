// The soak's invariants, checked while the load runs: nothing on the host (processes, mounts,
// loop devices, cgroups) for a sandbox the API no longer lists, descriptors that do not grow
// with time, and the server's RSS sampled for the growth figure.
//
// A check runs under load, so a sandbox being created or killed may show on the host and not
// in the API (or the other way round) for a moment. A leftover is therefore a violation only
// when the same thing is still there, still unlisted, at the next check 30 s later.
import { fmt } from './stats.mjs'

// Default-size disks the server mounts ahead (kPoolSize in server/runtime/sandboxdisks_pool.cpp).
const DISK_POOL_SIZE = 2
// Descriptors above the figure first seen with the same number of live sandboxes that are
// still within bounds: keep-alive connections of 8 clients, streams of calls in flight.
const fdSlack = base => Math.max(48, Math.ceil(base * 0.25))

export class Invariants {
  constructor(scan, log) {
    this.scan = scan
    this.log = log
    this.violations = []
    this.suspects = new Map() // "kind id" -> detail, seen at the previous check
    this.reported = new Set() // leftovers reported already (each is reported once)
    this.fdBaseline = new Map() // live sandboxes -> fds first seen with that many
    this.fdOver = false
    this.checks = 0
  }

  violation(text) {
    this.violations.push(text)
    this.log(`VIOLATION ${text}`)
  }

  /**
   * One check. `listIds()` gives the ids the API lists; live is the union of its answers
   * just before and just after the host scan. Returns a one-line summary of the host figures.
   */
  async check(listIds, { final = false } = {}) {
    this.checks++
    const before = await listIds()
    const s = this.scan.scan()
    const listed = new Set([...before, ...(await listIds())])
    const found = new Map() // "kind id" -> detail
    const orphan = (kind, byId) => {
      for (const [id, what] of byId) if (!listed.has(id)) found.set(`${kind} ${id}`, what.join(', '))
    }
    orphan('process', new Map([...s.agents.byId].map(([id, pids]) => [id, pids.map(p => `pid ${p}`)])))
    orphan('mount', s.mounts.byId)
    orphan('loop', s.loops.byId)
    orphan('cgroup', s.cgroups)
    for (const pid of s.agents.unattributed) found.set(`process ${pid}`, `lizard-agent pid ${pid} in this server's cgroup, no sandbox id`)
    for (const m of s.mounts.other) found.set(`mount ${m}`, 'a mount in the data directory that is neither a sandbox disk nor the pool')
    for (const l of s.loops.other) found.set(`loop ${l}`, 'a loop device on a file of the data directory that is neither a sandbox disk nor the pool')
    if (s.mounts.pool.length > DISK_POOL_SIZE) found.set('mount pool', `${s.mounts.pool.length} pool disks mounted (pool size ${DISK_POOL_SIZE}): ${s.mounts.pool.join(', ')}`)
    if (s.loops.pool.length > DISK_POOL_SIZE) found.set('loop pool', `${s.loops.pool.length} pool loop devices (pool size ${DISK_POOL_SIZE}): ${s.loops.pool.join(', ')}`)

    // At the final check nothing is in flight: a leftover is one at once.
    for (const [key, detail] of found) {
      if (this.reported.has(key) || !(final || this.suspects.has(key))) continue
      this.reported.add(key)
      this.violation(`leaked ${key}: ${detail}${final ? ' (after every sandbox was killed)' : ' (still there 30 s later)'}`)
    }
    this.suspects = final ? new Map() : found

    const live = listed.size
    if (!final) {
      if (!this.fdBaseline.has(live)) this.fdBaseline.set(live, s.fds)
      const base = this.fdBaseline.get(live)
      const over = s.fds > base + fdSlack(base)
      if (over && this.fdOver) {
        this.violation(`file descriptors: ${s.fds} open with ${live} live sandboxes, first seen ${base} with as many (slack ${fdSlack(base)}), two checks in a row; by kind: ${this.scan.fdKinds()}`)
      }
      this.fdOver = over
    }
    const pending = final ? 0 : found.size
    return {
      fds: s.fds,
      rssMb: s.rssMb,
      line: `live ${live} | host: agents ${s.agents.byId.size} mounts ${s.mounts.byId.size}+${s.mounts.pool.length} pool loops ${s.loops.byId.size}+${s.loops.pool.length} pool cgroups ${s.cgroups.size} | unlisted now ${pending} | fd ${s.fds} | rss ${fmt(s.rssMb)} MB`,
    }
  }

  /** Final descriptor comparison at the same number of live sandboxes as at the start. */
  compareFds(what, start, end) {
    const slack = Math.max(16, Math.ceil(start * 0.1))
    if (end > start + slack) this.violation(`file descriptors ${what}: ${end} at the end, ${start} at the start (slack ${slack}); by kind: ${this.scan.fdKinds()}`)
  }
}
