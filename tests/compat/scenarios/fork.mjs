// fork({count: 2}): two working copies with the source's files; the source keeps running.
import { check, compatClient, eq, scenario, withSandbox } from './lib.mjs'

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
})
