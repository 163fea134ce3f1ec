// The official SDK's runCode from lizard-agent's warm runner zygote prints exactly what a fresh
// python3 prints. The SDK's own runner invocation (its argv, taken from the SDK itself) runs a
// corpus of requests in two sandboxes: one served warm, one with LIZARD_RUNNER_FASTPATH=0 in its
// envs (a fresh python3 each time, as before). Their stdout lines and exit codes must be equal,
// request by request; the activity log must say which way each ran. Then the SDK's runCode
// itself works on the warm path: results, errors, timeouts, contexts.
import { CodeSandbox } from '@lizard-build/sdk'
import { readFile } from 'node:fs/promises'
import { isDeepStrictEqual } from 'node:util'
import { PROJECT_NAME, check, compatClient, eq, scenario } from './lib.mjs'

// The SDK's runner argv for `args`, as its runner() method builds it (nothing is run).
async function sdkArgv(args) {
  const probe = Object.create(CodeSandbox.prototype)
  let argv
  probe.process = {
    exec: async a => {
      argv = a
      return { exitCode: 0, stdout: '', stderr: '' }
    },
  }
  probe.fs = {}
  await probe.runner(args, 60000, () => {}).catch(() => {})
  return argv
}

// Its stdout lines and exit code (compared), and its stderr and pid (shown, not compared).
async function rawRun(sandbox, args, onPid = () => {}) {
  const lines = []
  let pid = 0
  const result = await sandbox.process.exec(await sdkArgv(args), {
    timeoutMs: 60000,
    onStdout: line => lines.push(line),
    onPid: p => { pid = p; onPid(p) },
  })
  return { lines, exitCode: result.exitCode, stderr: result.stderr, pid }
}

function sameRun(warm, fresh, what) {
  const { stderr: warmErr, pid: warmPid, ...a } = warm
  const { stderr: freshErr, pid: freshPid, ...b } = fresh
  eq(a, b, `${what}${isDeepStrictEqual(a, b) ? '' : `\nwarm stderr: ${warmErr}\nfresh stderr: ${freshErr}`}`)
}

const run = (code, extra = {}) => ({ action: 'run', code, envs: {}, timeout: 60, language: 'python', ...extra })
const CORPUS = [
  run('print("hello")\nprint("wörld ✓")'),
  run('1+1'),
  run('x = 6 * 7\nx'),
  run('1/0'),
  run('import sys\nprint("to stderr", file=sys.stderr)\nprint("to stdout")'),
  run('from IPython.display import display, update_display, HTML\n' +
    'display(HTML("<b>first</b>"), display_id="d")\nupdate_display(HTML("<b>second</b>"), display_id="d")'),
  run('import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()'),
  run('print("x" * 100000)'),
  run('import os\nprint(os.environ.get("PER_RUN"))', { envs: { PER_RUN: 'yes' } }),
  run('raise KeyboardInterrupt'),
  run('import time\ntime.sleep(5)', { timeout: 1 }),
  run('x + 1'),
  run('console.log(40 + 2)', { language: 'javascript' }),
  run('echo from bash; exit 3', { language: 'bash' }),
  // What the runner's children inherit: credentials, confinement, limits, OOM score, env, cwd.
  run('grep -E "^(Uid|Gid|Groups|NoNewPrivs|Seccomp|Cap(Inh|Prm|Eff|Bnd|Amb)):" /proc/self/status\n' +
    'cat /proc/self/oom_score_adj; ulimit -a; umask; pwd; env | grep -v -e ^LIZARD_RUNNER_FASTPATH= -e ^_= | sort',
  { language: 'bash' }),
  { action: 'create', id: 'ctx-00000000000000aa', language: 'python', cwd: '/tmp' },
  run('import os\nos.getcwd()', { context: 'ctx-00000000000000aa', language: undefined }),
  { action: 'list' },
  { action: 'restart', context: 'ctx-00000000000000aa' },
  run('1', { context: 'ctx-nosuchcontext0000', language: undefined }),
  { action: 'delete', context: 'ctx-00000000000000aa' },
]

scenario('runner_fastpath', async () => {
  await compatClient() // makes the project
  const opts = { project: PROJECT_NAME, timeoutMs: 180000 }
  const warm = await CodeSandbox.create('interpreter', opts)
  const plain = await CodeSandbox.create('interpreter', { ...opts, envs: { LIZARD_RUNNER_FASTPATH: '0' } })
  try {
    await rawRun(warm, run('')) // both kernels start; warm's zygote starts meanwhile
    await rawRun(plain, run(''))
    const pids = { warm: [], plain: [] }
    for (const args of CORPUS) {
      const [a, b] = [await rawRun(warm, args), await rawRun(plain, args)]
      sameRun(a, b, `same events and exit code, warm and fresh: ${JSON.stringify(args).slice(0, 90)}`)
      if (args.action === 'run' && args.language === 'python' && !args.context) {
        pids.warm.push(a.pid)
        pids.plain.push(b.pid)
      }
    }
    // The default context's Python runs were served in place by one resident runner process
    // (its pid each time), the fresh ones each by a python3 of its own.
    const residentPid = pids.warm[pids.warm.length - 1]
    check(pids.warm.filter(p => p === residentPid).length >= pids.warm.length - 2,
      `the warm runs were served by one resident process (pids ${pids.warm.join(' ')})`)
    eq(new Set(pids.plain).size, pids.plain.length, 'each fresh run had a process of its own')

    // A run killed mid-way (the SDK's process.kill, SIGTERM) ends as a fresh runner's does; the
    // resident process went with it, and a new one serves the runs after.
    const killedRuns = []
    for (const s of [warm, plain]) {
      let killing
      const run3 = rawRun(s, run('import time\ntime.sleep(2)\n"slept"'), pid => {
        killing = new Promise(resolve => setTimeout(resolve, 300)).then(() => s.process.kill(pid))
      })
      const done = await run3
      await killing
      killedRuns.push(done)
    }
    sameRun(killedRuns[0], killedRuns[1], 'a run killed mid-way, warm and fresh')
    eq(killedRuns[0].exitCode, 143, 'the killed run ends by SIGTERM')
    const after = [await rawRun(warm, run('3 * 3')), await rawRun(warm, run('4 * 4'))]
    check(after[1].lines.some(line => line.includes('"data": "16"')), 'runs after the kill work')
    check(after[1].pid !== killedRuns[0].pid, 'a new resident process serves them')
    // Nothing of the zygote is left over: the zygote, its spare and its resident runner, all
    // python3 running the zygote's source.
    await new Promise(resolve => setTimeout(resolve, 500))
    const zygotes = await warm.process.exec("pgrep -fc '[w]arm python3 of lizard-agent' || true")
    check(Number(zygotes.stdout) === 3 && zygotes.exitCode === 0,
      `the zygote, a spare and the resident (${zygotes.stdout.trim()} processes)`)

    // Two runs at once: one is served in place, the other by a child, both as a fresh runner.
    const both = await Promise.all([rawRun(warm, run('import time\ntime.sleep(0.5)\n"first"')),
      rawRun(warm, run('"second"'))])
    check(both[0].lines.some(line => line.includes("'first'")) &&
      both[1].lines.some(line => line.includes("'second'")), 'two runs at once both answer')

    // A run right after one that timed out: its kernel was interrupted, and ipykernel aborts the
    // code that reaches it while it handles that error. The run must still run, every time.
    for (let i = 0; i < 5; i++) {
      const late = await rawRun(warm, run('import time\ntime.sleep(3)', { timeout: 0.3 }))
      check(late.lines.some(line => line.includes('TimeoutError')), 'the run timed out')
      const next = await rawRun(warm, run(`${i} + 100`))
      check(next.lines.some(line => line.includes(`"data": "${i + 100}"`)),
        `the run right after a timed-out one ran (${next.lines.join(' ')})`)
    }
    // A warm run is handed to a child forked and prepared ahead, with a kernel client already
    // open on the context's kernel. Here that kernel is killed while such a child waits: the
    // runner starts a new kernel, and the run must use it, not the client on the dead one.
    const pause = ms => new Promise(resolve => setTimeout(resolve, ms))
    for (const s of [warm, plain])
      await rawRun(s, run('2+2')) // the next child prepares for the default context
    await pause(1500)
    for (const s of [warm, plain])
      await s.process.exec('kill -9 "$(cat /tmp/.lizard-code/default-python/kernel.pid)"')
    await pause(500)
    const [killedA, killedB] = [await rawRun(warm, run('1+1')), await rawRun(plain, run('1+1'))]
    sameRun(killedA, killedB, 'same events and exit code after the kernel was killed, warm and fresh')
    check(killedA.lines.some(line => line.includes('"data": "2"')), 'a new kernel answered')
    const served = async s => (await fetch(`${process.env.LIZARD_API_URL.replace(/\/$/, '')}/api/sandboxes/${s.sandboxId}/activity`,
      { headers: { 'X-API-Key': process.env.LIZARD_API_KEY } }).then(r => r.json())).entries
      .filter(e => e.kind === 'runCode').map(e => e.warmRunner === true)
    // The first verified run starts the zygote and runs fresh meanwhile; from then on, all warm.
    const warmRuns = await served(warm)
    const firstWarm = warmRuns.indexOf(true)
    check(firstWarm >= 1 && firstWarm <= 2 && warmRuns.slice(firstWarm).every(Boolean),
      `every run after the first was served warm (${warmRuns.filter(Boolean).length} of ${warmRuns.length})`)
    eq((await served(plain)).some(Boolean), false, 'LIZARD_RUNNER_FASTPATH=0 starts a fresh python3 every time')

    const r = await warm.runCode('y = 2 ** 10\ny')
    eq(r.results[0]?.data, '1024', 'runCode on the warm path')
    eq((await warm.runCode('y / 0')).error?.name, 'ZeroDivisionError', 'an error on the warm path')
    const slow = await warm.runCode('import time\ntime.sleep(5)', { timeoutMs: 1000 })
    eq(slow.error?.name, 'TimeoutError', 'a timeout on the warm path interrupts the kernel')
    eq((await warm.runCode('y')).results[0]?.data, '1024', 'and the kernel keeps its state')
    const ctx = await warm.createContext({ language: 'python' })
    await warm.runCode('z = 5', { context: ctx })
    eq((await warm.runCode('z', { context: ctx })).results[0]?.data, '5', 'a context of its own')
    await warm.deleteContext(ctx)

    // A prepared client is often stopped right after its channels started (the request was not
    // a run in its context). jupyter_client loses a heartbeat stop that comes before the
    // heartbeat thread runs, and that thread then opens sockets until the process has no fds;
    // the zygote waits for the thread first (heartbeat_started). Here, with the zygote's own
    // function and few fds to spare, clients started and stopped at once, 40 times.
    const zygote = await readFile(new URL('../../../server/agent/serve/runnerzygote.py', import.meta.url), 'utf8')
    await warm.fs.write('/tmp/zygote.py', zygote)
    await warm.fs.write('/tmp/hbstop.py', [
      'import importlib.util, os, resource',
      'resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))',
      'spec = importlib.util.spec_from_file_location("zygote", "/tmp/zygote.py")',
      'zygote = importlib.util.module_from_spec(spec)',
      'spec.loader.exec_module(zygote)',
      'from jupyter_client import BlockingKernelClient',
      'for _ in range(40):',
      '    kc = BlockingKernelClient()',
      '    kc.load_connection_file("/tmp/.lizard-code/default-python/kernel.json")',
      '    kc.start_channels()',
      '    zygote.heartbeat_started(kc)',
      '    kc.stop_channels()',
      'print(len(os.listdir("/proc/self/fd")))',
    ].join('\n'))
    const hb = await warm.process.exec('python3 /tmp/hbstop.py', { timeoutMs: 60000 })
    eq(hb.exitCode, 0, `40 clients started and stopped at once (${hb.stderr.slice(-400)})`)
    check(Number(hb.stdout) < 128, `and few fds stay open (${hb.stdout.trim()})`)

    // The zygote gone (the agent ends it when it stops answering), its spare and its resident
    // go too: they leave when their links close. Runs go on: the agent starts a new zygote.
    await warm.process.exec("kill -9 $(pgrep -f '[w]arm python3 of lizard-agent' | sort -n | head -n 1)")
    let left = ''
    for (let waited = 0; waited < 5000; waited += 100) {
      left = (await warm.process.exec("pgrep -fc '[w]arm python3 of lizard-agent' || true")).stdout.trim()
      if (left === '0') break
      await new Promise(resolve => setTimeout(resolve, 100))
    }
    eq(left, '0', 'nothing of the zygote outlives it')
    check((await rawRun(warm, run('5 * 5'))).lines.some(line => line.includes('"data": "25"')),
      'runs go on after the zygote ended')
  } finally {
    await warm.kill().catch(() => {})
    await plain.kill().catch(() => {})
  }
}, 240000)
