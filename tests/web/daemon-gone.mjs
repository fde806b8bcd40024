// daemon-gone.mjs — drives the run page, the runs list and the lab page in
// headless Chromium (playwright-core, /usr/bin/chromium) for
// tests/t-web-daemon-gone.sh while their daemon stops and comes back; prints
// TAP lines. The pages poll (a live run, the lab's machines): with the
// daemon gone each must say so once (what failed, what to do), keep what it
// drew, and drop the notice when the daemon is back.
//
// Environment: XCB_BASE (the daemon), XCB_OUT (screenshots, profile),
// XCB_RUN (a pending run), XCB_MAC (a machine of the lab), XCB_STOP / XCB_START (shell commands that stop the
// daemon and start it again on the same port and database).

import path from 'node:path';
import { execSync } from 'node:child_process';
import { ok, launch, finish } from './browser.mjs';

const BASE = process.env.XCB_BASE, OUT = process.env.XCB_OUT, RUN = process.env.XCB_RUN;
const url = (p) => new URL(p, BASE).toString();
const b = await launch(OUT, 'daemon-gone');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// The runs list's notice (null: the page has no place for one).
const staleText = (pg, id = '#runs-stale') => pg.evaluate((sel) => document.querySelector(sel)?.textContent ?? null, id);
const labRows = (pg) => pg.$$eval('#lab-table tbody tr', (trs) => trs.map((t) => t.dataset.mac));
let crashed = null;
try {
	const run = b.page;
	const list = await b.ctx.newPage();
	list.on('console', (m) => { if (m.type() === 'error') b.errors.push(`${list.url()}: ${m.text()}`); });
	list.on('pageerror', (e) => b.errors.push(`${list.url()}: uncaught ${e.message}`));
	const lab = await b.ctx.newPage();
	lab.on('console', (m) => { if (m.type() === 'error') b.errors.push(`${lab.url()}: ${m.text()}`); });
	lab.on('pageerror', (e) => b.errors.push(`${lab.url()}: uncaught ${e.message}`));
	await run.goto(url(`run.html?id=${RUN}`));
	await b.ready();
	await list.goto(url(''));
	await list.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
	await lab.goto(url('lab.html'));
	await lab.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
	ok(await run.$('#live') !== null, `run page: run #${RUN} is live (the live card)`);
	ok((await list.$$('#runs-body tbody tr')).length === 1 && (await staleText(list)) === '', 'runs list: the run, no notice');
	ok((await labRows(lab)).join() === process.env.XCB_MAC && (await staleText(lab, '#lab-stale')) === '', 'lab page: the machine, no notice');
	const before = b.errors.length;

	execSync(process.env.XCB_STOP);
	await sleep(7500); // 3 polls of the run page (2 s), 2 of the list (3 s)
	const notes = await run.$$eval('#live .bad', (els) => els.map((e) => e.textContent));
	ok(notes.length === 1, `run page: one "update failed" line after 3 failed polls, not one per poll (${notes.length})`, notes);
	ok(notes.length > 0 && /Update failed/.test(notes[0]) && /Is xcbenchd running\?/.test(notes[0]),
		'run page: the line says the update failed and what to do (start xcbenchd)', notes);
	ok(await run.$('#run-head h1') !== null && (await run.textContent('#run-head .badge')) === 'pending', 'run page: what it drew stays');
	const stale = String(await staleText(list));
	ok(/Lost contact with the daemon/.test(stale) && /Is xcbenchd running\?/.test(stale),
		'runs list: says it lost contact, that the rows are as last read, and what to do', stale);
	ok((await list.$$('#runs-body tbody tr')).length === 1, 'runs list: the rows stay');
	// The lab page polls every second: it blanked its table with the error.
	const labStale = String(await staleText(lab, '#lab-stale'));
	ok(/Lost contact with the daemon/.test(labStale) && /Is xcbenchd running\?/.test(labStale) && (await lab.$$('#lab-stale [data-state]')).length === 1,
		'lab page: says once that it lost contact, that the machines are as last read, and what to do', labStale);
	ok((await labRows(lab)).join() === process.env.XCB_MAC, 'lab page: the machines stay', await labRows(lab));
	await run.screenshot({ path: path.join(OUT, 'web-daemon-gone-run.png') });
	await list.screenshot({ path: path.join(OUT, 'web-daemon-gone-runs.png') });
	await lab.screenshot({ path: path.join(OUT, 'web-daemon-gone-lab.png') });
	// The refused fetches are logged by Chromium as console errors: expected
	// while the daemon is down, and only those.
	const refused = (e) => /Failed to load resource: net::ERR_CONNECTION_REFUSED/.test(e);
	const during = b.errors.splice(before);
	ok(during.every(refused), 'while the daemon is down the console has only its refused connections', during);

	execSync(process.env.XCB_START);
	const back = await Promise.all([
		run.waitForFunction(() => !document.querySelector('#poll-error'), null, { timeout: 15000 }).then(() => true, () => false),
		list.waitForFunction(() => document.querySelector('#runs-stale')?.textContent === '', null, { timeout: 15000 }).then(() => true, () => false),
		lab.waitForFunction(() => document.querySelector('#lab-stale')?.textContent === '', null, { timeout: 15000 }).then(() => true, () => false),
	]);
	ok(back[0], 'run page: the notice goes with the next good update');
	ok(back[1], 'runs list: the notice goes with the next good refresh');
	ok(back[2], 'lab page: the notice goes with the next good refresh');
	// A poll refused while XCB_START ran is the outage's: execSync blocks
	// this loop, so its console event arrives only after the daemon is
	// back (CI at 45fda00 failed here on one such line under load). Only
	// a stopped daemon refuses a connection: once it listens again (the
	// notices went), none is refused, and any other error is a fault.
	const after = b.errors.filter((e) => !refused(e));
	ok(after.length === 0, 'no console errors outside the outage (a refused poll is the outage\'s)', after);
} catch (e) {
	crashed = e;
}
await finish(b, crashed);
