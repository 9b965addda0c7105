/**
 * The dashboard's token on a non-loopback bind, in headless chromium: the printed URL carries it
 * once; the page answer sets it as an HttpOnly, SameSite=Strict cookie; the page removes it
 * from the address bar and the history (history.replaceState); every later request carries
 * the cookie, never the token in a URL, and no request has a Referer; every response says
 * `Referrer-Policy: no-referrer`. A reload works with the cookie alone; a browser without the
 * cookie gets 401; `?token=` is accepted on the page route only.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { hasChromium, killGroup, launchBrowser, runCampaign, startWflo, tempDir, waitForLine, writeNoopCampaign, type Browser } from './viewsTestKit.js';

const children: ChildProcess[] = [];
const browsers: Browser[] = [];
after(async () => {
  await Promise.all(browsers.map((b) => b.close()));
  await Promise.all(children.map((c) => killGroup(c)));
});

function get(port: number, route: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: route, headers: { Host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
      res.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on('error', reject);
  });
}

test('token: into a cookie, out of the address bar and history; no Referer, Referrer-Policy everywhere', {
  skip: hasChromium() ? false : 'no chromium',
  timeout: 90_000,
}, async () => {
  const dir = tempDir('wflo-dash-token-');
  const { file, out } = writeNoopCampaign(dir, 'token', 2);
  runCampaign(file, out);
  const dash = startWflo(['dashboard', out, '--host', '0.0.0.0', '--port', '0']);
  children.push(dash);
  const [, portText, token] = await waitForLine(dash, /http:\/\/0\.0\.0\.0:(\d+)\/\?token=(\S+)/);
  const port = Number(portText);
  const origin = `http://127.0.0.1:${port}`;

  const browser = await launchBrowser({ width: 1280, height: 900 });
  browsers.push(browser);
  const page = await browser.context.newPage();
  const requests: { url: string; referer: string | undefined; cookie: string | undefined }[] = [];
  const pending: Promise<void>[] = [];
  const responses: { url: string; status: number; policy: string | undefined }[] = [];
  // The headers as sent (allHeaders: what went on the wire, not the provisional ones).
  page.on('request', (r) =>
    pending.push(
      r.allHeaders().then(
        (h) => {
          requests.push({ url: r.url(), referer: h.referer, cookie: h.cookie });
        },
        () => {},
      ),
    ),
  );
  page.on('response', (r) => responses.push({ url: r.url(), status: r.status(), policy: r.headers()['referrer-policy'] }));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto(`${origin}/?token=${token}`);
  await page.waitForFunction(() => Number(document.body.getAttribute('data-renders')) >= 1, null, { timeout: 30_000 });
  await page.waitForFunction(() => document.getElementById('live-state')?.textContent === 'live', null, { timeout: 30_000 });

  // Out of the address bar and the history: the only entry is the clean URL.
  assert.equal(page.url(), `${origin}/`);
  assert.equal(await page.evaluate(() => location.href), `${origin}/`);
  // The tab's history: the blank page it started on, then the clean URL (replaced, not pushed).
  assert.equal(await page.evaluate(() => history.length), 2);
  await page.goBack();
  assert.equal(page.url(), 'about:blank');
  await page.goForward();
  assert.equal(page.url(), `${origin}/`);
  await page.waitForFunction(() => Number(document.body.getAttribute('data-renders')) >= 1, null, { timeout: 30_000 });

  // In an HttpOnly, SameSite=Strict cookie, named for this port; invisible to the page's script.
  const cookies = await browser.context.cookies(origin);
  const cookie = cookies.find((c) => c.name === `wflo_token_${port}`);
  assert.ok(cookie, `cookie wflo_token_${port} set: ${cookies.map((c) => c.name).join(', ')}`);
  assert.equal(cookie.value, token);
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, 'Strict');
  assert.equal(await page.evaluate(() => document.cookie), '');

  // Only the first request carried the token in its URL; none carried a Referer (the tokened URL
  // would have been it); the API calls carried the cookie; every response (page, scripts, data,
  // events) said no-referrer.
  await Promise.all(pending);
  assert.ok(requests.length >= 6, requests.map((r) => r.url).join('\n'));
  assert.deepEqual(
    requests.filter((r) => r.url.includes('token=')).map((r) => r.url),
    [`${origin}/?token=${token}`],
  );
  assert.deepEqual(
    requests.filter((r) => r.referer),
    [],
  );
  for (const r of requests.filter((q) => q.url.includes('/api/'))) assert.match(r.cookie ?? '', new RegExp(`wflo_token_${port}=`), r.url);
  for (const route of ['/', '/assets/vega.min.js', '/assets/vega-lite.min.js', '/assets/page.js', '/api/data']) {
    assert.ok(
      responses.some((r) => new URL(r.url).pathname === route && r.status === 200),
      `${route} was loaded`,
    );
  }
  assert.deepEqual(
    responses.filter((r) => r.policy !== 'no-referrer').map((r) => r.url),
    [],
  );
  const events = await get(port, '/api/events', { Cookie: `wflo_token_${port}=${token}` });
  assert.equal(events.status, 200);
  assert.equal(events.headers['referrer-policy'], 'no-referrer');
  for (const [route, status] of [
    ['/', 401],
    ['/nope', 404],
    ['/api/data', 401],
  ] as const) {
    const r = await get(port, route);
    assert.equal(r.status, status, route);
    assert.equal(r.headers['referrer-policy'], 'no-referrer', `${route} (${status})`);
  }

  // A reload works on the cookie alone.
  await page.reload();
  await page.waitForFunction(() => Number(document.body.getAttribute('data-renders')) >= 1, null, { timeout: 30_000 });
  assert.equal(page.url(), `${origin}/`);

  // Without the cookie: 401. The token in an API URL is not accepted (it belongs in the cookie).
  const stranger = await launchBrowser();
  browsers.push(stranger);
  const other = await stranger.context.newPage();
  assert.equal((await other.goto(`${origin}/`))?.status(), 401);
  assert.equal((await get(port, `/api/data?token=${token}`)).status, 401);
  assert.equal((await get(port, '/api/data', { Cookie: `wflo_token_${port}=${token}` })).status, 200);
  assert.equal((await get(port, '/api/data', { Cookie: `wflo_token_${port + 1}=${token}` })).status, 401, "another port's cookie");
  assert.deepEqual(errors, []);
});
