/*
 * csv.h — RFC 4180 records: a field is quoted when it holds ',', '"', CR or
 * LF (and '"' doubled inside); records end with CRLF. Each csv_* call
 * appends one field and a ','; csv_end turns the last ',' into CRLF.
 * Spreadsheet-safe: a text field starting with = + - @ TAB or CR (and not
 * a plain number) gets a leading ' so Excel/LibreOffice show it as text
 * instead of evaluating it (labels and wire strings are anyone's input).
 */
#ifndef XCB_CSV_H
#define XCB_CSV_H

#include <stdint.h>

#include "util.h"

void csv_str(struct buf *b, const char *s);      /* NULL → empty field */
void csv_i64(struct buf *b, int64_t v);
void csv_f(struct buf *b, double v, int decimals); /* NaN → empty field */
/* x / 1000 with 3 decimals: the bytes of csv_f(b, x / 1000.0, 3), without
 * printf (a stored _x1000 field of the run CSV). */
void csv_milli(struct buf *b, int64_t x1000);
/* The same two cells written in place (into buf_room(b, CSV_NUM_MAX) or
 * more, for a whole record): each writes its field and ',' at p and
 * returns where it ended. */
#define CSV_NUM_MAX 32 /* bytes one of them writes at most, NUL aside */
char *csv_put_i64(char *p, int64_t v);
char *csv_put_milli(char *p, int64_t x1000);
void csv_empty(struct buf *b);
void csv_end(struct buf *b);

#endif
