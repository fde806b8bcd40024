/*
 * slow_note.h — a line on a terminal's stderr when a call the user waits on
 * is slow (slow_note.c): a power call to a BMC that never answers sat
 * silent for ~12 s before its error. Scripts (stderr not a terminal) see
 * nothing of it: their stderr stays the error alone.
 */
#ifndef XCB_SLOW_NOTE_H
#define XCB_SLOW_NOTE_H

#include <pthread.h>

/* Seconds a call runs before its note is said. */
#define SLOW_NOTE_AFTER_S 2

struct slow_note {
	pthread_mutex_t mu;
	pthread_cond_t cv;     /* signalled by slow_note_end, waited on by the note's thread */
	pthread_t thread;
	int started, done;
	char line[512];
};

/* Says line (a newline is added) on stderr once SLOW_NOTE_AFTER_S have
 * passed, unless slow_note_end came first; nothing at all, and no thread,
 * when stderr is not a terminal. */
void slow_note_start(struct slow_note *n, const char *line);
/* The call is over: its note is never said after this returns. */
void slow_note_end(struct slow_note *n);

#endif
