// skipped.mjs — drives run.html in headless Chromium (playwright-core,
// /usr/bin/chromium) for tests/t-web-skipped.sh, which owns the daemon and
// its two runs; prints TAP lines. The words expected are xcbench show's for
// the same run (XCB_SHOW_SKIPPED), never a copy written here.
//
// Environment: XCB_BASE (the daemon), XCB_OUT (screenshot, profile),
// XCB_RUN_SKIPPED (a run with skips), XCB_RUN_NONE (a run without),
// XCB_SHOW_SKIPPED (show's line for XCB_RUN_SKIPPED).

import path from 'node:path';
import { ok, launch, finish } from './browser.mjs';

const BASE = process.env.XCB_BASE, OUT = process.env.XCB_OUT;
const SHOW = process.env.XCB_SHOW_SKIPPED;
const api = async (p) => (await fetch(new URL(`api/v1/${p}`, BASE))).json();
const url = (p) => new URL(p, BASE).toString();
const b = await launch(OUT, 'skipped');
const { page, errors, ready } = b;
let crashed = null;

try {
	const run = await api(`runs/${process.env.XCB_RUN_SKIPPED}`);
	ok(run.skipped && run.skipped.cases > 0 && run.cases.length > 0,
		`the API's run skipped ${run.skipped && run.skipped.cases} cases and ran ${run.cases.length}`, run.skipped);

	await page.goto(url(`run.html?id=${process.env.XCB_RUN_SKIPPED}`));
	await ready();
	const head = await page.evaluate(() => {
		const p = document.querySelector('#run-head #run-skipped');
		return p && { says: (p.querySelector('.says') || {}).textContent, link: !!p.querySelector('a[href="#errors"]'),
			shown: p.getBoundingClientRect().height > 0, sub: (p.previousElementSibling || {}).textContent };
	});
	ok(head && head.shown && head.says === SHOW,
		`the run page's header says show's line: "${head && head.says}"`, { page: head, show: SHOW });
	ok(head && head.link, '... and points to Errors and logs, where each skip\'s LOG line is', head);
	ok(head && / · 1 cases/.test(head.sub || ''), `... under the line with the count of cases that ran ("${head && head.sub}")`, head);
	await page.locator('#run-head').screenshot({ path: path.join(OUT, 'web-skipped.png') });

	await page.goto(url(`run.html?id=${process.env.XCB_RUN_NONE}`));
	await ready();
	const none = await page.evaluate(() => !!document.querySelector('#run-skipped'));
	ok(!none, 'a run that skipped nothing: no such line');
	ok(errors.length === 0, `no console errors (${errors.length})`, errors);
} catch (e) {
	crashed = e;
}
await finish(b, crashed);
