// run.js — the Run page (/run.html?id=N): machine facts, latency vs CPUs in
// mask per algorithm, histogram/CDF of any case, fairness, lock profile, TLB
// results, errors and logs, CSV. A run in progress updates itself by polling
// the API (every POLL_MS) until it completes, with a progress bar.
//
// Bookmarkable state: ?id=12&log=1&case=3&view=cdf&rep=0&init=2&fair=7

import { h, $, fill, state, errorBox, loading, params, setParams, header, progress } from './dom.js';
import * as api from './api.js';
import * as fmt from './format.js';
import { unitOf, isLive, progressOf, rawFloor, varyingAxes, filterCases, setHypervisors } from './model.js';
import { renderLatency, setLogScale, axisControls } from './run-latency.js';
import { destroyAll } from './charts.js';
import { HistogramView, renderFairness } from './run-case.js';
import { renderFloor } from './run-floor.js';
import { renderFacts, renderLocks, renderTlb, renderErrors, LogView } from './run-tables.js';
import { renderSync, isSync } from './sync_view.js';
import { setVerdicts, verdictOf, runStatus } from './verdict.js';
import { skippedSentence } from './skipped.js';

const POLL_MS = 2000;
const main = $('#main');
$('#top').replaceWith(header('run'));

const p = params();
const runId = p.get('id');
const st = {
	// Log scale: ?log=1 / ?log=0, else chosen per run (see autoLog).
	log: p.get('log') === null ? null : p.get('log') === '1',
	// One y range for every latency panel unless ?yrange=each.
	shared: p.get('yrange') !== 'each',
	caseId: p.get('case') !== null ? Number(p.get('case')) : null,
	view: p.get('view') || 'hist',
	rep: p.get('rep') || '',
	init: p.get('init') || '',
	fairCase: p.get('fair') !== null ? Number(p.get('fair')) : null,
	// Chosen values of the varying axes, from ?ax.wait=done&ax.delivery=auto…
	axes: Object.fromEntries([...p.entries()].filter(([k]) => k.startsWith('ax.')).map(([k, v]) => [k.slice(3), v])),
};
let schema = null; // api.schema(): which case keys are axes
let detail = null;
let unit = null;
let histView = null;
let logView = null;
let pollTimer = null;

const sec = {};
function section(id, title, ...extra) {
	sec[id] = h('div', { id: `${id}-body` });
	return h('section', { id }, h('h2', {}, title, ...extra), sec[id]);
}

async function start() {
	if (!runId || !/^\d+$/.test(runId)) {
		fill(main, h('h1', {}, 'Run'), state('error', runId ? `“${runId}” is not a run id.` : 'No run chosen.',
			h('div', {}, 'Open a run from the ', h('a', { href: './' }, 'runs list'), ', or use an address like ', h('code', {}, 'run.html?id=1'), '.')));
		markReady();
		return;
	}
	document.title = `xcbench — run #${runId}`;
	fill(main, h('h1', {}, `Run #${runId}`), loading(`run #${runId}`));
	try {
		[detail, schema] = await Promise.all([api.run(runId), api.schema()]);
	} catch (e) {
		fill(main, h('h1', {}, `Run #${runId}`), e.status === 404
			? state('error', `There is no run #${runId}.`, h('div', {}, 'It may have been deleted, or the address is mistyped. Go to the ', h('a', { href: './' }, 'runs list'), '.'))
			: errorBox(`run #${runId}`, e));
		markReady();
		return;
	}
	setHypervisors(schema.hypervisors);
	setVerdicts(schema.verdicts);
	unit = unitOf(detail.run);
	layout();
	logView = new LogView(sec.logs);
	histView = new HistogramView(sec.hist, runId, unit);
	await loadLogs(); // first: the plan of a live run may be in its first log lines
	await render(true);
	markReady();
	schedule();
}

function layout() {
	const logToggle = h('label', { class: 'pill', style: { fontWeight: 'normal', marginLeft: '1em', cursor: 'pointer' } },
		h('input', { type: 'checkbox', id: 'log-scale', checked: !!st.log, onchange: (e) => {
			st.log = e.target.checked;
			setParams({ log: st.log ? 1 : 0 });
			setLogScale(st.log, unit, st.shared);
		} }), ' log scale');
	const sharedBox = h('label', { class: 'pill', style: { fontWeight: 'normal', marginLeft: '0.6em', cursor: 'pointer' }, title: 'One y range for every panel: panels, and two runs opened with the same choices, compare by eye' },
		h('input', { type: 'checkbox', id: 'same-range', checked: st.shared, onchange: (e) => {
			st.shared = e.target.checked;
			setParams({ yrange: st.shared ? '' : 'each' });
			renderLatencySection();
		} }), ' same y range on every panel');
	fill(main,
		h('div', { id: 'run-head' }),
		h('nav', { class: 'row muted', id: 'jump', style: { margin: '0.4em 0' } }, 'Jump to:',
			[['machine', 'Machine'], ['latency', 'Latency'], ['floor', 'Floor over time'], ['sync', 'Writer & readers'], ['hist', 'Histogram / CDF'], ['fairness', 'Fairness'], ['locks', 'Lock profile'], ['tlb', 'TLB'], ['errors', 'Errors & logs']]
				.map(([id, t]) => h('a', { href: `#${id}` }, t))),
		section('machine', 'Machine'),
		section('latency', 'Latency vs CPUs in mask', logToggle, sharedBox),
		section('floor', 'The ipi floor over time'),
		section('sync', 'Sync cases (seed 002): the writer and the readers'),
		section('hist', 'Histogram / CDF of one case'),
		section('fairness', 'Fairness across initiators'),
		section('locks', 'Lock profile'),
		section('tlb', 'TLB shootdowns'),
		section('errors', 'Errors and logs'),
		h('div', { id: 'logs-wrap' }, h('h3', {}, 'Log'), (sec.logs = h('div', { id: 'logs-body' }))));
}

function renderHead() {
	const r = detail.run;
	const prog = progressOf(detail, logView ? logView.lines : []);
	const algos = [...new Set(detail.cases.filter((c) => c.kind === 'xcall' && c.algo).map((c) => c.algo))];
	const pairs = [];
	for (let i = 0; i < algos.length; i++) for (let j = i + 1; j < algos.length; j++) pairs.push([algos[i], algos[j]]);
	// A serial capture's times are its ingest's (xcbench ingest): no run time.
	const captured = r.source === 'serial';
	const verdict = verdictOf(r);
	const skipped = skippedSentence(detail.skipped);
	const elapsed = r.started && !captured ? ((r.finished ? new Date(r.finished) : new Date(r.last_frame || r.started)) - new Date(r.started)) / 1000 : null;
	fill($('#run-head'),
		h('div', { class: 'row' },
			h('h1', {}, `Run #${r.id}`), runStatus(r), r.label ? h('span', { class: 'pill', id: 'run-label' }, r.label) : null,
			h('span', { class: 'grow' }),
			h('a', { class: 'button primary', id: 'run-csv', href: api.csvUrl(`runs/${r.id}.csv`), download: `xcbench-run-${r.id}.csv` }, 'Download CSV'),
			h('a', { class: 'button', href: `compare.html?a=${r.id}` }, 'Compare with another run…')),
		h('p', { class: 'sub' },
			[r.suite && `suite ${r.suite}`, r.machine ? `machine ${r.machine.mac}` : 'booted directly', r.cpus && `${r.cpus} CPUs`,
				captured ? `ingested ${fmt.date(r.created)} from a serial capture` : `started ${fmt.date(r.started || r.created)}`, elapsed !== null && !Number.isNaN(elapsed) ? `ran ${fmt.duration(elapsed)}` : null,
				`${detail.cases.length} cases`, unit.name === 'cycles' ? 'latencies in TSC cycles (no tsc_khz reported)' : null]
				.filter(Boolean).join(' · ')),
		// the cases that never ran, beside the count of those that did:
		// "N cases" above counts the cases with results only
		skipped ? h('p', { class: 'sub', id: 'run-skipped' }, h('span', { class: 'says' }, skipped),
			' — each skip\'s LOG line is under ', h('a', { href: '#errors' }, 'Errors and logs'), '.') : null,
		isLive(r.status)
			? h('div', { class: 'card', id: 'live', style: { margin: '0.5em 0' } },
				h('div', { class: 'row' }, h('strong', {}, r.status === 'pending' ? 'Waiting for the first frame…' : 'Running — this page updates as frames arrive.'),
					h('span', { class: 'muted' }, `${fmt.int(r.frames_received)} frames · last ${fmt.date(r.last_frame)}`)),
				progress(prog.done, prog.planned || 0, true),
				prog.planned ? null : h('div', { class: 'muted' }, 'The payload has not said how many cases it plans yet; counting cases with results.'))
			: null,
		r.status === 'lost' && r.frames_received ? state('error', 'This run went silent before it finished.', h('div', {}, 'The machine stopped sending frames (crash, reset, network). Results so far are kept; if it resumes, the run continues here.')) : null,
		// the payload's own verdict, up here: a complete run whose checks
		// failed was told only under Errors and logs
		verdict ? h('div', { id: 'run-verdict' }, state('error', `Verdict: ${verdict.name} — ${verdict.says}.`,
			h('div', {}, 'The failed cases\' log lines and the payload\'s done: line are under ', h('a', { href: '#errors' }, 'Errors and logs'), '.'))) : null,
		r.error ? state('error', `The payload reported an error: ${r.error}`, h('div', {}, 'Details are under ', h('a', { href: '#errors' }, 'Errors and logs'), '.')) : null,
		pairs.length ? h('p', { class: 'muted' }, 'Compare algorithms within this run: ',
			pairs.map(([a, b], i) => [i ? ' · ' : '', h('a', { href: `compare.html?a=${r.id}&b=${r.id}&algo_a=${encodeURIComponent(a)}&algo_b=${encodeURIComponent(b)}` }, `${a} → ${b}`)])) : null);
}

async function render(first) {
	renderHead();
	// A run with no frame yet (booted, or registered, but silent) has nothing to
	// chart: one box says what to check instead of seven empty sections.
	const silent = !detail.run.frames_received && !detail.cases.length;
	for (const id of Object.keys(sec)) $(`#${id}`)?.classList.toggle('hidden', silent && id !== 'logs');
	$('#logs-wrap')?.classList.toggle('hidden', silent);
	$('#jump')?.classList.toggle('hidden', silent);
	$('#no-frames')?.remove();
	if (silent) {
		$('#run-head').after(h('div', { id: 'no-frames' }, state(isLive(detail.run.status) ? 'loading' : 'empty',
			isLive(detail.run.status) ? 'No frame from the machine yet.' : 'The machine never sent a frame for this run.',
			h('div', {}, 'It got its boot script (token ', h('code', {}, detail.run.token), '). Check its console: did the payload boot, find its NIC, and reach the daemon\'s UDP port?',
				isLive(detail.run.status) ? ' This page updates by itself when frames arrive.' : ''))));
		return;
	}
	renderFacts(sec.machine, detail, schema && schema.hello);
	renderErrors(sec.errors, detail);
	await renderLatencySection();
	renderFloor(sec.floor, detail.cases, unit);
	const hasSync = renderSync(sec.sync, detail.cases, unit, schema.sync_rows);
	$('#sync')?.classList.toggle('hidden', !hasSync);
	if (first || !histView.cases) histView.render(detail.cases, st);
	renderFairness(sec.fairness, detail.cases, unit, st, schema);
	renderLocks(sec.locks, detail.cases, unit, schema.lock_counts);
	renderTlb(sec.tlb, detail.cases, unit);
	// "Jump to" only what the run has: a section that holds nothing but its
	// empty state (no TLB case, no floor measured, no fairness) loses its
	// link; the section stays, saying why it is empty.
	for (const a of document.querySelectorAll('#jump a')) {
		const body = sec[a.getAttribute('href').slice(1)];
		const empty = body && body.children.length === 1 && body.firstElementChild.dataset.state === 'empty';
		a.classList.toggle('hidden', !!empty || (a.getAttribute('href') === '#sync' && !hasSync));
	}
}

// Latency charts of the cases that pass the axis toolbar (see model.varyingAxes).
async function renderLatencySection() {
	// Sync cases (seed 002) have their own section: their per-read lock
	// wait under an IPI floor line answers nothing (sync_view.js).
	const notSync = detail.cases.filter((c) => !isSync(c));
	const axes = varyingAxes(notSync, schema);
	const shown = filterCases(notSync, axes, st.axes);
	let autoNote = '';
	if (st.log === null && autoLog(shown)) {
		st.log = true;
		const box = $('#log-scale');
		if (box) box.checked = true;
		// said, not silent: another run's page may open on a linear axis
		autoNote = ' Log scale chosen for this run: its latencies span more than 100×; untick it (or open with ?log=0) to compare with a linear page.';
	}
	// The grid goes into the page before the charts are made: Chart.js sizes a
	// chart from its container, and a detached one has no size.
	const grid = h('div', { class: 'charts' });
	const note = h('p', { class: 'muted' });
	fill(sec.latency, axisControls(axes, st.axes, (key, value) => {
		st.axes[key] = value;
		setParams({ [`ax.${key}`]: value });
		renderLatencySection();
	}), grid, note);
	destroyAll('latency:'); // charts of the previous axis choice
	const { charts, usedMin } = renderLatency(grid, shown, unit, { log: !!st.log, schema, shared: st.shared });
	if (charts.length) {
		fill(note, 'Lines: median (p50) of each repetition\'s p50; shaded band: p10–p99',
			usedMin ? ' (min–p99 for cases without a histogram)' : '',
			rawFloor(detail.cases)
				? ['; dashed: the IPI floor of this boot (p50 of the ', h('code', {}, 'raw'), ' ', h('code', {}, 'ipi'), ' case: one IPI, a handler that sets a flag)']
				: ['; no raw IPI floor: this run has no ', h('code', {}, 'raw'), ' case'],
			'. Hover a point for its spread.', autoNote);
	} else {
		const live = isLive(detail.run.status);
		const measured = notSync.some((c) => c.kind !== 'raw' && c.stats && c.stats.count > 0);
		if (!measured && detail.cases.some(isSync)) fill(grid, state('empty', 'This run\'s cases are sync cases (seed 002).', h('div', {}, 'Their writer\'s and readers\' figures are in ', h('a', { href: '#sync' }, 'the next section'), '.')));
		else if (measured) fill(grid, state('empty', 'No measured case has this combination of settings.', h('div', {}, 'Choose other values above.')));
		else fill(grid, state(live ? 'loading' : 'empty',
			live ? 'Waiting for the first results…' : 'This run has no measured cross-call or TLB cases.',
			h('div', {}, live ? 'Charts appear as cases complete.' : 'Its cases may have failed before reporting; see Errors and logs below.')));
	}
}

// Latencies spanning more than two decades (typical under TCG, or with callee
// work next to none) are unreadable on a linear axis: start on a log one.
function autoLog(cases) {
	const m = cases.filter((c) => c.stats && c.stats.count > 0 && c.stats.p50 > 0);
	if (!m.length) return false;
	const lo = Math.min(...m.map((c) => c.stats.p50)), hi = Math.max(...m.map((c) => c.stats.p99 || c.stats.p50));
	return hi / lo > 100;
}

async function loadLogs() {
	try {
		const after = logView.after >= 0 ? `after=${logView.after}&` : '';
		const res = await api.get(`runs/${runId}/events?${after}limit=1000`);
		logView.add(res.events || []);
	} catch (e) {
		fill(sec.logs, errorBox('the log', e));
	}
}

function schedule() {
	clearTimeout(pollTimer);
	if (!isLive(detail.run.status)) return;
	pollTimer = setTimeout(poll, POLL_MS);
}

async function poll() {
	try {
		detail = await api.run(runId);
		unit = unitOf(detail.run);
		await render(false);
		window.xcbRun.status = detail.run.status;
		await loadLogs();
	} catch (e) {
		// Keep what is on screen; say the update failed, what to do, and keep
		// trying: one line, rewritten on each failure (a daemon gone for a
		// minute used to stack thirty), gone with the next good update.
		const live = $('#live');
		if (live) {
			const note = $('#poll-error') || live.appendChild(h('div', { class: 'bad', id: 'poll-error', role: 'alert' }));
			fill(note, `Update failed (${e.message}) at ${new Date().toLocaleTimeString()}; retrying every ${POLL_MS / 1000} s. ${e.hint || ''}`);
		}
	}
	window.xcbRun.updates++;
	schedule();
}

// The run as the page first drew it (null where there is none: no id, a
// 404), for run-job.js, which reads its machine here: its own GET
// runs/{id} was a second request of every run, and of a missing one a
// second 404 in the console.
let settle;
export const loaded = new Promise((resolve) => { settle = resolve; });

function markReady() {
	settle(detail);
	window.xcbRun.status = detail ? detail.run.status : null; // as drawn
	window.xcbRun.ready = true;
	document.body.dataset.ready = '1';
}

// For the browser tests and the console: what this page loaded.
// `status` is the run status the page has finished drawing.
window.xcbRun = { ready: false, updates: 0, status: null, get detail() { return detail; } };
start();
