// The SDK's schedules: sandbox.schedule() with `every` and with `cron` in a time zone,
// sandbox.schedules(), Sandbox.listSchedules() across sandboxes and for one, getSchedule,
// updateSchedule (interval, name, cron, off), runSchedule on a paused sandbox (it wakes, runs
// and sleeps again; a second run now meanwhile is refused), scheduleRuns with their output,
// a failing run counted, deleteSchedule, a prompt schedule refused with a clear message, and a
// schedule going with its sandbox.
import { ConflictError, LizardError, NotFoundError, Sandbox } from '@lizard-build/sdk'
import { check, compatClient, eq, rejects, scenario, waitFor, withSandbox } from './lib.mjs'

const ids = list => list.map(s => s.id).sort()

// The wall clock of `iso` in `timeZone`: weekday, hour, minute.
function wallClock(iso, timeZone) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).formatToParts(new Date(iso))
  const part = type => parts.find(p => p.type === type)?.value
  return { weekday: part('weekday'), hour: part('hour'), minute: part('minute') }
}

async function finishedRuns(scheduleId, what) {
  return waitFor(async () => {
    const runs = await Sandbox.scheduleRuns(scheduleId)
    return runs[0]?.finished ? runs : null
  }, what, 60000, 200)
}

scenario('schedules', async () => {
  const lizard = await compatClient()
  await withSandbox(lizard, {}, async sandbox => {
    const other = await lizard.create('base', { timeoutMs: 120000 })
    let otherKilled = false
    try {
      const every = await sandbox.schedule({
        every: '5m', command: 'echo "tick $((6 * 7))"; sleep 2', name: 'ticker', timeoutSeconds: 30,
      })
      check(typeof every.id === 'string' && every.id.length > 0, `schedule() answers an id (${every.id})`)
      eq([every.sandboxId, every.kind, every.command, every.name], [sandbox.sandboxId, 'command',
        'echo "tick $((6 * 7))"; sleep 2', 'ticker'], 'sandbox, kind, command and name')
      eq([every.every, every.everySeconds, every.cron, every.timezone], ['5m', 300, null, 'UTC'],
        'every "5m" is 300 seconds, no cron, UTC')
      eq([every.enabled, every.running, every.disabledReason, every.lastRunAt, every.lastStatus,
        every.consecutiveFailures, every.skippedCount, every.timeoutSeconds],
      [true, false, null, null, null, 0, 0, 30], 'a new schedule: on, never run, nothing counted')
      eq([every.prompt, every.agent, every.model, every.reasoningEffort], [null, null, null, null],
        'no prompt fields on a command schedule')
      const inFive = Date.parse(every.nextRunAt) - Date.now()
      check(inFive > 240000 && inFive <= 300000, `nextRunAt is about 5 minutes ahead (${every.nextRunAt})`)

      const cron = await sandbox.schedule({ cron: '0 9 * * mon-fri', timezone: 'Europe/Berlin', command: 'date' })
      eq([cron.cron, cron.timezone, cron.every, cron.everySeconds], ['0 9 * * mon-fri', 'Europe/Berlin', null, null],
        'a cron schedule keeps its expression and zone')
      const at = wallClock(cron.nextRunAt, 'Europe/Berlin')
      check(at.hour === '09' && at.minute === '00' && !['Sat', 'Sun'].includes(at.weekday),
        `its next run is a weekday at 09:00 in Berlin (${cron.nextRunAt}: ${at.weekday} ${at.hour}:${at.minute})`)

      const third = await other.schedule({ every: 60, command: 'true' })
      eq([third.every, third.everySeconds], ['1m', 60], 'every: 60 (seconds) reads "1m"')

      eq(ids(await sandbox.schedules()), ids([every, cron]), "sandbox.schedules() lists this sandbox's two")
      const all = await Sandbox.listSchedules()
      check([every, cron, third].every(s => all.some(x => x.id === s.id)),
        'Sandbox.listSchedules() lists the schedules of both sandboxes')
      eq(ids(await Sandbox.listSchedules({ sandboxId: other.sandboxId })), [third.id],
        'listSchedules({ sandboxId }) lists only that sandbox\'s')
      eq((await Sandbox.getSchedule(cron.id)).cron, '0 9 * * mon-fri', 'getSchedule() answers it')

      const slower = await Sandbox.updateSchedule(every.id, { every: '10m', name: 'slower' })
      eq([slower.every, slower.everySeconds, slower.name, slower.command],
        ['10m', 600, 'slower', every.command], 'updateSchedule() changes the interval and the name only')
      const off = await Sandbox.updateSchedule(every.id, { enabled: false })
      eq([off.enabled, off.nextRunAt], [false, null], '{ enabled: false } switches it off')
      const moved = await Sandbox.updateSchedule(cron.id, { cron: '*/15 * * * *', timezone: 'America/New_York' })
      eq([moved.cron, moved.timezone, moved.every], ['*/15 * * * *', 'America/New_York', null],
        'a new cron expression and zone')
      check(new Date(moved.nextRunAt).getUTCMinutes() % 15 === 0, `next run on a quarter hour (${moved.nextRunAt})`)

      // Run now on a paused sandbox: it wakes, runs, and goes back to sleep.
      eq(await sandbox.pause(), true, 'the sandbox is paused')
      const started = await Sandbox.runSchedule(every.id)
      eq([started.running, started.enabled], [true, true], 'runSchedule() starts a run and switches it back on')
      check(started.nextRunAt !== null, 'switched on again, it has a next run')
      await rejects(Sandbox.runSchedule(every.id), ConflictError, 'a second run now while one runs is refused')
      const runs = await finishedRuns(every.id, 'the run to finish')
      const run = runs[0]
      eq([run.status, run.exitCode, run.output, run.woke, run.slept, run.finished],
        ['succeeded', 0, 'tick 42\n', true, true, true], 'the run succeeded, woke the sandbox and put it back to sleep')
      eq([run.scheduleId, run.sandboxId, run.promptId, run.conversationId, run.error],
        [every.id, sandbox.sandboxId, null, null, null], 'the run names its schedule and sandbox')
      check(run.durationMs >= 2000 && Date.parse(run.endedAt) >= Date.parse(run.startedAt),
        `durationMs ${run.durationMs}, from startedAt to endedAt`)
      eq((await sandbox.getInfo()).status, 'paused', 'the sandbox sleeps again')
      const after = await Sandbox.getSchedule(every.id)
      eq([after.running, after.lastStatus, after.consecutiveFailures], [false, 'succeeded', 0],
        'the schedule shows its last run')
      check(Date.parse(after.lastRunAt) === Date.parse(run.startedAt), 'lastRunAt is when the run started')
      eq((await Sandbox.scheduleRuns(every.id, { limit: 1 })).length, 1, 'scheduleRuns({ limit: 1 }) answers one')
      eq(await sandbox.resume(), true, 'the sandbox is resumed')

      // A failing command on a running sandbox: counted, and the sandbox is left running.
      const failing = await sandbox.schedule({ every: '1h', command: 'echo oops >&2; exit 3' })
      await Sandbox.runSchedule(failing.id)
      const failed = (await finishedRuns(failing.id, 'the failing run to finish'))[0]
      eq([failed.status, failed.exitCode, failed.output, failed.woke, failed.slept],
        ['failed', 3, 'oops\n', false, false], 'a command that exits 3 failed; the running sandbox was not woken')
      const counted = await Sandbox.getSchedule(failing.id)
      eq([counted.lastStatus, counted.consecutiveFailures], ['failed', 1], 'the failure is counted')
      eq((await sandbox.getInfo()).status, 'running', 'a sandbox that was running stays running')

      // Prompt schedules need the cloud's coding agents: refused, nothing stored.
      const before = (await sandbox.schedules()).length
      const err = await rejects(sandbox.schedule({ every: '5m', prompt: 'Continue the research in /workspace' }),
        LizardError, 'a prompt schedule is refused')
      eq([err.status, err.code], [400, 'PROMPT_SCHEDULES_CLOUD_ONLY'], '400 PROMPT_SCHEDULES_CLOUD_ONLY')
      check(/prompt schedules run only on the Lizard cloud/.test(err.message), `the message says why: ${err.message}`)
      eq((await sandbox.schedules()).length, before, 'nothing was stored')
      const bad = await rejects(sandbox.schedule({ cron: '0 9 * * mon-fry', command: 'date' }), LizardError,
        'a malformed cron expression is refused')
      eq([bad.status, bad.code], [400, 'INVALID_CRON'], '400 INVALID_CRON')

      await Sandbox.deleteSchedule(cron.id)
      await rejects(Sandbox.getSchedule(cron.id), NotFoundError, 'a deleted schedule is gone')
      eq(ids(await sandbox.schedules()), ids([every, failing]), 'the others stay')

      // A schedule goes with its sandbox.
      await other.kill()
      otherKilled = true
      await rejects(Sandbox.getSchedule(third.id), NotFoundError, "a killed sandbox's schedule is gone")
      check(!(await Sandbox.listSchedules()).some(s => s.id === third.id), 'and no longer listed')
    } finally {
      if (!otherKilled) await other.kill().catch(() => {})
    }
  })
})
