// labs.mjs — the runs page where daemons of several labs share one database,
// in headless Chromium (playwright-core, /usr/bin/chromium) for
// tests/t-web-labs.sh, which owns the daemon and the runs; prints TAP lines.
// Every check compares what the page drew with what the API says.
//
// Environment: XCB_BASE (the daemon), XCB_OUT (screenshot, profile),
// XCB_MODE (nolab: the database has no lab's run; the page must look as it
// did before labs).

import path from 'node:path';
import { ok, launch, finish } from './browser.mjs';

const BASE = process.env.XCB_BASE, OUT = process.env.XCB_OUT, MODE = process.env.XCB_MODE || '';
const api = async (p) => (await fetch(new URL(`api/v1/${p}`, BASE))).json();
const url = (p) => new URL(p, BASE).toString();
const b = await launch(OUT, `labs${MODE}`);
const { page, ready } = b;
const headers = () => page.$$eval('#runs thead th', (t) => t.map((x) => x.textContent.trim()));
const rowRuns = () => page.$$eval('#runs tbody tr', (t) => t.map((r) => Number(r.dataset.run)).sort((x, y) => x - y));
const labCells = () => page.$$eval('#runs tbody td[data-col="lab"]', (t) => t.map((x) => x.textContent.trim()).sort());

try {
	await page.goto(url('index.html'));
	await ready();
	if (MODE === 'nolab') {
		ok(!(await headers()).includes('Lab'), 'no run has a lab: no Lab column', await headers());
		ok(!(await page.$('#f-lab')), 'no run has a lab: no Lab filter');
	} else {
		// The Lab page (on lab west's daemon): each machine's lab, this
		// daemon's marked; it showed none, so an operator could not tell
		// which lab's daemon owns a machine.
		await page.goto(url('lab.html'));
		await ready();
		const lab = await api('lab');
		const cells = await page.$$eval('#lab-table tbody tr', (t) => t.map((r) => {
			const c = r.querySelector('td[data-col="lab"]');
			return { mac: r.dataset.mac, text: c ? c.textContent.trim() : null, own: c ? c.dataset.own === '1' : null };
		}));
		const cell = (mac) => cells.find((c) => c.mac === mac) || {};
		ok(lab.lab === 'west' && cells.length === lab.machines.length, `lab page: a row per machine on lab ${lab.lab}'s daemon (${cells.length})`, cells);
		ok((await page.$$eval('#lab-table thead th', (t) => t.map((x) => x.textContent.trim()))).includes('Lab'), 'lab page: a Lab column');
		for (const [mac, text, own] of [['52:54:00:1a:b0:01', 'east', false], ['52:54:00:1a:b0:02', 'west this daemon', true], ['52:54:00:1a:b0:00', '–', false]])
			ok(cell(mac).text === text && cell(mac).own === own, `lab page: ${mac} shows lab '${text}'${own ? ', marked as this daemon\'s' : ''} (${JSON.stringify(cell(mac))})`, cells);
		ok(/this daemon serves lab west/.test(await page.textContent('#lab-stamp')), 'lab page: it says which lab this daemon serves', await page.textContent('#lab-stamp'));
		await page.screenshot({ path: path.join(OUT, 'web-labs-lab.png'), fullPage: true });
		// The machine page names the machine's lab too (it showed none).
		for (const [mac, want] of [['52:54:00:1a:b0:01', 'east'], ['52:54:00:1a:b0:00', null]]) {
			await page.goto(url(`machine.html?mac=${mac}`));
			await page.waitForSelector('#machine-lab', { timeout: 20000 }).catch(() => {});
			const got = await page.textContent('#machine-lab').catch(() => '');
			const api_lab = (await api(`machines/${mac}`)).machine.lab;
			ok(api_lab === want && (want ? got.startsWith(`${want} (`) : got.startsWith('none')),
				`machine page of ${mac}: its lab as the API has it (${api_lab}): "${got}"`);
		}

		await page.goto(url('index.html'));
		await ready();
		const all = (await api('runs')).runs;
		ok((await headers()).includes('Lab'), 'runs of several labs: a Lab column', await headers());
		const want = all.map((r) => r.lab || '–').sort();
		ok(JSON.stringify(await labCells()) === JSON.stringify(want), `each row names its run's lab (${want})`, await labCells());
		const opts = await page.$$eval('#f-lab option', (o) => o.map((x) => x.value));
		ok(JSON.stringify(opts) === JSON.stringify(['', 'east', 'west']), `a Lab filter: any, east, west (${opts})`, opts);
		await page.screenshot({ path: path.join(OUT, 'web-labs.png'), fullPage: true });
		for (const lab of ['east', 'west']) {
			await page.selectOption('#f-lab', lab);
			const wantIds = (await api(`runs?lab=${lab}`)).runs.map((r) => r.id).sort((x, y) => x - y);
			await page.waitForFunction((n) => document.querySelectorAll('#runs tbody tr').length === n, wantIds.length, { timeout: 10000 }).catch(() => {});
			const got = await rowRuns();
			ok(wantIds.length === 1 && JSON.stringify(got) === JSON.stringify(wantIds), `Lab ${lab}: only that lab's runs, as ?lab=${lab} (${got})`, { got, wantIds });
			ok(new URL(page.url()).searchParams.get('lab') === lab, `Lab ${lab}: the URL keeps it (${page.url()})`);
			const csv = await page.getAttribute('#runs-csv', 'href');
			ok(new URL(csv, BASE).searchParams.get('lab') === lab, `Lab ${lab}: the CSV link exports the same runs (${csv})`);
		}
		// a bookmarked filter: the page opens on it
		await page.goto(url('index.html?lab=east'));
		await ready();
		const east = (await api('runs?lab=east')).runs.map((r) => r.id);
		ok(JSON.stringify(await rowRuns()) === JSON.stringify(east) && (await page.inputValue('#f-lab')) === 'east',
			`?lab=east opens filtered (${await rowRuns()})`);
		await page.click('text=Clear filters');
		await page.waitForFunction((n) => document.querySelectorAll('#runs tbody tr').length === n, all.length, { timeout: 10000 }).catch(() => {});
		ok((await rowRuns()).length === all.length, `Clear filters lists every lab's runs again (${(await rowRuns()).length})`);

		// More runs than a page (100), the newest all of this daemon's lab:
		// the other lab's runs are on page 2 only, and still a filter (the
		// page took its labs from the runs it listed); a column's sort is
		// said to order this page only (the daemon pages newest first).
		for (let i = 0; i < 100; i++) {
			const r = await fetch(new URL('api/v1/runs', BASE), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ suite: 'paged' }) });
			if (!r.ok) throw new Error(`POST runs: HTTP ${r.status}`);
		}
		const firstPage = (await api('runs?limit=100')).runs;
		await page.goto(url('index.html'));
		await ready();
		const labOpts = await page.$$eval('#f-lab option', (o) => o.map((x) => x.value));
		ok(!firstPage.some((r) => r.lab === 'east') && labOpts.includes('east') && labOpts.includes('west'),
			`runs of lab east only past the first page: the Lab filter still offers it (${labOpts})`, labOpts);
		ok((await page.$('#sort-page-only')) === null, 'newest first (the daemon\'s order): no note on the sort');
		await page.click('#runs th[data-sort=id]');
		await page.click('#runs th[data-sort=id]');
		const note = await page.textContent('#pager');
		ok(new URL(page.url()).searchParams.get('dir') === 'asc' && /sorted by Run within this page only/.test(note),
			'sorted by run, ascending, over 103 runs: the pager says the sort orders this page only', note);

		// A filter the daemon refuses (?lab= of no lab: 400) is the view's:
		// said in place of the rows, not as lost contact with the daemon, and
		// not asked again every refresh (3 s; the page's clock is run on).
		const asked = [];
		page.on('request', (r) => { if (/\/api\/v1\/runs\?/.test(r.url())) asked.push(r.url()); });
		await page.clock.install();
		await page.goto(url('index.html?lab=nosuch'));
		await ready();
		const asked0 = asked.length;
		await page.clock.runFor(10000);
		await page.evaluate(() => fetch('api/v1/health').then((r) => r.text())); // after any request the timers made
		const bad = await fetch(new URL('api/v1/runs?lab=nosuch', BASE));
		const msg = (await bad.json()).error;
		const shown = { body: await page.textContent('#runs-body'), stale: await page.textContent('#runs-stale'), pager: await page.textContent('#pager') };
		ok(bad.status === 400 && shown.body.includes(`Could not load the runs: ${msg.message || msg}`) && shown.stale === '' && shown.pager === '',
			'?lab=nosuch: the API\'s 400 in place of the rows, no "lost contact" notice, no pager', shown);
		ok(asked0 === 1 && asked.length === asked0, `... and the refused list is not asked again as the page's clock runs 10 s (${asked.length} requests)`, asked);
	}
	// (the refused ?lab=nosuch is logged by Chromium: that one is expected)
	const unexpected = b.errors.filter((e) => !/\?lab=nosuch: Failed to load resource: .* 400/.test(e));
	ok(unexpected.length === 0, 'no console error or uncaught exception', unexpected);
	await finish(b);
} catch (e) {
	await finish(b, e);
}
