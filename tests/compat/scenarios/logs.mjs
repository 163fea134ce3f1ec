// logs: the sandbox's system log through the SDK's sandbox.logs({tail, signal}): the tail
// (LogLine events with a sequence id), a process killed by a signal, a live line while
// following, an abort signal that stops the stream, and 404 once the sandbox is gone.
import { NotFoundError } from '@lizard-build/sdk'
import { check, compatClient, eq, rejects, scenario, sleep, waitFor, withSandbox } from './lib.mjs'

/** Starts following; `events` fills as they come; `stop()` aborts and waits for the end. */
function follow(sandbox, tail) {
  const controller = new AbortController()
  const events = []
  const done = (async () => {
    try {
      for await (const event of sandbox.logs({ tail, signal: controller.signal })) events.push(event)
    } catch (err) {
      if (!controller.signal.aborted) throw err
    }
  })()
  return { events, stop: async () => { controller.abort(); await done } }
}

const lines = events => events.filter(e => e.event === 'log').map(e => ({ ...JSON.parse(e.data), id: e.id }))

scenario('logs', async () => {
  const lizard = await compatClient()
  const ended = await withSandbox(lizard, {}, async sandbox => {
    const result = await sandbox.process.exec('kill -USR1 $$')
    eq(result.exitCode, 138, 'a shell that kills itself with SIGUSR1 ends with 128+10')

    // The tail: lifecycle and the signal, as LogLines with a sequence id.
    await waitFor(async () => {
      const f = follow(sandbox, 100)
      await sleep(400)
      await f.stop()
      return lines(f.events).some(l => l.message.includes('killed by SIGUSR1'))
    }, 'the signal exit in the log')
    const all = follow(sandbox, 100)
    await waitFor(() => lines(all.events).length >= 2, 'the tail arrives')
    await all.stop()
    const got = lines(all.events)
    check(got[0].message.startsWith('created (template base'), `the first line is the creation: ${got[0].message}`)
    for (const l of got) {
      check(['info', 'warn', 'error', 'debug'].includes(l.level), `level ${l.level} is a LogLine level`)
      check(typeof l.message === 'string' && typeof l.ts === 'number' && l.ts > 1.7e12, 'message and ts (ms)')
      eq(String(l.seq), l.id, 'the SSE id is the line\'s sequence number')
    }
    const signal = got.find(l => l.message.includes('killed by SIGUSR1'))
    eq(signal.level, 'warn', 'a signal exit is a warning')
    check(/^pid \d+ \(bash\) killed by SIGUSR1: .*kill -USR1/.test(signal.message), `names the process: ${signal.message}`)

    // tail: 1 gives the last line only.
    const one = follow(sandbox, 1)
    await waitFor(() => lines(one.events).length >= 1, 'tail 1')
    await sleep(200)
    await one.stop()
    eq(lines(one.events).map(l => l.seq), [got[got.length - 1].seq], 'tail 1 is the last line')

    // Following: a new line arrives live; abort ends the iteration.
    const live = follow(sandbox, 0)
    await sleep(300)
    await sandbox.setTimeout(300000)
    await waitFor(() => lines(live.events).some(l => l.message.startsWith('timeout set to 300 s')), 'a live line', 3000)
    await live.stop()

    return sandbox
  })
  // Killed (withSandbox's end): its log went with it.
  await rejects((async () => {
    for await (const _ of ended.logs({ tail: 1 })) break
  })(), NotFoundError, 'a killed sandbox has no log: 404')
})
