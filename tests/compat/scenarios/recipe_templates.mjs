// A template built from a recipe (lizard-local's POST /api/templates, a local extension) is
// used through the official SDK unchanged: Sandbox.create('name') and
// CodeSandbox.create({template: 'name'}) start from what the recipe made, with its env, and a
// version tag ('name:1') works as well.
import { CodeSandbox, LizardError, Sandbox } from '@lizard-build/sdk'
import { check, compatClient, eq, PROJECT_NAME, rejects, scenario } from './lib.mjs'

const NAME = 'sdk-recipe'

async function api(method, path, body) {
  const res = await fetch(process.env.LIZARD_API_URL.replace(/\/$/, '') + path, {
    method,
    headers: { 'X-API-Key': process.env.LIZARD_API_KEY, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: res.status, text: await res.text() }
}

scenario('recipe_templates', async () => {
  await compatClient()
  const recipe = [
    'from: interpreter',
    'env:',
    '  RECIPE_GREETING: made by a recipe',
    'run:',
    "  - mkdir -p /opt/data && python3 -c \"print('x,y'); print('1,2')\" > /opt/data/points.csv",
  ].join('\n')
  const started = await api('POST', '/api/templates', { name: NAME, recipe })
  eq(started.status, 202, 'POST /api/templates starts a build')
  const build = JSON.parse(started.text)
  const log = await api('GET', build.logUrl) // the stream ends with the build
  check(log.text.includes('event: end') && log.text.includes('"status":"succeeded"'), 'the build succeeded')
  try {
    const sandbox = await Sandbox.create(NAME, { project: PROJECT_NAME, timeoutMs: 120000 })
    try {
      const run = await sandbox.process.exec('cat /opt/data/points.csv; echo "$RECIPE_GREETING"')
      eq(run.stdout, 'x,y\n1,2\nmade by a recipe\n', "Sandbox.create('name') has the recipe's files and env")
      eq((await sandbox.getInfo()).template, 'interpreter', 'its template is the built-in one under it')
    } finally {
      await sandbox.kill()
    }
    const code = await CodeSandbox.create({ template: `${NAME}:1`, project: PROJECT_NAME, timeoutMs: 120000 })
    try {
      const run = await code.runCode("import pandas, os\nprint(pandas.read_csv('/opt/data/points.csv').y.sum(), os.environ['RECIPE_GREETING'])")
      eq(run.stdout, '2 made by a recipe\n', "CodeSandbox.create({template: 'name:1'}) runs Python on it")
    } finally {
      await code.kill()
    }
  } finally {
    eq((await api('DELETE', `/api/templates/${NAME}`)).status, 204, 'the template is deleted')
  }
  const err = await rejects(Sandbox.create(NAME, { project: PROJECT_NAME }), LizardError, 'a deleted template is refused')
  eq(err.status, 400, 'status 400')
})
