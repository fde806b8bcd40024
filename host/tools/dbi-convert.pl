#!/usr/bin/perl -0777 -pi
# dbi-convert.pl FILE.c... — converts plain sqlite3_* data-access code to the
# storage seam (host/src/dbi.h) in place: the renames of docs/ARCHITECTURE.md
# ("The storage seam"), one for one. What it cannot rename (sqlite3_exec
# with an error message, sqlite3_value_*) is left for a compile error to
# point at. Usage: perl host/tools/dbi-convert.pl host/src/my_db.c
s/#include <sqlite3\.h>/#include "dbi.h"/g;
s/\bsqlite3_stmt\b/struct dbi_stmt/g;
s/\bsqlite3 \*/struct dbi */g;
s/sqlite3_prepare_v[23]\(((?:[^;])*?),\s*-1,\s*(?:SQLITE_PREPARE_PERSISTENT,\s*)?(&[\w\[\]\->.]+),\s*NULL\)/dbi_prepare($1, $2)/gs;
s/sqlite3_bind_int(?:64)?\(/dbi_bind_i64(/g;
s/sqlite3_bind_text\(((?:[^;])*?),\s*SQLITE_(?:TRANSIENT|STATIC)\)/dbi_bind_text($1)/gs;
s/sqlite3_bind_(null|double)\(/dbi_bind_$1(/g;
s/sqlite3_bind_parameter_index\(/dbi_param_index(/g;
s/\(const char \*\)\s*sqlite3_column_text\(/dbi_column_text(/g;
s/\(const unsigned char \*\)\s*sqlite3_column_text\(/dbi_column_text(/g;
s/sqlite3_column_text\(/dbi_column_text(/g;
s/sqlite3_column_int64\(/dbi_column_i64(/g;
s/sqlite3_column_(int|double|type|count)\(/dbi_column_$1(/g;
s/sqlite3_step\(/dbi_step(/g;
s/sqlite3_finalize\(/dbi_finalize(/g;
s/sqlite3_reset\(/dbi_reset(/g;
s/sqlite3_clear_bindings\(/dbi_clear(/g;
s/sqlite3_errmsg\(/dbi_errmsg(/g;
s/sqlite3_changes\(/dbi_changes(/g;
s/sqlite3_last_insert_rowid\(/dbi_last_id(/g;
s/sqlite3_get_autocommit\(/!dbi_in_txn(/g;
s/sqlite3_close(?:_v2)?\(/dbi_close(/g;
s/sqlite3_sql\(/dbi_sql(/g;
s/sqlite3_db_handle\(/dbi_db(/g;
s/sqlite3_exec\(([^;]*?),\s*NULL,\s*NULL,\s*NULL\)/dbi_exec($1)/gs;
s/\bSQLITE_(OK|ROW|DONE)\b/DBI_$1/g;
s/\bSQLITE_INTEGER\b/DBI_INT/g;
s/\bSQLITE_(FLOAT|TEXT|NULL)\b/DBI_$1/g;
s/\bsqlite3_int64\b/int64_t/g;
