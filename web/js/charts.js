// charts.js — the one place the pages make Chart.js charts.
//
// Chart.js 4 and chartjs-chart-matrix are vendored UMD builds (web/vendor/,
// made by `make -C web`) loaded by classic <script> tags before the page's
// module, so they are the globals `Chart` (matrix controller self-registers).
//
// Every chart is registered in window.xcbCharts[id] so the browser tests (and
// a curious user in the console) can read exactly what was drawn. Datasets
// carry an `xcbRole`: 'p50' (one per initiator count), 'band' (p10/p99 edges),
// 'floor' (raw-IPI floor), 'bars', 'cdf', 'cell'.

const Chart = window.Chart;

export const charts = (window.xcbCharts = window.xcbCharts || {});

// Colour-blind-friendly qualitative palette (Okabe–Ito, reordered).
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
export const color = (i) => PALETTE[i % PALETTE.length];
export function alpha(hex, a) {
	const n = parseInt(hex.slice(1), 16);
	return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

if (Chart) {
	Chart.defaults.font.family = getComputedStyle(document.documentElement).fontFamily;
	Chart.defaults.font.size = 12;
	Chart.defaults.color = '#374151';
	Chart.defaults.maintainAspectRatio = false;
	Chart.defaults.animation = false; // live updates redraw in place; no jumping
	Chart.defaults.plugins.legend.labels.boxWidth = 14;
	// Band edges are drawn, not listed: the legend lists p50 series and the floor.
	Chart.defaults.plugins.legend.labels.filter = (item, data) =>
		data.datasets[item.datasetIndex].xcbRole !== 'band';
}

// make(id, canvas, config): create (or replace) chart `id`.
export function make(id, canvas, config) {
	if (!Chart) throw new Error('Chart.js is missing: run `make -C web` to vendor it');
	if (charts[id]) charts[id].destroy();
	const c = new Chart(canvas, config);
	charts[id] = c;
	return c;
}

export function destroyAll(prefix = '') {
	for (const id of Object.keys(charts)) {
		if (id.startsWith(prefix)) {
			charts[id].destroy();
			delete charts[id];
		}
	}
}

// A chart box: title, optional controls, canvas. Returns {box, canvas}.
export function box(h, title, { controls = [], note = null, tall = false, id = null } = {}) {
	const canvas = h('canvas', { role: 'img', 'aria-label': title });
	const box = h('section', { class: 'chartbox', dataset: { chart: id || '' } },
		h('header', {}, h('h3', { text: title }), ...controls),
		h('div', { class: `canvas${tall ? ' tall' : ''}` }, canvas),
		note ? h('div', { class: 'note' }, note) : null);
	return { box, canvas };
}

// Diverging colour for a % change: green = faster (negative), red = slower.
// |v| saturates at `span` percent. Not significant => neutral grey.
export function changeColor(v, significant, span = 50) {
	if (!significant || v === null || v === undefined || Number.isNaN(v)) return 'rgba(229, 231, 235, 0.9)';
	const t = Math.min(1, Math.abs(v) / span);
	const a = 0.25 + 0.7 * t;
	return v < 0 ? `rgba(21, 128, 61, ${a.toFixed(3)})` : `rgba(185, 28, 28, ${a.toFixed(3)})`;
}
