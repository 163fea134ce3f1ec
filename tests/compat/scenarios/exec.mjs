// exec with a shell string and with an argv array (nothing interpreted), plus its options.
import { check, compatClient, eq, scenario, withSandbox } from './lib.mjs'

scenario('exec', async () => {
  const lizard = await compatClient()
  await withSandbox(lizard, {}, async sandbox => {
    const exec = (cmd, opts) => sandbox.process.exec(cmd, opts)

    // A shell string: pipes, expansion, redirection, both streams and the exit code.
    const shell = await exec('echo "sum=$((20 + 22))" | tr a-z A-Z; echo oops >&2; exit 3')
    eq(shell.stdout, 'SUM=42\n', 'string command runs in a shell (stdout)')
    eq(shell.stderr, 'oops\n', 'string command stderr')
    eq(shell.exitCode, 3, 'a non-zero exit code is a normal answer')

    const ok = await exec('true')
    eq([ok.stdout, ok.stderr, ok.exitCode], ['', '', 0], '`true` answers empty streams and exit code 0')

    // argv: every element arrives as one argument, untouched by any shell.
    const tricky = ['a b', '$HOME', '; rm -rf /tmp/x', "it's", '"q"', '*', '`id`', '\\n', 'ünï€ode']
    const argv = await exec(['printf', '%s\\n', ...tricky])
    eq(argv.exitCode, 0, 'argv command exits 0')
    eq(argv.stdout, tricky.map(t => `${t}\n`).join(''), 'argv elements are passed literally')

    const argvExit = await exec(['sh', '-c', 'exit 7'])
    eq(argvExit.exitCode, 7, 'argv command exit code')

    // Output is UTF-8, byte-exact, including a line without a trailing newline.
    const utf8 = await exec("printf 'h\\303\\251llo w\\303\\266rld'")
    eq(utf8.stdout, 'héllo wörld', 'UTF-8 output without a trailing newline')

    const root = await exec('id -u')
    eq(root.stdout, '0\n', 'commands run as root by default')

    const wd = await exec('pwd', { workdir: '/tmp' })
    eq(wd.stdout, '/tmp\n', 'workdir option')
    const env = await exec('printf "%s" "$ONE_OFF"', { envs: { ONE_OFF: 'per-command value' } })
    eq(env.stdout, 'per-command value', 'per-command envs option')
    const gone = await exec('printf "%s" "${ONE_OFF-unset}"')
    eq(gone.stdout, 'unset', 'per-command envs do not leak into later commands')

    // State written by one command is seen by the next (same sandbox filesystem).
    await exec('echo persisted > /tmp/state.txt')
    eq((await exec(['cat', '/tmp/state.txt'])).stdout, 'persisted\n', 'files persist between commands')

    const big = await exec('head -c 300000 /dev/zero | tr "\\0" x')
    eq(big.stdout.length, 300000, 'a 300 kB stdout arrives whole')
    check(big.truncated !== true, 'a 300 kB stdout is not marked truncated')
  })
})
