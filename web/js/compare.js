// compare.js — the Compare page (/compare.html?a=RUNS&b=RUNS[&algo_a=X&algo_b=Y]
// [&a_where=K=V&b_where=K=V][&row=NAME]; RUNS: one run or a group 1,2,3 of
// boots; row: the RESULT row a case is compared by, host/API.md):
// the seed's table (rows = CPUs in mask, columns = concurrent initiators,
// cells = % change of the median, b against baseline a) as a colour-scaled
// heatmap with the confidence interval on hover — only significant cells are
// coloured — and the same numbers as a table; every matched case; CSV.
// A side's run shows its status with the payload's verdict where it did not
// pass (verdict.js: `complete · FAILED`), in the picker and above the table.
//
// Chart ids: "matrix:<n>" (n-th pivot of the API answer); each has .$xcb with
// the pivot it drew.

import { h, $, fill, state, errorBox, loading, params, setParams, header } from './dom.js';
import * as api from './api.js';
import * as fmt from './format.js';
import { make, box, changeColor, destroyAll } from './charts.js';
import { varyingAxes, filterCases, notMarkedWhy, unitOfRuns, ciText as ciOf, AT_RESOLUTION } from './model.js';
import { figureNoun, isSync, measureOf, rowWords } from './sync_view.js';
import { noMatch } from './compare-nomatch.js';
import { setVerdicts, runStatus, runStatusText } from './verdict.js';

const main = $('#main');
$('#top').replaceWith(header('compare'));

const p = params();
const q = { a: p.get('a') || '', b: p.get('b') || '', algo_a: p.get('algo_a') || '', algo_b: p.get('algo_b') || '',
	a_where: p.get('a_where') || '', b_where: p.get('b_where') || '', row: p.get('row') || '' };
// Chosen values of the table toolbar's axes (?ax.wait=done…); not sent to the API.
q.axes = Object.fromEntries([...p.entries()].filter(([k]) => k.startsWith('ax.')).map(([k, v]) => [k.slice(3), v]));
let schema = null; // api.schema(): which case keys are axes
const SPAN = 50; // % change at which the colour saturates

// What the API is asked: the runs and the algorithms (not the view's toolbar).
const apiQ = () => ({ a: q.a, b: q.b, algo_a: q.algo_a, algo_b: q.algo_b, a_where: q.a_where, b_where: q.b_where, row: q.row });

function qs(obj) {
	const s = new URLSearchParams();
	for (const [k, v] of Object.entries(obj)) if (v !== '' && v !== null && v !== undefined) s.set(k, v);
	return s.toString();
}

const runName = (r) => `#${r.id}${r.label ? ` “${r.label}”` : ''}`;

// The CSV's file name: what the API was asked, so that two comparisons of
// the same runs (other algorithms, another row) are two files, not one
// saved over the other ('xcbench-compare-4-4-inside-after-writer_hold.csv').
const csvName = () => `xcbench-compare-${[q.a, q.b, q.algo_a, q.algo_b, q.a_where, q.b_where, q.row]
	.filter(Boolean).map((x) => x.replace(/[^A-Za-z0-9_.]+/g, '+')).join('-')}.csv`;

// The picker: two runs or groups (and optionally two algorithms, the
// where-lists and the row a sync case is compared by), submitted as a GET
// form so the result is a plain, bookmarkable URL. Filled with what the URL
// asks (q), so that under a comparison it changes one field of it. allText:
// what the all row compares for the runs it is filled with, where their
// cases are known (allLabel); neutral until then, and again once another
// run is picked. True where it offers runs (false: none stored, or no list).
async function picker(el, allText) {
	fill(el, loading('the runs to choose from'));
	let runs, total;
	try {
		// The row field's names come from the schema; a daemon that cannot
		// serve it still gets a picker, without that field (the API's default).
		let list;
		[list, schema] = await Promise.all([api.get('runs?limit=1000'), api.schema().catch(() => schema)]);
		if (schema) setVerdicts(schema.verdicts);
		runs = list.runs || [];
		total = list.total;
	} catch (e) {
		fill(el, errorBox('the runs', e));
		return false;
	}
	if (!runs.length) {
		fill(el, state('empty', 'No runs to compare yet.', h('div', {}, 'Store a run first (see the ', h('a', { href: './' }, 'runs list'), ' for how), then come back.')));
		return false;
	}
	const opt = (r, sel) => h('option', { value: r.id, selected: String(r.id) === String(sel) },
		`${runName(r)} · ${r.suite || '?'} · ${runStatusText(r)} · ${fmt.date(r.started || r.created)}`);
	const group = (side) => (q[side].includes(',') ? q[side] : ''); // a run list is a group's field
	// Another run picked: the cases the all row's words were of are gone.
	const runsChanged = () => {
		const all = el.querySelector('#pick-row option[value=all]');
		if (all) all.textContent = `all: ${neutralAll()}`;
	};
	// A run the URL names that is not stored (a=999: deleted, mistyped)
	// stays chosen, listed as missing and with no value: the select fell to
	// the first run listed, which Compare then compared though nobody chose
	// it. Only where the list is whole: past its 1000 a run may be stored.
	const whole = total === undefined || runs.length >= total;
	const missing = (side) => (whole && q[side] && !group(side) && !runs.some((r) => String(r.id) === q[side]) ? q[side] : null);
	const select = (side, def) => {
		const m = missing(side);
		return h('select', { name: side, id: `pick-${side}`, onchange: runsChanged },
			m === null ? null : h('option', { value: '', selected: true, dataset: { missing: m } }, `#${m} · no such run: choose one`),
			runs.map((r) => opt(r, m === null ? q[side] || def : null)));
	};
	const sa = select('a', (runs[1] || runs[0]).id);
	const sb = select('b', (runs.find((x) => String(x.id) !== String(q.a || (runs[1] || runs[0]).id)) || runs[0]).id);
	const error = h('div', { class: 'bad', id: 'pick-error', role: 'alert' });
	fill(el, h('form', { class: 'card', method: 'get', action: 'compare.html', id: 'picker' },
		h('div', { class: 'toolbar' },
			h('label', {}, 'Baseline run (a)', sa),
			h('label', {}, 'Compared run (b)', sb),
			h('label', {}, 'or a group of runs (a)', h('input', { type: 'text', id: 'group-a', value: group('a'), placeholder: 'e.g. 1,2,3', size: 10, oninput: runsChanged })),
			h('label', {}, 'group (b)', h('input', { type: 'text', id: 'group-b', value: group('b'), placeholder: 'e.g. 4,5,6', size: 10, oninput: runsChanged })),
			h('label', {}, 'Algorithm in a (optional)', h('input', { type: 'text', name: 'algo_a', value: q.algo_a, placeholder: 'e.g. locked', size: 12 })),
			h('label', {}, 'Algorithm in b (optional)', h('input', { type: 'text', name: 'algo_b', value: q.algo_b, placeholder: 'e.g. lockless', size: 12 })),
			h('label', {}, 'Cases of a where (optional)', h('input', { type: 'text', name: 'a_where', value: q.a_where, placeholder: 'e.g. work_us=0', size: 14 })),
			h('label', {}, 'Cases of b where (optional)', h('input', { type: 'text', name: 'b_where', value: q.b_where, placeholder: 'e.g. work_us=5', size: 14 })),
			syncRows().length ? h('label', {}, 'Cases compared by', h('select', { name: 'row', id: 'pick-row' }, rowOptions(q.row, allText || neutralAll()))) : null,
			h('button', { class: 'primary', type: 'submit' }, 'Compare')),
		h('div', { class: 'muted' }, 'Pick the same run twice and name two algorithms to compare algorithms within one run. Cells show how b differs from a: negative = faster.'),
		error,
		syncRows().length ? h('div', { class: 'muted' }, rowNote()) : null));
	el.querySelector('form').addEventListener('submit', (e) => {
		// Drop empty optional fields so the URL stays short.
		e.preventDefault();
		const f = new FormData(e.target);
		// A typed group of boots replaces the picked run of its side.
		for (const side of ['a', 'b']) {
			const g = el.querySelector(`#group-${side}`).value.replace(/\s+/g, '');
			if (g) f.set(side, g);
		}
		// A side on a missing run (and no group typed) has no run: refuse.
		const none = ['a', 'b'].filter((side) => !f.get(side));
		if (none.length) {
			fill(error, none.map((side) => `${side === 'a' ? 'Baseline run (a)' : 'Compared run (b)'}: there is no run #${missing(side)}; choose one. `));
			return;
		}
		if (f.get('row') === 'all') f.delete('row'); // the API's default: the short URL
		window.location.href = `compare.html?${qs(Object.fromEntries(f.entries()))}`;
	});
	return true;
}

async function start() {
	const pick = h('div', { id: 'pick' });
	const body = h('div', { id: 'compare-body' });
	fill(main, h('h1', {}, 'Compare'), pick, body);
	if (!q.a || !q.b) {
		// "Choose two runs above" only under a picker: with no run stored it
		// stood below "No runs to compare yet", with nothing above.
		if (await picker(pick)) fill(body, state('empty', q.a ? `Choose the run to compare with #${q.a} above.` : 'Choose two runs above.', h('div', {}, 'Or tick two runs in the ', h('a', { href: './' }, 'runs list'), ' and press Compare.')));
		markReady();
		return;
	}
	if ((q.algo_a === '') !== (q.algo_b === '')) {
		fill(body, state('error', 'Give both algorithms, or neither.', h('div', {}, 'algo_a and algo_b go together: they pick one algorithm from each side.')));
		picker(pick);
		markReady();
		return;
	}
	fill(body, loading('the comparison'));
	let cmp;
	try {
		[cmp, schema] = await Promise.all([api.get(`compare?${qs(apiQ())}`), api.schema()]);
		setVerdicts(schema.verdicts);
	} catch (e) {
		fill(body, errorBox('the comparison', e));
		picker(pick);
		markReady();
		return;
	}
	// Nothing matched by a row other than all: do these runs match by all?
	// If so, the row is what left every case out (compare-nomatch.js).
	let byAll = null;
	if (!cmp.cases.length && (cmp.row || 'all') !== 'all') byAll = await api.get(`compare?${qs({ ...apiQ(), row: '' })}`).catch(() => null);
	window.xcbCompare.data = cmp;
	render(pick, body, cmp, byAll);
	markReady();
}

const sideName = (runs) => (runs.length === 1 ? runName(runs[0]) : `runs ${runs.map((r) => `#${r.id}`).join(', ')} (${runs.length} boots)`);

// The warnings every view shows: one boot a side (within-boot intervals
// only), and conditions that differ between the sides.
function warnings(cmp) {
	// The conditions' own lines stand for the warning that points to them
	// ("... see mismatches", in either wording).
	const w = [...(cmp.warnings || []).filter((x) => !/see mismatches/.test(x)), ...(cmp.mismatches || [])];
	return w.length ? h('div', { class: 'card warn', id: 'compare-warnings', role: 'alert' },
		w.map((x) => h('div', { class: 'warning' }, `⚠ ${x}`))) : null;
}

// The boots a calibration takes: a's and b's together when they are
// different runs of the same conditions (an A/A), else a's.
function calibrationRuns(cmp, aRuns, bRuns) {
	const ids = new Set(aRuns.map((r) => r.id));
	const both = [...aRuns, ...bRuns.filter((r) => !ids.has(r.id))];
	return !(cmp.mismatches || []).length && !cmp.algo_a && !q.a_where && !q.b_where && both.length <= 10 && both.length > aRuns.length ? both : aRuns;
}

// The A/A calibration of a side's boots (GET /api/v1/calibrate), on demand.
function calibrateButton(runs) {
	const out = h('span', { id: 'calibrate-result', class: 'muted' });
	if (runs.length < 2) return null;
	const btn = h('button', { id: 'calibrate', type: 'button', onclick: async () => {
		btn.disabled = true;
		out.textContent = ' comparing every split and pair of these boots…';
		try {
			const c = await api.get(`calibrate?runs=${runs.map((r) => r.id).join(',')}`);
			window.xcbCompare.calibration = c;
			const pc = (t) => `${(100 * t.false_positive_rate).toFixed(1)} %`;
			out.textContent = ` A/A on these ${c.boots} boots: groups of ${c.boots_per_side} mark ${c.groups.comparisons ? pc(c.groups) : `– (needs ${c.groups_min_boots} boots)`} of cases, single pairs mark ${pc(c.pairs)} (every mark is a false positive).`;
		} catch (e) {
			out.textContent = ` calibration failed: ${e.message}`;
		}
		btn.disabled = false;
	} }, `Calibrate (A/A on these ${runs.length} boots)`);
	return h('span', {}, btn, out);
}

// "Other runs…": the picker, filled with this comparison, opened below its
// head (the comparison stays until another is asked), its all row named for
// this comparison's cases.
function otherRuns(pick, cmp) {
	const btn = h('button', { type: 'button', id: 'other-runs', onclick: () => {
		btn.disabled = true;
		const again = h('div', { id: 'pick-other' });
		pick.after(again);
		picker(again, allLabel(cmp.cases));
	} }, 'Other runs…');
	return btn;
}

function render(pick, body, cmp, byAll) {
	const algos = cmp.algo_a || cmp.algo_b ? ` (${cmp.algo_a} → ${cmp.algo_b})` : '';
	const aRuns = cmp.a_runs || [cmp.a], bRuns = cmp.b_runs || [cmp.b];
	const same = q.a === q.b;
	document.title = `xcbench — ${same ? `${sideName(aRuns)}${algos}` : `${sideName(aRuns)} → ${sideName(bRuns)}`}`;
	const sig = cmp.cases.filter((c) => c.significant);
	const better = sig.filter((c) => c.change_pct < 0).length;
	const worse = sig.length - better;
	const link = (runs) => (runs.length === 1 ? h('a', { href: `run.html?id=${runs[0].id}` }, runName(runs[0]))
		: h('span', {}, 'runs ', runs.map((r, i) => [i ? ', ' : '', h('a', { href: `run.html?id=${r.id}` }, `#${r.id}`)]), ` (${runs.length} boots)`));
	const csv = api.csvUrl(`compare.csv?${qs(apiQ())}`);
	const swap = `compare.html?${qs({ a: q.b, b: q.a, algo_a: q.algo_b, algo_b: q.algo_a, a_where: q.b_where, b_where: q.a_where, row: q.row })}`;
	fill(pick,
		h('div', { class: 'row' },
			h('span', {}, 'Baseline ', link(aRuns), ' ', aRuns.length === 1 ? runStatus(cmp.a) : null, cmp.algo_a ? h('strong', {}, ` ${cmp.algo_a}`) : null, q.a_where ? h('strong', {}, ` ${q.a_where}`) : null),
			h('span', {}, '→'),
			h('span', {}, link(bRuns), ' ', bRuns.length === 1 ? runStatus(cmp.b) : null, cmp.algo_b ? h('strong', {}, ` ${cmp.algo_b}`) : null, q.b_where ? h('strong', {}, ` ${q.b_where}`) : null),
			h('span', { class: 'grow' }),
			h('a', { class: 'button', href: swap, id: 'swap' }, 'Swap a ↔ b'),
			otherRuns(pick, cmp),
			h('a', { class: 'button primary', href: csv, download: csvName(), id: 'compare-csv' }, 'Download CSV')),
		h('p', { class: 'sub', id: 'summary' },
			`${cmp.cases.length} matched case${cmp.cases.length === 1 ? '' : 's'}: `,
			h('span', { class: 'good' }, `${better} significantly faster`), ', ', h('span', { class: 'bad' }, `${worse} significantly slower`),
			`, ${cmp.cases.length - sig.length} not marked`,
			` · ${levelText(cmp)}; 95 % intervals; `,
			// what marks a case: the daemon's line (star_text), every form's;
			// within one boot an interval that excludes 0 may go unmarked
			h('span', { id: 'star-rule' }, cmp.star_text),
			cmp.unmatched_a || cmp.unmatched_b ? ` · unmatched: ${cmp.unmatched_a} in a, ${cmp.unmatched_b} in b` : ''),
		rowChooser(cmp, byAll),
		warnings(cmp),
		h('div', { class: 'row' }, calibrateButton(calibrationRuns(cmp, aRuns, bRuns))));
	if (!cmp.cases.length) {
		// The picker, on what was asked, below what matched nothing: an
		// algorithm or a row to change without retyping the rest.
		const again = h('div', { id: 'pick-again' });
		const allText = allLabel(byAll ? byAll.cases : []);
		fill(body, h('div', { id: 'no-match' }, noMatch(cmp, byAll, schema, `compare.html?${qs({ ...apiQ(), row: '' })}`, allText)), again);
		picker(again, allText);
		return;
	}
	// One heatmap per pivot is too many for a real suite (algorithms × delivery ×
	// wait × …): a toolbar picks one value of every axis that varies within an
	// algorithm, as on the run page; the CSV and the case table keep everything.
	const all = cmp.pivots || [];
	const asCases = all.map((pv) => ({ kind: (pv.fixed || {}).kind, algo: `${pv.algo_a}/${pv.algo_b}`, config: pv.fixed || {}, pv }));
	const axes = varyingAxes(asCases, schema);
	const area = h('div', { id: 'pivots' });
	const toolbar = axes.length ? h('div', { class: 'toolbar', id: 'axes' }, h('span', { class: 'muted' }, 'Show tables with'),
		axes.map(({ key, values, def }) => h('label', {}, key,
			h('select', { id: `axis-${key}`, dataset: { axis: key }, onchange: (e) => {
				q.axes[key] = e.target.value;
				setParams({ [`ax.${key}`]: e.target.value });
				drawPivots();
			} }, values.map((v) => h('option', { value: v, selected: v === (q.axes[key] ?? def) }, key === 'work_us' ? `${v} µs` : v)))))) : null;
	const drawPivots = () => {
		destroyAll('matrix:');
		const shown = filterCases(asCases, axes, q.axes).map((c) => c.pv);
		const views = shown.map((pv) => pivotView(pv, all.indexOf(pv), shown, cmp));
		fill(area, views.length ? views.map((v) => v.wrap)
			: state('empty', all.length ? 'No table has this combination of settings.' : 'No seed-style table for these cases.',
				h('div', {}, all.length ? 'Choose other values above.' : 'The tables need cases that vary CPUs in mask and initiators; every matched case is listed below.')));
		// Charts are made once their boxes are in the document (Chart.js needs a size).
		for (const v of views) v.draw();
	};
	fill(body,
		h('div', { class: 'legend-scale' }, 'b vs a:',
			h('span', {}, `−${SPAN}% faster`),
			h('span', { class: 'ramp', style: { background: `linear-gradient(to right, ${changeColor(-SPAN, true)}, ${changeColor(-1, true)}, #fff, ${changeColor(1, true)}, ${changeColor(SPAN, true)})` } }),
			h('span', {}, `+${SPAN}% slower`),
			h('span', { class: 'ramp', style: { width: '18px', background: changeColor(0, false) } }), 'not marked (q > FDR, |change| below the minimum, or the interval includes 0)'),
		toolbar,
		area,
		h('details', { open: cmp.cases.length <= 24, id: 'cases-details' },
			h('summary', {}, h('strong', {}, `Every matched case (${cmp.cases.length})`), h('span', { class: 'muted' }, ' — significant first, largest change first')),
			casesTable(cmp),
			// what '~' before an interval is, under the table that shows it
			cmp.cases.some((c) => c.ci_at_resolution) ? h('p', { class: 'muted', id: 'at-resolution' }, AT_RESOLUTION) : null));
	drawPivots();
}

// The rows a sync case is compared by (GET /api/v1/schema's sync_rows: all,
// then the pseudo-initiators, with the CLI's words, served once), then
// lock_hold (the schema's lock_row: any case with a lock profile, by its
// hold per acquisition, seed 001), and the one the answer compares by (its
// `row`; all unless asked).
const syncRows = () => [...((schema && schema.sync_rows) || []), ...(schema && schema.lock_row ? [schema.lock_row] : [])];
const isLockRow = (cmp) => !!(schema && schema.lock_row && cmp.row === schema.lock_row.name);

// What a table's cells compare: under lock_hold any table's the lock's hold
// (the row's measure), else a sync table's the row's measure (compare
// --row's title words), any other the median call time.
const measureOfPivot = (pv, cmp) => (isLockRow(cmp) ? rowWords(syncRows(), cmp.row).measure : measureOf(pv.fixed, schema, cmp.row));

// What each repetition gave a case's figure (the schema's `figure`: a p50,
// lock_hold's hold per acquisition), for the heatmap's words; p50 where a
// daemon's schema predates it.
const figureOf = (cmp) => rowWords(syncRows(), cmp.row || 'all').figure || 'p50';

// The row chooser (row=): only where a compared case is a sync one (seed
// 002's figures are rows of sync cases only; any other case has none, so a
// pseudo row would leave it out) or a cross-call or TLB one (which may hold
// a lock: lock_hold), or a row other than all is asked (the way back). A
// raw floor has neither. Picking one loads the new URL: the API's answer,
// not only its drawing, changes, and the URL stays the permalink. byAll:
// these runs' cases by all where cmp's row left none (all's words are theirs).
function rowChooser(cmp, byAll) {
	const sync = cmp.cases.some((c) => c.key && ['sync', 'xcall', 'tlb'].includes(c.key.kind));
	if (!syncRows().length || (!sync && (cmp.row || 'all') === 'all')) return null;
	const axes = Object.fromEntries(Object.entries(q.axes).map(([k, v]) => [`ax.${k}`, v]));
	const sel = h('select', { id: 'row', onchange: (e) => {
		window.location.href = `compare.html?${qs({ ...apiQ(), row: e.target.value === 'all' ? '' : e.target.value, ...axes })}`;
	} }, rowOptions(cmp.row, allLabel(cmp.cases.length || !byAll ? cmp.cases : byAll.cases)));
	return h('div', { class: 'toolbar', id: 'row-chooser' }, h('label', {}, 'Cases compared by', sel),
		h('span', { class: 'muted' }, rowNote()));
}

// The choices of a row chooser (the result's and the picker's): every
// schema row, named as the CLI names it, on `chosen` (all when none); the
// all row as allText says (allLabel, neutralAll).
const rowOptions = (chosen, allText) => syncRows().map((r) => h('option', { value: r.name, selected: r.name === (chosen || 'all') },
	`${r.name}: ${r.name === 'all' && allText ? allText : r.label}`));

// What the all row compares for these cases: each kind's all-row figure
// (figureNoun: a sync case's the schema's sync_rows all, the readers' wait
// per read; a cross-call or TLB case's its call_row, the call time, as
// compare's title says), each naming its kinds where they differ. A compare
// of TLB cases alone offered "all: readers' wait per read", a figure no TLB
// case has. No case (none known yet, or none matched): neutralAll's words.
function allLabel(cases) {
	const kinds = new Map(); // label -> the kinds it is the all row of
	for (const c of cases) {
		const k = c.key && c.key.kind;
		if (!k) continue;
		const label = figureNoun(c.key, schema);
		kinds.set(label, new Set([...(kinds.get(label) || []), k]));
	}
	if (kinds.size < 2) return kinds.size ? [...kinds.keys()][0] : neutralAll();
	return [...kinds].map(([label, ks]) => `${label} (${[...ks].join(', ')})`).join('; ');
}

// The all row before the compared cases are known (the picker with no run
// chosen, a comparison that matched nothing): each case is compared by its
// own kind's figure, every kind of the schema's vocabulary named with its
// words. The sync cases' "readers' wait per read" stood there for any runs,
// cross-call ones too.
function neutralAll() {
	const kinds = (schema && schema.vocabularies && schema.vocabularies.kind && schema.vocabularies.kind.values) || [];
	return `each case's own figure${kinds.length ? `: ${allLabel(kinds.map((kind) => ({ key: { kind } })))}` : ''}`;
}

// Why the row matters, naming the rows with the schema's words.
const rowNote = () => {
	const sync = (schema && schema.sync_rows) || [], lock = schema && schema.lock_row;
	return `A sync case\u2019s all row is the ${rowWords(sync, 'all').label}, which nearly every read takes uncontended, so a change to the writer\u2019s hold can leave it unmoved; the other sync rows: ${sync.filter((r) => r.name !== 'all').map((r) => r.label).join(', ')} (cases of other kinds have none and are left out)${lock ? `; ${lock.name} compares any case that holds a lock (cross-call, TLB or sync) by its ${lock.label}` : ''}.`;
};

// Title: kind, algorithm(s), and the axes that tell this table from the
// other tables of the same kind (e.g. callee work 0 vs 500 µs); the note
// lists the axes they share.
function pivotTitle(pv, all, cmp) {
	const f = pv.fixed || {};
	const algo = pv.algo_a === pv.algo_b ? pv.algo_a : `${pv.algo_a} → ${pv.algo_b}`;
	const diff = Object.entries(f).filter(([k]) => k !== 'kind' && varies(all, pv, k)).map(([k, v]) => axis(k, v));
	// sync (seed 002): what its cells compare, the row's measure (row=)
	const what = f.kind === 'tlb' ? 'TLB shootdown' : isSync(f) ? `sync: ${measureOfPivot(pv, cmp)}` : f.kind || '';
	return `${what}${algo ? ` — ${algo}` : ''}${diff.length ? ` · ${diff.join(' · ')}` : ''}`;
}

function pivotNote(pv, all) {
	return Object.entries(pv.fixed || {}).filter(([k]) => k !== 'kind' && !varies(all, pv, k)).map(([k, v]) => axis(k, v)).join(' · ');
}

function varies(all, pv, k) {
	const same = all.filter((o) => (o.fixed || {}).kind === (pv.fixed || {}).kind);
	return new Set(same.map((o) => String((o.fixed || {})[k]))).size > 1;
}

const axis = (k, v) => (k === 'work_us' ? `${v} µs callee work` : `${k}=${v}`);

function cellText(c) {
	return c ? fmt.pct(c.change_pct) : '';
}

// The mark of a case (or pivot cell) that failed a check on a side (the
// API's a_failed/b_failed: calls lost, duplicated or out of order, a stale
// translation, a watchdog), as `xcbench compare` prints it: '!A', '!B',
// '!AB'; null when neither side failed one.
function failedMark(c) {
	const m = `${c && c.a_failed ? 'A' : ''}${c && c.b_failed ? 'B' : ''}`;
	return m ? h('span', { class: 'bad failed-mark', title: `failed a check in ${m === 'AB' ? "both sides'" : `${m}'s`} boots (calls lost, duplicated or out of order, a stale translation, or a watchdog): its figures are not those of a correct algorithm` }, ` !${m}`) : null;
}

// The mark of a case (or pivot cell) of method none on a side (the API's
// a_no_flush/b_no_flush: it invalidates nothing, its stale reads are not
// checked: a cost figure, never a pass), as `xcbench compare` prints it:
// '0A', '0B', '0AB'; null when neither side is.
function noFlushMark(c) {
	const m = `${c && c.a_no_flush ? 'A' : ''}${c && c.b_no_flush ? 'B' : ''}`;
	return m ? h('span', { class: 'bad no-flush-mark', title: `of method none on ${m === 'AB' ? 'both sides' : `side ${m}`}: it invalidates nothing (a cost figure, never a pass; its stale reads are not checked), so its change is not that of a shootdown` }, ` 0${m}`) : null;
}

// The comparison's level, from its cases' (a case in one run of each side
// is compared within that boot, however many boots the sides have).
function levelText(cmp) {
	const within = cmp.cases.filter((c) => c.level === 'within_boot').length;
	return cmp.level === 'between_boot' ? `between boots (${cmp.boots_a} vs ${cmp.boots_b})`
		: cmp.level === 'mixed' ? `between boots (${cmp.boots_a} vs ${cmp.boots_b}), but ${within} of ${cmp.cases.length} cases within one boot (each in 1 boot of a side)`
			: cmp.boots_a > 1 && cmp.boots_b > 1 ? `within one boot: each case is in 1 boot of a side (of ${cmp.boots_a} vs ${cmp.boots_b})` : 'within one boot';
}

function ciText(c) {
	return ciOf(c, fmt.pct);
}

// A cell's title: its interval, what '~' is where it has one, and why it is
// not marked.
function cellTitle(c, cmp) {
	return `95 % CI ${ciText(c)}${c.ci_at_resolution ? ` (${AT_RESOLUTION})` : ''}${c.significant ? '' : ` — not marked: ${notMarkedWhy(c, cmp)}`}`;
}

// One pivot: heatmap + the same numbers as the seed's table, side by side.
// cmp: the whole answer (its level, fdr and minimum effect).
function pivotView(pv, i, all, cmp) {
	// between boots a side's figure is its boots' geometric mean of p50
	const of = `${cmp.level === 'between_boot' ? "the boots' geometric mean of the median" : cmp.level === 'mixed' ? "the boots' geometric mean of the median (one boot's median for a case in 1 boot of a side)" : 'median'} ${figureOf(cmp)}`;
	const id = `matrix:${i}`;
	const rows = pv.rows.map(String), cols = pv.cols.map(String);
	const data = [];
	pv.rows.forEach((r, ri) => pv.cols.forEach((c, ci) => {
		const cell = pv.cells[ri][ci];
		if (cell) data.push({ x: String(c), y: String(r), v: cell.change_pct, sig: !!cell.significant, cell });
	}));
	// What a column counts: a sync case's writers, any other's initiators
	// (the table's heads, the axis and the cells' tooltips alike).
	const colNoun = isSync(pv.fixed) ? 'writer' : 'initiator';
	const height = Math.max(160, 44 * rows.length + 70);
	const { box: el, canvas } = box(h, pivotTitle(pv, all, cmp), { id, note: pivotNote(pv, all) });
	el.querySelector('.canvas').style.height = `${height}px`;
	const table = h('table', { class: 'data pivot', id: `pivot-${i}` },
		h('thead', {}, h('tr', {}, h('th', {}, ''), pv.cols.map((c) => h('th', { class: 'num' },
			`${c} ${colNoun}${c === 1 ? '' : 's'}`)))),
		h('tbody', {}, pv.rows.map((r, ri) => h('tr', {},
			h('th', {}, `${r} CPU${r === 1 ? '' : 's'} in mask`),
			pv.cols.map((c, ci) => {
				const cell = pv.cells[ri][ci];
				if (!cell) return h('td', { class: 'num muted', title: 'no matching case' }, '–');
				const cls = cell.significant ? (cell.change_pct < 0 ? 'sig-better' : 'sig-worse') : 'ns';
				return h('td', { class: `num ${cls}`, title: cellTitle(cell, cmp), dataset: { sig: cell.significant ? '1' : '0' } },
					cellText(cell), failedMark(cell), noFlushMark(cell), h('div', { class: 'muted', style: { fontSize: '0.8em' } }, ciText(cell)));
			})))));
	const wrap = h('section', { class: 'pivot-view', dataset: { pivot: i } },
		h('div', { class: 'charts', style: { gridTemplateColumns: 'minmax(420px, 1fr) minmax(420px, 1fr)' } }, el,
			h('div', { class: 'chartbox' }, h('h3', {}, `As a table (% change of ${measureOfPivot(pv, cmp)}, 95 % interval)`), h('div', { class: 'tablewrap' }, table))));
	const draw = () => {
		const chart = make(id, canvas, {
			type: 'matrix',
			data: { datasets: [{
				label: `% change of ${of}`,
				xcbRole: 'cell',
				data,
				backgroundColor: (ctx) => { const d = ctx.dataset.data[ctx.dataIndex]; return d ? changeColor(d.v, d.sig, SPAN) : 'transparent'; },
				borderColor: '#ffffff',
				borderWidth: 1,
				width: ({ chart: c }) => (c.chartArea || {}).width / cols.length - 2,
				height: ({ chart: c }) => (c.chartArea || {}).height / rows.length - 2,
			}] },
			options: {
				scales: {
					x: { type: 'category', labels: cols, offset: true, grid: { display: false }, title: { display: true, text: isSync(pv.fixed) ? 'writers' : `concurrent ${colNoun}s` } },
					y: { type: 'category', labels: rows, offset: true, reverse: false, grid: { display: false }, title: { display: true, text: 'CPUs in mask' } }, // the matrix plugin reverses y by default; 1 CPU on top, as in the seed's table
				},
				plugins: {
					legend: { display: false },
					tooltip: { callbacks: {
						title: (items) => { const d = items[0].raw; return `${d.y} CPU${d.y === '1' ? '' : 's'} in mask, ${d.x} ${colNoun}${d.x === '1' ? '' : 's'}`; },
						label: (item) => {
							const c = item.raw.cell;
							return [`change of ${of}: ${fmt.pct(c.change_pct)}`, `95 % CI: ${ciText(c)}`, c.significant ? 'marked: significant' : `not marked: ${notMarkedWhy(c, cmp)}`];
						},
					} },
				},
			},
			plugins: [cellLabels],
		});
		chart.$xcb = { pivot: i, rows: pv.rows, cols: pv.cols, cells: data.length };
	};
	return { wrap, draw };
}

// Writes each cell's % change on the heatmap (dark text on light cells).
const cellLabels = {
	id: 'xcbCellLabels',
	afterDatasetsDraw(chart) {
		const { ctx } = chart;
		const meta = chart.getDatasetMeta(0);
		ctx.save();
		ctx.font = '600 12px system-ui, sans-serif';
		ctx.textAlign = 'center';
		ctx.textBaseline = 'middle';
		meta.data.forEach((el, i) => {
			const d = chart.data.datasets[0].data[i];
			const { x, y } = el.getCenterPoint();
			ctx.fillStyle = d.sig && Math.abs(d.v) > SPAN * 0.6 ? '#ffffff' : '#111827';
			ctx.fillText(fmt.pct(d.v), x, y);
		});
		ctx.restore();
	},
};

// A case's algorithm as the table names it: its key's, or where the key has
// none (two algorithms named, or two TLB paths restricted: a path's algo is
// its name, host/src/compare.c side_algos) each side's, "a → b" as the
// table titles and compare --csv's algo_a/algo_b give it. A table of
// flush=vector vs flush=consolidated listed its cases by no path at all.
function algoOfCase(c, cmp) {
	if (c.key.algo !== undefined) return c.key.algo;
	const a = c.algo_a ?? cmp.algo_a, b = c.algo_b ?? cmp.algo_b;
	if (a == null && b == null) return undefined;
	return a === b ? a : `${a ?? '–'} → ${b ?? '–'}`;
}

// The heads of the sides' figures, as compare's text table heads them ("A
// hold ns"): the row's figure (the schema's `figure`, figureOf: lock_hold's
// hold, else a p50), "gm" between boots (a side's figure is its boots'
// geometric mean). They read "a p50" under lock_hold too.
const figureHeads = (cmp) => ['a', 'b'].map((s) => `${s} ${cmp.level === 'between_boot' ? 'gm ' : ''}${figureOf(cmp)}`);

function casesTable(cmp) {
	const algos = new Map(cmp.cases.map((c) => [c, algoOfCase(c, cmp)]));
	const keys = [...new Set([...cmp.cases.flatMap((c) => Object.keys(c.key)), ...([...algos.values()].some((x) => x !== undefined) ? ['algo'] : [])])];
	// The schema's matched keys with their own column first (kind … work_us, as
	// the CSV), in its order; any other matched key after them, by name.
	const order = schema.case_keys.filter((k) => k.column && k.matching).map((k) => k.key);
	keys.sort((x, y) => ((order.indexOf(x) + 1 || 99) - (order.indexOf(y) + 1 || 99)) || (x < y ? -1 : 1));
	// Each side's p50 in the run page's unit (ns at its TSC rate); the cell's
	// title keeps the cycles the API and the CSV give.
	const ua = unitOfRuns(cmp.a_runs || [cmp.a]), ub = unitOfRuns(cmp.b_runs || [cmp.b]);
	const sorted = [...cmp.cases].sort((x, y) => (y.significant - x.significant) || Math.abs(y.change_pct) - Math.abs(x.change_pct));
	// The verdict and both sides' figures come first: a real suite's cases have
	// up to 17 axes, wider than a laptop's screen, and what scrolls out of view
	// must be the axes, not the change the table is read for.
	return h('div', { class: 'tablewrap' }, h('table', { class: 'data', id: 'cases' },
		h('thead', {}, h('tr', {}, ['change', '95 % CI', 'q (BH)', ...figureHeads(cmp)].map((x) => h('th', { class: 'num' }, x)),
			keys.map((k) => h('th', {}, k)),
			// the statistical test's column: "method" beside a TLB case's
			// method (invlpg) headed two columns alike
			h('th', { class: 'num', title: 'how the interval was found (bootstrap over repetitions, or too few of them)' }, 'interval by'),
			['boots a/b', 'reps a/b'].map((x) => h('th', { class: 'num' }, x)))),
		h('tbody', {}, sorted.map((c) => h('tr', {},
			h('td', { class: `num ${c.significant ? (c.change_pct < 0 ? 'sig-better' : 'sig-worse') : 'ns'}` }, fmt.pct(c.change_pct), failedMark(c), noFlushMark(c)),
			h('td', { class: 'num', title: c.ci_at_resolution ? AT_RESOLUTION : undefined }, ciText(c)),
			h('td', { class: 'num' }, c.q === null || c.q === undefined ? '–' : c.q.toFixed(3)),
			h('td', { class: 'num', title: `${fmt.int(c.a_p50)} TSC cycles` }, h('a', { href: `run.html?id=${cmp.a.id}&case=${c.a_case}#hist` }, ua.text(c.a_p50))),
			h('td', { class: 'num', title: `${fmt.int(c.b_p50)} TSC cycles` }, h('a', { href: `run.html?id=${cmp.b.id}&case=${c.b_case}#hist` }, ub.text(c.b_p50))),
			keys.map((k) => h('td', {}, (k === 'algo' ? algos.get(c) : c.key[k]) ?? '–')),
			h('td', { class: 'num' }, c.method),
			h('td', { class: 'num' }, `${c.a_boots ?? '–'}/${c.b_boots ?? '–'}`),
			h('td', { class: 'num' }, `${c.a_reps ?? '–'}/${c.b_reps ?? '–'}`))))));
}

function markReady() {
	window.xcbCompare.ready = true;
	document.body.dataset.ready = '1';
}

window.xcbCompare = { ready: false, data: null };
start();
