// apt-get install through the SDK's exec: the sandbox's /usr and package state are its own
// (copy-on-write), so a system package installs and runs, streamed and with a long timeout.
// From Debian's mirror when the sandbox has network; where this server can give sandboxes no
// network (slirp4netns unusable for its user, a host feature that varies), a package built in
// the sandbox with dpkg-deb goes through the same apt-get install, and the scenario says so.
import { check, compatClient, eq, scenario, withSandbox } from './lib.mjs'

const LOCAL_PACKAGE =
  'set -e; d=/tmp/pkg; mkdir -p $d/DEBIAN $d/usr/bin; ' +
  "printf 'Package: hello\\nVersion: 9.9\\nArchitecture: all\\nMaintainer: lizard <l@example.org>\\n" +
  "Description: local hello\\n' > $d/DEBIAN/control; " +
  "printf '#!/bin/sh\\necho Hello, world!\\n' > $d/usr/bin/hello; chmod 755 $d/usr/bin/hello; " +
  'dpkg-deb --root-owner-group --build $d /tmp/hello.deb >/dev/null; ' +
  'apt-get install -y -qq /tmp/hello.deb >/dev/null && echo installed'

scenario('apt', async () => {
  const lizard = await compatClient()
  await withSandbox(lizard, {}, async sandbox => {
    const networked = (await sandbox.getInfo()).internetAccess !== false
    if (!networked)
      console.log('note: this server gives sandboxes no network here: installing a package built in the sandbox')
    const lines = []
    const install = await sandbox.process.exec(
      networked ? 'apt-get update -qq && apt-get install -y -qq hello >/dev/null && echo installed' : LOCAL_PACKAGE,
      { timeoutMs: 120000, envs: { DEBIAN_FRONTEND: 'noninteractive' }, onStdout: line => lines.push(line) })
    eq(install.exitCode, 0, `apt-get install exits 0 (stderr: ${install.stderr.slice(-800)})`)
    check(lines.join('\n').includes('installed'), 'the install streamed its stdout')
    eq((await sandbox.process.exec(['hello'])).stdout, 'Hello, world!\n', 'the installed program runs')
    const status = await sandbox.process.exec(['dpkg-query', '-W', '-f=${Status}', 'hello'])
    eq(status.stdout, 'install ok installed', 'dpkg knows the package')
  })
})
