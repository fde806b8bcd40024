// compare-row.mjs — drives compare.html's row= in headless Chromium
// (playwright-core, /usr/bin/chromium) for tests/t-web-compare-row.sh, which
// owns the daemon and the run; prints TAP lines. What the page shows is
// compared with the API's answer for the same row and with the CLI's title.
//
// Environment: XCB_BASE (the daemon), XCB_OUT (screenshot, profile), XCB_RUN
// (the ept boot), XCB_CLI_HOLD / XCB_CLI_ALL (the measure `xcbench compare`
// names with --row writer_hold / without), XCB_PATHS (P,Q: two runs of other
// TLB shootdown paths, compared early_ack_reader -> mine_path).

import fs from 'node:fs';
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
	csvName: document.querySelector('#compare-csv') && document.querySelector('#compare-csv').getAttribute('download'),
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
	const allOpt = await page.evaluate(() => document.querySelector('#row option[value=all]').textContent);
	const sync0 = (await api('schema')).body.sync_rows[0];
	ok(allOpt === `all: ${sync0.label}`, `sync cases: the row chooser's all reads "all: ${sync0.label}" (the schema's sync_rows)`, allOpt);
	ok(s.chooser === 'writer_hold' && ['all', 'writer_hold', 'writer_e2e', 'writer_effective', 'reader_batch'].every((r) => s.options.includes(r)),
		'the row chooser is on writer_hold and offers all and the four rows', s.options);
	ok(/[?&]row=writer_hold(&|$)/.test(s.swap || '') && /[?&]row=writer_hold(&|$)/.test(s.csv || ''),
		'the swap link and the CSV keep the row', { swap: s.swap, csv: s.csv });
	const holdName = s.csvName;
	await page.screenshot({ path: path.join(OUT, 'web-compare-row.png'), fullPage: false });

	// ---- the default, then the chooser -----------------------------------------
	await page.goto(url(`compare.html?${CMP}`));
	await ready();
	s = await shown();
	ok(s.row === 'all' && s.a_p50.join() === sorted(all.cases).join() && s.titles.every((t) => t.includes(ALL)),
		`no row: the all row, titled as the CLI's ("${ALL}")`, s.titles);
	ok(s.chooser === 'all', 'the chooser is shown for sync cases, on all', s.chooser);
	// Two comparisons of the run are two files: the CSV's name says what was asked.
	ok(holdName === `xcbench-compare-${ID}-${ID}-inside-after-writer_hold.csv` && s.csvName === `xcbench-compare-${ID}-${ID}-inside-after.csv`,
		'the CSV file is named by the runs, the algorithms and the row', { holdName, allName: s.csvName });
	await Promise.all([page.waitForNavigation(), page.selectOption('#row', 'reader_batch')]);
	await ready();
	s = await shown();
	const batch = (await api(`compare?${CMP}&row=reader_batch`)).body;
	ok(/[?&]row=reader_batch(&|$)/.test(page.url()) && s.row === 'reader_batch' && s.a_p50.join() === sorted(batch.cases).join(),
		'choosing reader_batch: the URL (the permalink) carries it and the page shows the API\'s figures', { url: page.url(), row: s.row });
	ok(s.titles.length > 0 && s.titles.every((t) => t.includes("the readers' median read-lock wait per batch")),
		'... titled with the readers\' wait per batch', s.titles);
	// A cell's tooltip counts the columns as the table and the axis do: writers.
	const tip = await page.evaluate(() => {
		const c = window.xcbCharts['matrix:0'];
		return c && { title: c.options.plugins.tooltip.callbacks.title([{ raw: c.data.datasets[0].data[0] }]), axis: c.options.scales.x.title.text,
			head: document.querySelector('#pivot-0 thead').textContent };
	});
	ok(tip && /^1 CPU in mask, 1 writer$/.test(tip.title) && tip.axis === 'writers' && /1 writer/.test(tip.head),
		'a sync heatmap cell\'s tooltip counts writers, as its table and axis do', tip);

	// ---- the picker (no runs chosen yet): a row field, from the schema ---------
	// every row compare takes: sync_rows, then lock_row (lock_hold, seed 001)
	const sch = (await api('schema')).body, rows = sch.sync_rows, choices = [...rows, sch.lock_row];
	const picker = () => page.evaluate(() => {
		const sel = document.querySelector('#picker select[name=row]');
		return sel && { value: sel.value, options: [...sel.options].map((o) => [o.value, o.textContent]) };
	});
	await page.goto(url('compare.html'));
	await ready();
	let pk = await picker();
	ok(pk && pk.value === 'all' && pk.options.map(([v]) => v).join() === choices.map((r) => r.name).join()
		&& pk.options.every(([, t], i) => t.includes(choices[i].label)),
	'the picker has a row field: the schema\'s sync_rows and lock_row in its order, with their labels, on all', pk);
	// No run chosen: the all row is each case's own figure, every kind's
	// named (the schema's call_row and sync_rows all), not the sync cases'
	// "readers' wait per read" for runs that may have none.
	const neutral = pk && pk.options[0][1];
	ok(pk && neutral !== `all: ${rows[0].label}` && neutral.startsWith("all: each case's own figure")
		&& neutral.includes(`${sch.call_row.label} (`) && neutral.includes(`${rows[0].label} (sync)`),
	`no run chosen: the picker's all row is neutral ("${neutral}")`, pk && pk.options[0]);
	await page.selectOption('#pick-a', ID);
	await page.selectOption('#pick-b', ID);
	await page.fill('#picker input[name=algo_a]', 'inside');
	await page.fill('#picker input[name=algo_b]', 'after');
	if (pk) await page.selectOption('#pick-row', 'writer_hold');
	await Promise.all([page.waitForNavigation(), page.click('#picker button[type=submit]')]);
	await ready();
	s = await shown();
	ok(/[?&]row=writer_hold(&|$)/.test(page.url()) && s.row === 'writer_hold' && s.chooser === 'writer_hold' && s.a_p50.join() === sorted(hold.cases).join(),
		'picking writer_hold there: the URL carries it and the page shows the writer\'s hold', { url: page.url(), row: s.row });
	// The way back: "Other runs…" opens the picker (filled with this
	// comparison: tests/web/history.mjs), and all is the API's default,
	// left out of the URL.
	await page.click('#other-runs');
	await page.waitForSelector('#picker', { timeout: 10000 });
	await page.selectOption('#pick-a', ID);
	await page.selectOption('#pick-b', ID);
	await page.fill('#picker input[name=algo_a]', '');
	await page.fill('#picker input[name=algo_b]', '');
	if (pk) await page.selectOption('#pick-row', 'all');
	await Promise.all([page.waitForNavigation(), page.click('#picker button[type=submit]')]);
	ok(!/[?&]row=/.test(page.url()), 'the row field on all: no row= in the URL', page.url());
	await ready();
	// Nothing matched (a mistyped algorithm): the picker is there, on what
	// was asked, to change it (the page said "name them above" with none).
	await page.goto(url(`compare.html?a=${ID}&b=${ID}&algo_a=inside&algo_b=aftr&row=writer_hold`));
	await ready();
	const again = await page.waitForSelector('#compare-body #picker', { timeout: 10000 }).then(() => true, () => false);
	const asked = again && await page.evaluate(() => Object.fromEntries(new FormData(document.querySelector('#compare-body #picker')).entries()));
	ok(again && asked.a === ID && asked.b === ID && asked.algo_a === 'inside' && asked.algo_b === 'aftr' && asked.row === 'writer_hold',
		'no case matched: the picker is on the page, on what was asked (runs, algorithms, row)', asked);
	if (again) {
		await page.fill('#compare-body #picker input[name=algo_b]', 'after');
		await Promise.all([page.waitForNavigation(), page.click('#compare-body #picker button[type=submit]')]);
		await ready();
		s = await shown();
		ok(s.row === 'writer_hold' && s.a_p50.join() === sorted(hold.cases).join(), '... and the corrected algorithm compares, by the same row', { url: page.url(), row: s.row });
	}
	// A row the daemon adds (its schema answer with one more) is offered with no edit here.
	await page.route('**/api/v1/schema', async (route) => {
		const res = await route.fetch();
		const json = await res.json();
		json.sync_rows.push({ name: 'new_row', label: 'a row added later', measure: 'the median of a row added later' });
		await route.fulfill({ response: res, json });
	});
	await page.goto(url('compare.html'));
	await ready();
	pk = await picker();
	ok(pk && pk.options.some(([v, t]) => v === 'new_row' && t.includes('a row added later')), 'a row the schema adds appears in the picker', pk);
	await page.unroute('**/api/v1/schema');

	// ---- lock_hold (seed 001): any case with a lock, by its hold a take -------
	const lockRow = (await api('schema')).body.lock_row;
	await page.goto(url(`compare.html?${CMP}`));	// the results page's chooser, not the picker's
	await ready();
	s = await shown();
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
	// the heatmap says what each repetition gave: the hold, not a p50
	const heat = await page.evaluate(() => window.xcbCharts['matrix:0'] && window.xcbCharts['matrix:0'].data.datasets[0].label);
	ok(lockRow.figure === 'hold' && heat && heat.endsWith(`median ${lockRow.figure}`) && !heat.includes('p50'),
		`... its heatmap of the schema's figure ("${heat}")`, { heat, figure: lockRow.figure });
	// what marks a case: the daemon's line (star_text), as compare's seed
	// and text forms print it; within one boot p is Welch's t over the
	// repetitions, apart from the interval (the page did not say so)
	const starRule = await page.textContent('#star-rule').catch(() => null);
	ok(lock.star_text && starRule === lock.star_text && /Welch's t over repetitions/.test(starRule),
		`... its summary says what marks a case, the answer's star_text ("${starRule}")`, { starRule, api: lock.star_text });
	// the table of every matched case heads the sides' figures by it too, as
	// compare --row lock_hold's "A hold ns" (it read "a p50" over holds)
	const figHeads = await page.$$eval('#cases thead th', (t) => t.map((e) => e.textContent));
	ok(figHeads.includes(`a ${lockRow.figure}`) && figHeads.includes(`b ${lockRow.figure}`) && !figHeads.some((t) => t.includes('p50')),
		`... its case table heads the figures "a ${lockRow.figure}", "b ${lockRow.figure}"`, figHeads.slice(0, 6));

	// ---- the run page's sync table: the same words, in show's order ------------
	await page.goto(url(`run.html?id=${ID}`));
	await ready();
	const ths = await page.$$eval('#sync-table thead th', (t) => t.map((e) => e.textContent));
	const want = [...rows.filter((r) => r.name !== 'all').map((r) => r.label), `${rows[0].label} (p50)`];
	ok(rows[0].name === 'all' && ths.join('|').includes(want.join('|')),
		`run page: the sync table's figures are headed with the schema's sync_rows labels, in show's order (${want.join(', ')})`, ths);
	const batchLabel = rows.find((r) => r.name === 'reader_batch').label;
	const chartTitle = await page.textContent('[data-chart=sync-batch] h3');
	ok(chartTitle.toLowerCase().startsWith(`${batchLabel} vs`), `run page: the sync chart is titled with the schema's "${batchLabel}"`, chartTitle);
	// Fairness of a sync case (the least fair, shown first): its per-CPU
	// rows are its readers' waits per read, said so, not a call time per initiator.
	const fair = await page.evaluate(() => {
		const c = window.xcbCharts.fairness;
		return c && { title: document.querySelector('[data-chart=fairness] h3').textContent, note: document.querySelector('[data-chart=fairness] .note').textContent,
			y: c.options.scales.y.title.text, x: c.options.scales.x.title.text, label: c.data.datasets[0].label };
	});
	const perRead = rows[0].label;
	ok(fair && fair.y === `median ${perRead} (p50) per reader` && fair.x === 'reader CPU' && fair.title.startsWith(`Median ${perRead} per reader CPU`)
		&& /readers' throughput \(read acquisitions per second/.test(fair.note) && !/call|initiator/.test(JSON.stringify(fair)),
	`run page: a sync case's fairness is its readers' ("${perRead}" per reader CPU), not a call time per initiator`, fair);
	// The histogram's percentiles are its pooled samples'; the case's p50
	// (the tables', show's) is the median of the repetitions' p50s: on this
	// run they differ (case 3: 91 ns pooled, 107 ns), and the note names both.
	const d = (await api(`runs/${ID}`)).body;
	const c3 = d.cases.find((c) => c.case_id === 3);
	const pooled = (await api(`runs/${ID}/cases/3/histogram`)).body.percentiles.p50;
	await page.goto(url(`run.html?id=${ID}&case=3`));
	await ready();
	await page.waitForFunction(() => window.xcbCharts.histogram && window.xcbCharts.histogram.$xcb.caseId === 3, null, { timeout: 10000 }).catch(() => {});
	const nsOf = (x) => page.evaluate(async (v) => (await import('./js/format.js')).ns(v), x * 1e6 / d.run.tsc_khz);
	const histNote = await page.textContent('[data-chart=histogram] .note');
	// The machine facts' boot floors in the charts' unit too, beside the
	// HELLO's cycles ("IPI floor (boot) 24,620 cyc" beside charts in ns).
	const floorFact = await page.textContent('[data-fact=floor_ipi_cycles]');
	const floorCyc = Number(d.facts.floor_ipi_cycles);
	ok(floorCyc > 0 && floorFact === `${await nsOf(floorCyc)} (${new Intl.NumberFormat('en-US').format(floorCyc)} cyc)`,
		`run page: the boot's IPI floor in ns and cycles ("${floorFact}")`, { floorFact, floorCyc, tsc_khz: d.run.tsc_khz });
	ok(pooled !== c3.stats.p50 && histNote.includes(`pooled over its repetitions · p50 ${await nsOf(pooled)}`)
		&& histNote.includes(`the case's p50, the median of its repetitions' p50s (as the tables and xcbench show give it): ${await nsOf(c3.stats.p50)}`),
	'run page: the histogram note says its p50 is of the pooled samples and gives the case\'s p50 beside it', { histNote, pooled, p50: c3.stats.p50 });
	// The machine page's trend of a sync case: its p50 is the readers' wait per read.
	await page.goto(url(`machine.html?mac=${process.env.XCB_MAC}`));
	await ready();
	const trendY = await page.evaluate(() => window.xcbCharts.trend && window.xcbCharts.trend.options.scales.y.title.text);
	ok(trendY === `p50 ${perRead} (ns)`, `machine page: the trend of a sync case is titled "p50 ${perRead}", not a call time`, trendY);

	// ---- two runs, two TLB shootdown paths (flush=), named on every label ----
	// P's early_ack_reader against Q's mine_path (the guide's new path): each
	// side's path is a restriction (a_where/b_where), so the matched cases'
	// key has neither flush nor algo, and the page must name the paths from
	// the answer's algo_a/algo_b: the case table listed them by no path.
	const [P, Q] = process.env.XCB_PATHS.split(',');
	const PQ = `a=${P}&b=${Q}&a_where=flush=early_ack_reader&b_where=flush=mine_path`;
	const pq = (await api(`compare?${PQ}`)).body;
	await page.goto(url(`compare.html?${PQ}`));
	await ready();
	const seen = await page.evaluate(() => {
		const heads = [...document.querySelectorAll('#cases thead th')].map((e) => e.textContent);
		const col = heads.indexOf('algo');
		return { heads, title: document.title, head: document.querySelector('#pick').textContent,
			pivots: [...document.querySelectorAll('#pivots h3')].map((e) => e.textContent).filter((t) => t.startsWith('TLB')),
			algos: col < 0 ? [] : [...document.querySelectorAll('#cases tbody tr')].map((tr) => tr.children[col].textContent),
			allRow: document.querySelector('#row option[value=all]') && document.querySelector('#row option[value=all]').textContent,
			text: document.querySelector('#main').textContent + document.title };
	});
	// TLB cases alone: the chooser's all row is what they are compared by,
	// the schema's call_row (compare's title: the median call time), not
	// the sync cases' readers' wait per read, which no TLB case has.
	ok(sch.call_row && seen.allRow === `all: ${sch.call_row.label}` && !seen.allRow.includes(rows[0].label),
		`TLB cases alone: the row chooser's all reads "all: ${sch.call_row && sch.call_row.label}" (the schema's call_row), not "${rows[0].label}"`, seen.allRow);
	ok(pq.cases.length === 4 && pq.pivots.length === 1 && pq.pivots[0].algo_a === 'early_ack_reader' && pq.pivots[0].algo_b === 'mine_path',
		`API: P's early_ack_reader vs Q's mine_path: 4 cases, one table, the paths as algo_a/algo_b`, { cases: pq.cases.length, pivots: pq.pivots });
	ok(/flush=early_ack_reader\s*→.*flush=mine_path/.test(seen.head) && seen.pivots.length === 1 && seen.pivots[0] === 'TLB shootdown — early_ack_reader → mine_path',
		'different paths: the head names each side\'s restriction, the table title both paths by name', { head: seen.head.slice(0, 200), pivots: seen.pivots });
	ok(seen.algos.length === pq.cases.length && seen.algos.every((x) => x === 'early_ack_reader → mine_path'),
		'different paths: each matched case names its paths (algo: early_ack_reader → mine_path), as the CSV\'s algo_a/algo_b do', { heads: seen.heads, algos: seen.algos });
	ok(new Set(seen.heads).size === seen.heads.length,
		'different paths: no two columns of the case table headed alike (a TLB case\'s method beside the interval\'s)', seen.heads);
	ok(!/undefined|NaN|\[object/.test(seen.text), 'different paths: no "undefined", "NaN" or "[object" on the page or in its title',
		(seen.text.match(/.{0,60}(undefined|NaN|\[object).{0,60}/) || [''])[0]);
	const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#compare-csv')]);
	const file = path.join(OUT, 'web-compare-paths.csv');
	await dl.saveAs(file);
	const got = fs.readFileSync(file, 'utf8'), apiCsv = await (await fetch(new URL(`api/v1/compare.csv?${PQ}`, BASE))).text();
	const csv = got.trim().split(/\r?\n/).map((l) => l.split(','));
	const ia = csv[0].indexOf('algo_a'), ib = csv[0].indexOf('algo_b');
	ok(got === apiCsv && csv.length === 5 && ia >= 0 && csv.slice(1).every((r) => r[ia] === 'early_ack_reader' && r[ib] === 'mine_path'),
		`different paths: the CSV link downloads the API's compare.csv (${dl.suggestedFilename()}), each row's algo_a/algo_b the paths`, got.slice(0, 300));
	await page.screenshot({ path: path.join(OUT, 'web-compare-paths.png'), fullPage: true });
	// "Other runs…" under these TLB cases: the picker's all row is theirs
	// (the call time); another run picked there, it is neutral again.
	await page.click('#other-runs');
	await page.waitForSelector('#pick-other #pick-row');
	const otherAll = () => page.$eval('#pick-other #pick-row option[value=all]', (o) => o.textContent);
	const onTheseRuns = await otherAll();
	await page.selectOption('#pick-other #pick-a', ID);
	const onOtherRuns = await otherAll();
	ok(onTheseRuns === `all: ${sch.call_row.label}` && onOtherRuns.startsWith("all: each case's own figure"),
		'"Other runs…": its all row names these cases\' figure, then a neutral one once another run is picked', { onTheseRuns, onOtherRuns });
	// Two TLB runs by a sync row: no case of theirs has it. The page says
	// so (it said "compare runs of the same suite", which these are) and
	// offers all; all's words are these runs' cases' (the call time), not
	// the sync cases' words.
	await page.goto(url(`compare.html?${PQ}&row=writer_hold`));
	await ready();
	await page.waitForSelector('#pick-again #pick-row'); // the picker below is filled after the page is drawn
	const none = await page.evaluate(() => ({ all: [...document.querySelectorAll('#row option[value=all], #pick-row option[value=all]')].map((o) => o.textContent),
		text: (document.querySelector('#no-match') || {}).textContent || '', byAll: document.querySelector('#compare-by-all') && document.querySelector('#compare-by-all').getAttribute('href') }));
	ok(none.all.length === 2 && none.all.every((t) => t === `all: ${sch.call_row.label}`),
		`TLB runs by row=writer_hold: the chooser's and the picker's all row read these runs' figure ("all: ${sch.call_row.label}"), not the sync cases'`, none.all);
	const holdLabel = rows.find((r) => r.name === 'writer_hold').label;
	ok(none.text.includes(`Row writer_hold (${holdLabel}) applies to sync cases only, and these runs have none.`) && none.text.includes(`match ${pq.cases.length} cases (tlb)`)
		&& !/same suite/.test(none.text) && none.byAll && !/[?&]row=/.test(none.byAll),
	'... and says the row is of sync cases only, which these runs lack, with a link to compare them by all (not "compare runs of the same suite")', none);
	if (none.byAll) {
		await Promise.all([page.waitForNavigation(), page.click('#compare-by-all')]);
		await ready();
		s = await shown();
		ok(s.row === 'all' && s.a_p50.join() === sorted(pq.cases).join(), '... which compares their cases by all', { url: page.url(), row: s.row });
	}

	ok(errors.length === 0, 'no console errors', errors.join('\n'));

	// ---- a run that is not stored (a=999999): the picker does not stand on
	// another. The select fell to the first run listed, and Compare compared
	// that run, which nobody chose.
	await page.goto(url(`compare.html?a=999999&b=${ID}`));
	await ready();
	await page.waitForSelector('#pick #picker');
	const gone = await page.evaluate(() => {
		const sa = document.querySelector('#pick-a');
		return { value: sa.value, shown: sa.selectedOptions[0] && sa.selectedOptions[0].textContent, b: document.querySelector('#pick-b').value,
			error: (document.querySelector('#compare-body [data-state=error]') || {}).textContent || '' };
	});
	ok(gone.value === '' && /^#999999 · no such run/.test(gone.shown || '') && gone.b === ID && /999999/.test(gone.error),
		'a=999999: the API\'s error, and the baseline select shows #999999 as missing (no value), not another run', gone);
	const before = page.url();
	await page.click('#pick #picker button[type=submit]');
	const refused = await page.waitForFunction(() => /there is no run #999999/.test((document.querySelector('#pick-error') || {}).textContent || ''), null, { timeout: 10000 })
		.then(() => true, () => false);
	ok(refused && page.url() === before, 'a=999999: Compare refuses until a real run is picked, and says why', { refused, url: page.url() });
	await page.selectOption('#pick-a', ID);
	await Promise.all([page.waitForNavigation(), page.click('#pick #picker button[type=submit]')]);
	ok(new URL(page.url()).searchParams.get('a') === ID, '... and compares once one is', page.url());
	await ready();

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
