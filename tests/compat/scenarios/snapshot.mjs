// snapshot(), then Sandbox.restore(): the copy has the files; the snapshot object, the lists,
// waitForSnapshot, restore only in the snapshot's own project, deleteSnapshot.
import { AuthenticationError, NotFoundError, Sandbox } from '@lizard-build/sdk'
import { check, compatClient, eq, rejects, scenario, withSandbox } from './lib.mjs'

scenario('snapshot', async () => {
  const lizard = await compatClient()
  const projectId = await lizard.projectId()
  await withSandbox(lizard, {}, async source => {
    await source.fs.write('/home/user/data.txt', 'from the source')
    await source.process.exec('mkdir -p /opt/app && echo built > /opt/app/artifact && rm /etc/hostname')

    const snap = await source.snapshot('compat snapshot')
    eq([snap.name, snap.projectId, snap.sourceSandboxId, snap.status, snap.scope],
      ['compat snapshot', projectId, source.sandboxId, 'ready', 'project'], 'snapshot(): name, project, source, ready')
    check(typeof snap.id === 'string' && typeof snap.createdAt === 'number' && snap.error === null, 'id, createdAt (unix ms), error null')
    eq((await source.getInfo()).status, 'running', 'the source keeps running')

    eq((await Sandbox.getSnapshot(snap.id)).id, snap.id, 'getSnapshot')
    check((await Sandbox.snapshots(projectId)).some(s => s.id === snap.id), "snapshots(projectId) lists it")
    check((await Sandbox.mySnapshots()).some(s => s.id === snap.id), 'mySnapshots() lists it')
    eq((await Sandbox.waitForSnapshot(snap.id, { waitTimeoutMs: 10000 })).status, 'ready', 'waitForSnapshot resolves')

    const copy = await Sandbox.restore(snap.id, { timeoutMs: 60000 })
    try {
      check(copy.sandboxId !== source.sandboxId, 'restore() starts a new sandbox')
      eq(await copy.fs.read('/home/user/data.txt'), 'from the source', 'the copy has the written file')
      eq((await copy.process.exec('cat /opt/app/artifact; test -e /etc/hostname || echo deleted')).stdout,
        'built\ndeleted\n', 'and the command-made files, and the deletion')
      eq((await copy.getInfo()).status, 'running', 'the copy runs')
    } finally {
      await copy.kill().catch(() => {})
    }

    const other = await lizard.projects.create({ name: `compat-other-${Date.now()}` })
    try {
      const err = await rejects(Sandbox.restore(snap.id, { projectId: other.id }), AuthenticationError,
        'restore into another project')
      eq([err.status, err.code], [403, 'SNAPSHOT_SCOPE'], 'HTTP 403 SNAPSHOT_SCOPE')
    } finally {
      await lizard.projects.delete(other.id).catch(() => {})
    }

    await Sandbox.deleteSnapshot(snap.id)
    await rejects(Sandbox.getSnapshot(snap.id), NotFoundError, 'a deleted snapshot is gone')
  })
})
