/*
 * collector.h — the UDP side (collector.c): receives, validates and dedupes
 * frames, queues new ones for the writer and gives the writer its ACK sender.
 */
#ifndef XCB_COLLECTOR_H
#define XCB_COLLECTOR_H

struct run;

/* Binds the UDP socket and starts the thread: 0 or -1. */
int collector_start(void);
void collector_stop(void);
/* The writer's ACK callback (writer_ack_fn): a cumulative ACK to r's peer. */
void collector_ack(struct run *r);

#endif
