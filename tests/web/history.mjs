// history.mjs — drives machine.html and compare.html in headless Chromium
// (playwright-core, /usr/bin/chromium) for tests/t-web-history.sh, which owns
// the daemon and the runs; prints TAP lines. Every check compares what the
// page drew (window.xcbCharts, the DOM) with what the API says.
//
// Environment: XCB_BASE (the daemon), XCB_OUT (screenshots, profile),
// XCB_MACHINE (the machine id), XCB_RUNS (its six run ids, boot order).

import path from 'node:path';
import { ok, launch, finish } from './browser.mjs';

const BASE = process.env.XCB_BASE, OUT = process.env.XCB_OUT, MID = process.env.XCB_MACHINE;
const RUNS = process.env.XCB_RUNS.split(' ').map(Number);
const api = async (p) => (await fetch(new URL(`api/v1/${p}`, BASE))).json();
const url = (p) => new URL(p, BASE).toString();
const median = (v) => { const s = [...v].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
// The trend chart's texts apart: the y axis title, the tick labels, the
// legend and the runs' labels above their points. The chart is drawn again
// with its canvas's fillText watched, so every text is boxed where it was
// really drawn (measureText's ink box, through the canvas transform of the
// moment: the title is rotated). The first run's label, centred on a point
// on the plot's left edge, was drawn over the y axis's tick labels.
async function trendTextApart(what) {
	const r = await page.evaluate(() => {
		const c = window.xcbCharts.trend, ctx = c.ctx, boxes = [];
		ctx.fillText = function (text, x, y, maxWidth) {
			const m = ctx.measureText(text), t = ctx.getTransform();
			// a text wider than maxWidth is squeezed to it
			const sx = maxWidth !== undefined && m.width > maxWidth ? maxWidth / m.width : 1;
			const l = x - sx * m.actualBoundingBoxLeft, rt = x + sx * m.actualBoundingBoxRight;
			const tp = y - m.actualBoundingBoxAscent, bt = y + m.actualBoundingBoxDescent;
			const pts = [[l, tp], [rt, tp], [l, bt], [rt, bt]].map(([a, b]) => [t.a * a + t.c * b + t.e, t.b * a + t.d * b + t.f]);
			const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
			boxes.push({ text: String(text), l: Math.min(...xs), r: Math.max(...xs), t: Math.min(...ys), b: Math.max(...ys) });
			return CanvasRenderingContext2D.prototype.fillText.call(this, text, x, y, maxWidth);
		};
		c.draw();
		delete ctx.fillText;
		const hit = [];
		boxes.forEach((a, i) => boxes.slice(i + 1).forEach((o) => {
			if (a.l < o.r - 1 && o.l < a.r - 1 && a.t < o.b - 1 && o.t < a.b - 1) hit.push(`'${a.text}' / '${o.text}'`);
		}));
		return { hit, n: boxes.length, texts: boxes.map((x) => x.text) };
	});
	ok(r.n > 10 && r.texts.some((t) => /^p50 call time/.test(t)) && !r.hit.length,
		`trend chart at ${what}: no two of its ${r.n} texts overlap (axis titles, tick labels, legend, the runs' labels)`, r.hit.slice(0, 6));
}

const b = await launch(OUT, 'history');
const { ctx, page, errors, ready } = b;

try {
	// ---- the runs list's Suite filter: the payload's suites (the schema's),
	// not only the suites of the runs loaded (all six are "seed") ----------
	await page.goto(url('index.html'));
	await ready();
	const suites = (await api('schema')).suites || [];
	const offered = await page.$$eval('#f-suite option', (o) => o.map((x) => x.value).filter(Boolean));
	ok(suites.includes('seed') && suites.length > 1 && JSON.stringify(offered) === JSON.stringify([...suites].sort()),
		`runs list: the Suite filter offers the schema's ${suites.length} suites`, { suites, offered });

	// ---- machine page ----------------------------------------------------
	await page.goto(url(`machine.html?id=${MID}`));
	await ready();
	const machines = (await api('machines')).machines;
	const m = machines.find((x) => String(x.id) === MID);
	ok((await page.textContent('#machine-title')).includes(m.mac), `machine page names the machine (${m.mac})`);
	const factRows = await page.$$eval('#facts tbody tr', (t) => t.map((r) => r.querySelector('a').textContent));
	ok(JSON.stringify(factRows) === JSON.stringify(RUNS.map((r) => `#${r}`)), 'facts over time: one row per run, oldest first', factRows);
	const runRows = await page.$$eval('#runs tbody tr', (t) => t.length);
	ok(runRows === 6, `runs section lists its 6 runs (${runRows})`);
	const bl = (await api(`baselines?machine=${MID}`)).baselines;
	const marked = await page.$$eval('#runs tbody tr', (t) => t.filter((r) => r.querySelector('.badge.baseline')).map((r) => Number(r.querySelector('a').textContent.slice(1))));
	ok(bl.length === 1 && JSON.stringify(marked.sort()) === JSON.stringify([...bl[0].runs].sort()), `the baseline's runs are marked (${marked})`, { bl, marked });
	const tr = await page.evaluate(() => window.xcbCharts.trend && { xcb: window.xcbCharts.trend.$xcb, n: window.xcbCharts.trend.data.datasets.length });
	ok(tr && tr.xcb.points.length === 6, `trend chart: one point per run (${tr && tr.xcb.points.length})`);
	// the points are the API's: median of each run's repetitions' p50, in ns
	const key = tr.xcb.key;
	let same = true, diag = [];
	for (const pt of tr.xcb.points) {
		const d = await api(`runs/${pt.run}`);
		const c = d.cases.find((x) => {
			const cfg = x.config;
			return Object.keys(cfg).filter((k) => !k.startsWith('x_') && !['id', 'iters', 'warmup', 'reps', 'seed'].includes(k)).sort().map((k) => `${k}=${cfg[k]}`).join('&') === key;
		});
		const want = c && median(c.rep_p50) * 1e6 / d.run.tsc_khz;
		if (!c || Math.abs(want - pt.p50) > 1e-6 * want || !(pt.lo <= pt.p50 && pt.p50 <= pt.hi)) { same = false; diag.push({ pt, want }); }
	}
	ok(same, `trend points = median of each run's repetition p50 (ns), inside their spread (${key})`, diag);
	ok(JSON.stringify(tr.xcb.points.map((p) => p.label)) === JSON.stringify(RUNS.map((_, i) => `boot ${i + 1}`)), 'trend points carry the runs\' labels', tr.xcb.points.map((p) => p.label));
	await trendTextApart('1366 px');
	// and on a narrow window, where the runs' points crowd the axis
	await page.setViewportSize({ width: 640, height: 900 });
	await page.waitForFunction(() => window.xcbCharts.trend.width < 640, null, { timeout: 10000 });
	await trendTextApart('640 px');
	await page.setViewportSize({ width: 1366, height: 900 });
	await page.waitForFunction(() => window.xcbCharts.trend.width > 1000, null, { timeout: 10000 });
	// choose another case: the chart follows and the URL keeps it
	const opts = await page.$$eval('#trend-case option', (o) => o.map((x) => x.value));
	await page.selectOption('#trend-case', opts[3]);
	const k2 = await page.evaluate(() => window.xcbCharts.trend.$xcb.key);
	ok(k2 === opts[3] && page.url().includes('case='), 'choosing another case redraws the trend and keeps it in the URL');
	await page.selectOption('#trend-case', opts[0]);
	// The case chooser stays inside a narrow window, its longest key too
	// (sync cases' keys run past 640 px): the page never scrolls sideways.
	await page.setViewportSize({ width: 640, height: 900 });
	await page.waitForFunction(() => window.xcbCharts.trend.width < 640, null, { timeout: 10000 }); // the chart resized too
	const wide = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth,
		sel: Math.round(document.querySelector('#trend-case').getBoundingClientRect().right),
		longest: Math.max(...[...document.querySelectorAll('#trend-case option')].map((o) => o.textContent.length)) }));
	ok(wide.page <= wide.view && wide.sel <= wide.view, `the trend's case chooser fits 640 px (longest key ${wide.longest} chars)`, wide);
	await page.setViewportSize({ width: 1366, height: 900 });
	// Runs without a TSC rate (tsc_khz 0, and null as the API may say it):
	// the whole trend is in cycles, each point its run's median repetition
	// p50 in cycles, and the note names those runs. The page drew the runs
	// after the first in ns on an axis the first named, or cycles among ns.
	const noRate = { [RUNS[1]]: 0, [RUNS[2]]: null };
	await page.route(/\/api\/v1\/runs\/\d+$/, async (route) => {
		const res = await route.fetch(), d = await res.json();
		if (String(d.run.id) in noRate) d.run.tsc_khz = noRate[d.run.id];
		await route.fulfill({ response: res, json: d });
	});
	await page.reload();
	await ready();
	const cy = await page.evaluate(() => ({ ...window.xcbCharts.trend.$xcb, title: window.xcbCharts.trend.options.scales.y.title.text,
		note: document.querySelector('#trend-note').textContent }));
	let cyOk = cy.unit === 'cycles' && cy.points.length === 6 && / \(cycles\)$/.test(cy.title);
	for (const pt of cy.points) {
		const c = (await api(`runs/${pt.run}`)).cases.find((x) => Object.keys(x.config).filter((k) => !k.startsWith('x_') && !['id', 'iters', 'warmup', 'reps', 'seed'].includes(k))
			.sort().map((k) => `${k}=${x.config[k]}`).join('&') === cy.key);
		if (!c || pt.p50 !== median(c.rep_p50)) cyOk = false;
	}
	ok(cyOk && cy.note.includes(`runs #${RUNS[1]}, #${RUNS[2]} have no TSC rate`),
		'trend with runs of no TSC rate (0, null): every point in cycles, the note names them', { unit: cy.unit, title: cy.title, note: cy.note, points: cy.points.map((x) => x.p50) });
	await page.unroute(/\/api\/v1\/runs\/\d+$/);
	await page.reload();
	await ready();
	// Mark the newer three boots as the baseline from the page (token asked once).
	page.once('dialog', (d) => d.accept(process.env.XCB_TOKEN));
	for (const r of RUNS.slice(3)) await page.check(`#runs tr[data-run="${r}"] input.pick`);
	await page.click('#mark-baseline');
	// done when the redrawn table marks the new baseline's runs
	await page.waitForFunction((want) => JSON.stringify([...document.querySelectorAll('#runs tbody tr')]
		.filter((r) => r.querySelector('.badge.baseline')).map((r) => Number(r.dataset.run)).sort()) === want,
	JSON.stringify(RUNS.slice(3)), { timeout: 15000 }).catch(() => {});
	const bl2 = (await api(`baselines?machine=${MID}`)).baselines;
	const marked2 = await page.$$eval('#runs tbody tr', (t) => t.filter((r) => r.querySelector('.badge.baseline')).map((r) => Number(r.dataset.run)));
	ok(bl2.length === 1 && JSON.stringify(bl2[0].runs) === JSON.stringify(RUNS.slice(3)) && JSON.stringify(marked2.sort()) === JSON.stringify(RUNS.slice(3)),
		'the page marks ticked runs as the baseline (POST with the token) and shows it', { bl2, marked2 });
	await page.screenshot({ path: path.join(OUT, 'web-machine.png'), fullPage: true });
	// Opened by ?id= (the runs list's links), the page finds the MAC its power
	// and jobs sections are keyed by (they used to stay two empty cards).
	await page.waitForSelector('#machine-jobs h2', { timeout: 10000 }).catch(() => {});
	const sections = await page.$$eval('#machine-power h2, #machine-jobs h2', (t) => t.map((x) => x.textContent));
	ok(JSON.stringify(sections) === '["Power","Jobs"]', 'machine page by id: its power and jobs sections', sections);

	// ---- the latency panels' shared y range: what is drawn only ------------
	// A one-point band (p10..p99 of a mask with one case) has no area and no
	// point radius: its p99 must not set the range (it left lines flat at 0).
	const rng = await page.evaluate(async () => {
		const { shareRange } = await import('./js/run-latency.js');
		const chart = (datasets) => ({ data: { datasets }, options: { scales: { y: {} } }, $xcb: {}, update() {} });
		const a = chart([{ data: [{ x: '1', y: 10 }, { x: '2', y: 20 }] }, { xcbRole: 'band', data: [{ x: '1', y: 5000 }] }]);
		const b = chart([{ data: [{ x: '1', y: 30 }] }, { xcbRole: 'band', data: [{ x: '1', y: 8 }, { x: '2', y: 40 }] }]);
		shareRange([a, b], false);
		return a.$xcb.range;
	});
	ok(JSON.stringify(rng) === JSON.stringify([0, 40 * 1.05]), 'shared y range: a one-point band does not stretch it, a drawn band does', rng);

	// ---- a run ingested from a serial capture says so, not "ran 0.0 s" ------
	await page.goto(url(`run.html?id=${RUNS[0]}`));
	await ready();
	const head = await page.textContent('#run-head');
	ok(head.includes('from a serial capture') && !/ran \d/.test(head), 'run page of a capture: ingested, no run time', head.slice(0, 300));

	// ---- compare: a single pair warns, a group does not --------------------
	await page.goto(url(`compare.html?a=${RUNS[0]}&b=${RUNS[3]}`));
	await ready();
	const w = await page.textContent('#compare-warnings').catch(() => '');
	ok(w.includes('1 boot per side: no between-boot variance, intervals are within-boot only'), 'compare page, one run a side: the within-boot warning', w);
	await page.screenshot({ path: path.join(OUT, 'web-compare-pair.png'), fullPage: false });
	const A = RUNS.slice(0, 3).join(','), B = RUNS.slice(3).join(',');
	await page.goto(url(`compare.html?a=${A}&b=${B}`));
	await ready();
	const cmp = await api(`compare?a=${A}&b=${B}`);
	const w2 = await page.$('#compare-warnings');
	ok(!w2, 'compare page, 3 boots a side: no warning');
	const sum = await page.textContent('#summary');
	ok(sum.includes('between boots (3 vs 3)') && sum.includes(`${cmp.summary.slower} significantly slower`) && sum.includes(cmp.star_text) &&
		/interval excludes 0.*Benjamini-Hochberg.*the interval's own test/.test(cmp.star_text),
		'compare page names the level, the counts and the method', sum);
	await page.click('#calibrate');
	await page.waitForFunction(() => window.xcbCompare.calibration, null, { timeout: 30000 });
	const cal = await page.textContent('#calibrate-result');
	const capi = await api(`calibrate?runs=${A},${B}`);
	ok(cal.includes(`groups of 3 mark ${(100 * capi.groups.false_positive_rate).toFixed(1)} %`) &&
		cal.includes(`single pairs mark ${(100 * capi.pairs.false_positive_rate).toFixed(1)} %`),
		'the Calibrate button (same conditions: both sides\' 6 boots) shows the A/A rates of the API', cal);
	await page.screenshot({ path: path.join(OUT, 'web-compare-groups.png'), fullPage: false });
	// "Other runs…" opens the picker filled with what is compared (groups,
	// algorithms, where-lists, row): submitted untouched, it asks the same
	// comparison again. It opened an empty one, every field dropped.
	const asked = { a: A, b: B, algo_a: 'locked', algo_b: 'queued', a_where: 'work_us=0', b_where: 'work_us=5', row: 'writer_hold' };
	await page.goto(url(`compare.html?${new URLSearchParams(asked)}`));
	await ready();
	await page.click('text=Other runs…');
	await page.waitForSelector('form#picker', { timeout: 10000 }).catch(() => {});
	const filled = await page.evaluate(() => {
		const v = (sel) => (document.querySelector(sel) || {}).value;
		return { a: v('#group-a'), b: v('#group-b'), algo_a: v('form#picker [name=algo_a]'), algo_b: v('form#picker [name=algo_b]'),
			a_where: v('form#picker [name=a_where]'), b_where: v('form#picker [name=b_where]'), row: v('form#picker [name=row]') };
	});
	ok(JSON.stringify(filled) === JSON.stringify(asked), 'compare page: "Other runs…" opens the picker filled with the comparison', filled);
	await Promise.all([page.waitForNavigation().catch(() => {}), page.click('form#picker button[type=submit]').catch(() => {})]);
	// The new page loaded and drawn before the network is cut below: a
	// request of it still in flight then failed as a console error (CI at
	// 44e1840, ERR_INTERNET_DISCONNECTED).
	await ready();
	const again = Object.fromEntries(new URL(page.url()).searchParams);
	ok(JSON.stringify(again) === JSON.stringify(asked), '... and submitted untouched, it asks the same comparison', again);

	// ---- the HTML export, opened from disk with the network cut ------------
	await ctx.setOffline(true);
	await page.goto(`file://${process.env.XCB_HTML}`);
	const dots = await page.$$eval('svg circle', (c) => c.length);
	const starred = await page.$$eval('td.up', (c) => c.length);
	const plant = await api(`compare?a=${A}&b=${A}&a_where=work_us=0&b_where=work_us=5`);
	ok(dots === plant.cases.length && starred === plant.summary.slower,
		`HTML export, offline: a dot per case (${dots}) and the marked-slower cells (${starred}) as the API`, { dots, starred, api: plant.summary });
	await page.screenshot({ path: path.join(OUT, 'web-compare-export.png'), fullPage: true });
	await ctx.setOffline(false);

	// ---- a cross-call case's figure is named with the schema's call_row
	// (host/common/pseudo_words.c, served once), not words of the page's own:
	// with the schema's words changed, the trend says the changed ones.
	await page.route('**/api/v1/schema', async (route) => {
		const res = await route.fetch();
		const json = await res.json();
		json.call_row = { ...json.call_row, label: 'call time (the schema\u2019s words)', measure: 'the median call time (the schema\u2019s words)' };
		await route.fulfill({ response: res, json });
	});
	await page.goto(url(`machine.html?id=${MID}`));
	await ready();
	const callY = await page.evaluate(() => window.xcbCharts.trend && window.xcbCharts.trend.options.scales.y.title.text);
	ok(callY === 'p50 call time (the schema\u2019s words) (ns)', 'machine page: a cross-call trend names its figure with the schema\'s call_row', callY);
	await page.unroute('**/api/v1/schema');
	ok(errors.length === 0, 'no console errors', errors.join('\n'));
	await finish(b);
} catch (e) {
	await finish(b, e);
}
