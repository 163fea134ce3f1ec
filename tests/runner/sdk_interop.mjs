// The official SDK's own runner (CodeSandbox.runCode and friends) on a sandbox where our runner
// works too: tst_runnersandbox uses it to check that both share contexts. Prints one JSON line.
//   node sdk_interop.mjs <sdk index.mjs> <sandboxId> use <contextId>   (list, then run `shared * 2`)
//   node sdk_interop.mjs <sdk index.mjs> <sandboxId> make               (create a context, set sdk_var)
// LIZARD_API_URL and LIZARD_API_KEY point at lizard-local.
import { pathToFileURL } from 'node:url'

const [sdkPath, sandboxId, mode, contextId] = process.argv.slice(2)
const { CodeSandbox } = await import(pathToFileURL(sdkPath).href)
const sandbox = await CodeSandbox.connect(sandboxId)
let answer
if (mode === 'use') {
  const contexts = await sandbox.listContexts()
  const context = contexts.find(c => c.id === contextId)
  const run = await sandbox.runCode('shared * 2', { context })
  answer = { contexts, results: run.results, executionCount: run.executionCount, error: run.error?.name ?? null }
} else if (mode === 'make') {
  const context = await sandbox.createContext({ language: 'python' })
  const run = await sandbox.runCode('sdk_var = 7', { context })
  answer = { context, error: run.error?.name ?? null }
} else {
  throw new Error(`unknown mode ${mode}`)
}
console.log(JSON.stringify(answer))
