// skipped.js — the run's skipped cases in one sentence, from GET
// /api/v1/runs/ID `skipped` (the daemon counts them per reason from the
// payload's LOG lines): "10 of the suite's 16 cases skipped: 4 invpcid not
// supported by this CPU, 6 delivery x2apic_cluster not available". Without
// it the run page said "6 cases" and the other 10 were in the log alone.
// The words are xcbench show's and vm's: this mirrors host/cli/skipped.c
// (skipped_sentence) line for line, and t-web-skipped holds the page's line
// to show's for one run, so the two cannot drift apart unseen.

// The sentence, or '' when nothing was skipped (show prints no line then).
export function skippedSentence(sk) {
	const n = sk && Number.isInteger(sk.cases) ? sk.cases : 0;
	if (n <= 0) return '';
	const head = Number.isInteger(sk.suite_cases) ? `${n} of the suite's ${sk.suite_cases} cases skipped:` : `${n} cases skipped:`;
	return head + (sk.reasons || []).map((r, i) => `${i ? ',' : ''} ${Number.isInteger(r.cases) ? r.cases : 0} ${r.reason ?? '?'}`).join('');
}
