// runs.js — the Runs page (/ or /index.html): every stored run in a table
// with filters and sorting, a CSV link per row, label editing, live progress
// of runs in flight, and "pick two → compare".
//
// The view (filters, sort, page) lives in the query string so it can be
// bookmarked: ?status=complete&verdict=FAILED&suite=quick&lab=east&q=xeon&sort=date&dir=desc&offset=100
// A run's status shows the payload's verdict beside it where the run did
// not pass (verdict.js), and the Verdict filter finds those runs.
// Where daemons of several labs share one database (xcbenchd --lab), every
// lab's runs are listed: a Lab column and filter appear once a run has one.

import { h, $, fill, state, errorBox, staleBox, loading, params, setParams, header, progress } from './dom.js';
import * as api from './api.js';
import * as fmt from './format.js';
import { summaryFacts, machineName, isLive, plannedCases, setHypervisors } from './model.js';
import { setVerdicts, verdicts, verdictOf, runStatus, runStatusText } from './verdict.js';

const PAGE = 100;
const POLL_MS = 3000;
const STATUSES = ['pending', 'running', 'complete', 'lost', 'crashed'];

const view = {
	status: params().get('status') || '',
	verdict: params().get('verdict') || '',
	suite: params().get('suite') || '',
	lab: params().get('lab') || '',
	since: params().get('since') || '',
	q: params().get('q') || '',
	sort: params().get('sort') || 'date',
	dir: params().get('dir') || 'desc',
	offset: Number(params().get('offset') || 0),
};
const picked = new Set();
let runs = [];
let total = 0;
let suites = new Set();
const labs = new Set(); // the labs of the runs seen (a single-lab daemon: none)
const logPlans = new Map(); // run id -> cases planned per its log line (payloads without HELLO cases_planned)
let pollTimer = null;
let searchTimer = null;
let editing = null; // run id whose label is being edited (no redraw under the user's cursor)

const main = $('#main');
$('#top').replaceWith(header('runs'));

const els = {
	filters: h('div', { class: 'toolbar', id: 'filters' }),
	actions: h('div', { class: 'row', id: 'actions' }),
	// Said while a live list's refresh fails (the daemon stopped, say): the
	// rows below are then the last ones read, not the runs' state now.
	stale: h('div', { id: 'runs-stale' }),
	body: h('div', { id: 'runs-body' }),
	pager: h('div', { class: 'row', id: 'pager' }),
};
fill(main,
	h('h1', {}, 'Runs'),
	h('p', { class: 'sub' }, 'Every benchmark run the daemon has stored, newest first. Pick two runs to compare them; click a run for its charts.'),
	els.filters, els.actions, els.stale, els.body, els.pager);

function renderFilters() {
	const status = h('select', { id: 'f-status', onchange: (e) => update({ status: e.target.value, offset: 0 }, true) },
		h('option', { value: '' }, 'any'), STATUSES.map((s) => h('option', { value: s, selected: s === view.status }, s)));
	// the schema's verdicts, by the names the API's verdict= takes (a
	// bookmarked one the schema has not given yet is kept)
	const names = verdicts().map((v) => v.name);
	const verdict = h('select', { id: 'f-verdict', title: 'The payload\'s own verdict on its run (its DONE status): a complete run may have FAILED its checks',
		onchange: (e) => update({ verdict: e.target.value, offset: 0 }, true) },
		h('option', { value: '' }, 'any'), names.map((n) => h('option', { value: n, selected: n === view.verdict }, n)));
	if (view.verdict && !names.includes(view.verdict)) verdict.append(h('option', { value: view.verdict, selected: true }, view.verdict));
	const suite = h('select', { id: 'f-suite', onchange: (e) => update({ suite: e.target.value, offset: 0 }, true) },
		h('option', { value: '' }, 'any'), [...suites].sort().map((s) => h('option', { value: s, selected: s === view.suite }, s)));
	if (view.suite && !suites.has(view.suite)) suite.append(h('option', { value: view.suite, selected: true }, view.suite));
	const lab = h('select', { id: 'f-lab', onchange: (e) => update({ lab: e.target.value, offset: 0 }, true) },
		h('option', { value: '' }, 'any'), [...labs].sort().map((l) => h('option', { value: l, selected: l === view.lab }, l)));
	if (view.lab && !labs.has(view.lab)) lab.append(h('option', { value: view.lab, selected: true }, view.lab));
	const since = h('input', { type: 'date', id: 'f-since', value: view.since, onchange: (e) => update({ since: e.target.value, offset: 0 }, true) });
	const q = h('input', { type: 'search', id: 'f-q', placeholder: 'machine, CPU, label, hypervisor…', value: view.q, size: 30,
		oninput: (e) => {
			// searched by the daemon (label, tags, fields, machine, CPU, …), so
			// paging and the CSV see the same runs; debounced while typing
			clearTimeout(searchTimer);
			searchTimer = setTimeout(() => update({ q: e.target.value, offset: 0 }, true), 250);
		} });
	fill(els.filters,
		h('label', {}, 'Search', q),
		h('label', {}, 'Status', status),
		h('label', {}, 'Verdict', verdict),
		h('label', {}, 'Suite', suite),
		labs.size || view.lab ? h('label', {}, 'Lab', lab) : null,
		h('label', {}, 'Created since', since),
		h('button', { onclick: () => { Object.assign(view, { status: '', verdict: '', suite: '', lab: '', since: '', q: '', offset: 0 }); renderFilters(); update({}, true); } }, 'Clear filters'));
}

// The view's filters as the run list's query (GET runs, runs.csv): the
// CSV link exports exactly the runs the table lists.
function filterQuery() {
	const qs = new URLSearchParams();
	if (view.status) qs.set('status', view.status);
	if (view.verdict) qs.set('verdict', view.verdict);
	if (view.suite) qs.set('suite', view.suite);
	if (view.lab) qs.set('lab', view.lab);
	if (view.since) qs.set('since', `${view.since}T00:00:00Z`);
	if (view.q.trim()) qs.set('q', view.q.trim());
	return qs;
}

function renderActions() {
	const ids = [...picked];
	const cmp = h('button', { class: 'primary', id: 'compare-btn', disabled: ids.length !== 2,
		onclick: () => {
			// Baseline (a) is the older run: "% change" then reads as "what the newer run did".
			const [a, b] = ids.sort((x, y) => x - y);
			window.location.href = `compare.html?a=${a}&b=${b}`;
		} }, ids.length === 2 ? `Compare #${Math.min(...ids)} → #${Math.max(...ids)}` : 'Compare two runs');
	const hint = ids.length === 2 ? '' : ids.length < 2 ? `Tick ${2 - ids.length} more run${ids.length ? '' : 's'} to compare.` : 'Tick exactly two runs.';
	const qs = filterQuery();
	fill(els.actions, cmp, h('span', { class: 'muted' }, hint), h('span', { class: 'grow' }),
		h('a', { class: 'button', href: api.csvUrl(`runs.csv${qs.toString() ? `?${qs}` : ''}`), download: '', id: 'runs-csv' }, 'These runs as CSV'));
}

// Columns: key, title, value for sorting, cell renderer.
const COLS = [
	{ key: 'id', title: 'Run', num: true, val: (r) => r.id, cell: (r) => h('a', { href: `run.html?id=${r.id}` }, `#${r.id}`) },
	{ key: 'machine', title: 'Machine', val: (r) => machineName(r) || '', cell: (r) => machineName(r) ? h('a', { class: 'mono', href: `machine.html?id=${r.machine.id}`, title: 'its history' }, machineName(r)) : h('span', { class: 'muted', title: 'Not booted through /boot.ipxe with a MAC' }, 'direct') },
	{ key: 'cpu', title: 'CPU model', val: (r) => facts(r).cpuModel || '', cell: (r) => facts(r).cpuModel || h('span', { class: 'muted' }, '–') },
	{ key: 'cpus', title: 'CPUs', num: true, val: (r) => facts(r).cpus ?? -1, cell: (r) => facts(r).cpus ?? '–' },
	{ key: 'boot', title: 'Boot', val: (r) => facts(r).boot || '', cell: (r) => (facts(r).boot ? h('span', { title: facts(r).bootDetail || '' }, facts(r).boot) : h('span', { class: 'muted' }, '–')) },
	{ key: 'hv', title: 'Hypervisor', val: (r) => facts(r).hypervisor || '', cell: (r) => facts(r).hypervisor || h('span', { class: 'muted' }, '–') },
	{ key: 'suite', title: 'Suite', val: (r) => r.suite || '', cell: (r) => r.suite || '–' },
	{ key: 'lab', title: 'Lab', when: () => labs.size > 0, val: (r) => r.lab || '', cell: (r) => r.lab || h('span', { class: 'muted', title: 'Collected by a daemon without --lab' }, '–') },
	{ key: 'status', title: 'Status', val: (r) => runStatusText(r), cell: statusCell },
	{ key: 'date', title: 'Date', val: (r) => r.started || r.created || '', cell: (r) => h('span', { title: `created ${r.created || '?'}\nstarted ${r.started || '–'}\nfinished ${r.finished || '–'}` }, fmt.date(r.started || r.created)) },
	{ key: 'label', title: 'Label', val: (r) => r.label || '', cell: labelCell },
	{ key: 'csv', title: 'CSV', cell: (r) => h('a', { href: api.csvUrl(`runs/${r.id}.csv`), download: `xcbench-run-${r.id}.csv`, class: 'csv-link' }, 'CSV') },
];

// The columns shown: a conditional one (Lab) only where it says something.
function shownCols() {
	return COLS.filter((c) => !c.when || c.when());
}

function facts(r) {
	return summaryFacts(r, r.facts);
}

function statusCell(r) {
	const kids = [runStatus(r)];
	if (isLive(r.status)) kids.push(' ', progress(r.cases_done, r.cases_planned || logPlans.get(r.id) || 0));
	if (r.error) kids.push(h('div', { class: 'bad', title: r.error }, r.error.length > 60 ? `${r.error.slice(0, 60)}…` : r.error));
	return h('span', {}, kids);
}

function labelCell(r) {
	if (editing === r.id) {
		const input = h('input', { type: 'text', value: r.label || '', maxlength: 200, 'aria-label': `Label of run ${r.id}` });
		const save = async () => {
			const v = input.value.trim();
			try {
				const res = await api.write('PATCH', `runs/${r.id}`, { label: v === '' ? null : v });
				Object.assign(r, res.run);
				editing = null;
				renderTable();
			} catch (e) {
				input.setCustomValidity(e.message);
				input.reportValidity();
			}
		};
		input.addEventListener('keydown', (e) => {
			if (e.key === 'Enter') save();
			if (e.key === 'Escape') { editing = null; renderTable(); }
		});
		setTimeout(() => input.focus(), 0);
		return h('span', { class: 'label-edit' }, input, h('button', { onclick: save, class: 'primary' }, 'Save'),
			h('button', { onclick: () => { editing = null; renderTable(); } }, 'Cancel'));
	}
	const tags = (r.tags || []).map((t) => h('span', { class: 'badge tag', title: 'tag' }, `#${t}`));
	const meta = Object.entries(r.meta || {}).map(([k, v]) => h('span', { class: 'badge meta', title: 'field' }, `${k}=${v}`));
	return h('span', {}, r.label ? h('span', { class: 'run-label' }, r.label) : h('span', { class: 'muted' }, '—'), ' ', ...tags, ...meta, ' ',
		h('button', { class: 'edit-label', title: 'Edit label', 'aria-label': `Edit label of run ${r.id}`,
			onclick: () => { editing = r.id; renderTable(); } }, '✎'));
}

// The page as the daemon filtered it (status, suite, since, the search
// text: GET /api/v1/runs?q=), sorted by the chosen column.
function visibleRuns() {
	const list = runs;
	const col = COLS.find((c) => c.key === view.sort && c.val) || COLS.find((c) => c.key === 'date');
	const dir = view.dir === 'asc' ? 1 : -1;
	return [...list].sort((a, b) => {
		const x = col.val(a), y = col.val(b);
		return (x < y ? -1 : x > y ? 1 : 0) * dir || (b.id - a.id);
	});
}

function renderTable() {
	if (!runs.length) {
		const filtered = view.status || view.verdict || view.suite || view.lab || view.since || view.q;
		fill(els.body, filtered
			? state('empty', 'No run matches these filters.', h('div', {}, 'Clear the filters above to see every run.'))
			: state('empty', 'No runs yet.', h('div', {}, 'Boot a machine into xcbench (',
				h('code', {}, 'make run'), ' starts a QEMU one through iPXE), or replay a serial capture with ',
				h('code', {}, 'xcbench ingest FILE'), '. Runs appear here as their first frame arrives.')));
		fill(els.pager);
		return;
	}
	const list = visibleRuns();
	const cols = shownCols();
	const th = (c) => {
		if (c.key === 'csv') return h('th', {}, c.title);
		const sorted = view.sort === c.key;
		return h('th', { class: `sortable${c.num ? ' num' : ''}`, 'aria-sort': sorted ? (view.dir === 'asc' ? 'ascending' : 'descending') : null,
			dataset: { sort: c.key }, title: 'Sort',
			onclick: () => update({ sort: c.key, dir: sorted && view.dir === 'desc' ? 'asc' : 'desc' }, false) }, c.title);
	};
	const rows = list.map((r) => h('tr', { class: picked.has(r.id) ? 'picked' : '', dataset: { run: r.id, status: r.status, ...(verdictOf(r) ? { verdict: verdictOf(r).name } : {}) } },
		h('td', {}, h('input', { type: 'checkbox', class: 'pick', 'aria-label': `Pick run ${r.id} to compare`, checked: picked.has(r.id),
			onchange: (e) => {
				if (e.target.checked) picked.add(r.id); else picked.delete(r.id);
				renderActions();
				e.target.closest('tr').classList.toggle('picked', e.target.checked);
			} })),
		cols.map((c) => h('td', { class: c.num ? 'num' : null, dataset: { col: c.key } }, c.cell(r)))));
	fill(els.body,
		list.length
			? h('div', { class: 'tablewrap' }, h('table', { class: 'data', id: 'runs' },
				h('thead', {}, h('tr', {}, h('th', {}, ''), cols.map(th))), h('tbody', {}, rows)))
			: state('empty', `No run on this page matches “${view.q}”.`, h('div', {}, 'Change the search text, or clear the filters.')));
	const from = total ? view.offset + 1 : 0, to = view.offset + runs.length;
	// The daemon pages its runs newest first; a column's sort orders the
	// page shown, which is not the first runs of that order: said.
	const sortCol = COLS.find((c) => c.key === view.sort);
	const pageOnly = total > runs.length && !(view.sort === 'date' && view.dir === 'desc')
		? h('span', { class: 'warn', id: 'sort-page-only' }, ` · sorted by ${sortCol ? sortCol.title : view.sort} within this page only: the pages hold the runs newest first`) : null;
	fill(els.pager, h('span', { class: 'muted' }, `Runs ${from}–${to} of ${total}`, pageOnly), h('span', { class: 'grow' }),
		h('button', { disabled: view.offset === 0, onclick: () => update({ offset: Math.max(0, view.offset - PAGE) }, true) }, '← Newer'),
		h('button', { disabled: to >= total, onclick: () => update({ offset: view.offset + PAGE }, true) }, 'Older →'));
}

function update(changes, refetch) {
	Object.assign(view, changes);
	setParams({ status: view.status, verdict: view.verdict, suite: view.suite, lab: view.lab, since: view.since, q: view.q,
		sort: view.sort === 'date' ? '' : view.sort, dir: view.dir === 'desc' ? '' : view.dir, offset: view.offset || '' });
	if (refetch) load();
	else renderTable();
}

let loadSeq = 0;
async function load({ quiet = false } = {}) {
	const my = ++loadSeq;
	if (!quiet) fill(els.body, loading('runs'));
	const qs = filterQuery();
	qs.set('limit', PAGE);
	qs.set('offset', view.offset);
	let res;
	try {
		// The schema names the hypervisors (a list without it shows signatures)
		// and the payload's suites. The suites and the labs are the schema's
		// and the store's (GET labs), not only those of this page's runs: a
		// suite of no run loaded, a lab whose runs are all on a later page,
		// is still a filter.
		[res] = await Promise.all([api.get(`runs?${qs}`),
			api.schema().then((s) => { setHypervisors(s.hypervisors); setVerdicts(s.verdicts); (s.suites || []).forEach((x) => suites.add(x)); }, () => {}),
			api.get('labs').then((l) => (l.labs || []).forEach((x) => labs.add(x)), () => {})]);
	} catch (e) {
		if (my !== loadSeq) return;
		// A 4xx is this view's (a filter the daemon refuses: ?lab=NAME of no
		// lab): said in place of the rows, never as lost contact, and not
		// asked again until the view changes. No answer, or a 5xx, is the
		// daemon's: the rows stay under a notice, and it is asked again.
		const refused = e.status >= 400 && e.status < 500;
		if (!quiet || refused) {
			fill(els.body, errorBox('the runs', e));
			fill(els.pager);
			fill(els.stale);
		} else fill(els.stale, staleBox('runs', e, POLL_MS));
		schedulePoll(!refused);
		return;
	}
	if (my !== loadSeq) return;
	fill(els.stale);
	runs = res.runs || [];
	total = res.total ?? runs.length;
	for (const r of runs) if (r.suite) suites.add(r.suite);
	for (const r of runs) if (r.lab) labs.add(r.lab);
	if (!quiet) renderFilters();
	renderActions();
	if (editing === null) renderTable();
	await loadDetails();
	schedulePoll(runs.some((r) => isLive(r.status)));
}

// The run summary carries the facts a row shows and a live run's progress
// (cases_done / cases_planned). Only a payload that announces its plan in a
// log line rather than HELLO (older firmware) needs its first log lines
// fetched, once per run.
async function loadDetails() {
	const need = runs.filter((r) => isLive(r.status) && !r.cases_planned && !logPlans.has(r.id));
	if (!need.length) return;
	await Promise.all(need.map(async (r) => {
		try {
			const ev = (await api.get(`runs/${r.id}/events?kind=log&limit=20`)).events;
			const n = plannedCases({ run: r }, ev);
			if (n) logPlans.set(r.id, n);
		} catch (e) {
			// No plan: the bar counts cases with results only.
		}
	}));
	if (editing === null) renderTable();
}

function schedulePoll(on) {
	clearTimeout(pollTimer);
	if (on) pollTimer = setTimeout(() => load({ quiet: true }), POLL_MS);
}

renderFilters();
renderActions();
// Drawn once the first load has its table or its error (every page sets
// data-ready: tests/web/browser.mjs).
load().finally(() => { document.body.dataset.ready = '1'; });
