// compare-noflush.mjs — drives compare.html in headless Chromium
// (playwright-core, /usr/bin/chromium) for tests/t-web-compare-noflush.sh,
// which owns the daemon and its run (XCB_RUN: early_ack cases, masks 1-3, at
// method invlpg and none); prints TAP lines. What the page must show is
// read from the API's answer for the same query (its b_no_flush, its
// warning line), never from a copy in this file.
//
// Environment: XCB_BASE (the daemon), XCB_OUT (screenshot, profile), XCB_RUN.

import path from 'node:path';
import { ok, launch, finish } from './browser.mjs';

const BASE = process.env.XCB_BASE, OUT = process.env.XCB_OUT, R = process.env.XCB_RUN;
const api = async (p) => (await fetch(new URL(`api/v1/${p}`, BASE))).json();
const url = (p) => new URL(p, BASE).toString();
const b = await launch(OUT, 'compare-noflush');
const { page, errors, ready } = b;

// What the page shows of the marks: each pivot cell's and each matched
// case's (the change cell, the table's first column), and the warnings.
const seen = () => page.evaluate(() => {
	const mark = (td) => {
		const m = td.querySelector('.no-flush-mark');
		return m ? { text: m.textContent.trim(), title: m.title } : null;
	};
	return {
		cells: [...document.querySelectorAll('#pivots table.pivot tbody td')].filter((td) => !td.classList.contains('muted')).map(mark),
		cases: [...document.querySelectorAll('#cases tbody tr')].map((tr) => mark(tr.children[0])),
		warnings: [...document.querySelectorAll('#compare-warnings .warning')].map((e) => e.textContent),
	};
});

try {
	const Q = `a=${R}&b=${R}&a_where=method=invlpg&b_where=method=none`;
	const cmp = await api(`compare?${Q}`);
	const nb = cmp.cases.filter((c) => c.b_no_flush && !c.a_no_flush).length;
	const line = (cmp.warnings || []).find((w) => /of method none on B's side/.test(w));
	ok(cmp.cases.length === 3 && nb === 3 && line, `API: 3 cases, each b_no_flush, and B's warning line ("${line}")`, cmp.warnings);

	await page.goto(url(`compare.html?${Q}`));
	await ready();
	let s = await seen();
	ok(s.cells.length === 3 && s.cells.every((m) => m && m.text === '0B' && /side B: it invalidates nothing/.test(m.title)),
		'each pivot cell is marked 0B, its title saying B invalidates nothing', s.cells);
	ok(s.cases.length === 3 && s.cases.every((m) => m && m.text === '0B'),
		'each row of the matched-case table is marked 0B', s.cases);
	ok(line && s.warnings.includes(`⚠ ${line}`), 'the API\'s warning line is shown', s.warnings);
	await page.locator('#pivots').screenshot({ path: path.join(OUT, 'web-compare-noflush.png') });

	// invlpg against invlpg: a shootdown on both sides, nothing marked.
	await page.goto(url(`compare.html?a=${R}&b=${R}&a_where=method=invlpg&b_where=method=invlpg`));
	await ready();
	s = await seen();
	ok(s.cells.length === 3 && s.cases.length === 3 && [...s.cells, ...s.cases].every((m) => m === null)
		&& !s.warnings.some((w) => /method none/.test(w)), 'invlpg against invlpg: no mark, no such warning', s);
	ok(errors.length === 0, 'no console errors', errors);
	await finish(b);
} catch (e) {
	await finish(b, e);
}
