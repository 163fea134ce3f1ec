// The reference for the "runCode warm 1+1" figure: the official SDK's sandbox.runCode('1+1')
// against the same lizard-local and sandbox. Prints one JSON line: {"median", "runs", "samples"}
// (ms) or {"error"}.
//   node sdk_runcode.mjs <sdk index.mjs> <sandboxId> <runs>
// LIZARD_API_URL and LIZARD_API_KEY point at lizard-local.
import { pathToFileURL } from 'node:url'

const [sdkPath, sandboxId, runsArg] = process.argv.slice(2)
const runs = Number(runsArg) || 20
try {
  const { CodeSandbox } = await import(pathToFileURL(sdkPath).href)
  const sandbox = await CodeSandbox.connect(sandboxId)
  const warm = await sandbox.runCode('1+1') // starts (or reaches) the default python kernel
  if (warm.error) throw new Error(`warm-up failed: ${warm.error.name}: ${warm.error.message}`)
  const samples = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    const run = await sandbox.runCode('1+1')
    samples.push(performance.now() - start)
    const text = run.results.find(r => r.type === 'result')?.data
    if (text !== '2') throw new Error(`runCode('1+1') gave ${JSON.stringify(text)}`)
  }
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  console.log(JSON.stringify({ median, runs, samples }))
} catch (e) {
  console.log(JSON.stringify({ error: String(e?.message ?? e) }))
}
