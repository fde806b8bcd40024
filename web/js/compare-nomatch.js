// compare-nomatch.js — what the compare page (compare.js) says when no case
// of one side matched a case of the other. A row no case of these runs has
// is the cause when the same runs do match by the all row: the sync rows
// (writer_hold, …) are rows of sync cases only, so two cross-call runs of
// one suite compared by writer_hold match nothing, and "compare runs of the
// same suite" sent the user after the wrong fix. Otherwise the cases
// themselves differ. Rows are named with GET /api/v1/schema's words.

import { h, state } from './dom.js';
import { rowWords } from './sync_view.js';

// cmp: the answer that matched nothing; byAll: the same question by the all
// row (null where cmp is by all, or it could not be asked); allHref: this
// comparison by all; allText: what all compares for byAll's cases.
export function noMatch(cmp, byAll, schema, allHref, allText) {
	const row = cmp.row || 'all';
	if (row !== 'all' && byAll && byAll.cases.length) {
		const sync = (schema.sync_rows || []).some((r) => r.name === row);
		const words = rowWords([...(schema.sync_rows || []), ...(schema.lock_row ? [schema.lock_row] : [])], row);
		const kinds = [...new Set(byAll.cases.map((c) => c.key && c.key.kind).filter(Boolean))];
		const n = byAll.cases.length;
		return state('empty', sync ? `Row ${row} (${words.label}) applies to sync cases only, and these runs have none.`
			: `No case of these runs has row ${row} (${words.label}).`,
		h('div', { id: 'no-row' }, `By all (${allText}) they match ${n} case${n === 1 ? '' : 's'}${kinds.length ? ` (${kinds.join(', ')})` : ''}: `,
			h('a', { href: allHref, id: 'compare-by-all' }, 'compare them by all'), ', or choose another row or other runs below.'));
	}
	return state('empty', 'No case of one run matches a case of the other.',
		h('div', {}, 'Cases match when every axis (kind, algorithm, delivery, wait, initiators, mask, placement, …) is the same. Compare runs of the same suite, or two algorithms of one run (name them below).'));
}
