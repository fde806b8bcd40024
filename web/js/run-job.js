// run-job.js — the run page's job section (run.html): when a lab job made
// this run, its lifecycle (stage, attempt) and every event, updated live
// until the job has ended. Takes the run's machine from the run page's own
// GET /api/v1/runs/{id} (run.js's loaded), then reads GET /api/v1/jobs?mac=
// / GET /api/v1/jobs/{job} (host/API.md, #23).

import { h, $, fill, params, badge } from './dom.js';
import * as api from './api.js';
import * as fmt from './format.js';
import { loaded } from './run.js';

const POLL_MS = 2000;
const el = $('#run-job');
const id = Number(params().get('id'));
const ENDED = ['complete', 'failed', 'timed_out', 'cancelled'];

// Event times as the runs list writes dates (format.js); the full ISO time
// (seconds, UTC) in the title.
function render(j) {
	fill(el, h('h2', {}, 'Job'),
		h('div', { class: 'card job', dataset: { job: j.id, stage: j.stage } },
			h('div', { class: 'row' }, h('strong', {}, `job ${j.id}`), ' ', badge(j.stage),
				` ${j.suite} on `, h('a', { href: `machine.html?mac=${encodeURIComponent(j.mac)}` }, j.mac),
				` · attempt ${j.attempt || 0} of ${j.attempts}`),
			h('table', { class: 'data events' }, h('tbody', {}, j.events.map((e) =>
				h('tr', {}, h('td', { class: 'at', title: e.at }, fmt.date(e.at)), h('td', {}, e.stage), h('td', {}, `#${e.attempt}`), h('td', {}, e.reason)))))));
}

async function start() {
	if (!el || !id) return;
	try {
		const d = await loaded;
		const run = d && d.run;
		if (!run || !run.machine) return;
		const mac = typeof run.machine === 'string' ? run.machine : run.machine.mac;
		const job = (await api.get(`jobs?mac=${encodeURIComponent(mac)}`)).jobs.find((j) => j.run_id === id);
		if (!job) return;
		const poll = async () => {
			const j = (await api.get(`jobs/${job.id}`)).job;
			render(j);
			if (!ENDED.includes(j.stage) || !j.ended) setTimeout(poll, POLL_MS);
		};
		await poll();
	} catch (e) {
		// The job section is extra: the run page itself reports API errors.
	}
}
start();
