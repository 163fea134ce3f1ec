// Exec, files and processes on a paused sandbox are refused with a clear ConflictError
// (HTTP 409, code SANDBOX_PAUSED); after resume() they work again.
import { ConflictError } from '@lizard-build/sdk'
import { check, compatClient, eq, rejects, scenario, withSandbox } from './lib.mjs'

scenario('paused-exec', async () => {
  const lizard = await compatClient()
  await withSandbox(lizard, {}, async sandbox => {
    await sandbox.fs.write('/root/note', 'hello')
    await sandbox.pause()
    await sandbox.waitForStatus('paused', { waitTimeoutMs: 10000 })

    const err = await rejects(sandbox.process.exec('echo hi'), ConflictError, 'exec on a paused sandbox')
    eq([err.status, err.code], [409, 'SANDBOX_PAUSED'], 'HTTP 409 with code SANDBOX_PAUSED')
    check(/paused/.test(err.message) && /resume/.test(err.message), `the message says paused and how to resume: "${err.message}"`)
    await rejects(sandbox.fs.read('/root/note'), ConflictError, 'files.read on a paused sandbox')
    await rejects(sandbox.fs.write('/root/other', 'x'), ConflictError, 'files.write on a paused sandbox')
    eq((await sandbox.getInfo()).status, 'paused', 'getInfo still answers while paused')

    await sandbox.resume()
    await sandbox.waitForStatus('running', { waitTimeoutMs: 10000 })
    eq((await sandbox.process.exec('echo hi')).stdout, 'hi\n', 'exec works again after resume')
    eq(await sandbox.fs.read('/root/note'), 'hello', 'nothing was lost')
  })
})
