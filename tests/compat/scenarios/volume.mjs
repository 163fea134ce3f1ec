// volume: Volume.getOrCreate, a sandbox with volumeName writes to /workspace, is killed, and a
// second sandbox with the same volume finds the file. Also get/list/resize/delete as the SDK
// calls them, and the 409s (second attach, delete while attached, create of a taken name).
import { ConflictError, LizardError, NotFoundError, Volume } from '@lizard-build/sdk'
import { check, compatClient, eq, rejects, scenario } from './lib.mjs'

scenario('volume', async () => {
  const lizard = await compatClient()
  const projectId = await lizard.projectId()
  const name = `compat-vol-${Date.now().toString(36)}`

  const vol = await Volume.getOrCreate(projectId, name, { sizeGb: 1 })
  check(typeof vol.volumeId === 'string' && vol.volumeId.length > 0, 'getOrCreate gives a volume id')
  eq(vol.name, name, 'the volume keeps its name')
  const again = await Volume.getOrCreate(projectId, name, { sizeGb: 7 })
  eq(again.volumeId, vol.volumeId, 'getOrCreate of an existing name returns the same volume')
  let info = await vol.getInfo(projectId)
  eq([info.name, info.sizeGb, info.projectId], [name, 1, projectId], 'getInfo: name, size (kept), project')
  check(info.attachedTo === null, 'a fresh volume is attached to nothing')
  check(typeof info.sizeEnforced === 'boolean', 'sizeEnforced says whether the size is a hard limit')
  await rejects(Volume.create(projectId, name), ConflictError, 'create of a taken name')
  eq((await Volume.get(projectId, vol.volumeId)).name, name, 'get by id')
  eq((await Volume.get(projectId, name)).volumeId, vol.volumeId, 'get by name')
  check((await Volume.list(projectId)).some(v => v.id === vol.volumeId), 'list has the volume')

  const first = await lizard.create('base', { timeoutMs: 120000, volumeName: name })
  try {
    eq((await vol.getInfo(projectId)).attachedTo, first.sandboxId, 'attachedTo names the sandbox')
    await first.fs.write('/workspace/notes/hello.txt', 'written by the first sandbox\n')
    const ls = await first.process.exec(['cat', '/workspace/notes/hello.txt'])
    eq(ls.stdout, 'written by the first sandbox\n', 'the file is in /workspace')
    await rejects(lizard.create('base', { timeoutMs: 60000, volumeName: name }), ConflictError,
      'a second sandbox cannot attach the volume while the first runs')
    await rejects(Volume.delete(projectId, name), ConflictError, 'delete while attached')
  } finally {
    await first.kill()
  }
  info = await vol.getInfo(projectId)
  check(info.attachedTo === null, 'kill releases the volume')

  const second = await lizard.create('base', { timeoutMs: 120000, volumeId: vol.volumeId })
  try {
    eq(await second.fs.read('/workspace/notes/hello.txt'), 'written by the first sandbox\n',
      'the second sandbox sees the file the first one wrote')
    const grown = await Volume.resize(projectId, name, 2)
    eq(grown.sizeGb, 2, 'resize grows the volume (while attached)')
    const shrink = await rejects(vol.resize(projectId, 1), LizardError, 'a smaller size is refused')
    eq([shrink.status, shrink.code], [400, 'volume_shrink_unsupported'], 'shrink: 400 volume_shrink_unsupported')
  } finally {
    await second.kill()
  }
  await vol.delete(projectId)
  await rejects(Volume.get(projectId, name), NotFoundError, 'a deleted volume is gone')
})
