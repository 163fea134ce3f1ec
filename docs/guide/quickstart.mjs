// The official SDK against lizard-local: a shell command and stateful Python in two sandboxes
// of the `default` project. Run it with LIZARD_API_URL and LIZARD_API_KEY set (docs/guide.md,
// "Use the official SDK"); tests/compat runs this very file against a real lizard-local.
import { CodeSandbox, Lizard } from '@lizard-build/sdk'

const lizard = new Lizard({ project: 'default' })
const sandbox = await lizard.create('base', { timeoutMs: 300_000 })
try {
  await sandbox.fs.write('/tmp/hello.txt', 'Hello from lizard-local!\n')
  const result = await sandbox.process.exec('cat /tmp/hello.txt; uname -s')
  if (result.exitCode !== 0) throw new Error(result.stderr)
  console.log(result.stdout)
} finally {
  await sandbox.kill()
}

// Python in a Jupyter kernel of an `interpreter` sandbox: variables survive between calls.
const code = await CodeSandbox.create('interpreter', { project: 'default', timeoutMs: 300_000 })
try {
  const setup = await code.runCode('x = 21')
  if (setup.error) throw new Error(setup.error.message)
  const run = await code.runCode('x * 2')
  if (run.error) throw new Error(run.error.message)
  console.log('x * 2 =', run.results[0]?.data)
} finally {
  await code.kill()
}
