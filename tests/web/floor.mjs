// floor.mjs — drives run.html in headless Chromium (playwright-core,
// /usr/bin/chromium) for tests/t-web-floor.sh, which owns the daemon and the
// runs; prints TAP lines. The chart's points are compared with the API's.
//
// Environment: XCB_BASE (the daemon), XCB_OUT (screenshot, profile), XCB_RUN
// (a run with paired floors), XCB_OLD (a run recorded without them).

import path from 'node:path';
import { ok, failures, launch } from './browser.mjs';

const BASE = process.env.XCB_BASE, OUT = process.env.XCB_OUT;
const api = async (p) => (await fetch(new URL(`api/v1/${p}`, BASE))).json();
const url = (p) => new URL(p, BASE).toString();
const near = (a, b) => (a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)));
const { ctx, page, errors, ready } = await launch(OUT, 'floor');

try {
	const d = await api(`runs/${process.env.XCB_RUN}`);
	const khz = d.run.tsc_khz;
	const ns = (c) => (c === null || c === undefined ? null : (c * 1e6) / khz);
	const want = [];
	for (const c of [...d.cases].sort((a, b) => a.case_id - b.case_id))
		(c.rep_p50 || []).forEach((p50, i) => want.push({ case_id: c.case_id, rep: i, kind: c.kind,
			paired: c.rep_floor_paired[i], before: c.kind === 'raw' ? null : c.rep_ipi_floor[i], p50,
			raw_ipi: c.kind === 'raw' && c.algo === 'ipi' ? p50 : null }));
	const xc = want.filter((w) => w.kind === 'xcall');
	ok(xc.length === 6 && xc.every((w) => w.paired > 0 && w.before > 0),
		`API: the lockless case's 6 repetitions each carry a paired floor and a floor before (rep_floor_paired, rep_ipi_floor)`, xc);

	await page.goto(url(`run.html?id=${process.env.XCB_RUN}`));
	await ready();
	const ch = await page.evaluate(() => {
		const c = window.xcbCharts.floor;
		return c && { xcb: c.$xcb, sets: c.data.datasets.map((s) => ({ role: s.xcbRole, label: s.label, data: s.data.map((p) => p.y) })),
			x: c.options.scales.x.title.text, y: c.options.scales.y.title.text, yTicks: c.scales.y.ticks.map((t) => t.label).filter(Boolean) };
	});
	ok(!!ch, 'the run page draws the "floor" chart');
	const set = (role) => ch.sets.find((s) => s.role === role);
	ok(ch && ch.xcb.points.length === want.length && ch.xcb.points.every((p, i) => p.case_id === want[i].case_id && p.rep === want[i].rep),
		`one point per repetition, in run order (${want.length})`, ch && ch.xcb.points);
	ok(ch && set('floor-paired').data.every((y, i) => near(y, ns(want[i].paired))),
		'paired floor line = the API\'s rep_floor_paired in ns (null where not measured)', ch && set('floor-paired').data);
	ok(ch && set('floor-before').data.every((y, i) => near(y, ns(want[i].before))),
		'floor-before line = the API\'s rep_ipi_floor in ns (none for raw cases: theirs is the boot\'s)', ch && set('floor-before').data);
	ok(ch && set('raw-ipi').data.every((y, i) => near(y, ns(want[i].raw_ipi))) && set('raw-ipi').data.some((y) => y !== null),
		'raw ipi case p50 drawn as the floor measured as a case', ch && set('raw-ipi').data);
	ok(ch && set('call').data.every((y, i) => near(y, want[i].paired === null ? null : ns(want[i].p50))),
		'call p50 points = rep_p50 in ns where a paired floor was measured, none elsewhere', ch && set('call').data);
	// The y ticks carry their unit as the latency charts' do (1.00 ms, 200 µs),
	// not raw ns counts (20,000,000 beside 8,000,000).
	ok(ch && /latency/.test(ch.y) && /repetition/.test(ch.x) && set('floor-paired').label.includes('paired ipi floor')
		&& ch.yTicks.length >= 2 && ch.yTicks.every((t) => /^[\d.]+ (ns|µs|ms|s)$/.test(t)),
	`axes and series named with nouns and units (x "${ch && ch.x}", y "${ch && ch.y}", y ticks ${ch && ch.yTicks.join(', ')})`, ch && ch.yTicks);
	// The chart's title names no unit the ticks do not use: it said "(ns)"
	// above ticks in µs.
	const head = await page.textContent('[data-chart=floor] h3');
	ok(!/\((ns|cycles)\)/.test(head), `the chart's title names no unit its ticks lack ("${head}")`, head);
	await page.locator('#floor').scrollIntoViewIfNeeded();
	await page.locator('#floor').screenshot({ path: path.join(OUT, 'web-floor.png') });

	await page.goto(url(`run.html?id=${process.env.XCB_OLD}`));
	await ready();
	const old = await page.evaluate(() => {
		const c = window.xcbCharts.floor;
		return c && { paired: c.data.datasets.find((s) => s.xcbRole === 'floor-paired').data.filter((p) => p.y !== null).length,
			before: c.data.datasets.find((s) => s.xcbRole === 'floor-before').data.filter((p) => p.y !== null).length,
			text: document.querySelector('#floor-body').textContent };
	});
	ok(old && old.paired === 0 && old.before > 0 && /No paired floor in this run/.test(old.text),
		'a run recorded before paired probes: only the floor before each repetition, and the note says why', old);
	// Floors and calls within one decade (7115.5 to 7150 ns): every y tick
	// is labelled, each with its own text (a log axis left all nine blank).
	await page.goto(url(`run.html?id=${process.env.XCB_TINY}`));
	await ready();
	const tiny = await page.evaluate(() => {
		const c = window.xcbCharts.floor;
		return c && { ticks: c.scales.y.ticks.map((t) => t.label), y: c.options.scales.y.title.text };
	});
	ok(tiny && tiny.ticks.length >= 2 && tiny.ticks.every((t) => /^[\d.]+ (ns|µs)$/.test(t)) && new Set(tiny.ticks).size === tiny.ticks.length,
		`floors within one decade: every y tick labelled, none twice (${tiny && tiny.ticks.join(', ')})`, tiny);
	await page.goto(url(`run.html?id=${process.env.XCB_OLD}`));
	await ready();
	// Its least fair cases include pairs that differ by callee work only
	// (#25 and #26 both read 'xcall lockless · 2 init · 1 in mask · wait=done'):
	// each row is named apart from the others.
	const least = await page.$$eval('#fairness-table tbody tr', (trs) => trs.map((t) => t.cells[0].textContent.replace(/^#\d+ /, '')));
	ok(least.length > 1 && new Set(least).size === least.length && least.some((t) => / µs callee work$/.test(t)),
		'fairness: every least fair case is named apart from the others (here by its callee work)', least);
	ok(errors.length === 0, 'no console errors', errors);
} catch (e) {
	ok(false, `driver: ${e.message}`);
} finally {
	await ctx.close();
}
process.exit(failures() ? 1 : 0);
