#!/usr/bin/env python3
"""mute-server.py — an HTTP server on 127.0.0.1 that never finishes an
answer, for the client's timeouts (tests/t-cli-errors.sh):

  mute-server.py PORTFILE silent   accepts, reads the request, never answers
  mute-server.py PORTFILE stall    answers 200 with the start of a CSV, then
                                   sends nothing more (an export cut short)
  mute-server.py PORTFILE full     never accepts; its accept queue is kept
                                   full, so a further connect gets no SYN-ACK

It writes its port to PORTFILE once it listens, and runs until killed.
"""
import os
import socket
import sys
import time


def main():
    portfile, mode = sys.argv[1], sys.argv[2]
    srv = socket.socket()
    srv.bind(('127.0.0.1', 0))
    # full: a backlog of 0 holds one connection; two fill it (Linux then
    # drops a third SYN, and its connect waits).
    srv.listen(0 if mode == 'full' else 8)
    port = srv.getsockname()[1]
    held = []
    if mode == 'full':
        for _ in range(2):
            c = socket.socket()
            c.setblocking(False)
            c.connect_ex(('127.0.0.1', port))
            held.append(c)
        time.sleep(0.5)
    with open(portfile + '.tmp', 'w') as f:
        f.write(f'{port}\n')
    os.rename(portfile + '.tmp', portfile)
    while True:
        if mode == 'full':
            time.sleep(60)
            continue
        conn, _ = srv.accept()
        held.append(conn)
        conn.recv(65536)
        if mode == 'stall':
            conn.sendall(b'HTTP/1.0 200 OK\r\nContent-Type: text/csv\r\n\r\nrun_id,case_id\n1,1\n')


if __name__ == '__main__':
    main()
