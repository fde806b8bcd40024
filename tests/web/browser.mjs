// browser.mjs — the harness a browser test starts from: headless Chromium
// (playwright-core, Debian's /usr/bin/chromium) on a temporary profile, TAP
// output, the daemon's API, and console errors collected from every page.
// Browser tests import it instead of repeating these lines (history.mjs,
// add-algorithm.mjs; dashboard and lab .mjs predate it).
//
//   const b = await browser({ base: XCB_BASE, out: XCB_OUT, name: 'mine' });
//   await b.page.goto(b.url('run.html?id=1')); b.ok(cond, 'name', diag);
//   await b.finish();   // closes, checks "no console errors", exits 0/1

import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(ROOT, 'web/package.json'));
const { chromium } = require('playwright-core');

/** Starts the browser; returns { page, ctx, ok, api, url, until, finish }. */
export async function browser({ base, out, name }) {
	let failed = 0;
	const ok = (cond, what, diag) => {
		console.log(`${cond ? 'ok' : 'not ok'} - ${what}`);
		if (!cond) {
			failed++;
			if (diag !== undefined) console.log(`# ${String(typeof diag === 'string' ? diag : JSON.stringify(diag)).split('\n').join('\n# ')}`);
		}
		return cond;
	};
	const api = async (p) => {
		const r = await fetch(new URL(`api/v1/${p}`, base));
		if (!r.ok) throw new Error(`GET ${p}: HTTP ${r.status}`);
		return r.json();
	};
	const url = (p) => new URL(p, base).toString();
	const profile = fs.mkdtempSync(path.join(out, `chromium-${name}-`));
	const ctx = await chromium.launchPersistentContext(profile, {
		executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1366, height: 900 },
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
	const errors = [];
	const page = ctx.pages()[0] || (await ctx.newPage());
	page.on('console', (m) => { if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`); });
	page.on('pageerror', (e) => errors.push(`${page.url()}: uncaught ${e.message}`));
	// Bounded: a page that never gets ready fails with what it waited for.
	const until = (what, fn, ms = 30000) => page.waitForFunction(fn, null, { timeout: ms })
		.then(() => true, () => ok(false, `page ready: ${what}`));
	const finish = async (crashed) => {
		if (crashed) ok(false, 'browser test ran to the end', crashed.stack || String(crashed));
		else ok(errors.length === 0, 'no console errors on any page', errors.join('\n'));
		await ctx.close().catch(() => {});
		fs.rmSync(profile, { recursive: true, force: true });
		process.exit(failed ? 1 : 0);
	};
	return { page, ctx, ok, api, url, until, finish };
}
