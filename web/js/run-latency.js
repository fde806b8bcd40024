// run-latency.js — the run page's latency charts: for each algorithm, latency
// vs CPUs in mask, one p50 line per number of concurrent initiators with a
// shaded p10–p99 band, and the raw-IPI floor; the other axes (delivery,
// wait, …) are chosen in a toolbar (model.varyingAxes), one value each.
//
// Chart ids: "latency:<group key>"; each chart carries .$xcb = {group key,
// fixed axes, unit} so tests can match it to the API's cases.

import { h } from './dom.js';
import * as fmt from './format.js';
import { make, box, color, alpha, charts } from './charts.js';
import { chartGroups, rawFloor, floorAt } from './model.js';

// The toolbar: one select per varying axis. onchange(key, value).
export function axisControls(axes, chosen, onchange) {
	if (!axes.length) return null;
	return h('div', { class: 'toolbar', id: 'axes' },
		h('span', { class: 'muted' }, 'Show cases with'),
		axes.map(({ key, values, def }) => h('label', {}, key,
			h('select', { id: `axis-${key}`, dataset: { axis: key }, onchange: (e) => onchange(key, e.target.value) },
				values.map((v) => h('option', { value: v, selected: v === (chosen[key] ?? def) }, key === 'work_us' ? `${v} µs` : v))))));
}

// The band runs from STATS.p10 (the daemon's, from the histograms) to p99;
// where a case has no histogram (p10 null) it starts at the case's min, and
// the note says so. `cases` are the filtered cases.
export function renderLatency(container, cases, unit, { log, schema, shared = true }) {
	const groups = chartGroups(cases, schema);
	const floor = rawFloor(cases);
	const out = [];
	let usedMin = false;
	for (const g of groups) {
		const id = `latency:${g.key}`;
		const masks = [...new Set(g.cases.filter(hasStats).map((c) => c.mask))].sort((a, b) => a - b);
		if (!masks.length) continue; // live run: nothing measured yet for this group
		const labels = masks.map(String);
		const datasets = [];
		let i = 0;
		for (const [inits, list] of g.series) {
			const measured = list.filter(hasStats);
			if (!measured.length) { i++; continue; }
			const c = color(i++);
			const name = typeof inits === 'string' ? inits : `${inits} initiator${inits === 1 ? '' : 's'}`; // sync: the mode
			const lo = measured.map((k) => {
				const v = k.stats.p10;
				if (v === undefined || v === null) usedMin = true;
				return { x: String(k.mask), y: unit.conv(v ?? k.stats.min) };
			});
			const hi = measured.map((k) => ({ x: String(k.mask), y: unit.conv(k.stats.p99) }));
			datasets.push(
				{ label: `${name} p10`, xcbRole: 'band', data: lo, borderWidth: 0, pointRadius: 0, pointHitRadius: 0, fill: false, borderColor: 'transparent' },
				{ label: `${name} p99`, xcbRole: 'band', data: hi, borderWidth: 0, pointRadius: 0, pointHitRadius: 0, fill: '-1', backgroundColor: alpha(c, 0.11), borderColor: 'transparent' },
				{ label: name, xcbRole: 'p50', xcbInits: inits, data: measured.map((k) => ({ x: String(k.mask), y: unit.conv(k.stats.p50), caseId: k.case_id })),
					borderColor: c, backgroundColor: c, borderWidth: 2, pointRadius: 3, tension: 0, fill: false,
					xcbBand: measured.map((k, j) => [lo[j].y, hi[j].y]) },
			);
		}
		if (floor) {
			datasets.push({ label: 'raw IPI floor (p50)', xcbRole: 'floor', data: masks.map((m) => ({ x: String(m), y: unit.conv(floorAt(floor, m)) })),
				borderColor: '#111827', borderDash: [6, 4], borderWidth: 1.5, pointRadius: 0, fill: false, stepped: false });
		}
		const { box: el, canvas } = box(h, g.title, { id, note: g.subtitle });
		container.append(el);
		const chart = make(id, canvas, {
			type: 'line',
			data: { labels, datasets },
			options: {
				interaction: { mode: 'index', intersect: false },
				scales: {
					x: { type: 'category', title: { display: true, text: 'CPUs in mask' } },
					y: axisY(unit, log),
				},
				plugins: {
					tooltip: {
						filter: (item) => item.dataset.xcbRole !== 'band',
						callbacks: {
							title: (items) => `${items[0].label} CPUs in mask`,
							label: (item) => {
								const ds = item.dataset;
								if (ds.xcbRole === 'floor') return `raw IPI floor: ${val(unit, item.parsed.y)}`;
								const [l, u] = ds.xcbBand[item.dataIndex];
								return `${ds.label}: p50 ${val(unit, item.parsed.y)} (p10 ${val(unit, l)} – p99 ${val(unit, u)})`;
							},
						},
					},
				},
			},
		});
		chart.$xcb = { key: g.key, fixed: g.fixed, unit: unit.name };
		out.push(chart);
	}
	if (shared) shareRange(out, log);
	return { charts: out, usedMin };
}

// One y range for every panel (issue 25): the lowest and highest value any
// panel draws, so panels (and two runs' pages with the same choices) read
// alike by eye; each chart's $xcb.range records it. A band of one point is
// no area (its points have no radius): drawn nowhere, its p99 must not
// stretch every panel (one 3.2 ms p99 left the other lines flat at 0).
export function shareRange(list, log) {
	const drawn = (d) => d.xcbRole !== 'band' || d.data.length >= 2;
	const ys = list.flatMap((c) => c.data.datasets.filter(drawn).flatMap((d) => d.data.map((p) => (p && typeof p === 'object' ? p.y : p))))
		.filter((v) => Number.isFinite(v) && (!log || v > 0));
	if (!ys.length) return;
	const lo = Math.min(...ys), hi = Math.max(...ys);
	for (const c of list) {
		c.options.scales.y.max = hi * (log ? 1.2 : 1.05);
		c.options.scales.y.min = log ? lo / 1.2 : 0;
		c.$xcb.range = [c.options.scales.y.min, c.options.scales.y.max];
		c.update();
	}
}

export function setLogScale(log, unit, shared = true) {
	const list = [];
	for (const [id, c] of Object.entries(charts)) {
		if (!id.startsWith('latency:')) continue;
		c.options.scales.y = axisY(unit, log);
		c.update();
		list.push(c);
	}
	if (shared) shareRange(list, log);
}

function axisY(unit, log) {
	return {
		type: log ? 'logarithmic' : 'linear',
		beginAtZero: !log,
		title: { display: true, text: unit.name === 'ns' ? 'latency' : 'latency (TSC cycles)' }, // ns ticks carry their unit
		ticks: { callback: tickLabel(unit, log) },
	};
}

// A latency axis's tick labels, in the unit's words (1.00 ms, 12.3k): on a log
// axis only 1-2-5 steps, or the labels collide. The floor chart's too.
export const tickLabel = (unit, log) => (v) => (log && ![1, 2, 5].includes(Number(String(v).replace(/[^1-9]/g, '')[0])) ? '' : tick(unit, v));

const hasStats = (c) => c.stats && c.stats.count > 0;

// A latency in a tooltip: ns with its unit, or whole cycles.
export function val(unit, v) {
	return unit.name === 'ns' ? fmt.ns(v) : `${fmt.int(Math.round(v))} cycles`;
}

function tick(unit, v) {
	if (unit.name === 'ns') return fmt.ns(v);
	return v >= 1e6 ? `${(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(v >= 1e4 ? 0 : 1)}k` : String(v);
}
