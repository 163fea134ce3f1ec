// Pre-started kernels through the SDK: CodeSandbox.create claims the interpreter template's warm
// copy, whose default Python kernel already runs. The SDK's own runner uses that kernel; it has
// the create's envs, a fresh kernel's namespace (a cold sandbox's, measured beside it), draws
// charts; restartContext gives a fresh kernel; pause/resume and fork keep working. Runs against a
// lizard-local whose interpreter pool keeps one copy (tst_sdkcompat).
import { CodeSandbox } from '@lizard-build/sdk'
import { PROJECT_NAME, check, compatClient, eq, scenario, waitFor } from './lib.mjs'

async function interpreterPool() {
  const url = `${process.env.LIZARD_API_URL.replace(/\/$/, '')}/api/templates/interpreter`
  const answer = await fetch(url, { headers: { 'X-API-Key': process.env.LIZARD_API_KEY } })
  return answer.json()
}

// Without the names of inputs and outputs (_i1, _1), which follow the execution count.
const NAMESPACE = 'print(sorted(n for n in dir() if not n.startswith("_i") and not n.lstrip("_").isdigit()))'
const text = run => {
  if (run.error) throw new Error(`${run.error.name}: ${run.error.value ?? run.error.message}`)
  return run.stdout + (run.results.find(r => r.mime === 'text/plain')?.data ?? '')
}

scenario('kernels', async () => {
  await compatClient() // makes the project
  const opts = { project: PROJECT_NAME, timeoutMs: 120000 }
  const made = []
  try {
    const cold = await CodeSandbox.create('interpreter', { ...opts, size: 'small' })
    made.push(cold)
    eq((await cold.getInfo()).fromPool, false, 'a small interpreter sandbox starts cold (the reference)')
    const coldNames = text(await cold.runCode(NAMESPACE))

    await waitFor(async () => (await interpreterPool()).readyCount >= 1, 'the interpreter pool to fill', 90000, 200)
    const started = performance.now()
    const warm = await CodeSandbox.create('interpreter', { ...opts, envs: { GREETING: 'claimed' } })
    made.push(warm)
    eq((await warm.getInfo()).fromPool, true, 'CodeSandbox.create claims the interpreter template\'s warm copy')
    const first = await warm.runCode('1+1')
    const firstMs = performance.now() - started
    eq(first.results.find(r => r.type === 'result')?.data, '2', 'the first runCode answers')
    console.log(`info - create + first runCode: ${firstMs.toFixed(0)} ms`)
    eq(first.executionCount, 1, 'the pre-started kernel\'s first count is the user\'s first cell')

    eq(text(await warm.runCode(NAMESPACE)), coldNames, 'its namespace is a fresh kernel\'s (dir() as in a cold sandbox)')
    eq(text(await warm.runCode('%who')).trim(), 'Interactive namespace is empty.', '%who shows nothing')
    eq(text(await warm.runCode('import os; os.environ.get("GREETING")')), "'claimed'", 'the kernel has the create\'s envs')
    eq(text(await warm.runCode('import subprocess; subprocess.run(["sh", "-c", "echo $GREETING"], capture_output=True, text=True).stdout')),
      "'claimed\\n'", 'and so do its child processes')
    eq(text(await warm.runCode('import os; os.environ.get("GREETING")', { envs: { GREETING: 'per run' } })), "'per run'",
      'a run\'s envs still win for that run')
    const chart = await warm.runCode('import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()')
    check(chart.results.some(r => r.mime === 'image/png' && r.data.length > 1000), 'a matplotlib chart comes back as a PNG')

    await warm.runCode('kept = 7')
    await warm.pause()
    await warm.resume()
    eq(text(await warm.runCode('kept')), '7', 'pause and resume keep the pre-started kernel and its variables')

    const [f] = await warm.fork({ count: 1 })
    check(f?.sandbox && !f.error, `the sandbox with a pre-started kernel forks (${f?.error ?? f?.sandbox?.sandboxId})`)
    const copy = await CodeSandbox.connect(f.sandbox.sandboxId)
    made.push(copy)
    eq(text(await copy.runCode('1 + 1')), '2', 'runCode in the fork works')

    await warm.restartContext('default-python')
    const gone = await warm.runCode('kept')
    eq(gone.error?.name, 'NameError', 'restartContext gives a fresh kernel')
    eq(text(await warm.runCode(NAMESPACE)), coldNames, 'whose namespace is a fresh kernel\'s too')
  } finally {
    for (const s of made) await s.kill().catch(() => {})
  }
}, 240000)
