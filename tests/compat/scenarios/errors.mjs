// connect to a killed sandbox gives NotFoundError; a wrong key gives AuthenticationError.
import { AuthenticationError, Lizard, NotFoundError, Sandbox } from '@lizard-build/sdk'
import { check, compatClient, eq, PROJECT_NAME, rejects, scenario } from './lib.mjs'

scenario('errors', async () => {
  const lizard = await compatClient()
  const sandbox = await lizard.create('base', { timeoutMs: 60000 })
  const id = sandbox.sandboxId
  const connected = await Sandbox.connect(id)
  eq(connected.sandboxId, id, 'connect to a running sandbox')
  eq(await sandbox.kill(), true, 'kill')

  const gone = await rejects(lizard.connect(id), NotFoundError, 'connect to a killed sandbox')
  eq(gone.status, 404, 'NotFoundError carries status 404')
  await rejects(Sandbox.connect(id), NotFoundError, 'Sandbox.connect to a killed sandbox')
  await rejects(Sandbox.connect('sbx-never-existed-0000'), NotFoundError, 'connect to an id that never existed')
  await rejects(Sandbox.connect('..%2F..%2Fapi%2Fprojects'), NotFoundError, 'connect to an id that is an encoded path')

  const url = process.env.LIZARD_API_URL
  const wrong = { apiUrl: url, apiKey: 'liz_this_key_is_wrong_0000000000000000' }
  const auth = await rejects(new Lizard(wrong).list(), AuthenticationError, 'list with a wrong key')
  eq(auth.status, 401, 'AuthenticationError carries status 401')
  check(typeof auth.message === 'string' && auth.message.length > 0, `the error has a message ("${auth.message}")`)
  await rejects(Sandbox.connect(id, wrong), AuthenticationError, 'connect with a wrong key')
  await rejects(new Lizard({ ...wrong, project: PROJECT_NAME }).create('base'), AuthenticationError, 'create with a wrong key')
  await rejects(Sandbox.list({ apiUrl: url, apiKey: 'not-even-the-format' }), AuthenticationError, 'a malformed key')
  await rejects(new Lizard(wrong).projects.list(), AuthenticationError, 'projects with a wrong key')

  // A wrong key learns nothing about someone else's sandbox: 401, not 404, even for a live one.
  const live = await lizard.create('base', { timeoutMs: 60000 })
  try {
    await rejects(Sandbox.connect(live.sandboxId, wrong), AuthenticationError, 'connect to a live sandbox with a wrong key')
    await rejects(new Sandbox({ ...wrong, sandboxId: live.sandboxId }).process.exec('id'), AuthenticationError, 'exec with a wrong key')
    eq(await new Sandbox({ ...wrong, sandboxId: live.sandboxId }).kill().catch(e => e.name), 'AuthenticationError', 'kill with a wrong key')
    eq((await live.getInfo()).status, 'running', 'the sandbox survives calls with a wrong key')
  } finally {
    await live.kill()
  }
})
