// model.js — turns the API's JSON (host/API.md) into what the pages draw:
// machine-fact names, case grouping, ns conversion, progress of a run.
// Pure functions, no DOM.

import * as fmt from './format.js';

// CPUID hypervisor signatures -> names people use: the schema's table
// (GET /api/v1/schema `hypervisors`, proto/xcb_schema.h XCB_HYPERVISORS, the
// same names the run list's search finds). Each page hands it over with
// setHypervisors() before it draws; until then (or if the schema could not
// be read) a signature is shown as sent.
let HV = { bare_metal: '', signatures: [] };
export function setHypervisors(hv) {
	if (hv && typeof hv.bare_metal === 'string' && Array.isArray(hv.signatures)) HV = hv;
}
export function hypervisorName(sig) {
	if (sig === undefined || sig === null) return null;
	const s = String(sig).replace(/\0/g, '').replace(/^ +/, '');
	if (s.trim() === '' || s === 'none' || s === '0') return HV.bare_metal || s.trim();
	for (const { signature, name } of HV.signatures) if (s.startsWith(signature)) return name;
	return s.trim();
}

// The HELLO boot_fw word (the schema's boot vocabulary: bios, uefi; payloads
// before it sent BIOS, UEFI) in upper case, or null when absent or unknown.
function bootWord(f) {
	return f && f.boot_fw && f.boot_fw !== '?' ? f.boot_fw.toUpperCase() : null;
}

// Boot firmware in words: "UEFI 2.7 (EDK II rev 0x10000)", "BIOS", or null
// for payloads that predate the boot_fw HELLO key. The UEFI revision is
// uefi_rev (uefi before it was renamed).
export function bootFirmware(f) {
	const fw = bootWord(f);
	if (fw !== 'UEFI') return fw;
	const rev = f.uefi_rev || f.uefi;
	const vendor = [f.boot_fw_vendor, f.boot_fw_rev && `rev ${f.boot_fw_rev}`].filter(Boolean).join(' ');
	return `UEFI${rev ? ` ${rev}` : ''}${vendor ? ` (${vendor})` : ''}`;
}

// The facts a run summary row shows. `facts` is a HELLO key map (strings).
export function summaryFacts(run, facts) {
	const f = facts || run.facts || {};
	return {
		boot: bootWord(f) ? [bootWord(f), f.loader && f.loader !== '?' ? f.loader : null].filter(Boolean).join(' · ') : null,
		bootDetail: bootFirmware(f),
		cpuModel: f.brand || [f.vendor, f.family && `family ${f.family}`, f.model && `model ${f.model}`].filter(Boolean).join(' ') || null,
		cpus: run.cpus ?? (f.cpus ? Number(f.cpus) : null),
		hypervisor: hypervisorName(f.hypervisor),
	};
}

export const machineName = (run) => (run.machine ? run.machine.mac : null);

// Cases the payload planned for the run: the run summary's `cases_planned`
// (HELLO key) if sent, else the early log line "suite NAME: N cases" of older
// firmware, else unknown (null) — then progress counts cases with results
// only. `detail` needs only `run`; `events` are LOG events (may be omitted).
export function plannedCases(detail, events) {
	const fromHello = Number(detail.run?.cases_planned || 0);
	if (fromHello > 0) return fromHello;
	for (const e of events || []) {
		const m = /^suite \S+: (\d+) cases?$/.exec(String(e.text).trim());
		if (m) return Number(m[1]);
	}
	return null;
}

export function progressOf(detail, events) {
	const cases = detail.cases || [];
	const done = detail.run.cases_done ?? cases.filter((c) => c.stats && c.stats.count > 0).length;
	const planned = plannedCases(detail, events);
	return { done, planned: planned ?? (detail.run.status === 'complete' ? cases.length : null), seen: cases.length };
}

export const isLive = (status) => status === 'running' || status === 'pending';

// TSC cycles as ns at the run's rate (null without one): the machine page's
// trend (history.js) puts runs of one machine on one axis.
export function toNs(cycles, tscKhz) {
	if (cycles === null || cycles === undefined || !tscKhz) return null;
	return (cycles * 1e6) / tscKhz;
}

// A latency accessor: ns where the run knows its TSC rate, cycles otherwise,
// so every chart of one run uses one unit; text(cycles) is a table's cell.
export function unitOf(run) {
	const k = run.tsc_khz;
	const u = k
		? { name: 'ns', conv: (c) => (c === null || c === undefined ? null : (c * 1e6) / k) }
		: { name: 'cycles', conv: (c) => (c === null || c === undefined ? null : c) };
	u.text = (c) => (c === null || c === undefined ? '–' : k ? fmt.ns(u.conv(c)) : `${fmt.int(c)} cyc`);
	return u;
}

// The unit of a compare side's figures (its runs: one boot or a group), so
// that they read as the run page's do. A group's p50 is its boots'
// geometric mean of cycles, and GM(c / k) = GM(c) / GM(k): at the geometric
// mean of the boots' TSC rates it is their geometric mean in ns. Cycles
// when a run has no rate.
export function unitOfRuns(runs) {
	const ks = runs.map((r) => r.tsc_khz);
	const all = ks.length > 0 && ks.every((k) => k > 0);
	return unitOf({ tsc_khz: all ? Math.exp(ks.reduce((s, k) => s + Math.log(k), 0) / ks.length) : null });
}

// A short case name for narrow tables: id, kind, algorithm, initiators, mask.
export const caseShort = (c) => `#${c.case_id} ${c.kind}${c.algo && c.algo !== c.kind ? ` ${c.algo}` : ''} · ${c.inits ?? '?'} init · ${c.mask ?? '?'} in mask${c.wait ? ` · wait=${c.wait}` : ''}`;

export const caseLabel = (c) => {
	const parts = [c.kind, c.algo, c.delivery, c.wait && `wait=${c.wait}`,
		c.inits !== null && c.inits !== undefined ? `${c.inits} init` : null,
		c.mask !== null && c.mask !== undefined ? `${c.mask} in mask` : null,
		c.placement, c.overlap, c.work_us ? `${c.work_us} µs work` : null];
	const cfg = c.config || {};
	if (c.kind === 'tlb') parts.push(cfg.flush && `flush=${cfg.flush}`, cfg.method, cfg.batch && `batch ${cfg.batch}`, cfg.pages && `${cfg.pages} pages`);
	return `#${c.case_id} ` + parts.filter(Boolean).join(' · ');
};

// Group cases for latency charts: one chart per (kind, algo, and every other
// matched axis), one series per inits, points over mask. Which keys make a
// chart comes from the schema (api.schema()): roles `identity` and `axis`,
// and unlisted keys that are not annotations; never `chart` (the series and
// points), `param` (how long it ran) or `note`. Returns
// [{key, title, cases:[...], series: Map(inits -> cases sorted by mask)}].
// How a chart's title and subtitle name an axis value: the words before it
// and its unit after it, so that a caption reads "delivery shorthand ·
// 10 µs callee work", not "shorthand · 10". A key not listed: "key=value".
const CAPTION = {
	delivery: ['delivery ', ''],
	wait: ['wait ', ''],
	placement: ['targets placed ', ''],
	overlap: ['masks ', ''],
	work_us: ['', ' µs callee work'],
	harness: ['', ' harness'],
	idle: ['targets idle in ', ''],
	group: ['group ', ''],
	xcall_algo: ['cross-call ', ''],
	rwlock: ['', ' rwlock'],
	batch_reads: ['', ' reads a batch'],
	entry_us: ['lazy entry every ', ' µs'],
	flush: ['flush via ', ''],
	method: ['method ', ''],
	batch: ['batch of ', ''],
	pages: ['', ' pages'],
};
export function caption(k, v) {
	const w = CAPTION[k];
	return w ? `${w[0]}${v}${w[1]}` : `${k}=${v}`;
}

export function chartGroups(cases, schema) {
	const role = new Map(schema.case_keys.map((k) => [k.key, k.role]));
	const fixesChart = (k) => (role.has(k) ? role.get(k) === 'identity' || role.get(k) === 'axis'
		: !k.startsWith(schema.annotation_prefix));
	const groups = new Map();
	for (const c of cases) {
		if (c.kind === 'raw') continue;
		if (c.mask === null || c.mask === undefined) continue;
		// kind=sync (seed 002): the algo is the invalidation mode, one line each
		// on one chart of reader wait, so it is a series, not a chart axis.
		const cfg = { ...(c.config || {}), kind: c.kind, algo: c.kind === 'sync' ? null : c.algo, delivery: c.delivery, wait: c.wait,
			placement: c.placement, overlap: c.overlap, work_us: c.work_us };
		const fixed = Object.entries(cfg)
			.filter(([k, v]) => fixesChart(k) && v !== null && v !== undefined && v !== '')
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		const key = fixed.map(([k, v]) => `${k}=${v}`).join('&');
		if (!groups.has(key)) groups.set(key, { key, fixed: Object.fromEntries(fixed), cases: [] });
		groups.get(key).cases.push(c);
	}
	const out = [];
	for (const g of groups.values()) {
		g.series = new Map();
		for (const c of g.cases) {
			const k = c.kind === 'sync' ? c.algo : c.inits ?? 1;
			if (!g.series.has(k)) g.series.set(k, []);
			g.series.get(k).push(c);
		}
		// inits in order; sync modes as the payload ran them (inside, after, lazy)
		if (g.fixed.kind !== 'sync') g.series = new Map([...g.series.entries()].sort((a, b) => a[0] - b[0]));
		for (const list of g.series.values()) list.sort((a, b) => a.mask - b.mask);
		out.push(g);
	}
	// Title: kind, algorithm, and the axes that tell this chart from the others
	// (e.g. a TLB method); subtitle: the axes every chart shares.
	// Compared within one kind: a TLB-only axis is no news on a TLB chart.
	const same = (g) => out.filter((o) => o.fixed.kind === g.fixed.kind);
	const varies = (g, k) => new Set(same(g).map((o) => String(o.fixed[k]))).size > 1;
	for (const g of out) {
		const f = g.fixed;
		const rest = Object.entries(f).filter(([k]) => !['kind', 'algo'].includes(k));
		const diff = rest.filter(([k]) => varies(g, k)).map(([k, v]) => caption(k, v));
		g.title = `${f.kind === 'tlb' ? 'TLB shootdown' : f.kind === 'sync' ? 'sync: readers\' lock wait (inside / after / lazy)' : f.kind || 'case'}${f.algo ? ` — ${f.algo}` : ''}${diff.length ? ` · ${diff.join(' · ')}` : ''}`;
		g.subtitle = rest.filter(([k]) => !varies(g, k)).map(([k, v]) => caption(k, v)).join(' · ');
	}
	// Stable, readable order: kind, then algorithm, then the rest of the key.
	const kindRank = { xcall: 0, tlb: 1 };
	out.sort((a, b) => (kindRank[a.fixed.kind] ?? 9) - (kindRank[b.fixed.kind] ?? 9) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
	return out;
}

// The floor: p50 of the `raw` cases, as points over mask (a single raw case
// gives a flat line). Cycles; null when the run has none. Since issue 13 a run
// has two floors, `ipi` (one IPI, a handler that sets a flag: the least a
// wait=done call costs) and `roundtrip` (ping-pong); the `ipi` one is drawn.
export function rawFloor(cases) {
	let raw = cases.filter((c) => c.kind === 'raw' && c.stats && c.stats.count > 0);
	if (raw.some((c) => c.algo === 'ipi')) raw = raw.filter((c) => c.algo === 'ipi');
	if (!raw.length) return null;
	// Several raw cases at the same mask (placements): keep the lowest p50 — a floor.
	const byMask = new Map();
	for (const c of raw) {
		const m = c.mask ?? 1;
		if (!byMask.has(m) || c.stats.p50 < byMask.get(m)) byMask.set(m, c.stats.p50);
	}
	return [...byMask.entries()].sort((a, b) => a[0] - b[0]).map(([mask, p50]) => ({ mask, p50 }));
}

// Floor value to draw at mask m: the raw p50 measured at the largest raw mask <= m
// (or the smallest raw mask when m is below every one).
export function floorAt(floor, m) {
	if (!floor || !floor.length) return null;
	let v = floor[0].p50;
	for (const f of floor) if (f.mask <= m) v = f.p50;
	return v;
}

// Jain's index over values (1/n .. 1).
export function jain(values) {
	const v = values.filter((x) => x !== null && x !== undefined);
	if (!v.length) return null;
	const s = v.reduce((a, b) => a + b, 0), s2 = v.reduce((a, b) => a + b * b, 0);
	return s2 ? (s * s) / (v.length * s2) : null;
}

// ---- latency-chart axis filters ---------------------------------------------
// A real suite varies more axes than one chart can show (delivery, wait,
// placement, callee work, TLB method…). The run page shows one chart per
// (kind, algorithm) for ONE value of every other varying axis, chosen in a
// toolbar: a case passes when it lacks the axis (e.g. a TLB-only key on a
// cross-call case) or has the chosen value.

// Which keys are choices, and the value each starts on, come from the schema
// (api.schema(), GET /api/v1/schema): a key is an axis when its role is
// `axis`; a key the schema does not list is one unless it is an annotation
// (`x_…`). `preferred`: the values a reviewer looks at first (the seed's).
export function axisRules(schema) {
	const byKey = new Map(schema.case_keys.map((k) => [k.key, k]));
	const prefix = schema.annotation_prefix;
	return {
		isAxis: (k) => (byKey.has(k) ? byKey.get(k).role === 'axis' : !k.startsWith(prefix)),
		preferred: (k) => byKey.get(k)?.preferred ?? undefined,
	};
}

// A case's annotations ([[key, value]], sorted): the keys the schema calls
// notes (role `note`), and unlisted ones with the annotation prefix — what
// the payload recorded about the case without making it part of the match.
export function caseNotes(c, schema) {
	const role = new Map(schema.case_keys.map((k) => [k.key, k.role]));
	return Object.entries(c.config || {})
		.filter(([k]) => (role.has(k) ? role.get(k) === 'note' : k.startsWith(schema.annotation_prefix)))
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const axisValue = (c, k) => {
	const v = (c.config || {})[k] ?? c[k];
	return v === null || v === undefined || v === '' ? undefined : String(v);
};

// [{key, values:[…sorted], def}] for the axes (schema: axisRules) that vary WITHIN some (kind,
// algorithm): an axis that only follows the algorithm (a TLB case's flush
// path is "vector" exactly for the vector algorithm) is no choice.
export function varyingAxes(cases, schema) {
	const rules = axisRules(schema);
	const vals = new Map(); // axis -> Map(value -> count)
	const per = new Map(); // axis -> Map(kind/algo -> Set(values))
	for (const c of cases) {
		if (c.kind === 'raw') continue;
		const ka = `${c.kind}/${c.algo}`;
		for (const k of Object.keys(c.config || {})) {
			if (!rules.isAxis(k)) continue;
			const v = axisValue(c, k);
			if (v === undefined) continue;
			if (!vals.has(k)) { vals.set(k, new Map()); per.set(k, new Map()); }
			vals.get(k).set(v, (vals.get(k).get(v) || 0) + 1);
			if (!per.get(k).has(ka)) per.get(k).set(ka, new Set());
			per.get(k).get(ka).add(v);
		}
	}
	const out = [];
	for (const [key, m] of vals) {
		if (![...per.get(key).values()].some((set) => set.size > 1)) continue;
		const values = [...m.keys()].sort((a, b) => (Number.isFinite(+a) && Number.isFinite(+b) ? a - b : a < b ? -1 : a > b ? 1 : 0));
		const pref = rules.preferred(key);
		const def = m.has(pref) ? pref : [...m.entries()].sort((a, b) => b[1] - a[1])[0][0];
		out.push({ key, values, def });
	}
	return out.sort((a, b) => (a.key < b.key ? -1 : 1));
}

// The cases that pass the chosen axis values (chosen: {axis: value}).
export function filterCases(cases, axes, chosen) {
	return cases.filter((c) => c.kind === 'raw' || axes.every(({ key, def }) => {
		const v = axisValue(c, key);
		return v === undefined || v === (chosen[key] ?? def);
	}));
}

// Why a case has no interval, in xcbench compare's words (host/API.md
// method: fewer than 5 repetitions a side in one boot, fewer than 3 boots a
// side), or null.
function noIntervalWhy(c) {
	return c.method === 'too_few_reps' ? 'too few repetitions for an interval'
		: c.method === 'too_few_boots' ? 'too few boots for an interval (3 or more a side)' : null;
}

// A case's (or pivot cell's) 95 % interval as text, as xcbench compare
// writes it: '[lo, hi]'; '~[lo, hi]' when it is the histograms' resolution
// (ci_at_resolution: every p50 is a bucket's midpoint, the spread measured
// was narrower than the buckets, so the interval is widened to them); else
// why there is none. pct formats a percentage.
export function ciText(c, pct) {
	if (!c) return 'no interval';
	if (c.ci_low === null || c.ci_low === undefined) return c.method === 'too_few_reps' ? 'too few reps'
		: c.method === 'too_few_boots' ? 'too few boots' : 'no interval';
	return `${c.ci_at_resolution ? '~' : ''}[${pct(c.ci_low)}, ${pct(c.ci_high)}]`;
}

// What '~' before an interval means (the title of such a cell).
export const AT_RESOLUTION = "~: the interval is the histogram's resolution: each p50 is its bucket's midpoint (buckets 0.4–0.8 % wide), the spread measured was narrower, and the change is known no finer than the two buckets allow";

// Why a cell is not marked: the first of the daemon's three conditions
// (host/API.md `significant`) it fails, never a reason it does not have.
export function notMarkedWhy(c, cmp) {
	if (c.ci_low === null || c.ci_low === undefined) return noIntervalWhy(c) || 'no interval';
	if (c.ci_low <= 0 && c.ci_high >= 0) return 'interval includes 0';
	if (Math.abs(c.change_pct) < cmp.min_effect_pct) return `|change| below the ${cmp.min_effect_pct} % minimum effect`;
	return `q above ${cmp.fdr} after Benjamini–Hochberg across the table`;
}
