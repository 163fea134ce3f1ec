// desktop: Sandbox.create('desktop'); start twice (same answer), info, openUrl of a page served
// in the sandbox, input through xdotool (each key, click and wheel turn repaints the page, seen
// in screenshots), cursorPosition, screenshot of the asked size, stop; base: not supported.
import { LizardError } from '@lizard-build/sdk'
import { check, compatClient, eq, fail, rejects, scenario, waitFor, withSandbox } from './lib.mjs'
import { readPng } from './png.mjs'

const WIDTH = 1024
const HEIGHT = 768
// Each event gives the whole page a colour of its own.
const COLOURS = { load: [30, 144, 255], key: [255, 140, 0], enter: [50, 205, 50], wheel: [148, 0, 211], click: [220, 20, 60] }
const css = ([r, g, b]) => `rgb(${r},${g},${b})`
const page = `<!doctype html><html><head><title>lizard desktop</title><style>html,body{margin:0;height:100%}</style></head>
<body style="background:${css(COLOURS.load)}">
<script>
const paint = c => { document.body.style.background = c }
addEventListener('keydown', e => paint(e.key === 'Enter' ? '${css(COLOURS.enter)}' : '${css(COLOURS.key)}'))
addEventListener('wheel', () => paint('${css(COLOURS.wheel)}'))
addEventListener('mousedown', () => paint('${css(COLOURS.click)}'))
</script></body></html>
`

function near(actual, expected) {
  return actual.every((v, i) => Math.abs(v - expected[i]) <= 8)
}

// The screen's centre shows `colour` (the page fills Chromium's window, which covers it).
async function waitForColour(sandbox, colour, what) {
  let last
  await waitFor(async () => {
    const png = readPng(await sandbox.desktop.screenshot())
    if (png.width !== WIDTH || png.height !== HEIGHT) fail(`screenshot is ${png.width}x${png.height}`)
    last = png.pixel(WIDTH / 2, HEIGHT / 2)
    return near(last, colour)
  }, `${what} (the centre pixel is ${last})`, 60000, 300)
  console.log(`ok - ${what}: the screenshot's centre is ${css(colour)}`)
}

scenario('desktop', async () => {
  const lizard = await compatClient()

  await withSandbox(lizard, {}, async base => {
    const err = await rejects(base.desktop.start(), LizardError, 'desktop.start() on a base sandbox is refused')
    eq(err.code, 'DESKTOP_NOT_SUPPORTED', 'code DESKTOP_NOT_SUPPORTED')
    const shot = await rejects(base.desktop.screenshot(), LizardError, 'screenshot() on a base sandbox fails')
    eq(shot.code, 'DESKTOP_NOT_SUPPORTED', 'lizard-desktop is not there (exit 127): DESKTOP_NOT_SUPPORTED')
  })

  const sandbox = await lizard.create('desktop', { timeoutMs: 300000 })
  try {
    const before = await sandbox.desktop.info()
    eq([before.running, before.width, before.height], [false, null, null], 'never started: not running, no size')

    const first = await sandbox.desktop.start({ width: WIDTH, height: HEIGHT })
    eq([first.running, first.width, first.height], [true, WIDTH, HEIGHT], 'start gives a running desktop of the asked size')
    for (const url of [first.url, first.viewOnlyUrl]) {
      check(/^http:\/\/127\.[0-9.]+:\d+\/vnc\.html\?lizard_token=[A-Za-z0-9_]+&/.test(url), `a noVNC page behind the proxy: ${url.replace(/=[^&]+/g, '=…')}`)
    }
    check(first.url !== first.viewOnlyUrl, 'the view-only URL is another one')
    eq(before.url, first.url, 'info() before the start already named the same URL')
    eq(await sandbox.desktop.start({ width: 800, height: 600 }), first, 'a second start answers the same (size unchanged)')
    eq(await sandbox.desktop.info(), first, 'info() answers the same')

    await sandbox.fs.write('/srv/www/index.html', page)
    await sandbox.process.exec('cd /srv/www && setsid python3 -m http.server 8000 --bind 127.0.0.1 >/tmp/http.log 2>&1 </dev/null &')
    await waitFor(async () => (await sandbox.process.exec('python3 -c "import urllib.request as u; u.urlopen(\'http://127.0.0.1:8000/\')"')).exitCode === 0,
      'the web server in the sandbox', 20000, 200)
    await sandbox.desktop.openUrl('http://127.0.0.1:8000/')
    await waitForColour(sandbox, COLOURS.load, 'the page is on the screen')

    await sandbox.desktop.click(WIDTH / 2, HEIGHT / 2)
    await waitForColour(sandbox, COLOURS.click, 'click reaches the page')
    eq(await sandbox.desktop.cursorPosition(), { x: WIDTH / 2, y: HEIGHT / 2 }, 'cursorPosition is where the click was')
    await sandbox.desktop.moveMouse(300, 200)
    eq(await sandbox.desktop.cursorPosition(), { x: 300, y: 200 }, 'moveMouse moves the pointer')
    await sandbox.desktop.moveMouse(WIDTH / 2, HEIGHT / 2)
    await sandbox.desktop.type('lizard')
    await waitForColour(sandbox, COLOURS.key, 'type reaches the page')
    await sandbox.desktop.press('Return')
    await waitForColour(sandbox, COLOURS.enter, 'press(Return) reaches the page')
    await sandbox.desktop.scroll('down', 2)
    await waitForColour(sandbox, COLOURS.wheel, 'scroll reaches the page')

    await sandbox.desktop.stop()
    const stopped = await sandbox.desktop.info()
    eq([stopped.running, stopped.width, stopped.height, stopped.url, stopped.viewOnlyUrl],
      [false, WIDTH, HEIGHT, first.url, first.viewOnlyUrl], 'after stop: not running, same size and URLs')
    const again = await sandbox.desktop.start()
    eq([again.running, again.url, again.viewOnlyUrl], [true, first.url, first.viewOnlyUrl], 'started again: the same URLs')
    eq([again.width, again.height], [1280, 800], 'the default size is 1280x800')
  } finally {
    await sandbox.kill()
  }
})
