// Streaming exec with onStdout, onStderr and onPid; then process list and kill.
import { check, compatClient, eq, scenario, waitFor, withSandbox } from './lib.mjs'

// Starts a long command with a streaming exec; resolves once its pid and first line arrived.
async function startLong(sandbox, cmd) {
  const seen = { pid: undefined, lines: [] }
  const done = sandbox.process.exec(cmd, {
    timeoutMs: 60000,
    onPid: pid => { seen.pid = pid },
    onStdout: line => seen.lines.push(line),
  })
  done.catch(() => {}) // awaited later; keep an early rejection from being unhandled
  await waitFor(() => seen.pid !== undefined && seen.lines.includes('started'), `pid and first line of ${cmd}`)
  return { pid: seen.pid, done }
}

const runningCmdlines = async sandbox =>
  (await sandbox.process.exec(`for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null; echo; done`)).stdout

scenario('stream_processes', async () => {
  const lizard = await compatClient()
  await withSandbox(lizard, {}, async sandbox => {
    const events = []
    const stamp = kind => data => events.push({ kind, data, at: Date.now() })
    const result = await sandbox.process.exec('echo one; echo two >&2; sleep 1.5; echo three; exit 4', {
      timeoutMs: 30000,
      onStdout: stamp('stdout'),
      onStderr: stamp('stderr'),
      onPid: stamp('pid'),
    })
    eq(events[0]?.kind, 'pid', 'onPid is called first')
    check(Number.isInteger(events[0].data) && events[0].data > 0, `onPid gives a positive integer (${events[0].data})`)
    eq(events.filter(e => e.kind === 'pid').length, 1, 'onPid is called once')
    eq(events.filter(e => e.kind === 'stdout').map(e => e.data), ['one', 'three'], 'onStdout gets each stdout line without newline')
    eq(events.filter(e => e.kind === 'stderr').map(e => e.data), ['two'], 'onStderr gets each stderr line')
    const one = events.find(e => e.data === 'one'), three = events.find(e => e.data === 'three')
    check(three.at - one.at >= 1000, `lines arrive as produced, not at the end (${three.at - one.at} ms apart)`)
    eq(result.stdout, 'one\nthree', 'streamed result stdout')
    eq(result.stderr, 'two', 'streamed result stderr')
    eq(result.exitCode, 4, 'streamed result exit code')

    const lines = []
    const many = await sandbox.process.exec(['sh', '-c', 'for i in $(seq 1 500); do echo "line $i"; done'], {
      onStdout: line => lines.push(line),
    })
    eq(many.exitCode, 0, 'argv streaming exec exit code')
    eq(lines.length, 500, '500 lines streamed')
    check(lines.every((l, i) => l === `line ${i + 1}`), 'streamed lines arrive complete and in order')

    // process list, then SIGTERM (default) to a shell: the whole tree dies.
    const shell = await startLong(sandbox, 'echo started; sleep 301 & sleep 302; echo never')
    const listed = await sandbox.process.list()
    check(Array.isArray(listed), 'process.list() answers an array')
    const entry = listed.find(p => p.pid === shell.pid)
    check(entry !== undefined, `process.list() contains the streamed pid ${shell.pid}`)
    check(Array.isArray(entry.cmd) && entry.cmd.every(a => typeof a === 'string'), 'process cmd is an argv array')
    check(entry.cmd.join(' ').includes('sleep 302'), `process cmd shows the command (${JSON.stringify(entry.cmd)})`)
    check((await runningCmdlines(sandbox)).includes('sleep 301'), 'the background child is running before kill')

    await sandbox.process.kill(shell.pid)
    const killed = await shell.done
    check(killed.exitCode !== 0, `the killed command ends with a non-zero exit code (${killed.exitCode})`)
    check(!killed.stdout.includes('never'), 'the killed command did not go on')
    await waitFor(async () => !(await sandbox.process.list()).some(p => p.pid === shell.pid), 'the killed pid to leave process.list()')
    console.log('ok - the killed process leaves process.list()')
    await waitFor(async () => !(await runningCmdlines(sandbox)).includes('sleep 30'), 'the whole process tree to die')
    console.log('ok - the signal reached the whole process tree')

    // argv command, SIGKILL.
    const direct = await startLong(sandbox, ['sh', '-c', 'echo started; exec sleep 303'])
    check((await sandbox.process.list()).some(p => p.pid === direct.pid), 'argv process is listed')
    await sandbox.process.kill(direct.pid, 'SIGKILL')
    const sigkilled = await direct.done
    check(sigkilled.exitCode !== 0, `SIGKILL ends the command (exit code ${sigkilled.exitCode})`)
    await waitFor(async () => !(await runningCmdlines(sandbox)).includes('sleep 303'), 'the SIGKILLed process to die')
    console.log('ok - SIGKILL kills the process')
  })
})
