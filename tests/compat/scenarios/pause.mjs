// pause() + waitForStatus('paused'), resume() + waitForStatus('running'): files are still
// there, and so are the Python kernel's variables from runCode (the pause keeps memory).
import { CodeSandbox } from '@lizard-build/sdk'
import { check, compatClient, eq, PROJECT_NAME, scenario } from './lib.mjs'

scenario('pause', async () => {
  const lizard = await compatClient() // makes sure the project exists
  const sandbox = await CodeSandbox.create('interpreter', { project: PROJECT_NAME, timeoutMs: 120000 })
  try {
    await sandbox.fs.write('/home/user/kept.txt', 'kept across a pause')
    const set = await sandbox.runCode('x = 41')
    check(!set.error, `runCode('x = 41') runs (${set.error?.message ?? 'no error'})`)

    eq(await sandbox.pause(), true, 'pause() answers true')
    const paused = await sandbox.waitForStatus('paused', { waitTimeoutMs: 10000 })
    eq(paused.status, 'paused', "waitForStatus('paused') sees the paused status")
    check(paused.pauseError === null || paused.pauseError === undefined, 'no pauseError')
    check((await lizard.list()).some(s => s.sandboxId === sandbox.sandboxId && s.status === 'paused'),
      'list() shows it paused')

    eq(await sandbox.resume(), true, 'resume() answers true')
    eq((await sandbox.waitForStatus('running', { waitTimeoutMs: 10000 })).status, 'running',
      "waitForStatus('running') sees it running again")

    eq(await sandbox.fs.read('/home/user/kept.txt'), 'kept across a pause', 'the file is still there')
    const run = await sandbox.runCode('x + 1')
    check(!run.error, `runCode('x + 1') runs (${run.error?.message ?? 'no error'})`)
    eq(run.results[0]?.data, '42', 'the kernel kept x = 41 across the pause')
  } finally {
    await sandbox.kill().catch(() => {})
  }
})
