// add-algorithm.mjs — t-add-algorithm's last step in Chromium: the algorithm
// a user just added (a renamed lockless, run next to lockless) appears on the
// run page's "compare algorithms" links and on the compare page, which draws
// lockless -> NAME from one run. Checks against the API, prints TAP lines.
//
// Environment: XCB_BASE (the daemon, serving web/), XCB_OUT (screenshot,
// profile), XCB_RUN (the run id), XCB_ALGO (the new algorithm's name).

import fs from 'node:fs';
import path from 'node:path';
import { ok, failures, launch } from './browser.mjs';

const { XCB_BASE: base, XCB_OUT: out, XCB_RUN: run, XCB_ALGO: algo } = process.env;
const url = (p) => new URL(p, base).toString();
const api = async (p) => {
	const r = await fetch(new URL(`api/v1/${p}`, base));
	if (!r.ok) throw new Error(`GET ${p}: HTTP ${r.status}`);
	return r.json();
};
const { ctx, page, errors, ready, profile } = await launch(out, 'add-algorithm');
try {
	await page.goto(url(`run.html?id=${run}`));
	await ready();
	const links = await page.$$eval('a[href*="compare.html"]', (as) => as.map((a) => a.getAttribute('href')));
	const want = `compare.html?a=${run}&b=${run}&algo_a=lockless&algo_b=${algo}`;
	ok(links.includes(want), `run page: "compare algorithms within this run" offers lockless → ${algo}`, links);
	await page.goto(url(want));
	await ready();
	const cmp = await api(`compare?a=${run}&b=${run}&algo_a=lockless&algo_b=${algo}`);
	const titles = await page.$$eval('.pivot-view h3', (hs) => hs.map((x) => x.textContent));
	ok(cmp.pivots.length > 0 && titles.filter((t) => t.includes(`lockless → ${algo}`)).length === cmp.pivots.length,
		`compare page: a table per pivot of lockless → ${algo} (${cmp.pivots.length}, as the API)`, titles);
	const cells = await page.$$eval('table.pivot td[data-sig]', (tds) => tds.length);
	const apiCells = cmp.pivots.reduce((n, p) => n + p.cells.flat().filter(Boolean).length, 0);
	ok(cells === apiCells && cells > 0, `compare page: ${cells} cells, the API's ${apiCells}`);
	await page.screenshot({ path: path.join(out, 'web-add-algorithm.png'), fullPage: true });
	ok(errors.length === 0, 'no console errors on the run and compare pages', errors.join('\n'));
} catch (e) {
	ok(false, 'browser test ran to the end', e.stack || String(e));
} finally {
	await ctx.close().catch(() => {});
	fs.rmSync(profile, { recursive: true, force: true });
}
process.exit(failures() ? 1 : 0);
