// dom.js — tiny DOM helpers shared by every page: element builder, the
// empty/loading/error state boxes, query-string access, and the page header.
//
// Everything the pages show is built with textContent (never innerHTML from
// data), so a machine name or label can never inject markup.

// h('a', {href: '/x', class: 'button'}, 'text', childNode, ...)
// Attributes: "class", "text", "on<Event>" (listener), "dataset" (object),
// booleans set/omit the attribute, everything else via setAttribute.
export function h(tag, attrs, ...children) {
	const el = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs || {})) {
		if (v === undefined || v === null || v === false) continue;
		if (k === 'class') el.className = v;
		else if (k === 'text') el.textContent = v;
		else if (k === 'dataset') Object.assign(el.dataset, v);
		else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
		else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
		else if (v === true) el.setAttribute(k, '');
		else el.setAttribute(k, String(v));
	}
	append(el, children);
	return el;
}

function append(el, children) {
	for (const c of children) {
		if (c === undefined || c === null || c === false) continue;
		if (Array.isArray(c)) append(el, c);
		else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
	}
}

export const $ = (sel, root = document) => root.querySelector(sel);

// Replace the content of `el` with `children`.
export function fill(el, ...children) {
	el.replaceChildren();
	append(el, children);
	return el;
}

// state(kind, title, what-to-do...) — a box for empty/loading/error states.
// Every state says what the user can do next, not only what went wrong.
export function state(kind, title, ...todo) {
	return h('div', { class: `state ${kind}`, role: kind === 'error' ? 'alert' : 'status', dataset: { state: kind } },
		h('strong', { text: title }), ...todo);
}

export function loading(what) {
	return state('loading', `Loading ${what}…`);
}

// An error box for a failed API call (see api.js ApiError).
export function errorBox(what, err) {
	const hint = err && err.hint ? err.hint : 'Check that xcbenchd is running, then reload this page.';
	return state('error', `Could not load ${what}: ${err && err.message ? err.message : err}`, h('div', { text: hint }));
}

// Said while a polling page's refresh fails (the daemon stopped, say): what
// it shows below is as last read, not the state now (`rows`: what that is);
// it keeps trying every `everyMs`.
export function staleBox(rows, err, everyMs) {
	return state('error', `Lost contact with the daemon (${err && err.message ? err.message : err}) at ${new Date().toLocaleTimeString()}: the ${rows} below are as last read; retrying every ${everyMs / 1000} s.`,
		h('div', { text: (err && err.hint) || 'Check that xcbenchd is running.' }));
}

export function params() {
	return new URLSearchParams(window.location.search);
}

// Rewrite the query string without reloading, so the current view is a
// bookmarkable URL (filters, sort, chosen case).
export function setParams(obj) {
	const p = params();
	for (const [k, v] of Object.entries(obj)) {
		if (v === undefined || v === null || v === '' || v === false) p.delete(k);
		else p.set(k, String(v));
	}
	const qs = p.toString();
	history.replaceState(null, '', window.location.pathname + (qs ? `?${qs}` : ''));
}

// Page header with navigation; `here` is the current page's key.
export function header(here) {
	const link = (key, href, text) => h('a', { href, class: key === here ? 'here' : null }, text);
	return h('header', { class: 'top' },
		h('a', { class: 'brand', href: './' }, 'xcbench'),
		h('nav', {},
			link('runs', './', 'Runs'),
			link('compare', 'compare.html', 'Compare'),
			link('machine', 'machine.html', 'Machines'),
			link('lab', 'lab.html', 'Lab')),
		h('span', { class: 'spacer' }),
		h('a', { href: 'api/v1/runs.csv', download: '' }, 'All runs (CSV)'));
}

export function badge(status) {
	const s = String(status || 'unknown');
	return h('span', { class: `badge ${s.toLowerCase()}`, dataset: { status: s } }, s);
}

// progress(done, planned): a progress bar with "done / planned" text.
export function progress(done, planned, big = false) {
	const pct = planned > 0 ? Math.min(100, (100 * done) / planned) : 0;
	return h('span', { class: `progress${big ? ' big' : ''}`, role: 'progressbar',
		'aria-valuemin': 0, 'aria-valuemax': planned || 0, 'aria-valuenow': done || 0 },
		h('span', { class: 'bar' }, h('span', { style: { width: `${pct.toFixed(1)}%` } })),
		h('span', { class: 'txt' }, planned > 0 ? `${done} / ${planned} cases` : `${done || 0} cases`));
}
