// apt-get install through the SDK's exec: the sandbox's /usr and package state are its own
// (copy-on-write), so a system package installs and runs, streamed and with a long timeout.
import { check, compatClient, eq, scenario, withSandbox } from './lib.mjs'

scenario('apt', async () => {
  const lizard = await compatClient()
  await withSandbox(lizard, {}, async sandbox => {
    const lines = []
    const install = await sandbox.process.exec(
      'apt-get update -qq && apt-get install -y -qq hello >/dev/null && echo installed',
      { timeoutMs: 120000, envs: { DEBIAN_FRONTEND: 'noninteractive' }, onStdout: line => lines.push(line) })
    eq(install.exitCode, 0, `apt-get update and install exit 0 (stderr: ${install.stderr.slice(-800)})`)
    check(lines.join('\n').includes('installed'), 'the install streamed its stdout')
    eq((await sandbox.process.exec(['hello'])).stdout, 'Hello, world!\n', 'the installed program runs')
    const status = await sandbox.process.exec(['dpkg-query', '-W', '-f=${Status}', 'hello'])
    eq(status.stdout, 'install ok installed', 'dpkg knows the package')
  })
})
