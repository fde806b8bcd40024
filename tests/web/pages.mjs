// pages.mjs — drives run.html in headless Chromium (playwright-core,
// /usr/bin/chromium) for tests/t-run-pages.sh, which owns the daemon and the
// run: a run of more cases than one API page (GET runs/{id} answers 1000 and
// cases_next) is drawn whole. Prints TAP lines.
//
// Environment: XCB_BASE (the daemon), XCB_OUT (profile), XCB_RUN (the run),
// XCB_CASES (how many cases it has).

import { ok, failures, launch } from './browser.mjs';

const BASE = process.env.XCB_BASE, OUT = process.env.XCB_OUT, N = Number(process.env.XCB_CASES);
const { ctx, page, errors, ready } = await launch(OUT, 'pages');
const notFound = [];
page.on('response', (r) => { if (r.status() === 404) notFound.push(r.url()); });

try {
	await page.goto(new URL(`run.html?id=${process.env.XCB_RUN}`, BASE).toString());
	await ready();
	const got = await page.evaluate(() => {
		const d = window.xcbRun.detail;
		return { cases: d.cases.length, last: d.cases[d.cases.length - 1].case_id, head: document.querySelector('#run-head').textContent };
	});
	ok(got.cases === N && got.last === N, `run page: all ${N} cases read, the last page's too (${got.cases}, last case ${got.last})`);
	ok(got.head.includes(`${N} cases`), `run page: its head says ${N} cases`, got.head.slice(0, 300));
	// The hand-made run sends no HISTO frames: the histogram of the case the
	// page opens is a 404 it asked for, and says so on the page.
	const histOnly = notFound.every((u) => /\/cases\/[0-9]+\/histogram/.test(u));
	const real = errors.filter((e) => !/Failed to load resource.*404/.test(e));
	ok(real.length === 0 && histOnly && errors.length <= notFound.length,
		'no console errors (but the 404 of a histogram this run has not)', { errors, notFound });
} catch (e) {
	ok(false, `driver: ${e.message}`);
} finally {
	await ctx.close();
}
process.exit(failures() ? 1 : 0);
