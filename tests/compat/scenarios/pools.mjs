// Warm pools through the SDK: snapshot({poolSize}) and waitForSnapshot, restores that claim the
// warm copies (then one that starts cold), a copy with the snapshot's files and nothing of the
// pool's life, setSnapshotWarmPool, pauseSnapshot/resumeSnapshot, and Sandbox.create from the
// template's pool. Runs against a lizard-local with pools on (tst_sdkcompat).
import { Sandbox } from '@lizard-build/sdk'
import { check, compatClient, eq, rejects, scenario, waitFor, withSandbox } from './lib.mjs'

scenario('pools', async () => {
  const lizard = await compatClient()
  const made = []
  try {
    const fresh = await lizard.create('base', { timeoutMs: 60000 })
    made.push(fresh)
    eq((await fresh.getInfo()).fromPool, true, 'create("base") claims a warm copy of base')

    await withSandbox(lizard, {}, async source => {
      await source.fs.write('/home/user/pooled.txt', 'warm')
      const snap = await source.snapshot('compat pool', { poolSize: 2 })
      eq(snap.poolSize, 2, 'snapshot({poolSize: 2}) keeps two warm copies')
      const ready = await Sandbox.waitForSnapshot(snap.id, { waitTimeoutMs: 60000 })
      eq([ready.status, ready.readyCount], ['ready', 2], 'waitForSnapshot: ready with both copies')

      const copies = []
      for (let i = 0; i < 3; i++) copies.push(await Sandbox.restore(snap.id, { timeoutMs: 60000 }))
      made.push(...copies)
      const infos = await Promise.all(copies.map(c => c.getInfo()))
      eq(infos.map(i => i.fromPool), [true, true, false], 'two restores come from the pool, the third starts cold')
      for (const copy of copies)
        eq(await copy.fs.read('/home/user/pooled.txt'), 'warm', 'a restored copy has the snapshot\'s files')
      const procs = await copies[0].process.list()
      eq(procs.map(p => p.pid).filter(pid => pid !== 1).length, 0, 'a claimed copy runs nothing but its PID 1')

      await waitFor(async () => (await Sandbox.getSnapshot(snap.id)).readyCount === 2, 'the pool to refill', 60000, 200)
      const none = await Sandbox.setSnapshotWarmPool(snap.id, 0)
      eq(none.poolSize, 0, 'setSnapshotWarmPool(0)')
      await waitFor(async () => (await Sandbox.getSnapshot(snap.id)).warmCount === 0, 'the idle copies to end', 30000, 200)
      eq((await Sandbox.waitForSnapshot(snap.id, { waitTimeoutMs: 5000 })).status, 'ready', 'a snapshot without a pool is ready')

      await Sandbox.setSnapshotWarmPool(snap.id, 1)
      eq((await Sandbox.waitForSnapshot(snap.id, { waitTimeoutMs: 60000 })).readyCount, 1, 'setSnapshotWarmPool(1) refills one')
      const paused = await Sandbox.pauseSnapshot(snap.id)
      eq(paused.status, 'paused', 'pauseSnapshot')
      await rejects(Sandbox.waitForSnapshot(snap.id, { waitTimeoutMs: 5000 }), Error, 'waitForSnapshot throws on a paused pool')
      const cold = await Sandbox.restore(snap.id, { timeoutMs: 60000 })
      made.push(cold)
      eq((await cold.getInfo()).fromPool, false, 'a restore of a paused pool starts cold')
      eq((await Sandbox.resumeSnapshot(snap.id)).poolSize, 1, 'resumeSnapshot')
      eq((await Sandbox.waitForSnapshot(snap.id, { waitTimeoutMs: 60000 })).readyCount, 1, 'resumed: refilled')
      await Sandbox.deleteSnapshot(snap.id)
      check(true, 'deleteSnapshot ends its pool')
    })
  } finally {
    for (const s of made) await s.kill().catch(() => {})
  }
})
