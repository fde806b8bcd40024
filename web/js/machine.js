// machine.js — one machine's page (/machine.html?id=N or ?mac=MAC): its
// facts over time (a changed fact is marked: later runs measured another
// machine in effect), the trend of a case's p50 across its runs (points =
// runs, labelled with their labels; bars = the within-boot spread of the
// repetitions), and its runs, linked to their pages and to a comparison.
//
// Chart id: "trend" (.$xcb: {key, points: [{run, p50, lo, hi}]}).

import { h, $, fill, state, errorBox, loading, params, setParams, header } from './dom.js';
import * as api from './api.js';
import * as fmt from './format.js';
import { make, color, alpha } from './charts.js';
import { summaryFacts, hypervisorName, setHypervisors } from './model.js';
import { HISTORY_FACTS, factsOverTime, trend, trendKeys, matchKey } from './history.js';
import { figureNoun } from './sync_view.js';
import { setVerdicts, runStatus } from './verdict.js';

$('#top').replaceWith(header('machine'));
const p = params();
const MAX_RUNS = 60; // the trend reads each run's cases: the newest this many

async function start() {
	const facts = $('#machine-facts'), trendEl = $('#machine-trend'), runsEl = $('#machine-runs');
	fill(facts, loading('the machine'));
	let machines, schema;
	try {
		[machines, schema] = await Promise.all([api.get('machines'), api.schema()]);
	} catch (e) {
		fill(facts, errorBox('the machine', e));
		return done();
	}
	setHypervisors(schema.hypervisors);
	setVerdicts(schema.verdicts);
	const list = machines.machines || [];
	const m = list.find((x) => String(x.id) === p.get('id') || (p.get('mac') && x.mac === p.get('mac').toLowerCase()));
	if (!m) {
		fill(facts, state(list.length ? 'error' : 'empty', p.get('id') || p.get('mac') ? 'No such machine.' : 'Choose a machine.',
			list.length ? h('ul', {}, list.map((x) => h('li', {}, h('a', { href: `machine.html?id=${x.id}` }, x.mac), ` · ${x.runs} run${x.runs === 1 ? '' : 's'}`)))
				: h('div', {}, 'A machine appears once it boots through /boot.ipxe, or a capture is ingested with --mac.')));
		return done();
	}
	$('#machine-title').textContent = `Machine ${m.mac}`;
	document.title = `xcbench — ${m.mac}`;
	let runs;
	try {
		runs = (await api.get(`runs?machine=${m.id}&limit=${MAX_RUNS}`)).runs || [];
	} catch (e) {
		fill(facts, errorBox('its runs', e));
		return done();
	}
	const baselines = (await api.get(`baselines?machine=${m.id}`).catch(() => ({ baselines: [] }))).baselines || [];
	const details = (await Promise.all(runs.filter((r) => r.cases > 0).map((r) => api.run(r.id).catch(() => null)))).filter(Boolean);
	window.xcbMachine.data = { machine: m, runs, details, baselines };
	drawFacts(facts, m, runs);
	drawRuns(runsEl, runs, baselines);
	drawTrend(trendEl, details, schema);
	done();
}

function drawFacts(el, m, runs) {
	const rows = factsOverTime(runs);
	const changes = rows.filter((r) => r.changed.size).length;
	const val = (k, f) => (k === 'hypervisor' ? hypervisorName(f[k]) : f[k]) ?? '–';
	fill(el,
		h('h2', {}, 'Facts over time'),
		// first_seen null: never seen (no boot or run yet: a machine known
		// from its jobs only, host/src/machines_db.h), not a date
		h('p', { class: 'sub' }, `${m.first_seen ? `first seen ${fmt.date(m.first_seen)}, last seen ${fmt.date(m.last_seen)}` : 'never seen'}; ${m.runs} run${m.runs === 1 ? '' : 's'}`,
			m.uuid ? ` · uuid ${m.uuid}` : '', m.serial ? ` · serial ${m.serial}` : '',
			changes ? h('span', { class: 'warn', id: 'facts-changed' }, ` · the facts changed ${changes} time${changes === 1 ? '' : 's'}: compare only runs of the same facts`) : ' · the facts never changed'),
		h('div', { class: 'tablewrap' }, h('table', { class: 'data', id: 'facts' },
			h('thead', {}, h('tr', {}, h('th', {}, 'run'), h('th', {}, 'date'), HISTORY_FACTS.map((k) => h('th', {}, k)))),
			h('tbody', {}, rows.map(({ run, facts, changed }) => h('tr', {},
				h('td', {}, h('a', { href: `run.html?id=${run.id}` }, `#${run.id}`)),
				h('td', {}, fmt.date(run.started || run.created)),
				HISTORY_FACTS.map((k) => h('td', { class: changed.has(k) ? 'warn changed' : null, title: changed.has(k) ? 'changed since the run before' : null }, String(val(k, facts))))))))));
}

function drawRuns(el, runs, baselines) {
	const ids = runs.map((r) => r.id);
	const picked = new Set();
	const status = h('span', { class: 'muted', id: 'baseline-status' });
	// Marks the ticked runs (boots of one suite) as this machine + suite's
	// baseline (POST /api/v1/baselines; the daemon's admin token is asked once).
	const mark = h('button', { id: 'mark-baseline', disabled: true, onclick: async () => {
		mark.disabled = true;
		try {
			const res = await api.write('POST', 'baselines', { runs: [...picked].sort((a, b) => a - b) });
			status.textContent = ` baseline of suite ${res.baseline.suite}: runs ${res.baseline.runs.join(', ')}`;
			const fresh = (await api.get(`baselines?machine=${runs[0].machine.id}`)).baselines || [];
			window.xcbMachine.data.baselines = fresh;
			drawRuns(el, runs, fresh);
		} catch (e) {
			status.textContent = ` ${e.message}`;
			mark.disabled = false;
		}
	} }, 'Mark the ticked runs as the baseline');
	const inBaseline = (r) => baselines.find((b) => b.suite === r.suite && b.runs.includes(r.id));
	fill(el,
		h('h2', {}, `Runs (${runs.length})`),
		h('p', { class: 'sub', id: 'baselines' }, baselines.length
			? ['Baselines: ', baselines.map((b, i) => [i ? '; ' : '', `${b.suite}: runs ${b.runs.map((x) => `#${x}`).join(', ')} `,
				h('a', { href: `compare.html?a=${b.runs.join(',')}&b=${ids.filter((x) => !b.runs.includes(x)).slice(0, 3).join(',')}` }, 'compare the newest other runs against it')])]
			: 'No baseline yet (xcbench baseline RUN,RUN,… marks one; xcbench check --baseline stored then compares against it).'),
		h('p', { class: 'sub' }, 'Newest first. ',
			ids.length >= 6 ? h('a', { href: `compare.html?a=${ids.slice(ids.length / 2).join(',')}&b=${ids.slice(0, ids.length / 2).join(',')}`, id: 'compare-halves' },
				'Compare the older half with the newer half (groups)') : 'Six runs or more can be compared as groups (3 a side: fewer have no interval).',
			' ', mark, status),
		h('div', { class: 'tablewrap' }, h('table', { class: 'data', id: 'runs' },
			h('thead', {}, h('tr', {}, h('th', {}, ''), ['run', 'date', 'suite', 'label', 'status', 'firmware', 'CPUs', 'cases'].map((x) => h('th', {}, x)))),
			h('tbody', {}, runs.map((r) => {
				const s = summaryFacts(r);
				return h('tr', { dataset: { run: r.id } },
					h('td', {}, h('input', { type: 'checkbox', class: 'pick', 'aria-label': `Pick run ${r.id}`, onchange: (e) => {
						if (e.target.checked) picked.add(r.id); else picked.delete(r.id);
						mark.disabled = !picked.size;
					} })),
					h('td', {}, h('a', { href: `run.html?id=${r.id}` }, `#${r.id}`)),
					h('td', {}, fmt.date(r.started || r.created)),
					h('td', {}, r.suite || '–'),
					h('td', {}, r.label || '', inBaseline(r) ? h('span', { class: 'badge baseline', title: `baseline of suite ${r.suite}` }, ' baseline') : null),
					h('td', {}, runStatus(r)),
					h('td', {}, s.boot || '–'),
					h('td', { class: 'num' }, s.cpus ?? '–'),
					h('td', { class: 'num' }, String(r.cases)));
			})))));
}

// Point labels: each run's label (or #id) above its point, kept inside the
// plot: centred on the first point (on the plot's left edge) it was drawn
// over the y axis's tick labels.
const pointLabels = {
	id: 'xcbPointLabels',
	afterDatasetsDraw(chart) {
		const { ctx, chartArea: area } = chart;
		const ds = chart.data.datasets.findIndex((d) => d.xcbRole === 'p50');
		if (ds < 0) return;
		ctx.save();
		ctx.font = '11px system-ui, sans-serif';
		ctx.textAlign = 'center';
		ctx.fillStyle = '#374151';
		chart.getDatasetMeta(ds).data.forEach((el, i) => {
			const pt = chart.data.datasets[ds].data[i];
			const text = pt.label || `#${pt.run}`;
			const half = ctx.measureText(text).width / 2;
			ctx.fillText(text, Math.min(Math.max(el.x, area.left + half), area.right - half), el.y - 10);
		});
		ctx.restore();
	},
};

function drawTrend(el, details, schema) {
	const keys = trendKeys(details, schema);
	if (!keys.length) {
		fill(el, h('h2', {}, 'Trend'), state('empty', 'No run of this machine has cases yet.'));
		return;
	}
	const chosen = keys.some((k) => k.key === p.get('case')) ? p.get('case') : keys[0].key;
	const sel = h('select', { id: 'trend-case', onchange: (e) => { setParams({ case: e.target.value }); draw(e.target.value); } },
		keys.map((k) => h('option', { value: k.key, selected: k.key === chosen }, `${k.key.replace(/&/g, ' ')} (${k.runs} runs)`)));
	const canvas = h('canvas', { role: 'img', 'aria-label': 'p50 across runs' });
	const note = h('div', { class: 'note', id: 'trend-note' });
	fill(el, h('h2', {}, 'Trend of a case across runs'),
		h('div', { class: 'toolbar' }, h('label', {}, 'Case', sel)),
		h('div', { class: 'canvas', style: { height: '340px', position: 'relative' } }, canvas), note);
	const draw = (key) => {
		const { points: pts, unit, noRate } = trend(details, key, schema);
		// What the p50 is of: a sync case's the readers' wait per read (the
		// schema's words), any other's the call time.
		const one = details.flatMap((d) => d.cases || []).find((x) => matchKey(x.config, schema) === key);
		const figure = figureNoun(one, schema);
		const labels = pts.map((x) => `#${x.run.id}`);
		const c = make('trend', canvas, {
			type: 'line',
			data: { labels, datasets: [
				{ label: 'highest repetition p50', xcbRole: 'band', data: pts.map((x) => x.hi), borderColor: alpha(color(0), 0.3), backgroundColor: alpha(color(0), 0.12), pointRadius: 0, fill: '+1' },
				{ label: 'lowest repetition p50', xcbRole: 'band', data: pts.map((x) => x.lo), borderColor: alpha(color(0), 0.3), pointRadius: 0, fill: false },
				{ label: `p50 (median of the repetitions), ${unit}`, xcbRole: 'p50', data: pts.map((x) => ({ x: `#${x.run.id}`, y: x.p50, run: x.run.id, label: x.label })), borderColor: color(0), backgroundColor: color(0), pointRadius: 4, parsing: { xAxisKey: 'x', yAxisKey: 'y' } },
			] },
			options: {
				scales: {
					x: { title: { display: true, text: 'run (oldest left)' } },
					y: { beginAtZero: true, title: { display: true, text: `p50 ${figure} (${unit})` } },
				},
				plugins: { tooltip: { callbacks: { label: (it) => `${it.dataset.label}: ${fmt.int(it.parsed.y)} ${unit}` } } },
				layout: { padding: { top: 18, right: 30, left: 10 } },
			},
			plugins: [pointLabels],
		});
		c.$xcb = { key, unit, noRate: noRate.map((r) => r.id), points: pts.map((x) => ({ run: x.run.id, p50: x.p50, lo: x.lo, hi: x.hi, label: x.label })) };
		note.textContent = `${pts.length} run${pts.length === 1 ? '' : 's'} with this case. The band spans the lowest to the highest p50 of a run's repetitions (within one boot); the spread of the points from run to run is the between-boot variation a comparison of groups uses.`;
		if (noRate.length) note.prepend(h('span', { class: 'warn', id: 'trend-no-rate' },
			`In cycles: run${noRate.length === 1 ? '' : 's'} ${noRate.map((r) => `#${r.id}`).join(', ')} ${noRate.length === 1 ? 'has' : 'have'} no TSC rate, so no point can be put in ns beside ${noRate.length === 1 ? 'it' : 'them'}. `));
	};
	draw(chosen);
}

function done() {
	window.xcbMachine.ready = true;
	document.body.dataset.ready = '1';
}

window.xcbMachine = { ready: false, data: null };
start();
