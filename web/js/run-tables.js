// run-tables.js — the run page's tables: machine facts, lock profile (as Xen's
// lock profiling prints it), TLB shootdown results with the stale-translation
// count, and the run's errors and log lines.

import { h, fill, state } from './dom.js';
import * as fmt from './format.js';
import { caseLabel, hypervisorName, bootFirmware, unitOf } from './model.js';
import { isSync } from './sync_view.js';
import { runStatusText } from './verdict.js';

const hasStats = (c) => c.stats && c.stats.count > 0;

// HELLO's facts, their order and names: GET /api/v1/schema's hello
// (proto/xcb_schema.h XCB_HELLO_FACTS, the one table). Without a schema
// (a daemon that could not answer it) every key is shown as sent.
export function renderFacts(container, detail, hello) {
	const f = detail.facts || {};
	const FACTS = ((hello && hello.facts) || []).filter((d) => d.shown !== 'part');
	// shown inside boot_fw (bootFirmware): UEFI's revision, the vendor's
	const PARTS = ((hello && hello.facts) || []).filter((d) => d.shown === 'part').map((d) => d.key);
	const ALGO_PREFIX = (hello && hello.algo_prefix) || null;
	const r = detail.run;
	const unit = unitOf(r);
	const shown = new Set();
	const items = [];
	const add = (k, name, value) => { items.push(h('dt', {}, name), h('dd', { dataset: { fact: k } }, value)); };
	for (const { key: k, name, shown: kind } of FACTS) {
		if (!(k in f)) continue;
		shown.add(k);
		let v = f[k];
		if (k === 'hypervisor') v = `${hypervisorName(v)}${String(v).trim() ? ` (${v})` : ''}`;
		if (k === 'boot_fw') { v = bootFirmware(f) || v; PARTS.forEach((x) => shown.add(x)); }
		if (k === 'tsc_khz') v = fmt.hz(Number(v) * 1000);
		if (kind === 'yes_no') v = v === '1' ? 'yes' : v === '0' ? 'no' : v;
		// in the charts' unit too (ns at the run's TSC rate), beside the cycles HELLO gave
		if (kind === 'cycles') v = unit.name === 'ns' ? `${unit.text(Number(v))} (${fmt.int(Number(v))} cyc)` : `${fmt.int(Number(v))} cyc`;
		if (k === 'spin') v = v === 'plain' ? 'plain loop (no PAUSE)' : v === 'pause' ? 'PAUSE' : v;
		add(k, name, kind === 'code' ? h('code', {}, v) : v);
	}
	// Each algorithm's one-line description, named by its algorithm.
	for (const [k, v] of Object.entries(f)) {
		if (!ALGO_PREFIX || !k.startsWith(ALGO_PREFIX) || shown.has(k)) continue;
		shown.add(k);
		add(k, `Algorithm ${k.slice(ALGO_PREFIX.length)}`, v);
	}
	// Keys this page has no name for yet (a newer payload's) are still shown,
	// under their own heading with the key as sent, never mixed in among the
	// named facts as if the key were a name.
	const other = Object.entries(f).filter(([k]) => !shown.has(k))
		.flatMap(([k, v]) => [h('dt', {}, h('code', {}, k)), h('dd', { dataset: { fact: k } }, v)]);
	const runFacts = [
		['Status', runStatusText(r)], ['Source', r.source || '–'], ['Created', fmt.date(r.created)], ['Started', fmt.date(r.started)],
		['Finished', fmt.date(r.finished)], ['Last frame', fmt.date(r.last_frame)],
		['Frames', `${fmt.int(r.frames_received)}${r.frames_expected !== null && r.frames_expected !== undefined ? ` of ${fmt.int(r.frames_expected)}` : ''}`],
		['Token', h('code', {}, r.token)], ['Machine', r.machine ? h('code', {}, r.machine.mac) : 'booted directly (no MAC)'],
	];
	fill(container,
		items.length || other.length ? h('dl', { class: 'facts', id: 'facts' }, items)
			: state('empty', 'The machine has not said hello yet.', h('div', {}, 'Facts arrive in the run\'s first frame (HELLO); if the run stays empty, check the payload\'s console.')),
		other.length ? h('div', { id: 'facts-other' }, h('h3', {}, 'Other facts (HELLO keys as sent, no name here yet)'),
			h('dl', { class: 'facts' }, other)) : null,
		h('details', {}, h('summary', { class: 'muted' }, 'Run record'),
			h('dl', { class: 'facts' }, runFacts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]))));
}

// What a case's lock profile counts ("timed calls only", ...): the first
// entry of the schema's lock_counts that fits its kind and method, the words
// `xcbench show` prints (host/common/lock_words.c). null without a schema's.
export function lockCounts(c, lockWords) {
	const method = c.method ?? (c.config || {}).method;
	const w = (lockWords || []).find((e) => (!e.kind || e.kind === c.kind) && !(e.not_method && method === e.not_method));
	return w ? w.counts : null;
}

export function renderLocks(container, cases, unit, lockWords) {
	// Which lock each profile is of, and its hold and wait per acquisition
	// (each over its own: a sync case's hold per write, wait per read
	// acquisition), are the API's: a case's "lock" (casestats.c). One table
	// holds every kind of lock, so each row names its own, and what its
	// figures count (the schema's words).
	const locked = cases.filter((c) => hasStats(c) && c.lock);
	if (!locked.length) {
		fill(container, state('empty', 'No lock was taken in this run.', h('div', {}, 'Only lock-based algorithms (e.g. ', h('code', {}, 'locked'), ', also as a TLB shootdown\u2019s path), the TLB flush lock and the sync cases\u2019 rw-lock report a lock profile.')));
		return;
	}
	const t = unit.text;
	fill(container, h('div', { class: 'tablewrap' }, h('table', { class: 'data', id: 'locks-table' },
		h('thead', {}, h('tr', {}, ['Case', 'lock', 'counts', 'acquisitions', 'contended', 'contended %', 'total hold', 'total wait', 'median hold', 'mean hold', 'mean wait']
			.map((x, i) => h('th', { class: i > 2 ? 'num' : null, title: HOLD_HEADS[x] || null }, x)))),
		h('tbody', {}, locked.map((c) => {
			const s = c.stats;
			const cp = (100 * s.lock_contended) / s.lock_acq;
			// A sync case of a payload before issue 22 counted no contended
			// acquisition next to its readers' wait: "not counted", never 0.
			const uncounted = isSync(c) && !s.lock_contended && s.lock_wait_cycles > 0;
			const lk = c.lock, counts = lockCounts(c, lockWords);
			return h('tr', { dataset: { case: c.case_id } },
				h('td', {}, caseLabel(c)),
				h('td', { dataset: { lock: lk.name } }, lk.name),
				h('td', { dataset: { counts: counts ?? '' } }, counts ?? '–'),
				h('td', { class: 'num', title: isSync(c) ? 'read acquisitions + writes' : null }, fmt.int(s.lock_acq)),
				h('td', { class: 'num', dataset: { contended: uncounted ? '' : s.lock_contended } }, uncounted ? 'not counted' : fmt.int(s.lock_contended)),
				h('td', { class: `num ${cp > 10 ? 'warn' : ''}` }, uncounted ? '–' : `${cp.toFixed(1)}%`),
				h('td', { class: 'num' }, t(s.lock_hold_cycles)),
				h('td', { class: 'num' }, t(s.lock_wait_cycles)),
				// (null where none of its kind was taken, e.g. a sync case that
				// timed no write: a dash)
				h('td', { class: 'num', dataset: { holdMedian: lk.hold_cycles_p50 ?? '' }, title: isSync(c) ? 'the writer\u2019s hold per write, the repetitions\u2019 median' : null }, lk.hold_cycles_p50 == null ? '–' : t(lk.hold_cycles_p50)),
				h('td', { class: 'num', dataset: { holdMean: lk.hold_cycles_per ?? '' }, title: isSync(c) ? 'the writer\u2019s hold per write, pooled' : null }, lk.hold_cycles_per === null ? '–' : t(lk.hold_cycles_per)),
				h('td', { class: 'num', title: isSync(c) ? 'the readers\u2019 wait per read acquisition' : null }, lk.wait_cycles_per === null ? '–' : t(lk.wait_cycles_per)));
		})))),
		h('p', { class: 'muted', id: 'locks-hold-note' }, `median hold: ${HOLD_HEADS['median hold']}; mean hold: ${HOLD_HEADS['mean hold']}.`));
}

// The two holds per acquisition the lock table gives, and why both: they
// differ where the repetitions do (a longer one weighs more in the pooled
// mean), and only the median is the figure the CLI prints and compares.
const HOLD_HEADS = {
	'median hold': 'the median over the repetitions of each one\u2019s hold per acquisition: what xcbench show prints and compare --row lock_hold compares',
	'mean hold': 'total hold / acquisitions, pooled over every repetition',
};

// The TLB table's axis columns: the shootdown's own (flush path, method,
// batch, pages), then where and how it runs (overlap, placement, delivery,
// wait, initiators, mask), then any other matched key that varies among the
// TLB cases: every axis that tells two rows apart is a column.
const TLB_AXES = ['flush', 'method', 'batch', 'pages', 'overlap', 'placement', 'delivery', 'wait', 'inits', 'mask'];
const NUM_AXES = new Set(['batch', 'pages', 'inits', 'mask', 'work_us', 'batch_reads', 'entry_us']);
const AXIS_TITLE = { mask: 'CPUs in mask' };
const NOT_AXES = new Set(['id', 'kind', 'algo', 'iters', 'warmup', 'reps', 'seed']);
const axisOf = (c, k) => (c[k] !== undefined && c[k] !== null ? c[k] : (c.config || {})[k]);
function tlbAxes(tlb) {
	const present = (k) => tlb.some((c) => axisOf(c, k) !== undefined && axisOf(c, k) !== null);
	const varying = [...new Set(tlb.flatMap((c) => Object.keys(c.config || {})))]
		.filter((k) => !k.startsWith('x_') && !NOT_AXES.has(k) && !TLB_AXES.includes(k) && new Set(tlb.map((c) => String(axisOf(c, k)))).size > 1)
		.sort();
	return [...TLB_AXES.filter(present), ...varying];
}

export function renderTlb(container, cases, unit) {
	// Sync cases (seed 002) verify their invalidation the same way (lazy: after
	// each target's entry): their rows show it, mode as the algorithm.
	const tlb = cases.filter((c) => c.kind === 'tlb' || isSync(c));
	const axes = tlbAxes(tlb);
	if (!tlb.length) {
		fill(container, state('empty', 'This run has no TLB shootdown or sync cases.', h('div', {}, 'Run a suite with TLB cases (the default suite has them) to see shootdown latency and the stale-translation check.')));
		return;
	}
	const t = unit.text;
	// method none invalidates nothing: a cost figure whose stale reads are
	// expected and never counted, so neither its 0 nor a control says "clean".
	const noFlush = (c) => c.kind === 'tlb' && axisOf(c, 'method') === 'none';
	const checked = tlb.filter((c) => !noFlush(c));
	const nNoFlush = tlb.length - checked.length;
	const noFlushNote = nNoFlush ? ` (${nNoFlush} case${nNoFlush === 1 ? '' : 's'} of method none flush nothing: cost figures, not checked)` : '';
	const stale = tlb.reduce((a, c) => a + (c.stats?.stale || 0), 0);
	// A case whose no-flush control saw no stale read proves nothing with stale = 0.
	const unverified = checked.filter((c) => c.stats && c.stats.verified === false).length;
	const control = (c, s) => (noFlush(c) ? 'none (no flush)' : !s || s.verified === null || s.verified === undefined ? '–'
		: s.verified ? `verified (${fmt.int(s.control_stale)}/${fmt.int(s.control_runs)})` : 'unverified');
	fill(container,
		h('p', { id: 'tlb-stale', class: stale ? 'bad' : unverified ? 'warn' : 'good' }, stale
			? `${fmt.int(stale)} stale translation${stale === 1 ? '' : 's'} seen by targets after a shootdown: a flush was lost. The failing cases are marked below.`
			: unverified
				? `No stale translation, but ${unverified} case${unverified === 1 ? '' : 's'} unverified: the no-flush control saw no stale read there, so 0 proves nothing.${noFlushNote}`
				: checked.length
					? `No stale translation: every target verified that the old mapping was gone after each shootdown.${noFlushNote}`
					: `No case here flushes: ${nNoFlush} case${nNoFlush === 1 ? '' : 's'} of method none, cost figures with no stale check.`),
		h('div', { class: 'tablewrap' }, h('table', { class: 'data', id: 'tlb-table' },
			h('thead', {}, h('tr', {}, h('th', {}, 'Case'), axes.map((k) => h('th', { class: NUM_AXES.has(k) ? 'num' : null, dataset: { axis: k } }, AXIS_TITLE[k] || k)),
				['p50', 'p99', 'calls done / expected', 'stale', 'no-flush control'].map((x) => h('th', { class: 'num' }, x)))),
			h('tbody', {}, tlb.map((c) => {
				const s = c.stats;
				// A shootdown's calls are counted by its TLB ledger; a row with no
				// cross-call counted says "not applicable", never "0 / 0".
				const na = s && !s.calls_expected && !s.calls_executed;
				return h('tr', { dataset: { case: c.case_id } },
					h('td', {}, `#${c.case_id} ${isSync(c) ? 'sync ' : ''}${c.algo || ''}`),
					axes.map((k) => h('td', { class: NUM_AXES.has(k) ? 'num' : null }, axisOf(c, k) ?? '–')),
					h('td', { class: 'num' }, s ? t(s.p50) : '…'), h('td', { class: 'num' }, s ? t(s.p99) : '…'),
					h('td', { class: `num ${s && s.calls_executed !== s.calls_expected ? 'bad' : ''}`, title: na ? 'not applicable: no cross-call counted for this case' : null },
						!s ? '…' : na ? 'n/a' : `${fmt.int(s.calls_executed)} / ${fmt.int(s.calls_expected)}`),
					noFlush(c)
						? h('td', { class: 'num muted', dataset: { stale: 'unchecked' }, title: 'method none invalidates nothing: its stale reads are expected and not counted' }, 'not checked')
						: h('td', { class: `num ${s && s.stale ? 'bad' : ''}`, dataset: { stale: s ? s.stale : '' } }, s ? (s.verified === false && !s.stale ? 'unverified' : fmt.int(s.stale)) : '…'),
					h('td', { class: s && s.verified === false && !noFlush(c) ? 'warn' : null, dataset: { verified: s ? String(s.verified) : '' } }, control(c, s)));
			})))));
}

// Errors (ERROR frames, from the run detail) and log lines (/events).
export function renderErrors(container, detail) {
	const errs = detail.errors || [];
	const flagged = (detail.cases || []).filter((c) => c.stats && c.stats.flags & 3);
	// Issue 21: the host moved under these cases (their paired floor probes spread).
	const unstable = (detail.cases || []).filter((c) => c.stats && c.stats.unstable_host);
	const unstableNote = unstable.length ? h('p', { class: 'warn', id: 'unstable-host' },
		h('span', { class: 'badge unstable' }, 'unstable host'),
		` The floor moved by more than 2\u00d7 during case${unstable.length === 1 ? '' : 's'} ${unstable.map((c) => `#${c.case_id}`).join(', ')}: compare their paired ratios, not their cycles.`) : null;
	if (!errs.length && !flagged.length) {
		fill(container, h('p', { class: 'good', id: 'no-errors' }, 'No errors: no exception, hang report or failed invariant.'), unstableNote);
		return;
	}
	fill(container,
		errs.map((e) => h('div', { class: 'state error', dataset: { seq: e.seq } },
			h('strong', {}, String(e.text).split('\n')[0]),
			h('pre', { class: 'mono', style: { whiteSpace: 'pre-wrap', margin: 0 } }, String(e.text).split('\n').slice(1).join('\n')),
			h('div', { class: 'muted' }, `frame ${e.seq} · ${fmt.date(e.received)}`))),
		flagged.length ? h('p', { class: 'bad' }, `Cases with a fired watchdog or failed invariant: ${flagged.map((c) => `#${c.case_id}${c.stats.flags & 1 ? ' (watchdog)' : ''}${c.stats.flags & 2 ? ' (invariant)' : ''}`).join(', ')}.`) : null,
		unstableNote);
}

// Console lines (`xcbench vm` uploads a machine's serial console) are stored
// as events of kind "console" with seq = 2^40 + line (host/src/api_console.c),
// beyond every frame's sequence number: label them by their line, counted
// from 1 as an editor shows the capture, not by that seq.
const CONSOLE_SEQ0 = 2 ** 40;
const logLabel = (e) => (e.kind === 'console' && e.seq >= CONSOLE_SEQ0
	? `console ${e.seq - CONSOLE_SEQ0 + 1}` : String(e.seq).padStart(5));

export class LogView {
	constructor(container) {
		this.el = container;
		this.after = -1;
		this.seen = new Set();
		this.lines = [];
		this.pre = h('pre', { class: 'log', id: 'log' });
	}

	// New events since the last call (live tail).
	add(events) {
		for (const e of events) {
			// Console lines (seq from 2^40 up) may be attached while the run is
			// still live: the tail keeps asking for frame events after the last
			// frame's seq, so later payload lines still arrive, and skips the
			// console lines it has already shown.
			if (this.seen.has(e.seq)) continue;
			this.seen.add(e.seq);
			if (e.seq < CONSOLE_SEQ0) this.after = Math.max(this.after, e.seq);
			this.pre.append(h('span', { class: e.kind === 'error' ? 'err' : '' }, h('span', { class: 't' }, `${logLabel(e)}  `), `${e.text}\n`));
			this.lines.push(e);
		}
		if (!this.lines.length) fill(this.el, h('p', { class: 'muted' }, 'No log lines (yet).'));
		else if (this.pre.parentNode !== this.el) fill(this.el, this.pre);
		this.pre.scrollTop = this.pre.scrollHeight;
	}
}
