// verdict.js — the payload's own verdict on a run (its DONE status, the
// API's done_status) beside the run's status. `complete` says only that DONE
// arrived: a run whose checks FAILED (calls lost, duplicated, stale) is
// complete too, and read as a pass where its status stood alone. The words
// are the CLI's (GET /api/v1/schema `verdicts`: host/common/verdict_words.c),
// what `xcbench runs` prints in its VERDICT column and --verdict takes.

import { h, badge } from './dom.js';

// [{done_status, name, says}, ...]: setVerdicts() before a page draws; until
// then (or if the schema could not be read) a verdict is named by its number.
let VERDICTS = [];
export function setVerdicts(v) {
	if (Array.isArray(v)) VERDICTS = v;
}
export const verdicts = () => VERDICTS;

// The verdict run r's status must be shown with: null while no DONE has
// come (done_status null) and for a run that passed (done_status 0: the
// API's "ok", which every good run would otherwise carry as noise).
export function verdictOf(r) {
	const d = r ? r.done_status : null;
	if (d === null || d === undefined || d === 0) return null;
	return VERDICTS.find((v) => v.done_status === d)
		|| { done_status: d, name: `done status ${d}`, says: `the payload reported done status ${d}` };
}

// The verdict as a warning badge, its meaning in the title.
export function verdictBadge(v) {
	return h('span', { class: 'badge verdict', title: v.says, dataset: { verdict: v.name } }, v.name);
}

// Status badge, then " · " and the verdict where there is one to show.
export function runStatus(r) {
	const v = verdictOf(r);
	return v ? h('span', { class: 'run-status' }, badge(r.status), ' · ', verdictBadge(v)) : badge(r.status);
}

// The status as text ("complete · FAILED"), for a table cell or a title.
export function runStatusText(r) {
	const v = verdictOf(r);
	return v ? `${r.status} · ${v.name}` : r.status;
}
