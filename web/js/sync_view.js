// sync_view.js — seed 002's question on the run page: what does a TLB
// shootdown inside a write lock (inside), after it (after) or at the targets'
// next entry (lazy) cost the writer, and what do the lock's readers wait per
// batch of reads (the toolstack mapping 1024 GFNs)? One chart of the readers'
// wait per batch against CPUs in mask, a line per mode (the seed's figure),
// and a table of every sync case: the writer's hold, end-to-end and time to
// effective invalidation, the per-batch and per-read waits, the verification.
// The figures are the API's `pseudo` statistics of the case (host/API.md:
// writer_hold, writer_e2e, writer_effective, reader_batch) and its stats.
// Also the nouns and units every page uses for a sync case (what a count of
// one is, what its latency measures).

import { h, fill, state } from './dom.js';
import * as fmt from './format.js';
import { make, box, color, destroyAll } from './charts.js';

export const isSync = (c) => c && c.kind === 'sync';

// What one count of the case is: a sync case's rows count the readers' read
// acquisitions (millions of them), not calls.
export const countNoun = (c) => (isSync(c) ? 'read acquisitions' : 'calls');

// Whose figures a case's per-CPU rows are: a sync case's are its readers'
// (the shootdown's targets), not initiators of calls (its writer is one CPU).
export const cpuNoun = (c) => (isSync(c) ? 'reader' : 'initiator');

// A sync case's rows are named with GET /api/v1/schema's sync_rows
// ([{name, label, measure}], the all row first, then the pseudo-initiators
// in the order xcbench show prints them): show's and compare --row's words,
// which the daemon serves from the CLI's one table, never a copy here. A
// row the schema lacks (a daemon without it) goes by its name.
export const rowWords = (rows, name) => (rows || []).find((r) => r.name === name)
	|| { name, label: name, measure: `the median of row ${name}` };

// The words of a case's all row (GET /api/v1/schema, `schema`): a sync
// case's from sync_rows (the readers' wait per read), any other case's the
// schema's call_row (the call time), both from the daemon's one table
// (host/common/pseudo_words.c), never a copy here. A daemon without
// call_row: the row goes by its name, as rowWords says.
const allRow = (c, schema) => (isSync(c) ? rowWords(schema && schema.sync_rows, 'all')
	: (schema && schema.call_row) || rowWords([], 'all'));

// What a case's median measures, with its article (titles): a sync case's
// row's (all, unless `row` names another of sync_rows), any other case's
// all row's (the call time). schema: GET /api/v1/schema's answer.
export const measureOf = (c, schema, row) => (isSync(c) && row && row !== 'all'
	? rowWords(schema && schema.sync_rows, row) : allRow(c, schema)).measure;

// The same as a short noun (axis titles): what a case's p50 is of.
export const figureNoun = (c, schema) => allRow(c, schema).label;

// The figures shown, each with its column's head.
const figuresOf = (rows) => (rows || []).filter((r) => r.name !== 'all').map((r) => [r.name, r.label]);

const cfg = (c, k) => (c.config || {})[k];
// The case's writer CPU and readers (0 when not sent: the boot CPU writes,
// the shootdown targets read).
const writerOf = (c) => Number(cfg(c, 'writer') || 0);
const readersOf = (c) => (Number(cfg(c, 'readers') || 0) ? `${cfg(c, 'readers')} apart` : 'the targets');

function verification(c) {
	const s = c.stats;
	if (!s) return ['…', null];
	if (s.stale) return [`${fmt.int(s.stale)} stale`, 'bad'];
	if (s.verified === false) return ['unverified', 'warn'];
	if (s.verified) return [`verified (${fmt.int(s.control_stale)}/${fmt.int(s.control_runs)})`, 'good'];
	return ['–', null];
}

// renderSync(container, cases, unit, rows): the section (rows: the schema's
// sync_rows); hidden by the caller when the run has no sync case (returns
// whether it drew anything).
export function renderSync(container, cases, unit, rows) {
	const FIGURES = figuresOf(rows);
	const sync = cases.filter(isSync);
	destroyAll('sync:');
	if (!sync.length) {
		fill(container, state('empty', 'This run has no sync cases.', h('div', {}, 'Run ', h('code', {}, 'suite=ept'), ' (seed 002) to see the writer\u2019s and the readers\u2019 side of a shootdown held under a lock.')));
		return false;
	}
	const t = unit.text;
	const p = (c, k) => (c.pseudo || {})[k];
	// The chart: one line per mode (and writer/readers/rw-lock setting), the
	// readers' wait per batch (p50) over CPUs in mask.
	const series = new Map();
	for (const c of sync) {
		const b = p(c, 'reader_batch');
		if (!b || !b.count) continue;
		const extra = [writerOf(c) ? `writer cpu${writerOf(c)}` : null, Number(cfg(c, 'readers') || 0) ? `${cfg(c, 'readers')} readers` : null,
			cfg(c, 'rwlock') && cfg(c, 'rwlock') !== 'fair' ? `${cfg(c, 'rwlock')} lock` : null, cfg(c, 'batch_reads') ? `${cfg(c, 'batch_reads')} reads/batch` : null].filter(Boolean);
		const key = [c.algo, ...extra].join(' · ');
		if (!series.has(key)) series.set(key, []);
		series.get(key).push({ x: c.mask, y: unit.conv(b.p50), p99: unit.conv(b.p99), c });
	}
	const chartNote = 'Each point: the median over every batch of the case\u2019s repetitions (a batch is the readers\u2019 wait summed over its read acquisitions); hover for p99. No IPI floor line: a batch is thousands of reads, not one call.';
	const batch = rowWords(rows, 'reader_batch').label;
	const { box: cbox, canvas } = box(h, `${batch[0].toUpperCase()}${batch.slice(1)} vs CPUs in mask (seed 002)`, { id: 'sync-batch', note: chartNote });
	const trs = sync.map((c) => {
		const [vt, vc] = verification(c);
		return h('tr', { dataset: { case: c.case_id, mode: c.algo } },
			h('td', {}, `#${c.case_id}`), h('td', {}, c.algo),
			h('td', { class: 'num' }, c.mask ?? '–'),
			h('td', { class: 'num' }, `cpu${writerOf(c)}`), h('td', {}, readersOf(c)),
			FIGURES.map(([k]) => {
				const s = p(c, k);
				return h('td', { class: 'num', dataset: { fig: k } }, s && s.count ? `${t(s.p50)} / ${t(s.p99)}` : '–');
			}),
			h('td', { class: 'num', dataset: { fig: 'read' } }, c.stats ? t(c.stats.p50) : '–'),
			h('td', { class: 'num' }, c.stats ? fmt.int(c.stats.count) : '–'),
			h('td', { class: vc, dataset: { verified: c.stats ? String(c.stats.verified) : '' } }, vt));
	});
	fill(container,
		h('p', { class: 'muted' }, 'One writer changes PTEs under a reader-writer lock and invalidates them inside the lock, after it, or lazily at each target\u2019s next entry; the readers take the read lock in batches. Latencies are p50 / p99 over the case\u2019s repetitions.'),
		h('div', { class: 'charts' }, cbox),
		h('div', { class: 'tablewrap' }, h('table', { class: 'data', id: 'sync-table' },
			h('thead', {}, h('tr', {}, ['Case', 'mode', 'CPUs in mask', 'writer', 'readers', ...FIGURES.map(([, n]) => n), `${rowWords(rows, 'all').label} (p50)`, 'read acquisitions', 'verification']
				.map((x, i) => h('th', { class: i >= 2 && i !== 4 && i !== 11 ? 'num' : null }, x)))),
			h('tbody', {}, trs))));
	const chart = make('sync:batch', canvas, {
		type: 'line',
		data: { datasets: [...series.entries()].map(([name, pts], i) => ({
			label: name, xcbRole: 'p50', data: pts.sort((a, b) => a.x - b.x), borderColor: color(i), backgroundColor: color(i), borderWidth: 2, pointRadius: 3,
		})) },
		options: {
			parsing: false,
			scales: {
				x: { type: 'linear', title: { display: true, text: 'CPUs in mask (shootdown targets)' }, ticks: { precision: 0 } },
				y: { type: 'logarithmic', title: { display: true, text: `${batch} (${unit.name}, log scale)` }, ticks: { callback: (y) => (unit.name === 'ns' ? fmt.ns(y) : fmt.int(y)) } },
			},
			plugins: { tooltip: { callbacks: { label: (item) => {
				const pt = item.raw;
				return `${item.dataset.label}: p50 ${unit.name === 'ns' ? fmt.ns(pt.y) : fmt.int(pt.y)} · p99 ${unit.name === 'ns' ? fmt.ns(pt.p99) : fmt.int(pt.p99)} (case #${pt.c.case_id})`;
			} } } },
		},
	});
	chart.$xcb = { series: series.size, modes: [...new Set(sync.map((c) => c.algo))] };
	return true;
}
