// The reference for the "runCode warm 1+1" figure: the official SDK's sandbox.runCode('1+1')
// against the same lizard-local and sandbox, back to back, then again with 100 ms between calls
// (an agent's calls come with its model's time between them). Prints one JSON line: {"median",
// "pacedMedian", "runs", "samples"} (ms) or {"error"}.
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
  const timed = async pauseMs => {
    const samples = []
    for (let i = 0; i < runs; i++) {
      if (pauseMs) await new Promise(resolve => setTimeout(resolve, pauseMs))
      const start = performance.now()
      const run = await sandbox.runCode('1+1')
      samples.push(performance.now() - start)
      const text = run.results.find(r => r.type === 'result')?.data
      if (text !== '2') throw new Error(`runCode('1+1') gave ${JSON.stringify(text)}`)
    }
    return samples
  }
  const medianOf = samples => {
    const sorted = [...samples].sort((a, b) => a - b)
    const mid = sorted.length >> 1
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  }
  const samples = await timed(0)
  const median = medianOf(samples)
  const pacedMedian = medianOf(await timed(100))
  console.log(JSON.stringify({ median, pacedMedian, runs, samples }))
} catch (e) {
  console.log(JSON.stringify({ error: String(e?.message ?? e) }))
}
