// format.js — number, time and date formatting shared by the pages.
// Latencies are nanoseconds unless a name says otherwise.

export function ns(v) {
	if (v === null || v === undefined || Number.isNaN(v)) return '–';
	const a = Math.abs(v);
	if (a >= 1e9) return `${(v / 1e9).toFixed(2)} s`;
	if (a >= 1e6) return `${(v / 1e6).toFixed(a >= 1e8 ? 0 : 2)} ms`;
	if (a >= 1e3) return `${(v / 1e3).toFixed(a >= 1e5 ? 0 : a >= 1e4 ? 1 : 2)} µs`;
	return `${Math.round(v)} ns`;
}

// ns() with as many decimals as a step between two values needs (a linear
// axis's ticks: 7.115 µs and 7.120 µs, both "7.12 µs" in ns()); the unit is
// ns()'s for the value.
export function nsStep(v, step) {
	if (v === null || v === undefined || Number.isNaN(v)) return '–';
	const a = Math.abs(v);
	const [div, name] = a >= 1e9 ? [1e9, 's'] : a >= 1e6 ? [1e6, 'ms'] : a >= 1e3 ? [1e3, 'µs'] : [1, 'ns'];
	const digits = step > 0 ? Math.min(6, Math.max(0, Math.ceil(-Math.log10(step / div) - 1e-9))) : 0;
	return `${(v / div).toFixed(digits)} ${name}`;
}

const INT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }); // one instance: toLocaleString builds one per call

export function int(v) {
	if (v === null || v === undefined || Number.isNaN(v)) return '–';
	return INT.format(Number(v));
}

export function pct(v, digits = 2) {
	if (v === null || v === undefined || Number.isNaN(v)) return '–';
	return `${v > 0 ? '+' : ''}${v.toFixed(digits)}%`;
}

export function ratio(v, digits = 3) {
	if (v === null || v === undefined || Number.isNaN(v)) return '–';
	return Number(v).toFixed(digits);
}

export function hz(v) {
	if (!v) return '–';
	if (v >= 1e9) return `${(v / 1e9).toFixed(3)} GHz`;
	if (v >= 1e6) return `${(v / 1e6).toFixed(1)} MHz`;
	return `${v} Hz`;
}

// Dates come from the API as ISO 8601 strings or Unix seconds.
export function toDate(v) {
	if (v === null || v === undefined || v === '') return null;
	if (typeof v === 'number') return new Date(v < 1e12 ? v * 1000 : v);
	const d = new Date(v);
	return Number.isNaN(d.getTime()) ? null : d;
}

// "2026-11-29 23:52" in local time: unambiguous, sortable, short.
export function date(v) {
	const d = toDate(v);
	if (!d) return '–';
	const p = (n) => String(n).padStart(2, '0');
	return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function duration(sec) {
	if (sec === null || sec === undefined || Number.isNaN(sec)) return '–';
	if (sec < 60) return `${sec.toFixed(sec < 10 ? 1 : 0)} s`;
	const m = Math.floor(sec / 60), s = Math.round(sec % 60);
	if (m < 60) return `${m} min ${s} s`;
	return `${Math.floor(m / 60)} h ${m % 60} min`;
}
