// run-case.js — the run page's per-case views: the latency histogram or CDF
// of any case (from /runs/{id}/cases/{case}/histogram, per repetition and per
// initiator, with a link to its raw samples as CSV when it has any), and
// per-initiator fairness bars (median per initiator CPU with
// Jain's index).

import { h, fill, state, errorBox, loading, setParams } from './dom.js';
import * as api from './api.js';
import * as fmt from './format.js';
import { make, box, color, alpha } from './charts.js';
import { caseLabel, caseShort, jain, caseNotes, axisRules, caption } from './model.js';
import { countNoun, cpuNoun, figureNoun } from './sync_view.js';

const hasStats = (c) => c.stats && c.stats.count > 0;

function caseSelect(id, cases, chosen, onchange) {
	return h('select', { id, 'aria-label': 'Case', onchange: (e) => onchange(Number(e.target.value)) },
		cases.map((c) => h('option', { value: c.case_id, selected: c.case_id === chosen }, caseLabel(c))));
}

// ---- histogram / CDF -------------------------------------------------------

export class HistogramView {
	constructor(container, runId, unit) {
		this.el = container;
		this.runId = runId;
		this.unit = unit;
		this.seq = 0;
	}

	// state: {caseId, view: 'hist'|'cdf', rep: ''|n, init: ''|cpu}
	render(cases, st) {
		const measured = cases.filter(hasStats);
		if (!measured.length) {
			fill(this.el, state('empty', 'No case has results yet.', h('div', {}, 'Histograms appear as soon as the first case of this run reports.')));
			return;
		}
		this.cases = measured;
		this.st = st;
		if (!measured.some((c) => c.case_id === st.caseId)) st.caseId = defaultCase(measured);
		this.draw();
	}

	async draw() {
		const st = this.st;
		const c = this.cases.find((k) => k.case_id === st.caseId);
		const change = (k, v) => {
			st[k] = v;
			if (k === 'caseId') { st.rep = ''; st.init = ''; }
			setParams({ case: st.caseId, view: st.view === 'hist' ? '' : st.view, rep: st.rep, init: st.init });
			this.draw();
		};
		const reps = c.reps || c.stats.reps || 0;
		const controls = h('div', { class: 'toolbar' },
			h('label', {}, 'Case', caseSelect('hist-case', this.cases, st.caseId, (v) => change('caseId', v))),
			h('label', {}, 'Show', h('select', { id: 'hist-view', onchange: (e) => change('view', e.target.value) },
				h('option', { value: 'hist', selected: st.view !== 'cdf' }, 'histogram'),
				h('option', { value: 'cdf', selected: st.view === 'cdf' }, 'CDF'))),
			h('label', {}, 'Repetition', h('select', { id: 'hist-rep', onchange: (e) => change('rep', e.target.value) },
				h('option', { value: '' }, 'all merged'),
				Array.from({ length: reps }, (_, i) => h('option', { value: i, selected: String(i) === String(st.rep) }, `rep ${i}`)))),
			h('label', {}, 'Initiator', h('select', { id: 'hist-init', onchange: (e) => change('init', e.target.value) },
				h('option', { value: '' }, 'all'),
				(c.initiators || []).map((x) => h('option', { value: x.cpu, selected: String(x.cpu) === String(st.init) }, `CPU ${x.cpu}`)))),
			h('span', { id: 'hist-samples' }));
		const body = h('div', {}, loading('the histogram'));
		const my = ++this.seq;
		// The case's annotations (schema role `note`: x_delivery_used, x_cpus, …).
		const schema = await api.schema();
		if (my !== this.seq) return;
		const long = (v) => (String(v).length > 80 ? `${String(v).slice(0, 79)}…` : String(v));
		const notes = caseNotes(c, schema);
		fill(this.el, controls, notes.length ? h('p', { class: 'sub', id: 'case-notes' }, 'Recorded with this case: ',
			notes.map(([k, v], i) => h('span', { dataset: { note: k } }, i ? ' · ' : '', h('code', {}, k), `=${long(v)}`))) : null, body);
		const qs = new URLSearchParams();
		if (st.rep !== '') qs.set('rep', st.rep);
		if (st.init !== '') qs.set('initiator', st.init);
		let hist;
		try {
			hist = await api.get(`runs/${this.runId}/cases/${c.case_id}/histogram${qs.toString() ? `?${qs}` : ''}`);
		} catch (e) {
			if (my !== this.seq) return;
			// A 404 for one repetition or initiator is that selection's:
			// a sender may keep histograms of every initiator together.
			const narrowed = st.rep !== '' || st.init !== '';
			fill(body, e.status !== 404 ? errorBox('the histogram', e)
				: narrowed ? state('empty', `No histogram for ${[st.rep !== '' ? `repetition ${st.rep}` : '', st.init !== '' ? `CPU ${st.init}` : ''].filter(Boolean).join(', ')} in this case.`,
					h('div', {}, 'The payload sent this case\'s histograms for other selections only (all initiators together, say): choose "all" or "all merged" above.'))
				: state('empty', 'This case has no histogram.', h('div', {}, 'The payload sends histograms for every case unless they were turned off; its summary statistics are in the charts above and in the CSV.')));
			return;
		}
		if (my !== this.seq) return;
		this.plot(body, c, hist, st.view === 'cdf');
		this.samplesLink(controls.querySelector('#hist-samples'), c, qs, my);
	}

	// The case's raw samples (GET …/samples.csv) beside its histogram, for the
	// same repetition and initiator, when the payload sent any: one small
	// question first (?limit=0: the counts alone), no link when it fails.
	async samplesLink(slot, c, qs, my) {
		let s;
		try {
			s = await api.get(`runs/${this.runId}/cases/${c.case_id}/samples?${qs.toString() ? `${qs}&` : ''}limit=0`);
		} catch (e) {
			return;
		}
		if (my !== this.seq || !s.count) return;
		const q = new URLSearchParams({ case: c.case_id, ...Object.fromEntries(qs) });
		fill(slot, h('a', { href: api.csvUrl(`runs/${this.runId}/samples.csv?${q}`), download: `xcbench-run-${this.runId}-case-${c.case_id}-samples.csv`,
			title: `${fmt.int(s.count)} raw samples (each call's cycles)${s.missing ? `, ${fmt.int(s.missing)} missing` : ''}` }, 'raw samples (CSV)'));
	}

	plot(body, c, hist, cdf) {
		const u = this.unit;
		const title = `${cdf ? 'CDF' : 'Histogram'} — ${caseLabel(c)}`;
		const pct = hist.percentiles || {};
		const q = (x) => v(u, u.conv(x)); // the API's percentiles are cycles
		const noun = countNoun(c);
		// The histogram's percentiles are of the samples drawn, pooled over
		// the repetitions shown; the case's p50 everywhere else (the tables,
		// the compare page, xcbench show) is the median of its repetitions'
		// p50s, which can differ by more than a bucket: both are named.
		const pooled = this.st.rep === '' && (c.reps || c.stats.reps || 0) > 1 ? ' pooled over its repetitions' : '';
		const caseP50 = pooled ? ` · the case's p50, the median of its repetitions' p50s (as the tables and xcbench show give it): ${q(c.stats.p50)}` : '';
		const note = `${fmt.int(hist.total)} ${noun}${pooled} · p50 ${q(pct.p50)} · p90 ${q(pct.p90)} · p99 ${q(pct.p99)} · p99.9 ${q(pct.p999)} (bucket midpoints, ≤ 0.4 % error)${caseP50}`;
		const { box: el, canvas } = box(h, title, { id: 'histogram', note, tall: true });
		fill(body, el);
		const mids = hist.buckets.map((b) => u.conv(b.low + (b.high - b.low) / 2));
		// A long tail (TCG, interrupts) spreads a few calls over decades: a log
		// axis keeps the body of the distribution readable.
		const log = mids.length > 1 && mids[mids.length - 1] / Math.max(mids[0], 1e-9) >= 8;
		let chart;
		if (cdf) {
			let acc = 0;
			const data = hist.buckets.map((b, i) => { acc += b.count; return { x: mids[i], y: acc / hist.total }; });
			chart = make('histogram', canvas, {
				type: 'line',
				data: { datasets: [{ label: `fraction of ${noun} ≤ x`, xcbRole: 'cdf', data, backgroundColor: alpha(color(0), 0.1),
					borderColor: color(0), borderWidth: 2, stepped: 'after', pointRadius: 0, fill: true }] },
				options: {
					parsing: false,
					scales: {
						x: { type: log ? 'logarithmic' : 'linear', title: { display: true, text: `latency (${u.name})${log ? ', log scale' : ''}` }, ticks: { callback: (x) => v(u, x) } },
						y: { min: 0, max: 1, title: { display: true, text: `fraction of ${noun}` } },
					},
					plugins: { legend: { display: false }, tooltip: { callbacks: {
						title: (items) => v(u, items[0].parsed.x),
						label: (item) => `${(100 * item.parsed.y).toFixed(2)} % of ${noun} at or below`,
					} } },
				},
			});
		} else {
			const bins = rebin(hist.buckets, u);
			chart = make('histogram', canvas, {
				type: 'bar',
				data: {
					labels: bins.map((b) => v(u, b.from)),
					datasets: [{ label: noun, xcbRole: 'bars', data: bins.map((b) => b.count), backgroundColor: alpha(color(0), 0.75),
						borderWidth: 0, barPercentage: 1, categoryPercentage: 0.98 }],
				},
				options: {
					scales: {
						x: { type: 'category', title: { display: true, text: `latency — ${bins.length} bars${bins.k === 1 ? ', one per histogram bucket' : `, each ${bins.k} of the payload's histogram buckets`} (bucket widths grow with latency)` }, ticks: { maxRotation: 0, autoSkipPadding: 12 } },
						// whole calls: no tick at 0.5 of one
						y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: `${noun} per bar` } },
					},
					plugins: { legend: { display: false }, tooltip: { callbacks: {
						title: (items) => { const b = bins[items[0].dataIndex]; return `${v(u, b.from)} – ${v(u, b.to)}`; },
						label: (item) => `${fmt.int(item.parsed.y)} ${noun}`,
					} } },
				},
			});
		}
		chart.$xcb = { caseId: c.case_id, buckets: hist.buckets.length, total: hist.total, view: cdf ? 'cdf' : 'hist', log };
	}
}

// The daemon's buckets (proto/xcb_histo.h: log-linear, 128 per power of two,
// sparse) regrouped into at most BINS display bins of k consecutive bucket
// INDICES each: whole buckets per bin, so no bin catches a varying number of
// them (no aliasing comb), and widths grow with latency like a log axis.
const BINS = 60;
export const bucketLow = (i) => (i < 256 ? i : ((i & 127) + 128) * 2 ** ((i >> 7) - 1));
export const bucketHigh = (i) => (i < 256 ? i : bucketLow(i) + 2 ** ((i >> 7) - 1) - 1);
function rebin(buckets, u) {
	if (!buckets.length) return [];
	const idx = buckets.map((b) => b.i); // the bucket index (host/API.md)
	const i0 = idx[0], i1 = idx[idx.length - 1];
	const k = Math.max(1, Math.ceil((i1 - i0 + 1) / BINS));
	const n = Math.floor((i1 - i0) / k) + 1;
	const bins = Array.from({ length: n }, (_, j) => ({
		from: u.conv(bucketLow(i0 + j * k)), to: u.conv(bucketHigh(i0 + j * k + k - 1)), count: 0,
	}));
	buckets.forEach((b, j) => { bins[Math.floor((idx[j] - i0) / k)].count += b.count; });
	bins.k = k;
	return bins;
}

// Default case to show: the slowest p50 of the most-contended setting.
function defaultCase(cases) {
	return [...cases].sort((a, b) => (b.inits || 0) - (a.inits || 0) || (b.mask || 0) - (a.mask || 0) || b.stats.p50 - a.stats.p50)[0].case_id;
}

function v(u, x) {
	if (x === null || x === undefined) return '–';
	return u.name === 'ns' ? fmt.ns(x) : `${fmt.int(Math.round(x))} cyc`;
}

// ---- fairness ---------------------------------------------------------------

// What tells cases apart beyond caseShort's words (kind, algorithm,
// initiators, mask, wait): the schema's axes whose values differ between
// two listed cases of the same words, as chart captions name them
// (' · 500 µs callee work', ' · masks overlap').
const SHORT = ['kind', 'algo', 'inits', 'mask', 'wait'];
function apart(list, schema) {
	const rules = axisRules(schema);
	const same = new Map();
	for (const c of list) {
		const k = SHORT.map((x) => c[x]).join('/');
		same.set(k, [...(same.get(k) || []), c]);
	}
	const val = (c, k) => (c.config || {})[k];
	const keys = [...new Set(list.flatMap((c) => Object.keys(c.config || {})))].sort()
		.filter((k) => !SHORT.includes(k) && rules.isAxis(k) && [...same.values()].some((g) => new Set(g.map((c) => String(val(c, k)))).size > 1));
	return (c) => keys.map((k) => ` · ${caption(k, val(c, k) ?? '–')}`).join('');
}

// schema: the case keys' roles (apart), sync_rows and call_row (what a
// case's per-CPU p50 is of).
export function renderFairness(container, cases, unit, st, schema) {
	const multi = cases.filter((c) => hasStats(c) && (c.initiators || []).length >= 2);
	if (!multi.length) {
		fill(container, state('empty', 'No case with two or more initiators has per-initiator results.',
			h('div', {}, 'Fairness needs cases run with inits ≥ 2 (the default suite has them) and per-initiator RESULT rows from the payload.')));
		return;
	}
	if (!multi.some((c) => c.case_id === st.fairCase)) {
		// Default: the least fair case — the one a reviewer wants to see first.
		st.fairCase = [...multi].sort((a, b) => fairJain(a) - fairJain(b))[0].case_id;
	}
	const c = multi.find((k) => k.case_id === st.fairCase);
	const inits = [...c.initiators].sort((a, b) => a.cpu - b.cpu);
	const medians = inits.map((x) => unit.conv(x.p50));
	const j = fairJain(c);
	const spread = c.fairness?.p50_max_min ?? (Math.min(...inits.map((x) => x.p50)) > 0 ? Math.max(...inits.map((x) => x.p50)) / Math.min(...inits.map((x) => x.p50)) : null);
	const sel = caseSelect('fair-case', multi, c.case_id, (val) => {
		st.fairCase = val;
		setParams({ fair: val });
		renderFairness(container, cases, unit, st, schema);
	});
	// A sync case's per-CPU rows are its readers' read-lock waits: the words
	// say so (the schema's for the figure), not a call time per initiator.
	const who = cpuNoun(c), noun = countNoun(c), figure = figureNoun(c, schema);
	const { box: el, canvas } = box(h, `Median ${figure} per ${who} CPU — ${caseLabel(c)}`, {
		id: 'fairness',
		note: h('span', {}, 'Jain\'s index ', h('strong', { id: 'jain' }, fmt.ratio(j)),
			jainOf(c, who, noun),
			` (1 = perfectly fair, 1/n = one ${who} gets everything) · slowest/fastest median `,
			h('strong', {}, spread ? `${fmt.ratio(spread, 2)}×` : '–'), ` · ${inits.length} ${who}s`),
	});
	const least = [...multi].sort((a, b) => fairJain(a) - fairJain(b)).slice(0, 6);
	const tell = apart(least, schema);
	const table = h('div', { class: 'tablewrap' }, h('table', { class: 'data', id: 'fairness-table' },
		h('thead', {}, h('tr', {}, h('th', {}, 'Case'), h('th', { class: 'num', title: 'initiator CPUs (a sync case: its reader CPUs)' }, 'CPUs'), h('th', { class: 'num' }, "Jain's index"), h('th', { class: 'num' }, 'slowest / fastest median'))),
		h('tbody', {}, least.map((k) =>
			h('tr', { class: k.case_id === c.case_id ? 'picked' : '', dataset: { case: k.case_id } },
				h('td', {}, h('a', { href: '#fairness', title: caseLabel(k), onclick: (e) => { e.preventDefault(); sel.value = k.case_id; sel.dispatchEvent(new Event('change')); } }, `${caseShort(k)}${tell(k)}`)),
				h('td', { class: 'num' }, k.initiators.length),
				h('td', { class: `num ${fairJain(k) < 0.9 ? 'bad' : ''}` }, fmt.ratio(fairJain(k))),
				h('td', { class: 'num' }, k.fairness?.p50_max_min ? `${fmt.ratio(k.fairness.p50_max_min, 2)}×` : '–'))))));
	fill(container, h('div', { class: 'toolbar' }, h('label', {}, 'Case', sel)),
		h('div', { class: 'charts' }, el, h('div', {}, h('h3', {}, 'Least fair cases'), table)));
	const mean = medians.reduce((a, b) => a + b, 0) / medians.length;
	const chart = make('fairness', canvas, {
		type: 'bar',
		data: {
			labels: inits.map((x) => `CPU ${x.cpu}`),
			datasets: [
				{ label: `median (p50) per ${who}`, xcbRole: 'bars', data: medians,
					backgroundColor: medians.map((m) => (m > mean * 1.1 ? alpha('#D55E00', 0.8) : alpha('#0072B2', 0.75))) },
			],
		},
		options: {
			scales: { y: { beginAtZero: true, title: { display: true, text: `median ${figure} (p50) per ${who}` }, ticks: { callback: (x) => v(unit, x) } },
				x: { title: { display: true, text: `${who} CPU` } } },
			plugins: { legend: { display: false },
				tooltip: { callbacks: { label: (item) => `p50 ${v(unit, item.parsed.y)} · p99 ${v(unit, unit.conv(inits[item.dataIndex].p99))} · ${fmt.int(inits[item.dataIndex].count)} ${noun}` } } },
		},
	});
	chart.$xcb = { caseId: c.case_id, jain: j, initiators: inits.length };
}

// What the case's Jain's index is of, in words (API.md fairness.jain_of):
// the throughput in the repetitions' shared window (the console's figure),
// over each one's own time (runs stored before RESULT carried the window),
// or the medians (before elapsed times).
function jainOf(c, who, noun) {
	const of = c.fairness?.jain_of;
	if (of === 'throughput')
		return ` of the ${who}s' throughput (${noun} per second while all ran; not of the medians drawn here)`;
	if (of === 'elapsed_throughput')
		return ` of the ${who}s' throughput (${noun} per second, each over its own time; not of the medians drawn here)`;
	return ` of the ${who}s' medians`;
}

function fairJain(c) {
	return c.fairness?.jain ?? jain((c.initiators || []).map((x) => x.p50)) ?? 1;
}
