// Template names: the cloud's `code-interpreter-v1` is lizard-local's `interpreter`; a cloud
// template lizard-local lacks is a clear 400 that names the local templates.
import { CodeSandbox, LizardError, Sandbox } from '@lizard-build/sdk'
import { check, compatClient, eq, PROJECT_NAME, rejects, scenario } from './lib.mjs'

scenario('templates', async () => {
  await compatClient() // the compat project exists
  const sandbox = await Sandbox.create('code-interpreter-v1', { project: PROJECT_NAME, timeoutMs: 120000 })
  try {
    eq((await sandbox.getInfo()).template, 'interpreter', 'code-interpreter-v1 is the interpreter template')
    const code = await CodeSandbox.connect(sandbox.sandboxId)
    const run = await code.runCode('import numpy\nprint(numpy.arange(3).sum())')
    eq(run.stdout, '3\n', 'it runs Python with the data stack')
  } finally {
    await sandbox.kill()
  }
  for (const name of ['claude', 'codex']) {
    const err = await rejects(Sandbox.create(name, { project: PROJECT_NAME }), LizardError, `Sandbox.create('${name}') is refused`)
    eq(err.status, 400, 'status 400')
    eq(err.code, 'INVALID_TEMPLATE', 'code INVALID_TEMPLATE')
    check(err.message.includes('base') && err.message.includes('interpreter'), `the message names the local templates ("${err.message}")`)
  }
})
