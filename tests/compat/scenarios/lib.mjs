// Shared helpers for the SDK compatibility scenarios. Each scenario drives lizard-local only
// through the official SDK's public API, exactly as a user's program would, and exits non-zero
// with a clear message on the first thing that differs from what the SDK documents.
import { Lizard } from '@lizard-build/sdk'
import { isDeepStrictEqual, inspect } from 'node:util'

export const PROJECT_NAME = process.env.LIZARD_COMPAT_PROJECT ?? 'sdk-compat'

export class ScenarioFailure extends Error {}

export function fail(message) {
  throw new ScenarioFailure(message)
}

export function check(condition, what) {
  if (!condition) fail(`check failed: ${what}`)
  console.log(`ok - ${what}`)
}

export function eq(actual, expected, what) {
  if (!isDeepStrictEqual(actual, expected)) {
    fail(`${what}: expected ${inspect(expected)}, got ${inspect(actual)}`)
  }
  console.log(`ok - ${what}`)
}

/** Awaits `promise` and requires it to reject with an instance of `ErrorClass`. */
export async function rejects(promise, ErrorClass, what) {
  try {
    const value = await promise
    fail(`${what}: expected ${ErrorClass.name}, but the call succeeded with ${inspect(value)}`)
  } catch (err) {
    if (err instanceof ScenarioFailure) throw err
    if (!(err instanceof ErrorClass)) {
      fail(`${what}: expected ${ErrorClass.name}, got ${err?.name}: ${err?.message} (status ${err?.status})`)
    }
    console.log(`ok - ${what} (${err.name}: ${err.message})`)
    return err
  }
}

/** Polls `probe` every `intervalMs` until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor(probe, what, timeoutMs = 10000, intervalMs = 100) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() >= deadline) fail(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(intervalMs)
  }
}

export const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

/** The SDK client for the compat project, created on first use through the SDK itself. */
export async function compatClient() {
  for (const name of ['LIZARD_API_URL', 'LIZARD_API_KEY']) {
    if (!process.env[name]) fail(`${name} is not set; point it at lizard-local`)
  }
  const admin = new Lizard({})
  const projects = await admin.projects.list()
  check(Array.isArray(projects), 'GET /api/projects answers an array')
  if (!projects.some(p => p.name?.toLowerCase() === PROJECT_NAME.toLowerCase())) {
    const workspaceId = projects[0]?.workspaceId
    const created = await admin.projects.create(workspaceId ? { name: PROJECT_NAME, workspaceId } : { name: PROJECT_NAME })
    check(typeof created?.id === 'string' && created.id.length > 0, `project "${PROJECT_NAME}" created with an id`)
  }
  return new Lizard({ project: PROJECT_NAME })
}

/** Creates a sandbox, runs `body(sandbox)`, and kills the sandbox whatever happens. */
export async function withSandbox(lizard, opts, body) {
  const sandbox = await lizard.create('base', { timeoutMs: 120000, ...opts })
  try {
    return await body(sandbox)
  } finally {
    await sandbox.kill().catch(err => console.error(`warning: could not kill ${sandbox.sandboxId}: ${err.message}`))
  }
}

/** Runs a scenario: prints each check, exits 1 with the reason on failure, and never hangs. */
export function scenario(name, body, timeoutMs = 150000) {
  const watchdog = setTimeout(() => {
    console.error(`FAIL ${name}: did not finish within ${timeoutMs} ms`)
    process.exit(1)
  }, timeoutMs)
  body()
    .then(() => {
      clearTimeout(watchdog)
      console.log(`PASS ${name}`)
      process.exit(0)
    })
    .catch(err => {
      clearTimeout(watchdog)
      const detail = err instanceof ScenarioFailure ? err.message : (err?.stack ?? String(err))
      const status = err?.status !== undefined ? ` (HTTP ${err.status}${err.code ? `, ${err.code}` : ''})` : ''
      const cause = err?.cause ? `\ncaused by: ${err.cause.message ?? err.cause}` : ''
      console.error(`FAIL ${name}: ${detail}${status}${cause}`)
      process.exit(1)
    })
}
