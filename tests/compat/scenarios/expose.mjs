// expose: exposePort on a sandbox running a tiny HTTP server; the X-Lizard-Access-Token header
// gets through, no token gets 401, the browser URL sets a cookie; unexpose, then the host refuses.
import { check, compatClient, eq, scenario, sleep, waitFor, withSandbox } from './lib.mjs'

const page = '<!doctype html><title>lizard expose</title><p>served from the sandbox</p>\n'

async function tryFetch(url, init) {
  try {
    return await fetch(url, { redirect: 'manual', ...init })
  } catch (err) {
    return { error: err }
  }
}

scenario('expose', async () => {
  const lizard = await compatClient()
  await withSandbox(lizard, {}, async sandbox => {
    await sandbox.fs.write('/srv/www/index.html', page)
    await sandbox.process.exec('cd /srv/www && setsid python3 -m http.server 8000 --bind 127.0.0.1 >/tmp/http.log 2>&1 </dev/null &')

    const exposed = await sandbox.exposePort(8000)
    check(typeof exposed.hostname === 'string' && !exposed.hostname.includes('://'), `hostname without a scheme: ${exposed.hostname}`)
    eq(exposed.port, 8000, 'the answer names the port')
    check(typeof exposed.accessToken === 'string' && exposed.accessToken.length >= 16, 'an access token')
    eq(sandbox.accessToken, exposed.accessToken, 'the SDK keeps the token on the sandbox')
    check(exposed.url.includes(`lizard_token=${exposed.accessToken}`), 'the url carries the token')
    eq(await sandbox.getHost(8000), exposed.hostname, 'getHost gives the same hostname')

    const base = `http://${exposed.hostname}/`
    const withToken = await waitFor(async () => {
      const res = await tryFetch(base, { headers: { 'X-Lizard-Access-Token': sandbox.accessToken } })
      return res.status === 200 ? res : null
    }, 'the sandbox web server through the proxy', 20000, 200)
    eq(await withToken.text(), page, 'a request with X-Lizard-Access-Token gets the page')

    const without = await tryFetch(base)
    eq(without.status, 401, 'a request without the token gets 401')
    const wrong = await tryFetch(base, { headers: { 'X-Lizard-Access-Token': 'not-the-token' } })
    eq(wrong.status, 401, 'a wrong token gets 401')

    // The browser path: the url sets a cookie and redirects to the same place without the token.
    const first = await tryFetch(exposed.url)
    eq(first.status, 302, 'the url with the token redirects')
    eq(first.headers.get('location'), '/', 'to the same path without the token')
    const cookie = first.headers.get('set-cookie') ?? ''
    check(/HttpOnly/i.test(cookie) && /SameSite=/i.test(cookie), `an HttpOnly SameSite cookie: ${cookie}`)
    const again = await tryFetch(base, { headers: { cookie: cookie.split(';')[0] } })
    eq(again.status, 200, 'the cookie alone gets the page')
    eq(await again.text(), page, 'and the page is the sandbox\'s')

    await sandbox.unexpose(8000)
    console.log('ok - unexpose')
    const after = await waitFor(async () => {
      const res = await tryFetch(base, { headers: { 'X-Lizard-Access-Token': sandbox.accessToken } })
      return res.error || res.status === 404 ? res : (await sleep(100), null)
    }, 'the host to refuse after unexpose', 5000)
    check(after.error !== undefined || after.status === 404, `after unexpose the host refuses (${after.error?.cause?.code ?? after.status})`)
  })
})
