// The activity log (a lizard-local extension) while the official SDK plays an agent's session:
// execs, a runCode that draws a matplotlib chart, file writes, a pause and a resume. A client
// follows GET /api/sandboxes/{id}/activity as an event stream; every step's entry arrives in
// order, with its content, within 500 ms of the SDK call's return; the chart's PNG arrives
// whole; no env value and no API key appears anywhere in the stream.
import { CodeSandbox } from '@lizard-build/sdk'
import { check, compatClient, eq, fail, PROJECT_NAME, scenario, sleep } from './lib.mjs'

const SECRETS = {
  create: 'activity-create-env-1c9e',
  exec: 'activity-exec-env-77ad',
  run: 'activity-run-env-30f2',
}

// Follows the stream: entries in arrival order, each with the time it arrived.
function follow(sandboxId) {
  const state = { entries: [], raw: '', error: null }
  const controller = new AbortController()
  const done = (async () => {
    const r = await fetch(`${process.env.LIZARD_API_URL}/api/sandboxes/${sandboxId}/activity`, {
      headers: { 'X-API-Key': process.env.LIZARD_API_KEY, Accept: 'text/event-stream' },
      signal: controller.signal,
    })
    if (r.status !== 200) throw new Error(`activity stream: HTTP ${r.status} ${await r.text()}`)
    const decoder = new TextDecoder()
    let buffer = ''
    for await (const chunk of r.body) {
      const text = decoder.decode(chunk, { stream: true })
      state.raw += text
      buffer += text
      let end
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const data = event.split('\n').find(l => l.startsWith('data: '))
        if (data) state.entries.push({ at: Date.now(), entry: JSON.parse(data.slice(6)) })
      }
    }
  })().catch(err => {
    if (err.name !== 'AbortError') state.error = err
  })
  return { state, stop: () => controller.abort(), done }
}

// Waits for entry number `index` (0-based) and checks that it came within 500 ms of `since`.
async function arrival(state, index, kind, since) {
  const deadline = Date.now() + 5000
  while (state.entries.length <= index) {
    if (state.error) fail(state.error.message)
    if (Date.now() > deadline) fail(`no "${kind}" entry within 5 s; got ${state.entries.map(e => e.entry.kind)}`)
    await sleep(5)
  }
  const { at, entry } = state.entries[index]
  eq(entry.kind, kind, `entry ${index} is "${kind}"`)
  check(at - since <= 500, `the "${kind}" entry arrived within 500 ms (${Math.max(0, at - since)} ms)`)
  if (index > 0) eq(entry.seq, state.entries[index - 1].entry.seq + 1, `entry ${index} follows in sequence`)
  return entry
}

scenario('activity', async () => {
  await compatClient()
  const sandbox = await CodeSandbox.create('interpreter', {
    project: PROJECT_NAME, timeoutMs: 120000, envs: { CREATE_SECRET: SECRETS.create },
  })
  const { state, stop, done } = follow(sandbox.sandboxId)
  try {
    const create = await arrival(state, 0, 'create', Date.now())
    eq(create.envNames, ['CREATE_SECRET'], 'the create entry names the env variable')

    let t = Date.now()
    const exec = await sandbox.process.exec('echo agent-was-here; ls / >/dev/null', { envs: { EXEC_SECRET: SECRETS.exec } })
    eq(exec.exitCode, 0, 'the exec runs')
    t = Date.now()
    const execEntry = await arrival(state, 1, 'exec', t)
    eq(execEntry.command, 'echo agent-was-here; ls / >/dev/null', 'the exec entry has the command')
    eq(execEntry.stdoutHead, 'agent-was-here\n', 'and its output')
    eq(execEntry.envNames, ['EXEC_SECRET'], 'and the names of its env variables')

    const run = await sandbox.runCode(
      'import matplotlib.pyplot as plt\n' +
      'x = 41\nplt.plot([1, 2, 3], [1, 4, 9])\nplt.show()',
      { envs: { RUN_SECRET: SECRETS.run } })
    check(!run.error, `runCode draws a chart (${run.error?.message ?? 'no error'})`)
    const png = run.results.find(r => r.mime === 'image/png')
    check(png && png.data.startsWith('iVBOR'), 'the SDK got a PNG')
    t = Date.now()
    const runEntry = await arrival(state, 2, 'runCode', t)
    check(runEntry.code.includes('plt.plot([1, 2, 3], [1, 4, 9])'), 'the runCode entry has the code')
    eq(runEntry.language, 'python', 'and the language')
    eq(runEntry.envNames, ['RUN_SECRET'], 'and the names of its env variables')
    const logged = runEntry.events.find(e => e.type === 'result' && e.mime === 'image/png')
    check(logged, 'the runCode entry has the image result')
    eq(logged.data, png.data, 'the PNG in the log is the whole PNG the SDK got')
    eq(Buffer.from(logged.data, 'base64').subarray(1, 4).toString(), 'PNG', 'and it decodes to a PNG')

    await sandbox.fs.write('/home/user/report.csv', 'a,b\n1,2\n')
    t = Date.now()
    const write = await arrival(state, 3, 'fileWrite', t)
    eq([write.path, write.size], ['/home/user/report.csv', 8], 'the file write has its path and size')

    eq(await sandbox.pause(), true, 'pause')
    t = Date.now()
    await arrival(state, 4, 'pause', t)
    eq(await sandbox.resume(), true, 'resume')
    t = Date.now()
    await arrival(state, 5, 'resume', t)

    const again = await sandbox.runCode('x + 1')
    eq(again.results[0]?.data, '42', 'the agent goes on after the resume')
    t = Date.now()
    const next = await arrival(state, 6, 'runCode', t)
    eq(next.events.find(e => e.type === 'result')?.data, '42', 'its result is in the log')

    for (const [what, value] of [...Object.entries(SECRETS), ['key', process.env.LIZARD_API_KEY]])
      check(!state.raw.includes(value), `no ${what} secret in the activity stream`)
  } finally {
    stop()
    await done
    await sandbox.kill().catch(() => {})
  }
})
