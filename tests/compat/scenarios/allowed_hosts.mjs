// allowedHosts through the SDK: the create echoes the list (the SDK deletes the sandbox and
// throws otherwise), getInfo shows it with internetAccess false, and bad lists are 400s with a
// code. This harness has no test network, so enforcement is shown only where no packet has to
// leave the machine: an unlisted address is refused at once, an unlisted name does not resolve
// (the sandbox's forwarder refuses it without asking upstream); tests/security/
// tst_sec_allowedhosts.cpp covers listed names and ranges against servers of its own.
import { LizardError } from '@lizard-build/sdk'
import { check, compatClient, eq, rejects, scenario } from './lib.mjs'

const probe = `
import errno, json, socket, time
out = {}
t = time.monotonic()
try: socket.gethostbyname('unlisted.example.org'); out['dns'] = 'resolved'
except OSError: out['dns'] = 'failed'
out['dnsMs'] = int((time.monotonic() - t) * 1000)
srv = socket.socket(); srv.bind(('127.0.0.1', 0)); srv.listen(1)
for name, addr in (('loopback', srv.getsockname()), ('unlisted', ('192.0.2.1', 80))):
    s = socket.socket(); s.settimeout(5)
    try: s.connect(addr); out[name] = 'OK'
    except OSError as e: out[name] = errno.errorcode.get(e.errno, str(e.errno))
print(json.dumps(out))
`

scenario('allowed_hosts', async () => {
  const lizard = await compatClient()
  const hosts = ['pypi.org', '*.pythonhosted.org', '140.82.112.0/20']

  for (const [list, code, what] of [
    [Array.from({ length: 51 }, (_, i) => `h${i}.example.org`), 'TOO_MANY_ALLOWED_HOSTS', '51 entries'],
    [['not a host'], 'INVALID_ALLOWED_HOST', 'a malformed name'],
    [['10.0.0.0/40'], 'INVALID_ALLOWED_HOST', 'a malformed CIDR'],
  ]) {
    const err = await rejects(lizard.create('base', { allowedHosts: list, timeoutMs: 60000 }), LizardError, what)
    eq(err.status, 400, `${what}: status 400`)
    eq(err.code, code, `${what}: code`)
  }

  let sandbox
  try {
    sandbox = await lizard.create('base', { allowedHosts: hosts, timeoutMs: 90000 })
  } catch (err) {
    if (err.status === 503 && err.code === 'NETWORK_UNAVAILABLE') {
      console.log(`ok - this host gives sandboxes no network (${err.message}); enforcement not shown here`)
      return
    }
    throw err
  }
  try {
    console.log('ok - create with allowedHosts is honoured (echoed)')
    const info = await sandbox.getInfo()
    eq(info.internetAccess, false, 'getInfo().internetAccess is false')
    eq(info.allowedHosts, hosts, 'getInfo().allowedHosts is the list')
    const listed = (await lizard.list()).find(s => s.sandboxId === sandbox.sandboxId)
    eq(listed?.allowedHosts, hosts, 'list() shows the list too')

    const run = await sandbox.process.exec(['python3', '-c', probe])
    eq(run.exitCode, 0, `the probe runs (${run.stderr})`)
    const out = JSON.parse(run.stdout)
    eq(out.loopback, 'OK', 'the sandbox reaches its own loopback (control)')
    eq(out.unlisted, 'EACCES', 'an unlisted address is refused by the kernel')
    eq(out.dns, 'failed', 'an unlisted name does not resolve')
    check(out.dnsMs < 2000, `and fails fast (${out.dnsMs} ms)`)
  } finally {
    await sandbox.kill()
  }
})
