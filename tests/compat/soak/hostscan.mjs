// What one lizard-local leaves on the host, read from /proc and /sys: its sandboxes' PID 1
// processes, mounts, loop devices and cgroups, each attributed to a sandbox id, plus the
// server's open file descriptors and RSS. Only this server's: its data directory and its cgroup
// instance (server/runtime/linuxruntime.cpp names it after the data directory).
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { dirname } from 'node:path'

const CGROUP_ROOT = '/sys/fs/cgroup'

/** The server's cgroup instance name: "d" + FNV-1a 64 of the data directory, as the server does. */
export function instanceName(dataDir) {
  let h = 1469598103934665603n
  for (const c of Buffer.from(dataDir)) {
    h ^= BigInt(c)
    h = (h * 1099511628211n) & 0xffffffffffffffffn
  }
  return 'd' + h.toString(16).padStart(16, '0')
}

const read = path => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null // gone meanwhile, or not there on this host
  }
}

const list = dir => {
  try {
    return readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

const add = (map, key, value) => map.set(key, [...(map.get(key) ?? []), value])

export class HostScan {
  constructor({ dataDir, serverPid }) {
    this.dataDir = dataDir
    this.serverPid = serverPid
    this.instance = instanceName(dataDir)
  }

  /**
   * The instance's cgroup directories: cgroup v1 puts one under every controller
   * (/sys/fs/cgroup/<ctrl>/lizard-local/<instance>); v2 one beside the server's own cgroup
   * (root: /sys/fs/cgroup/lizard-local/<instance>). Looked up each time: the server makes
   * them with its first sandbox and removes them when empty.
   */
  cgroupBases() {
    const candidates = [`${CGROUP_ROOT}/lizard-local/${this.instance}`]
    for (const c of list(CGROUP_ROOT)) {
      if (c.isDirectory()) candidates.push(`${CGROUP_ROOT}/${c.name}/lizard-local/${this.instance}`)
    }
    const own = (read(`/proc/${this.serverPid}/cgroup`) ?? '').match(/^0::(\/.*)$/m)?.[1]
    if (own && own !== '/') {
      for (const base of [own, dirname(own)]) candidates.push(`${CGROUP_ROOT}${base}/lizard-local/${this.instance}`)
    }
    return [...new Set(candidates)].filter(p => existsSync(p))
  }

  /** Sandbox id -> its cgroup directories (one per v1 controller). */
  cgroups() {
    const byId = new Map()
    for (const base of this.cgroupBases()) {
      for (const e of list(base)) if (e.isDirectory()) add(byId, e.name, `${base}/${e.name}`)
    }
    return byId
  }

  /** Sandbox id -> pids of lizard-agent processes in that sandbox's cgroup of this instance. */
  agents() {
    const byId = new Map()
    const unattributed = []
    for (const e of list('/proc')) {
      if (!/^\d+$/.test(e.name)) continue
      if ((read(`/proc/${e.name}/comm`) ?? '').trim() !== 'lizard-agent') continue
      const cg = read(`/proc/${e.name}/cgroup`) ?? ''
      const m = cg.match(new RegExp(`/lizard-local/${this.instance}/([^/\\s]+)`))
      if (m) add(byId, m[1], Number(e.name))
      else if (cg.includes(this.instance)) unattributed.push(Number(e.name))
    }
    return { byId, unattributed }
  }

  /** Host mounts under the data directory: per sandbox, the disk pool, and anything else. */
  mounts() {
    const byId = new Map()
    const pool = []
    const other = []
    const prefix = this.dataDir + '/'
    for (const line of (read('/proc/mounts') ?? '').split('\n')) {
      const target = line.split(' ')[1]?.replace(/\\040/g, ' ')
      if (!target?.startsWith(prefix)) continue
      const rel = target.slice(prefix.length)
      const sandbox = rel.match(/^sandboxes\/([^/]+)/)
      if (sandbox) add(byId, sandbox[1], target)
      else if (/^disks\/\.pool(\/\d+)?$/.test(rel)) {
        if (rel !== 'disks/.pool') pool.push(target) // (the pool directory's own mount is not a disk)
      } else other.push(target)
    }
    return { byId, pool, other }
  }

  /** Loop devices whose backing file is in the data directory: per sandbox disk, pool, other. */
  loops() {
    const byId = new Map()
    const pool = []
    const other = []
    for (const e of list('/sys/block')) {
      if (!e.name.startsWith('loop')) continue
      const backing = read(`/sys/block/${e.name}/loop/backing_file`)?.trim()
      if (!backing?.startsWith(this.dataDir + '/')) continue
      const file = backing.slice(this.dataDir.length + 1).replace(/ \(deleted\)$/, '')
      const disk = file.match(/^disks\/([^/.][^/]*)\.img$/)
      const entry = `/dev/${e.name} ${backing}`
      if (disk) add(byId, disk[1], entry)
      else if (/^disks\/\.pool-\d+\.img$/.test(file)) pool.push(entry)
      else other.push(entry)
    }
    return { byId, pool, other }
  }

  fdCount() {
    return list(`/proc/${this.serverPid}/fd`).length
  }

  /** The server's descriptors by kind ("socket", "anon_inode:[eventfd]", a file's directory), most first. */
  fdKinds() {
    const kinds = new Map()
    for (const e of list(`/proc/${this.serverPid}/fd`)) {
      let target
      try {
        target = readlinkSync(`/proc/${this.serverPid}/fd/${e.name}`)
      } catch {
        continue
      }
      const kind = target.startsWith('/') ? dirname(target) : target.replace(/:\[\d+\]$/, '')
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
    }
    return [...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`).join(', ')
  }

  rssMb() {
    const kb = (read(`/proc/${this.serverPid}/status`) ?? '').match(/^VmRSS:\s+(\d+)/m)?.[1]
    return kb ? Number(kb) / 1024 : NaN
  }

  serverAlive() {
    return existsSync(`/proc/${this.serverPid}`) && !/^State:\s+Z/m.test(read(`/proc/${this.serverPid}/status`) ?? '')
  }

  /** Everything at once, for one invariant check. */
  scan() {
    return {
      cgroups: this.cgroups(),
      agents: this.agents(),
      mounts: this.mounts(),
      loops: this.loops(),
      fds: this.fdCount(),
      rssMb: this.rssMb(),
    }
  }
}
