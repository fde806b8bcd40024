// lab.mjs — the lab pages in headless Chromium (playwright-core,
// /usr/bin/chromium) against a real xcbenchd, TAP lines out. Started by
// tests/t-web-lab.sh, which owns the daemon and the simulated machine.
//
// Environment: XCB_BASE (the daemon), XCB_OUT (screenshots, profile),
// XCB_MAC (the machine, with a `command` power driver whose power-on makes
// it boot: /boot.ipxe, then a run's frames in two parts), XCB_QUEUE (shell
// command: queue its job), XCB_SECRET (its password file's content, which
// no page may show).
//
// The Lab page is loaded before the job is queued and never reloaded: the
// states it shows must change by themselves as the job runner moves.

import { createRequire } from 'node:module';
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(ROOT, 'web/package.json'));
const { chromium } = require('playwright-core');
const BASE = process.env.XCB_BASE;
const OUT = process.env.XCB_OUT;
const MAC = process.env.XCB_MAC;

let failed = 0;
const ok = (cond, name, diag) => {
	console.log(`${cond ? 'ok' : 'not ok'} - ${name}`);
	if (!cond) {
		failed++;
		if (diag !== undefined) console.log(`# ${String(diag).split('\n').join('\n# ')}`);
	}
	return cond;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function api(p) {
	const r = await fetch(new URL(`api/v1/${p}`, BASE));
	return r.json();
}

const profile = fs.mkdtempSync(path.join(OUT, 'chromium-lab-'));
const ctx = await chromium.launchPersistentContext(profile, {
	executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1280, height: 720 },
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
		'--disable-component-update', '--disable-sync'],
});
const errors = [];
const page = ctx.pages()[0] || (await ctx.newPage());
page.on('pageerror', (e) => errors.push(`uncaught ${e.message}`));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

try {
	await page.goto(new URL('lab.html', BASE).toString());
	await page.waitForSelector(`#lab-table tr[data-mac="${MAC}"]`, { timeout: 20000 });
	const first = await page.getAttribute(`tr[data-mac="${MAC}"]`, 'data-state');
	ok(first === 'idle', `lab page lists ${MAC}, idle before its job (${first})`);
	ok(await page.evaluate(() => document.body.dataset.ready === '1'), 'lab page: drawn, it sets body[data-ready] as every page does');
	await page.screenshot({ path: path.join(OUT, 'web-lab-idle.png'), fullPage: true });

	execSync(process.env.XCB_QUEUE, { stdio: 'inherit' });
	// Watch the row's state as the page redraws it (no reload).
	const seen = [];
	const shots = new Set();
	const t0 = Date.now();
	for (;;) {
		const s = await page.getAttribute(`tr[data-mac="${MAC}"]`, 'data-state').catch(() => null);
		if (s && seen[seen.length - 1] !== s) seen.push(s);
		if (s && s !== 'idle' && !shots.has(s)) {
			shots.add(s);
			await page.screenshot({ path: path.join(OUT, `web-lab-${s}.png`), fullPage: true });
		}
		const run = await page.textContent(`tr[data-mac="${MAC}"] td:nth-child(6)`).catch(() => '');
		if (seen.includes('running') && s === 'idle' && /complete/.test(run)) break;
		if (Date.now() - t0 > 90000) break;
		await sleep(150);
	}
	console.log(`# states the lab page showed: ${seen.join(' -> ')}`);
	const order = ['idle', 'powering_on', 'booting', 'running', 'idle'];
	ok(seen.includes('powering_on') || seen.includes('booting'), 'the page showed the machine powering on / booting', seen.join(' '));
	ok(seen.includes('running'), 'the page showed it running', seen.join(' '));
	ok(seen.filter((s) => order.includes(s)).every((s, i, a) => i === 0 || order.indexOf(s) >= order.indexOf(a[i - 1]) || s === 'idle'),
		'in lifecycle order', seen.join(' '));
	ok(seen[seen.length - 1] === 'idle', 'and idle again at the end, without a reload', seen.join(' '));
	const lab = await api('lab');
	const m = lab.machines.find((x) => x.mac === MAC);
	const runCell = await page.textContent(`tr[data-mac="${MAC}"] td:nth-child(6)`);
	ok(m.last_run && runCell.includes(`run ${m.last_run.id}`) && runCell.includes(m.last_run.status),
		`last run shown as the API has it (run ${m.last_run?.id} ${m.last_run?.status})`, runCell);
	await page.screenshot({ path: path.join(OUT, 'web-lab-done.png'), fullPage: true });

	// The machine page: power settings without the password, the job's events.
	// The job may still gain an event (its power-off at the end) after the lab
	// page showed it idle: load the page until the API's events are the same
	// before and after the load (at most 20 tries), then compare.
	let job, rows;
	for (let tries = 0; tries < 20; tries++) {
		const before = (await api(`machines/${MAC}`)).machine.jobs[0];
		await page.goto(new URL(`machine.html?mac=${MAC}`, BASE).toString());
		await page.waitForSelector('#power-facts', { timeout: 20000 });
		await page.waitForSelector('.card.job', { timeout: 20000 });
		job = (await api(`machines/${MAC}`)).machine.jobs[0];
		rows = await page.$$eval(`.card.job[data-job="${job.id}"] table.events tr`, (tr) => tr.length);
		if (before.events.length === job.events.length) break;
		await sleep(500);
	}
	const html = await page.content();
	ok(!html.includes(process.env.XCB_SECRET), 'machine page never shows the password');
	ok((await page.textContent('#power-facts')).includes('set (a file'), 'machine page says a password is set');
	ok(rows === job.events.length && rows >= 5, `job ${job.id}'s ${job.events.length} events on the machine page (${rows} rows)`);
	// Each event's time as the runs list writes dates (format.js's date: it
	// showed the raw ISO "2026-12-05T12:24:55Z"), the API's time in its title.
	const evTimes = async (sel) => page.$$eval(`${sel} table.events tr td:first-child`, (tds) => tds.map((td) => ({ text: td.textContent, title: td.title })));
	const fmtDate = (v) => page.evaluate(async (x) => (await import('./js/format.js')).date(x), v);
	const wantTimes = [];
	for (const e of job.events) wantTimes.push({ text: await fmtDate(e.at), title: e.at });
	const gotTimes = await evTimes(`.card.job[data-job="${job.id}"]`);
	ok(JSON.stringify(gotTimes) === JSON.stringify(wantTimes) && wantTimes.every((t) => /^\d{4}-\d\d-\d\d \d\d:\d\d$/.test(t.text)),
		'machine page: job event times as the runs list writes dates, the full time in the title', { gotTimes, wantTimes });
	// Its lab and the limits its jobs run under, as the API has them (the
	// page showed neither: an operator had to ask `xcbench job show`).
	const mj = (await api(`machines/${MAC}`)).machine;
	const labText = await page.textContent('#machine-lab').catch(() => '');
	ok(mj.lab ? labText.startsWith(`${mj.lab} (`) : /^none/.test(labText), `machine page names its lab (${mj.lab}): "${labText}"`);
	const lim = (o, k) => (o[k] == null ? 'none' : `${o[k]} s`);
	const limText = await page.textContent('#machine-limits').catch(() => '');
	const want = ['powering_on', 'booting', 'running'].map((k) => `${k} ${lim(mj.timeouts_default, k)}`).join(', ');
	ok(mj.timeouts_default && mj.timeouts_default.booting === 600 && limText.startsWith(`${want} for a job that sets none`),
		`machine page: the stage limits for a job that sets none (${want})`, limText);
	// The job's run page has its job section too (run-job.js, which takes
	// the run's machine from the page's own GET runs/{id}).
	if (job.run_id) {
		await page.goto(new URL(`run.html?id=${job.run_id}`, BASE).toString());
		const shown = await page.waitForSelector(`#run-job .card.job[data-job="${job.id}"]`, { timeout: 20000 }).then(() => true, () => false);
		ok(shown, `run page of run ${job.run_id}: its job ${job.id} section`);
		await page.goto(new URL(`machine.html?mac=${MAC}`, BASE).toString());
		await page.waitForSelector('.card.job', { timeout: 20000 });
	} else ok(false, `job ${job.id} has a run`, job);
	const jobLim = await page.textContent(`.card.job[data-job="${job.id}"] .limits`).catch(() => '');
	const eff = job.timeouts_effective;
	ok(eff && eff.booting === 60 && eff.powering_on === 120 &&
		jobLim === `limits: powering_on ${eff.powering_on} s (default), booting ${eff.booting} s, running ${eff.running} s`,
		`machine page: job ${job.id}'s own limits (${JSON.stringify(eff)})`, jobLim);
	const st = await page.$eval('#power-result', () => 'present').catch(() => 'missing');
	await page.click('button[data-action="status"]');
	await page.waitForFunction(() => /status: (on|off)/.test(document.querySelector('#power-result')?.textContent || ''), null, { timeout: 20000 });
	ok(st === 'present', `power status through the page: ${(await page.textContent('#power-result'))}`);
	await page.screenshot({ path: path.join(OUT, 'web-machine.png'), fullPage: true });

	// The run page shows the job that made the run, with its events.
	await page.goto(new URL(`run.html?id=${job.run_id}`, BASE).toString());
	await page.waitForSelector(`#run-job .card.job[data-job="${job.id}"]`, { timeout: 20000 });
	const runRows = await page.$$eval('#run-job table.events tr', (tr) => tr.length);
	ok(runRows === job.events.length, `run ${job.run_id}'s page shows job ${job.id} with its ${runRows} events`);
	const runTimes = await evTimes('#run-job');
	ok(JSON.stringify(runTimes) === JSON.stringify(wantTimes), 'run page: job event times as the runs list writes dates, the full time in the title', { runTimes, wantTimes });
	await page.screenshot({ path: path.join(OUT, 'web-run-job.png'), fullPage: true });
	// A job that times out: once its machine is idle again, the Lab page
	// still says so (it showed "idle" and "—", the failure only on the
	// machine page), and the last complete job before it as such.
	const jobCell = `tr[data-mac="${MAC}"] td.job`;
	await page.goto(new URL('lab.html', BASE).toString());
	await page.waitForSelector(jobCell, { timeout: 20000 });
	const lastOk = await page.textContent(jobCell);
	ok(lastOk.includes(`last: job ${job.id}`) && lastOk.includes('complete'),
		`lab page: no current job, the last one (job ${job.id}) complete`, lastOk);
	execSync(process.env.XCB_QUEUE_NOBOOT, { stdio: 'inherit' });
	await page.waitForFunction((sel) => /timed_out/.test(document.querySelector(sel)?.textContent || ''), jobCell,
		{ timeout: 60000 }).catch(() => {});
	const failedJob = (await api(`machines/${MAC}`)).machine.jobs[0];
	const cell = await page.textContent(jobCell);
	const notes = await page.textContent(`tr[data-mac="${MAC}"] td.notes`);
	ok(failedJob.stage === 'timed_out' && cell.includes(`last: job ${failedJob.id}`) && cell.includes('timed_out'),
		`lab page: job ${failedJob.id} timed out, and the row says so (${failedJob.stage})`, cell);
	ok(notes.includes(`job ${failedJob.id}: `) && notes.includes('no boot script request'),
		'... with its reason in the notes', notes);
	await page.screenshot({ path: path.join(OUT, 'web-lab-timed-out.png'), fullPage: true });
	ok(errors.length === 0, 'no errors in the browser console', errors.join('\n'));
} catch (e) {
	ok(false, `lab pages: ${e.message}`);
}
await ctx.close();
fs.rmSync(profile, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
