// Create with metadata and envs, then getInfo and list (account-wide and per project).
import { Sandbox } from '@lizard-build/sdk'
import { check, compatClient, eq, scenario } from './lib.mjs'

const metadata = { purpose: 'sdk-compat', 'team/owner': 'Zoë', empty: '' }
const envs = { COMPAT_GREETING: 'hello world', COMPAT_QUOTES: `it's "quoted" $HOME` }
const lifetimeMs = 90000

scenario('create_info_list', async () => {
  const lizard = await compatClient()
  const before = Date.now()
  const sandbox = await lizard.create('base', { metadata, envs, timeoutMs: lifetimeMs })
  try {
    check(typeof sandbox.sandboxId === 'string' && sandbox.sandboxId.length > 0, 'create answers a sandboxId')

    const info = await sandbox.getInfo()
    eq(info.sandboxId, sandbox.sandboxId, 'getInfo().sandboxId')
    eq(info.template, 'base', 'getInfo().template')
    eq(info.status, 'running', 'getInfo().status')
    eq(info.metadata, metadata, 'getInfo().metadata is the create-time metadata')
    const startedAt = Date.parse(info.startedAt)
    const endAt = Date.parse(info.endAt)
    check(!Number.isNaN(startedAt), `startedAt is an ISO-8601 time (${info.startedAt})`)
    check(!Number.isNaN(endAt), `endAt is an ISO-8601 time (${info.endAt})`)
    check(startedAt >= before - 5000 && startedAt <= Date.now() + 5000, 'startedAt is about now')
    check(Math.abs(endAt - startedAt - lifetimeMs) < 5000, `endAt is startedAt + timeoutMs (${endAt - startedAt} ms)`)
    if (info.internetAccess !== undefined) check(typeof info.internetAccess === 'boolean', 'internetAccess is a boolean')

    const greeting = await sandbox.process.exec('printf "%s|%s" "$COMPAT_GREETING" "$COMPAT_QUOTES"')
    eq(greeting.exitCode, 0, 'exec with create-time envs exits 0')
    eq(greeting.stdout, `${envs.COMPAT_GREETING}|${envs.COMPAT_QUOTES}`, 'create-time envs are visible to commands')
    const argvEnv = await sandbox.process.exec(['printenv', 'COMPAT_GREETING'])
    eq(argvEnv.stdout, 'hello world\n', 'create-time envs are visible to argv commands too')

    const all = await lizard.list()
    check(Array.isArray(all), 'list() answers an array')
    const listed = all.find(s => s.sandboxId === sandbox.sandboxId)
    check(listed !== undefined, 'list() contains the new sandbox')
    eq(listed.template, 'base', 'list item template')
    eq(listed.metadata, metadata, 'list item metadata')

    const projectId = await lizard.projectId()
    const inProject = await Sandbox.list({ projectId })
    check(inProject.some(s => s.sandboxId === sandbox.sandboxId), 'list({ projectId }) contains the new sandbox')

    const again = await lizard.connect(sandbox.sandboxId)
    const echoed = await again.process.exec('echo connected')
    eq(echoed.stdout, 'connected\n', 'a connected handle runs commands in the same sandbox')
  } finally {
    eq(await sandbox.kill(), true, 'kill() of a running sandbox answers true')
  }
  eq(await sandbox.kill(), false, 'kill() of a killed sandbox answers false')
  const after = await lizard.list()
  check(!after.some(s => s.sandboxId === sandbox.sandboxId), 'list() no longer contains the killed sandbox')

  // internetAccess: false — the SDK deletes the sandbox and throws unless the server echoes it.
  const offline = await lizard.create('base', { internetAccess: false, timeoutMs: 60000 })
  try {
    console.log('ok - create with internetAccess: false is honoured (echoed)')
    eq((await offline.getInfo()).internetAccess, false, 'getInfo().internetAccess is false')
    const net = await offline.process.exec(['ls', '/sys/class/net'])
    eq(net.stdout.trim(), 'lo', 'a sandbox without internet has only the loopback interface')
  } finally {
    await offline.kill()
  }
})
