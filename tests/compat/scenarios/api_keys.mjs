// API keys through the SDK's ApiKeysAPI: create (the full key once), list (previews only), use,
// a read-only key refused on what changes state (403, code INSUFFICIENT_SCOPE), revoke.
import { AuthenticationError, Lizard, Sandbox } from '@lizard-build/sdk'
import { check, compatClient, eq, PROJECT_NAME, rejects, scenario, waitFor } from './lib.mjs'

const READ_ONLY = [{ type: 'access', id: 'read-only' }]

scenario('api_keys', async () => {
  const admin = await compatClient()
  const apiUrl = process.env.LIZARD_API_URL

  const full = await admin.apiKeys.create({ name: 'sdk-compat full' })
  check(typeof full.key === 'string' && full.key.startsWith('liz_'), 'create answers the full key once')
  check(typeof full.id === 'string' && full.id.length > 0, 'the key has an id')
  eq(full.scopes, [], 'no scope: full access')

  const listed = await admin.apiKeys.list()
  const row = listed.find(k => k.id === full.id)
  check(row !== undefined, 'the new key is listed')
  eq(row.name, 'sdk-compat full', 'listed with its name')
  check(!JSON.stringify(listed).includes(full.key), 'the list carries no full key')
  check(row.keyPreview?.startsWith(full.key.slice(0, 8)), `a preview (${row.keyPreview})`)

  // The new key works like the one it was made with.
  const asFull = new Lizard({ apiUrl, apiKey: full.key, project: PROJECT_NAME })
  const sandbox = await asFull.create('base', { timeoutMs: 120000 })
  try {
    eq((await sandbox.process.exec('echo via new key')).stdout, 'via new key\n', 'exec with the new key')
    const used = (await admin.apiKeys.list()).find(k => k.id === full.id)
    check(Number(used.lastUsedAt) > 0, `lastUsedAt is set once the key was used (${used.lastUsedAt})`)

    const ro = await admin.apiKeys.create({ name: 'sdk-compat viewer', scopes: READ_ONLY })
    eq(ro.scopes.map(s => s.id), ['read-only'], 'a read-only key')
    const viewer = { apiUrl, apiKey: ro.key }
    const seen = await Sandbox.connect(sandbox.sandboxId, viewer)
    eq((await seen.getInfo()).status, 'running', 'a read-only key reads a sandbox')
    check(Array.isArray(await new Lizard(viewer).list()), 'a read-only key lists sandboxes')
    const refused = await rejects(seen.process.exec('touch /tmp/nope'), AuthenticationError, 'a read-only key cannot exec')
    eq(refused.status, 403, 'status 403')
    eq(refused.code, 'INSUFFICIENT_SCOPE', 'code INSUFFICIENT_SCOPE')
    await rejects(seen.fs.write('/tmp/nope', 'x'), AuthenticationError, 'a read-only key cannot write a file')
    await rejects(seen.kill(), AuthenticationError, 'a read-only key cannot kill')
    await rejects(new Lizard({ ...viewer, project: PROJECT_NAME }).create('base'), AuthenticationError, 'a read-only key cannot create a sandbox')
    await rejects(new Lizard(viewer).apiKeys.create({ name: 'escalate' }), AuthenticationError, 'a read-only key cannot make keys')
    eq((await sandbox.getInfo()).status, 'running', 'the sandbox survived the refused calls')
    await admin.apiKeys.delete(ro.id)

    // Revoked: at once, an exec stream opened with it included.
    const streamed = []
    const running = sandbox.process.exec('echo started; sleep 60; echo finished', {
      onStdout: line => streamed.push(line),
    }).then(r => ({ result: r }), err => ({ err }))
    await waitFor(() => streamed.join('').includes('started'), 'the streamed exec to start')
    const revokedAt = Date.now()
    await admin.apiKeys.delete(full.id)
    const ended = await running
    const tookMs = Date.now() - revokedAt
    check(ended.err !== undefined, `the open exec stream ends with an error (${ended.err?.message ?? JSON.stringify(ended.result)})`)
    check(tookMs < 1500, `within a second or so (${tookMs} ms)`)
    check(!streamed.join('').includes('finished'), 'the command did not run on')
    await rejects(asFull.list(), AuthenticationError, 'a revoked key is refused')
    check(!(await admin.apiKeys.list()).some(k => k.id === full.id), 'a revoked key is no longer listed')
  } finally {
    await admin.connect(sandbox.sandboxId).then(s => s.kill()).catch(err => console.error(`warning: ${err.message}`))
  }
})
