// setTimeout moves the deadline (from now), the sandbox ends at it; kill ends one at once.
import { LizardError, NotFoundError } from '@lizard-build/sdk'
import { check, compatClient, eq, rejects, scenario, waitFor } from './lib.mjs'

const endAtOf = async sandbox => Date.parse((await sandbox.getInfo()).endAt)

scenario('timeout_kill', async () => {
  const lizard = await compatClient()

  const sandbox = await lizard.create('base', { timeoutMs: 60000 })
  try {
    const longer = Date.now() + 600000
    await sandbox.setTimeout(600000)
    check(Math.abs((await endAtOf(sandbox)) - longer) < 3000, 'setTimeout(600000) puts endAt ten minutes from now')

    for (const bad of [0, 999, -5, 2147483648]) {
      const err = await rejects(sandbox.setTimeout(bad), LizardError, `setTimeout(${bad}) is refused`)
      eq(err.status, 400, `setTimeout(${bad}) answers HTTP 400`)
    }
    check(Math.abs((await endAtOf(sandbox)) - longer) < 3000, 'a refused setTimeout leaves the deadline alone')

    const set = Date.now()
    await sandbox.setTimeout(3000)
    const endAt = await endAtOf(sandbox)
    check(Math.abs(endAt - (set + 3000)) < 1500, `setTimeout(3000) puts endAt three seconds from now (${endAt - set} ms)`)
    eq((await sandbox.process.exec('echo alive')).stdout, 'alive\n', 'the sandbox still runs before its deadline')

    await waitFor(async () => {
      try {
        await sandbox.getInfo()
        return false
      } catch (err) {
        if (err instanceof NotFoundError) return true
        throw err
      }
    }, 'the sandbox to end at its deadline', 20000, 250)
    const late = Date.now() - (set + 3000)
    check(late < 10000, `the sandbox ended at its deadline (${late} ms after it)`)
    await rejects(sandbox.process.exec('echo too late'), NotFoundError, 'exec in an expired sandbox')
    check(!(await lizard.list()).some(s => s.sandboxId === sandbox.sandboxId), 'an expired sandbox is not listed')
    eq(await sandbox.kill(), false, 'kill() of an expired sandbox answers false')
  } finally {
    await sandbox.kill().catch(() => {})
  }

  const victim = await lizard.create('base', { timeoutMs: 60000 })
  eq(await victim.kill(), true, 'kill() answers true')
  await rejects(victim.getInfo(), NotFoundError, 'getInfo of a killed sandbox')
  await rejects(victim.process.exec('true'), NotFoundError, 'exec in a killed sandbox')
  await rejects(victim.fs.read('/etc/hostname'), NotFoundError, 'fs.read in a killed sandbox')
  await rejects(victim.setTimeout(5000), NotFoundError, 'setTimeout of a killed sandbox')
  eq(await victim.kill(), false, 'a second kill() answers false')
})
