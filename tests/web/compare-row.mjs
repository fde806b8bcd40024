// compare-row.mjs — drives compare.html's row= in headless Chromium
// (playwright-core, /usr/bin/chromium) for tests/t-web-compare-row.sh, which
// owns the daemon and the run; prints TAP lines. What the page shows is
// compared with the API's answer for the same row and with the CLI's title.
//
// Environment: XCB_BASE (the daemon), XCB_OUT (screenshot, profile), XCB_RUN
// (the ept boot), XCB_CLI_HOLD / XCB_CLI_ALL (the measure `xcbench compare`
// names with --row writer_hold / without).

import path from 'node:path';
import { ok, launch, finish } from './browser.mjs';

const BASE = process.env.XCB_BASE, OUT = process.env.XCB_OUT, ID = process.env.XCB_RUN;
const HOLD = process.env.XCB_CLI_HOLD, ALL = process.env.XCB_CLI_ALL;
const api = async (p) => { const r = await fetch(new URL(`api/v1/${p}`, BASE)); return { status: r.status, body: await r.json() }; };
const url = (p) => new URL(p, BASE).toString();
const CMP = `a=${ID}&b=${ID}&algo_a=inside&algo_b=after`;
const b = await launch(OUT, 'compare-row');
const { page, errors, ready } = b;

// What the page shows: the answer it drew, the tables' titles, the chooser,
// its links and the a-side figures of the cases table (in cycles, the cells' titles).
const shown = () => page.evaluate(() => ({
	row: window.xcbCompare.data && window.xcbCompare.data.row,
	a_p50: window.xcbCompare.data ? window.xcbCompare.data.cases.map((c) => c.a_p50).sort((x, y) => x - y) : null,
	titles: [...document.querySelectorAll('#pivots h3')].map((e) => e.textContent),
	chooser: document.querySelector('#row') && document.querySelector('#row').value,
	options: document.querySelector('#row') ? [...document.querySelector('#row').options].map((o) => o.value) : [],
	swap: document.querySelector('#swap') && document.querySelector('#swap').getAttribute('href'),
	csv: document.querySelector('#compare-csv') && document.querySelector('#compare-csv').getAttribute('href'),
	text: document.querySelector('#main').textContent,
}));
const sorted = (cases) => cases.map((c) => c.a_p50).sort((x, y) => x - y);

try {
	const hold = (await api(`compare?${CMP}&row=writer_hold`)).body, all = (await api(`compare?${CMP}`)).body;
	ok(hold.row === 'writer_hold' && hold.cases.length > 0 && sorted(hold.cases).join() !== sorted(all.cases).join(),
		`API: row=writer_hold compares other figures than the default (${hold.cases.length} cases)`);

	// ---- row=writer_hold from the URL ----------------------------------------
	await page.goto(url(`compare.html?${CMP}&row=writer_hold`));
	await ready();
	let s = await shown();
	ok(s.row === 'writer_hold' && s.a_p50 && s.a_p50.join() === sorted(hold.cases).join(),
		'row=writer_hold: the page asks the API for the writer\'s hold and shows its figures', { row: s.row, page: s.a_p50, api: sorted(hold.cases) });
	ok(s.titles.length > 0 && s.titles.every((t) => t.includes(HOLD) && !t.includes('read-lock wait per acquisition')),
		`every table's title names the CLI's measure ("${HOLD}"), not the per-read wait`, s.titles);
	ok(s.chooser === 'writer_hold' && ['all', 'writer_hold', 'writer_e2e', 'writer_effective', 'reader_batch'].every((r) => s.options.includes(r)),
		'the row chooser is on writer_hold and offers all and the four rows', s.options);
	ok(/[?&]row=writer_hold(&|$)/.test(s.swap || '') && /[?&]row=writer_hold(&|$)/.test(s.csv || ''),
		'the swap link and the CSV keep the row', { swap: s.swap, csv: s.csv });
	await page.screenshot({ path: path.join(OUT, 'web-compare-row.png'), fullPage: false });

	// ---- the default, then the chooser -----------------------------------------
	await page.goto(url(`compare.html?${CMP}`));
	await ready();
	s = await shown();
	ok(s.row === 'all' && s.a_p50.join() === sorted(all.cases).join() && s.titles.every((t) => t.includes(ALL)),
		`no row: the all row, titled as the CLI's ("${ALL}")`, s.titles);
	ok(s.chooser === 'all', 'the chooser is shown for sync cases, on all', s.chooser);
	await Promise.all([page.waitForNavigation(), page.selectOption('#row', 'reader_batch')]);
	await ready();
	s = await shown();
	const batch = (await api(`compare?${CMP}&row=reader_batch`)).body;
	ok(/[?&]row=reader_batch(&|$)/.test(page.url()) && s.row === 'reader_batch' && s.a_p50.join() === sorted(batch.cases).join(),
		'choosing reader_batch: the URL (the permalink) carries it and the page shows the API\'s figures', { url: page.url(), row: s.row });
	ok(s.titles.length > 0 && s.titles.every((t) => t.includes("the readers' median read-lock wait per batch")),
		'... titled with the readers\' wait per batch', s.titles);

	// ---- lock_hold (seed 001): any case with a lock, by its hold a take -------
	const lockRow = (await api('schema')).body.lock_row;
	ok(lockRow && lockRow.name === 'lock_hold' && s.options.includes('lock_hold'),
		'the chooser offers lock_hold (the schema\'s lock_row)', { lockRow, options: s.options });
	await Promise.all([page.waitForNavigation(), page.selectOption('#row', 'lock_hold')]);
	await ready();
	s = await shown();
	const lock = (await api(`compare?${CMP}&row=lock_hold`)).body;
	ok(/[?&]row=lock_hold(&|$)/.test(page.url()) && s.row === 'lock_hold' && lock.cases.length > 0 &&
		s.a_p50.join() === sorted(lock.cases).join(),
		`choosing lock_hold: the page shows the API's figures (${lock.cases.length} cases: the rw-lock's hold per write)`, { url: page.url(), page: s.a_p50, api: sorted(lock.cases) });
	ok(s.titles.length > 0 && s.titles.every((t) => t.includes(lockRow.measure)),
		`... titled with the schema's words ("${lockRow.measure}")`, s.titles);

	// ---- the run page's sync table: the same words, in show's order ------------
	const rows = (await api('schema')).body.sync_rows;
	await page.goto(url(`run.html?id=${ID}`));
	await ready();
	const ths = await page.$$eval('#sync-table thead th', (t) => t.map((e) => e.textContent));
	const want = [...rows.filter((r) => r.name !== 'all').map((r) => r.label), `${rows[0].label} (p50)`];
	ok(rows[0].name === 'all' && ths.join('|').includes(want.join('|')),
		`run page: the sync table's figures are headed with the schema's sync_rows labels, in show's order (${want.join(', ')})`, ths);
	ok(errors.length === 0, 'no console errors', errors.join('\n'));

	// ---- an unknown row: the API's 400 on the page -------------------------------
	const bad = await api(`compare?${CMP}&row=writer_hld`);
	await page.goto(url(`compare.html?${CMP}&row=writer_hld`));
	await ready();
	s = await shown();
	const msg = bad.body.error && (bad.body.error.message || bad.body.error);
	ok(bad.status === 400 && typeof msg === 'string' && s.text.includes(msg) && s.row === null,
		`row=writer_hld: the page shows the API's 400 ("${msg}")`, s.text.slice(0, 400));
	await finish(b);
} catch (e) {
	await finish(b, e);
}
