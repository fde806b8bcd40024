// history.js — a machine's runs as history (machine.html): which facts
// changed from run to run, the matching key of a case (the schema's rule,
// as the daemon's compare uses it), and the trend of one case's p50 across
// runs with the spread of its repetitions. Pure functions, no DOM.

import { toNs } from './model.js';

// The HELLO facts a machine's history shows, in this order.
export const HISTORY_FACTS = ['brand', 'cpus', 'hypervisor', 'apic_mode', 'boot_fw', 'uefi', 'tsc_khz', 'loader'];

// [{run, facts: {k: v}, changed: Set(k)}] oldest first: a fact is "changed"
// where it differs from the previous run's (tsc_khz: by more than 0.1 %,
// a calibration's jitter is no change).
export function factsOverTime(runs) {
	const out = [];
	let prev = null;
	for (const r of [...runs].sort((a, b) => a.id - b.id)) {
		const f = r.facts || {};
		const changed = new Set();
		for (const k of HISTORY_FACTS) {
			if (!prev) continue;
			const a = prev[k], b = f[k];
			if (k === 'tsc_khz' && a && b) {
				if (Math.abs(a - b) > 0.001 * a) changed.add(k);
			} else if ((a ?? '') !== (b ?? '')) changed.add(k);
		}
		out.push({ run: r, facts: f, changed });
		prev = f;
	}
	return out;
}

// The matching key of a case config: every key the schema matches on, and
// unlisted keys but annotations, sorted, "k=v&k=v" (host casekey.c).
export function matchKey(config, schema) {
	const byKey = new Map(schema.case_keys.map((k) => [k.key, k]));
	const keys = Object.keys(config || {}).filter((k) => (byKey.has(k) ? byKey.get(k).matching : !k.startsWith(schema.annotation_prefix)));
	return keys.sort().map((k) => `${k}=${config[k]}`).join('&');
}

const median = (v) => {
	const s = [...v].sort((a, b) => a - b);
	return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : null;
};

// One point per run that has the case: {run, label, p50, lo, hi}; p50 = the
// median of its repetitions' p50, lo/hi = their smallest and largest (the
// within-boot spread; the spread of the points is the between-boot one).
// One unit for all of them, on one axis: ns when every run knows its TSC
// rate, else cycles for all (tsc_khz 0 or null is no rate: a point in
// cycles among points in ns would be off by the rate, ~2000x). Cycles keep
// every run on the chart, and one machine's runs count one TSC, so its
// cycles compare; noRate lists the runs without a rate, for the note.
export function trend(details, key, schema) {
	const found = [];
	for (const d of [...details].sort((a, b) => a.run.id - b.run.id)) {
		const c = (d.cases || []).find((x) => matchKey(x.config, schema) === key);
		const reps = c ? (c.rep_p50 || []).filter((v) => v !== null && v !== undefined) : [];
		if (c && (reps.length || c.stats)) found.push({ run: d.run, src: reps.length ? reps : [c.stats.p50] });
	}
	const noRate = found.filter((f) => !(f.run.tsc_khz > 0)).map((f) => f.run);
	const unit = noRate.length ? 'cycles' : 'ns';
	const points = found.map(({ run, src }) => {
		const conv = (v) => (unit === 'ns' ? toNs(v, run.tsc_khz) : v);
		return { run, label: run.label || '', p50: conv(median(src)), lo: conv(Math.min(...src)), hi: conv(Math.max(...src)), reps: src.length };
	});
	return { unit, points, noRate };
}

// The keys of the cases that most runs have, most common first (the
// trend's choices), with a short name each.
export function trendKeys(details, schema) {
	const count = new Map();
	for (const d of details) for (const c of d.cases || []) {
		const k = matchKey(c.config, schema);
		count.set(k, (count.get(k) || 0) + 1);
	}
	return [...count.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, n]) => ({ key: k, runs: n }));
}
