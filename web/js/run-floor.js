// run-floor.js — the run page's floor over time (issue 21): every repetition
// of the run in the order it ran (case by case), with the `ipi` floor probed
// among its calls (the paired floor), the floor measured just before it, and
// the repetition's call p50 — so a call that tracks its floor as the host moves
// it, and a floor that moves within a boot, are seen at a glance.
//
// Chart id "floor"; .$xcb = {points: [{case_id, rep, paired, before, p50, raw_ipi}] in
// cycles, unit, log (a log y axis)} so tests can match it to the API's rep_* arrays.

import { h, fill, state } from './dom.js';
import * as fmt from './format.js';
import { make, box, color } from './charts.js';
import { caseShort } from './model.js';
import { tickLabel, val } from './run-latency.js';

// The run's repetitions in run order, from each CASE's rep_* arrays (cycles;
// null where not measured). A case without repetitions adds nothing.
export function floorPoints(cases) {
	const out = [];
	for (const c of [...cases].sort((a, b) => a.case_id - b.case_id)) {
		const p50 = c.rep_p50 || [], paired = c.rep_floor_paired || [], before = c.rep_ipi_floor || [];
		// A raw case's "floor before" is the boot's (HELLO) floor, not a
		// measurement of its moment; the raw `ipi` case's p50 is itself the
		// floor at that moment.
		const raw = c.kind === 'raw';
		for (let i = 0; i < p50.length; i++)
			out.push({ case_id: c.case_id, rep: i, label: caseShort(c), p50: raw ? null : p50[i] ?? null,
				paired: paired[i] ?? null, before: raw ? null : before[i] ?? null,
				raw_ipi: raw && c.algo === 'ipi' ? p50[i] ?? null : null });
	}
	return out;
}

export function renderFloor(container, cases, unit) {
	const pts = floorPoints(cases);
	if (!pts.some((p) => p.paired !== null || p.before !== null || p.raw_ipi !== null)) {
		fill(container, state('empty', 'No floor was measured in this run.',
			h('div', {}, 'Cross-call and TLB cases probe the `ipi` floor among their calls (paired floor) and before each repetition; runs recorded before issue 21, and raw or sync cases, have neither.')));
		return;
	}
	const u = unit;
	const xy = (key, onlyPaired) => pts.map((p, i) => ({ x: i, y: onlyPaired && p.paired === null ? null : u.conv(p[key]) }));
	// The unit is the ticks' (ns ticks carry theirs: 7.12 µs, 1.00 ms), as
	// the axis title's: the title said "(ns)" above ticks in µs.
	const title = `The ipi floor over time, and each repetition's call p50${u.name === 'ns' ? '' : ' (TSC cycles)'}`;
	const ys = ['paired', 'before', 'raw_ipi', 'p50'].flatMap((k) => xy(k).map((p) => p.y)).filter((y) => y > 0);
	const log = logAxis(ys);
	const unpaired = !pts.some((p) => p.paired !== null);
	const noBefore = !pts.some((p) => p.before !== null);
	// Say what is drawn: a sync run has neither floor, only its raw ipi case.
	const what = unpaired && noBefore ? 'No paired floor and no floor before a repetition in this run (no cross-call or TLB case): only the raw ipi case\u2019s repetitions are drawn. '
		: unpaired ? 'No paired floor in this run (recorded before issue 21, or no cross-call or TLB case): only the floor before each repetition is drawn. ' : '';
	const note = what + 'One point per repetition, in the order they ran (case by case). The paired floor is the median `ipi` probe sent among the repetition\'s calls (after every 4th, to the same target); the floor before it is the median of 65 probes just before; a raw ipi case\u2019s p50 is the floor measured as a case. A call p50 that follows its paired floor up and down pays for the host, not the algorithm. Call p50 is drawn only where a paired floor was measured.';
	const { box: el, canvas } = box(h, title, { id: 'floor', note, tall: true });
	fill(container, el);
	const chart = make('floor', canvas, {
		type: 'line',
		data: { datasets: [
			{ label: 'paired ipi floor (probes among the calls)', xcbRole: 'floor-paired', data: xy('paired'), borderColor: color(0), backgroundColor: color(0), borderWidth: 2, pointRadius: 2, spanGaps: false },
			{ label: 'ipi floor before the repetition', xcbRole: 'floor-before', data: xy('before'), borderColor: '#111827', borderDash: [6, 4], borderWidth: 1.5, pointRadius: 0, spanGaps: false },
			{ label: 'raw ipi case p50 (the floor as a case)', xcbRole: 'raw-ipi', data: xy('raw_ipi'), borderColor: color(2), backgroundColor: color(2), borderWidth: 0, showLine: false, pointRadius: 3, pointStyle: 'triangle' },
			{ label: 'call p50', xcbRole: 'call', data: xy('p50', true), borderColor: color(1), backgroundColor: color(1), borderWidth: 0, showLine: false, pointRadius: 3 },
		] },
		options: {
			parsing: false,
			scales: {
				x: { type: 'linear', title: { display: true, text: 'repetition, in run order' }, ticks: { precision: 0 } },
				// ns ticks carry their unit (1.00 ms), as the latency charts'
				y: { type: log ? 'logarithmic' : 'linear', title: { display: true, text: `latency${u.name === 'ns' ? '' : ' (TSC cycles)'}${log ? ', log scale' : ''}` },
					ticks: { callback: log ? tickLabel(u, true) : linearTick(u) } },
			},
			plugins: { tooltip: { callbacks: {
				title: (items) => { const p = pts[items[0].parsed.x]; return `case ${p.label} · rep ${p.rep}`; },
				label: (item) => `${item.dataset.label}: ${item.parsed.y === null ? 'not measured' : val(u, item.parsed.y)}`,
			} } },
		},
	});
	chart.$xcb = { points: pts, unit: u.name, log };
}

// A log axis where the floor and the calls span a decade or more (a call of
// 500 µs callee work beside a 2 µs floor); under a decade its ticks fall
// between the 1-2-5 steps tickLabel labels, so a run of 7115.7 to 7150 ns
// had nine blank ticks: a linear axis there.
const logAxis = (ys) => ys.length > 0 && Math.max(...ys) / Math.min(...ys) >= 10;

// A linear axis's tick labels, as precise as the step between two ticks
// needs (7.115 µs, 7.120 µs; ns() gave both "7.12 µs").
const linearTick = (u) => (v, i, ticks) => {
	const step = ticks.length > 1 ? Math.abs(ticks[1].value - ticks[0].value) : 0;
	return u.name === 'ns' ? fmt.nsStep(v, step) : fmt.int(v);
};
