// fork({count: 2}): two working copies with the source's files; the source keeps running.
// runCode works in a copy of an interpreter sandbox even though the copy inherits the SDK
// runner's kernel.pid, whatever processes the copy runs: lizard-local starts a copy's pids past
// its source's, so that pid names nothing there and the runner starts a fresh kernel.
import { CodeSandbox } from '@lizard-build/sdk'
import { check, compatClient, eq, PROJECT_NAME, scenario, withSandbox } from './lib.mjs'

scenario('fork', async () => {
  const lizard = await compatClient()
  await withSandbox(lizard, {}, async source => {
    await source.fs.write('/home/user/data.txt', 'from the source')
    const forks = await source.fork({ count: 2 })
    try {
      eq(forks.length, 2, 'one entry per copy')
      for (const [i, f] of forks.entries()) {
        check(f.sandbox && !f.error, `copy ${i} started (${f.error ?? f.sandbox.sandboxId})`)
        eq(f.info.status, 'running', `copy ${i} info says running`)
        eq(await f.sandbox.fs.read('/home/user/data.txt'), 'from the source', `copy ${i} has the file`)
        eq((await f.sandbox.process.exec('echo works')).stdout, 'works\n', `copy ${i} runs commands`)
      }
      check(forks[0].sandbox.sandboxId !== forks[1].sandbox.sandboxId, 'two different sandboxes')
      await forks[0].sandbox.fs.write('/home/user/data.txt', 'changed in copy 0')
      eq(await forks[1].sandbox.fs.read('/home/user/data.txt'), 'from the source', 'copies are independent')
      eq(await source.fs.read('/home/user/data.txt'), 'from the source', 'the source is unchanged')
      eq((await source.getInfo()).status, 'running', 'the source keeps running')
    } finally {
      for (const f of forks) await f.sandbox?.kill().catch(() => {})
    }
  })

  const code = await CodeSandbox.create('interpreter', { project: PROJECT_NAME, timeoutMs: 120000 })
  let copy
  try {
    const first = await code.runCode('x = 41; x')
    eq(first.results?.[0]?.data, '41', 'runCode in the interpreter sandbox')
    const [f] = await code.fork({ count: 1 })
    check(f?.sandbox && !f.error, `the interpreter sandbox forked (${f?.error ?? f?.sandbox?.sandboxId})`)
    copy = await CodeSandbox.connect(f.sandbox.sandboxId)
    // Forty live processes in the copy, on consecutive pids (no command substitution, no
    // subshell): without the pid floor one of them would hold the pid that the inherited
    // kernel.pid names.
    const forty = Array.from({ length: 40 }, (_, i) => i).join(' ')
    await copy.process.exec(`for i in ${forty}; do sleep 60 >/dev/null 2>&1 & done`)
    const run = await copy.runCode('1 + 1')
    check(!run.error, `runCode in the copy runs (${run.error?.value ?? 'no error'})`)
    eq(run.results?.[0]?.data, '2', 'runCode in the copy gets its result from a fresh kernel')
  } finally {
    await copy?.kill().catch(() => {})
    await code.kill().catch(() => {})
  }
})
