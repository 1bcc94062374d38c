// The HTML API reference of `schema-gen docs --format html` in a real
// browser: Debian's Chromium, headless, driven by playwright-core, with the
// site opened from file:// as a reader opens it after downloading it.
//
//   node docs_site.mjs --chromium /usr/bin/chromium --node-modules DIR \
//     --site SITE --page argoproj.io/v1alpha1/Workflow.html \
//     --field spec.templates.container.image --search TERM \
//     --screenshot OUT/Workflow.png --index-screenshot OUT/index.png
//
// Checks, on the kind page PAGE (relative to SITE) and the field FIELD:
// - no console error, page error or failed request on any page of the site,
//   and no request leaves file:// (the site is self-contained);
// - every page has `<input type="search" id="search">`, `<ul
//   id="search-results">` and loads `search-index.js` with `<script src>`;
// - every `.field` element has `id` = `data-path`, and `<details>` fields
//   deeper than the second level are closed when the page opens without a
//   fragment;
// - a closed nested `<details>` opens when its `<summary>` is clicked;
// - PAGE#FIELD, opened afresh (also at a phone's width) and followed as an
//   in-page link, opens every `<details>` around FIELD, scrolls it into
//   view, its top not covered (by a sticky header, say), and makes it the
//   `:target`; so does a change of fragment, every `<details>` closed
//   first, for fields sampled across the page;
// - typing TERM into the search box of PAGE and of index.html lists links
//   (relative, to a field); the first one leads to a page whose fragment
//   names a visible field; when FIELD contains TERM, FIELD is among the
//   results;
// - at 375x800 the page has no horizontal overflow, as opened, with FIELD
//   opened, and with every `<details>` opened;
// - index.html links to PAGE, and following the link gets there;
// - full-page screenshots of PAGE (with FIELD opened) and of index.html.
//
// Prints one line per check; exits 1 naming every failed check, 2 when the
// arguments are wrong or the browser cannot be started.

import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const USAGE =
  'usage: node docs_site.mjs --chromium EXE --node-modules DIR --site DIR --page REL.html ' +
  '--field PATH --search TERM --screenshot FILE.png --index-screenshot FILE.png';

/** How long to wait for the page to react (script, layout, scrolling). */
const WAIT_MS = 10_000;
/** At most this many pages are opened to look for console errors. */
const MAX_PAGES = 200;

function parseArgs(argv) {
  const names = [
    'chromium',
    'node-modules',
    'site',
    'page',
    'field',
    'search',
    'screenshot',
    'index-screenshot',
  ];
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    if (!names.includes(name) || i + 1 >= argv.length) {
      throw new Error(`unexpected argument ${argv[i]}\n${USAGE}`);
    }
    args[name] = argv[i + 1];
  }
  const missing = names.filter((n) => !(n in args));
  if (missing.length) {
    throw new Error(`missing --${missing.join(', --')}\n${USAGE}`);
  }
  return args;
}

let args;
let chromium;
try {
  args = parseArgs(process.argv.slice(2));
  // playwright-core from the given node_modules (this script is not inside
  // the npm project that installs it).
  const require = createRequire(path.join(path.resolve(args['node-modules']), 'index.js'));
  ({ chromium } = require('playwright-core'));
  for (const [what, p] of [
    ['--site', args.site],
    ['--page', path.join(args.site, args.page)],
    ['index.html', path.join(args.site, 'index.html')],
  ]) {
    if (!existsSync(p)) throw new Error(`${what}: ${p} does not exist`);
  }
} catch (e) {
  console.error(`docs_site: ${e.message}`);
  process.exit(2);
}

const site = path.resolve(args.site);
const field = args.field;
const term = args.search;
const pageUrl = pathToFileURL(path.join(site, args.page)).href;
const indexUrl = pathToFileURL(path.join(site, 'index.html')).href;

const failures = [];
function ok(what) {
  console.log(`ok: ${what}`);
}
function fail(what) {
  console.log(`FAIL: ${what}`);
  failures.push(what);
}
function check(cond, what, why = '') {
  if (cond) ok(what);
  else fail(why ? `${what}: ${why}` : what);
  return cond;
}

/** The URL relative to the site, for messages. */
function short(url) {
  const root = pathToFileURL(site).href + '/';
  return url.startsWith(root) ? url.slice(root.length) : url;
}

/** The decoded fragment of a link (`page.html#spec.a%5B%5D` is `spec.a[]`). */
function fragmentOf(href) {
  const hash = href.includes('#') ? href.slice(href.indexOf('#') + 1) : '';
  try {
    return decodeURIComponent(hash);
  } catch {
    return hash;
  }
}

/** Every .html file of the site, relative to it, index.html first. */
function htmlFiles() {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.html')) found.push(path.relative(site, p));
    }
  };
  walk(site);
  found.sort((a, b) => (a === 'index.html' ? -1 : b === 'index.html' ? 1 : 0));
  return found;
}

// ---------------------------------------------------------------------------
// In-page probes (run in the browser; plain functions, no closures).

/** The page's contract elements and its fields. */
function probePage() {
  const search = document.getElementById('search');
  const results = document.getElementById('search-results');
  const scripts = [...document.querySelectorAll('script[src]')].map((s) => s.getAttribute('src'));
  const fields = [...document.querySelectorAll('.field')];
  const mismatched = fields
    .filter((f) => !f.id || f.getAttribute('data-path') !== f.id)
    .slice(0, 5)
    .map((f) => `<${f.tagName.toLowerCase()} id="${f.id}" data-path="${f.getAttribute('data-path')}">`);
  const depth = (el) => {
    let n = 0;
    for (let p = el; p; p = p.parentElement) if (p.matches('details.field')) n++;
    return n;
  };
  const openDeep = fields
    .filter((f) => f.tagName === 'DETAILS' && f.open && depth(f) > 2)
    .slice(0, 5)
    .map((f) => f.id);
  return {
    search: search ? `${search.tagName.toLowerCase()}[type=${search.getAttribute('type')}]` : null,
    results: results ? results.tagName.toLowerCase() : null,
    indexScript: scripts.some((s) => /(^|\/)search-index\.js$/.test(s)),
    fields: fields.length,
    details: fields.filter((f) => f.tagName === 'DETAILS').length,
    mismatched,
    openDeep,
  };
}

/** Where the element with id `id` stands: its visibility and why not. */
function probeTarget(id) {
  const el = document.getElementById(id);
  if (!el) return { exists: false };
  const closed = [];
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (p.tagName === 'DETAILS' && !p.open) closed.push(p.id || p.tagName.toLowerCase());
  }
  const rect = el.getBoundingClientRect();
  let hash = location.hash.slice(1);
  try {
    hash = decodeURIComponent(hash);
  } catch {
    // a fragment that is not valid percent-encoding is compared as it is
  }
  const visible = el.checkVisibility() && rect.width > 0 && rect.height > 0;
  const inView = rect.top >= 0 && rect.top < window.innerHeight;
  return {
    exists: true,
    dataPath: el.getAttribute('data-path'),
    closedAncestors: closed,
    visible,
    inView,
    // (only asked of a field the reader could see there)
    cover: visible && inView ? coverOf(el) : null,
    top: Math.round(rect.top),
    target: el.matches(':target'),
    hash,
  };
}

/** What covers the top of `el` where a reader looks for it (a sticky
 * header, say), or null when `el` itself is seen there. */
function coverOf(el) {
  const r = el.getBoundingClientRect();
  const at = document.elementFromPoint(r.left + Math.min(8, r.width / 2), r.top + 4);
  if (!at || el.contains(at)) return null;
  const classes = typeof at.className === 'string' ? at.className.trim().split(/\s+/).filter(Boolean) : [];
  return at.tagName.toLowerCase() + (at.id ? `#${at.id}` : '') + classes.map((c) => `.${c}`).join('');
}

/** Whether the element with id `id` is the :target, visible, scrolled
 * into view and not covered. */
function isLanded(id) {
  const el = document.getElementById(id);
  if (!el || !el.matches(':target') || !el.checkVisibility()) return false;
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.top < window.innerHeight && coverOf(el) === null;
}

/** Page script calling `fn(arg)`, with the in-page helpers it may call
 * (a function passed to the page carries no other code with it). */
function script(fn, arg) {
  return `(() => {\n${coverOf}\n${isLanded}\nreturn (${fn})(${JSON.stringify(arg)});\n})()`;
}

/** Horizontal overflow of the document, and the innermost elements that
 * stick out past its right edge or overflow themselves. */
function probeOverflow() {
  const doc = document.documentElement;
  const width = doc.clientWidth;
  const culprits = [];
  if (doc.scrollWidth > width) {
    const wide = [];
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const spills = el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible';
      if (r.right > width + 1 || spills) wide.push(el);
    }
    // innermost: no later (so no descendant) element in the list inside it
    const innermost = wide.filter((el, i) => !(wide[i + 1] && el.contains(wide[i + 1])));
    for (const el of innermost.slice(0, 5)) {
      const r = el.getBoundingClientRect();
      const name =
        el.tagName.toLowerCase() +
        (el.id ? `#${el.id}` : '') +
        (typeof el.className === 'string' && el.className.trim()
          ? `.${el.className.trim().split(/\s+/).join('.')}`
          : '');
      const words = (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 60);
      const box = `${Math.round(r.left)}..${Math.round(r.right)}px, content ${el.scrollWidth}px`;
      culprits.push(`${name} (${box}) "${words}"`);
    }
  }
  return { scrollWidth: doc.scrollWidth, clientWidth: width, culprits };
}

// ---------------------------------------------------------------------------

async function main() {
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: args.chromium,
      headless: true,
      // CI runs as root, where Chromium's sandbox cannot start.
      args: ['--no-sandbox'],
      timeout: 60_000,
    });
  } catch (e) {
    console.error(`docs_site: cannot start ${args.chromium}: ${e.message}`);
    process.exit(2);
  }
  console.log(`browser: ${args.chromium} ${browser.version()}`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(WAIT_MS);

  // Everything that goes wrong in any page, with the page it happened on.
  const problems = [];
  const external = [];
  await context.route(/^(?!file:|data:|blob:|about:)/, (route) => {
    external.push(route.request().url());
    return route.abort('blockedbyclient');
  });
  const watch = (page) => {
    const where = () => short(page.url().split('#')[0]);
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error on ${where()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error on ${where()}: ${e.message}`));
    page.on('requestfailed', (r) =>
      problems.push(`failed request from ${where()}: ${short(r.url())} (${r.failure()?.errorText})`),
    );
    page.on('crash', () => problems.push(`page crashed: ${where()}`));
  };
  context.on('page', watch);
  /** Fails with every problem reported since the last call (each problem
   * once in the run: the same page is opened several times). */
  const reported = new Set();
  const noProblems = (what) => {
    const seen = [...new Set(problems.splice(0))].filter((p) => !reported.has(p));
    for (const p of seen) reported.add(p);
    check(seen.length === 0, `${what}: no console error, page error or failed request`, seen.join('; '));
  };

  const page = await context.newPage();
  /** Opens `url` as a new document (never a fragment change of the current
   * one) and waits for its load event. */
  const open = async (url) => {
    await page.goto('about:blank');
    await page.goto(url, { waitUntil: 'load' });
  };
  const target = (id) => page.evaluate(script(probeTarget, id));
  /** Runs one group of checks; a group that throws (a time-out, say) is
   * one failure, and the next group still runs. */
  const step = async (what, run) => {
    try {
      await run();
    } catch (e) {
      fail(`${what}: ${e.message.split('\n')[0]}`);
    }
  };
  /** Waits until FIELD is the visible, in-view :target, or says why not. */
  const landed = async (id, what) => {
    try {
      await page.waitForFunction(script(isLanded, id), null, { timeout: WAIT_MS });
    } catch {
      // reported below, from the probe
    }
    const t = await target(id);
    if (!check(t.exists, `${what}: #${id} exists`, `no such element on ${short(page.url())}`)) return;
    check(t.dataPath === id, `${what}: data-path of #${id}`, `data-path="${t.dataPath}"`);
    check(t.hash === id, `${what}: the fragment is #${id}`, `location.hash is #${t.hash}`);
    check(t.target, `${what}: #${id} is the :target`);
    check(
      t.closedAncestors.length === 0 && t.visible,
      `${what}: #${id} is visible`,
      t.closedAncestors.length
        ? `closed <details> around it: ${t.closedAncestors.join(', ')}`
        : 'it has no box or is hidden',
    );
    const { width, height } = page.viewportSize();
    const where = `its top at ${t.top}px of a ${width}x${height} viewport`;
    check(t.inView, `${what}: #${id} is scrolled into view`, where);
    check(!t.cover, `${what}: the top of #${id} is not covered`, `${t.cover} covers it (${where})`);
  };

  // 1. Every page: loads cleanly, carries the search box and index script,
  // and its fields are named by their paths.
  await step('every page', async () => {
    const pages = htmlFiles();
    check(pages.includes(args.page), `the site has ${args.page}`, `pages: ${pages.slice(0, 20).join(', ')}`);
    if (pages.length > MAX_PAGES) console.log(`note: ${pages.length} pages; the first ${MAX_PAGES} are opened`);
    for (const rel of pages.slice(0, MAX_PAGES)) {
      await open(pathToFileURL(path.join(site, rel)).href);
      const p = await page.evaluate(probePage);
      check(p.search === 'input[type=search]', `${rel}: <input type="search" id="search">`, `found ${p.search}`);
      check(p.results === 'ul', `${rel}: <ul id="search-results">`, `found ${p.results}`);
      check(p.indexScript, `${rel}: loads search-index.js with <script src>`);
      if (rel !== 'index.html') {
        check(p.fields > 0, `${rel}: has fields (${p.fields}, ${p.details} <details>)`);
      }
      check(p.mismatched.length === 0, `${rel}: every .field has id = data-path`, p.mismatched.join(' '));
      const openDeep = `open: ${p.openDeep.join(', ')}`;
      check(p.openDeep.length === 0, `${rel}: <details> below the second level are closed`, openDeep);
      noProblems(rel);
    }
  });

  // 2. A closed nested <details> opens when its summary is clicked: the
  // closest closed one around FIELD, else any closed one in view of the
  // reader; on a page with none, an open one closes and opens again.
  await step('opening a <details> from its summary', async () => {
    await open(pageUrl);
    const toggle = await page.evaluate((id) => {
      const el = document.getElementById(id);
      const visible = (d) => d.querySelector(':scope > summary')?.checkVisibility();
      const around = [];
      for (let p = el?.parentElement; p; p = p.parentElement) if (p.matches('details.field')) around.unshift(p);
      const closed =
        around.find((d) => !d.open && visible(d)) ??
        [...document.querySelectorAll('details.field')].find((d) => !d.open && visible(d));
      if (closed) return { id: closed.id, open: false };
      const open = [...document.querySelectorAll('details.field')].find((d) => d.open && visible(d));
      return open ? { id: open.id, open: true } : null;
    }, field);
    if (check(toggle !== null, `${args.page}: has a <details class="field"> with a visible <summary>`)) {
      const summary = (await page.evaluateHandle(
        (id) => document.getElementById(id).querySelector(':scope > summary'),
        toggle.id,
      )).asElement();
      const isOpen = () => page.evaluate((id) => document.getElementById(id).open, toggle.id);
      const childVisible = () =>
        page.evaluate((id) => {
          const d = document.getElementById(id);
          const inner = [...d.children].find((c) => c.tagName !== 'SUMMARY');
          return inner ? inner.checkVisibility() : null;
        }, toggle.id);
      if (toggle.open) {
        console.log(`note: no closed <details> in view on ${args.page}; closing and opening #${toggle.id}`);
        await summary.click();
        check(!(await isOpen()), `clicking the summary of the open #${toggle.id} closes it`);
      }
      await summary.click();
      check(await isOpen(), `clicking the summary of the closed #${toggle.id} opens it`);
      const inner = await childVisible();
      check(inner !== false, `the content of #${toggle.id} is visible once opened`);
    }
    noProblems('opening a <details>');
  });

  // 3. The field's anchor: PAGE#FIELD opened afresh, then followed as a link
  // from the same page (a hash change, no load).
  await step('the field by its fragment', async () => {
    await open(`${pageUrl}#${field}`);
    await landed(field, `opening ${args.page}#${field}`);
    noProblems(`opening ${args.page}#${field}`);

    await open(pageUrl);
    const before = await target(field);
    if (before.exists && before.closedAncestors.length === 0) {
      console.log(`note: #${field} is not inside a closed <details> when the page opens`);
    }
    await page.evaluate((id) => {
      const a = document.createElement('a');
      a.id = 'docs-site-test-link';
      a.href = `#${id}`;
      a.textContent = 'test link';
      document.body.prepend(a);
    }, field);
    await page.click('#docs-site-test-link');
    await landed(field, `following a link to #${field}`);
    noProblems(`following a link to #${field}`);
  });

  // Fields across the whole page (every twentieth, the deepest, the first
  // with a quoted name or a map's values in its path), each reached by a
  // change of fragment with every <details> closed first.
  await step('fields across the page by their fragment', async () => {
    const sample = await page.evaluate(() => {
      const fields = [...document.querySelectorAll('.field[id]')];
      const depth = (el) => {
        let n = 0;
        for (let p = el; p; p = p.parentElement) if (p.tagName === 'DETAILS') n++;
        return n;
      };
      const pick = new Set();
      const step = Math.max(1, Math.floor(fields.length / 20));
      for (let i = 0; i < fields.length; i += step) pick.add(fields[i].id);
      if (fields.length) pick.add(fields.reduce((a, b) => (depth(b) > depth(a) ? b : a)).id);
      const odd = fields.find((f) => /["{]/.test(f.id));
      if (odd) pick.add(odd.id);
      return [...pick];
    });
    const unreached = [];
    for (const id of sample) {
      await page.evaluate((i) => {
        for (const d of document.querySelectorAll('details')) d.open = false;
        location.hash = encodeURIComponent(i);
      }, id);
      const reached = await page
        .waitForFunction(script(isLanded, id), null, { timeout: 3000 })
        .then(() => true)
        .catch(() => false);
      if (!reached) {
        const t = await target(id);
        const why = !t.exists
          ? 'missing'
          : !t.target
            ? 'not the :target'
            : t.closedAncestors.length
              ? `closed: ${t.closedAncestors.join(', ')}`
              : !t.visible
                ? 'hidden'
                : t.cover
                  ? `covered by ${t.cover}`
                  : `top at ${t.top}px`;
        unreached.push(`#${id} (${why})`);
      }
    }
    check(
      unreached.length === 0,
      `${sample.length} fields across ${args.page} are opened and scrolled to by their fragment`,
      unreached.join('; '),
    );
    noProblems('fields by fragment');
  });

  // 4. Search, on the kind page (a result on the same page is a change of
  // fragment) and on index.html (a result is another page): typed, listed,
  // followed.
  await step('search', async () => {
    for (const [url, from] of [
      [pageUrl, args.page],
      [indexUrl, 'index.html'],
    ]) {
      await open(url);
      await page.locator('#search').pressSequentially(term);
      let hrefs = [];
      try {
        await page.waitForSelector('#search-results a', { timeout: WAIT_MS });
        hrefs = await page.$$eval('#search-results li > a', (as) => as.map((a) => a.getAttribute('href')));
      } catch {
        // reported next
      }
      if (!check(hrefs.length > 0, `${from}: typing "${term}" lists results in #search-results as <li><a>`)) {
        continue;
      }
      console.log(`${from}: ${hrefs.length} search results, first: ${hrefs.slice(0, 3).join(' ')}`);
      const bad = hrefs.filter((h) => !h || /^[a-z][a-z0-9+.-]*:|^\/|^#?$/i.test(h) || !h.includes('#'));
      const badOnes = `bad: ${bad.slice(0, 5).join(' ')}`;
      check(bad.length === 0, `${from}: every result links to page.html#field, relatively`, badOnes);
      if (field.toLowerCase().includes(term.toLowerCase())) {
        check(
          hrefs.some((h) => fragmentOf(h) === field),
          `${from}: the results of "${term}" include #${field}`,
        );
      }
      const first = await page.$('#search-results li > a');
      const expected = new URL(await first.evaluate((a) => a.href));
      const id = fragmentOf(expected.href);
      await first.click();
      try {
        await page.waitForURL((u) => u.href === expected.href, { timeout: WAIT_MS });
      } catch {
        // reported next
      }
      const at = page.url();
      const to = short(expected.href);
      if (check(at === expected.href, `${from}: the first result leads to ${to}`, `at ${short(at)}`)) {
        await page.waitForLoadState('load');
        await landed(id, `${from}: following the first search result`);
      }
    }
    noProblems('search');
  });

  // 5. A phone's width: no horizontal overflow as opened, with FIELD
  // opened (and FIELD in view), and with every <details> opened.
  await step("a phone's width", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    const overflow = async (what) => {
      const o = await page.evaluate(probeOverflow);
      check(
        o.scrollWidth <= o.clientWidth,
        `375x800, ${what}: no horizontal overflow`,
        `scrollWidth ${o.scrollWidth} > clientWidth ${o.clientWidth}; sticking out: ${o.culprits.join('; ')}`,
      );
    };
    for (const [url, what] of [
      [indexUrl, 'index.html'],
      [pageUrl, args.page],
      [`${pageUrl}#${field}`, `${args.page}#${field}`],
    ]) {
      await open(url);
      await overflow(what);
    }
    // (the page is at PAGE#FIELD) the field as a phone's reader gets there
    await landed(field, `375x800, opening ${args.page}#${field}`);
    await page.evaluate(() => {
      for (const d of document.querySelectorAll('details')) d.open = true;
    });
    await overflow(`${args.page} with every <details> open`);
    noProblems('375x800');
  });

  // 6. The index links to the page, and the link gets there.
  await step('the index', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(indexUrl);
    const link = await page.evaluateHandle((want) => {
      return [...document.querySelectorAll('a[href]')].find((a) => a.href.split('#')[0] === want) ?? null;
    }, pageUrl);
    if (check(link.asElement() !== null, `index.html links to ${args.page}`)) {
      await link.asElement().click();
      await page.waitForLoadState('load');
      const at = page.url();
      check(at.split('#')[0] === pageUrl, `the link on index.html opens ${args.page}`, `at ${short(at)}`);
    }
    noProblems('index.html');
  });

  // 7. Screenshots.
  await step('screenshots', async () => {
    for (const [url, file] of [
      [`${pageUrl}#${field}`, args.screenshot],
      [indexUrl, args['index-screenshot']],
    ]) {
      mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      await open(url);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`screenshot: ${file}`);
    }
    noProblems('screenshots');
  });

  check(external.length === 0, 'no request leaves file://', [...new Set(external)].slice(0, 5).join(' '));
  await browser.close();
}

try {
  await main();
} catch (e) {
  fail(`unexpected: ${e.stack || e.message}`);
}
if (failures.length) {
  console.error(`docs_site: ${failures.length} check(s) failed:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('docs_site: all checks passed');
process.exit(0);
