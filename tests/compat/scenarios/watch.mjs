// watch: fs.watch through the SDK's Watcher: create, write, rename, remove in a recursive
// watch (a new subdirectory included), the overflow marker (lizard-local's extension of
// FsEvent), close, and the errors.
import { LizardError, NotFoundError } from '@lizard-build/sdk'
import { check, compatClient, eq, fail, rejects, scenario, sleep, withSandbox } from './lib.mjs'

const root = '/tmp/compat watch'

/** Drains `watcher` until `want` ({type, path} each) has appeared in order; all it saw. */
async function collect(watcher, want, what) {
  const seen = []
  const deadline = Date.now() + 5000
  for (;;) {
    const batch = await watcher.getEvents()
    check(Array.isArray(batch), `${what}: getEvents answers an array`)
    seen.push(...batch)
    let next = 0
    for (const e of seen) if (next < want.length && e.type === want[next].type && e.path === want[next].path) ++next
    if (next === want.length) return seen
    if (Date.now() > deadline) fail(`${what}: expected ${JSON.stringify(want)} in order, saw ${JSON.stringify(seen)}`)
    await sleep(100)
  }
}

scenario('watch', async () => {
  const lizard = await compatClient()
  await withSandbox(lizard, {}, async sandbox => {
    const fs = sandbox.fs
    await fs.makeDir(root)
    const watcher = await fs.watch(root, { recursive: true })
    check(typeof watcher.watcherId === 'string' && watcher.watcherId.length > 0, 'watch answers a Watcher with an id')
    eq(await watcher.getEvents(), [], 'a quiet interval drains to an empty array')

    await fs.makeDir(`${root}/sub`)
    await collect(watcher, [{ type: 'create', path: `${root}/sub` }], 'a new subdirectory')

    await fs.write(`${root}/sub/a.txt`, 'one')
    await sandbox.process.exec(['bash', '-c', `echo more >> '${root}/sub/a.txt'`])
    await fs.move(`${root}/sub/a.txt`, `${root}/sub/b.txt`)
    await fs.remove(`${root}/sub/b.txt`)
    const seen = await collect(watcher, [
      { type: 'create', path: `${root}/sub/a.txt` },
      { type: 'write', path: `${root}/sub/a.txt` },
      { type: 'rename', path: `${root}/sub/a.txt` },
      { type: 'create', path: `${root}/sub/b.txt` },
      { type: 'remove', path: `${root}/sub/b.txt` },
    ], 'create, write, move, remove inside the new subdirectory')
    const a = seen.find(e => e.path === `${root}/sub/a.txt`)
    eq(Object.keys(a).sort(), ['name', 'path', 'type'], 'an event has the FsEvent fields')
    eq(a.name, 'a.txt', 'name is the entry\'s name within its directory')
    for (const e of seen) {
      check(['create', 'write', 'remove', 'rename', 'chmod'].includes(e.type), `event type ${e.type} is one of FsEvent's`)
    }

    // 10,500 files at once: more than a watcher queues between two drains.
    await sandbox.process.exec(['bash', '-c', `mkdir '${root}/many' && cd '${root}/many' && for i in $(seq 1 10500); do : > f$i; done`])
    const flood = await watcher.getEvents()
    eq(flood.length, 10001, 'a flood drains as 10,000 events and one marker')
    const marker = flood[flood.length - 1]
    eq([marker.type, marker.path], ['overflow', root], 'the marker comes last and names the watched directory')
    check(marker.dropped >= 500, `the marker counts the dropped events (${marker.dropped})`)
    eq(flood.filter(e => e.type === 'overflow').length, 1, 'one marker per drain')
    await fs.write(`${root}/calm.txt`, 'x')
    const calm = await collect(watcher, [{ type: 'create', path: `${root}/calm.txt` }], 'after the flood')
    check(!calm.some(e => e.type === 'overflow'), 'the next drain has no marker')

    await watcher.close()
    await rejects(watcher.getEvents(), NotFoundError, 'getEvents after close')
    await rejects(watcher.close(), NotFoundError, 'close twice')
    await rejects(fs.watch(`${root}/missing`), NotFoundError, 'watch of a missing directory')
    const notDir = await rejects(fs.watch(`${root}/calm.txt`), LizardError, 'watch of a file')
    eq([notDir.status, notDir.code], [400, 'NOT_A_DIRECTORY'], 'watch of a file is a 400 NOT_A_DIRECTORY')
    const plain = await fs.watch(root)
    await sandbox.process.exec(['bash', '-c', `touch '${root}/sub/inner' '${root}/top'`])
    const top = await collect(plain, [{ type: 'create', path: `${root}/top` }], 'a watch without recursive')
    check(!top.some(e => e.path.startsWith(`${root}/sub/`)), 'without recursive nothing inside a subdirectory shows')
    await plain.close()
  })
})
