/* samples_json.c — the JSON of a case's raw samples (see samples_json.h). */
#include "jsonw.h"
#include "samples_json.h"
#include "xcb_proto.h"

/* The stream being written: one (rep, initiator) of the case. */
struct stream {
	int open;               /* its object is begun in the answer */
	int rep, init;
	int64_t next;           /* the index its next chunk would start at if none is missing */
	int64_t count, missing; /* samples read back; indexes before `next` without one */
	int64_t hole_at, hole_n; /* the last hole, not yet written (hole_n 0: none) */
	struct buf holes;       /* its holes written so far */
};

/* The totals of the answer. */
struct totals {
	int64_t count, missing, returned, limit;
};

/* An initiator as the API names it (host/API.md): "all" or a pseudo-
 * initiator by its proto name, else the CPU index. */
static int initiator_val(struct buf *b, int init)
{
	const char *name = xcb_initiator_name((unsigned)init);

	return name ? jsonw_str(b, name) : jsonw_i64(b, init);
}

/* Writes the pending hole into s->holes. */
static int hole_flush(struct stream *s)
{
	int bad = 0;

	if (s->hole_n)
		bad = (s->holes.len && jsonw_lit(&s->holes, ",")) || jsonw_lit(&s->holes, "{\"idx\":") ||
		      jsonw_i64(&s->holes, s->hole_at) || jsonw_lit(&s->holes, ",\"n\":") ||
		      jsonw_i64(&s->holes, s->hole_n) || jsonw_lit(&s->holes, "}");
	s->hole_n = 0;
	return bad ? -1 : 0;
}

/* Indexes at .. at+n-1 of the stream have no sample: one hole with the
 * pending one when they follow it. */
static int hole_add(struct stream *s, int64_t at, int64_t n)
{
	s->missing += n;
	if (s->hole_n && s->hole_at + s->hole_n == at) {
		s->hole_n += n;
		return 0;
	}
	if (hole_flush(s))
		return -1;
	s->hole_at = at;
	s->hole_n = n;
	return 0;
}

/* Ends the stream's object: after its samples, its count, missing and
 * holes (known once its last chunk is read); adds them to the totals. */
static int stream_end(struct buf *b, struct stream *s, struct totals *t)
{
	if (!s->open)
		return 0;
	s->open = 0;
	t->count += s->count;
	t->missing += s->missing;
	return hole_flush(s) || jsonw_lit(b, "]") || jsonw_key(b, "count") || jsonw_i64(b, s->count) ||
	       jsonw_key(b, "missing") || jsonw_i64(b, s->missing) || jsonw_key(b, "holes") ||
	       jsonw_lit(b, "[") || (s->holes.len && buf_add(b, s->holes.p, s->holes.len)) ||
	       jsonw_lit(b, "]}") ? -1 : 0;
}

/* Begins the object of k's stream, up to its samples array. */
static int stream_begin(struct buf *b, struct stream *s, const struct sample_chunk *k)
{
	s->open = 1;
	s->rep = k->rep;
	s->init = k->init;
	s->next = s->count = s->missing = s->hole_n = 0;
	s->holes.len = 0;
	return jsonw_lit(b, "{") || jsonw_key(b, "rep") || jsonw_i64(b, k->rep) || jsonw_key(b, "initiator") ||
	       initiator_val(b, k->init) || jsonw_key(b, "samples") || jsonw_lit(b, "[") ? -1 : 0;
}

/* One chunk of the current stream: the indexes before it that no chunk
 * holds are a hole, so is a chunk whose text does not read back (no value
 * is made up); its values go into the answer while the limit allows. */
static int chunk(struct buf *b, struct stream *s, struct totals *t, const struct sample_chunk *k, const int64_t *v,
		 int readable)
{
	int bad = k->idx0 > s->next && hole_add(s, s->next, k->idx0 - s->next);

	/* an unreadable chunk's n is all it tells: those indexes are missing
	 * (none when even n is not a count) */
	s->next = k->idx0 + (k->n > 0 ? k->n : 0);
	if (!readable)
		return bad || (k->n > 0 && hole_add(s, k->idx0, k->n)) ? -1 : 0;
	s->count += k->n;
	for (int64_t i = 0; i < k->n && t->returned < t->limit && !bad; i++, t->returned++) {
		char last = b->p[b->len - 1];

		bad = (last != '[' && jsonw_lit(b, ",")) || jsonw_i64(b, v[i]);
	}
	return bad ? -1 : 0;
}

int samples_json(struct buf *b, struct dbi *db, const struct samples_sel *sel, const struct dbval *tsc_khz,
		 int64_t limit)
{
	static __thread int64_t v[SAMPLES_CHUNK_MAX];
	struct samples_cursor c;
	struct sample_chunk k;
	struct stream s = { 0 };
	struct totals t = { .limit = limit };
	int more = 0, bad;

	bad = jsonw_lit(b, "{") || jsonw_key(b, "run") || jsonw_i64(b, sel->run) || jsonw_key(b, "case_id") ||
	      jsonw_i64(b, sel->case_id) || jsonw_key(b, "rep") ||
	      (sel->rep >= 0 ? jsonw_i64(b, sel->rep) : jsonw_lit(b, "null")) || jsonw_key(b, "initiator") ||
	      (sel->init >= 0 ? jsonw_i64(b, sel->init) : jsonw_str(b, "all")) || jsonw_key(b, "tsc_khz") ||
	      jsonw_dbval(b, tsc_khz) || jsonw_key(b, "limit") || jsonw_i64(b, limit) ||
	      jsonw_key(b, "streams") || jsonw_lit(b, "[");
	if (bad || samples_open(db, sel, &c))
		return -1;
	while (!bad && (more = samples_next(&c, &k)) == 1) {
		if (!s.open || k.rep != s.rep || k.init != s.init)
			bad = stream_end(b, &s, &t) || (b->p[b->len - 1] == '}' && jsonw_lit(b, ",")) ||
			      stream_begin(b, &s, &k);
		bad = bad || chunk(b, &s, &t, &k, v, samples_row_vals(c.st, v) == 0);
	}
	samples_close(&c);
	bad = bad || more < 0 || stream_end(b, &s, &t) || jsonw_lit(b, "]") || jsonw_key(b, "count") ||
	      jsonw_i64(b, t.count) || jsonw_key(b, "returned") || jsonw_i64(b, t.returned) ||
	      jsonw_key(b, "missing") || jsonw_i64(b, t.missing) || jsonw_key(b, "truncated") ||
	      (t.returned < t.count ? jsonw_lit(b, "true") : jsonw_lit(b, "false")) || jsonw_lit(b, "}");
	buf_free(&s.holes);
	return bad ? -1 : 0;
}
