// dashboard.mjs — drives the dashboard in headless Chromium (playwright-core,
// Debian's /usr/bin/chromium) against a real xcbenchd, and prints TAP lines.
// Started by tests/t-web-dashboard.sh, which owns the daemon and the frames.
//
// Environment (all set by the shell script):
//   XCB_BASE      http://127.0.0.1:PORT/   the daemon
//   XCB_OUT       directory for screenshots, downloads, the browser profile
//   XCB_TOKEN     the daemon's admin token (label editing goes through the prompt)
//   XCB_FILL      shell command: store the runs through the protocol —
//                 A, B, C by host/tools/xcb-gen (same cases; B 30 % faster than A,
//                 C within noise of A), R by tests/web/frames.py (a payload-like
//                 run: raw-IPI floor, TLB, unfair locked initiators), and the
//                 first part of L (frames.py, left running)
//   XCB_LIVE_MORE shell command: send the rest of run L (its last cases and DONE)
//   XCB_RUN_A … XCB_RUN_L  run tokens of those runs (16 hex digits); R's is in
//                 the file XCB_RUN_R_FILE once XCB_FILL ran (/boot.ipxe makes it)
//
// Every check compares what the page drew (window.xcbCharts, the DOM) with
// what the API says, never with numbers written here.

import { createRequire } from 'node:module';
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(ROOT, 'web/package.json'));
const { chromium } = require('playwright-core');

const BASE = process.env.XCB_BASE;
const OUT = process.env.XCB_OUT;
const TOKEN = process.env.XCB_TOKEN || '';

let failed = 0;
const ok = (cond, name, diag) => {
	if (cond) console.log(`ok - ${name}`);
	else {
		failed++;
		console.log(`not ok - ${name}`);
		if (diag !== undefined) console.log(`# ${String(typeof diag === 'string' ? diag : JSON.stringify(diag)).split('\n').join('\n# ')}`);
	}
	return cond;
};
const diag = (m) => console.log(`# ${m}`);

async function api(p) {
	const r = await fetch(new URL(`api/v1/${p}`, BASE));
	if (!r.ok) throw new Error(`GET ${p}: HTTP ${r.status}`);
	return r.json();
}
async function apiText(p) {
	const r = await fetch(new URL(`api/v1/${p}`, BASE));
	if (!r.ok) throw new Error(`GET ${p}: HTTP ${r.status}`);
	return r.text();
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// The run page's lock table says what each profile counts in the words of
// `xcbench show RUN` (XCB_CLI): each row's counts cell is in show's lock
// profile line of its case. The page said nothing of it (show: "warm-up
// included", "... and the no-flush control ...", "timed").
async function lockCountsAsShow(id, what) {
	const lines = new Map();
	let cs = null;
	for (const l of execSync(`'${process.env.XCB_CLI}' --server '${BASE}' show ${id}`).toString().split('\n')) {
		const m = /^ {0,4}(\d+) /.exec(l);
		if (m) cs = Number(m[1]);
		else if (cs !== null && / lock profile /.test(l)) lines.set(cs, l);
	}
	const rows = await page.$$eval('#locks tbody tr', (t) => t.map((r) => ({ id: Number(r.dataset.case), counts: r.querySelector('td[data-counts]')?.dataset.counts })));
	const words = new Set(rows.map((r) => r.counts));
	ok(rows.length === lines.size && rows.every((r) => r.counts && (lines.get(r.id) || '').includes(r.counts)),
		`${what}: each lock profile row says what it counts as xcbench show does (${[...words].join('; ')})`, rows.slice(0, 4));
}
async function until(what, fn, ms = 20000) {
	const t0 = Date.now();
	for (;;) {
		const v = await fn();
		if (v) return v;
		if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
		await sleep(150);
	}
}
// Run tokens are for admins only (the daemon's admin token), as in the API.
async function apiAdmin(p) {
	const r = await fetch(new URL(`api/v1/${p}`, BASE), { headers: { Authorization: `Bearer ${process.env.XCB_TOKEN}` } });
	if (!r.ok) throw new Error(`GET ${p}: HTTP ${r.status}`);
	return r.json();
}
const runByToken = async (tok) => (await apiAdmin('runs?limit=1000')).runs.find((r) => r.token === tok);

// ---- browser ----------------------------------------------------------------

const profile = fs.mkdtempSync(path.join(OUT, 'chromium-profile-'));
const ctx = await chromium.launchPersistentContext(profile, {
	executablePath: '/usr/bin/chromium',
	headless: true,
	acceptDownloads: true,
	viewport: { width: 1366, height: 900 },
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
		'--disable-component-update', '--disable-sync'],
});
const consoleErrors = [];
// A 404 we asked for on purpose (the "no such run" page) is not an error of the page.
const expected404 = [];
function watch(page) {
	page.on('console', (m) => {
		if (m.type() !== 'error') return;
		const url = m.location()?.url || '';
		if (/Failed to load resource.*404/.test(m.text()) && expected404.some((e) => url.includes(e))) return;
		consoleErrors.push(`${page.url()}: ${m.text()} ${url}`);
	});
	page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: uncaught ${e.message}`));
	return page;
}
const page = watch(ctx.pages()[0] || (await ctx.newPage()));
// A figure of cycles as the run page shows it: ns at the run's TSC rate.
const nsOfRun = (run, cyc) => page.evaluate(async (v) => (await import('./js/format.js')).ns(v), (cyc * 1e6) / run.tsc_khz);
const url = (p) => new URL(p, BASE).toString();
const charts = (pg) => pg.evaluate(() => Object.fromEntries(Object.entries(window.xcbCharts || {}).map(([id, c]) => [id, {
	xcb: c.$xcb || null,
	type: c.config.type,
	yType: c.options.scales?.y?.type,
	datasets: c.data.datasets.map((d, i) => ({
		label: d.label, role: d.xcbRole, inits: d.xcbInits ?? null,
		data: d.data.map((p) => (p && typeof p === 'object' ? { x: p.x, y: p.y, v: p.v, sig: p.sig } : p)),
		colors: c.getDatasetMeta(i).data.map((el) => el.options?.backgroundColor ?? null),
	})),
}])));

let finished = false;
try {
	await main();
	finished = true;
} catch (e) {
	ok(false, `browser test ran to the end`, e.stack || String(e));
} finally {
	await ctx.close().catch(() => {});
	fs.rmSync(profile, { recursive: true, force: true });
}
if (finished) ok(consoleErrors.length === 0, 'no console errors on any page', consoleErrors.join('\n'));
process.exit(failed ? 1 : 0);

async function main() {
	// ---- empty database: the runs page says what to do -------------------
	await page.goto(url('/'));
	await page.waitForSelector('[data-state]');
	const emptyText = await page.textContent('[data-state]');
	ok(/No runs yet/.test(emptyText) && /make run/.test(emptyText), 'runs page: empty state says how to get runs', emptyText);
	// The compare page with no run stored says so once: it went on
	// "Choose two runs above." with nothing above.
	await page.goto(url('compare.html'));
	await page.waitForFunction(() => document.body.dataset.ready === '1');
	const emptyCompare = await page.textContent('#main');
	ok(/No runs to compare yet/.test(emptyCompare) && !/above/.test(emptyCompare) && (await page.$$('[data-state]')).length === 1,
		'compare page: no run stored: one empty state, nothing pointing "above"', emptyCompare);

	// ---- store runs through the protocol ----------------------------------
	execSync(process.env.XCB_FILL, { stdio: ['ignore', 'inherit', 'inherit'], shell: '/bin/bash' });
	process.env.XCB_RUN_R = fs.readFileSync(process.env.XCB_RUN_R_FILE, 'utf8').trim();
	const stored = (name, status) => until(`run ${name} ${status}`, async () => {
		const r = await runByToken(process.env[`XCB_RUN_${name}`]);
		return r && r.status === status && r;
	});
	const [A, B, C, R, L] = [await stored('A', 'complete'), await stored('B', 'complete'), await stored('C', 'complete'),
		await stored('R', 'complete'), await stored('L', 'running')];
	const S = await stored('S', 'complete');
	diag(`runs: A=#${A.id} B=#${B.id} C=#${C.id} R=#${R.id} live=#${L.id} sync=#${S.id}`);

	await runsPage(R, B, L);
	await emptySegment(R);
	await runPage(R);
	await jumpLinks(R);
	await jumpLinks(A);
	await syncPage(S);
	await samplesLink(A);
	const seen = new Set();
	await comparePage(A, B, seen, true);
	await comparePage(B, A, seen, false);
	await comparePage(A, C, seen, false);
	await comparePage(S, S, seen, false); // the sync fixture's cases: 17 axis columns
	await algoCompare(R, seen);
	ok(['green', 'red', 'grey'].every((c) => seen.has(c)), 'compare: faster (green), slower (red) and within-noise (grey) cells all seen', [...seen]);
	await livePage(L, R);
	await errorStates();
	await noScriptPages();
}

async function runsPage(A, B, L) {
	const list = await api('runs?limit=1000');
	await page.goto(url('/'));
	await page.waitForSelector('#runs tbody tr');
	await until('the runs page says it is drawn (body[data-ready], as every page)', () => page.evaluate(() => document.body.dataset.ready === '1'));
	await until('details of every row', () => page.evaluate(() => [...document.querySelectorAll('#runs td[data-col=cpu]')].every((td) => !td.textContent.includes('…'))));
	const ids = await page.$$eval('#runs tbody tr', (trs) => trs.map((t) => Number(t.dataset.run)));
	ok(ids.length === list.total && list.runs.every((r) => ids.includes(r.id)), `runs page: one row per run (${list.total})`, { ids, api: list.runs.map((r) => r.id) });
	const rowA = await page.$eval(`#runs tr[data-run="${A.id}"]`, (tr) => Object.fromEntries([...tr.querySelectorAll('td[data-col]')].map((td) => [td.dataset.col, td.textContent.trim()])));
	const dA = await api(`runs/${A.id}`);
	ok(rowA.cpu === dA.facts.brand && Number(rowA.cpus) === A.cpus && rowA.suite === A.suite && rowA.status.startsWith(A.status) &&
		rowA.hv === 'KVM' && rowA.machine === (A.machine ? A.machine.mac : 'direct'),
	'runs page: row shows machine, CPU model, CPUs, hypervisor, suite and status from the API', { rowA, facts: dA.facts, machine: A.machine });
	ok(A.machine && A.machine.mac === '52:54:00:0e:b0:01', 'runs page: the iPXE-booted run is listed under its MAC', A.machine);
	const rowB = await page.$eval(`#runs tr[data-run="${B.id}"] td[data-col=cpu]`, (td) => td.textContent);
	ok(rowB === (await api(`runs/${B.id}`)).facts.brand, 'runs page: a directly booted run shows its own HELLO facts', rowB);
	const dL = await api(`runs/${L.id}`);
	const barL = await page.$eval(`#runs tr[data-run="${L.id}"] [role=progressbar]`, (e) => [Number(e.getAttribute('aria-valuenow')), Number(e.getAttribute('aria-valuemax'))]).catch(() => null);
	ok(barL && barL[0] === dL.cases.filter((c) => c.stats && c.stats.count > 0).length && barL[1] === dA.cases.length,
		'runs page: a running run shows its progress (cases done / planned)', { barL });
	const hrefs = await page.$$eval('#runs a.csv-link', (as) => as.map((a) => a.getAttribute('href')));
	ok(hrefs.length === ids.length && ids.every((id, i) => hrefs[i] === `api/v1/runs/${id}.csv`), 'runs page: a CSV link per row', hrefs);

	// Sorting: by run id ascending, then descending.
	await page.click('th[data-sort=id]');
	let order = await page.$$eval('#runs tbody tr', (trs) => trs.map((t) => Number(t.dataset.run)));
	const desc = [...ids].sort((a, b) => b - a);
	ok(JSON.stringify(order) === JSON.stringify(desc), 'runs page: sort by run (descending)', order);
	await page.click('th[data-sort=id]');
	order = await page.$$eval('#runs tbody tr', (trs) => trs.map((t) => Number(t.dataset.run)));
	ok(JSON.stringify(order) === JSON.stringify([...desc].reverse()), 'runs page: sort by run (ascending), kept in the URL', order);
	ok(new URL(page.url()).searchParams.get('dir') === 'asc', 'runs page: sort order is bookmarkable', page.url());

	// Filter by status (server-side) and by text (client-side).
	const complete = (await api('runs?status=complete&limit=1000')).runs.map((r) => r.id).sort();
	await page.selectOption('#f-status', 'complete');
	await until('filtered rows', async () => (await page.$$('#runs tbody tr')).length > 0 && (await page.$$('#runs tbody tr:not([data-status=complete])')).length === 0);
	const shown = (await page.$$eval('#runs tbody tr', (trs) => trs.map((t) => Number(t.dataset.run)))).sort();
	ok(JSON.stringify(shown) === JSON.stringify(complete), 'runs page: status filter shows exactly the API\'s complete runs', { shown, complete });
	await page.fill('#f-q', 'no-such-machine-xyz');
	await page.waitForSelector('[data-state=empty]', { timeout: 10000 }).catch(() => {});
	ok(await page.isVisible('[data-state=empty]'), 'runs page: a search with no match says so');
	// The search is the daemon's (issue 25): the pager counts what it found
	// and the CSV link carries it.
	await page.fill('#f-q', 'baseline');
	await until('searched rows', async () => (await page.$$('#runs tbody tr')).length > 0);
	const found = (await api('runs?status=complete&q=baseline&limit=1000'));
	const pager = await page.textContent('#pager');
	const csvHref = await page.getAttribute('#runs-csv', 'href');
	ok(pager.includes(`of ${found.total}`) && (await page.$$('#runs tbody tr')).length === found.runs.length && /[?&]q=baseline/.test(csvHref),
		'runs page: the search is server-side (pager total and CSV link follow it)', { pager, total: found.total, csvHref });
	await page.goto(url('/'));
	await page.waitForSelector('#runs tbody tr');

	// Label editing: the daemon needs its token; the page asks once, then PATCHes.
	const label = `web test ${Date.now() % 100000}`;
	page.once('dialog', (d) => d.accept(TOKEN));
	await page.click(`#runs tr[data-run="${B.id}"] button.edit-label`);
	await page.fill(`#runs tr[data-run="${B.id}"] .label-edit input`, label);
	await page.press(`#runs tr[data-run="${B.id}"] .label-edit input`, 'Enter');
	await until('label saved', async () => (await api(`runs/${B.id}`)).run.label === label).catch(() => false);
	const got = (await api(`runs/${B.id}`)).run.label;
	ok(got === label, 'runs page: label edit is stored (PATCH with the token)', { got, label });
	await page.waitForSelector(`#runs tr[data-run="${B.id}"] .run-label`);
	ok((await page.textContent(`#runs tr[data-run="${B.id}"] .run-label`)) === label, 'runs page: edited label shown');
	await page.screenshot({ path: path.join(OUT, 'web-runs.png'), fullPage: true });

	// Pick two -> compare.
	await page.check(`#runs tr[data-run="${B.id}"] input.pick`);
	ok(await page.isDisabled('#compare-btn'), 'runs page: compare needs two runs');
	await page.check(`#runs tr[data-run="${A.id}"] input.pick`);
	await Promise.all([page.waitForURL(/compare\.html/), page.click('#compare-btn')]);
	const q = new URL(page.url()).searchParams;
	ok(q.get('a') === String(Math.min(A.id, B.id)) && q.get('b') === String(Math.max(A.id, B.id)), 'runs page: pick two → compare.html?a=older&b=newer', page.url());
}

// An address with an empty segment ("http://host//", "//run.html?id=N"):
// the daemon serves the page, and the page's API calls and links go to the
// root's /api/v1 (they went to "//api/v1/runs": "not found", page in error).
async function emptySegment(A) {
	const total = (await api('runs?limit=1000')).total;
	const twice = (p) => `${BASE.replace(/\/+$/, '')}//${p}`;
	await page.goto(twice(''));
	await page.waitForFunction(() => document.body.dataset.ready === '1' || document.querySelector('[data-state=error]'));
	const rows = (await page.$$('#runs tbody tr')).length;
	const err = await page.$('[data-state=error]');
	ok(rows === total && !err && new URL(page.url()).pathname === '/',
		'runs page at "//": every run listed, no error, the address without the empty segment', { rows, total, err: err && (await err.textContent()), url: page.url() });
	await page.goto(twice(`run.html?id=${A.id}`));
	await page.waitForFunction(() => (window.xcbRun && window.xcbRun.ready) || document.querySelector('[data-state=error]'));
	const csv = await page.$eval('#run-csv', (a) => a.href).catch(() => null);
	const r = csv ? await fetch(csv) : { ok: false, status: null };
	ok(!(await page.$('[data-state=error]')) && (await page.textContent('h1')) === `Run #${A.id}` && r.ok,
		`run page at "//run.html?id=${A.id}": drawn, its CSV link answers (${csv})`, { url: page.url(), csv, status: r.status });
}

// The page's axis toolbar (delivery, wait, flush…): one chosen value per axis.
function chosenAxes(pg) {
	return pg.$$eval('#axes select[data-axis]', (ss) => Object.fromEntries(ss.map((s) => [s.dataset.axis, s.value])));
}

// Groups the API's cases the way a reviewer reads them, computed here
// independently of the page: the cases that have the chosen value of every
// toolbar axis (or lack that axis), one chart per setting of every other axis
// but inits and mask.
function groupsOf(cases, chosen) {
	const drop = new Set(['id', 'inits', 'mask', 'iters', 'reps', 'seed']);
	const g = new Map();
	for (const c of cases) {
		if (c.kind === 'raw' || c.mask === null || !(c.stats && c.stats.count > 0)) continue;
		if (Object.entries(chosen).some(([k, v]) => k in c.config && c.config[k] !== v)) continue;
		const key = JSON.stringify(Object.entries(c.config).filter(([k]) => !drop.has(k) && !k.startsWith('x_')).sort());
		if (!g.has(key)) g.set(key, []);
		g.get(key).push(c);
	}
	return [...g.values()];
}

async function checkLatency(d, chosen, what) {
	const ch = await charts(page);
	const lat = Object.values(ch).filter((c) => c.xcb && c.xcb.key !== undefined);
	const groups = groupsOf(d.cases, chosen);
	ok(lat.length === groups.length && groups.length > 0, `run page (${what}): one latency chart per algorithm (${groups.length})`, { charts: lat.length, groups: groups.length });
	const k = 1e6 / d.run.tsc_khz;
	const raw = d.cases.filter((c) => c.kind === 'raw' && c.stats);
	let seriesOk = true, pointsOk = true, valuesOk = true, floorOk = true, bandOk = true, p10Ok = true;
	const why = [];
	for (const g of groups) {
		const c0 = g[0];
		const chart = lat.find((c) => c.xcb.fixed.algo === (c0.algo ?? undefined) && c.xcb.fixed.kind === c0.kind &&
			Object.entries(c0.config).every(([key, v]) => ['id', 'inits', 'mask', 'iters', 'reps', 'seed'].includes(key) || String(c.xcb.fixed[key]) === String(v)));
		if (!chart) { seriesOk = false; why.push(`no chart for ${JSON.stringify(c0.config)}`); continue; }
		const inits = [...new Set(g.map((c) => c.inits))].sort((a, b) => a - b);
		const p50 = chart.datasets.filter((s) => s.role === 'p50');
		if (JSON.stringify(p50.map((s) => s.inits)) !== JSON.stringify(inits)) { seriesOk = false; why.push({ inits, got: p50.map((s) => s.inits) }); }
		for (const s of p50) {
			const cs = g.filter((c) => c.inits === s.inits).sort((a, b) => a.mask - b.mask);
			if (s.data.length !== cs.length) { pointsOk = false; why.push({ inits: s.inits, points: s.data.length, cases: cs.length }); continue; }
			cs.forEach((c, i) => {
				if (s.data[i].x !== String(c.mask) || Math.abs(s.data[i].y - c.stats.p50 * k) > 1e-6 * c.stats.p50 * k) { valuesOk = false; why.push({ c: c.case_id, got: s.data[i], want: c.stats.p50 * k }); }
			});
		}
		const bands = chart.datasets.filter((s) => s.role === 'band');
		if (bands.length !== 2 * p50.length) { bandOk = false; why.push({ bands: bands.length }); }
		// The band's lower edge is the daemon's STATS.p10 (from the histograms), not a guess.
		for (const s of p50) {
			const lo = bands.find((b) => b.label === `${s.label} p10`);
			const cs = g.filter((c) => c.inits === s.inits).sort((a, b) => a.mask - b.mask);
			cs.forEach((c, i) => {
				if (!lo || !lo.data[i] || !(c.stats.p10 > 0) || Math.abs(lo.data[i].y - c.stats.p10 * k) > 1e-6 * c.stats.p10 * k) { p10Ok = false; why.push({ c: c.case_id, p10: c.stats.p10, band: lo && lo.data[i] }); }
			});
		}
		const fl = chart.datasets.filter((s) => s.role === 'floor');
		if (raw.length ? fl.length !== 1 || fl[0].data.some((p) => !(p.y > 0)) : fl.length !== 0) { floorOk = false; why.push({ floor: fl }); }
	}
	ok(seriesOk, `run page (${what}): one p50 series per initiator count, as in the API`, why);
	ok(pointsOk, `run page (${what}): one point per CPUs-in-mask value with results`, why);
	ok(valuesOk, `run page (${what}): plotted p50 = API p50 (cycles → ns with tsc_khz)`, why);
	ok(bandOk, `run page (${what}): every p50 line has its p10–p99 band`, why);
	ok(p10Ok, `run page (${what}): every band starts at the API's STATS.p10 (cycles → ns)`, why);
	ok(floorOk && raw.length > 0, `run page (${what}): the raw-IPI floor is drawn on every latency chart`, why);
}

// "Jump to" lists only the sections a run has: a section that is only its
// empty state has no link (it listed TLB, Fairness and Floor for runs with
// none of them), each kind as the API's cases say.
async function jumpLinks(run) {
	const d = await api(`runs/${run.id}`);
	await page.goto(url(`run.html?id=${run.id}`));
	await page.waitForFunction(() => window.xcbRun && window.xcbRun.ready);
	const links = await page.$$eval('#jump a', (as) => as.map((a) => {
		const body = document.querySelector(`${a.getAttribute('href')}-body`);
		return { to: a.getAttribute('href').slice(1), shown: !a.classList.contains('hidden'),
			empty: !!body && body.children.length === 1 && body.firstElementChild.dataset.state === 'empty' };
	}));
	const shown = (to) => (links.find((l) => l.to === to) || {}).shown;
	const tlb = d.cases.some((c) => c.kind === 'tlb' || c.kind === 'sync');
	const floor = d.cases.some((c) => (c.rep_floor_paired || []).some((x) => x) || (c.rep_ipi_floor || []).some((x) => x) || (c.kind === 'raw' && c.algo === 'ipi'));
	ok(links.length > 0 && links.every((l) => l.shown === !l.empty) && shown('tlb') === tlb && shown('floor') === floor && shown('machine') && shown('latency'),
		`run page #${run.id}: "Jump to" links only the sections it has (TLB ${tlb}, floor ${floor})`, links);
	return links;
}

// tableFits(sel): whether the table in the .tablewrap sel fits the page's
// 1366 px: every column in view (none behind a scroll bar) and no figure
// broken from its unit ("35.3 / µs" over two lines). {fits, scroll, client,
// broken, some} (some: a few broken cells' text).
async function tableFits(sel) {
	const fit = await page.$eval(sel, (w) => {
		const t = w.querySelector('table');
		const lines = (el) => { const r = document.createRange(); r.selectNodeContents(el); return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; };
		const broken = [...t.querySelectorAll('td.num, td[data-verified]')].filter((td) => lines(td) > 1).map((td) => td.textContent);
		return { scroll: w.scrollWidth, client: w.clientWidth, broken: broken.length, some: broken.slice(0, 4) };
	});
	return { fits: fit.scroll <= fit.client && fit.broken === 0, ...fit };
}

async function runPage(A) {
	// Console lines as `xcbench vm` attaches them (stored as seq 2^40 + line).
	const con = await fetch(new URL(`api/v1/runs/${A.id}/console?line=0`, BASE),
		// Content-Type as xcbench vm sends it: a write with a browser's text/plain is refused.
		{ method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
		  body: 'SeaBIOS (web test)\nxcbench: booting\n' });
	ok(con.status === 200, 'run page: console lines attached (POST /runs/{id}/console)', con.status);
	const d = await api(`runs/${A.id}`);
	// The axis toolbar's rules come from the one schema (GET /api/v1/schema).
	const schema = await api('schema');
	ok(schema.case_keys.some((k) => k.key === 'flush' && k.role === 'axis') && schema.vocabularies.delivery.aliases.shorthand === 'allbutself',
		'GET /api/v1/schema: case keys with roles, vocabularies with aliases', schema.case_keys.map((k) => k.key));
	const schemaGets = [];
	const onReq = (r) => { if (new URL(r.url()).pathname.endsWith('/api/v1/schema')) schemaGets.push(r.url()); };
	page.on('request', onReq);
	await page.goto(url(`run.html?id=${A.id}`));
	await page.waitForFunction(() => window.xcbRun && window.xcbRun.ready);
	page.off('request', onReq);
	ok(schemaGets.length === 1, 'run page: reads the schema once (GET /api/v1/schema)', schemaGets);
	// Annotations by the schema's roles: listed notes and unlisted x_* keys, never an axis.
	const notes = await page.evaluate(async (sch) => (await import('./js/model.js')).caseNotes(
		{ config: { id: '3', wait: 'done', x_delivery_used: 'unicast', x_brand_new: '1', brand_new: '2' } }, sch), schema);
	ok(JSON.stringify(notes) === JSON.stringify([['x_brand_new', '1'], ['x_delivery_used', 'unicast']]),
		'run page: case annotations are the schema\'s notes (and unlisted x_* keys)', notes);
	// The compare heatmap's reason for an unmarked cell is the condition it
	// fails: an interval that excludes 0 with q too high is not "interval
	// includes 0" (the tooltip said so for every unmarked cell).
	const why = await page.evaluate(async () => {
		const { notMarkedWhy, ciText } = await import('./js/model.js');
		const cmp = { fdr: 0.05, min_effect_pct: 5 };
		const pct = (v) => `${v >= 0 ? '+' : ''}${v.toFixed(2)}`;
		const cs = [{ change_pct: -40, ci_low: -83.51, ci_high: -3.26, method: 'bootstrap' }, { change_pct: 1, ci_low: -5, ci_high: 3 },
			{ change_pct: -3, ci_low: -4, ci_high: -2 }, { change_pct: -60, ci_low: null, ci_high: null, method: 'too_few_reps' },
			{ change_pct: -80.52, ci_low: null, ci_high: null, method: 'too_few_boots' },
			{ change_pct: 0, ci_low: -0.35, ci_high: 0.35, method: 'bootstrap', ci_at_resolution: true }];
		return [...cs.map((c) => notMarkedWhy(c, cmp)), ciText(cs[4], pct), ciText(cs[5], pct), ciText(cs[0], pct)];
	});
	ok(why[0].startsWith('q above 0.05') && why[1] === 'interval includes 0' && why[2].includes('5 % minimum effect') &&
		why[3].startsWith('too few repetitions') && why[4].startsWith('too few boots') && why[5] === 'interval includes 0',
		'compare: an unmarked cell names the condition it fails (too few boots: 2 a side)', why);
	ok(why[6] === 'too few boots' && why[7] === '~[-0.35, +0.35]' && why[8] === '[-83.51, -3.26]',
		"compare: an interval at the histograms' resolution reads '~[...]', none for too few boots says so", why);
	const chosen = await chosenAxes(page);
	// R's TLB cases vary the method (invlpg, and one case of none) within
	// one algorithm: the vector path's, whose algo is the path (a path that
	// uses no cross-call algorithm, as the payload's CASE frames say); the
	// xcall path's cases are lockless's, each path its own algorithm, so the
	// path is no axis within one. Nothing else varies. (frames.py sent the
	// vector path's cases as lockless's, and this offered flush too.)
	ok(Object.keys(chosen).sort().join() === 'method' && ['invlpg', 'none'].includes(chosen.method),
		'run page: a toolbar offers the axes that vary within an algorithm (TLB method)', chosen);
	await checkLatency(d, chosen, `method=${chosen.method}`);
	const otherMethod = chosen.method === 'invlpg' ? 'none' : 'invlpg';
	await page.selectOption('#axis-method', otherMethod);
	await until(`charts for method=${otherMethod}`, async () => Object.values(await charts(page)).some((c) => c.xcb?.fixed?.method === otherMethod));
	ok(new URL(page.url()).searchParams.get('ax.method') === otherMethod, 'run page: the axis choice is bookmarkable');
	await checkLatency(d, await chosenAxes(page), `method=${otherMethod}`);

	// Log scale toggle.
	await page.check('#log-scale');
	const yTypes = Object.values(await charts(page)).filter((c) => c.xcb && c.xcb.key !== undefined).map((c) => c.yType);
	ok(yTypes.every((t) => t === 'logarithmic'), 'run page: log-scale toggle switches every latency chart', yTypes);
	ok(new URL(page.url()).searchParams.get('log') === '1', 'run page: log scale is bookmarkable');
	// issue 25: one y range on every panel, so panels compare by eye
	const ranges = Object.values(await page.evaluate(() => Object.fromEntries(Object.entries(window.xcbCharts)
		.filter(([id]) => id.startsWith('latency:')).map(([id, c]) => [id, c.$xcb.range]))));
	ok(ranges.length > 1 && ranges.every((r) => r && JSON.stringify(r) === JSON.stringify(ranges[0])), 'run page: every latency panel has the same y range', ranges);

	// Histogram of the chosen case, then its CDF.
	let h = (await charts(page)).histogram;
	const hist = await api(`runs/${A.id}/cases/${h.xcb.caseId}/histogram`);
	const bars = h.datasets[0].data;
	ok(h.xcb.buckets === hist.buckets.length && bars.length > 0 && bars.length <= Math.max(60, hist.buckets.length) &&
		bars.reduce((a, b) => a + b, 0) === hist.total && hist.total === hist.buckets.reduce((a, b) => a + b.count, 0),
	`run page: histogram of case ${h.xcb.caseId} holds all ${hist.total} calls of the API's ${hist.buckets.length} buckets`, { bars: bars.length, sum: bars.reduce((a, b) => a + b, 0) });
	const wantP50 = await page.evaluate(async (x) => (await import('./js/format.js')).ns(x), hist.percentiles.p50 * 1e6 / d.run.tsc_khz);
	const noteText = await page.textContent('[data-chart=histogram] .note');
	ok(noteText.includes(`p50 ${wantP50}`), `run page: histogram note gives the API's p50 in ns (${wantP50})`, noteText);
	const edges = await page.evaluate(async (bs) => {
		const m = await import('./js/run-case.js');
		return bs.every((b) => m.bucketLow(b.i) === b.low && m.bucketHigh(b.i) === b.high);
	}, hist.buckets);
	ok(edges, "run page: its histogram bins use the daemon's bucket edges (xcb_histo.h)");
	// whole calls per bar: no tick between two counts (0.5, 1.5 on a small case)
	const yticks = await page.evaluate(() => window.xcbCharts.histogram.scales.y.ticks.map((t) => t.value));
	ok(yticks.length > 1 && yticks.every((v) => Number.isInteger(v)), `run page: the histogram's count axis ticks whole calls (${yticks})`);
	await page.selectOption('#hist-view', 'cdf');
	await until('cdf', async () => (await charts(page)).histogram?.xcb.view === 'cdf');
	h = (await charts(page)).histogram;
	const last = h.datasets[0].data[h.datasets[0].data.length - 1];
	ok(h.datasets[0].data.length === hist.buckets.length && Math.abs(last.y - 1) < 1e-12, 'run page: CDF ends at 1 over the same buckets', last);
	// Another case via the selector: the page fetches that case's histogram.
	const other = d.cases.find((c) => c.stats && c.case_id !== h.xcb.caseId && c.kind === 'tlb') || d.cases.find((c) => c.stats && c.case_id !== h.xcb.caseId);
	await page.selectOption('#hist-view', 'hist');
	await page.selectOption('#hist-case', String(other.case_id));
	await until('other case', async () => (await charts(page)).histogram?.xcb.caseId === other.case_id);
	const hist2 = await api(`runs/${A.id}/cases/${other.case_id}/histogram`);
	ok((await charts(page)).histogram.datasets[0].data.reduce((a, b) => a + b, 0) === hist2.total, 'run page: choosing another case shows its histogram');

	// Fairness: one bar per initiator CPU, Jain's index from the API.
	const k = 1e6 / d.run.tsc_khz;
	const f = (await charts(page)).fairness;
	const fc = d.cases.find((c) => c.case_id === f.xcb.caseId);
	ok(f.datasets[0].data.length === fc.initiators.length && f.datasets[0].data.every((y, i) =>
		Math.abs(y - [...fc.initiators].sort((a, b) => a.cpu - b.cpu)[i].p50 * k) < 1e-6 * y),
	`run page: fairness bars = per-initiator medians of case ${fc.case_id} (${fc.initiators.length} CPUs)`);
	ok((await page.textContent('#jain')) === fc.fairness.jain.toFixed(3), "run page: Jain's index shown as the API computed it", { page: await page.textContent('#jain'), api: fc.fairness.jain });

	// Lock profile and TLB tables.
	const lockRows = await page.$$eval('#locks tbody tr', (t) => t.length);
	ok(lockRows === d.cases.filter((c) => c.stats && c.stats.lock_acq > 0).length && lockRows > 0, `run page: lock profile lists the ${lockRows} cases that took a lock`);
	// each row names its lock: a TLB case of the vector path the flush lock,
	// of the xcall path its algorithm's call lock, a cross-call its algorithm's
	const lockNames = await page.$$eval('#locks td[data-lock]', (tds) => tds.map((t) => ({ id: Number(t.closest('tr').dataset.case), lock: t.dataset.lock })));
	const wantLock = (c) => (c.kind === 'tlb' && (c.flush ?? c.config.flush) !== 'xcall' ? 'flush lock' : `${c.algo}'s call lock`);
	ok(lockNames.length === lockRows && lockNames.every((x) => x.lock === wantLock(d.cases.find((c) => c.case_id === x.id))) &&
		lockNames.some((x) => x.lock === 'flush lock'),
		'run page: each lock profile row names its lock (the flush lock, or the algorithm\'s call lock)', lockNames.slice(0, 4));
	await lockCountsAsShow(A.id, 'run page');
	// both holds per acquisition, labelled: the repetitions' median (what
	// show prints and compare --row lock_hold compares: lock.hold_cycles_p50)
	// and the pooled mean (total / acquisitions); the page gave the mean alone
	const holds = await page.$$eval('#locks tbody tr', (trs) => trs.map((t) => ({ id: Number(t.dataset.case),
		median: t.querySelector('td[data-hold-median]')?.textContent, mean: t.querySelector('td[data-hold-mean]')?.textContent })));
	const lockHeads = await page.$$eval('#locks thead th', (t) => t.map((e) => e.textContent));
	let holdsOk = holds.length === lockRows && lockHeads.includes('median hold') && lockHeads.includes('mean hold') &&
		/compare --row lock_hold/.test(await page.textContent('#locks-hold-note'));
	for (const x of holds) {
		const lk = d.cases.find((c) => c.case_id === x.id).lock;
		holdsOk = holdsOk && x.median === await nsOfRun(d.run, lk.hold_cycles_p50) && x.mean === await nsOfRun(d.run, lk.hold_cycles_per);
	}
	ok(holdsOk, 'run page: the lock profile gives the median hold (compare --row lock_hold\'s) and the mean hold, each the API\'s, labelled', { lockHeads, holds: holds.slice(0, 3) });
	const tlb = d.cases.filter((c) => c.kind === 'tlb');
	const stale = await page.$$eval('#tlb td[data-stale]', (tds) => tds.map((t) => t.dataset.stale));
	// method none flushes nothing: "not checked", never its 0 (a pass to the eye)
	const noFlush = (c) => (c.method ?? c.config.method) === 'none';
	ok(stale.length === tlb.length && tlb.length > 0 && tlb.every((c, i) => (noFlush(c) ? 'unchecked' : String(c.stats.stale)) === stale[i]),
		`run page: TLB table with the stale-translation count per case (${tlb.filter(noFlush).length} of method none: not checked)`, stale);
	const nf = tlb.filter(noFlush).map((c) => c.case_id);
	const nfCells = await page.$$eval('#tlb tbody tr', (trs, ids) => trs.filter((t) => ids.includes(Number(t.dataset.case)))
		.map((t) => [t.querySelector('td[data-stale]').textContent, t.querySelector('td[data-verified]').textContent]), nf);
	ok(nf.length > 0 && nfCells.length === nf.length && nfCells.every(([st, ct]) => st === 'not checked' && ct === 'none (no flush)'),
		'run page: a case of method none reads "not checked", its control "none (no flush)": never a 0 or "verified"', nfCells);
	ok(/of method none flush nothing/.test(await page.textContent('#tlb-stale')),
		'run page: the TLB summary says the method-none cases were not checked', await page.textContent('#tlb-stale'));
	// issue 25: every axis that tells TLB rows apart is a column (overlap among them)
	const tlbCols = await page.$$eval('#tlb th[data-axis]', (ths) => ths.map((t) => t.dataset.axis));
	const varying = [...new Set(tlb.flatMap((c) => Object.keys(c.config)))].filter((k) => !k.startsWith('x_') &&
		!['id', 'kind', 'algo', 'iters', 'warmup', 'reps', 'seed'].includes(k) && new Set(tlb.map((c) => String(c.config[k]))).size > 1);
	ok(tlbCols.includes('overlap') && varying.every((k) => tlbCols.includes(k)), 'run page: the TLB table has a column for every axis that varies, and overlap', { tlbCols, varying });
	const calls = await page.$$eval('#tlb tbody tr', (trs) => trs.map((t) => t.children[t.children.length - 3].textContent));
	ok(!calls.includes('0 / 0'), 'run page: no TLB row reads "0 / 0" for calls it does not count', calls);
	const fit = await tableFits('#tlb-body .tablewrap');
	ok(fit.fits, 'run page: the TLB table fits 1366 px, every figure on one line', fit);

	// Errors & logs.
	const events = await api(`runs/${A.id}/events?limit=1000`);
	const logLines = await page.$$eval('#log > span', (s) => s.length);
	ok(logLines === events.events.length, `run page: the run's ${events.events.length} log lines are shown`, { logLines });
	const conLabels = await page.$$eval('#log > span > .t', (s) => s.map((t) => t.textContent.trim()).filter((t) => !/^\d+$/.test(t)));
	const conWant = events.events.filter((e) => e.kind === 'console').map((e) => `console ${e.seq - 2 ** 40 + 1}`);
	ok(conWant.length === 2 && conWant[0] === 'console 1' && JSON.stringify(conLabels) === JSON.stringify(conWant),
		'run page: console lines are labelled by their line number, not by seq 2^40 + line', { conLabels, conWant });

	// CSV download equals the API's CSV.
	const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#run-csv')]);
	const file = path.join(OUT, `web-run-${A.id}.csv`);
	await dl.saveAs(file);
	const want = await apiText(`runs/${A.id}.csv`);
	ok(fs.readFileSync(file, 'utf8') === want && want.split('\r\n').length > 2, 'run page: CSV download matches /api/v1/runs/{id}.csv');

	await page.uncheck('#log-scale');
	await page.screenshot({ path: path.join(OUT, 'web-run.png'), fullPage: true });
}

// Issue 22 (seed 002): a suite=ept run's page answers the seed's question. Its
// own section charts the readers' wait per batch per mode (the API's pseudo
// reader_batch) and tabulates the writer's hold, end-to-end and time to
// effective invalidation; the latency section draws no sync chart (no per-read
// wait under an IPI-floor line); the TLB panel shows each mode's verification;
// the lock profile counts contended acquisitions; the histogram counts read
// acquisitions; a within-run compare (inside -> lazy) says what it compares.
async function syncPage(S) {
	const d = await api(`runs/${S.id}`);
	const sync = d.cases.filter((c) => c.kind === 'sync');
	const k = 1e6 / d.run.tsc_khz;
	await page.goto(url(`run.html?id=${S.id}`));
	await page.waitForFunction(() => window.xcbRun && window.xcbRun.ready);
	ok(sync.length === 9 && await page.isVisible('#sync'), `sync run page: the writer & readers section is shown (${sync.length} sync cases)`);
	// Machine facts: every HELLO key the payload sent is shown, each named
	// (all_accounted, overhead_median_cycles, cpu_topo were listed as raw keys
	// among the named facts); a key the page has no name for sits under its
	// own "Other facts" heading, as sent.
	const factDts = (sel) => page.$$eval(`${sel} dd[data-fact]`, (dds) => dds.map((dd) => ({ k: dd.dataset.fact, name: dd.previousElementSibling.textContent })));
	const named = await factDts('#facts'), other = await factDts('#facts-other');
	const seenKeys = new Set([...named, ...other].map((x) => x.k));
	// The names are the schema's (proto's XCB_HELLO_FACTS), the page's own
	// list gone; its "part" keys are said in "Boot firmware".
	const hello = (await api('schema')).hello;
	const nameOf = new Map(hello.facts.map((x) => [x.key, x.name]));
	const folded = hello.facts.filter((x) => x.shown === 'part').map((x) => x.key);
	ok(named.filter((x) => !x.k.startsWith(hello.algo_prefix)).every((x) => nameOf.get(x.k) === x.name) && folded.includes('uefi_rev'),
		'sync run page: each named fact has the schema\'s name (GET /api/v1/schema hello)', { named, folded });
	ok(named.every((x) => x.name !== x.k) && ['all_accounted', 'overhead_median_cycles', 'cpu_topo'].every((k) => named.some((x) => x.k === k)) &&
		Object.keys(d.facts).every((k) => seenKeys.has(k) || folded.includes(k)) && other.every((x) => x.name === x.k),
	'sync run page: every machine fact is named; none is a raw HELLO key among the named ones', { raw: named.filter((x) => x.name === x.k), other });
	const ch = await charts(page);
	ok(!Object.entries(ch).some(([id, c]) => id.startsWith('latency:') && c.xcb?.fixed?.kind === 'sync'),
		'sync run page: no latency chart of the readers\' per-read wait under an IPI floor', Object.keys(ch));
	const b = ch['sync:batch'];
	const want = (mode) => sync.filter((c) => c.algo === mode).sort((x, y) => x.mask - y.mask).map((c) => ({ x: c.mask, y: c.pseudo.reader_batch.p50 * k }));
	const close = (got, exp) => got.length === exp.length && got.every((p, i) => p.x === exp[i].x && Math.abs(p.y - exp[i].y) <= 1e-6 * exp[i].y);
	ok(b && b.datasets.length === 3 && ['inside', 'after', 'lazy'].every((m) => {
		const ds = b.datasets.find((x) => x.label.split(' · ')[0] === m);
		return ds && close(ds.data, want(m));
	}), 'sync run page: one line per mode of the readers\' wait per batch (p50 of reader_batch, ns) over CPUs in mask', b && b.datasets.map((x) => [x.label, x.data]));
	const rows = await page.$$eval('#sync tbody tr', (trs) => trs.map((t) => ({ id: Number(t.dataset.case),
		figs: Object.fromEntries([...t.querySelectorAll('td[data-fig]')].map((td) => [td.dataset.fig, td.textContent])) })));
	const nsOf = (x) => page.evaluate(async (v) => (await import('./js/format.js')).ns(v), x * k);
	let figsOk = rows.length === sync.length;
	for (const c of sync) {
		const r = rows.find((x) => x.id === c.case_id);
		for (const f of ['writer_hold', 'writer_e2e', 'writer_effective', 'reader_batch'])
			figsOk = figsOk && !!r && r.figs[f] === `${await nsOf(c.pseudo[f].p50)} / ${await nsOf(c.pseudo[f].p99)}`;
	}
	ok(figsOk, 'sync run page: per case the writer\'s hold, end-to-end, time to effective and the batch wait (p50 / p99) as the API has them', rows.slice(0, 2));
	// As the TLB table (the sync table was 1638 px in a 1322 px box, its
	// verification column cut off).
	const syncFit = await tableFits('#sync .tablewrap');
	ok(syncFit.fits, 'sync run page: the sync table fits 1366 px, every figure on one line', syncFit);
	const ver = await page.$$eval('#tlb tbody tr', (trs) => trs.map((t) => t.querySelector('td[data-verified]')?.dataset.verified));
	ok(ver.length === sync.length && ver.every((v) => v === 'true') && !(await page.textContent('#tlb-body')).includes('no TLB shootdown'),
		'sync run page: the TLB panel shows every mode\'s verification (lazy included)', ver);
	const cont = await page.$$eval('#locks td[data-contended]', (tds) => tds.map((t) => t.dataset.contended));
	ok(cont.length === sync.length && cont.every((v) => v !== '') && cont.some((v) => Number(v) > 0),
		'sync run page: the lock profile counts contended acquisitions (not 0 next to the wait)', cont);
	await lockCountsAsShow(S.id, 'sync run page');
	// lock_acq = reads (count) + writes: the writer's hold per write, the
	// readers' wait per read acquisition (both were over reads + writes);
	// the columns avg hold and avg wait
	const avgs = await page.$$eval('#locks tbody tr', (trs) => trs.map((t) => ({ id: Number(t.dataset.case),
		hold: t.cells[t.cells.length - 2].textContent, wait: t.cells[t.cells.length - 1].textContent }))); // the last two columns
	let avgOk = avgs.length === sync.length;
	for (const c of sync) {
		const a = avgs.find((x) => x.id === c.case_id), s = c.stats;
		avgOk = avgOk && !!a && a.hold === await nsOf(s.lock_hold_cycles / (s.lock_acq - s.count)) &&
			a.wait === await nsOf(s.lock_wait_cycles / s.count);
	}
	ok(avgOk, 'sync run page: the lock profile\'s avg hold is per write, its avg wait per read acquisition', avgs.slice(0, 2));
	// (its raw samples asked for: the answer, none, leaves no link; below)
	const sampled = page.waitForResponse((r) => r.url().includes(`/cases/${sync[0].case_id}/samples?`));
	await page.selectOption('#hist-case', String(sync[0].case_id));
	await until('sync histogram', async () => (await charts(page)).histogram?.xcb.caseId === sync[0].case_id);
	const hn = await page.textContent('[data-chart=histogram] .note');
	const hc = (await charts(page)).histogram;
	ok(/read acquisitions/.test(hn) && !/ calls /.test(hn) && hc.datasets[0].label === 'read acquisitions',
		'sync run page: the histogram counts read acquisitions, not calls', hn);
	await sampled;
	ok((await page.$('#hist-samples a')) === null && (await api(`runs/${S.id}/cases/${sync[0].case_id}/samples?limit=0`)).count === 0,
		'sync run page: no raw samples link (the run sent none)');
	await page.screenshot({ path: path.join(OUT, 'web-run-sync.png'), fullPage: true });
	await page.goto(url(`compare.html?a=${S.id}&b=${S.id}&algo_a=inside&algo_b=lazy`));
	await page.waitForFunction(() => window.xcbCompare && window.xcbCompare.ready);
	const title = await page.textContent('.pivot-view h3');
	const head = await page.textContent('.pivot-view table.pivot thead');
	ok(/read-lock wait per acquisition/.test(title) && /writer/.test(head) && !/initiator/.test(head),
		'compare (sync, inside -> lazy): says it compares the readers\' read-lock wait, per writer', { title, head });
}

// A's histogram (xcb-gen --samples sent raw samples) has a link to the
// case's samples.csv beside it, following the repetition chosen; the CSV
// is the API's JSON, value for value.
async function samplesLink(A) {
	const d = await api(`runs/${A.id}`);
	const c = d.cases.find((x) => x.stats && x.stats.count > 0);
	await page.goto(url(`run.html?id=${A.id}&case=${c.case_id}`));
	await until('samples link', async () => (await page.$('#hist-samples a')) !== null);
	let href = await page.getAttribute('#hist-samples a', 'href');
	ok(href === `api/v1/runs/${A.id}/samples.csv?case=${c.case_id}`, 'run page: a "raw samples (CSV)" link beside the histogram', href);
	const sj = await api(`runs/${A.id}/cases/${c.case_id}/samples`);
	const csv = (await apiText(`runs/${A.id}/samples.csv?case=${c.case_id}`)).trim().split('\r\n').slice(1).map((l) => Number(l.split(',')[4]));
	ok(sj.count > 0 && JSON.stringify(csv) === JSON.stringify(sj.streams.flatMap((x) => x.samples)),
		`run page: the link's CSV holds the case's ${sj.count} samples`, { csv: csv.length, api: sj.count });
	await page.selectOption('#hist-rep', '1');
	await until('samples link for rep 1', async () => ((await page.$('#hist-samples a')) ? await page.getAttribute('#hist-samples a', 'href') : '').endsWith('&rep=1'));
	href = await page.getAttribute('#hist-samples a', 'href');
	ok(href === `api/v1/runs/${A.id}/samples.csv?case=${c.case_id}&rep=1`, 'run page: the samples link follows the repetition chosen', href);
}

function expectColor(cell) {
	// Significant faster = green, slower = red, otherwise grey (see charts.js changeColor).
	if (!cell.significant) return /^rgba\(229, 231, 235/;
	return cell.change_pct < 0 ? /^rgba\(21, 128, 61/ : /^rgba\(185, 28, 28/;
}

async function checkMatrices(what, cmp, seen) {
	const ch = await charts(page);
	const mats = Object.entries(ch).filter(([id]) => id.startsWith('matrix:')).sort();
	// The page shows the pivots that have the toolbar's chosen axis values.
	const chosen = await chosenAxes(page);
	const shown = cmp.pivots.filter((pv) => Object.entries(chosen).every(([k, v]) => !(k in pv.fixed) || String(pv.fixed[k]) === v));
	ok(mats.length === shown.length && shown.length > 0 && shown.every((pv) => ch[`matrix:${cmp.pivots.indexOf(pv)}`]),
		`${what}: one heatmap per pivot with ${JSON.stringify(chosen)} (${shown.length} of ${cmp.pivots.length})`, { got: mats.map(([id]) => id) });
	let cellsOk = true, colorsOk = true, tableOk = true;
	const why = [];
	for (const pv of shown) {
		const i = cmp.pivots.indexOf(pv);
		const m = ch[`matrix:${i}`];
		if (!m) { cellsOk = false; continue; }
		const ds = m.datasets[0];
		const want = [];
		pv.rows.forEach((r, ri) => pv.cols.forEach((c, ci) => { if (pv.cells[ri][ci]) want.push({ x: String(c), y: String(r), cell: pv.cells[ri][ci] }); }));
		if (ds.data.length !== want.length) { cellsOk = false; why.push({ pivot: i, got: ds.data.length, want: want.length }); continue; }
		want.forEach((w, j) => {
			const got = ds.data[j];
			if (got.x !== w.x || got.y !== w.y || Math.abs(got.v - w.cell.change_pct) > 1e-9) { cellsOk = false; why.push({ got, w }); }
			if (!expectColor(w.cell).test(String(ds.colors[j]))) { colorsOk = false; why.push({ cell: w, color: ds.colors[j] }); }
			seen.add(!w.cell.significant ? 'grey' : w.cell.change_pct < 0 ? 'green' : 'red');
		});
		const tds = await page.$$eval(`#pivot-${i} tbody td`, (t) => t.map((x) => ({ sig: x.dataset.sig ?? null, text: x.textContent })));
		const flat = pv.cells.flat();
		if (tds.length !== flat.length || flat.some((c, j) => (c ? tds[j].sig !== (c.significant ? '1' : '0') : tds[j].sig !== null))) { tableOk = false; why.push({ tds }); }
	}
	ok(cellsOk, `${what}: heatmap cells = the API's matrix (rows CPUs in mask, columns initiators)`, why);
	ok(colorsOk, `${what}: only significant cells coloured (green faster, red slower)`, why);
	ok(tableOk, `${what}: the same matrix as a table`, why);
	return ch;
}

async function comparePage(A, B, seen, full) {
	const cmp = await api(`compare?a=${A.id}&b=${B.id}`);
	const sig = cmp.cases.filter((c) => c.significant).length;
	const what = `compare #${A.id} → #${B.id}`;
	diag(`${what}: ${cmp.cases.length} cases, ${sig} significant, ${cmp.pivots.length} pivots`);
	await page.goto(url(`compare.html?a=${A.id}&b=${B.id}`));
	await page.waitForFunction(() => window.xcbCompare && window.xcbCompare.ready);
	await checkMatrices(what, cmp, seen);
	const rows = await page.$$eval('#cases tbody tr', (t) => t.length);
	ok(rows === cmp.cases.length && rows > 0, `${what}: every matched case listed (${cmp.cases.length})`);
	await p50sInNs(what, cmp);
	await verdictInView(what);
	if (!full) return;
	// xcb-gen varies callee work within each algorithm: the toolbar switches tables.
	const axes = await chosenAxes(page);
	ok(Object.keys(axes).join() === 'work_us', `${what}: a toolbar picks the callee work`, axes);
	const otherWork = (await page.$$eval('#axis-work_us option', (o) => o.map((x) => x.value))).find((v) => v !== axes.work_us);
	await page.selectOption('#axis-work_us', otherWork);
	await until('tables for the other work', async () => (await chosenAxes(page)).work_us === otherWork);
	await checkMatrices(`${what} work_us=${otherWork}`, cmp, seen);
	ok(new URL(page.url()).searchParams.get('ax.work_us') === otherWork, `${what}: the table choice is bookmarkable`);
	// Tooltip with the confidence interval on hover over a significant cell.
	const pos = await page.evaluate(() => {
		for (const [id, c] of Object.entries(window.xcbCharts)) {
			if (!id.startsWith('matrix:')) continue;
			const d = c.data.datasets[0].data;
			const j = d.findIndex((p) => p.sig);
			if (j < 0) continue;
			c.canvas.scrollIntoView();
			const p = c.getDatasetMeta(0).data[j].getCenterPoint();
			const r = c.canvas.getBoundingClientRect();
			return { id, x: r.left + p.x, y: r.top + p.y, cell: d[j].cell };
		}
		return null;
	});
	if (ok(pos, `${what}: a significant cell to hover`)) {
		await page.mouse.move(pos.x, pos.y);
		const tip = await until('tooltip', () => page.evaluate((id) => {
			const t = window.xcbCharts[id].tooltip;
			return t && t.opacity > 0 && t.body ? t.body.flatMap((b) => b.lines).join(' | ') : null;
		}, pos.id), 5000).catch(() => '');
		ok(tip.includes('95 % CI') && tip.includes(pos.cell.ci_low.toFixed(2)), `${what}: hovering a cell shows its confidence interval`, tip);
	}
	const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#compare-csv')]);
	const file = path.join(OUT, `web-compare-${A.id}-${B.id}.csv`);
	await dl.saveAs(file);
	const want = await apiText(`compare.csv?a=${A.id}&b=${B.id}`);
	ok(fs.readFileSync(file, 'utf8') === want && want.split('\r\n').length > 2, 'compare: CSV download matches /api/v1/compare.csv');
	await page.screenshot({ path: path.join(OUT, 'web-compare-runs.png'), fullPage: true });
}

// The case table's a and b p50 read as the run page's: ns at each run's TSC
// rate, the API's cycles in the cell's title (they were '1,251 cyc' beside
// the run page's '597 ns'). Rows are found by their cases' links.
async function p50sInNs(what, cmp) {
	const rows = await page.$$eval('#cases tbody tr', (trs) => trs.map((tr) => [3, 4].map((i) => {
		const td = tr.querySelectorAll('td')[i];
		return { text: td.textContent, title: td.title, case: new URL(td.querySelector('a').href).searchParams.get('case') };
	})));
	const unit = { ns: 1, 'µs': 1e3, ms: 1e6, s: 1e9 };
	const bad = [];
	for (const [a, b] of rows) {
		const c = cmp.cases.find((x) => String(x.a_case) === a.case && String(x.b_case) === b.case);
		for (const [cell, cyc, run] of [[a, c && c.a_p50, cmp.a], [b, c && c.b_p50, cmp.b]]) {
			const m = /^([\d.]+) (ns|µs|ms|s)$/.exec(cell.text);
			const want = (cyc * 1e6) / run.tsc_khz;
			// fmt.ns keeps 3 significant digits (or whole ns)
			if (!c || !m || Math.abs(m[1] * unit[m[2]] - want) > Math.max(0.5, want * 0.005) + 1e-9
				|| cell.title !== `${Number(cyc).toLocaleString('en-US')} TSC cycles`) bad.push({ cell, cyc, tsc_khz: run.tsc_khz });
		}
	}
	ok(rows.length && cmp.a.tsc_khz && cmp.b.tsc_khz && !bad.length,
		`${what}: the case table's p50s are ns at each run's TSC rate, as on the run page (${rows[0] && rows[0][0].text}), cycles in their titles`, bad.slice(0, 3));
}

// At 1366 px a case's verdict (change, its interval, q) and both sides'
// figures are in view in the table of every matched case, however many axis
// columns scroll beside them (a default-suite run has 14).
async function verdictInView(what) {
	const seen1366 = await page.evaluate(() => {
		document.querySelector('#cases-details').open = true;
		const w = document.querySelector('#cases').closest('.tablewrap').getBoundingClientRect();
		return [...document.querySelectorAll('#cases thead th')].filter((th) => th.getBoundingClientRect().right <= w.right + 0.5).map((th) => th.textContent);
	});
	ok(['change', '95 % CI', 'q (BH)', 'a p50', 'b p50'].every((t) => seen1366.includes(t)), `${what}: the case table's change, interval, q and p50s are in view at 1366 px`, seen1366);
}

async function algoCompare(A, seen) {
	const d = await api(`runs/${A.id}`);
	const algos = [...new Set(d.cases.filter((c) => c.kind === 'xcall').map((c) => c.algo))].sort();
	const [x, y] = [algos.find((a) => a === 'locked') || algos[0], algos.find((a) => a === 'lockless') || algos[1]];
	const cmp = await api(`compare?a=${A.id}&b=${A.id}&algo_a=${x}&algo_b=${y}`);
	await page.goto(url(`run.html?id=${A.id}`));
	await page.waitForFunction(() => window.xcbRun && window.xcbRun.ready);
	await Promise.all([page.waitForURL(/compare\.html/), page.click(`a[href*="algo_a=${x}&algo_b=${y}"]`)]);
	await page.waitForFunction(() => window.xcbCompare && window.xcbCompare.ready);
	await checkMatrices(`compare ${x} → ${y} within run #${A.id}`, cmp, seen);
	await page.screenshot({ path: path.join(OUT, 'web-compare.png'), fullPage: true });
}

async function livePage(L, R) {
	const before = await api(`runs/${L.id}`);
	const done0 = before.cases.filter((c) => c.stats && c.stats.count > 0).length;
	await page.goto(url(`run.html?id=${L.id}`));
	await page.waitForFunction(() => window.xcbRun && window.xcbRun.ready);
	const bar = await page.$eval('#live [role=progressbar]', (e) => ({ now: Number(e.getAttribute('aria-valuenow')), max: Number(e.getAttribute('aria-valuemax')) }));
	// L is R's case set, sent in two halves, with its plan in a log line as the firmware does.
	const planned = (await api(`runs/${R.id}`)).cases.length;
	ok(bar.now === done0 && bar.max === planned && done0 < planned, `live: progress bar shows ${done0} / ${planned} cases`, { bar, done0, planned });
	const points = async () => Object.values(await charts(page)).filter((c) => c.xcb && c.xcb.key !== undefined)
		.reduce((n, c) => n + c.datasets.filter((s) => s.role === 'p50').reduce((m, s) => m + s.data.length, 0), 0);
	const p0 = await points();
	await page.screenshot({ path: path.join(OUT, 'web-live.png'), fullPage: false });
	execSync(process.env.XCB_LIVE_MORE, { stdio: ['ignore', 'inherit', 'inherit'], shell: '/bin/bash' });
	await until('the page to draw the run complete', () => page.evaluate(() => window.xcbRun.status === 'complete'), 30000);
	const after = await api(`runs/${L.id}`);
	const done1 = after.cases.filter((c) => c.stats && c.stats.count > 0).length;
	const p1 = await points();
	const want = groupsOf(after.cases, await chosenAxes(page)).reduce((n, g) => n + g.length, 0);
	ok(p1 > p0 && p1 === want,
		`live: charts grew from ${p0} to ${p1} points as frames arrived, without a reload`, { p0, p1, want, done1 });
	ok(!(await page.$('#live')) && (await page.textContent('#run-head .badge')) === 'complete', 'live: progress bar gone, status complete');
}

async function errorStates() {
	expected404.push('api/v1/runs/987654');
	// The page asks for the run once: its job section (run-job.js) asked
	// again, a second 404 in the console.
	const asked = [];
	const onReq = (r) => { if (/\/api\/v1\/runs\/987654/.test(r.url())) asked.push(r.url()); };
	page.on('request', onReq);
	await page.goto(url('run.html?id=987654'));
	await page.waitForFunction(() => window.xcbRun && window.xcbRun.ready);
	await page.waitForLoadState('networkidle');
	page.off('request', onReq);
	ok(/There is no run #987654/.test(await page.textContent('[data-state=error]')), 'run page: unknown run id says so and links back');
	ok(asked.length === 1, 'run page: an unknown run is asked for once (one 404, not two)', asked);
	await page.goto(url('run.html'));
	await page.waitForFunction(() => window.xcbRun && window.xcbRun.ready);
	ok(/No run chosen/.test(await page.textContent('[data-state=error]')), 'run page: no id says what to do');
	// A machine that fetched its boot script but never sent a frame.
	const script = await (await fetch(new URL('boot.ipxe?mac=52:54:00:0e:b0:02', BASE))).text();
	const tok = /run=([0-9a-f]{16})/.exec(script)[1];
	const P = await until('pending run', () => runByToken(tok));
	await page.goto(url(`run.html?id=${P.id}`));
	await page.waitForFunction(() => window.xcbRun && window.xcbRun.ready);
	ok(/No frame from the machine yet/.test(await page.textContent('#no-frames')) && !(await page.isVisible('#latency')),
		'run page: a booted but silent run says what to check, not seven empty sections');
	await page.goto(url('compare.html'));
	await page.waitForSelector('#picker');
	ok((await page.$$eval('#pick-a option', (o) => o.length)) >= 3, 'compare page: without a/b it offers a picker of runs');
	// The machine chooser (no machine named) counts each one's runs in
	// words: R's and P's machines have one each ("· 1 runs" it said).
	const machines = (await api('machines')).machines;
	await page.goto(url('machine.html'));
	await page.waitForFunction(() => document.body.dataset.ready === '1');
	const chooser = await page.$$eval('#machine-facts li', (l) => l.map((e) => e.textContent));
	ok(machines.some((m) => m.runs === 1) && chooser.length === machines.length
		&& machines.every((m) => chooser.includes(`${m.mac} · ${m.runs} run${m.runs === 1 ? '' : 's'}`)),
	'machine chooser: each machine with its count of runs, "1 run" singular', { chooser, machines: machines.map((m) => [m.mac, m.runs]) });
}

// Without JavaScript every served page (one per web/pages/ source; the shell
// is the frame, not a page) still has its stylesheet and a <noscript> link to
// the same data, which the daemon serves. The pages are rendered at build time
// (web/Makefile), so this is what a browser with scripts off really gets.
async function noScriptPages() {
	const names = fs.readdirSync(path.join(ROOT, 'web/pages')).filter((f) => f.endsWith('.html') && f !== 'shell.html');
	const pg = await ctx.newPage();
	const cdp = await ctx.newCDPSession(pg);
	await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
	try {
		for (const name of names) {
			await pg.goto(url(name));
			const got = await pg.evaluate(() => {
				const box = document.querySelector('main .state.error');
				const link = document.querySelector('main a[href^="api/v1/"]');
				return {
					title: document.title,
					sheets: [...document.styleSheets].map((s) => ({ href: s.href, rules: s.cssRules.length })),
					border: box ? getComputedStyle(box).borderTopStyle : null,
					link: link && link.offsetParent !== null ? link.getAttribute('href') : null,
				};
			});
			const r = got.link ? await fetch(new URL(got.link, BASE)) : null;
			ok(/^xcbench — \S/.test(got.title) && got.sheets.some((s) => /\/css\/xcb\.css$/.test(s.href) && s.rules > 0)
				&& got.border === 'solid' && r !== null && r.ok,
				`no JavaScript: ${name} has its title, its stylesheet applied and a visible link to ${got.link} (HTTP ${r && r.status})`, got);
		}
		ok(names.length >= 5, `no JavaScript: every page checked (${names.join(' ')})`);
	} finally {
		await pg.close();
	}
}
