// machine-power.js — the power and jobs sections of the machine page
// (machine.html?mac=MAC): the machine's lab and the stage limits its jobs
// run under by default, the power driver's settings (a form; the password
// is a file on the daemon's machine and is never shown, only whether one is
// set), power actions with the driver's answer or error, and the machine's
// jobs with their limits and every lifecycle event, live, with a cancel
// button on a job that has not ended. Reads GET /api/v1/machines/{mac}; writes PUT and POST
// .../power and POST /api/v1/jobs/{id}/cancel.

import { h, $, fill, state, errorBox, loading, params, header, badge } from './dom.js';
import * as api from './api.js';
import * as fmt from './format.js';

const POLL_MS = 1500;
let mac = params().get('mac') || '';
const powerEl = $('#machine-power');
const jobsEl = $('#machine-jobs');
const top = $('#top');
if (top) top.replaceWith(header('lab'));
if (mac) $('#machine-title').textContent = `Machine ${mac}`;
fill(powerEl, loading('the machine'));
let path = `machines/${encodeURIComponent(mac)}`;
let formShown = false;

function field(label, input) {
	return h('label', {}, label, input);
}

function powerForm(p) {
	const driver = h('select', { id: 'p-driver' }, ['ipmi', 'command', 'manual'].map((d) => h('option', { value: d, selected: d === p.driver }, d)));
	const host = h('input', { id: 'p-host', value: p.host || '', placeholder: 'BMC address' });
	const port = h('input', { id: 'p-port', value: p.port || '', placeholder: '623', size: 6 });
	const user = h('input', { id: 'p-user', value: p.user || '', size: 10 });
	const pwfile = h('input', { id: 'p-password-file', value: '', size: 28,
		placeholder: p.password_set ? 'set (type a path to change it)' : '/etc/xcbench/bmc.pass (mode 600)' });
	// The template reaches admins only (host/API.md); unseen, it is kept
	// unless a new one is typed, as the password file is.
	const hidden = p.command_set && p.command == null;
	const command = h('input', { id: 'p-command', value: p.command || '', size: 40,
		placeholder: hidden ? 'set (type a template to change it)' : 'my-pdu {action} 3' });
	const sol = h('input', { id: 'p-sol', type: 'checkbox', checked: !!p.sol });
	const msg = h('div', { id: 'p-msg', class: 'sub' });
	const save = h('button', { class: 'primary', id: 'p-save', onclick: async () => {
		const body = { driver: driver.value, sol: sol.checked };
		if (host.value) body.host = host.value;
		if (port.value) body.port = Number(port.value);
		if (user.value) body.user = user.value;
		if (command.value) body.command = command.value;
		// No path typed: the daemon keeps the file it has.
		if (pwfile.value) body.password_file = pwfile.value;
		try {
			await api.write('PUT', `${path}/power`, body);
			fill(msg, 'Saved.');
			formShown = false;
			refresh();
		} catch (e) {
			fill(msg, h('span', { class: 'power-error', role: 'alert' }, e.message));
		}
	} }, 'Save');
	return h('div', { class: 'toolbar', id: 'power-form' },
		field('Driver', driver), field('Host', host), field('Port', port), field('User', user),
		field('Password file', pwfile), field('Command template', command), field('Serial-over-LAN', sol), save, msg);
}

function actions() {
	const out = h('div', { id: 'power-result', class: 'sub' });
	const act = (a) => h('button', { dataset: { action: a }, onclick: async () => {
		fill(out, `${a}…`);
		try {
			const r = await api.write('POST', `${path}/power`, { action: a });
			fill(out, `${a}: ${r.result}`);
		} catch (e) {
			fill(out, h('span', { class: 'power-error', role: 'alert' }, `${a}: ${e.message}`));
		}
		refresh();
	} }, a);
	return h('div', { class: 'row' }, ['status', 'on', 'off', 'cycle', 'pxe'].map(act), out);
}

// Seconds as a limit: none where the API says null (no bound).
const limit = (s) => (s == null ? 'none' : `${s} s`);
const STAGES = ['powering_on', 'booting', 'running'];

// A job's stage limits as the runner applies them (timeouts_effective, fixed
// when the job started), each marked "default" where the job set none.
function jobLimits(j) {
	const eff = j.timeouts_effective || {}, set = j.timeouts || {};
	return STAGES.map((s) => `${s} ${limit(eff[s])}${set[s] == null ? ' (default)' : ''}`).join(', ');
}

function renderPower(m) {
	const p = m.power;
	const d = m.timeouts_default || {};
	const summary = h('dl', { class: 'facts', id: 'power-facts' },
		h('dt', {}, 'Lab'), h('dd', { id: 'machine-lab' }, m.lab ? `${m.lab} (its daemon boots and powers it)`
			: h('span', { class: 'muted' }, 'none (set up by a daemon without --lab)')),
		h('dt', {}, 'Stage limits'), h('dd', { id: 'machine-limits' },
			`${STAGES.map((s) => `${s} ${limit(d[s])}`).join(', ')} for a job that sets none (${p.driver} power; `,
			h('code', {}, 'xcbench queue --power-timeout/--boot-timeout/--run-timeout'), ' set a job\'s own)',
			m.sol_wait != null ? `; up to ${m.sol_wait} s for the serial-over-LAN session before the power-on` : ''),
		h('dt', {}, 'Driver'), h('dd', {}, p.driver),
		h('dt', {}, 'BMC'), h('dd', {}, p.host ? `${p.user || ''}@${p.host}:${p.port || 623}` : '—'),
		h('dt', {}, 'Password'), h('dd', {}, p.password_set ? 'set (a file on the daemon\'s machine; never shown)' : 'not set'),
		h('dt', {}, 'Command'), h('dd', { id: 'power-command' }, p.command || (p.command_set ? 'set (shown with the admin token)' : '—')),
		h('dt', {}, 'Console'), h('dd', {}, p.sol ? 'serial-over-LAN captured into the runs' : 'not captured'),
		h('dt', {}, 'Power'), h('dd', { id: 'power-state' }, p.state || 'unknown'),
		h('dt', {}, 'Last error'), h('dd', { id: 'power-error', class: p.error ? 'power-error' : null }, p.error || '—'));
	if (!formShown) {
		fill(powerEl, h('h2', {}, 'Power'), summary, actions(), powerForm(p));
		formShown = true;
	} else {
		$('#power-facts').replaceWith(summary);
	}
}

// A job's events: each time as the runs list writes dates (format.js), the
// full ISO time (seconds, UTC) in its title.
function renderJobs(m) {
	if (!m.jobs.length) {
		fill(jobsEl, h('h2', {}, 'Jobs'), state('empty', 'No jobs for this machine.', h('div', {}, 'Queue one with ', h('code', {}, `xcbench queue --mac ${mac} --suite quick`))));
		return;
	}
	const ended = (j) => ['complete', 'failed', 'timed_out', 'cancelled'].includes(j.stage);
	fill(jobsEl, h('h2', {}, 'Jobs'), m.jobs.map((j) => h('div', { class: 'card job', dataset: { job: j.id, stage: j.stage } },
		h('div', { class: 'row' }, h('strong', {}, `job ${j.id}`), ' ', badge(j.stage), ` ${j.suite} · attempt ${j.attempt || 0} of ${j.attempts}`,
			j.run_id ? [' · ', h('a', { href: `run.html?id=${j.run_id}` }, `run ${j.run_id}`)] : null,
			ended(j) ? null : h('button', { class: 'cancel', onclick: async () => {
				try { await api.write('POST', `jobs/${j.id}/cancel`, {}); } catch (e) { window.alert(e.message); }
				refresh();
			} }, 'Cancel')),
		h('div', { class: 'sub limits' }, `limits: ${jobLimits(j)}`),
		h('table', { class: 'data events' }, h('tbody', {}, j.events.map((e) =>
			h('tr', {}, h('td', { class: 'at', title: e.at }, fmt.date(e.at)), h('td', {}, e.stage), h('td', {}, `#${e.attempt}`), h('td', {}, e.reason))))))));
}

async function refresh() {
	try {
		const d = await api.get(path);
		renderPower(d.machine);
		renderJobs(d.machine);
	} catch (e) {
		fill(powerEl, errorBox(`machine ${mac}`, e));
	}
}

async function poll() {
	await refresh();
	setTimeout(poll, POLL_MS);
}
// Opened by ?id= (the runs list's machine links): its MAC from the
// machines list, which the power and jobs routes are keyed by.
async function start() {
	const id = Number(params().get('id'));
	if (!mac && id) {
		try {
			const m = ((await api.get('machines')).machines || []).find((x) => x.id === id);
			mac = m ? m.mac : '';
		} catch (e) {
			fill(powerEl, errorBox(`machine ${id}`, e));
			return;
		}
		path = `machines/${encodeURIComponent(mac)}`;
	}
	if (!mac) {
		fill(powerEl);
		fill(jobsEl);
		powerEl.hidden = jobsEl.hidden = true; /* no machine: no empty cards */
		return;
	}
	poll();
}
start();
