// lab.js — the Lab page (lab.html): every machine the daemon knows or has a
// job for, with its state (idle / powering_on / booting / running, or what
// to fix after a failed power call: unreachable / auth_refused /
// misconfigured / power_failed, host/src/power.c's table), its current job
// and stage, time in that state, its last run
// and result, and a mark on machines whose last jobs all failed. Polls
// GET /api/v1/lab, so states change on screen as the job runner moves them.
// Where daemons of several labs share one store (xcbenchd --lab), a Lab
// column names the lab whose daemon boots and powers each machine, and
// marks this daemon's own (the answer's `lab`); as on the runs page, it
// appears once a machine or this daemon has a lab. The last run's status
// carries the payload's verdict where it did not pass (verdict.js).

import { h, $, fill, state, errorBox, staleBox, loading, header, badge } from './dom.js';
import * as api from './api.js';
import * as fmt from './format.js';
import { setVerdicts, runStatus } from './verdict.js';

const POLL_MS = 1000;
const main = $('#main');
$('#top').replaceWith(header('lab'));

const body = h('div', { id: 'lab-body' }, loading('the lab'));
const stamp = h('p', { class: 'sub', id: 'lab-stamp' });
// Said while a refresh fails, over the table as last read (a poll a second:
// a daemon restart, even a slow answer, must not blank the lab).
const stale = h('div', { id: 'lab-stale' });
let drawn = false;
fill(main,
	h('h1', {}, 'Lab'),
	h('p', { class: 'sub' }, 'Every machine, what it is doing now and how its last run ended. Queue a job with ',
		h('code', {}, 'xcbench queue'), '; machines with a power driver are powered on and off by the daemon.'),
	stamp, stale, body);

function stateBadge(s) {
	const el = badge(s);
	el.classList.add(`lab-${s}`);
	return el;
}

// A machine's lab: this daemon's marked as such; another lab's says how to
// bring it here; none (a daemon without --lab set it up) a muted dash.
function labCell(m, own) {
	if (!m.lab)
		return h('td', { dataset: { col: 'lab' } }, h('span', { class: 'muted', title: 'No lab: set up by a daemon without --lab' }, '–'));
	if (m.lab === own)
		return h('td', { dataset: { col: 'lab', own: '1' } }, m.lab, ' ',
			h('span', { class: 'badge', title: 'This daemon boots and powers it' }, 'this daemon'));
	return h('td', { dataset: { col: 'lab' }, title: `Lab ${m.lab}'s daemon boots and powers it` +
		(own ? `; xcbench machine set ${m.mac} --take moves it into lab ${own}` : '') }, m.lab);
}

function row(m, d, withLab) {
	const j = m.job;
	const r = m.last_run;
	return h('tr', { dataset: { mac: m.mac, state: m.state }, class: m.failing ? 'failing' : null },
		h('td', {}, h('a', { href: `machine.html?mac=${encodeURIComponent(m.mac)}` }, m.mac)),
		withLab ? labCell(m, d.lab) : null,
		h('td', { class: 'state' }, stateBadge(m.state)),
		h('td', {}, m.driver, m.power_state ? ` (${m.power_state})` : ''),
		h('td', { class: 'job' }, j ? [`job ${j.id} `, h('span', { class: 'stage' }, j.stage),
			j.attempt ? ` · attempt ${j.attempt}/${j.attempts}` : '', ` · ${j.suite}`] : lastJob(m.last_job)),
		h('td', { class: 'since' }, fmt.duration(m.in_state_s)),
		h('td', {}, r ? [h('a', { href: `run.html?id=${r.id}` }, `run ${r.id}`), ' ', runStatus(r)] : '—'),
		h('td', { class: 'notes' },
			m.failing ? h('span', { class: 'badge failed', title: `the last ${m.failed_streak} jobs failed` },
				`failed ${m.failed_streak} in a row`) : null,
			m.power_error ? h('span', { class: 'power-error', title: m.power_error }, ` ${m.power_error}`) : null,
			!j && endedBadly(m.last_job) ? h('span', { class: 'last-job-reason' }, ` job ${m.last_job.id}: ${m.last_job.reason}`) : null));
}

// A job that ended without its run: what the machine's row must still say
// once the machine is idle again (the state column says idle then).
function endedBadly(l) {
	return l && (l.stage === 'failed' || l.stage === 'timed_out');
}

// No current job: the last one that ended, muted, with its stage.
function lastJob(l) {
	if (!l) return '—';
	return h('span', { class: 'last-job', title: l.reason || '' },
		h('span', { class: 'muted' }, 'last: '), `job ${l.id}`, ' ', badge(l.stage));
}

function render(d) {
	if (!d.machines.length) {
		fill(body, state('empty', 'No machines yet.',
			h('div', {}, 'A machine appears when it first boots from this daemon, or when you give it a power driver: ',
				h('code', {}, 'xcbench machine set MAC --power ipmi …'))));
		return;
	}
	const withLab = !!d.lab || d.machines.some((m) => m.lab);
	const counts = {};
	for (const m of d.machines) counts[m.state] = (counts[m.state] || 0) + 1;
	fill(stamp, `${d.machines.length} machine${d.machines.length === 1 ? '' : 's'}: `,
		Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', '),
		` · machines whose last ${d.failing_after} jobs failed are marked`,
		d.lab ? ` · this daemon serves lab ${d.lab}` : '', ` · updated ${new Date().toLocaleTimeString([], { hour12: false })}`);
	fill(body, h('div', { class: 'tablewrap' }, h('table', { class: 'data', id: 'lab-table' },
		h('thead', {}, h('tr', {}, ['Machine', withLab ? 'Lab' : null, 'State', 'Power', 'Current job', 'In state', 'Last run', 'Notes']
			.filter((t) => t).map((t) => h('th', {}, t)))),
		h('tbody', {}, d.machines.map((m) => row(m, d, withLab))))));
}

// The verdicts' words, read once (the schema does not change under a
// page); without them a verdict is named by its number (verdict.js).
const words = api.schema().then((s) => setVerdicts(s.verdicts), () => {});

async function poll() {
	try {
		const d = await api.get('lab');
		await words;
		render(d);
		drawn = true;
		fill(stale);
	} catch (e) {
		if (drawn) fill(stale, staleBox('machines', e, POLL_MS));
		else fill(body, errorBox('the lab', e));
	}
	// Drawn (the table or why not): what tests/web/browser.mjs waits for.
	document.body.dataset.ready = '1';
	setTimeout(poll, POLL_MS);
}
poll();
