// verdict.mjs — drives index.html, run.html, compare.html and lab.html in
// headless Chromium (playwright-core, /usr/bin/chromium) for
// tests/t-web-verdict.sh, which owns the daemon and its four runs (labels
// v-ok, v-aborted, v-failed, v-live; v-ok of machine XCB_MAC_OK, v-failed of
// XCB_MAC_FAILED); prints TAP lines. The words expected are the schema's (GET /api/v1/schema
// verdicts), never a copy of this file's.
//
// Environment: XCB_BASE (the daemon), XCB_OUT (screenshot, profile),
// XCB_MAC_OK and XCB_MAC_FAILED (the two runs' machines).

import path from 'node:path';
import { ok, launch, finish } from './browser.mjs';

const BASE = process.env.XCB_BASE, OUT = process.env.XCB_OUT;
const MAC_OK = process.env.XCB_MAC_OK, MAC_FAILED = process.env.XCB_MAC_FAILED;
const api = async (p) => (await fetch(new URL(`api/v1/${p}`, BASE))).json();
const url = (p) => new URL(p, BASE).toString();
const b = await launch(OUT, 'verdict');
const { page, errors, ready } = b;
let crashed = null;

try {
	const schema = await api('schema');
	const word = (d) => schema.verdicts.find((v) => v.done_status === d);
	const runs = (await api('runs')).runs;
	const byLabel = Object.fromEntries(runs.map((r) => [r.label, r]));
	ok(word(2) && word(1) && word(0), 'the schema names the verdicts of DONE statuses 0, 1 and 2', schema.verdicts);

	// The runs list: each row's status cell.
	await page.goto(url('./'));
	await ready();
	const rows = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#runs tbody tr')].map((tr) => {
		const cell = tr.querySelector('td[data-col=status]');
		const v = cell.querySelector('.badge.verdict');
		return [tr.querySelector('td[data-col=label] .run-label').textContent, {
			text: cell.textContent.replace(/\s+/g, ' ').trim(), verdict: v && v.textContent, title: v && v.title,
			warn: v && getComputedStyle(v).backgroundColor, row: tr.dataset.verdict || null }];
	})));
	const f = rows['v-failed'];
	ok(f && f.text.startsWith(`complete · ${word(2).name}`) && f.verdict === word(2).name && f.row === word(2).name,
		`the failed run's row: "complete · ${word(2).name}" (the schema's word), not "complete" ("${f && f.text}")`, rows);
	ok(f && f.title === word(2).says, 'its verdict badge says what the verdict means (the schema\'s says)', f);
	ok(f && f.warn && f.warn !== 'rgba(0, 0, 0, 0)' && f.warn !== (rows['v-ok'] && rows['v-ok'].warn), `... styled as a warning (${f && f.warn})`, f);
	ok(rows['v-aborted'] && rows['v-aborted'].text.startsWith(`complete · ${word(1).name}`), `the aborted run's row: "complete · ${word(1).name}"`, rows['v-aborted']);
	ok(rows['v-ok'] && rows['v-ok'].text === 'complete' && !rows['v-ok'].verdict, 'the run that passed: "complete", no mark', rows['v-ok']);
	ok(rows['v-live'] && !rows['v-live'].verdict && /^running/.test(rows['v-live'].text), 'the running run (no DONE yet): no mark', rows['v-live']);
	await page.locator('#runs').screenshot({ path: path.join(OUT, 'web-verdict.png') });

	// The Verdict filter: its options are the schema's names; picking the
	// failed one lists that run alone, as GET runs?verdict= does.
	const opts = await page.$$eval('#f-verdict option', (os) => os.map((o) => o.value).filter(Boolean));
	ok(opts.join(',') === schema.verdicts.map((v) => v.name).join(','), `the Verdict filter offers the schema's verdicts (${opts.join(', ')})`, opts);
	await page.selectOption('#f-verdict', word(2).name);
	await page.waitForFunction(() => document.querySelectorAll('#runs tbody tr').length === 1, null, { timeout: 10000 }).catch(() => {});
	const shown = await page.$$eval('#runs tbody tr', (trs) => trs.map((tr) => tr.querySelector('.run-label').textContent));
	const csv = await page.getAttribute('#runs-csv', 'href');
	ok(shown.join(',') === 'v-failed', `Verdict ${word(2).name}: the failed run alone (${shown.join(', ')})`, shown);
	ok(new URL(page.url()).searchParams.get('verdict') === word(2).name && /[?&]verdict=FAILED/.test(csv),
		`... kept in the address and the CSV link (${page.url()}, ${csv})`, { url: page.url(), csv });
	await page.goto(url(`./?verdict=${word(1).name}`));
	await ready();
	const bookmarked = await page.$$eval('#runs tbody tr', (trs) => trs.map((tr) => tr.querySelector('.run-label').textContent));
	ok(bookmarked.join(',') === 'v-aborted' && (await page.inputValue('#f-verdict')) === word(1).name,
		`a bookmarked ?verdict=${word(1).name}: the aborted run, the filter set`, bookmarked);

	// The run page's header.
	await page.goto(url(`run.html?id=${byLabel['v-failed'].id}`));
	await ready();
	const head = await page.evaluate(() => ({
		badge: (document.querySelector('#run-head .badge.verdict') || {}).textContent,
		status: (document.querySelector('#run-head .badge[data-status]') || {}).textContent,
		box: (document.querySelector('#run-verdict') || {}).textContent,
		link: !!document.querySelector('#run-verdict a[href="#errors"]'),
		fact: ([...document.querySelectorAll('dl.facts dt')].find((dt) => dt.textContent === 'Status') || { nextElementSibling: {} }).nextElementSibling.textContent,
	}));
	ok(head.status === 'complete' && head.badge === word(2).name, `the failed run's header: complete · ${word(2).name} (${head.status} · ${head.badge})`, head);
	ok(head.fact === `complete · ${word(2).name}`, `the Machine section's Status: "${head.fact}"`, head);
	ok(head.box && head.box.includes(word(2).says) && head.link, 'under it the verdict\'s sentence, pointing to Errors and logs', head);
	await page.goto(url(`run.html?id=${byLabel['v-ok'].id}`));
	await ready();
	const okHead = await page.evaluate(() => ({ badge: !!document.querySelector('#run-head .badge.verdict'), box: !!document.querySelector('#run-verdict') }));
	ok(!okHead.badge && !okHead.box, 'the run that passed: no verdict mark, no box', okHead);

	// The compare page: the runs picker's options, then each side's status
	// above the table (v-ok against v-failed: the same one case).
	await page.goto(url('compare.html'));
	await ready();
	const opts2 = await page.evaluate((ids) => Object.fromEntries(ids.map((id) =>
		[id, (document.querySelector(`#pick-b option[value="${id}"]`) || {}).textContent])), [byLabel['v-ok'].id, byLabel['v-failed'].id]);
	const optFailed = opts2[byLabel['v-failed'].id] || '', optOk = opts2[byLabel['v-ok'].id] || '';
	ok(optFailed.includes(` · complete · ${word(2).name} · `) && optOk.includes(' · complete · ') && !optOk.includes(word(2).name),
		`the compare picker lists the failed run "complete · ${word(2).name}" ("${optFailed}"), the passed one "complete"`, opts2);
	await page.goto(url(`compare.html?a=${byLabel['v-ok'].id}&b=${byLabel['v-failed'].id}`));
	await ready();
	const sides = await page.evaluate(() => [...document.querySelectorAll('#pick .row > span')].filter((s) => s.querySelector('a[href^="run.html"]')).map((s) => ({
		status: (s.querySelector('.badge[data-status]') || {}).textContent,
		verdict: (s.querySelector('.badge.verdict') || {}).textContent,
		title: (s.querySelector('.badge.verdict') || {}).title,
	})));
	ok(sides.length === 2 && sides[1].status === 'complete' && sides[1].verdict === word(2).name && sides[1].title === word(2).says,
		`the compare page: b (the failed run) reads complete · ${word(2).name} (${sides[1] && sides[1].status} · ${sides[1] && sides[1].verdict})`, sides);
	ok(sides.length === 2 && sides[0].status === 'complete' && !sides[0].verdict, '... a (the run that passed): complete, no mark', sides);

	// The lab page: each machine's last run.
	await page.goto(url('lab.html'));
	await ready();
	const lab = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#lab-table tbody tr')].map((tr) => {
		const a = tr.querySelector('a[href^="run.html"]'), cell = a && a.closest('td');
		const v = cell && cell.querySelector('.badge.verdict');
		return [tr.dataset.mac, { text: cell && cell.textContent.replace(/\s+/g, ' ').trim(), verdict: v && v.textContent, title: v && v.title }];
	})));
	const lf = lab[MAC_FAILED], lo = lab[MAC_OK];
	ok(lf && lf.text === `run ${byLabel['v-failed'].id} complete · ${word(2).name}` && lf.title === word(2).says,
		`the lab page: the failed run's machine's last run reads complete · ${word(2).name} ("${lf && lf.text}")`, lab);
	ok(lo && lo.text === `run ${byLabel['v-ok'].id} complete` && !lo.verdict, `... the passed run's machine: "complete", no mark ("${lo && lo.text}")`, lab);
	ok(errors.length === 0, `no console errors (${errors.length})`, errors);
} catch (e) {
	crashed = e;
}
await finish(b, crashed);
