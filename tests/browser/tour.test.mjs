// tour.test.mjs - a tour of the pit boss page (docs/page.md) as a pit's two screens show it, in Debian's
// headless Chromium against the real pitbossd on a free loopback port with a temporary database:
//  - every view (the hash routes of web/app.js) at 1280x800 (a tablet) and 1920x1080 (a podium monitor):
//    no serious or critical axe-core violation, the top bar on one row, and at 1920 the content using the
//    width with its figures at least 16 px;
//  - each role lands where its work is and sees only the menus it may use (web/js/menus.js);
//  - a property in America/New_York seen from a browser in Asia/Tokyo shows the property's gaming day
//    (the daemon on the test clock at a time when the two days differ), and asks its reports by it;
//  - a refused change of a one-time password keeps what was typed.
// Screenshots land in docs/img/page-*.png (docs/page.md shows them) and docs/img/floor.png (README.md's).
//
//   PB_BUILD_DIR   where pitbossd and pitboss are (default /work/main/build)
//   PB_SOURCE_DIR  the repository (default: two levels up from here)
//   PB_CHROMIUM    the browser (default /usr/bin/chromium)
//
// Run: tests/browser/run.sh tour.test.mjs.
import {describe, it, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import path from 'node:path';
import {promisify} from 'node:util';
import {BUILD, CHROMIUM, SOURCE, axeViolations, screenshot, signInAs, startPitbossd, stopPitbossd, until,
  watchConsole} from './harness.mjs';
import {launchChromium} from './harness.mjs';
import {apiClient} from './harness.mjs';

const IMG = path.join(SOURCE, 'docs', 'img');
const ADMIN = 'demo-admin';
const PITBOSS = 'demo-pitboss';
const ZONE = 'America/New_York';
const DAY_START = '06:00';
const PEOPLE = {
  pb: {id: 'R-PB', name: 'Rae Pike', roles: ['pitboss']},
  cage: {id: 'R-CG', name: 'Cy Gale', roles: ['cage']},
  count: {id: 'R-CT', name: 'Cal Tate', roles: ['count']},
  surv: {id: 'R-SV', name: 'Sue Vance', roles: ['surveillance']},
  dealer: {id: 'R-DL', name: 'Dee Lowe', roles: ['dealer']},
  fresh: {id: 'R-NW', name: 'Ned Wolfe', roles: ['floor']},
};
const password = p => `cobalt-lagoon-${p.id.slice(2).toLowerCase()}-58`;
// The menu entries each role is offered (web/js/menus.js; the reads each may make: docs/api.md, the roles).
const REPORTS = ['floor', 'reports', 'master', 'statistics', 'exceptions'];
const MENUS = {
  pb: [...REPORTS, 'events', 'players', 'title31', 'cage'],
  cage: ['players', 'title31', 'cage'],
  count: ['drop'],
  surv: [...REPORTS, 'events', 'players', 'title31'],
};
const LANDS = {pb: '#/floor', cage: '#/cage', count: '#/drop', surv: '#/exceptions'};

let run, base, browser, context, page;
const api = apiClient(() => base);
const {http} = api;
const ids = {};
const consoleErrors = [];

/** Makes a person; with own, his one-time password changed to his own (the page then opens at once). */
async function makePerson(p, own = true) {
  await api.makePerson(p, password(p), {own});
}

/** "YYYY-MM-DD" of instant ms in zone. */
function dateIn(ms, zone) {
  return new Intl.DateTimeFormat('en-CA', {timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit'}).format(ms);
}

/** The wall-clock hour and minute of instant ms in zone, as minutes since midnight. */
function minutesIn(ms, zone) {
  const parts = new Intl.DateTimeFormat('en-GB', {timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23'})
    .formatToParts(ms);
  const get = t => Number(parts.find(x => x.type === t).value);
  return get('hour') * 60 + get('minute');
}

/** Waits until the view of hash has rendered: its heading, nothing left loading. */
async function openView(hash) {
  await page.evaluate(h => { location.hash = h; }, hash);
  await page.locator('#main h1').first().waitFor();
  const settled = await until(() => page.evaluate(() => {
    const m = document.getElementById('main');
    return !/Loading…/.test(m.innerText) && !m.querySelector('[aria-busy="true"]');
  }), 8000);
  assert.ok(settled, `${hash}: still loading`);
}

/** The visible menu entries of the top bar. */
async function visibleMenus() {
  return page.$$eval('.mainnav [data-nav]', as => as.filter(a => a.offsetParent !== null).map(a => a.dataset.nav));
}

/** The top bar's checks at this size: one row (its menu entries on one line, the bar no taller than one). */
async function assertBarOnOneRow(where) {
  const bar = await page.evaluate(() => {
    const tops = [...document.querySelectorAll('.mainnav li')].filter(li => !li.hidden).map(li => li.getBoundingClientRect().top);
    const s = document.querySelector('.session').getBoundingClientRect();
    const n = document.querySelector('.mainnav').getBoundingClientRect();
    return {rows: new Set(tops.map(Math.round)).size, height: document.querySelector('.topbar').getBoundingClientRect().height,
      sameRow: Math.abs((s.top + s.bottom) / 2 - (n.top + n.bottom) / 2) < 8};
  });
  assert.equal(bar.rows, 1, `${where}: the menu wraps`);
  assert.ok(bar.height <= 64, `${where}: the top bar is ${bar.height} px high (two rows)`);
  assert.ok(bar.sameRow, `${where}: the session controls are on another row than the menu`);
}

/** At 1920: the content uses the width, and each key figure is at least 16 px. */
async function assertPodium(where) {
  const m = await page.evaluate(() => {
    const main = document.getElementById('main').getBoundingClientRect();
    const small = [...document.querySelectorAll('#main table.data td.num, #main .kpi-value, #main .facts dd')]
      .filter(e => e.offsetParent !== null && e.textContent.trim())
      .map(e => ({text: e.textContent.trim().slice(0, 30), px: parseFloat(getComputedStyle(e).fontSize)}))
      .filter(x => x.px < 16);
    return {width: main.width, small: small.slice(0, 5)};
  });
  assert.ok(m.width >= 1800, `${where}: the content is ${m.width} px wide on a 1920 px screen`);
  assert.deepEqual(m.small, [], `${where}: figures under 16 px`);
}

describe('a tour of the pit boss page', {timeout: 180000}, () => {
  before(async () => {
    run = await startPitbossd('pbtour-', cfg => {
      cfg.property = {...cfg.property, time_zone: ZONE, gaming_day_start: DAY_START};
    }, {clock: true});
    base = run.base;
    // The daemon at 14:00 in New York (the gaming day is New York's date; Tokyo is already on the next date),
    // a day later if the browser's own Tokyo date happens to be that gaming day.
    let ahead = ((14 * 60 - minutesIn(run.now(), ZONE) + 24 * 60) % (24 * 60)) * 60;
    const nyDay = ms => dateIn(ms - 6 * 3600 * 1000, ZONE);
    if (nyDay(run.now() + ahead * 1000) === dateIn(Date.now(), 'Asia/Tokyo')) ahead += 24 * 3600;
    await run.advanceClock(ahead);
    for (const p of Object.values(PEOPLE)) await makePerson(p, p !== PEOPLE.fresh);
    // a few rounds at every table, and a player, so that each view has something to show
    await promisify(execFile)(path.join(BUILD, 'pitboss'), ['simulate', '--url', base, '--token', 'demo-dealer',
      '--rounds', '3', '--rate', '0', '--mode', 'whole', '--misdeal-rate', '0', '--quiet']);
    const pl = await http('POST', '/api/v1/players', {body: {card: '770001', name: 'Tia Park'}});
    assert.equal(pl.status, 201, pl.text);
    ids.player = pl.json.player?.id || pl.json.id;
    // the round view's own round, not a random one: red and black tens, a folded hand (greyed: its corners
    // must keep their contrast), a Pair Plus paid
    const round = await http('POST', '/api/v1/tables/T1/rounds', {token: 'demo-dealer', body: {
      bets: {1: {ante: 2500, pair_plus: 500}, 2: {ante: 1000}, 3: {ante: 1000}},
      hands: {1: ['Th', 'Td', '2c'], 2: ['Tc', '9h', '3s'], 3: ['Ts', 'Jd', '4h']},
      dealer: ['Qd', '7c', '2h'], decisions: {1: 'play', 2: 'fold', 3: 'play'}}});
    assert.equal(round.status, 201, round.text);
    ids.round = round.json.round.id;
    browser = await launchChromium();
    context = await browser.newContext({viewport: {width: 1280, height: 800}, locale: 'en-US', timezoneId: 'Asia/Tokyo'});
    page = await context.newPage();
    watchConsole(page, consoleErrors, () => /Failed to load resource.*status of (400|401)/);
  });

  after(async () => {
    await browser?.close();
    await stopPitbossd(run);
  });

  it('every view at 1280x800 and 1920x1080: axe-core clean, the top bar on one row, figures legible', async () => {
    const views = ['#/floor', '#/table/T1', `#/round/${ids.round}`, '#/reports', '#/master', '#/statistics', '#/exceptions',
      '#/events', '#/players', `#/players/${ids.player}`, '#/title31', '#/cage'];
    await signInAs(page, base, PEOPLE.pb, password(PEOPLE.pb), '#/floor');
    const found = [];
    for (const size of [{width: 1280, height: 800}, {width: 1920, height: 1080}]) {
      await page.setViewportSize(size);
      for (const v of views) {
        await openView(v);
        const where = `${v} at ${size.width}`;
        for (const x of await axeViolations(page)) found.push(`${where}: ${x}`);
        await assertBarOnOneRow(where);
        if (size.width === 1920) await assertPodium(where);
        if (v === '#/floor' || v === '#/reports') {
          await screenshot(page, path.join(IMG, `page-${v.slice(2)}-${size.width}.png`));
        }
        // README.md's picture: the floor at 1280x800 as the pit boss
        if (v === '#/floor' && size.width === 1280) await screenshot(page, path.join(IMG, 'floor.png'));
      }
    }
    assert.deepEqual(found, [], 'axe-core violations');
    assert.deepEqual(consoleErrors, []);
  });

  it('each role lands where its work is, with only its menus', async () => {
    await page.setViewportSize({width: 1280, height: 800});
    for (const [who, hash] of Object.entries(LANDS)) {
      await signInAs(page, base, PEOPLE[who], password(PEOPLE[who]), '');
      assert.ok(await until(() => new URL(page.url()).hash === hash), `${who} lands at ${page.url()}, not ${hash}`);
      await page.locator('#main h1').first().waitFor();
      assert.deepEqual((await visibleMenus()).sort(), [...MENUS[who]].sort(), `${who}'s menus`);
      assert.doesNotMatch(await page.locator('#main').innerText(), /not allowed to read/, `${who} lands on refusals`);
      // a view of another role's brings him back where his work is
      if (who !== 'pb' && who !== 'surv') {
        await page.evaluate(() => { location.hash = '#/reports'; });
        assert.ok(await until(() => new URL(page.url()).hash === hash), `${who} stays at ${page.url()}`);
      }
      if (who === 'cage') await screenshot(page, path.join(IMG, 'page-cage-landing-1280.png'));
    }
    // a dealer goes to the dealer's page
    await page.locator('#signout').click();
    await page.goto(`${base}/`);
    await page.locator('#signin-form input[name="person"]').fill(PEOPLE.dealer.id);
    await page.locator('#signin-form input[name="password"]').fill(password(PEOPLE.dealer));
    await page.locator('#signin-form input[name="password"]').press('Enter');
    await page.waitForURL(u => u.pathname === '/dealer/');
    // the dealer's session stays his: the pit boss page sends him back to his page until he signs out there
    await page.goto(`${base}/#/floor`);
    await page.waitForURL(u => u.pathname === '/dealer/');
    await page.evaluate(() => sessionStorage.clear());
  });

  it('a browser in Tokyo shows the New York property\u2019s gaming day and asks its reports by it', async () => {
    const day = (await http('GET', '/api/v1/tables')).json.property.gaming_day;
    const tokyoDay = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    assert.notEqual(day, tokyoDay, 'the test needs the two days to differ');
    const asked = [];
    page.on('request', r => { if (r.url().includes('/api/v1/reports/')) asked.push(new URL(r.url())); });
    await page.setViewportSize({width: 1920, height: 1080});
    await signInAs(page, base, PEOPLE.pb, password(PEOPLE.pb), '#/floor');
    await page.locator('#tz', {hasText: `Gaming day ${day}`}).waitFor();
    await page.locator('#main .sub', {hasText: day}).waitFor();
    await openView('#/reports');
    assert.equal(await page.locator('#rep-from').inputValue(), day);
    assert.equal(await page.locator('#rep-to').inputValue(), day);
    await screenshot(page, path.join(IMG, 'page-tokyo-reports-1920.png'));
    assert.ok(asked.length >= 2, 'the floor and the reports asked for reports');
    for (const u of asked) {
      assert.equal(u.searchParams.get('tz_offset'), null, `${u}: the browser's offset sent`);
      assert.equal(u.searchParams.get('from'), day, `${u}: not the property's gaming day`);
    }
    assert.equal(await page.evaluate(() => document.body.innerText.includes('Local time')), false);
  });

  it('a refused change of a one-time password keeps what was typed', async () => {
    const p = PEOPLE.fresh;
    await page.locator('#signout').click();
    await page.goto(`${base}/`);
    await page.locator('#signin-form input[name="person"]').fill(p.id);
    await page.locator('#signin-form input[name="password"]').fill(`${password(p)}-first`);
    await page.locator('#signin-form input[name="password"]').press('Enter');
    await page.locator('#password-form').waitFor();
    // too short: the daemon refuses it (400 weak_password or invalid_password)
    await page.locator('#current').fill(`${password(p)}-first`);
    await page.locator('#new-password').fill('short');
    await page.locator('#confirm-password').fill('short');
    await page.locator('#password-form button[type="submit"]').click();
    await page.locator('#password-message', {hasText: /cannot be used/}).waitFor();
    assert.equal(await page.locator('#current').inputValue(), `${password(p)}-first`);
    assert.equal(await page.locator('#new-password').inputValue(), 'short');
    assert.equal(await page.locator('#confirm-password').inputValue(), 'short');
    // then a good one goes through with the fields as they are
    await page.locator('#new-password').fill(password(p));
    await page.locator('#confirm-password').fill(password(p));
    await page.locator('#password-form button[type="submit"]').click();
    await page.locator('#who', {hasText: p.name}).waitFor();
  });
});
