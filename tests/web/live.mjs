// live.mjs — the run page of daemon B following, in headless Chromium
// (playwright-core, /usr/bin/chromium), a run that daemon A is ingesting into
// the same PostgreSQL database (issue 24). Started by tests/t-pg-live.sh, which
// owns the cluster, both daemons and the capture; prints TAP lines.
//
// Environment: XCB_BASE (daemon B, serving web/), XCB_A (daemon A, the one
// ingesting), XCB_RUN (the run id), XCB_CASES (the cases the capture holds,
// from xcb-gen), XCB_OUT (screenshots, profile), XCB_LIVE_MORE (shell
// command: feed A the rest of the capture, DONE included).
//
// The page is opened mid-stream and never reloaded: it must go from running
// to complete by its own polling (web/js/run.js). What it shows is compared
// with daemon A's API, never with numbers written here.

import path from 'node:path';
import { execSync } from 'node:child_process';
import { ok, launch, finish } from './browser.mjs';

const BASE = process.env.XCB_BASE, OUT = process.env.XCB_OUT, ID = process.env.XCB_RUN;
const CASES = Number(process.env.XCB_CASES);
// apiA(): daemon A's answer for the run: what the page is checked against.
const apiA = async () => (await fetch(new URL(`api/v1/runs/${ID}`, process.env.XCB_A))).json();
const INT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }); // as web/js/format.js writes counts
const b = await launch(OUT, 'pg-live');
const { page, errors, ready } = b;

// The p50 of every point on the page's latency charts, sorted: what a person
// reads off them, in the page's unit.
const plotted = () => page.evaluate(() => Object.values(window.xcbCharts || {})
	.filter((c) => c.$xcb && c.$xcb.key !== undefined)
	.flatMap((c) => c.data.datasets.filter((s) => s.xcbRole === 'p50').flatMap((s) => s.data.map((p) => p.y)))
	.sort((x, y) => x - y));

// The same figures from A's answer: the p50 (cycles → ns) of every measured
// case on a latency chart — not raw, not sync (their own section) — with the
// value the page's axis toolbar picked for every varying axis.
async function expected(d) {
	const chosen = await page.$$eval('#axes select[data-axis]', (ss) => Object.fromEntries(ss.map((s) => [s.dataset.axis, s.value])));
	const k = d.run.tsc_khz ? 1e6 / d.run.tsc_khz : 1;
	return d.cases.filter((c) => c.kind !== 'raw' && c.kind !== 'sync' && c.mask !== null && c.stats && c.stats.count > 0 &&
		Object.entries(chosen).every(([key, v]) => !(key in c.config) || String(c.config[key]) === v))
		.map((c) => c.stats.p50 * k).sort((x, y) => x - y);
}
// same(got, want): two sorted lists of figures agree (to rounding in the ns conversion).
const same = (got, want) => got.length === want.length && got.every((y, i) => Math.abs(y - want[i]) <= 1e-6 * Math.max(1, Math.abs(want[i])));

// What the head of the page says: status badge, live card, progress bar, summary line.
const head = () => page.evaluate(() => {
	const bar = document.querySelector('#live [role=progressbar]');
	return {
		badge: document.querySelector('#run-head .badge')?.textContent,
		live: document.querySelector('#live')?.textContent ?? null,
		now: bar && Number(bar.getAttribute('aria-valuenow')), max: bar && Number(bar.getAttribute('aria-valuemax')),
		sub: document.querySelector('#run-head .sub')?.textContent,
	};
});

try {
	let navigations = 0;
	await page.goto(new URL(`run.html?id=${ID}`, BASE).toString());
	await ready();
	page.on('framenavigated', (f) => { if (f === page.mainFrame()) navigations++; });
	// A poll may land between the two reads below: compare with A's answer
	// while nothing is being fed (the shell fed the first part and stopped).
	const a0 = await apiA();
	const h0 = await head();
	ok(h0.badge === 'running' && /Running — this page updates as frames arrive\./.test(h0.live ?? '') &&
		h0.live.includes(`${INT.format(a0.run.frames_received)} frames`),
	`mid-stream: B's page says run #${ID} is running with the ${a0.run.frames_received} frames A has stored`, h0);
	ok(h0.now === a0.run.cases_done && h0.max === CASES && a0.run.cases_done > 0 && a0.run.cases_done < CASES &&
		h0.sub.includes(` ${a0.cases.length} cases`),
	`mid-stream: progress ${h0.now} / ${h0.max} cases, ${a0.cases.length} cases listed, as A's API`, { h0, done: a0.run.cases_done, cases: a0.cases.length });
	const p0 = await plotted(), w0 = await expected(a0);
	ok(p0.length > 0 && same(p0, w0), `mid-stream: the charts plot the ${w0.length} p50 values A has stored so far`, { p0, w0 });
	await page.screenshot({ path: path.join(OUT, 'web-pg-live-running.png'), fullPage: false });
	await page.evaluate(() => { window.xcbSameDocument = true; }); // gone if the page reloads

	execSync(process.env.XCB_LIVE_MORE, { stdio: ['ignore', 'inherit', 'inherit'], shell: '/bin/bash' });
	// Bounded: the page polls every 2 s; a minute allows for a loaded machine.
	await page.waitForFunction(() => window.xcbRun.status === 'complete', null, { timeout: 60000, polling: 200 });
	const a1 = await apiA();
	const h1 = await head();
	const kept = await page.evaluate(() => ({ same: window.xcbSameDocument === true, updates: window.xcbRun.updates }));
	ok(kept.same && navigations === 0 && kept.updates > 0,
		`the page updated itself ${kept.updates} times, no reload or navigation`, { kept, navigations });
	ok(a1.run.status === 'complete' && h1.badge === 'complete' && h1.live === null,
		'complete: badge says complete, the live card is gone (as A\'s API)', { h1, status: a1.run.status });
	ok(a1.cases.length === CASES && a1.run.cases_done === CASES && h1.sub.includes(` ${CASES} cases`),
		`complete: every case listed (${CASES}), as A's API`, { h1, cases: a1.cases.length, done: a1.run.cases_done });
	const p1 = await plotted(), w1 = await expected(a1);
	ok(p1.length > p0.length && same(p1, w1), `complete: the charts grew from ${p0.length} to ${p1.length} p50 values, A's numbers`, { p1, w1 });
	await page.screenshot({ path: path.join(OUT, 'web-pg-live-complete.png'), fullPage: false });
	ok(errors.length === 0, 'no console errors', errors.join('\n'));
	await finish(b);
} catch (e) {
	await finish(b, e);
}
