// api.js — the dashboard's only door to xcbenchd's JSON API (host/API.md).
//
// API addresses are resolved against the dashboard's root (the folder above
// this file), not the page's address, so the pages work when the daemon is
// reached under a path prefix and when the address has an empty segment.
// Errors become ApiError with the HTTP status, the daemon's JSON error
// message, and a hint that says what to do.

// The daemon serves its files at "http://host//" (and "//run.html") but its
// API only at "/api/v1/...": an address relative to such a page went to
// "//api/v1/runs", "not found". Empty segments are dropped from the root,
// and from the page's own address too, so its relative links (the CSV
// downloads, the other pages) resolve under the root as well.
const dropEmpty = (p) => p.replace(/\/{2,}/g, '/');
const root = new URL('../', import.meta.url);
root.pathname = dropEmpty(root.pathname);
if (dropEmpty(location.pathname) !== location.pathname)
	history.replaceState(history.state, '', dropEmpty(location.pathname) + location.search + location.hash);

export const BASE = new URL('api/v1', root).href;

export class ApiError extends Error {
	constructor(status, message, hint) {
		super(message);
		this.status = status;
		this.hint = hint;
	}
}

function hintFor(status) {
	if (status === 0) return 'The daemon did not answer. Is xcbenchd running? Start it (make run) and reload.';
	if (status === 401 || status === 403)
		return 'This daemon needs a write token: paste the token printed by xcbenchd at start (or its --token) when asked.';
	if (status === 404) return 'It does not exist (any more). Go back to the runs list.';
	if (status >= 500) return 'The daemon failed; its log says why. Reload to try again.';
	return 'Check the address; then reload.';
}

async function request(method, path, body, headers = {}) {
	let res;
	try {
		res = await fetch(`${BASE}/${path}`, {
			method,
			headers: body !== undefined ? { 'Content-Type': 'application/json', ...headers } : headers,
			body: body !== undefined ? JSON.stringify(body) : undefined,
			cache: 'no-store',
		});
	} catch (e) {
		throw new ApiError(0, 'no answer from the daemon', hintFor(0));
	}
	const text = await res.text();
	let json = null;
	try {
		json = text ? JSON.parse(text) : null;
	} catch (e) {
		if (res.ok) throw new ApiError(res.status, 'the daemon sent something that is not JSON', hintFor(500));
	}
	if (!res.ok) {
		const msg = (json && (json.error?.message || json.error || json.message)) || `HTTP ${res.status}`;
		throw new ApiError(res.status, typeof msg === 'string' ? msg : JSON.stringify(msg), hintFor(res.status));
	}
	return json;
}

// A read carries the write token this browser holds, if any: a few
// answers hold more for the admin (a machine's power command template).
export const get = (path) => request('GET', path, undefined, token.get() ? { Authorization: `Bearer ${token.get()}` } : {});

// A run with every case. GET runs/{id} answers one page of cases (1000 at
// most) and, for a run of more, cases_next: where the next page starts. A
// run page cut at the first page read as the whole run.
export async function run(id) {
	const d = await get(`runs/${id}`);
	for (let next = d.cases_next; next !== undefined && next !== null;) {
		const page = await get(`runs/${id}?cases_after=${next}`);
		d.cases.push(...page.cases);
		next = page.cases_next;
	}
	delete d.cases_next;
	return d;
}

// The one schema (GET /api/v1/schema: proto/xcb_schema.h): case keys and their
// roles, RESULT fields, vocabularies. Fetched once per page; a failed fetch is
// forgotten, so the next call asks again.
let schemaP = null;
export function schema() {
	if (!schemaP) schemaP = get('schema').catch((e) => { schemaP = null; throw e; });
	return schemaP;
}

// Write token (daemons not started with --open): kept in this browser only.
const TOKEN_KEY = 'xcbench.token';
export const token = {
	get: () => localStorage.getItem(TOKEN_KEY) || '',
	set: (t) => (t ? localStorage.setItem(TOKEN_KEY, t) : localStorage.removeItem(TOKEN_KEY)),
};

// Does the daemon take writes without a token (--open)? Asked once, from /health,
// so a write to a guarded daemon asks for the token first instead of failing.
let open = null;
async function daemonIsOpen() {
	if (open === null) {
		try {
			open = !!(await get('health')).open;
		} catch (e) {
			open = false;
		}
	}
	return open;
}

function askToken() {
	const t = window.prompt('This xcbenchd needs its admin token for changes (the contents of its --token-file):', token.get());
	if (!t || !t.trim()) throw new ApiError(401, 'no admin token given', hintFor(401));
	token.set(t.trim());
}

// A write: sends the token; asks for one first where the daemon needs it, and
// again once if the daemon refuses the one we have (401/403).
export async function write(method, path, body) {
	if (!token.get() && !(await daemonIsOpen())) askToken();
	const send = () => request(method, path, body, token.get() ? { Authorization: `Bearer ${token.get()}` } : {});
	try {
		return await send();
	} catch (e) {
		if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) throw e;
		token.set('');
		askToken();
		return send();
	}
}

// Download links stay relative to the page ("api/v1/runs/3.csv", as the
// pages' <noscript> links): every page sits at the root, and its address
// has no empty segment (above), so they resolve where the fetches go.
export const csvUrl = (path) => `api/v1/${path}`;
